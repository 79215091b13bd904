/**
 * The grounded method on the toy game (issue "Preflop model v4", items 2 and 7): solve the preflop game with
 * flop pots as terminals, solve each flop pot for the ranges that preflop play brings there, take the pots'
 * values as the next terminals, and repeat until the values stop moving. Because the toy's flop is small, the
 * same game can also be solved whole, so the grounded answer has an exact reference: the exploitability of
 * the combined profile (grounded preflop play and the flop pots' play) in the whole game, and its values
 * beside the whole game's.
 *
 * What the toy keeps exact that the real pipeline approximates: a flop pot's terminal values here are the
 * solved play's value for every pair of classes, where the hold'em pipeline fits a model of per-class
 * realization to its solves. The toy measures the iteration and the range floor, not that fit.
 */

import { blendWeights } from "../blend.js";
import {
  evaluateToy,
  type FlopValues,
  flopPotValues,
  showdownSign,
  solveToy,
  type ToyEvaluation,
  type ToyGame,
  type ToyNode,
  type ToySolverState,
  type ToyStrategies,
} from "./game.js";

export interface GroundedOptions {
  readonly rounds: number;
  readonly preflopIterations: number;
  readonly flopIterations: number;
  /**
   * Every class enters each flop pot's solve with at least this reach (the range floor of the realization
   * batch); 0 solves each pot for exactly the ranges that reach it.
   */
  readonly floor: number;
  /** Stop once a round moves the values less than this (bb); by default every round runs. */
  readonly tolerance?: number;
  /**
   * How a round's flop values become the next terminals: `replace` takes them as they are; `average` takes
   * the mean of every round's values so far (round k weighs 1/k: fictitious play on the terminals).
   */
  readonly update?: "replace" | "average";
  /**
   * `true`: each round goes on from the previous round's solves (regrets and averages, preflop and per flop
   * pot) instead of solving afresh, and the flop ranges and terminals come from the current iterates.
   * `"preflop"`: only the preflop solve goes on from the last round (its averages give the flop ranges); the
   * flop pots are solved afresh, as a hold'em batch must (a flop solve's state is gigabytes).
   */
  readonly warm?: boolean | "preflop";
  /**
   * The previous round's share of the flop ranges (0 or absent: none): each round's flop pots are solved for
   * `(1 - w) * the ranges the preflop solve brings + w * the previous round's (blended) ranges`, as
   * `realization plan --blend-with` plans a hold'em round (src/batch.ts blendPlan).
   */
  readonly rangeBlend?: number;
}

export interface GroundedRound {
  readonly round: number;
  /**
   * The largest, over flop pots and seats, range-weighted mean absolute change of a class's value against
   * the opponent's range (bb) from the previous round's terminals.
   */
  readonly movement: number;
  /** The combined profile in the whole game. */
  readonly whole: ToyEvaluation;
}

export interface GroundedResult {
  readonly rounds: readonly GroundedRound[];
  /** The last round's preflop and flop strategies together: a profile of the whole game. */
  readonly strategies: ToyStrategies;
  readonly flopValues: FlopValues;
}

/** Terminal values of round 0: the flop checked through (all-in equity of the pot). */
export function checkedDownValues(game: ToyGame): FlopValues {
  const R = game.params.ranks;
  const out: FlopValues = new Map();
  for (const f of game.flops) {
    const x = f.invested[0];
    const m0 = new Float64Array(R * R);
    const m1 = new Float64Array(R * R);
    for (let a = 0; a < R; a++)
      for (let b = 0; b < R; b++) {
        const wt = game.w2[a * R + b]!;
        if (wt === 0) continue;
        let s = 0;
        for (let c = 0; c < R; c++) s += game.w3[(a * R + b) * R + c]! * showdownSign(a, b, c) * x;
        m0[a * R + b] = s / wt;
        m1[b * R + a] = -s / wt;
      }
    out.set(f.id, [m0, m1]);
  }
  return out;
}

/** Each seat's reach (per class) at every flop pot under the given preflop strategies. */
export function flopRanges(
  game: ToyGame,
  strategies: ToyStrategies,
): Map<number, [Float64Array, Float64Array]> {
  const R = game.params.ranks;
  const out = new Map<number, [Float64Array, Float64Array]>();
  const walk = (node: ToyNode, reach: [Float64Array, Float64Array]) => {
    if (node.kind === "flop") {
      out.set(node.id, [Float64Array.from(reach[0]), Float64Array.from(reach[1])]);
      return;
    }
    if (node.kind !== "decision") return;
    const s = strategies.get(node.id)!;
    node.children.forEach((child, k) => {
      const next = new Float64Array(R);
      for (let a = 0; a < R; a++) next[a] = reach[node.actor]![a]! * s[k * R + a]!;
      walk(child, node.actor === 0 ? [next, reach[1]] : [reach[0], next]);
    });
  };
  const ones = new Float64Array(R).fill(1);
  walk(game.root, [ones, ones]);
  return out;
}

/** Seat p's value per class against the other seat's range in a flop pot (NaN where it meets no mass). */
function classValues(game: ToyGame, m: Float64Array, p: number, opp: Float64Array): Float64Array {
  const R = game.params.ranks;
  const out = new Float64Array(R);
  for (let a = 0; a < R; a++) {
    let s = 0;
    let t = 0;
    for (let b = 0; b < R; b++) {
      const wt = game.w2[p === 0 ? a * R + b : b * R + a]! * opp[b]!;
      s += wt * m[a * R + b]!;
      t += wt;
    }
    out[a] = t > 0 ? s / t : Number.NaN;
  }
  return out;
}

/** Runs the grounded iteration on the toy game. */
export function groundedToy(game: ToyGame, options: GroundedOptions): GroundedResult {
  const R = game.params.ranks;
  let values = checkedDownValues(game);
  const rounds: GroundedRound[] = [];
  let strategies: ToyStrategies = new Map();
  let preState: ToySolverState | null = null;
  const flopStates = new Map<number, ToySolverState>();
  let previousRanges: Map<number, [Float64Array, Float64Array]> | null = null;
  for (let round = 1; round <= options.rounds; round++) {
    const pre = solveToy(game.root, game, {
      iterations: options.preflopIterations,
      flopValues: values,
      ...(options.warm !== undefined && options.warm !== false && preState ? { from: preState } : {}),
    });
    preState = pre.state;
    const ranges = flopRanges(game, options.warm === true ? pre.current : pre.average);
    const w = options.rangeBlend ?? 0;
    if (w > 0 && previousRanges)
      for (const [id, r] of ranges) {
        const before = previousRanges.get(id)!;
        ranges.set(id, [blendWeights(r[0], before[0], w), blendWeights(r[1], before[1], w)]);
      }
    previousRanges = ranges;
    const next: FlopValues = new Map();
    strategies = new Map(pre.average);
    let movement = 0;
    for (const f of game.flops) {
      const [r0, r1] = ranges.get(f.id)!;
      const old = (p: number) => values.get(f.id)![p]!;
      const floored = [r0, r1].map((r) => r.map((x) => Math.max(x, options.floor))) as [
        Float64Array,
        Float64Array,
      ];
      const from = options.warm === true ? flopStates.get(f.id) : undefined;
      const sol = solveToy(f.flop, game, {
        iterations: options.flopIterations,
        reach: floored,
        ...(from ? { from } : {}),
      });
      flopStates.set(f.id, sol.state);
      for (const [id, s] of sol.average) strategies.set(id, s);
      const solved = flopPotValues(game, f, options.warm === true ? sol.current : sol.average);
      const v: [Float64Array, Float64Array] =
        options.update === "average" && round > 1
          ? ([0, 1].map((p) => old(p).map((x, i) => x + (solved[p]![i]! - x) / round)) as [
              Float64Array,
              Float64Array,
            ])
          : solved;
      next.set(f.id, v);
      for (const p of [0, 1] as const) {
        const own = p === 0 ? r0 : r1;
        const opp = p === 0 ? r1 : r0;
        const before = classValues(game, old(p), p, opp);
        const after = classValues(game, v[p], p, opp);
        let s = 0;
        let t = 0;
        for (let a = 0; a < R; a++) {
          if (!Number.isFinite(before[a]!) || !Number.isFinite(after[a]!)) continue;
          const wt = own[a]! * game.w2.slice(a * R, a * R + R).reduce((x, y) => x + y, 0);
          s += wt * Math.abs(after[a]! - before[a]!);
          t += wt;
        }
        if (t > 0) movement = Math.max(movement, s / t);
      }
    }
    values = next;
    rounds.push({ round, movement, whole: evaluateToy(game, strategies) });
    if (options.tolerance !== undefined && movement < options.tolerance) break;
  }
  return { rounds, strategies, flopValues: values };
}

/** One method's line in the oracle's report. */
export interface OracleRow {
  readonly method: string;
  readonly rounds: number;
  /** Preflop iterations per round (and the flop pots' where they differ: `flopIterationsPerRound`). */
  readonly iterationsPerRound: number;
  readonly flopIterationsPerRound: number;
  /** The largest and smallest exploitability of the last third of the rounds (bb per hand). */
  readonly lateRange: readonly [number, number];
  /** The last round's movement (bb). */
  readonly movement: number;
  /** The combined profile's exploitability in the whole game (bb per hand, both seats). */
  readonly exploitability: number;
  /** The small blind's value in the whole game under that profile (bb per hand). */
  readonly sbValue: number;
}

/** The toy of the tests and docs: 5 ranks of 2 cards, 10 bb deep, raises to 3 bb, pot-sized flop bets. */
export const ORACLE_TOY = { ranks: 5, copies: 2, stack: 10, sb: 0.5, open: 3, betPot: 1 } as const;

/**
 * The oracle's report (`realization toy`): the whole game solved by CFR+, and the grounded iteration several
 * ways: each round solved afresh, flop ranges blended with the last round's, terminals averaged over rounds
 * (without and with the blend), the preflop solve going on, and short rounds going on from the last (without
 * and with a range floor).
 */
export function oracleReport(game: ToyGame): OracleRow[] {
  const rows: OracleRow[] = [];
  const whole = solveToy(game.root, game, { iterations: 3000 });
  const e = evaluateToy(game, whole.average);
  rows.push({
    method: "whole game, CFR+",
    rounds: 1,
    iterationsPerRound: 3000,
    flopIterationsPerRound: 3000,
    lateRange: [e.exploitability, e.exploitability],
    movement: 0,
    exploitability: e.exploitability,
    sbValue: e.value[0],
  });
  const runs: [string, GroundedOptions][] = [
    [
      "grounded, solved afresh each round",
      { rounds: 12, preflopIterations: 1000, flopIterations: 1000, floor: 0 },
    ],
    [
      "grounded, flop ranges half the last round's (`plan --blend-with`)",
      { rounds: 30, preflopIterations: 1000, flopIterations: 1000, floor: 0.005, rangeBlend: 0.5 },
    ],
    [
      "grounded, terminals averaged over rounds",
      { rounds: 30, preflopIterations: 1000, flopIterations: 1000, floor: 0.005, update: "average" },
    ],
    [
      "the same, flop ranges half the last round's",
      {
        rounds: 30,
        preflopIterations: 1000,
        flopIterations: 1000,
        floor: 0.005,
        update: "average",
        rangeBlend: 0.5,
      },
    ],
    [
      "grounded, preflop going on from the last round, flop pots solved afresh",
      { rounds: 30, preflopIterations: 100, flopIterations: 300, floor: 0, warm: "preflop" },
    ],
    [
      "grounded, short rounds going on from the last",
      { rounds: 300, preflopIterations: 10, flopIterations: 10, floor: 0, warm: true },
    ],
    [
      "the same, flop ranges floored at 0.005",
      { rounds: 300, preflopIterations: 10, flopIterations: 10, floor: 0.005, warm: true },
    ],
  ];
  for (const [method, o] of runs) {
    const all = groundedToy(game, o).rounds;
    const last = all.at(-1)!;
    const late = all.slice(Math.floor((2 * all.length) / 3)).map((r) => r.whole.exploitability);
    rows.push({
      method,
      rounds: o.rounds,
      iterationsPerRound: o.preflopIterations,
      flopIterationsPerRound: o.flopIterations,
      lateRange: [Math.max(...late), Math.min(...late)],
      movement: last.movement,
      exploitability: last.whole.exploitability,
      sbValue: last.whole.value[0],
    });
  }
  return rows;
}
