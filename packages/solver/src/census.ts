/**
 * The local-holes census of a solved pack (issue "Preflop model v4", item 4): two counts that an average
 * exploitability hides.
 *
 * - **Reached holes:** at a node that the published strategies reach with probability at least
 *   `minReach` (1%), a class plays an action at frequency at least `minFreq` (10%) whose EV is at least
 *   `minGapSb` (2 sb, 1 bb) below the best EV that class has at that node. Each (node, class, action) counts once.
 * - **Unreached non-best responses:** at a node nobody reaches (reach exactly 0), a class plays, at frequency
 *   at least `zeroReachFreq` (0.001, the publisher's zero), an action whose EV is more than `tieSb` (0.05 sb,
 *   five times the packs' EV resolution) below its best: not a best response to the others' published
 *   strategies (ties within `tieSb` may be split). Each (node, class) counts once.
 *
 * EVs are the pack's (sb, relative to folding; NaN where unscored, skipped). Packs without EVs have nothing
 * to count. Only hold'em and unbucketed class sets are read; a bucketed PLO pack counts its buckets.
 */

import { HOLDEM_CLASSES } from "@ranges/core";
import { nodeReach, type PackData, storedValueCount } from "@ranges/store";
import type { DecisionResult } from "./engine/cfr.js";

export interface CensusOptions {
  readonly minReach: number;
  readonly minFreq: number;
  readonly minGapSb: number;
  readonly zeroReachFreq: number;
  readonly tieSb: number;
}

export const CENSUS_DEFAULTS: CensusOptions = {
  minReach: 0.01,
  minFreq: 0.1,
  minGapSb: 2,
  zeroReachFreq: 0.001,
  tieSb: 0.05,
};

export interface CensusHole {
  readonly history: string;
  readonly reach: number;
  readonly hand: string;
  readonly action: string;
  readonly freq: number;
  readonly ev: number;
  readonly best: string;
  readonly bestEv: number;
}

export interface CensusResult {
  readonly nodes: number;
  /** Nodes with reach at least `minReach`. */
  readonly reachedNodes: number;
  readonly reachedHoles: number;
  readonly zeroReachNodes: number;
  /** Reach-0 nodes where at least one class is not playing a best response. */
  readonly zeroReachNodesWithMisplay: number;
  readonly zeroReachMisplays: number;
  /** The largest cases of each count (by EV gap), for a reader. */
  readonly worstReached: CensusHole[];
  readonly worstZeroReach: CensusHole[];
}

/** One class at one decision: its best action, and how far below it the worst action it plays lies. */
export interface ClassShortfall {
  /** The action with the highest EV (the first of equals). */
  readonly best: number;
  readonly bestEv: number;
  /** The action played at `minFreq` or more furthest below the best, or -1 when there is none. */
  readonly played: number;
  /** `bestEv` minus the EV of `played`; 0 when `played` is -1. */
  readonly gap: number;
}

/**
 * The shortfall of one class over `count` actions, given each action's EV and frequency. Actions whose EV is
 * not finite (unscored) are skipped; null when no action has a finite EV. The rule the census and
 * `unreachedMisplays` share: a class is not playing a best response when `gap` exceeds the tie margin.
 */
export function classShortfall(
  count: number,
  ev: (a: number) => number,
  freq: (a: number) => number,
  minFreq: number,
): ClassShortfall | null {
  let best = -1;
  let bestEv = Number.NEGATIVE_INFINITY;
  for (let a = 0; a < count; a++) {
    const x = ev(a);
    if (Number.isFinite(x) && x > bestEv) {
      bestEv = x;
      best = a;
    }
  }
  if (best < 0) return null;
  let played = -1;
  let gap = 0;
  for (let a = 0; a < count; a++) {
    const x = ev(a);
    if (a === best || !Number.isFinite(x) || freq(a) < minFreq) continue;
    if (bestEv - x > gap) {
      gap = bestEv - x;
      played = a;
    }
  }
  return { best, bestEv, played, gap };
}

/** A class of a solver's result that is not playing a best response at a decision nobody reaches. */
export interface UnreachedMisplay {
  readonly result: DecisionResult;
  readonly c: number;
  readonly shortfall: ClassShortfall;
}

/**
 * The census's unreached rule on a solver's results instead of a pack (EVs in bb): at each decision of
 * reach 0 with EVs and two or more actions, the classes playing an action at `minFreq` or more that is more
 * than `tieBb` below their best (defaults: the census's 0.001 and 0.05 sb).
 */
export function unreachedMisplays(
  results: readonly DecisionResult[],
  minFreq = CENSUS_DEFAULTS.zeroReachFreq,
  tieBb = CENSUS_DEFAULTS.tieSb / 2,
): { readonly decisions: number; readonly misplays: UnreachedMisplay[] } {
  let decisions = 0;
  const misplays: UnreachedMisplay[] = [];
  for (const result of results) {
    const { evs, strategy } = result;
    const count = result.node.actions.length;
    if (result.reach !== 0 || evs === null || count < 2) continue;
    decisions++;
    const classes = strategy.length / count;
    for (let c = 0; c < classes; c++) {
      const shortfall = classShortfall(
        count,
        (a) => evs[a * classes + c]!,
        (a) => strategy[a * classes + c]!,
        minFreq,
      );
      if (shortfall !== null && shortfall.gap > tieBb) misplays.push({ result, c, shortfall });
    }
  }
  return { decisions, misplays };
}

const SHOWN = 10;

const nameOf = (pack: PackData, i: number): string =>
  pack.header.classSet === "holdem169" ? HOLDEM_CLASSES[i]! : `class ${i}`;

function keepWorst(list: CensusHole[], hole: CensusHole): void {
  list.push(hole);
  list.sort((a, b) => b.bestEv - b.ev - (a.bestEv - a.ev));
  if (list.length > SHOWN) list.length = SHOWN;
}

/** Counts both kinds of hole in a decoded pack. */
export function packCensus(pack: PackData, options: CensusOptions = CENSUS_DEFAULTS): CensusResult {
  const n = storedValueCount(pack.header);
  let reachedNodes = 0;
  let reachedHoles = 0;
  let zeroReachNodes = 0;
  let zeroReachNodesWithMisplay = 0;
  let zeroReachMisplays = 0;
  const worstReached: CensusHole[] = [];
  const worstZeroReach: CensusHole[] = [];
  if (pack.header.evUnit === null) {
    return {
      nodes: pack.nodes.length,
      reachedNodes,
      reachedHoles,
      zeroReachNodes,
      zeroReachNodesWithMisplay,
      zeroReachMisplays,
      worstReached,
      worstZeroReach,
    };
  }
  for (const node of pack.nodes) {
    if (node.actions.length < 2) continue;
    const reach = nodeReach(pack, node.history);
    const reached = reach >= options.minReach;
    const zero = reach === 0;
    if (reached) reachedNodes++;
    if (zero) zeroReachNodes++;
    if (!reached && !zero) continue;
    let misplayHere = false;
    for (let c = 0; c < n; c++) {
      const evOf = (k: number) => node.actions[k]!.evs![c]!;
      const freqOf = (k: number) => node.actions[k]!.freqs[c]!;
      const hole = (k: number, best: number, bestEv: number): CensusHole => ({
        history: node.history,
        reach,
        hand: nameOf(pack, c),
        action: node.actions[k]!.token,
        freq: freqOf(k),
        ev: evOf(k),
        best: node.actions[best]!.token,
        bestEv,
      });
      if (zero) {
        const s = classShortfall(node.actions.length, evOf, freqOf, options.zeroReachFreq);
        if (s !== null && s.gap > options.tieSb) {
          keepWorst(worstZeroReach, hole(s.played, s.best, s.bestEv));
          zeroReachMisplays++;
          misplayHere = true;
        }
      }
      if (reached) {
        const s = classShortfall(node.actions.length, evOf, freqOf, options.minFreq);
        if (s === null) continue;
        node.actions.forEach((_, k) => {
          const ev = evOf(k);
          if (k === s.best || !Number.isFinite(ev)) return;
          if (freqOf(k) >= options.minFreq && s.bestEv - ev >= options.minGapSb) {
            reachedHoles++;
            keepWorst(worstReached, hole(k, s.best, s.bestEv));
          }
        });
      }
    }
    if (misplayHere) zeroReachNodesWithMisplay++;
  }
  return {
    nodes: pack.nodes.length,
    reachedNodes,
    reachedHoles,
    zeroReachNodes,
    zeroReachNodesWithMisplay,
    zeroReachMisplays,
    worstReached,
    worstZeroReach,
  };
}
