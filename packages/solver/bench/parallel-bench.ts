/**
 * Iteration time of the serial solver against the parallel one on the same trees, and a check that both
 * give the same numbers.
 *
 *   pnpm --filter @ranges/solver build
 *   node packages/solver/bench/parallel-bench.ts [--iterations 20] [--threads 2] [--rounds 2] [nl:100 nl/v2:100 ...]
 *
 * Runs the built package (dist). Each round times the serial solver, then the parallel one, over the same
 * iterations (after one untimed warm-up iteration), so both see about the same machine load; the load
 * average is printed with each round. Wall time depends on the cores the rest of the machine leaves free,
 * so CPU time is reported too (Node >= 23.9 measures it per thread): the serial solver's CPU per iteration
 * against the parallel one's critical path (the top part plus the slowest group, in CPU seconds) is the
 * speedup on otherwise idle cores. Ends each round with `evaluate()` on both and fails if any seat's numbers
 * differ.
 */

import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import {
  buildEngineGame,
  CfrSolver,
  countNodes,
  DCFR_PARAMS,
  loadHeadsUpEquity,
  loadTreeConfig,
  PARALLEL_MIN_DECISIONS,
  ParallelCfrSolver,
  type SeatResult,
  type Solver,
  treeConfigPath,
} from "../dist/index.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    iterations: { type: "string", default: "20" },
    threads: { type: "string", default: "2" },
    rounds: { type: "string", default: "2" },
  },
});
const iterations = Number(values.iterations);
const threads = Number(values.threads);
const rounds = Number(values.rounds);
const spots = positionals.length > 0 ? positionals : ["nl:100", "nl/v2:100"];
const equity = loadHeadsUpEquity();
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1e6;
};
const ms = (x: number) => `${(x * 1000).toFixed(0)} ms`;

interface Timing {
  wall: number;
  cpu: number;
  seats: SeatResult[];
}

/** Seconds per iteration (wall, and CPU of the calling thread) after one warm-up iteration. */
function time(solver: Solver, around: (start: boolean) => void = () => {}): Timing {
  solver.iterate();
  around(true);
  const t0 = performance.now();
  const c0 = cpu();
  for (let i = 0; i < iterations; i++) solver.iterate();
  const wall = (performance.now() - t0) / 1000 / iterations;
  const used = (cpu() - c0) / iterations;
  around(false);
  return { wall, cpu: used, seats: solver.evaluate() };
}

console.log(`${iterations} iterations per run, ${threads} threads, ${rounds} rounds; load average ${load()}`);
for (const spot of spots) {
  const [game, stack] = spot.split(":");
  const config = loadTreeConfig(treeConfigPath(game as "nl"));
  const built = buildEngineGame(config, Number(stack), equity);
  const nodes = countNodes(built.game.root);
  const params = { ...DCFR_PARAMS, alternate: config.solve.alternate, tremble: 1e-4 };
  console.log(
    `\n${spot}: ${nodes.decisions} decisions, ${nodes.terminals} terminals (parallel by default above ${PARALLEL_MIN_DECISIONS})`,
  );
  for (let round = 1; round <= rounds; round++) {
    const s = time(new CfrSolver(built.game, params));
    const parallel = new ParallelCfrSolver(built.game, params, threads);
    let before = parallel.stats();
    let after = before;
    const p = time(parallel, (start) => {
      if (start) before = parallel.stats();
      else after = parallel.stats();
    });
    parallel.close();
    const groupCpu = after.cpuSeconds.map((x, i) => (x - before.cpuSeconds[i]!) / iterations);
    const topCpu = (after.topCpuSeconds - before.topCpuSeconds) / iterations;
    const critical = topCpu + Math.max(...groupCpu);
    const totalCpu = topCpu + groupCpu.reduce((x, y) => x + y, 0);
    const same = JSON.stringify(s.seats) === JSON.stringify(p.seats);
    console.log(
      `  round ${round}: wall serial ${ms(s.wall)}/it, parallel ${ms(p.wall)}/it (${(s.wall / p.wall).toFixed(2)}x) | CPU serial ${ms(s.cpu)}/it, parallel ${ms(totalCpu)}/it in all (groups ${groupCpu.map(ms).join(" + ")}, top ${ms(topCpu)}), critical path ${ms(critical)}/it: ${(s.cpu / critical).toFixed(2)}x on free cores | same results: ${same} | load ${load()}`,
    );
    if (!same) {
      console.error("serial and parallel results differ");
      process.exit(1);
    }
  }
}
