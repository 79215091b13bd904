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
