/**
 * The benchmark spot of issue 10: BTN vs BB single-raised pot at 100bb, flop QsJh2h, bets 75% of the pot on
 * every street, raises to 2.5x, all-in added at 1.5 pots or less, forced all-in at 0.15 pots behind, OOP may
 * lead the turn and river at the ordinary size (see spot.ts); solved to 0.5% of the pot. `--flop-bet 33%` gives
 * the variant with a 33% flop bet, `--no-donk` the tree without leads (the packs' trees).
 *
 *   pnpm --filter @ranges/postflop build
 *   node packages/postflop/bench/flop-bench.ts [--flop-bet 75%] [--no-donk] [--schedule default|paper]
 *                                              [--checks planned|fixed]
 *                                              [--threads 2] [--target 0.5]
 *                                              [--max-iterations 1000] [--max-seconds S] [--check-every 10]
 *
 * Runs the built package (dist). Prints the tree size, each exploitability measure, and at the end the
 * time, iterations, exploitability, CPU time per iteration (all threads) and peak RSS (the whole process,
 * worker threads included), plus the strategies of the first two decisions summed over the actor's range.
 */

import { parseArgs } from "node:util";
import {
  CheckSchedule,
  createPostflopSolver,
  type DcfrParams,
  DEFAULT_DCFR,
  describe,
  PACK_DCFR,
} from "../dist/index.js";
import { benchSpot } from "./spot.ts";

const { values } = parseArgs({
  options: {
    "flop-bet": { type: "string", default: "75%" },
    "no-donk": { type: "boolean", default: false },
    schedule: { type: "string", default: "default" },
    checks: { type: "string", default: "planned" },
    threads: { type: "string", default: "2" },
    target: { type: "string", default: "0.5" },
    "max-iterations": { type: "string", default: "1000" },
    "max-seconds": { type: "string" },
    "check-every": { type: "string", default: "10" },
  },
});

const config = benchSpot(values["flop-bet"], !values["no-donk"]);
const threads = Number(values.threads);
const target = Number(values.target);
const maxIterations = Number(values["max-iterations"]);
const maxSeconds =
  values["max-seconds"] === undefined ? Number.POSITIVE_INFINITY : Number(values["max-seconds"]);
const checkEvery = Math.max(1, Math.floor(Number(values["check-every"])));
// planned: the library's CheckSchedule; fixed: a measure every --check-every iterations (the earlier cadence).
const checks =
  values.checks === "planned"
    ? new CheckSchedule(checkEvery, target)
    : { due: (t: number) => t % checkEvery === 0, record: () => {} };

const started = performance.now();
const cpuStart = process.cpuUsage();
const elapsed = () => (performance.now() - started) / 1000;
const cpu = () => {
  const c = process.cpuUsage(cpuStart);
  return (c.user + c.system) / 1e6;
};
const schedules: Record<string, DcfrParams> = {
  default: DEFAULT_DCFR,
  paper: PACK_DCFR,
};
if (!Object.hasOwn(schedules, values.schedule))
  throw new Error(`--schedule: one of ${Object.keys(schedules).join(", ")}`);
const dcfr = schedules[values.schedule]!;
if (values.checks !== "planned" && values.checks !== "fixed") throw new Error("--checks: planned or fixed");
const solver = createPostflopSolver(config, { threads, dcfr });
// The tree's figures come from the solver's own game: a second game built only to print them would stay
// alive through the run and count in the peak RSS below.
const game = solver.game;
const counts = game.tree.counts();
process.stdout.write(
  `spot: flop bet ${values["flop-bet"]}, ${config.donkBets ? "leads allowed" : "no leads"}, hands OOP ${game.n[0]} IP ${game.n[1]}, betting tree ${counts.decisions} decisions, ` +
    `${game.units.length} units, storage ${((game.storageFloats() * 8) / 2 ** 30).toFixed(2)} GiB (regrets and strategy sums, float32)\n`,
);
process.stdout.write(`built in ${elapsed().toFixed(1)} s on ${threads} threads\n`);
let exploitability = Number.NaN;
let chips = Number.NaN;
let iterationCpu = 0;
let iterationWall = 0;
try {
  while (solver.iteration < maxIterations) {
    const w0 = performance.now();
    const c0 = cpu();
    solver.iterate();
    iterationWall += (performance.now() - w0) / 1000;
    iterationCpu += cpu() - c0;
    const timeUp = elapsed() >= maxSeconds;
    if (checks.due(solver.iteration) || timeUp || solver.iteration === maxIterations) {
      const e = solver.exploitability();
      exploitability = e.pctPot;
      chips = e.chips;
      checks.record(solver.iteration, exploitability);
      process.stdout.write(
        `it ${solver.iteration}: exploitability ${exploitability.toFixed(3)}% of the pot, ${elapsed().toFixed(1)} s\n`,
      );
      if (exploitability <= target) break;
    }
    if (timeUp) break;
  }
  const seconds = elapsed();
  const result = describe(solver, config, exploitability, chips, seconds, threads);
  const mixAt = (path: readonly string[]): string => {
    const node = result.nodes.find((n) => n.path.join(" ") === path.join(" "))!;
    const weights = result.weights[node.player];
    const total = weights.reduce((a, b) => a + b, 0);
    return node.actions
      .map(
        (a, k) =>
          `${a.label} ${((100 * node.strategy[k]!.reduce((s, x, h) => s + x * weights[h]!, 0)) / total).toFixed(1)}%`,
      )
      .join(", ");
  };
  const maxRssKb = process.resourceUsage().maxRSS;
  const rss = maxRssKb / 1024 / 1024;
  process.stdout.write(
    `done: ${seconds.toFixed(1)} s, ${solver.iteration} iterations, exploitability ${exploitability.toFixed(3)}% of the pot, ` +
      `${(iterationWall / solver.iteration).toFixed(2)} s wall and ${(iterationCpu / solver.iteration).toFixed(2)} s CPU per iteration, ` +
      `peak RSS ${rss.toFixed(3)} GiB (${maxRssKb} kB)\nroot (OOP): ${mixAt([])}; after a check (IP): ${mixAt(["check"])}; EV OOP ${result.ev.oop.toFixed(3)}, IP ${result.ev.ip.toFixed(3)}\n`,
  );
} finally {
  solver.close();
}
