/**
 * What the viewer derives from a /node response with @ranges/core: the 13x13 grid of hold'em classes, the
 * seat to act after an action (the path grammar's betting order), and colours per action.
 */

import {
  BettingOrder,
  GAMES,
  type GameId,
  HOLDEM_CLASS_COMBOS,
  HOLDEM_CLASSES,
  isGameId,
  parsePath,
} from "@ranges/core";
import type { Action, Node } from "@ranges/schema";

export const RANKS = "AKQJT98765432";

/** The class at row `r`, column `c` of the usual grid: pairs on the diagonal, suited above it, offsuit below. */
export function gridClass(r: number, c: number): string {
  const a = RANKS[r]!;
  const b = RANKS[c]!;
  if (r === c) return `${a}${b}`;
  return r < c ? `${a}${b}s` : `${b}${a}o`;
}

/** Concrete combos of a class: pairs 6, suited 4, offsuit 12. */
export function classCombos(hand: string): number {
  const i = (HOLDEM_CLASSES as readonly string[]).indexOf(hand);
  return i >= 0 ? HOLDEM_CLASS_COMBOS[i]! : 0;
}

export interface Step {
  seat: string;
  token: string;
}

/** The steps before the decision of a node history (`UTG_Fold_HJ` -> [UTG Fold]); throws the grammar's errors. */
export function stepsOf(game: GameId, history: string): Step[] {
  return parsePath(game, history).steps.map((s) => ({ seat: s.seat, token: s.action.token }));
}

/**
 * The node history after `actor` takes `action` at `history`, or null when the action closes preflop (the
 * hand goes to a flop or is over): the seat to act is the grammar's next seat.
 */
export function nextHistory(game: GameId, history: string, action: Action): string | null {
  const parsed = parsePath(game, history);
  const order = new BettingOrder(GAMES[game].seats);
  for (const s of parsed.steps) {
    order.apply(s.seat, s.action.kind, s.action.kind === "raise" || s.action.kind === "allin");
  }
  const kind = action.kind === "other" ? "call" : action.kind;
  order.apply(parsed.actor, kind, kind === "raise" || kind === "allin");
  const next = order.nextToAct();
  return next === null ? null : `${history}_${action.action}_${next}`;
}

const RAISE_COLOURS = ["#eea236", "#d9443c", "#8f46b0", "#c2417e", "#5d3fa6", "#a8326e"];

/** One colour per action of a node: fold blue, call green, raises from amber to red by size, all-in deep red. */
export function actionColours(node: Node): string[] {
  let raiseIndex = 0;
  return node.actions.map((a) => {
    if (a.kind === "fold") return "#4a7bd0";
    if (a.kind === "call") return "#3e9b5c";
    if (a.kind === "allin") return "#6b1a2a";
    if (a.kind === "raise") return RAISE_COLOURS[Math.min(raiseIndex++, RAISE_COLOURS.length - 1)]!;
    return "#8a8a8a";
  });
}

/** The action's label: its token, and its size in bb when the data has one. */
export function actionLabel(a: Action): string {
  const size = a.sizeBb !== null && a.kind !== "fold" && a.kind !== "call" ? ` ${a.sizeBb}bb` : "";
  return `${a.action}${size}`;
}

/** A frequency as a percentage with one decimal (what the grid and details show). */
export const pct = (f: number): string => `${(Math.round(f * 1000) / 10).toFixed(1)}%`;

/** Games whose nodes the viewer shows: hold'em (the 13x13 grid) and PLO (categories and the class list). */
export const viewable = (game: string): game is GameId =>
  isGameId(game) && (GAMES[game].variant === "holdem" || GAMES[game].variant === "omaha");
