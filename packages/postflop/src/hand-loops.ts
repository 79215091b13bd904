/**
 * The per-hand loops of a traversal in float64 JavaScript: the top of the tree runs them (`PostflopSolver`,
 * in float64), queries evaluate with them, and the WebAssembly kernels below the top (src/kernels.wat) give
 * their bits rounded to float32 (test/kernels.test.ts). Vectors are offsets into one buffer, as in the engine.
 */

import type { Discount } from "./dcfr.js";
import type { PostflopGame } from "./game.js";

/** Sets the entries of the hands holding `card` to 0. */
export function zeroHands(
  buf: Float64Array | Float32Array,
  off: number,
  withCard: Int32Array,
  start: Int32Array,
  card: number,
): void {
  const end = start[card + 1]!;
  for (let k = start[card]!; k < end; k++) buf[off + withCard[k]!] = 0;
}

/**
 * out[h] = pay * (the opponent's reach over hands sharing no card with h): the total minus the per-card sums of
 * h's two cards plus the same combo (counted in both).
 */
export function blockedTotals(
  buf: Float64Array,
  opp: number,
  out: number,
  g: PostflopGame,
  t: number,
  cardSum: Float64Array,
  pay: number,
): void {
  const o = 1 - t;
  const no = g.n[o]!;
  const nt = g.n[t]!;
  const oc1 = g.card1[o]!;
  const oc2 = g.card2[o]!;
  cardSum.fill(0);
  let total = 0;
  for (let i = 0; i < no; i++) {
    const r = buf[opp + i]!;
    if (r !== 0) {
      total += r;
      cardSum[oc1[i]!]! += r;
      cardSum[oc2[i]!]! += r;
    }
  }
  const tc1 = g.card1[t]!;
  const tc2 = g.card2[t]!;
  const same = g.same[t]!;
  for (let h = 0; h < nt; h++) {
    const s = same[h]!;
    const blocked = cardSum[tc1[h]!]! + cardSum[tc2[h]!]! - (s >= 0 ? buf[opp + s]! : 0);
    buf[out + h] = pay * (total - blocked);
  }
}

/**
 * Showdown values: with W, L and T the opponent's reach that loses to, beats and shares no card with a hand,
 * the value is A (W - L) + B T, where A is half the raked pot and B what a tie returns (see `PostflopGame`).
 * Both lists are sorted by strength, so one ascending sweep gathers the reach strictly below and up to each
 * strength; per-card sums remove the hands that share a card. `sums`: 104 floats of scratch (per-card sums:
 * all hands, hands swept so far). `totOut` (unless -1): where T goes, per hand (0 for hands not on the board),
 * from which a fold on the same reach takes its values.
 */
export function showdownValues(
  buf: Float64Array,
  opp: number,
  out: number,
  g: PostflopGame,
  t: number,
  o: number,
  board: number,
  A: number,
  B: number,
  sums: Float64Array,
  totOut = -1,
): void {
  const nt = g.n[t]!;
  const no = g.n[o]!;
  const oKey = g.sdKey[o]!;
  const tKey = g.sdKey[t]!;
  const oCards = g.handCards[o]!;
  const tCards = g.handCards[t]!;
  const same = g.same[t]!;
  const ob = board * no;
  const tb = board * nt;
  const lo = g.sdLength[o]![board]!;
  const lt = g.sdLength[t]![board]!;
  sums.fill(0);
  let total = 0;
  for (let k = 0; k < lo; k++) {
    const i = oKey[ob + k]! & 2047;
    const r = buf[opp + i]!;
    if (r !== 0) {
      total += r;
      const c = oCards[i]!;
      sums[c & 63]! += r;
      sums[c >> 6]! += r;
    }
  }
  for (let h = 0; h < nt; h++) buf[out + h] = 0;
  if (totOut >= 0) for (let h = 0; h < nt; h++) buf[totOut + h] = 0;
  // One sweep over the opponent's hands: for each strength group of the traverser's hands, first the reach
  // strictly below it (wins), then the group's own strength added (not above: loses are the rest).
  let k = ob;
  const oEnd = ob + lo;
  let acc = 0;
  const cardAcc = 52;
  let m = tb;
  const tEnd = tb + lt;
  while (m < tEnd) {
    const below = tKey[m]! & ~2047;
    const upTo = below + 2048;
    while (k < oEnd && oKey[k]! < below) {
      const i = oKey[k]! & 2047;
      const r = buf[opp + i]!;
      if (r !== 0) {
        acc += r;
        const c = oCards[i]!;
        sums[cardAcc + (c & 63)]! += r;
        sums[cardAcc + (c >> 6)]! += r;
      }
      k++;
    }
    let e = m;
    while (e < tEnd && tKey[e]! < upTo) {
      const h = tKey[e]! & 2047;
      const c = tCards[h]!;
      buf[out + h] = A * (acc - sums[cardAcc + (c & 63)]! - sums[cardAcc + (c >> 6)]!);
      e++;
    }
    while (k < oEnd && oKey[k]! < upTo) {
      const i = oKey[k]! & 2047;
      const r = buf[opp + i]!;
      if (r !== 0) {
        acc += r;
        const c = oCards[i]!;
        sums[cardAcc + (c & 63)]! += r;
        sums[cardAcc + (c >> 6)]! += r;
      }
      k++;
    }
    for (; m < e; m++) {
      const h = tKey[m]! & 2047;
      const c = tCards[h]!;
      const c1 = c & 63;
      const c2 = c >> 6;
      const sIdx = same[h]!;
      // The same combo has the same strength: it is in the "not above" sums (twice through the card sums).
      const rs = sIdx >= 0 ? buf[opp + sIdx]! : 0;
      const tot = total - sums[c1]! - sums[c2]! + rs;
      const notAbove = acc - sums[cardAcc + c1]! - sums[cardAcc + c2]! + rs;
      if (totOut >= 0) buf[totOut + h] = tot;
      // value = A (win - lose) + B tot, lose = tot - notAbove; A win is already in place.
      buf[out + h]! += A * (notAbove - tot) + B * tot;
    }
  }
}

/**
 * Regret matching without writing the strategy: `inv[h]` = 1 / (sum of h's positive regrets), or 0 when there
 * are none (then h plays uniformly). The strategy of action a is max(R, 0) * inv, or 1/A where inv is 0.
 */
export function regretInverse(
  R: Float32Array,
  off: number,
  A: number,
  n: number,
  buf: Float64Array,
  inv: number,
): void {
  for (let h = 0; h < n; h++) buf[inv + h] = 0;
  for (let a = 0; a < A; a++) {
    const ro = off + a * n;
    for (let h = 0; h < n; h++) {
      const r = R[ro + h]!;
      if (r > 0) buf[inv + h]! += r;
    }
  }
  for (let h = 0; h < n; h++) {
    const s = buf[inv + h]!;
    buf[inv + h] = s > 0 ? 1 / s : 0;
  }
}

/** The same from strategy sums (the average strategy). */
export function sumInverse(
  C: Float32Array,
  off: number,
  A: number,
  n: number,
  buf: Float64Array,
  inv: number,
): void {
  for (let h = 0; h < n; h++) buf[inv + h] = C[off + h]!;
  for (let a = 1; a < A; a++) {
    const co = off + a * n;
    for (let h = 0; h < n; h++) buf[inv + h]! += C[co + h]!;
  }
  for (let h = 0; h < n; h++) {
    const s = buf[inv + h]!;
    buf[inv + h] = s > 0 ? 1 / s : 0;
  }
}

/**
 * dst = reach * (action a's strategy), from `regretInverse` (`positive`: regrets, keep their positive part) or
 * `sumInverse` (strategy sums). Returns whether any entry is above 0.
 */
export function childReach(
  S: Float32Array,
  ro: number,
  positive: boolean,
  uniform: number,
  n: number,
  buf: Float64Array,
  inv: number,
  reach: number,
  dst: number,
): boolean {
  let any = 0;
  for (let h = 0; h < n; h++) {
    const i = buf[inv + h]!;
    const x = S[ro + h]!;
    const s = i > 0 ? (positive && x < 0 ? 0 : x * i) : uniform;
    const v = buf[reach + h]! * s;
    buf[dst + h] = v;
    any += v;
  }
  return any > 0;
}

/** Regret matching: the strategy of each hand is its positive regrets normalized, uniform when none. */
export function regretMatch(
  R: Float32Array,
  off: number,
  A: number,
  n: number,
  buf: Float64Array,
  strat: number,
): void {
  // Sums go to the last action's slot first, then each action divides.
  const last = strat + (A - 1) * n;
  const sum = last; // reuse: computed before the last action's own values are written
  for (let h = 0; h < n; h++) {
    let s = 0;
    for (let a = 0; a < A; a++) {
      const r = R[off + a * n + h]!;
      if (r > 0) s += r;
    }
    buf[sum + h] = s;
  }
  const uniform = 1 / A;
  for (let a = 0; a < A - 1; a++) {
    const ro = off + a * n;
    const so = strat + a * n;
    for (let h = 0; h < n; h++) {
      const s = buf[sum + h]!;
      const r = R[ro + h]!;
      buf[so + h] = s > 0 ? (r > 0 ? r / s : 0) : uniform;
    }
  }
  const ro = off + (A - 1) * n;
  for (let h = 0; h < n; h++) {
    const s = buf[sum + h]!;
    const r = R[ro + h]!;
    buf[last + h] = s > 0 ? (r > 0 ? r / s : 0) : uniform;
  }
}

/** The average strategy: strategy sums normalized, uniform where a hand has none. */
export function averageStrategy(
  C: Float32Array | Uint16Array,
  off: number,
  A: number,
  n: number,
  buf: Float64Array,
  strat: number,
): void {
  const last = strat + (A - 1) * n;
  for (let h = 0; h < n; h++) {
    let s = 0;
    for (let a = 0; a < A; a++) s += C[off + a * n + h]!;
    buf[last + h] = s;
  }
  const uniform = 1 / A;
  for (let a = 0; a < A - 1; a++) {
    const co = off + a * n;
    const so = strat + a * n;
    for (let h = 0; h < n; h++) {
      const s = buf[last + h]!;
      buf[so + h] = s > 0 ? C[co + h]! / s : uniform;
    }
  }
  const co = off + (A - 1) * n;
  for (let h = 0; h < n; h++) {
    const s = buf[last + h]!;
    buf[last + h] = s > 0 ? C[co + h]! / s : uniform;
  }
}

/** Discounted regret and strategy-sum updates at a traverser's decision. */
export function updateRegrets(
  R: Float32Array,
  C: Float32Array,
  off: number,
  A: number,
  n: number,
  buf: Float64Array,
  strat: number,
  vals: number,
  value: number,
  own: number,
  d: Discount,
): void {
  const pos = d.positive;
  const neg = d.negative;
  const gam = d.strategy;
  for (let a = 0; a < A; a++) {
    const ro = off + a * n;
    const vo = vals + a * n;
    const so = strat + a * n;
    for (let h = 0; h < n; h++) {
      const r = R[ro + h]!;
      R[ro + h] = r * (r > 0 ? pos : neg) + buf[vo + h]! - buf[value + h]!;
      C[ro + h] = C[ro + h]! * gam + buf[own + h]! * buf[so + h]!;
    }
  }
}
