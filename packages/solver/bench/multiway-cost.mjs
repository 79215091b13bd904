/**
 * What the board-conditioned multiway model costs: seconds per CFR iteration on one thread, with it and with
 * independent duels, on committed trees.
 *
 *   pnpm build && node packages/solver/bench/multiway-cost.mjs [--trees nlmtt8:10,nl:20,nl/v2:100]
 *     [--iterations 20]
 *
 * Both variants run the same tree and parameters (the stack's profile algorithm, the preflop tremble) for the
 * same number of iterations after two warm-up iterations. Nothing is written; BENCHMARKS.md quotes the output.
 */

import { parseArgs } from "node:util";
import {
  buildEngineGame,
  CfrSolver,
  DCFR_PARAMS,
  loadHeadsUpEquity,
  loadTreeConfig,
  treeConfigPath,
} from "../dist/index.js";

const { values } = parseArgs({
  options: {
    trees: { type: "string", default: "nlmtt8:10,nl:20,nl:100,nl/v2:100" },
    iterations: { type: "string", default: "20" },
  },
});
const iterations = Number(values.iterations);
const equity = loadHeadsUpEquity();

console.log(
  "| tree | decisions | all-in pots of 3+ | flop pots of 3+ | independent duels s/it | board-conditioned s/it | ratio |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const spec of values.trees.split(",")) {
  const [game, stack] = spec.split(":");
  const config = loadTreeConfig(treeConfigPath(game));
  const { game: withBuckets } = buildEngineGame(config, Number(stack), equity);
  const { multiway: _m, ...plain } = withBuckets;
  let decisions = 0;
  let allIn = 0;
  let flop = 0;
  const stackNodes = [withBuckets.root];
  while (stackNodes.length > 0) {
    const node = stackNodes.pop();
    if (node.type === "decision") {
      decisions++;
      stackNodes.push(...node.children);
    } else if (node.type === "showdown" && node.players.length >= 3) {
      if (node.allIn) allIn++;
      else flop++;
    }
  }
  const time = (g) => {
    const solver = new CfrSolver(g, { ...DCFR_PARAMS, alternate: config.solve.alternate, tremble: 1e-4 });
    for (let i = 0; i < 2; i++) solver.iterate();
    const t0 = performance.now();
    for (let i = 0; i < iterations; i++) solver.iterate();
    return (performance.now() - t0) / 1000 / iterations;
  };
  const a = time(plain);
  const b = time(withBuckets);
  console.log(
    `| ${game} ${stack}bb | ${decisions} | ${allIn} | ${flop} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(2)} |`,
  );
}
