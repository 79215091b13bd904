/**
 * How much of its equity each PLO class realizes in a postflop pot, measured on exact solves of random
 * subgames (issue 30, item 2: what PLO preflop's terminal values are to be grounded in).
 *
 * Full PLO ranges (tens of thousands of combos) do not fit an exact solve, and `solveBySubsamples` solves
 * every part of a partition, hundreds of subgames for such ranges. A measurement needs fewer: each subgame
 * here deals `chunk` combos to each player from its range, without replacement and with probability in
 * proportion to their weights (`samplePloRange`), so that a subgame is a random deal of the two ranges at a
 * table, and solves that game exactly (every turn and river, exact card removal). Sampled combos play at
 * weight 1: the range's weights are in the sampling. A combo's realization in its subgame is its EV over
 * its share of the pot by its equity against the opponent's sample (both from the subgame's own solve).
 *
 * Pooled per class (`poolRealization`): over every appearance of the class's combos in every subgame,
 * weighted by how much of the opponent's sample each can meet (its `compat`), the mean EV, the mean equity
 * and the realization `ev / (equity x pot)`, the hold'em realization package's measure. The error this
 * sampling makes against the full game is the subsampling method's (docs/plo-abstraction.md): a combo faces
 * a random part of the opposing range, and the subgame's equilibrium adapts to that part.
 *
 * Subgame k draws from a generator seeded by (seed, k) alone, so a batch can solve subgames in any order,
 * in parts (`from`), and resume: the same (seed, k) is the same subgame.
 *
 * ```ts
 * const r = samplePloRealization(
 *   { board: "Qs9h6d", pot: 7.5, stack: 96.5, ranges: { oop: bbRange, ip: btnRange } },
 *   { subgames: 4, chunk: 150, seed: 1, solve: { targetExploitability: 1 } },
 * );
 * r.classes[0]; // the BB's classes: { cls, appearances, weight, ev, equity, realization }
 * ```
 */

import { seededRandom } from "@ranges/core";
import type { PloCombo } from "./range.js";
import { type PloComboResult, type PloSolveOptions, solveResolvedSpot } from "./solve.js";
import { type PloSpot, type PloSpotConfig, resolvePloSpot } from "./spot.js";

export interface PloRealizationOptions {
  /** Subgames to solve, at least 1. */
  readonly subgames: number;
  /** Combos dealt to each player per subgame (all of a smaller range), at least 1. */
  readonly chunk: number;
  readonly seed?: number;
  /** The index of the first subgame (default 0): subgames `from` to `from + subgames - 1` are solved. */
  readonly from?: number;
  readonly solve?: PloSolveOptions;
  /** Called after each subgame, with its results. */
  readonly onSubgame?: (subgame: PloRealizationSubgame) => void;
}

/** One solved subgame. */
export interface PloRealizationSubgame {
  readonly index: number;
  readonly iterations: number;
  /** Percent of the starting pot. */
  readonly exploitability: number;
  /** Per player: the combos dealt (indices into the spot's range) and their results at the root, in order. */
  readonly picked: [readonly number[], readonly number[]];
  readonly combos: [readonly PloComboResult[], readonly PloComboResult[]];
}

/** One class's realization over every appearance of its combos. */
export interface PloRealizationClass {
  readonly cls: string;
  /** Combos of the class dealt, summed over subgames. */
  readonly appearances: number;
  /** Sum of the appearances' compat (opponent combos they could meet): the pooling weight. */
  readonly weight: number;
  /** Mean EV in chips. */
  readonly ev: number;
  /** Mean equity against the opponent's samples. */
  readonly equity: number;
  /** ev / (equity x pot) (NaN at equity 0). */
  readonly realization: number;
}

export interface PloRealizationResult {
  readonly spot: PloSpot;
  readonly subgames: readonly PloRealizationSubgame[];
  /** Per player (OOP, IP), classes by appearances, most first. */
  readonly classes: [PloRealizationClass[], PloRealizationClass[]];
  readonly worstSubgameExploitability: number;
}

/**
 * `k` distinct indices of `combos` (all of them when there are no more), drawn without replacement with
 * probability in proportion to the weights (Efraimidis and Spirakis: the k largest u^(1 / w)), ascending.
 */
export function samplePloRange(combos: readonly PloCombo[], k: number, next: () => number): number[] {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k ${k} must be an integer >= 1`);
  const keys = combos.map((c, i) => ({ i, key: c.weight > 0 ? Math.log(next()) / c.weight : -Infinity }));
  keys.sort((a, b) => b.key - a.key || a.i - b.i);
  return keys
    .slice(0, k)
    .filter((x) => x.key > -Infinity)
    .map((x) => x.i)
    .sort((a, b) => a - b);
}

/** The generator of subgame `index` under `seed`. */
function subgameRandom(seed: number, index: number): () => number {
  return seededRandom((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
}

/** Solves one subgame of the spot (see the file's comment). */
export function solvePloSubgame(
  spot: PloSpot,
  index: number,
  chunk: number,
  seed: number,
  solve?: PloSolveOptions,
): PloRealizationSubgame {
  const next = subgameRandom(seed, index);
  const picked = [
    samplePloRange(spot.combos[0], chunk, next),
    samplePloRange(spot.combos[1], chunk, next),
  ] as [number[], number[]];
  const dealt = (p: 0 | 1) => picked[p].map((i) => ({ ...spot.combos[p][i]!, weight: 1 }));
  const solved = solveResolvedSpot({ ...spot, combos: [dealt(0), dealt(1)] }, solve);
  return {
    index,
    iterations: solved.iterations,
    exploitability: solved.exploitability,
    picked,
    combos: solved.combos,
  };
}

/** What pooling reads of a combo's result. */
export type PloPooledCombo = Pick<PloComboResult, "cls" | "compat" | "ev" | "equity">;

/** Per player, each class's realization pooled over the subgames' combos (see the file's comment). */
export function poolRealization(
  pot: number,
  subgames: readonly { readonly combos: readonly [readonly PloPooledCombo[], readonly PloPooledCombo[]] }[],
): [PloRealizationClass[], PloRealizationClass[]] {
  return ([0, 1] as const).map((p) => {
    const sums = new Map<string, { n: number; w: number; ev: number; eq: number }>();
    for (const s of subgames) {
      for (const c of s.combos[p]) {
        if (!(c.compat > 0) || !Number.isFinite(c.ev)) continue;
        const acc = sums.get(c.cls) ?? { n: 0, w: 0, ev: 0, eq: 0 };
        acc.n++;
        acc.w += c.compat;
        acc.ev += c.compat * c.ev;
        acc.eq += c.compat * c.equity;
        sums.set(c.cls, acc);
      }
    }
    return [...sums.entries()]
      .map(([cls, a]) => {
        const ev = a.ev / a.w;
        const equity = a.eq / a.w;
        return { cls, appearances: a.n, weight: a.w, ev, equity, realization: ev / (equity * pot) };
      })
      .sort((x, y) => y.appearances - x.appearances || (x.cls < y.cls ? -1 : x.cls > y.cls ? 1 : 0));
  }) as [PloRealizationClass[], PloRealizationClass[]];
}

/** Solves `options.subgames` random subgames of the spot and pools each class's realization. */
export function samplePloRealization(
  config: PloSpotConfig | PloSpot,
  options: PloRealizationOptions,
): PloRealizationResult {
  const spot = "combos" in config ? config : resolvePloSpot(config);
  const { subgames: count, chunk } = options;
  const from = options.from ?? 0;
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`subgames ${count} must be an integer >= 1`);
  if (!Number.isInteger(chunk) || chunk < 1) throw new RangeError(`chunk ${chunk} must be an integer >= 1`);
  if (!Number.isInteger(from) || from < 0) throw new RangeError(`from ${from} must be an integer >= 0`);
  const subgames: PloRealizationSubgame[] = [];
  for (let k = from; k < from + count; k++) {
    const s = solvePloSubgame(spot, k, chunk, options.seed ?? 1, options.solve);
    subgames.push(s);
    options.onSubgame?.(s);
  }
  return {
    spot,
    subgames,
    classes: poolRealization(spot.pot, subgames),
    worstSubgameExploitability: Math.max(...subgames.map((s) => s.exploitability)),
  };
}
