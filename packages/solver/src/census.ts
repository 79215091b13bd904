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
      let best = -1;
      let bestEv = Number.NEGATIVE_INFINITY;
      node.actions.forEach((a, k) => {
        const ev = a.evs![c]!;
        if (Number.isFinite(ev) && ev > bestEv) {
          bestEv = ev;
          best = k;
        }
      });
      if (best < 0) continue;
      let misplayed = false;
      node.actions.forEach((a, k) => {
        const ev = a.evs![c]!;
        const freq = a.freqs[c]!;
        if (k === best || !Number.isFinite(ev)) return;
        const hole = {
          history: node.history,
          reach,
          hand: nameOf(pack, c),
          action: a.token,
          freq,
          ev,
          best: node.actions[best]!.token,
          bestEv,
        };
        if (reached && freq >= options.minFreq && bestEv - ev >= options.minGapSb) {
          reachedHoles++;
          keepWorst(worstReached, hole);
        }
        if (zero && freq >= options.zeroReachFreq && bestEv - ev > options.tieSb) {
          if (!misplayed) keepWorst(worstZeroReach, hole);
          misplayed = true;
        }
      });
      if (misplayed) {
        zeroReachMisplays++;
        misplayHere = true;
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
