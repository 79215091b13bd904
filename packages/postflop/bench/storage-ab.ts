/**
 * Float32 against 16-bit storage (`compressed`), side by side in one process: two solvers of the same spot
 * (the benchmark spot's flop or turn, as in iteration-cpu.ts) iterate in turn, float32 then 16-bit, so that
 * the machine's moods fall on both alike. Prints each pair's CPU seconds and their ratio, then the median
 * ratio and each solver's exploitability after the iterations.
 *
 *   pnpm --filter @ranges/postflop build
 *   node packages/postflop/bench/storage-ab.ts [--spot flop|turn] [--pairs 8] [--threads 1] [--leads]
 */

import { parseArgs } from "node:util";
import { createPostflopSolver, PACK_DCFR, type PostflopConfig } from "../dist/index.js";
import { benchSpot, benchTurnSpot } from "./spot.ts";

const { values } = parseArgs({
  options: {
    spot: { type: "string", default: "flop" },
    pairs: { type: "string", default: "8" },
    threads: { type: "string", default: "1" },
    leads: { type: "boolean", default: false },
  },
});

const flop = benchSpot("75%", values.leads === true);
const config: PostflopConfig = values.spot === "flop" ? flop : benchTurnSpot(flop);
const threads = Number(values.threads);
const solvers = [false, true].map((compressed) =>
  createPostflopSolver(config, { threads, dcfr: PACK_DCFR, compressed }),
);
const cpu = (run: () => void) => {
  const c0 = process.cpuUsage();
  run();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};
try {
  // The first iteration of each pays its storage's page faults: not counted.
  for (const solver of solvers) solver.iterate();
  const ratios: number[] = [];
  const totals = [0, 0];
  for (let p = 0; p < Number(values.pairs); p++) {
    const t = solvers.map((solver) => cpu(() => solver.iterate()));
    totals[0] += t[0]!;
    totals[1] += t[1]!;
    ratios.push(t[1]! / t[0]!);
    process.stdout.write(
      `pair ${p + 1}: float32 ${t[0]!.toFixed(3)} s, 16-bit ${t[1]!.toFixed(3)} s CPU, ratio ${ratios[p]!.toFixed(3)}\n`,
    );
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const exploitability = solvers.map((solver) => solver.exploitability().pctPot.toFixed(3));
  process.stdout.write(
    `${values.spot}, ${threads} thread(s): 16-bit / float32 CPU per iteration: median ${median.toFixed(3)}, ` +
      `total ${(totals[1]! / totals[0]!).toFixed(3)}; exploitability (% of the pot) after ${Number(values.pairs) + 1} ` +
      `iterations: float32 ${exploitability[0]}, 16-bit ${exploitability[1]}\n`,
  );
} finally {
  for (const solver of solvers) solver.close();
}
