/**
 * Terminal model: how a heads-up pot is shared.
 *
 * All-in: by showdown equity (the heads-up table, combo-level card removal).
 * To the flop with chips behind: by equity realization, as a contest between the two players. Each
 * player's equity is scaled by a multiplier (position factor times playability bonuses of the class) and the
 * pot is split by a contest function with exponent k:
 *
 *   x = (e * rIP(a))^k,  y = ((1 - e) * rOOP(b))^k,  shareIP(a, b) = x / (x + y),  e = equity of a vs b
 *
 * so the two shares always sum to the pot (no chips created or lost), a hand with all the equity takes it
 * all and a hand with none takes nothing, and with k > 1 favourites realize more than their equity and
 * underdogs less (weak hands are folded out postflop). Multipliers and k shrink linearly toward 1 as the
 * stack-to-pot ratio falls below `sprFull`, because short-stacked pots play closer to all-in equity. SPR is bucketed into
 * quarters of `sprFull` so a handful of matrices serve every terminal.
 */

import { holdemClassKind } from "@ranges/core";
import type { RealizationModel } from "../tree/config.js";

export const SPR_BUCKETS = [0.25, 0.5, 0.75, 1] as const;

export interface ShareMatrices {
  /** [0]: all-in equity; then per SPR bucket k: [1 + 2k] IP as row, [2 + 2k] OOP as row. */
  readonly matrices: Float64Array[];
  /** Index of the matrix giving the row player's share in a duel (all-in, or to the flop at this SPR). */
  indexFor(allIn: boolean, spr: number, rowIsIp: boolean): number;
}

/** Playability multiplier of a hold'em class (before the position factor). */
export function classMultiplier(model: RealizationModel, index: number): number {
  const row = Math.floor(index / 13);
  const col = index % 13;
  const kind = holdemClassKind(index);
  if (kind === "pair") return 1 + model.pairBonus;
  const gap = Math.abs(row - col) - 1;
  let m = 1 + (model.connectedBonus[gap] ?? 0);
  if (kind === "suited") m += model.suitedBonus;
  return m;
}

export function buildShareMatrices(
  model: RealizationModel,
  eq: Float64Array,
  w: Float64Array,
): ShareMatrices {
  const n = 169;
  const mult = Array.from({ length: n }, (_, a) => classMultiplier(model, a));
  return buildContestMatrices(model, n, eq, w, mult);
}

/** The parameters of the contest shared by every game: position factors, exponent and full-SPR point. */
export type ContestParams = Pick<RealizationModel, "ipFactor" | "oopFactor" | "contestExponent" | "sprFull">;

/**
 * The share matrices of the contest above for `n` hand classes (or buckets): `eq` and `w` row-major n x n
 * (equity of the row hand against the column hand, and compatible-pair weights), `mult[a]` the playability
 * multiplier of hand a before the position factor. Hold'em passes its 169 classes (`buildShareMatrices`),
 * PLO its buckets (src/solve/plo.ts).
 */
export function buildContestMatrices(
  model: ContestParams,
  n: number,
  eq: Float64Array,
  w: Float64Array,
  mult: ArrayLike<number>,
): ShareMatrices {
  if (eq.length !== n * n || w.length !== n * n || mult.length !== n)
    throw new RangeError(
      `share matrices of ${n} hands need ${n} x ${n} equities and weights, ${n} multipliers`,
    );
  const allIn = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) allIn[i] = w[i]! * eq[i]!;
  const matrices: Float64Array[] = [allIn];
  if (!(model.contestExponent >= 1))
    throw new Error(`contestExponent must be >= 1, got ${model.contestExponent}`);
  for (const lambda of SPR_BUCKETS) {
    const scale = (f: number) => 1 + (f - 1) * lambda;
    const k = scale(model.contestExponent);
    const ip = new Float64Array(n * n);
    const oop = new Float64Array(n * n);
    for (let a = 0; a < n; a++) {
      const rIp = scale(model.ipFactor * mult[a]!);
      for (let b = 0; b < n; b++) {
        const rOop = scale(model.oopFactor * mult[b]!);
        const e = eq[a * n + b]!;
        const x = (e * rIp) ** k;
        const y = ((1 - e) * rOop) ** k;
        const share = x + y > 0 ? x / (x + y) : 0.5;
        ip[a * n + b] = w[a * n + b]! * share;
        // The OOP player b's share of the same pot is the rest.
        oop[b * n + a] = w[b * n + a]! * (1 - share);
      }
    }
    matrices.push(ip, oop);
  }
  return {
    matrices,
    indexFor(isAllIn, spr, rowIsIp) {
      if (isAllIn) return 0;
      const lambda = Math.min(1, spr / model.sprFull);
      let k = SPR_BUCKETS.findIndex((b) => lambda <= b + 1e-12);
      if (k < 0) k = SPR_BUCKETS.length - 1;
      return rowIsIp ? 1 + 2 * k : 2 + 2 * k;
    },
  };
}
