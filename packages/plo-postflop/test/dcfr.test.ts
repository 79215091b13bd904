import { describe, expect, it } from "vitest";
import { PLO_DCFR, PloSolver, resolvePloSpot, solvePloSpot } from "../src/index.js";

// A small turn spot: the schedule only changes how the iterates are weighted, so any schedule converges; what
// the option must do is reach the engine's update.
const config = {
  board: "Kc8d5h2s",
  pot: 10,
  stack: 20,
  ranges: { oop: "AAKK,(QJ)(T9),8765", ip: "(AK)(QJ),(98)(76),JT97" },
};

function strategyAfter(iterations: number, dcfr?: typeof PLO_DCFR): Float64Array {
  const solver = new PloSolver(resolvePloSpot(config), dcfr ? { dcfr } : {});
  for (let i = 0; i < iterations; i++) solver.iterate();
  return solver.averageStrategy(solver.tree.decisions[0]!, 0);
}

describe("the discount schedule", () => {
  it("the default is the paper's (alpha 1.5, beta 0, gamma 2, no delay)", () => {
    expect(PLO_DCFR).toEqual({ alpha: 1.5, beta: 0, gamma: 2 });
    expect(strategyAfter(20, { alpha: 1.5, beta: 0, gamma: 2 })).toEqual(strategyAfter(20));
  });

  it("another gamma or a delay changes the iterates and still converges", () => {
    const base = strategyAfter(20);
    for (const dcfr of [
      { alpha: 1.5, beta: 0, gamma: 3 },
      { alpha: 1.5, beta: 0, gamma: 3, delay: 1 },
    ]) {
      expect(strategyAfter(20, dcfr)).not.toEqual(base);
      const r = solvePloSpot(config, { dcfr, targetExploitability: 0.5, maxIterations: 2000 });
      expect(r.exploitability).toBeLessThanOrEqual(0.5);
    }
  });
});
