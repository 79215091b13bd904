/**
 * The parallel solver (src/engine/parallel.ts) must give exactly the serial solver's numbers: every
 * strategy, EV, reach and seat result equal to the last bit, on real trees, with every operation in the
 * order a solve uses them.
 */

import { describe, expect, it } from "vitest";
import {
  type CfrParams,
  CfrSolver,
  DCFR_PARAMS,
  type DecisionResult,
  type SeatResult,
  type Solver,
} from "../src/engine/cfr.js";
import { countNodes, type EngineGame, forEachNode, type TreeNode } from "../src/engine/game.js";
import { ParallelCfrSolver, partitionTree } from "../src/engine/parallel.js";
import { loadHeadsUpEquity } from "../src/equity/index.js";
import { treeConfigPath } from "../src/solve/files.js";
import { buildEngineGame, PREFLOP_TREMBLE, solvePreflop, solverThreads } from "../src/solve/preflop.js";
import { loadTreeConfig } from "../src/tree/config.js";
import { threeHanded } from "./toys.js";

const equity = loadHeadsUpEquity();

/** The bytes of a double array: equal bytes means equal to the last bit (NaN and -0 included). */
const bytes = (a: Float64Array | null) => (a ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : null);

function expectSameSeats(a: readonly SeatResult[], b: readonly SeatResult[]): void {
  expect(b.length).toBe(a.length);
  for (let i = 0; i < a.length; i++) {
    expect(Object.is(b[i]!.value, a[i]!.value), `seat ${i} value`).toBe(true);
    expect(Object.is(b[i]!.bestResponse, a[i]!.bestResponse), `seat ${i} best response`).toBe(true);
    expect(Object.is(b[i]!.exploitability, a[i]!.exploitability), `seat ${i} exploitability`).toBe(true);
  }
}

function expectSameDecisions(a: DecisionResult[], b: DecisionResult[]): void {
  expect(b.length).toBe(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    expect(y.node.history).toBe(x.node.history);
    expect(bytes(y.strategy)!.equals(bytes(x.strategy)!), `${x.node.history} strategy`).toBe(true);
    if (x.evs === null) expect(y.evs).toBeNull();
    else expect(bytes(y.evs)!.equals(bytes(x.evs)!), `${x.node.history} EVs`).toBe(true);
    expect(Object.is(y.reach, x.reach), `${x.node.history} reach`).toBe(true);
  }
}

/** The operations of a solve (with checks on the way), on both solvers, compared after each evaluation. */
function compare(
  game: EngineGame,
  params: CfrParams,
  threads: number,
  iterations: number,
  checkEvery: number,
) {
  const serial = new CfrSolver(game, params);
  const parallel = new ParallelCfrSolver(game, params, threads);
  try {
    expect(parallel.threads).toBe(threads);
    const both = (f: (s: Solver) => void) => {
      f(serial);
      f(parallel);
    };
    while (serial.iterations < iterations) {
      both((s) => s.iterate());
      expect(parallel.iterations).toBe(serial.iterations);
      if (serial.iterations % checkEvery === 0) {
        expectSameSeats(serial.evaluate(), parallel.evaluate());
        expectSameDecisions(serial.decisionResults(), parallel.decisionResults());
      }
    }
    both((s) => s.finalize());
    expectSameSeats(serial.evaluate(), parallel.evaluate());
    expectSameDecisions(serial.decisionResults(), parallel.decisionResults());
    const before = parallel.decisionResults();
    parallel.close();
    // Closed: the results stay readable, nothing else runs.
    expect(parallel.decisionResults()).toBe(before);
    expect(() => parallel.iterate()).toThrow(/closed/);
  } finally {
    parallel.close();
  }
}

describe("parallel solver", () => {
  it("cuts the tree into disjoint subtrees dealt to every group", () => {
    const { game } = buildEngineGame(loadTreeConfig(treeConfigPath("nl")), 100, equity);
    const p = partitionTree(game.root, game.seats.length, 2);
    expect(p.groups.map((g) => g.length > 0)).toEqual([true, true]);
    const roots = p.groups.flat();
    expect(new Set(roots).size).toBe(roots.length);
    expect(new Set(roots)).toEqual(p.cut);
    // Each decision is in exactly one subtree or above the cut.
    const below = new Map<TreeNode, number>();
    for (const r of roots) forEachNode(r, (n) => below.set(n, (below.get(n) ?? 0) + 1));
    expect([...below.values()].every((c) => c === 1)).toBe(true);
    expect(below.size).toBeLessThan(countNodes(game.root).decisions + countNodes(game.root).terminals);
    const [a, b] = p.groupCost;
    expect(Math.abs(a! - b!) / (a! + b!)).toBeLessThan(0.05);
  });

  it("gives the serial solver's numbers on the three-handed toy (alternating, tremble)", () => {
    const { game } = buildEngineGame(threeHanded, 25, equity);
    const params = { ...DCFR_PARAMS, alternate: true, tremble: PREFLOP_TREMBLE };
    compare(game, params, 2, 40, 12);
    compare(game, params, 3, 13, 6);
  });

  it("gives the serial solver's numbers on nl 20bb (simultaneous, tremble)", () => {
    const { game } = buildEngineGame(loadTreeConfig(treeConfigPath("nl")), 20, equity);
    compare(game, { ...DCFR_PARAMS, tremble: PREFLOP_TREMBLE }, 2, 8, 4);
  });

  it("gives the serial solver's numbers on nlmtt8 10bb (multiway all-ins, side pots, 3 threads)", () => {
    const { game } = buildEngineGame(loadTreeConfig(treeConfigPath("nlmtt8")), 10, equity);
    compare(game, { ...DCFR_PARAMS, tremble: PREFLOP_TREMBLE }, 3, 6, 3);
  });

  it("gives the serial solver's numbers with predictive CFR+", () => {
    const { game } = buildEngineGame(loadTreeConfig(treeConfigPath("nl")), 20, equity);
    compare(game, { ...DCFR_PARAMS, tremble: PREFLOP_TREMBLE, predictive: true }, 2, 6, 3);
  });

  it("gives the serial solver's numbers with predictive CFR+ trembling every action", () => {
    const { game } = buildEngineGame(loadTreeConfig(treeConfigPath("nl")), 20, equity);
    compare(game, { ...DCFR_PARAMS, tremble: 1e-5, trembleEvery: true, predictive: true }, 2, 6, 3);
  });

  it("gives the serial solver's numbers without a tremble", () => {
    const { game } = buildEngineGame(threeHanded, 25, equity);
    compare(game, DCFR_PARAMS, 2, 10, 5);
  });

  it("a restored checkpoint publishes exactly the averages it saved (serial and parallel)", () => {
    const { game } = buildEngineGame(loadTreeConfig(treeConfigPath("nl")), 20, equity);
    const params = { ...DCFR_PARAMS, tremble: PREFLOP_TREMBLE };
    const reference = new CfrSolver(game, params);
    for (let i = 0; i < 6; i++) reference.iterate();
    reference.finalize();
    const expected = reference.evaluate();
    const run = (solver: Solver) => {
      try {
        for (let i = 0; i < 6; i++) solver.iterate();
        solver.saveAverages();
        solver.evaluate();
        for (let i = 0; i < 5; i++) solver.iterate();
        solver.restoreAverages();
        solver.finalize();
        expectSameSeats(expected, solver.evaluate());
        expectSameDecisions(reference.decisionResults(), solver.decisionResults());
      } finally {
        solver.close();
      }
    };
    run(new CfrSolver(game, params));
    run(new ParallelCfrSolver(game, params, 2));
    expect(() => new CfrSolver(game, params).restoreAverages()).toThrow(/no averages were saved/);
  });

  it("solvePreflop publishes the least exploitable check of a run", () => {
    const checks: { iteration: number; worst: number; best: number }[] = [];
    const result = solvePreflop({
      config: threeHanded,
      stack: 25,
      equity,
      maxIterations: 60,
      checkEvery: 5,
      targetPctPot: -1,
      now: () => 0,
      threads: 1,
      onProgress: (p) => checks.push({ iteration: p.iteration, worst: p.worstPctPot, best: p.bestPctPot }),
    });
    expect(checks.length).toBe(12);
    const least = checks.reduce((a, b) => (b.worst < a.worst ? b : a));
    expect(result.averagesWorstPctPot).toBe(least.worst);
    expect(result.publishedIteration).toBe(least.iteration);
    expect(result.iterations).toBe(60);
    for (let i = 0; i < checks.length; i++)
      expect(checks[i]!.best).toBe(Math.min(...checks.slice(0, i + 1).map((c) => c.worst)));
  });

  it("solvePreflop on two threads writes the same solve as on one", () => {
    const run = (threads: number) =>
      solvePreflop({
        config: threeHanded,
        stack: 25,
        equity,
        maxIterations: 30,
        targetPctPot: -1,
        now: () => 0,
        threads,
      });
    const one = run(1);
    const two = run(2);
    expect(one.threads).toBe(1);
    expect(two.threads).toBe(2);
    expect(two.iterations).toBe(one.iterations);
    expectSameSeats(one.seats, two.seats);
    expect(two.averagesWorstPctPot).toBe(one.averagesWorstPctPot);
    expect(two.unreachedNodes).toBe(one.unreachedNodes);
    // The solve closed the workers; its results stay readable.
    expectSameDecisions(one.solver.decisionResults(), two.solver.decisionResults());
  });

  it("rethrows a worker's error on the calling thread", () => {
    const { game } = buildEngineGame(threeHanded, 25, equity);
    // The partition the solver makes (its cost estimate counts the multiway model's buckets).
    const p = partitionTree(game.root, game.seats.length, 2, 512, game.multiway?.buckets ?? 1);
    // Break a showdown in group 1's subtrees (solved by the worker): its duel names a matrix that is not there.
    let broken = false;
    for (const r of p.groups[1]!) {
      forEachNode(r, (n) => {
        if (n.type === "showdown") {
          (n as { duel: Int32Array }).duel = new Int32Array(n.duel.length).fill(999);
          broken = true;
        }
      });
    }
    expect(broken).toBe(true);
    const solver = new ParallelCfrSolver(game, DCFR_PARAMS, 2);
    expect(() => solver.iterate()).toThrow(/solver worker 1 failed: TypeError/);
    expect(() => solver.iterate()).toThrow(/closed/);
  });

  it("picks threads by tree size, RANGES_SOLVER_THREADS or the option", () => {
    const saved = process.env.RANGES_SOLVER_THREADS;
    try {
      delete process.env.RANGES_SOLVER_THREADS;
      expect(solverThreads(100)).toBe(1);
      expect(solverThreads(100, 3)).toBe(3);
      process.env.RANGES_SOLVER_THREADS = "1";
      expect(solverThreads(50_000)).toBe(1);
      expect(solverThreads(50_000, 2)).toBe(2);
      process.env.RANGES_SOLVER_THREADS = "2";
      expect(solverThreads(100)).toBe(2);
      process.env.RANGES_SOLVER_THREADS = "two";
      expect(() => solverThreads(100)).toThrow(/RANGES_SOLVER_THREADS/);
    } finally {
      if (saved === undefined) delete process.env.RANGES_SOLVER_THREADS;
      else process.env.RANGES_SOLVER_THREADS = saved;
    }
  });
});
