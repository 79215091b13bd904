import { describe, expect, it } from "vitest";
import {
  type PloCombo,
  PloSolver,
  poolClasses,
  resolvePloSpot,
  solveBySubsamples,
  solveResolvedSpot,
} from "../src/index.js";

// Ranges built from whole preflop classes, so that a class has several combos.
const board = "Kc8d5h2s7c";
const oop = "(KQ)(J9),AAKK,(T9)(87),(A8)62,QQJT,(65)43,(AJ)T9";
const ip = "(AK)(AK),(98)(76),JJT9,(A5)(43),KQJT,(Q7)76";

describe("subsampling", () => {
  const spot = resolvePloSpot({
    board,
    pot: 10,
    stack: 30,
    ranges: { oop, ip },
    betting: { bets: [1], raises: [1], raiseCap: 1 },
  });
  const solve = { targetExploitability: 0.05, maxIterations: 3000 };

  it("agrees with the exact solve by construction when one part holds each whole range", () => {
    const exact = solveResolvedSpot(spot, solve);
    const pooled = solveBySubsamples(spot, {
      chunk: 1000,
      rounds: 2,
      seed: 3,
      solve,
      lift: true,
      evaluateLifted: true,
    });
    expect(pooled.subgames).toBe(2);
    for (const p of [0, 1] as const) {
      const solver = exact.solver;
      const truth = poolClasses(
        spot.combos[p],
        solver.compatWeights(p),
        solver.equities(p),
        [Float64Array.from(exact.combos[p], (c) => c.ev)],
        spot.pot,
        (c: PloCombo) => c.cls,
      );
      expect(pooled.classes[p].map((c) => c.cls)).toEqual(truth.map((c) => c.cls));
      pooled.classes[p].forEach((c, k) => {
        expect(c.ev).toBeCloseTo(truth[k]!.ev, 9);
        expect(c.se).toBeCloseTo(0, 9);
        expect(c.realization).toBeCloseTo(truth[k]!.realization, 9);
        // the lifted profile is the exact average strategy, so playing it in the full game gives the same EVs
        expect(pooled.liftedClasses![p][k]!.ev).toBeCloseTo(truth[k]!.ev, 9);
      });
    }
    // the lifted strategy is the exact solve's average strategy: same exploitability in the full game
    const measured = new PloSolver(spot, { storage: false }).exploitability(pooled.lifted);
    expect(measured.exploitability).toBeCloseTo(exact.exploitability, 6);
  });

  it("small parts: every combo solved once per round, values stay zero-sum, lifted strategy measurable", () => {
    const pooled = solveBySubsamples(spot, { chunk: 20, rounds: 3, seed: 5, solve, lift: true });
    const n = [spot.combos[0].length, spot.combos[1].length];
    expect(pooled.subgames).toBe(3 * Math.max(Math.ceil(n[0]! / 20), Math.ceil(n[1]! / 20)));
    for (const p of [0, 1] as const) {
      expect(pooled.roundEv[p]).toHaveLength(3);
      for (const ev of pooled.roundEv[p])
        expect(ev.filter((v) => Number.isFinite(v)).length).toBeGreaterThan(0.95 * n[p]!);
      for (const c of pooled.classes[p]) expect(Number.isFinite(c.se)).toBe(true);
    }
    const m = new PloSolver(spot, { storage: false }).exploitability(pooled.lifted);
    expect(m.values[0] + m.values[1]).toBeCloseTo(10, 9);
    expect(m.exploitability).toBeGreaterThan(0);
  });

  it("refuses bad options", () => {
    expect(() => solveBySubsamples(spot, { chunk: 0, rounds: 1 })).toThrow(/chunk/);
    expect(() => solveBySubsamples(spot, { chunk: 10, rounds: 0 })).toThrow(/rounds/);
  });
});
