/**
 * A terminal model for heads-up pots that reach the flop with chips behind, fitted to the solved lines.
 *
 * The share of the pot (net of what is put in later, so it may exceed 1 or fall below 0) that a hand of
 * class a of player P takes against class b of its opponent Q:
 *
 *   s_P(a, b) = e + q * (gamma(L) * (2e - 1) + mu_P(a) - mu_Q(b)) + kappa(L) * (2e - 1),
 *               e = equity of a against b,  q = 4e(1 - e)
 *
 * so s_P(a, b) + s_Q(b, a) = 1 exactly (no chips created), `gamma` and `kappa` let favourites win more than
 * their equity (stacks behind are won by the best hands; kappa's part grows with the edge all the way, as an
 * all-in's does) and `mu` is what a hand plays better or worse than its equity in that spot. All are linear in
 * hand features times line features:
 *
 *   mu_P(a) = sum_k sum_j Theta[k][j] * f_k(a) * g_j(L, P),   gamma(L), kappa(L) = sum_j Gamma[j] * h_j(L)
 *
 * with f the features of a hand class (pair, suited, connectedness, ranks, equity against a random hand),
 * g those of the player in the line (in position, the last raiser, the limped pot, log stack-to-pot ratio and
 * their products) and h those of the line (1, log SPR). A class's realization against the opponent's range is
 * linear in (Theta, Gamma), so the fit is one weighted ridge regression over every solved (line, player,
 * class), each weighted by the class's equity mass. Out of sample: fit without a line, predict it.
 */

import { HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES } from "@ranges/core";
import {
  CLASS_EFFECT_FEATURES,
  GAMMA_TERMS,
  gammaFeatures,
  HAND_FEATURES,
  handFeatures,
  PLAYER_FEATURES,
  type PlayerSpot,
  classEffectFeatures as spotClassFeatures,
  playerFeatures as spotFeatures,
  equityVsRandom as tableEquityVsRandom,
} from "@ranges/solver";
import type { LineRealization, StoredBoard } from "./aggregate.js";
import { addNeighbourPenalty, CLASS_GROUPS, GROUPS } from "./class-groups.js";
import { choleskySolve } from "./linear.js";

const N = 169;

/**
 * How the fit weighs a line's classes (per line and player, each half normalized to sum to 1 over the classes
 * the solve holds):
 *
 * - `"range"`: by equity mass in the range (what the gap and correlation weigh);
 * - `"mixed"`: half that, half by combos, so a class the range barely holds (one the range floor put in the
 *   solve) counts as much as its combos say. The preflop solver decides on every class, in the range or not,
 *   with these values: a class outside a range is exactly one whose value decides whether it enters it.
 */
export type ClassWeighting = "range" | "mixed";

/**
 * How the fit spans a class's effects across the roles of a heads-up pot (both span the same space, so the
 * fitted parameters are always stored in the solver's `CLASS_EFFECT_FEATURES`; only the ridge's pull differs):
 *
 * - `"shared"`: a constant plus a raiser's, a limper's, ... deviation from it. A class solved only as a caller
 *   gets the caller's effect as a raiser too (the ridge shrinks the raiser's deviation to 0).
 * - `"roles"`: one effect per role (caller, last raiser, either player of a limped pot), each shrunk to 0 on its
 *   own. A class solved only as a caller keeps the hand features' value as a raiser.
 */
export type ClassEffectBasis = "shared" | "roles";

if (
  CLASS_EFFECT_FEATURES[0] !== "1" ||
  CLASS_EFFECT_FEATURES[1] !== "aggressor" ||
  CLASS_EFFECT_FEATURES[5] !== "limped"
)
  throw new Error("rolesFeatures expects CLASS_EFFECT_FEATURES to start 1, aggressor and hold limped at 5");

/** The roles basis's features from the shared ones: the constant becomes "the caller" (neither raiser nor limper). */
function rolesFeatures(s: readonly number[]): number[] {
  const r = [...s];
  r[0] = s[0]! - s[1]! - s[5]!;
  return r;
}

/** Class effects fitted in the roles basis, written in the shared one (beta_s = T' beta_r, per class). */
function rolesToShared(effects: Float64Array, ce: number): Float64Array {
  const out = Float64Array.from(effects);
  for (let a = 0; a * ce < effects.length; a++) {
    const caller = effects[a * ce]!;
    out[a * ce + 1] = effects[a * ce + 1]! - caller;
    out[a * ce + 5] = effects[a * ce + 5]! - caller;
  }
  return out;
}

/** Equity and compatible-combo-pair weights, row-major 169 x 169 (the solver's heads-up table). */
export interface EquityTable {
  readonly eq: Float64Array;
  readonly w: Float64Array;
}

/** What a line contributes to the fit: its two ranges, its features and the solved realization per class. */
export interface FitLine {
  readonly key: string;
  readonly spr: number;
  /** Which player made the last raise (null: a limped pot). */
  readonly aggressor: "oop" | "ip" | null;
  /** Two raises or more before the flop (a 3-bet or 4-bet pot; absent: a single-raised or limped pot). */
  readonly reraised?: boolean;
  readonly ranges: { readonly oop: ArrayLike<number>; readonly ip: ArrayLike<number> };
  /**
   * The range floor under which the solves valued a class by a best response (`--floor-by best-response`):
   * a class whose weight in `ranges` is under it was not in the range as solved. Absent: none was.
   */
  readonly bestResponseFloor?: number;
  readonly solved: {
    readonly oop: readonly { cls: number; weight: number; realized: number }[];
    readonly ip: readonly { cls: number; weight: number; realized: number }[];
  };
}

export interface FittedModel {
  readonly theta: Float64Array;
  readonly gamma: Float64Array;
  /** Per class, one term of mu per CLASS_EFFECT_FEATURES (zeros without class effects). */
  readonly classEffects?: Float64Array;
  /**
   * What a class valued by a best response (under the solves' range floor, `FitLine.bestResponseFloor`)
   * realizes beyond what it would inside the range: one term per CLASS_EFFECT_FEATURES, added to mu for those
   * classes only. Absent: not fitted. The preflop solver never reads it (its classes play inside the ranges).
   */
  readonly floorEffect?: Float64Array;
  readonly ridge: number;
}

const KF = HAND_FEATURES.length;
const JF = PLAYER_FEATURES.length;
/** The line terms: gamma's two (times q(2e - 1)) and kappa's two (times 2e - 1), `GAMMA_TERMS`. */
const HF = GAMMA_TERMS.length;
/** Class effects: per class, one term of mu per CLASS_EFFECT_FEATURES (ridge-shrunk to 0). */
const CE = CLASS_EFFECT_FEATURES.length;
const BASE = KF * JF + HF;
const P = BASE + N * CE;

/** A line as one of its players sees it (the features the solver's grounded model reads). */
export function spotOf(line: FitLine, side: "oop" | "ip"): PlayerSpot {
  return {
    spr: line.spr,
    ip: side === "ip",
    aggressor: line.aggressor === side,
    limped: line.aggressor === null,
    reraised: line.reraised === true,
  };
}
const playerFeatures = (line: FitLine, side: "oop" | "ip") => spotFeatures(spotOf(line, side));
const classEffectFeatures = (line: FitLine, side: "oop" | "ip") => spotClassFeatures(spotOf(line, side));
const lineFeatures = (line: FitLine) => gammaFeatures(line.spr);
export const equityVsRandom = (table: EquityTable): Float64Array => tableEquityVsRandom(table.eq, table.w);

interface Row {
  readonly side: "oop" | "ip";
  readonly cls: number;
  readonly coef: Float64Array;
  /** The coefficients of `FittedModel.floorEffect` (null: the class was in the range as solved). */
  readonly floor: Float64Array | null;
  readonly target: number;
  readonly weight: number;
}

/**
 * The regression rows of one line: per player and class, the realization's coefficients on the parameters
 * and the target (solved realization minus 1, the part the model's constant gives).
 */
function rowsOf(
  line: FitLine,
  table: EquityTable,
  features: readonly number[][],
  basis: ClassEffectBasis = "shared",
): Row[] {
  const rows: Row[] = [];
  const h = lineFeatures(line);
  const ceOf = (side: "oop" | "ip") =>
    basis === "roles" ? rolesFeatures(classEffectFeatures(line, side)) : classEffectFeatures(line, side);
  for (const side of ["oop", "ip"] as const) {
    const other = side === "oop" ? "ip" : "oop";
    const g = playerFeatures(line, side);
    const gOther = playerFeatures(line, other);
    const ce = ceOf(side);
    const ceOther = ceOf(other);
    const opp = line.ranges[other];
    for (const { cls: a, weight, realized } of line.solved[side]) {
      let d = 0;
      let cq = 0;
      let cg = 0;
      let cs = 0;
      const fq = new Float64Array(KF);
      const cqb = new Float64Array(N);
      for (let b = 0; b < N; b++) {
        const o = opp[b]!;
        if (o === 0) continue;
        const c = o * table.w[a * N + b]!;
        if (c === 0) continue;
        const e = table.eq[a * N + b]!;
        const q = 4 * e * (1 - e);
        d += c * e;
        cq += c * q;
        cg += c * q * (2 * e - 1);
        cs += c * (2 * e - 1);
        cqb[b] = c * q;
        const fb = features[b]!;
        for (let k = 0; k < KF; k++) fq[k] = fq[k]! + c * q * fb[k]!;
      }
      if (!(d > 0)) continue;
      const coef = new Float64Array(P);
      const fa = features[a]!;
      for (let k = 0; k < KF; k++) {
        for (let j = 0; j < JF; j++) {
          coef[k * JF + j] = (fa[k]! * g[j]! * cq - gOther[j]! * fq[k]!) / d;
        }
      }
      for (let j = 0; j < h.length; j++) {
        coef[KF * JF + j] = (h[j]! * cg) / d;
        coef[KF * JF + h.length + j] = (h[j]! * cs) / d;
      }
      for (let j = 0; j < CE; j++) {
        coef[BASE + a * CE + j] = coef[BASE + a * CE + j]! + (ce[j]! * cq) / d;
        for (let b = 0; b < N; b++) {
          if (cqb[b] === 0) continue;
          coef[BASE + b * CE + j] = coef[BASE + b * CE + j]! - (ceOther[j]! * cqb[b]!) / d;
        }
      }
      const floored = line.bestResponseFloor !== undefined && line.ranges[side][a]! < line.bestResponseFloor;
      const floor = floored ? Float64Array.from(ce, (c) => (c * cq) / d) : null;
      rows.push({ side, cls: a, coef, floor, target: realized - 1, weight });
    }
  }
  return rows;
}

/** The rows' weights under `weighting`, per player (`ClassWeighting`). */
function reweigh(rows: readonly Row[], weighting: ClassWeighting): Row[] {
  if (weighting === "range") return [...rows];
  const out: Row[] = [];
  for (const side of ["oop", "ip"] as const) {
    const mine = rows.filter((r) => r.side === side);
    const w = mine.reduce((s, r) => s + r.weight, 0);
    const c = mine.reduce((s, r) => s + HOLDEM_CLASS_COMBOS[r.cls]!, 0);
    for (const r of mine)
      out.push({ ...r, weight: 0.5 * (w > 0 ? r.weight / w : 0) + 0.5 * (HOLDEM_CLASS_COMBOS[r.cls]! / c) });
  }
  return out;
}

/**
 * Solves the weighted ridge regression (normal equations, Cholesky). `ridges` per parameter, scaled by the mean
 * diagonal of the data's normal matrix; rows' coefficients may be longer than P (the groups' columns).
 */
function solveRidge(
  rows: readonly Row[],
  ridges: Float64Array,
  penalty?: (A: Float64Array, M: number, scale: number) => void,
): Float64Array {
  const M = ridges.length;
  const A = new Float64Array(M * M);
  const y = new Float64Array(M);
  for (const r of rows) {
    for (let i = 0; i < M; i++) {
      const wi = r.weight * r.coef[i]!;
      if (wi === 0) continue;
      y[i] = y[i]! + wi * r.target;
      for (let j = 0; j <= i; j++) A[i * M + j] = A[i * M + j]! + wi * r.coef[j]!;
    }
  }
  let trace = 0;
  for (let i = 0; i < P; i++) trace += A[i * M + i]!;
  for (let i = 0; i < M; i++) {
    A[i * M + i] = A[i * M + i]! + (ridges[i]! * trace) / P;
    for (let j = 0; j < i; j++) A[j * M + i] = A[i * M + j]!;
  }
  penalty?.(A, M, trace / P);
  return choleskySolve(A, y, M);
}

/**
 * Adds `lambda * scale * (e_a - e_b)^2` to the normal matrix for every pair of neighbouring classes
 * (`CLASS_NEIGHBOURS`) and every class-effect column, where e is a class's whole effect in the fitted basis:
 * its own column, plus its group's when `grouped` (the group columns after the P parameters). A generalized
 * ridge: neighbours' effects are pulled toward each other, not toward 0.
 */
function smoothing(lambda: number, grouped: boolean) {
  return (A: Float64Array, M: number, scale: number): void => {
    for (let j = 0; j < CE; j++)
      addNeighbourPenalty(
        A,
        M,
        lambda * scale,
        (a) => BASE + a * CE + j,
        grouped ? (g) => P + g * CE + j : undefined,
      );
  };
}

/**
 * A row over the extra columns after the P parameters: with `grouped`, its class effects' coefficients also
 * summed into their groups' columns (GROUPS x CE); with `floored`, the floor effect's CE columns last.
 */
function extended(r: Row, grouped: boolean, floored: boolean): Row {
  const groups = grouped ? GROUPS * CE : 0;
  const coef = new Float64Array(P + groups + (floored ? CE : 0));
  coef.set(r.coef);
  if (grouped)
    for (let a = 0; a < N; a++) {
      const g = P + CLASS_GROUPS[a]! * CE;
      for (let j = 0; j < CE; j++) coef[g + j] = coef[g + j]! + r.coef[BASE + a * CE + j]!;
    }
  if (floored && r.floor !== null) coef.set(r.floor, P + groups);
  return { ...r, coef };
}

export class RealizationFit {
  private readonly features: number[][];

  constructor(private readonly table: EquityTable) {
    const er = equityVsRandom(table);
    this.features = Array.from({ length: N }, (_, a) => handFeatures(a, er[a]!));
  }

  /**
   * Fits the model. `classRidge` shrinks the per-class effects (Infinity or absent: none, hand features only);
   * `basis` is how they span the roles (`ClassEffectBasis`; the result is in the shared basis either way).
   * `groupRidge` (grouped class effects): each class's effect is its group's (`CLASS_GROUPS`) plus its own
   * deviation, `classRidge` shrinking the deviations toward the group and `groupRidge` the groups' effects.
   * `smoothRidge` (smoothed class effects): neighbouring classes' effects (`CLASS_NEIGHBOURS`: A3s and A2s,
   * 33 and 22, 65s and 54s) are pulled toward each other with that weight, on top of the shrinkage; a class
   * no solve holds then takes about its neighbours' effects.
   */
  fit(
    lines: readonly FitLine[],
    ridge = 1e-4,
    classRidge = Number.POSITIVE_INFINITY,
    weighting: ClassWeighting = "range",
    basis: ClassEffectBasis = "shared",
    groupRidge?: number,
    smoothRidge?: number,
    floorRidge?: number,
  ): FittedModel {
    const grouped = groupRidge !== undefined && Number.isFinite(classRidge);
    const floored = floorRidge !== undefined;
    const plain = lines.flatMap((l) => reweigh(rowsOf(l, this.table, this.features, basis), weighting));
    const rows = grouped || floored ? plain.map((r) => extended(r, grouped, floored)) : plain;
    const groups = grouped ? GROUPS * CE : 0;
    const ridges = new Float64Array(P + groups + (floored ? CE : 0));
    ridges.fill(ridge, 0, BASE);
    ridges.fill(Number.isFinite(classRidge) ? classRidge : 1e12, BASE, P);
    if (grouped) ridges.fill(groupRidge, P, P + groups);
    if (floored) ridges.fill(floorRidge, P + groups);
    const smooth = smoothRidge !== undefined && smoothRidge > 0 && Number.isFinite(classRidge);
    const x = solveRidge(rows, ridges, smooth ? smoothing(smoothRidge, grouped) : undefined);
    const own = x.slice(BASE, P);
    if (grouped)
      for (let a = 0; a < N; a++)
        for (let j = 0; j < CE; j++) own[a * CE + j] = own[a * CE + j]! + x[P + CLASS_GROUPS[a]! * CE + j]!;
    const fitted = basis === "roles" ? rolesToShared(own, CE) : own;
    const classEffects = Number.isFinite(classRidge) ? fitted : new Float64Array(N * CE);
    const model = { theta: x.slice(0, KF * JF), gamma: x.slice(KF * JF, BASE), classEffects, ridge };
    if (!floored) return model;
    // In the shared basis whichever basis the class effects were fitted in (the floor term is one effect).
    const floor = x.slice(P + groups, P + groups + CE);
    return { ...model, floorEffect: basis === "roles" ? rolesToShared(floor, CE) : floor };
  }

  /** The model's realization of every class of a line's range (both players), as the fit computes it. */
  predict(model: FittedModel, line: FitLine): { oop: Map<number, number>; ip: Map<number, number> } {
    const params = new Float64Array(P);
    params.set(model.theta, 0);
    params.set(model.gamma, KF * JF);
    if (model.classEffects) params.set(model.classEffects, BASE);
    const out = { oop: new Map<number, number>(), ip: new Map<number, number>() };
    for (const r of rowsOf(line, this.table, this.features)) {
      let v = 1;
      for (let i = 0; i < P; i++) v += r.coef[i]! * params[i]!;
      if (r.floor !== null && model.floorEffect)
        for (let j = 0; j < CE; j++) v += r.floor[j]! * model.floorEffect[j]!;
      out[r.side].set(r.cls, v);
    }
    return out;
  }

  /** mu_P(a) of every class for a player of a line (the served share matrices are built from it). */
  mu(model: FittedModel, line: FitLine, side: "oop" | "ip"): Float64Array {
    const g = playerFeatures(line, side);
    const out = new Float64Array(N);
    for (let a = 0; a < N; a++) {
      let v = 0;
      for (let k = 0; k < KF; k++)
        for (let j = 0; j < JF; j++) v += model.theta[k * JF + j]! * this.features[a]![k]! * g[j]!;
      const ce = classEffectFeatures(line, side);
      if (model.classEffects) for (let j = 0; j < CE; j++) v += model.classEffects[a * CE + j]! * ce[j]!;
      out[a] = v;
    }
    return out;
  }
}

/** A solved line (aggregated) and one of its boards (for the ranges) as a fit line. */
export function fitLineOf(line: LineRealization, board: StoredBoard): FitLine {
  const index = new Map(HOLDEM_CLASSES.map((c, i) => [c, i]));
  const solvedOf = (side: "oop" | "ip") =>
    line.players[side].classes.map((c) => ({
      cls: index.get(c.class)!,
      weight: c.weight,
      realized: c.realizedSolved,
    }));
  const aggressor =
    line.kind === "limp"
      ? null
      : ((board as StoredBoard & { aggressor?: "oop" | "ip" }).aggressor ?? aggressorOfKind(line.kind));
  return {
    key: line.pack,
    spr: line.spr,
    aggressor,
    reraised: /^[34]bp-/.test(line.kind),
    ranges: board.ranges,
    ...(board.floorBy === "best-response" && board.rangeFloor ? { bestResponseFloor: board.rangeFloor } : {}),
    solved: { oop: solvedOf("oop"), ip: solvedOf("ip") },
  };
}

/** The last raiser of each kind of line (the kinds name the raiser's position). */
export function aggressorOfKind(kind: string): "oop" | "ip" | null {
  if (kind === "limp") return null;
  return kind.endsWith("-ip") ? "ip" : "oop";
}
