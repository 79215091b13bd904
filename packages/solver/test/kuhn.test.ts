import { describe, expect, it } from "vitest";
import { CfrSolver, DCFR_PARAMS } from "../src/engine/cfr.js";
import { kuhnGame } from "../src/toy/kuhn.js";

describe("CFR engine on Kuhn poker", () => {
  const params = { ...DCFR_PARAMS, alternate: true };
  const solver = new CfrSolver(kuhnGame(), params);
  for (let i = 0; i < 3000; i++) solver.iterate();
  const [p1, p2] = solver.evaluate();

  it("reaches the game value -1/18 for the first player", () => {
    expect(p1!.value).toBeCloseTo(-1 / 18, 3);
    expect(p2!.value).toBeCloseTo(1 / 18, 3);
  });

  it("is nearly unexploitable", () => {
    expect(p1!.exploitability + p2!.exploitability).toBeLessThan(1e-3);
  });

  it("plays the known equilibrium shape: the second player always calls a bet with K, never with J", () => {
    const facingBet = solver.decisionResults().find((d) => d.node.history === "P1_Bet_P2")!;
    const call = 1;
    expect(facingBet.strategy[call * 3 + 2]).toBeGreaterThan(0.999);
    expect(facingBet.strategy[call * 3 + 0]).toBeLessThan(0.001);
    // Facing a bet with Q, P2 calls 1/3 of the time at equilibrium.
    expect(facingBet.strategy[call * 3 + 1]).toBeCloseTo(1 / 3, 2);
  });

  it("evaluates a profile given from outside (setStrategies)", () => {
    const own = new Map(solver.decisionResults().map((d) => [d.node.history, d.strategy]));
    const copy = new CfrSolver(kuhnGame(), params);
    copy.setStrategies((node) => own.get(node.history)!);
    const [c1, c2] = copy.evaluate();
    expect(c1!.value).toBeCloseTo(p1!.value, 12);
    expect(c2!.bestResponse).toBeCloseTo(p2!.bestResponse, 12);
    // P2 folds its kings to a bet: P1's strategy is unchanged, so P2's best response is too, but P2 now loses
    // value and P1 can exploit it.
    const folding = new CfrSolver(kuhnGame(), params);
    folding.setStrategies((node) => {
      const s = Float64Array.from(own.get(node.history)!);
      if (node.history === "P1_Bet_P2") [s[2], s[3 + 2]] = [1, 0];
      return s;
    });
    const [f1, f2] = folding.evaluate();
    expect(f2!.bestResponse).toBeCloseTo(p2!.bestResponse, 12);
    expect(f2!.value).toBeLessThan(p2!.value - 0.05);
    expect(f1!.exploitability).toBeGreaterThan(0.05);
    expect(() => folding.setStrategies(() => new Float64Array(1))).toThrow(/setStrategies/);
  });

  it("is deterministic", () => {
    const again = new CfrSolver(kuhnGame(), params);
    for (let i = 0; i < 3000; i++) again.iterate();
    expect(again.evaluate()).toEqual(solver.evaluate());
  });
});

describe("predictive CFR+ on Kuhn poker", () => {
  const solver = new CfrSolver(kuhnGame(), { ...DCFR_PARAMS, predictive: true });
  for (let i = 0; i < 3000; i++) solver.iterate();
  const [p1, p2] = solver.evaluate();

  it("reaches the game value and is nearly unexploitable", () => {
    expect(p1!.value).toBeCloseTo(-1 / 18, 3);
    expect(p1!.exploitability + p2!.exploitability).toBeLessThan(1e-3);
    const facingBet = solver.decisionResults().find((d) => d.node.history === "P1_Bet_P2")!;
    expect(facingBet.strategy[1 * 3 + 1]).toBeCloseTo(1 / 3, 2);
  });

  it("refuses alternating updates", () => {
    expect(() => new CfrSolver(kuhnGame(), { ...DCFR_PARAMS, predictive: true, alternate: true })).toThrow(
      /simultaneous updates only/,
    );
  });
});
