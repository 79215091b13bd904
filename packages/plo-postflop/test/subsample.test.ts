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

describe("poolClasses", () => {
  it("weights combos by weight x compat, averages rounds and gives the standard error over them", () => {
    const combos: PloCombo[] = [
      { cards: [0, 1, 2, 3], weight: 1, cls: "a" },
      { cards: [4, 5, 6, 7], weight: 0.5, cls: "a" },
      { cards: [8, 9, 10, 11], weight: 1, cls: "b" },
    ];
    const compat = Float64Array.from([2, 4, 1]);
    const equity = Float64Array.from([0.5, 0.25, 0.8]);
    // class a: weights 2 and 2 -> round means (1 + 3) / 2 = 2 and (3 + 5) / 2 = 4; b: NaN in round 2 is skipped
    const rounds = [Float64Array.from([1, 3, 7]), Float64Array.from([3, 5, Number.NaN])];
    const [a, b] = poolClasses(combos, compat, equity, rounds, 10, (c) => c.cls);
    expect(a).toMatchObject({ cls: "a", weight: 4, ev: 3, equity: 0.375 });
    expect(a!.se).toBeCloseTo(1, 12); // sd of (2, 4) = sqrt(2), / sqrt(2)
    expect(a!.realization).toBeCloseTo(3 / (0.375 * 10), 12);
    expect(b).toMatchObject({ cls: "b", weight: 1, ev: 7 });
    expect(b!.se).toBeNaN();
  });
});

describe("range input", () => {
  it("names the bad entry", () => {
    const spot = (oop: string) =>
      resolvePloSpot({ board, pot: 10, stack: 10, ranges: { oop, ip: "AsAd9h9c" } });
    expect(() => spot("AsKsQhJh:1.5")).toThrow(/ranges.oop: range entry "AsKsQhJh:1.5": the weight/);
    expect(() => spot("AsKsQh")).toThrow(/not four distinct cards/);
    expect(() => spot("Kc9s8s7s")).toThrow(/no hand that misses the board/);
    // (AK)(AK) has 6 hands; the 3 whose king is the board's Kc are dropped
    expect(spot("(AK)(AK):0.5").combos[0]).toHaveLength(3);
  });
});
