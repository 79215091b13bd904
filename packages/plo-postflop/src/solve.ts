/**
 * Solving a spot exactly and reading per-combo results.
 *
 * ```ts
 * const result = solvePloSpot(
 *   { board: "Kc8d5h2s7c", pot: 10, stack: 40, ranges: { oop: "(KQ)(J9), Ah8s7d6c", ip: "AsAd9h9c, QhJhTs9s" } },
 *   { targetExploitability: 0.1, maxIterations: 2000 },
 * );
 * result.combos[0][0]; // per combo: key, cls, weight, compat, ev (chips), equity, realization
 * ```
 *
 * A flop board (`"Kc8d5h"`) solves the flop with every turn and river dealt; equity is then over every
 * turn and river pair.
 */

import type { DcfrParams } from "@ranges/postflop";
import type { PloCombo } from "./range.js";
import { comboKey } from "./range.js";
import { PloSolver, type PloStrategyOf } from "./solver.js";
import { type PloSpot, type PloSpotConfig, resolvePloSpot } from "./spot.js";

export interface PloSolveOptions {
  /** Stop when the exploitability (percent of the pot) is at most this; default 0.1. */
  readonly targetExploitability?: number;
  /** Default 1,000. */
  readonly maxIterations?: number;
  /** Exploitability is measured every this many iterations; default 25. */
  readonly checkEvery?: number;
  /** The discount schedule (default `PLO_DCFR`). */
  readonly dcfr?: DcfrParams;
}

/** One combo at the root of a solved spot. */
export interface PloComboResult {
  readonly key: string;
  readonly cls: string;
  readonly weight: number;
  /** Weight of the opponent hands it can meet: its share of the deals is weight x this. */
  readonly compat: number;
  /** Expected payoff in chips when dealt (share of the final pot less what it put in during the spot). */
  readonly ev: number;
  /** All-in equity against the opponent's range over the remaining cards. */
  readonly equity: number;
  /** ev / (equity x pot): 1 is realizing exactly its equity of the starting pot (NaN at equity 0). */
  readonly realization: number;
}

export interface PloSolveResult {
  readonly solver: PloSolver;
  readonly iterations: number;
  /** Percent of the starting pot. */
  readonly exploitability: number;
  /** Each player's value (chips); they sum to the pot. */
  readonly values: [number, number];
  readonly combos: [PloComboResult[], PloComboResult[]];
}

/** Per-combo results of both players at the root under a strategy profile (default: the average strategies). */
export function comboResults(
  solver: PloSolver,
  strategy?: PloStrategyOf,
): [PloComboResult[], PloComboResult[]] {
  const pot = solver.spot.pot;
  return ([0, 1] as const).map((p) => {
    const cfv = solver.rootValues(p, "ev", strategy);
    const compat = solver.compatWeights(p);
    const eq = solver.equities(p);
    return solver.spot.combos[p].map((c: PloCombo, i) => {
      const ev = compat[i]! > 0 ? cfv[i]! / compat[i]! : Number.NaN;
      return {
        key: comboKey(c.cards),
        cls: c.cls,
        weight: c.weight,
        compat: compat[i]!,
        ev,
        equity: eq[i]!,
        realization: eq[i]! > 0 ? ev / (eq[i]! * pot) : Number.NaN,
      };
    });
  }) as [PloComboResult[], PloComboResult[]];
}

/** Solves a flop, turn or river spot with discounted CFR until the target exploitability or the iteration limit. */
export function solvePloSpot(config: PloSpotConfig, options: PloSolveOptions = {}): PloSolveResult {
  return solveResolvedSpot(resolvePloSpot(config), options);
}

/** `solvePloSpot` for a spot already resolved (`resolvePloSpot`). */
export function solveResolvedSpot(spot: PloSpot, options: PloSolveOptions = {}): PloSolveResult {
  const target = options.targetExploitability ?? 0.1;
  const max = options.maxIterations ?? 1000;
  const every = options.checkEvery ?? 25;
  const solver = new PloSolver(spot, { dcfr: options.dcfr });
  let measured = solver.exploitability();
  while (solver.iteration < max) {
    solver.iterate();
    if (solver.iteration % every === 0 || solver.iteration === max) {
      measured = solver.exploitability();
      if (measured.exploitability <= target) break;
    }
  }
  return {
    solver,
    iterations: solver.iteration,
    exploitability: measured.exploitability,
    values: measured.values,
    combos: comboResults(solver),
  };
}
