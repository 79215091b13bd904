/**
 * A class's realization over every flop, estimated from a line's solved flops with the help of every flop's
 * equity (a regression estimator, with the flop's equity as the control variate).
 *
 * The plain estimate is a ratio over the solved flops: `sum_b w_b ev_bc / sum_b w_b eq_bc`. On 30 flops it is
 * noisy: the two halves of a line's flops (15 each) disagree by 0.04 to 0.17 per class (range-weighted mean),
 * mostly because a class's realization on a flop follows how well the flop hits it, and 15 or 30 flops hit a
 * class more or less often than all flops do. What a flop does to a class's equity costs no solve, so:
 *
 * 1. On the solved flops, fit one realization curve per line and player, pooled over classes:
 *    `g(s) = sum_j b_j s^j` (degree 5), `s` the class's mean equity on the flop, by least squares on
 *    `ev / eq` weighted by `w_b * eq_bc`.
 * 2. Average the curve over every flop with the population's moments (`population.ts`):
 *    `sum_j b_j P_(j+1)[c] / P_1[c]`.
 * 3. Add what the curve misses on the solved flops, as a ratio: `sum_b w_b (ev_bc - g(s_bc) eq_bc) / sum_b w_b eq_bc`.
 *
 * When the solved flops are the whole population the estimate is the plain ratio (the test checks it);
 * otherwise only the residual part keeps the solved flops' noise. Measured on round 0's seven lines
 * (docs/solver-model.md, `scripts/board-split.mjs --min-boards 30`): the halves' disagreement falls from 0.116
 * to 0.046 (range-weighted mean over 14 players).
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HOLDEM_CLASSES } from "@ranges/core";
import { parseBoard } from "@ranges/postflop";
import { COMBO_CLASS, COMBO_COUNT, COMBO_HIGH_CARD, COMBO_LOW_CARD } from "@ranges/solver";
import { solverWeight } from "./lines.js";
import { rangesKey } from "./population.js";

const CLASSES = HOLDEM_CLASSES.length;

/** The curve's degree (the population files hold moments up to `POPULATION_DEGREE + 1`). */
export const CURVE_DEGREE = 5;
/** The highest curve degree a population file supports. */
export const POPULATION_DEGREE = 7;

/** One line's population file (`realization population`): moments per player, `moments[k][class]`. */
export interface LinePopulation {
  readonly game: string;
  readonly stack: number;
  readonly line: string;
  readonly rangesKey: string;
  readonly flops: number;
  readonly degree: number;
  readonly oop: readonly (readonly number[])[];
  readonly ip: readonly (readonly number[])[];
}

/** Populations by line and ranges: `${game}/${stack}/${line}#${rangesKey}`. */
export type PopulationSet = ReadonlyMap<string, LinePopulation>;

/** A `PopulationSet` key. */
const keyOf = (p: { game: string; stack: number; line: string }, key: string): string =>
  `${p.game}/${p.stack}/${p.line}#${key}`;

/** The key of a line's population, from the ranges its boards record. */
export const populationKey = (p: {
  game: string;
  stack: number;
  line: string;
  ranges: { oop: readonly number[]; ip: readonly number[] };
}): string => keyOf(p, rangesKey(p.ranges));

export function readPopulations(dir: string): PopulationSet {
  const out = new Map<string, LinePopulation>();
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith(".json"))
    .sort()) {
    const p = JSON.parse(readFileSync(join(dir, f), "utf8")) as LinePopulation;
    out.set(keyOf(p, p.rangesKey), p);
  }
  return out;
}

/** What the estimator needs of a solved board. */
export interface EstimatorBoard {
  readonly board: string;
  readonly weight: number;
  readonly pot: number;
  /** The board's per-class sums, ev already gross of rake. */
  readonly ev: ArrayLike<number>;
  readonly eq: ArrayLike<number>;
}

export interface Estimate {
  /** Per class: the realization estimate (NaN where the class has no equity on the solved flops). */
  readonly realized: Float64Array;
  /** Per class: the equity mass over every flop, in pots (`reach * P_1`). */
  readonly weight: Float64Array;
  /** Share of the per-flop realization's variance (weighted) the curve explains on the solved flops. */
  readonly r2: number;
  readonly curve: readonly number[];
}

/** Combos of each class that miss a board's cards. */
export function liveCombos(board: string): Uint8Array {
  const cards = new Set(parseBoard(board) ?? []);
  if (cards.size === 0) throw new Error(`not a board: ${board}`);
  const out = new Uint8Array(CLASSES);
  for (let h = 0; h < COMBO_COUNT; h++)
    if (!cards.has(COMBO_LOW_CARD[h]!) && !cards.has(COMBO_HIGH_CARD[h]!)) out[COMBO_CLASS[h]!]! += 1;
  return out;
}

/**
 * The regression estimate of one player's realization per class. `reach[c]`: the class's reach in the
 * solve (its weight as the solver read it, or the best-response floor), `moments`: the player's population
 * moments.
 */
export function regressionEstimate(
  boards: readonly EstimatorBoard[],
  reach: ArrayLike<number>,
  moments: readonly (readonly number[])[],
  degree = CURVE_DEGREE,
): Estimate {
  if (moments.length < degree + 2)
    throw new RangeError(
      `the population holds moments up to ${moments.length - 1}; degree ${degree} needs ${degree + 1}`,
    );
  const K = degree + 1;
  const cells: { b: number; c: number; s: number; y: number; wt: number }[] = [];
  const live = boards.map((b) => liveCombos(b.board));
  boards.forEach((b, bi) => {
    for (let c = 0; c < CLASSES; c++) {
      const eq = b.eq[c]!;
      if (!(eq > 0) || !(reach[c]! > 0)) continue;
      const s = eq / (b.pot * reach[c]! * live[bi]![c]!);
      if (!(s <= 1 + 1e-6))
        throw new RangeError(
          `${b.board} ${HOLDEM_CLASSES[c]}: equity ${s} over 1; the reach given is not the solve's`,
        );
      cells.push({ b: bi, c, s: Math.min(s, 1), y: b.ev[c]! / eq, wt: b.weight * eq });
    }
  });
  // Weighted least squares: normal equations over the powers of s.
  const A = Array.from({ length: K }, () => new Float64Array(K));
  const rhs = new Float64Array(K);
  const x = new Float64Array(K);
  let wSum = 0;
  let yMean = 0;
  for (const cell of cells) {
    x[0] = 1;
    for (let j = 1; j < K; j++) x[j] = x[j - 1]! * cell.s;
    for (let i = 0; i < K; i++) {
      rhs[i]! += cell.wt * x[i]! * cell.y;
      for (let j = 0; j < K; j++) A[i]![j]! += cell.wt * x[i]! * x[j]!;
    }
    wSum += cell.wt;
    yMean += cell.wt * cell.y;
  }
  yMean /= wSum;
  const curve = solveLinear(A, rhs);
  const g = (s: number) => {
    let v = 0;
    for (let j = K - 1; j >= 0; j--) v = v * s + curve[j]!;
    return v;
  };
  let resid = 0;
  let total = 0;
  const residual = new Float64Array(CLASSES);
  const eqSum = new Float64Array(CLASSES);
  for (const cell of cells) {
    const b = boards[cell.b]!;
    const eq = b.eq[cell.c]!;
    residual[cell.c]! += b.weight * (b.ev[cell.c]! - g(cell.s) * eq);
    eqSum[cell.c]! += b.weight * eq;
    resid += cell.wt * (cell.y - g(cell.s)) ** 2;
    total += cell.wt * (cell.y - yMean) ** 2;
  }
  const realized = new Float64Array(CLASSES).fill(Number.NaN);
  const weight = new Float64Array(CLASSES);
  for (let c = 0; c < CLASSES; c++) {
    const p1 = moments[1]![c]!;
    weight[c] = reach[c]! * p1;
    if (!(eqSum[c]! > 0) || !(p1 > 0)) continue;
    let population = 0;
    for (let j = 0; j < K; j++) population += curve[j]! * moments[j + 1]![c]!;
    realized[c] = population / p1 + residual[c]! / eqSum[c]!;
  }
  return { realized, weight, r2: total > 0 ? 1 - resid / total : 0, curve: Array.from(curve) };
}

/** Each class's reach in a board's solve: its weight as the solver read it, or the best-response floor. */
export function solvedReach(board: {
  readonly ranges: { readonly oop: readonly number[]; readonly ip: readonly number[] };
  readonly rangeFloor?: number;
  readonly floorBy?: "best-response";
}): { oop: Float64Array; ip: Float64Array } {
  const floor = board.floorBy === "best-response" ? (board.rangeFloor ?? 0) : 0;
  const of = (w: readonly number[]) => Float64Array.from(w, (x) => solverWeight(x) || floor);
  return { oop: of(board.ranges.oop), ip: of(board.ranges.ip) };
}

/** Gaussian elimination with partial pivoting (a small ridge keeps a flat design solvable). */
function solveLinear(A: Float64Array[], b: Float64Array): Float64Array {
  const n = b.length;
  const M = A.map((row, i) => {
    const r = Float64Array.from(row);
    r[i]! += 1e-10 * (A[0]![0]! || 1);
    return r;
  });
  const v = Float64Array.from(b);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(M[r]![col]!) > Math.abs(M[piv]![col]!)) piv = r;
    [M[col], M[piv]] = [M[piv]!, M[col]!];
    [v[col], v[piv]] = [v[piv]!, v[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = M[r]![col]! / M[col]![col]!;
      for (let k = col; k < n; k++) M[r]![k]! -= f * M[col]![k]!;
      v[r]! -= f * v[col]!;
    }
  }
  const out = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let s = v[r]!;
    for (let k = r + 1; k < n; k++) s -= M[r]![k]! * out[k]!;
    out[r] = s / M[r]![r]!;
  }
  return out;
}
