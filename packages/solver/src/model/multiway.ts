/**
 * Terminal model for pots of three or more players: board-conditioned duels (see src/equity/multiway.ts for
 * the table and docs/solver-model.md for its measured error).
 *
 * A player's chance to take a pot from several opponents is the chance to beat each of them, and given the
 * board those duels are independent; averaged over the boards they are not (a set or a flush wins them all).
 * The engine keeps that correlation through the table's strength buckets: for the player whose sweep is
 * computed, in bucket k (how strong its hand is on the board), each duel against class b is won with
 * probability d_k(a, b), weighted by the likelihood nu_k(a, b) of b given the bucket, and
 *
 *   P(a sweeps b, c, ...) = sum_k pi_k(a) prod_j nu_k(a, b_j) d_k(a, b_j),
 *
 * a player who sweeps takes the pot and what no one sweeps is split equally (so the shares of every deal sum to
 * exactly the pot). Here each duel matrix of the heads-up model (all-in, or the realization contest of a pair
 * to the flop at an SPR) gets one matrix per bucket:
 *
 * - the bucket shares are the table's all-in shares d_k(a, b) moved by one odds multiplier lambda per class
 *   pair and duel matrix (share = lambda d / (1 - d + lambda d)), the one for which the buckets average
 *   exactly to the heads-up matrix: sum_k pi_k(a) nu_k(a, b) share_k = the pair's heads-up share.
 * - all-in, lambda is within Monte Carlo error of 1 (it only removes the table's sampling error against the
 *   exact heads-up equity); to the flop, it carries the pair's realization (a favourite realizes more than its
 *   equity) into every bucket.
 *
 * So a pot of two is exactly the heads-up model, every share stays in [0, 1], and the matrices are W-weighted
 * like the heads-up ones: M_k[a][b] = W[a][b] * nu_k(a, b) * share_k.
 */

import type { MultiwayTable } from "../equity/multiway.js";

export interface BucketedDuels {
  readonly buckets: number;
  /** pi_k(a) at `a * buckets + k`. */
  readonly pi: Float64Array;
  /** One matrix per (heads-up duel matrix m, bucket k), at `m * buckets + k`, row-major 169 x 169. */
  readonly matrices: readonly Float64Array[];
}

/**
 * `used`: the duel matrices that some pot of three or more settles with (the engine reads the buckets only in
 * all-in pots, so in practice the all-in matrix); the others get one shared zero matrix per bucket slot, which
 * the engine's kernel stores once. Absent: every matrix is bucketed.
 */
export function buildBucketedDuels(
  table: Pick<MultiwayTable, "buckets" | "pi" | "eq" | "nu">,
  w: Float64Array,
  duelMatrices: readonly Float64Array[],
  used?: ReadonlySet<number>,
): BucketedDuels {
  const n = 169;
  const K = table.buckets;
  const pi = table.pi;
  const dk = new Float64Array(K);
  const wk = new Float64Array(K);
  const matrices: Float64Array[] = [];
  const unused = new Float64Array(n * n);
  const live = (m: number) => !used || used.has(m);
  for (let m = 0; m < duelMatrices.length; m++)
    for (let k = 0; k < K; k++) matrices.push(live(m) ? new Float64Array(n * n) : unused);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const ab = a * n + b;
      const wab = w[ab]!;
      if (wab === 0) continue;
      // Bucket weights given b (they sum to 1) and the table's all-in share per bucket.
      for (let k = 0; k < K; k++) {
        wk[k] = pi[a * K + k]! * table.nu[(a * K + k) * n + b]!;
        dk[k] = Math.min(1, Math.max(0, table.eq[(a * K + k) * n + b]!));
      }
      for (let m = 0; m < duelMatrices.length; m++) {
        if (!live(m)) continue;
        const target = duelMatrices[m]![ab]! / wab;
        const lambda = oddsMultiplier(dk, wk, target);
        for (let k = 0; k < K; k++) {
          const d = dk[k]!;
          const share = d >= 1 ? 1 : (lambda * d) / (1 - d + lambda * d);
          matrices[m * K + k]![ab] = wab * table.nu[(a * K + k) * n + b]! * share;
        }
      }
    }
  }
  return { buckets: K, pi: Float64Array.from(pi), matrices };
}

/**
 * The odds multiplier lambda with sum_k w_k g(d_k) = target, g(d) = lambda d / (1 - d + lambda d) (bisection on
 * log lambda; g rises with lambda from 0 to 1 for every d strictly between 0 and 1).
 */
function oddsMultiplier(d: Float64Array, w: Float64Array, target: number): number {
  const mean = (lambda: number): number => {
    let s = 0;
    for (let k = 0; k < d.length; k++) {
      const x = d[k]!;
      s += w[k]! * (x >= 1 ? 1 : (lambda * x) / (1 - x + lambda * x));
    }
    return s;
  };
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (mean(Math.exp(mid)) < target) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}
