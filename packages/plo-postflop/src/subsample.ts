/**
 * Ranges too large to solve per combo: solve random subsamples of the two ranges exactly and pool.
 *
 * Why this method: full PLO ranges (tens of thousands of combos per player) do not fit an exact per-combo
 * solve, but every subgame of a few hundred combos per player does, and it keeps what a card abstraction
 * loses: exact card removal, exact hand strength on every runout, and each combo's own blockers. What it
 * changes is the opponent: in a subgame a combo faces a random part of the opponent's range, not all of it,
 * and the equilibrium of that smaller game adapts to the part it faces. The error this causes is measured
 * against exact solves (scripts/measure-subsample-error.ts, docs/plo-abstraction.md).
 *
 * How: each round shuffles both ranges (seeded) and splits each into K parts (K = the larger of
 * ceil(combos / chunk) of the two players), and solves part k of OOP against part k of IP for every k, so
 * every combo is solved exactly once per round. Per round a combo's EV is its EV in its subgame; a class's
 * EV is the mean EV of its combos weighted by weight x compat (compat over the FULL opposing range, the
 * combo's share of the real deals). The estimate is the mean over rounds, its standard error the spread of
 * the round means / sqrt(rounds). Equity is exact (the full ranges). Optionally the subgame strategies are
 * lifted to one strategy of the full game: a combo's strategy at a decision is its strategies of every round
 * mixed in sequence form (weighted by its own reach there in each round), so the lifted profile is exactly
 * the average over rounds of what the combo did; it can then be measured in the full game
 * (`PloSolver.exploitability(lifted)`), and played there to give per-class EVs with no subsampling noise
 * (`evaluateLifted`: one traversal of the full game per player, affordable on turns and rivers where the
 * solve is not). Flop spots work the same way (every subgame an exact flop solve).
 *
 * ```ts
 * const pooled = solveBySubsamples(
 *   { board: "Kc8d5h2s7c", pot: 10, stack: 40, ranges: { oop: "(KQ)(J9),AAKK,(T9)(87),...", ip: "..." } },
 *   { chunk: 200, rounds: 4, seed: 1, solve: { targetExploitability: 0.2 } },
 * );
 * pooled.classes[0]; // per class of OOP: { cls, weight, ev, se, equity, realization }
 * ```
 */

import { seededRandom } from "@ranges/core";
import type { PloCombo } from "./range.js";
import { comboResults, type PloSolveOptions, solveResolvedSpot } from "./solve.js";
import { PloSolver, type PloStrategyOf } from "./solver.js";
import { type PloSpot, type PloSpotConfig, resolvePloSpot } from "./spot.js";
import type { DecisionNode, PloNode } from "./tree.js";

export interface PloSubsampleOptions {
  /** Combos per player and subgame (at most); at least 1. */
  readonly chunk: number;
  /** Random partitions of the ranges; each combo is solved once per round. At least 1 (2 for a standard error). */
  readonly rounds: number;
  readonly seed?: number;
  readonly solve?: PloSolveOptions;
  /** A combo's class for the pooled per-class results; default its preflop class (`PloCombo.cls`). */
  readonly classOf?: (combo: PloCombo) => string;
  /**
   * Build the lifted strategy of the full game (memory: actions x full-range combos per decision and deal;
   * on a flop a river decision has 2,352 deals, so lifting and `evaluateLifted` suit flop spots whose full
   * ranges are small enough to solve exactly, the spots where the method's error is measured).
   */
  readonly lift?: boolean;
  /**
   * With `lift`: also play the lifted profile in the full game (one exact traversal per player, no solve)
   * and give per-class EVs from it (`liftedClasses`): no opponent subsampling noise left in the EV, only the
   * lifted strategies' distance from equilibrium.
   */
  readonly evaluateLifted?: boolean;
}

export interface PloClassEstimate {
  readonly cls: string;
  /** Sum of weight x compat of its combos (its share of the deals, unnormalized). */
  readonly weight: number;
  /** Pooled EV in chips: mean over rounds. */
  readonly ev: number;
  /** Standard error of `ev` over rounds (NaN with one round). */
  readonly se: number;
  /** Exact all-in equity against the full opposing range. */
  readonly equity: number;
  /** ev / (equity x pot). */
  readonly realization: number;
}

export interface PloSubsampleResult {
  readonly spot: PloSpot;
  /** Per player: every combo's EV in each round, `ev[p][round][combo]` (NaN where it met no opponent hand). */
  readonly roundEv: [Float64Array[], Float64Array[]];
  readonly classes: [PloClassEstimate[], PloClassEstimate[]];
  readonly subgames: number;
  /** Largest exploitability of a subgame's solve (percent of the pot). */
  readonly worstSubgameExploitability: number;
  readonly lifted?: PloStrategyOf;
  /** Per class, the EV of the lifted profile played in the full game (`evaluateLifted`; `se` is NaN). */
  readonly liftedClasses?: [PloClassEstimate[], PloClassEstimate[]];
}

function shuffled(n: number, next: () => number): number[] {
  const a = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Per-class pooled estimates from per-round per-combo EVs. */
export function poolClasses(
  combos: readonly PloCombo[],
  compat: Float64Array,
  equity: Float64Array,
  roundEv: readonly Float64Array[],
  pot: number,
  classOf: (c: PloCombo) => string,
): PloClassEstimate[] {
  const members = new Map<string, number[]>();
  combos.forEach((c, i) => {
    const k = classOf(c);
    const list = members.get(k);
    if (list) list.push(i);
    else members.set(k, [i]);
  });
  const out: PloClassEstimate[] = [];
  for (const [cls, list] of members) {
    let weight = 0;
    let eq = 0;
    for (const i of list) {
      const w = combos[i]!.weight * compat[i]!;
      weight += w;
      eq += w * equity[i]!;
    }
    if (!(weight > 0)) continue;
    const means: number[] = [];
    for (const ev of roundEv) {
      let num = 0;
      let den = 0;
      for (const i of list) {
        if (!Number.isFinite(ev[i]!)) continue;
        const w = combos[i]!.weight * compat[i]!;
        num += w * ev[i]!;
        den += w;
      }
      if (den > 0) means.push(num / den);
    }
    const mean = means.reduce((a, b) => a + b, 0) / means.length;
    const se =
      means.length > 1
        ? Math.sqrt(means.reduce((a, b) => a + (b - mean) ** 2, 0) / (means.length - 1) / means.length)
        : Number.NaN;
    const equityMean = eq / weight;
    out.push({ cls, weight, ev: mean, se, equity: equityMean, realization: mean / (equityMean * pot) });
  }
  return out;
}

/** Visits every decision of `p` (with its deal) with its own per-combo reach under the solver's average strategy. */
function visitOwnReach(
  solver: PloSolver,
  p: 0 | 1,
  visit: (d: DecisionNode, deal: number, reach: Float64Array, sigma: Float64Array) => void,
): void {
  const dead = solver.runouts.dead[p];
  const walk = (node: PloNode, c1: number, c2: number, reach: Float64Array) => {
    if (node.kind === "chance") {
      for (const c of solver.runouts.cards(node.street, c1)) {
        const live = reach.slice();
        for (const i of dead[c]!) live[i] = 0;
        if (node.street === 1) walk(node.child, c, c2, live);
        else walk(node.child, c1, c, live);
      }
      return;
    }
    if (node.kind !== "decision") return;
    if (node.player !== p) {
      for (const child of node.children) walk(child, c1, c2, reach);
      return;
    }
    const deal = solver.runouts.deal(node.street, c1, c2);
    const sigma = solver.averageStrategy(node, deal);
    visit(node, deal, reach, sigma);
    const H = reach.length;
    node.children.forEach((child, a) => {
      const next = new Float64Array(H);
      for (let i = 0; i < H; i++) next[i] = reach[i]! * sigma[a * H + i]!;
      walk(child, c1, c2, next);
    });
  };
  walk(solver.tree.root, -1, -1, new Float64Array(solver.spot.combos[p].length).fill(1));
}

/** Solves random subsamples of the two ranges exactly and pools per class (see the file's comment). */
export function solveBySubsamples(
  config: PloSpotConfig | PloSpot,
  options: PloSubsampleOptions,
): PloSubsampleResult {
  const spot = "combos" in config ? config : resolvePloSpot(config);
  if (!Number.isInteger(options.chunk) || options.chunk < 1)
    throw new RangeError(`chunk ${options.chunk} must be an integer >= 1`);
  if (!Number.isInteger(options.rounds) || options.rounds < 1)
    throw new RangeError(`rounds ${options.rounds} must be an integer >= 1`);
  const classOf = options.classOf ?? ((c: PloCombo) => c.cls);
  const exact = new PloSolver(spot, { storage: false });
  const sizes = [spot.combos[0].length, spot.combos[1].length] as const;
  const parts = Math.max(Math.ceil(sizes[0] / options.chunk), Math.ceil(sizes[1] / options.chunk));
  const next = seededRandom(options.seed ?? 1);
  const roundEv: [Float64Array[], Float64Array[]] = [[], []];
  // lifting: per decision, per storage slot of its deal, numerators [a * N + i] and denominators [i]
  const liftNum: Float64Array[][] = [];
  const liftDen: Float64Array[][] = [];
  let worst = 0;
  let subgames = 0;
  for (let round = 0; round < options.rounds; round++) {
    const order = [shuffled(sizes[0], next), shuffled(sizes[1], next)];
    const ev = [new Float64Array(sizes[0]).fill(Number.NaN), new Float64Array(sizes[1]).fill(Number.NaN)];
    for (let k = 0; k < parts; k++) {
      const idx = [0, 1].map((p) =>
        order[p]!.slice(Math.floor((k * sizes[p]!) / parts), Math.floor(((k + 1) * sizes[p]!) / parts)),
      );
      if (idx[0]!.length === 0 || idx[1]!.length === 0) continue;
      const sub: PloSpot = {
        ...spot,
        combos: [idx[0]!.map((i) => spot.combos[0][i]!), idx[1]!.map((i) => spot.combos[1][i]!)],
      };
      const solved = solveResolvedSpot(sub, options.solve);
      subgames++;
      worst = Math.max(worst, solved.exploitability);
      const per = comboResults(solved.solver);
      for (const p of [0, 1] as const) {
        idx[p]!.forEach((full, local) => {
          ev[p]![full] = per[p][local]!.ev;
        });
        if (!options.lift) continue;
        visitOwnReach(solved.solver, p, (d, deal, reach, sigma) => {
          const N = sizes[p];
          const A = d.actions.length;
          const H = reach.length;
          const slot = exact.runouts.slotOfDeal(d.street, deal);
          liftNum[d.id] ??= [];
          liftDen[d.id] ??= [];
          const num = (liftNum[d.id]![slot] ??= new Float64Array(A * N));
          const den = (liftDen[d.id]![slot] ??= new Float64Array(N));
          idx[p]!.forEach((full, local) => {
            const r = reach[local]!;
            den[full]! += r;
            for (let a = 0; a < A; a++) num[a * N + full]! += r * sigma[a * H + local]!;
          });
        });
      }
    }
    roundEv[0].push(ev[0]!);
    roundEv[1].push(ev[1]!);
  }
  const classes = ([0, 1] as const).map((p) =>
    poolClasses(spot.combos[p], exact.compatWeights(p), exact.equities(p), roundEv[p], spot.pot, classOf),
  ) as [PloClassEstimate[], PloClassEstimate[]];
  let lifted: PloStrategyOf | undefined;
  if (options.lift) {
    const cache = new Map<number, Float64Array>();
    const slots = Math.max(...exact.runouts.slotCounts);
    lifted = (d, deal) => {
      const slot = exact.runouts.slotOfDeal(d.street, deal);
      const key = d.id * slots + slot;
      const hit = cache.get(key);
      if (hit) return hit;
      const N = sizes[d.player];
      const A = d.actions.length;
      const num = liftNum[d.id]?.[slot];
      const den = liftDen[d.id]?.[slot];
      const out = new Float64Array(A * N);
      for (let i = 0; i < N; i++) {
        const z = den?.[i] ?? 0;
        for (let a = 0; a < A; a++) out[a * N + i] = z > 0 ? num![a * N + i]! / z : 1 / A;
      }
      cache.set(key, out);
      return out;
    };
  }
  let liftedClasses: [PloClassEstimate[], PloClassEstimate[]] | undefined;
  if (lifted && options.evaluateLifted) {
    const played = comboResults(exact, lifted);
    liftedClasses = ([0, 1] as const).map((p) =>
      poolClasses(
        spot.combos[p],
        exact.compatWeights(p),
        exact.equities(p),
        [Float64Array.from(played[p], (c) => c.ev)],
        spot.pot,
        classOf,
      ),
    ) as [PloClassEstimate[], PloClassEstimate[]];
  }
  return {
    spot,
    roundEv,
    classes,
    subgames,
    worstSubgameExploitability: worst,
    ...(lifted ? { lifted } : {}),
    ...(liftedClasses ? { liftedClasses } : {}),
  };
}
