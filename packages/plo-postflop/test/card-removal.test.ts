import { evaluateOmaha } from "@ranges/solver";
import { describe, expect, it } from "vitest";
import { type PloCombo, PloSolver, parsePloBoard, resolvePloSpot, solvePloSpot } from "../src/index.js";
import { randomRange } from "./random-range.js";

const disjoint = (a: readonly number[], b: readonly number[]) => !a.some((c) => b.includes(c));

/** The cards still to come: none on a river, each river on a turn, each (turn, river) pair on a flop. */
function completions(board: number[]): number[][] {
  const live = [...Array(52).keys()].filter((c) => !board.includes(c));
  if (board.length === 5) return [[]];
  if (board.length === 4) return live.map((c) => [c]);
  return live.flatMap((t) => live.filter((r) => r > t).map((r) => [t, r]));
}

/** Brute force over every pair of hands and every card to come: compat weight and equity of each OOP hand. */
function bruteForce(board: number[], oop: PloCombo[], ip: PloCombo[]) {
  const rivers = completions(board);
  return oop.map((h) => {
    let compat = 0;
    let share = 0;
    for (const o of ip) {
      if (!disjoint(h.cards, o.cards)) continue;
      compat += o.weight;
      let s = 0;
      let n = 0;
      for (const r of rivers) {
        if (r.some((c) => h.cards.includes(c) || o.cards.includes(c))) continue;
        const b = [...board, ...r];
        const a = evaluateOmaha(h.cards, b);
        const c = evaluateOmaha(o.cards, b);
        s += a > c ? 1 : a === c ? 0.5 : 0;
        n++;
      }
      share += (o.weight * s) / n;
    }
    return { compat, equity: share / compat };
  });
}

describe("exact card removal", () => {
  for (const [name, boardText, n] of [
    ["river", "Kc8d5h2s7c", 60],
    ["turn", "Qs9h6d3c", 25],
    ["flop", "Qs9h6d", 10],
  ] as const) {
    it(`${name}: compat weights and equities match brute force over every pair of hands`, () => {
      const board = parsePloBoard(boardText);
      const oop = randomRange(board, n, 1);
      const ip = randomRange(board, n, 2);
      // one identical hand in both ranges: it shares all four cards and must never meet itself
      ip[0] = { ...oop[0]!, weight: 0.7 };
      const solver = new PloSolver(
        resolvePloSpot({ board: boardText, pot: 10, stack: 20, ranges: { oop, ip } }),
      );
      const compat = solver.compatWeights(0);
      const eq = solver.equities(0);
      const truth = bruteForce(board, oop, ip);
      for (let i = 0; i < n; i++) {
        expect(compat[i]!).toBeCloseTo(truth[i]!.compat, 10);
        expect(eq[i]!).toBeCloseTo(truth[i]!.equity, 10);
      }
    });
  }

  it("a hand never meets opponent hands that share a card with it", () => {
    // OOP holds one hand; IP's second hand shares a card with it. OOP's value must be the same as when IP
    // holds only the first hand.
    const spot = (ip: string) =>
      solvePloSpot(
        { board: "Kc8d5h2s7c", pot: 10, stack: 30, ranges: { oop: "AhAd9c6c", ip } },
        { targetExploitability: 0.001, maxIterations: 3000 },
      );
    const alone = spot("QhJhTs9s");
    const withBlocked = spot("QhJhTs9s,Ah4h4d3c");
    expect(withBlocked.combos[0][0]!.compat).toBe(1);
    expect(withBlocked.combos[0][0]!.ev).toBeCloseTo(alone.combos[0][0]!.ev, 3);
    expect(withBlocked.combos[0][0]!.equity).toBe(alone.combos[0][0]!.equity);
  });
});

describe("consistency", () => {
  it("a turn spot: values sum to the pot, exploitability falls towards 0", () => {
    const board = parsePloBoard("Qs9h6d3c");
    const spot = resolvePloSpot({
      board: "Qs9h6d3c",
      pot: 10,
      stack: 25,
      ranges: { oop: randomRange(board, 16, 3), ip: randomRange(board, 16, 4) },
      betting: { bets: [1], raises: [1], raiseCap: 1 },
    });
    const solver = new PloSolver(spot);
    const first = solver.exploitability().exploitability;
    for (let i = 0; i < 10; i++) solver.iterate();
    const mid = solver.exploitability();
    for (let i = 0; i < 90; i++) solver.iterate();
    const last = solver.exploitability();
    expect(mid.exploitability).toBeLessThan(first);
    expect(last.exploitability).toBeLessThan(mid.exploitability);
    expect(last.exploitability).toBeLessThan(1);
    expect(last.values[0] + last.values[1]).toBeCloseTo(10, 9);
    // a best response is never worse than the profile itself
    expect(last.br[0]).toBeGreaterThanOrEqual(last.values[0] - 1e-9);
    expect(last.br[1]).toBeGreaterThanOrEqual(last.values[1] - 1e-9);
  });

  it("pot-limit sizes and the raise cap", () => {
    const solver = new PloSolver(
      resolvePloSpot({
        board: "Kc8d5h2s7c",
        pot: 10,
        stack: 100,
        ranges: { oop: "AhAd9c6c", ip: "QhJhTs9s" },
        betting: { bets: [0.5, 1], raises: [1], raiseCap: 1 },
      }),
    );
    const root = solver.tree.root as import("../src/index.js").DecisionNode;
    expect(root.actions).toEqual(["check", "bet 5", "bet 10"]);
    const facing = root.children[2] as import("../src/index.js").DecisionNode;
    // pot 20 after the bet, call 10 -> 30, raise 30: 40 in
    expect(facing.actions).toEqual(["fold", "call", "raise 40"]);
    const reraise = facing.children[2] as import("../src/index.js").DecisionNode;
    expect(reraise.actions).toEqual(["fold", "call"]);
    expect(() =>
      resolvePloSpot({ board: "Kc8d5h2s", pot: 10, stack: 10, ranges: { oop: "AhAd9c6c", ip: "Kc" } }),
    ).toThrow(/ranges.ip/);
    expect(
      () =>
        new PloSolver(
          resolvePloSpot({
            board: "Kc8d5h2s",
            pot: 10,
            stack: 10,
            ranges: { oop: "AhAd9c6c", ip: "QhJhTs9s" },
            betting: { bets: [1.5] },
          }),
        ),
    ).toThrow(/pot limit/);
  });
});
