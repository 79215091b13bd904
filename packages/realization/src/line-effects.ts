/**
 * A line's own class effects: what its solves say each class of each player realizes beyond the fitted model.
 *
 * The fitted model (src/fit.ts) carries the solves to every pot of every pack through hand, player and class
 * features, and its gap to a solved line is what those features cannot follow (docs/solver-model.md: a class's
 * realization in one role moves with the line). A pot the packs play that was itself solved, with the pack's
 * own ranges, needs no such carrying: the preflop solver can take that line's values. So per line, both
 * players' mu get an additive term per class, delta_P(a), chosen so that the model's realization matches the
 * solved one:
 *
 *   realized_P(a) = model_P(a) + (sum_b o(b) w(a,b) q(a,b) (delta_P(a) - delta_Q(b))) / (sum_b o(b) w(a,b) e(a,b))
 *
 * (o the opponent's range, w the compatible combo pairs, e the equity and q = 4e(1 - e), as in the share of
 * src/fit.ts), which is linear in the deltas. They are a weighted ridge regression per line: each player's
 * classes weigh as the fit weighs them (`ClassWeighting`, normalized to sum to 1 per player) and `ridge` pulls
 * every delta toward 0, that is toward the fitted model, most where a class weighs least. Adding one constant to
 * every delta of both players changes nothing; the ridge picks the smallest.
 *
 * The preflop solver reads them as `model.grounded.lines` (`GroundedLine` in @ranges/solver), in the duels of
 * the line's two seats with its raise count and last raiser near its stack-to-pot ratio.
 */

import { HOLDEM_CLASS_COMBOS } from "@ranges/core";
import type { GroundedLine } from "@ranges/solver";
import { addNeighbourPenalty, CLASS_GROUPS, GROUPS } from "./class-groups.js";
import type { ClassWeighting, EquityTable, FitLine, FittedModel, RealizationFit } from "./fit.js";
import { choleskySolve } from "./linear.js";

const N = 169;

/**
 * The ridge of the line effects, against per-player weights that sum to 1. Chosen on the halves of the
 * balanced flops (`scripts/board-split.mjs --line-ridge`, docs/solver-model.md): effects fitted to one half of
 * each line's flops, compared with the other half.
 */
export const DEFAULT_LINE_RIDGE = 0.001;

export interface LineEffects {
  readonly oop: Float64Array;
  readonly ip: Float64Array;
}

/**
 * Fits a line's class effects on top of `model` (see the module's comment). Several rounds of one line (each
 * solved with its round's ranges) give one set of effects, fitted to all of them, each round weighing as much.
 *
 * `groupRidge` (grouped effects): each class's effect is its group's (`CLASS_GROUPS`) plus its own deviation;
 * `ridge` pulls the deviations toward 0 (a class toward its group) and `groupRidge` the groups' effects. A
 * class's effect from a few flops carries those flops' noise (which ranks they hold); its group pools that
 * noise over its classes.
 *
 * `smoothRidge` (smoothed line effects): neighbouring classes' effects (`CLASS_NEIGHBOURS`: A3o and A2o, 33 and
 * 22, 65s and 54s) are pulled toward each other with that weight, per player, on top of the ridge: a penalty
 * `smoothRidge * (delta(a) - delta(b))^2` per pair (times the rounds, as the ridge). A class's effect from a few
 * flops carries those flops' noise, and a preflop solve turns a difference of 0.01 in a class's mu into about a
 * tenth of the pot in its EV, so neighbours that realize alike must not differ by noise.
 */
export function fitLineEffects(
  fit: RealizationFit,
  table: EquityTable,
  model: FittedModel,
  rounds: FitLine | readonly FitLine[],
  weighting: ClassWeighting,
  ridge = DEFAULT_LINE_RIDGE,
  groupRidge?: number,
  smoothRidge?: number,
): LineEffects {
  const G = groupRidge === undefined ? 0 : GROUPS;
  const M = 2 * N + 2 * G;
  const A = new Float64Array(M * M);
  const y = new Float64Array(M);
  const list: readonly FitLine[] = Array.isArray(rounds) ? rounds : [rounds as FitLine];
  for (const line of list) accumulate(fit, table, model, line, weighting, A, y, G);
  for (let i = 0; i < M; i++) A[i * M + i] = A[i * M + i]! + (i < 2 * N ? ridge : groupRidge!) * list.length;
  if (smoothRidge !== undefined && smoothRidge > 0) {
    // A class's whole effect: its own delta, plus its group's when grouped (the group columns after the 2N).
    for (const side of [0, 1])
      addNeighbourPenalty(
        A,
        M,
        smoothRidge * list.length,
        (a) => side * N + a,
        G > 0 ? (g) => 2 * N + side * G + g : undefined,
      );
  }
  const x = choleskySolve(A, y, M);
  const effects = { oop: x.slice(0, N), ip: x.slice(N, 2 * N) };
  if (G > 0) {
    for (let c = 0; c < N; c++) {
      effects.oop[c] = effects.oop[c]! + x[2 * N + CLASS_GROUPS[c]!]!;
      effects.ip[c] = effects.ip[c]! + x[2 * N + G + CLASS_GROUPS[c]!]!;
    }
  }
  return effects;
}

/**
 * Class a's terms against the opponent's range: d = sum_b o(b) w(a,b) e(a,b), the denominator of its
 * realization, and per opponent class o(b) w(a,b) q(a,b), what a delta moves it by (the module's formula).
 */
function pairTerms(table: EquityTable, range: ArrayLike<number>, a: number): { d: number; q: Float64Array } {
  const q = new Float64Array(N);
  let d = 0;
  for (let b = 0; b < N; b++) {
    const c = range[b]! * table.w[a * N + b]!;
    if (!(c > 0)) continue;
    const e = table.eq[a * N + b]!;
    d += c * e;
    q[b] = c * 4 * e * (1 - e);
  }
  return { d, q };
}

/** Adds one line's weighted least-squares terms for the deltas (oop's 169, then ip's) to A and y. */
function accumulate(
  fit: RealizationFit,
  table: EquityTable,
  model: FittedModel,
  line: FitLine,
  weighting: ClassWeighting,
  A: Float64Array,
  y: Float64Array,
  G: number,
): void {
  const M = 2 * N + 2 * G;
  const base = fit.predict(model, line);
  for (const side of ["oop", "ip"] as const) {
    const other = side === "oop" ? "ip" : "oop";
    const own = side === "oop" ? 0 : N;
    const opp = side === "oop" ? N : 0;
    // Grouped effects: each class's coefficient on its group's effect too (after the 2N class deltas).
    const ownGroup = 2 * N + (side === "oop" ? 0 : G);
    const oppGroup = 2 * N + (side === "oop" ? G : 0);
    const rows = line.solved[side].filter((r) => base[side].has(r.cls));
    const rangeTotal = rows.reduce((s, r) => s + r.weight, 0);
    const comboTotal = rows.reduce((s, r) => s + HOLDEM_CLASS_COMBOS[r.cls]!, 0);
    const range = line.ranges[other];
    for (const r of rows) {
      const byRange = rangeTotal > 0 ? r.weight / rangeTotal : 0;
      const wt =
        weighting === "range" ? byRange : 0.5 * byRange + 0.5 * (HOLDEM_CLASS_COMBOS[r.cls]! / comboTotal);
      if (!(wt > 0)) continue;
      // The row's coefficients: +(sum_b q_b)/d on its own delta, -q_b/d on each opponent class's.
      const { d, q: coef } = pairTerms(table, range, r.cls);
      if (!(d > 0)) continue;
      let cq = 0;
      for (let b = 0; b < N; b++) cq += coef[b]!;
      const ownCoef = cq / d;
      const residual = r.realized - base[side].get(r.cls)!;
      // Sparse row: index own + a, then opp + b for every b with a coefficient.
      const idx: number[] = [own + r.cls];
      const val: number[] = [ownCoef];
      const groups = G > 0 ? new Float64Array(G) : null;
      for (let b = 0; b < N; b++) {
        if (coef[b] === 0) continue;
        idx.push(opp + b);
        val.push(-coef[b]! / d);
        if (groups) groups[CLASS_GROUPS[b]!] = groups[CLASS_GROUPS[b]!]! - coef[b]! / d;
      }
      if (groups) {
        idx.push(ownGroup + CLASS_GROUPS[r.cls]!);
        val.push(ownCoef);
        for (let g = 0; g < G; g++) {
          if (groups[g] === 0) continue;
          idx.push(oppGroup + g);
          val.push(groups[g]!);
        }
      }
      for (let i = 0; i < idx.length; i++) {
        y[idx[i]!] = y[idx[i]!]! + wt * val[i]! * residual;
        for (let j = 0; j < idx.length; j++)
          A[idx[i]! * M + idx[j]!] = A[idx[i]! * M + idx[j]!]! + wt * val[i]! * val[j]!;
      }
    }
  }
}

/** The model's realization of a line's classes with its own effects added (what the preflop solver is given). */
export function predictWithLineEffects(
  fit: RealizationFit,
  table: EquityTable,
  model: FittedModel,
  line: FitLine,
  effects: LineEffects,
): { oop: Map<number, number>; ip: Map<number, number> } {
  const base = fit.predict(model, line);
  const out = { oop: new Map<number, number>(), ip: new Map<number, number>() };
  for (const side of ["oop", "ip"] as const) {
    const other = side === "oop" ? "ip" : "oop";
    const range = line.ranges[other];
    for (const [a, v] of base[side]) {
      const { d, q } = pairTerms(table, range, a);
      let shift = 0;
      for (let b = 0; b < N; b++) if (q[b] !== 0) shift += q[b]! * (effects[side][a]! - effects[other][b]!);
      out[side].set(a, d > 0 ? v + shift / d : v);
    }
  }
  return out;
}

/** Raises before the flop of a line kind (`srp-ip`, `3bp-oop`, `4bp-ip`, `limp`). */
export function raisesOfKind(kind: string): number {
  if (kind === "limp") return 0;
  const m = /^([34])bp-|^srp-/.exec(kind);
  if (!m) throw new Error(`unknown line kind ${kind}`);
  return m[1] === undefined ? 1 : Number(m[1]) - 1;
}

/** A line's effects as the preflop solver reads them (`model.grounded.lines`), for the pack they belong to. */
export function groundedLine(
  id: string,
  seats: { oop: string; ip: string },
  kind: string,
  line: FitLine,
  effects: LineEffects,
): GroundedLine {
  const r8 = (v: number) => Math.round(v * 1e8) / 1e8;
  return {
    id,
    oop: seats.oop,
    ip: seats.ip,
    raises: raisesOfKind(kind),
    aggressor: line.aggressor,
    spr: line.spr,
    effects: { oop: Array.from(effects.oop, r8), ip: Array.from(effects.ip, r8) },
  };
}
