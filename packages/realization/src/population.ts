/**
 * Every flop's equity, per class, for the lines a batch solved: the population half of the realization
 * estimator (`estimator.ts`).
 *
 * A line is solved on 30 flops, and a class's realization on a flop moves mostly with how well the flop hits
 * it: its average equity there, `s` (from 0 to 1). That equity costs no solve. So for each line and player we
 * compute, on all 1,755 strategically distinct flops (each weighed by how many of the 22,100 flops it stands
 * for), every combo's equity against the other player's range as the solve saw it, and keep per class the
 * moments
 *
 *   P_k[c] = sum_f W_f * live_cf * s_cf^k / sum_f W_f      (k = 0 .. degree + 1)
 *
 * with `live_cf` the class's combos that miss flop f and `s_cf` their mean equity over every turn and river.
 * A class's expected equity mass is `pot * reach_c * P_1[c]`, and a realization curve `g(s) = sum_j b_j s^j`
 * fitted to the solved flops averages to `sum_j b_j P_(j+1)[c] / P_1[c]` over every flop.
 *
 * Equity is computed exactly as the postflop solver's (`equities` of @ranges/postflop): win plus half the
 * ties over every runout, each opposing combo weighed by its reach, card removal included. The test compares
 * the two on random ranges.
 *
 * ```ts
 * const rows = populationMoments([{ oop, ip }], { degree: 5 }); // one line, two players, 1,755 flops
 * rows[0].oop[1][classIndex] // P_1: the class's mean live combos times its equity
 * ```
 */

import { createHash } from "node:crypto";
import { HOLDEM_CLASSES } from "@ranges/core";
import { canonicalFlops } from "@ranges/postflop";
import {
  COMBO_CLASS,
  COMBO_COUNT,
  COMBO_HIGH_CARD,
  COMBO_LOW_CARD,
  evaluateWith2,
  partialHand,
} from "@ranges/solver";
import { solverWeight } from "./lines.js";

const CLASSES = HOLDEM_CLASSES.length;

/** Each combo's reach in a range given as class weights: what `rangeText` hands the solver (4 decimals, below 0.005 out). */
export function comboReach(classWeights: readonly number[]): Float64Array {
  const out = new Float64Array(COMBO_COUNT);
  for (let h = 0; h < COMBO_COUNT; h++) out[h] = solverWeight(classWeights[COMBO_CLASS[h]!]!);
  return out;
}

/**
 * Every combo's equity on a flop against each of the reach vectors `opponents` (1,326 combo weights each):
 * win plus half the ties over the 1,176 turn and river cards, as a fraction of the opposing weight the combo
 * does not block. NaN for combos that touch the flop or meet no opposing weight.
 */
export function flopEquities(flop: readonly number[], opponents: readonly Float64Array[]): Float64Array[] {
  const onBoard = new Uint8Array(52);
  for (const c of flop) onBoard[c] = 1;
  const live: number[] = [];
  for (let h = 0; h < COMBO_COUNT; h++)
    if (!onBoard[COMBO_LOW_CARD[h]!] && !onBoard[COMBO_HIGH_CARD[h]!]) live.push(h);
  const n = live.length;
  const O = opponents.length;
  const lo = Uint8Array.from(live, (h) => COMBO_LOW_CARD[h]!);
  const hi = Uint8Array.from(live, (h) => COMBO_HIGH_CARD[h]!);
  // Opponents interleaved (hand k, opponent o at k * O + o): one pass over the hands serves them all.
  const reach = new Float64Array(n * O);
  opponents.forEach((opp, o) => {
    for (let k = 0; k < n; k++) reach[k * O + o] = opp[live[k]!]!;
  });
  const acc = new Float64Array(n * O);
  const keys = new Float64Array(n);
  const order = new Int32Array(n);
  const less = new Float64Array(52 * O);
  const group = new Float64Array(52 * O);
  const lessAll = new Float64Array(O);
  const groupAll = new Float64Array(O);
  const deck: number[] = [];
  for (let c = 0; c < 52; c++) if (!onBoard[c]) deck.push(c);
  for (let i = 0; i < deck.length; i++) {
    for (let j = i + 1; j < deck.length; j++) {
      const t = deck[i]!;
      const r = deck[j]!;
      const partial = partialHand([...flop, t, r]);
      let m = 0;
      for (let k = 0; k < n; k++) {
        const a = lo[k]!;
        const b = hi[k]!;
        if (a === t || a === r || b === t || b === r) continue;
        // strength in the high part, the hand's index in the low 12 bits: one numeric sort orders both
        keys[m++] = evaluateWith2(partial, a, b) * 4096 + k;
      }
      const sorted = keys.subarray(0, m).sort();
      for (let q = 0; q < m; q++) order[q] = sorted[q]! % 4096;
      less.fill(0);
      lessAll.fill(0);
      let start = 0;
      while (start < m) {
        const strength = Math.floor(sorted[start]! / 4096);
        let end = start + 1;
        while (end < m && Math.floor(sorted[end]! / 4096) === strength) end++;
        for (let q = start; q < end; q++) {
          const k = order[q]!;
          const a = lo[k]! * O;
          const b = hi[k]! * O;
          const kk = k * O;
          for (let o = 0; o < O; o++) {
            const x = reach[kk + o]!;
            groupAll[o]! += x;
            group[a + o]! += x;
            group[b + o]! += x;
          }
        }
        for (let q = start; q < end; q++) {
          const k = order[q]!;
          const a = lo[k]! * O;
          const b = hi[k]! * O;
          const kk = k * O;
          for (let o = 0; o < O; o++) {
            acc[kk + o]! +=
              lessAll[o]! -
              less[a + o]! -
              less[b + o]! +
              (groupAll[o]! - group[a + o]! - group[b + o]! + reach[kk + o]!) / 2;
          }
        }
        for (let q = start; q < end; q++) {
          const k = order[q]!;
          const a = lo[k]! * O;
          const b = hi[k]! * O;
          const kk = k * O;
          for (let o = 0; o < O; o++) {
            const x = reach[kk + o]!;
            less[a + o]! += x;
            less[b + o]! += x;
            group[a + o] = 0;
            group[b + o] = 0;
          }
        }
        for (let o = 0; o < O; o++) {
          lessAll[o]! += groupAll[o]!;
          groupAll[o] = 0;
        }
        start = end;
      }
    }
  }
  // Each opposing combo that misses the hand and the flop meets the hand on C(45, 2) = 990 runouts.
  const runouts = ((52 - flop.length - 4) * (52 - flop.length - 5)) / 2;
  return opponents.map((_, o) => {
    const w = (k: number) => reach[k * O + o]!;
    const byCard = new Float64Array(52);
    let all = 0;
    for (let k = 0; k < n; k++) {
      all += w(k);
      byCard[lo[k]!]! += w(k);
      byCard[hi[k]!]! += w(k);
    }
    const eq = new Float64Array(COMBO_COUNT).fill(Number.NaN);
    for (let k = 0; k < n; k++) {
      const total = all - byCard[lo[k]!]! - byCard[hi[k]!]! + w(k);
      if (total > 1e-12) eq[live[k]!] = acc[k * O + o]! / (runouts * total);
    }
    return eq;
  });
}

/** The two players' ranges of one line as its boards record them (class weights, `HOLDEM_CLASSES` order). */
export interface LineRanges {
  readonly oop: readonly number[];
  readonly ip: readonly number[];
}

/** Per player, `moments[k][c]` = P_k of the module comment. */
export interface PopulationMoments {
  readonly oop: number[][];
  readonly ip: number[][];
}

/**
 * The moments of every line on every flop (`flops`, default all 1,755 with their weights). `progress` is
 * called after each flop.
 */
export function populationMoments(
  lines: readonly LineRanges[],
  options: {
    degree: number;
    flops?: readonly { readonly cards: readonly number[]; readonly count: number }[];
    progress?: (done: number, total: number) => void;
  },
): PopulationMoments[] {
  const flops = options.flops ?? canonicalFlops();
  const orders = options.degree + 2;
  // opponents: for each line, the equity of OOP's combos is against IP's reach, and the other way round
  const opponents = lines.flatMap((l) => [comboReach(l.ip), comboReach(l.oop)]);
  const sums = opponents.map(() => Array.from({ length: orders }, () => new Float64Array(CLASSES)));
  const eqSum = new Float64Array(CLASSES);
  const liveCount = new Float64Array(CLASSES);
  let weight = 0;
  flops.forEach((flop, fi) => {
    const eqs = flopEquities(flop.cards, opponents);
    weight += flop.count;
    eqs.forEach((eq, o) => {
      eqSum.fill(0);
      liveCount.fill(0);
      for (let h = 0; h < COMBO_COUNT; h++) {
        const q = eq[h]!;
        if (Number.isNaN(q)) continue;
        const c = COMBO_CLASS[h]!;
        eqSum[c]! += q;
        liveCount[c]! += 1;
      }
      const target = sums[o]!;
      for (let c = 0; c < CLASSES; c++) {
        const live = liveCount[c]!;
        if (live === 0) continue;
        const s = eqSum[c]! / live;
        let power = flop.count * live;
        for (let k = 0; k < orders; k++) {
          target[k]![c]! += power;
          power *= s;
        }
      }
    });
    options.progress?.(fi + 1, flops.length);
  });
  const norm = (x: Float64Array[]) => x.map((row) => Array.from(row, (v) => v / weight));
  return lines.map((_, i) => ({ oop: norm(sums[2 * i]!), ip: norm(sums[2 * i + 1]!) }));
}

/** A key for a line's two ranges as the solver read them: boards with the same key share one population. */
export function rangesKey(ranges: LineRanges): string {
  const text = (w: readonly number[]) => w.map(solverWeight).join(",");
  return createHash("sha256")
    .update(`${text(ranges.oop)}|${text(ranges.ip)}`)
    .digest("hex")
    .slice(0, 16);
}
