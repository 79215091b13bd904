/**
 * A hand's preflop against the published equilibrium: where the hand's game, table size, forced bets and
 * effective stack match a pack the store serves, its preflop actions are walked down that pack's tree, and
 * each decision is set beside the strategy at its node:
 *
 * - for a player whose class is known (the hero, or cards shown): the frequency the strategy gives that
 *   class for the action taken, and the EV difference to the class's best action (EVs in sb as the packs
 *   store them; the difference is also given in bb);
 * - for everybody: the share of each kind of action (fold, call, raise) for the range that reaches the node
 *   along this line (the player's own earlier actions in the hand, card removal ignored), so observed
 *   frequencies can be compared with what the equilibrium would do in the same spots.
 *
 * Actions map by kind; a raise maps to the tree's raise whose size (raise-to, bb) is nearest, accepted within
 * 25% (or 0.5bb), an all-in to the tree's all-in. Where the hand leaves the tree (a size the tree lacks, a
 * line it does not hold) the walk stops and says so: later decisions are not comparable. Nothing is rounded
 * to fit.
 */

import {
  GAMES,
  type GameId,
  HOLDEM_CLASS_COMBOS,
  HOLDEM_CLASSES,
  isRangesError,
  ploClassComboCounts,
  ploClasses,
} from "@ranges/core";
import type { Node } from "@ranges/schema";
import type { RangeStore } from "@ranges/store";
import type { HandSummary, PlayerSummary } from "./types.js";

export type ActionKind = "fold" | "call" | "raise";

/** How many raises were made before the decision. */
export type Situation = "unopened" | "facing_raise" | "facing_3bet" | "facing_4bet_plus";

export const SITUATIONS: readonly Situation[] = [
  "unopened",
  "facing_raise",
  "facing_3bet",
  "facing_4bet_plus",
];

export interface Decision {
  /** Player index in the summary. */
  player: number;
  position: string;
  /** The node (action path) the decision was made at. */
  history: string;
  situation: Situation;
  /** The tree's action the hand's action maps to, its kind and size. */
  action: string;
  kind: ActionKind;
  actualToBb: number | null;
  treeSizeBb: number | null;
  /** Share of each kind of action for the range reaching the node along this line (sums to 1). */
  rangeShare: Record<ActionKind, number>;
  /** The player's class (when known) and what the strategy does with it. */
  handClass: string | null;
  /** Frequency of the action taken for the class; null when the class is unknown. */
  freq: number | null;
  evSb: number | null;
  bestAction: string | null;
  bestEvSb: number | null;
  /** bestEvSb - evSb, in bb (0 when the action taken is the best); null without EVs. */
  evLossBb: number | null;
}

export type Comparison =
  | {
      status: "compared";
      game: GameId;
      stack: number;
      /** The player's effective stack in the hand, bb. */
      effectiveBb: number;
      decisions: Decision[];
      /** Set when the walk left the tree before the end of the preflop: where and why. */
      stoppedAt: string | null;
    }
  | { status: "not_comparable"; reason: string };

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const r2 = (x: number): number => Math.round(x * 100) / 100;

/** The published game a hand's table maps to, or why none does. */
export function gameFor(s: HandSummary, store: RangeStore): { game: GameId } | { reason: string } {
  const live = (g: GameId) => store.liveStacks(g).length > 0;
  let candidates: GameId[] = [];
  if (s.game === "nlhe" && s.format === "cash") {
    candidates = s.dealt === 6 ? ["nl/v2", "nl"] : s.dealt === 9 ? ["nl9"] : [];
    if (candidates.length === 0) {
      return {
        reason: `${s.dealt} players were dealt in; the published NL hold'em cash games are 6-max (nl/v2, nl) and 9-max (nl9), with every seat dealt in.`,
      };
    }
  } else if (s.game === "nlhe" && s.format === "tournament") {
    if (s.tournament?.knockout) {
      return {
        reason:
          "A bounty (PKO, knockout) tournament: bounties change which calls and shoves pay, and no bounty equilibrium is published (the tournament set nlmtt8 is chip EV only), so this hand is not compared.",
      };
    }
    if (s.dealt !== 8) {
      return {
        reason: `${s.dealt} players were dealt in; the published tournament game is 8-max (nlmtt8) with every seat dealt in.`,
      };
    }
    candidates = ["nlmtt8"];
  } else if (s.game === "plo" && s.format === "cash") {
    const byCount: Record<number, GameId> = { 6: "plo", 9: "plo9", 5: "plo5", 2: "plo6hu" };
    const g = byCount[s.dealt];
    if (!g) return { reason: `${s.dealt} players were dealt in; PLO is published 2-, 5-, 6- and 9-handed.` };
    candidates = [g];
  } else {
    return {
      reason: `${s.label} ${s.format === "cash" ? "cash" : "tournament"} has no published preflop strategy (published: NL hold'em cash 6-max and 9-max, the 8-max tournament set, PLO cash).`,
    };
  }
  const game = candidates.find(live);
  if (!game) return { reason: `No packs of ${candidates.join(" or ")} are installed on this server.` };
  return { game };
}

/** Forced bets the game's packs are built with, or why the hand's differ. */
function forcedBetsFit(s: HandSummary, game: GameId): string | null {
  if (s.forced.straddle) return "A straddle was posted; the packs have none.";
  if (s.forced.deadBlind) return "A dead blind was posted; the packs have none.";
  if (!s.forced.sbPosted) return "No small blind was posted; the packs always have one.";
  const ante = GAMES[game].ante;
  if (ante === 0 && s.forced.antesBb > 0) {
    return `Antes of ${r2(s.forced.antesBb)}bb in all were posted; ${game} is published without antes.`;
  }
  if (ante > 0 && Math.abs(s.forced.antesBb - ante) > 0.05 * ante) {
    return `Antes of ${r2(s.forced.antesBb)}bb in all were posted; ${game} is published with a ${ante}bb big-blind ante.`;
  }
  return null;
}

/** A player's effective stack: their stack or the largest other stack dealt in, whichever is smaller. */
export function effectiveStackBb(s: HandSummary, player: number): number {
  const own = s.players[player]!.stackBb;
  const others = s.players.filter((_, i) => i !== player).map((p) => p.stackBb);
  return Math.min(own, others.length > 0 ? Math.max(...others) : own);
}

/** Largest ratio between a hand's effective stack and the pack's stack that still counts as a match. */
export const STACK_TOLERANCE = 1.25;

/** The live stack nearest (by ratio) to an effective stack, within STACK_TOLERANCE; else why not. */
export function stackFor(
  store: RangeStore,
  game: GameId,
  effectiveBb: number,
): { stack: number } | { reason: string } {
  const stacks = store.liveStacks(game);
  let best: number | null = null;
  for (const st of stacks) {
    if (best === null || Math.abs(Math.log(effectiveBb / st)) < Math.abs(Math.log(effectiveBb / best)))
      best = st;
  }
  if (best === null || Math.abs(Math.log(effectiveBb / best)) > Math.log(STACK_TOLERANCE)) {
    return {
      reason: `The effective stack is ${r2(effectiveBb)}bb; ${game} is published at ${stacks.join(", ")}bb (a match must be within a factor of ${STACK_TOLERANCE}).`,
    };
  }
  return { stack: best };
}

/** A node with its actions' weights as vectors over the class table, and its shares before any reach. */
export interface PreparedNode {
  readonly node: Node;
  /** Per action, the weight of every class (table order). */
  readonly weights: readonly Float64Array[];
  /** Per action, its kind. */
  readonly kinds: readonly ActionKind[];
  /** Combo mass per kind when every class reaches the node (a player's first decision). */
  readonly totals: Readonly<Record<ActionKind, number>>;
}

/** Full nodes (every class's weight and EV) of one call, by game, stack and history, prepared once. */
export class NodeCache {
  private readonly nodes = new Map<string, PreparedNode | Error>();
  constructor(readonly store: RangeStore) {}

  node(game: GameId, stack: number, history: string): PreparedNode {
    const key = `${game}|${stack}|${history}`;
    let hit = this.nodes.get(key);
    if (hit === undefined) {
      try {
        hit = prepare(this.store.node(game, stack, history), classTable(game));
      } catch (error) {
        if (!isRangesError(error)) throw error;
        hit = error;
      }
      this.nodes.set(key, hit);
    }
    if (hit instanceof Error) throw hit;
    return hit;
  }
}

function prepare(node: Node, table: ClassTable): PreparedNode {
  const totals: Record<ActionKind, number> = { fold: 0, call: 0, raise: 0 };
  const kinds = node.actions.map((a) => kindOf(a.kind));
  const weights = node.actions.map((a, j) => {
    const v = new Float64Array(table.names.length);
    for (const name in a.weights) {
      const c = table.index.get(name);
      if (c === undefined) continue;
      const w = a.weights[name]!;
      v[c] = w;
      totals[kinds[j]!] += w * table.combos[c]!;
    }
    return v;
  });
  return { node, weights, kinds, totals };
}

interface ClassTable {
  names: readonly string[];
  index: ReadonlyMap<string, number>;
  combos: ArrayLike<number>;
}
let holdemTable: ClassTable | null = null;
let ploTable: ClassTable | null = null;
function classTable(game: GameId): ClassTable {
  const make = (names: readonly string[], combos: ArrayLike<number>): ClassTable => ({
    names,
    index: new Map(names.map((n, i) => [n, i])),
    combos,
  });
  if (GAMES[game].classSet === "holdem169") {
    holdemTable ??= make(HOLDEM_CLASSES, HOLDEM_CLASS_COMBOS);
    return holdemTable;
  }
  ploTable ??= make(ploClasses(), ploClassComboCounts());
  return ploTable;
}

const kindOf = (k: string): ActionKind => (k === "fold" ? "fold" : k === "call" ? "call" : "raise");

/** The tree action a hand's action maps to, or why none does. */
function mapAction(
  node: Node,
  step: { a: string; toBb: number | null; allIn: boolean },
  stackBb: number,
): Node["actions"][number] | string {
  const want = step.a === "fold" ? "fold" : step.a === "check" || step.a === "call" ? "call" : "raise";
  if (want !== "raise") {
    const a = node.actions.find((x) => x.kind === want);
    return a ?? `${want === "fold" ? "Folding" : "Calling"} is not an action at ${node.history}.`;
  }
  const raises = node.actions.filter((x) => x.kind === "raise" || x.kind === "allin");
  const to = step.toBb ?? 0;
  const allIn = node.actions.find((x) => x.kind === "allin");
  if ((step.allIn || to >= stackBb * 0.97) && allIn) return allIn;
  let best: Node["actions"][number] | null = null;
  for (const a of raises) {
    if (a.sizeBb === null) continue;
    if (best === null || Math.abs(a.sizeBb - to) < Math.abs(best.sizeBb! - to)) best = a;
  }
  if (best && (Math.abs(best.sizeBb! - to) <= 0.5 || Math.abs(best.sizeBb! - to) <= 0.25 * best.sizeBb!)) {
    return best;
  }
  const sizes = raises.map((a) => (a.sizeBb === null ? a.action : `${a.sizeBb}bb`));
  return `The raise to ${r2(to)}bb at ${node.history} has no size in the tree (${sizes.length > 0 ? sizes.join(", ") : "no raise"}).`;
}

/**
 * Walks a hand's preflop down the pack for one player's effective stack (default: the hero). `cache` shares
 * nodes between hands of one call.
 */
export function compareHand(s: HandSummary, cache: NodeCache, player = s.hero): Comparison {
  if (player === null) return { status: "not_comparable", reason: "The hand has no hero to compare." };
  const mapped = gameFor(s, cache.store);
  if ("reason" in mapped) return { status: "not_comparable", reason: mapped.reason };
  const game = mapped.game;
  const forced = forcedBetsFit(s, game);
  if (forced) return { status: "not_comparable", reason: forced };
  if (s.players.some((p) => p.position === null)) {
    return { status: "not_comparable", reason: "The positions of the players are not known." };
  }
  const effectiveBb = effectiveStackBb(s, player);
  const st = stackFor(cache.store, game, effectiveBb);
  if ("reason" in st) return { status: "not_comparable", reason: st.reason };
  return walk(s, cache, game, st.stack, effectiveBb);
}

function walk(
  s: HandSummary,
  cache: NodeCache,
  game: GameId,
  stack: number,
  effectiveBb: number,
): Comparison {
  const table = classTable(game);
  // Each player's reach: the product of their own earlier actions' frequencies, per class (absent: all 1).
  const reach = new Map<number, Float64Array>();
  const decisions: Decision[] = [];
  let prefix = "";
  let raises = 0;
  let stoppedAt: string | null = null;
  for (const step of s.preflop) {
    const p: PlayerSummary = s.players[step.i]!;
    const history = prefix ? `${prefix}_${p.position}` : p.position!;
    let prepared: PreparedNode;
    try {
      prepared = cache.node(game, stack, history);
    } catch (error) {
      stoppedAt = `${history}: ${(error as Error).message}`;
      break;
    }
    const node = prepared.node;
    const action = mapAction(node, step, p.stackBb);
    if (typeof action === "string") {
      stoppedAt = action;
      break;
    }
    const chosenIndex = node.actions.indexOf(action);
    const chosen = prepared.weights[chosenIndex]!;
    const before = reach.get(step.i);
    let totals: Record<ActionKind, number>;
    const next = new Float64Array(table.names.length);
    if (before === undefined) {
      totals = prepared.totals;
      next.set(chosen);
    } else {
      totals = { fold: 0, call: 0, raise: 0 };
      prepared.weights.forEach((w, j) => {
        let mass = 0;
        for (let c = 0; c < w.length; c++) mass += w[c]! * table.combos[c]! * before[c]!;
        totals[prepared.kinds[j]!] += mass;
      });
      for (let c = 0; c < next.length; c++) next[c] = chosen[c]! * before[c]!;
    }
    const sum = totals.fold + totals.call + totals.raise;
    const share: Record<ActionKind, number> = {
      fold: sum > 0 ? r4(totals.fold / sum) : 0,
      call: sum > 0 ? r4(totals.call / sum) : 0,
      raise: sum > 0 ? r4(totals.raise / sum) : 0,
    };
    reach.set(step.i, next);
    const cls = p.handClass;
    let freq: number | null = null;
    let evSb: number | null = null;
    let bestAction: string | null = null;
    let bestEvSb: number | null = null;
    if (cls !== null && table.index.has(cls)) {
      freq = r4(action.weights[cls] ?? 0);
      evSb = action.evs[cls] ?? null;
      for (const a of node.actions) {
        const ev = a.evs[cls];
        if (ev !== undefined && (bestEvSb === null || ev > bestEvSb)) {
          bestEvSb = ev;
          bestAction = a.action;
        }
      }
    }
    decisions.push({
      player: step.i,
      position: p.position!,
      history,
      situation: SITUATIONS[Math.min(raises, 3)]!,
      action: action.action,
      kind: kindOf(action.kind),
      actualToBb: step.toBb,
      treeSizeBb: action.sizeBb,
      rangeShare: share,
      handClass: cls,
      freq,
      evSb,
      bestAction,
      bestEvSb,
      evLossBb: evSb !== null && bestEvSb !== null ? r4((bestEvSb - evSb) / 2) : null,
    });
    if (action.kind === "raise" || action.kind === "allin") raises++;
    prefix = `${history}_${action.action}`;
  }
  return { status: "compared", game, stack, effectiveBb, decisions, stoppedAt };
}
