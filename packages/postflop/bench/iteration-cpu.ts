/**
 * CPU time per DCFR iteration on one thread, for quick before/after comparisons of the engine: the benchmark
 * spot's ranges on the flop (QsJh2h, the spot) or on the turn (QsJh2h5d, pot 13.75).
 *
 *   pnpm --filter @ranges/postflop build
 *   nice -n 10 node packages/postflop/bench/iteration-cpu.ts [--spot turn|flop] [--iterations 4] [--threads 1]
 *                                                            [--leads] [--compressed]
 *
 * `--leads` lets OOP lead the turn and river (the benchmark spot as the reference solver's defaults define it,
 * what a side-by-side with it measures); without it, the tree the recorded checksums were taken with.
 * `--compressed`: 16-bit storage (`compressed` in the solve options).
 *
 * Runs the built package (dist). Prints each iteration's CPU seconds (all threads of the process), the mean
 * of all but the first (which pays the page faults of fresh storage), and a checksum of the root strategy so
 * that two builds can be compared for identical results.
 */

import { parseArgs } from "node:util";
import { createPostflopSolver, PACK_DCFR, type PostflopConfig } from "../dist/index.js";
import { benchSpot, benchTurnSpot } from "./spot.ts";

const { values } = parseArgs({
  options: {
    spot: { type: "string", default: "turn" },
    iterations: { type: "string", default: "4" },
    threads: { type: "string", default: "1" },
    leads: { type: "boolean", default: false },
    compressed: { type: "boolean", default: false },
  },
});

// The schedule (the paper's DCFR) and, without --leads, the tree its recorded checksums were taken with.
const flop = benchSpot("75%", values.leads === true);
const config: PostflopConfig = values.spot === "flop" ? flop : benchTurnSpot(flop);
const iterations = Number(values.iterations);
const solver = createPostflopSolver(config, {
  threads: Number(values.threads),
  dcfr: PACK_DCFR,
  compressed: values.compressed === true,
});
const times: number[] = [];
try {
  for (let i = 0; i < iterations; i++) {
    const c0 = process.cpuUsage();
    solver.iterate();
    const c = process.cpuUsage(c0);
    times.push((c.user + c.system) / 1e6);
    process.stdout.write(`iteration ${i + 1}: ${times[i]!.toFixed(3)} s CPU\n`);
  }
  const rest = times.length > 1 ? times.slice(1) : times;
  const mean = rest.reduce((a, b) => a + b, 0) / rest.length;
  // Checksum: the root decision's regrets and strategy sums (identical builds give identical bits).
  let sum = 0;
  for (let i = 0; i < solver.topRegret.length; i++)
    sum += solver.topRegret[i]! * (1 + (i % 7)) + solver.topCum[i]!;
  process.stdout.write(
    `${values.spot}: ${mean.toFixed(4)} s CPU per iteration (after the first); checksum ${sum}\n`,
  );
} finally {
  solver.close();
}
