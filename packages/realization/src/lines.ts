/**
 * Heads-up flop lines of a preflop pack: which two seats see the flop, with which ranges, pot and stacks.
 *
 * A line is written as the non-folding steps of the preflop action in acting order; every seat not named
 * folds when its turn comes. Steps (`LineStep`):
 *
 * - `"BTN:raise"`: the seat's most used raise at that node (by combos), whatever its size;
 * - `"BTN:call"`: the seat calls (a first-in call is the SB's limp; the BB's call after a limp is its check).
 *
 * ```ts
 * // BTN opens, SB folds, BB calls: a single-raised pot with the opener in position.
 * { id: "srp-btn-bb", kind: "srp-ip", steps: ["BTN:raise", "BB:call"] }
 * // CO opens, BTN 3-bets, CO calls: a 3-bet pot with the 3-bettor in position.
 * { id: "3bp-btn-co", kind: "3bp-ip", steps: ["CO:raise", "BTN:raise", "CO:call"] }
 * ```
 *
 * Each player's range at the flop is the product, over its own decisions on the line, of the frequency of
 * the action it took there (per hand class): the pack's published strategies. Seats that fold are left out
 * (their cards are not removed from the deck). The pot counts the blinds, the dead ante and everything put
 * in; the stack is the smaller of the two players' chips behind.
 */

import { gameInfo, HOLDEM_CLASSES, isGameId, ploClasses } from "@ranges/core";
import { MIN_CLASS_WEIGHT } from "@ranges/postflop";
import type { RangeStore } from "@ranges/store";

/** The kinds of heads-up flop pot the preflop trees produce. */
export type LineKind =
  /** Single-raised pot, the raiser in position (an open called by a blind). */
  | "srp-ip"
  /** Single-raised pot, the raiser out of position (an open called behind, or SB against BB). */
  | "srp-oop"
  /** The SB limps, the BB checks. */
  | "limp"
  /** 3-bet pot, the 3-bettor out of position. */
  | "3bp-oop"
  /** 3-bet pot, the 3-bettor in position. */
  | "3bp-ip"
  /** 4-bet pot, the 4-bettor in position. */
  | "4bp-ip"
  /** 4-bet pot, the 4-bettor out of position. */
  | "4bp-oop";

export type LineStep = `${string}:${"raise" | "call"}`;

export interface LineSpec {
  readonly id: string;
  readonly kind: LineKind;
  readonly steps: readonly LineStep[];
}

/**
 * The lines measured in every pack: each kind once, with the seats every game has (CO, BTN, SB, BB). Seats
 * in position act later postflop: the BTN is in position against everyone, the BB against the SB.
 */
export const STANDARD_LINES: readonly LineSpec[] = [
  { id: "srp-btn-bb", kind: "srp-ip", steps: ["BTN:raise", "BB:call"] },
  { id: "srp-co-bb", kind: "srp-ip", steps: ["CO:raise", "BB:call"] },
  { id: "srp-co-btn", kind: "srp-oop", steps: ["CO:raise", "BTN:call"] },
  { id: "srp-sb-bb", kind: "srp-oop", steps: ["SB:raise", "BB:call"] },
  { id: "limp-sb-bb", kind: "limp", steps: ["SB:call", "BB:call"] },
  { id: "3bp-bb-btn", kind: "3bp-oop", steps: ["BTN:raise", "BB:raise", "BTN:call"] },
  { id: "3bp-btn-co", kind: "3bp-ip", steps: ["CO:raise", "BTN:raise", "CO:call"] },
  { id: "4bp-btn-bb", kind: "4bp-ip", steps: ["BTN:raise", "BB:raise", "BTN:raise", "BB:call"] },
  { id: "4bp-co-btn", kind: "4bp-oop", steps: ["CO:raise", "BTN:raise", "CO:raise", "BTN:call"] },
];

/**
 * Lines of the first seat's open, solved on request (`--lines`): the early seats' single-raised pots, where a
 * class that the standard lines only hold at the range floor as a raiser (a low suited connector that v3.3's
 * early seats fold) is played by the ranges of a prototype that opens it (docs/solver-model.md), and the
 * 3-bet pots where the first seat calls a 3-bet (what its middle pairs are worth after opening).
 */
export const EARLY_LINES: readonly LineSpec[] = [
  { id: "srp-utg-bb", kind: "srp-ip", steps: ["UTG:raise", "BB:call"] },
  { id: "srp-utg-btn", kind: "srp-oop", steps: ["UTG:raise", "BTN:call"] },
  { id: "3bp-bb-utg", kind: "3bp-oop", steps: ["UTG:raise", "BB:raise", "UTG:call"] },
  { id: "3bp-btn-utg", kind: "3bp-ip", steps: ["UTG:raise", "BTN:raise", "UTG:call"] },
];

/** A heads-up pot at the flop, read off a preflop pack. */
export interface FlopLine {
  readonly id: string;
  readonly kind: LineKind;
  readonly game: string;
  readonly stack: number;
  /** The full preflop history of the line (the path grammar of the API), ending with the last call. */
  readonly history: string;
  readonly description: string;
  readonly oop: string;
  readonly ip: string;
  /** The player who made the last raise (the initiative), or null in a limped pot. */
  readonly aggressor: "oop" | "ip" | null;
  readonly pot: number;
  /** Chips behind, the smaller of the two (bb). */
  readonly behind: number;
  readonly rake: { readonly percent: number; readonly capBb: number } | null;
  /** Range weight per hand class, in `lineClasses(game)` order (169 for hold'em, 16,432 for PLO). */
  readonly ranges: { readonly oop: Float64Array; readonly ip: Float64Array };
  /** How often the line is played (the pack's reach of its last node). */
  readonly reach: number;
}

export class LineError extends Error {}

type Node = ReturnType<RangeStore["node"]>;
type Action = Node["actions"][number];

const round2 = (x: number) => Math.round(x * 100) / 100;

function parseStep(step: LineStep): { seat: string; act: "raise" | "call" } {
  const [seat, act] = step.split(":") as [string, "raise" | "call"];
  return { seat, act };
}

/** Postflop order: the BB acts last against the SB, the BTN last against everyone, else later seat last. */
function postflopIndex(seats: readonly string[], seat: string): number {
  if (seat === "SB") return -2;
  if (seat === "BB") return -1;
  return seats.indexOf(seat);
}

/** The hand classes a game's line ranges are indexed by: `HOLDEM_CLASSES`, or `ploClasses()` for PLO games. */
export function lineClasses(game: string): readonly string[] {
  if (!isGameId(game)) throw new LineError(`unknown game ${game}`);
  return gameInfo(game).classSet === "plo16432" ? ploClasses() : HOLDEM_CLASSES;
}

/**
 * Reads a line off a game's pack at a stack (hold'em or PLO). Throws `LineError` when the pack has no such line (a seat
 * cannot take the step there) or the two players are all in before the flop.
 */
export function readLine(store: RangeStore, game: string, stack: number, spec: LineSpec): FlopLine {
  if (!isGameId(game)) throw new LineError(`unknown game ${game}`);
  const info = gameInfo(game);
  const steps = spec.steps.map(parseStep);
  const players = [...new Set(steps.map((s) => s.seat))];
  if (players.length !== 2) throw new LineError(`${spec.id}: a line has exactly two players`);
  const start = new Map(info.seats.map((s) => [s, stack - (info.antePostedBy === s ? info.ante : 0)]));
  const put = new Map(info.seats.map((s) => [s, s === "SB" ? 0.5 : s === "BB" ? 1 : 0]));
  const classes = lineClasses(game);
  const weights = new Map(players.map((p) => [p, new Float64Array(classes.length).fill(1)]));
  const folded = new Set<string>();
  const said: string[] = [];
  let history = info.seats[0]!;
  let node: Node = store.node(game, stack, history);
  let next = 0;
  let lastRaiser: string | null = null;
  let reach = node.reach;
  for (let guard = 0; guard < 64; guard++) {
    const actor = node.actor;
    const step = steps[next];
    let action: Action;
    if (step && step.seat === actor) {
      const candidates = node.actions.filter((a) => a.kind === step.act);
      if (candidates.length === 0)
        throw new LineError(`${spec.id}: ${actor} cannot ${step.act} at ${history} (${game} ${stack}bb)`);
      action = candidates.reduce((best, a) => (a.combos > best.combos ? a : best));
      const w = weights.get(actor)!;
      classes.forEach((cls, i) => {
        w[i] = w[i]! * (action.weights[cls] ?? 0);
      });
      if (action.kind === "raise") {
        if (action.sizeBb === null) throw new LineError(`${spec.id}: ${action.action} has no size`);
        put.set(actor, action.sizeBb);
        lastRaiser = actor;
        said.push(`${actor} raises to ${action.sizeBb}bb`);
      } else {
        put.set(actor, Math.max(...put.values()));
        said.push(
          lastRaiser === null && actor !== "BB"
            ? `${actor} limps`
            : `${actor} ${lastRaiser === null ? "checks" : "calls"}`,
        );
      }
      next++;
    } else {
      if (players.includes(actor))
        throw new LineError(`${spec.id}: ${actor} acts at ${history} where the line names no step for it`);
      const fold = node.actions.find((a) => a.kind === "fold");
      if (!fold) throw new LineError(`${spec.id}: ${actor} cannot fold at ${history}`);
      action = fold;
      folded.add(actor);
    }
    history = `${history}_${action.action}`;
    // The next seat to act: the next one in acting order that has not folded.
    const i = info.seats.indexOf(actor);
    let following = "";
    for (let k = 1; k <= info.seats.length; k++) {
      const seat = info.seats[(i + k) % info.seats.length]!;
      if (!folded.has(seat)) {
        following = seat;
        break;
      }
    }
    // Every step taken and the action back to a player: the betting round is closed.
    if (next === steps.length && players.includes(following)) break;
    history = `${history}_${following}`;
    try {
      node = store.node(game, stack, history);
    } catch (error) {
      throw new LineError(`${spec.id}: ${history} is not a node (${(error as Error).message})`);
    }
    reach = node.reach;
  }
  if (next !== steps.length) throw new LineError(`${spec.id}: the line does not end`);
  const [a, b] = players as [string, string];
  const [oop, ip] = postflopIndex(info.seats, a) < postflopIndex(info.seats, b) ? [a, b] : [b, a];
  const pot = round2([...put.values()].reduce((s, x) => s + x, 0) + info.ante);
  const behind = round2(Math.min(start.get(oop)! - put.get(oop)!, start.get(ip)! - put.get(ip)!));
  if (!(behind > 0.5)) throw new LineError(`${spec.id}: all in before the flop at ${game} ${stack}bb`);
  const rake = store.packMeta(game, stack).header.config.rake ?? null;
  return {
    id: spec.id,
    kind: spec.kind,
    game,
    stack,
    history,
    description: said.join(", "),
    oop,
    ip,
    aggressor: lastRaiser === null ? null : lastRaiser === oop ? "oop" : "ip",
    pot,
    behind,
    rake: rake ? { percent: rake.percent, capBb: rake.capBb } : null,
    ranges: { oop: weights.get(oop)!, ip: weights.get(ip)! },
    reach,
  };
}

/**
 * A class weight as the postflop solver reads it from `rangeText`: 4 decimals, under `MIN_CLASS_WEIGHT` of
 * @ranges/postflop left out (0), at most 1.
 */
export function solverWeight(x: number): number {
  const r = Math.round(x * 10000) / 10000;
  return r < MIN_CLASS_WEIGHT ? 0 : Math.min(r, 1);
}

/**
 * A class-weight vector as the postflop solver's range notation (`AA:0.9767,AKs,...`), in `HOLDEM_CLASSES`
 * order (`rangeFromWeights` of @ranges/postflop reads a record, whose pair keys "22" to "99" would come first).
 */
export function rangeText(weights: Float64Array): string {
  const items: string[] = [];
  HOLDEM_CLASSES.forEach((cls, i) => {
    const x = solverWeight(weights[i]!);
    if (x === 0) return;
    items.push(x >= 1 ? cls : `${cls}:${x}`);
  });
  return items.join(",");
}
