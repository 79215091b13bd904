/**
 * Convergence of the regret minimizers on one committed tree: the worst seat's exploitability (percent of
 * the starting pot) of the average strategies every `--every` iterations.
 *
 *   pnpm build && node packages/solver/bench/convergence.mjs --game nl --stack 150 --algorithm pcfr+ \
 *     [--iterations 400] [--every 50] [--threads 1]
 *
 * `--algorithm` is dcfr (alpha 1.5, beta 0, gamma 2) or pcfr+ (predictive CFR+), both with the preflop
 * tremble. Nothing is written; docs/solver-model.md quotes its output.
 */

import { parseArgs } from "node:util";
import {
  buildEngineGame,
  CfrSolver,
  DCFR_PARAMS,
  exploitabilityOf,
  loadHeadsUpEquity,
  loadTreeConfig,
  ParallelCfrSolver,
  treeConfigPath,
} from "../dist/index.js";

const { values } = parseArgs({
  options: {
    game: { type: "string", default: "nl" },
    stack: { type: "string", default: "150" },
    algorithm: { type: "string", default: "pcfr+" },
    iterations: { type: "string", default: "400" },
    every: { type: "string", default: "50" },
    threads: { type: "string", default: "1" },
  },
});
if (values.algorithm !== "dcfr" && values.algorithm !== "pcfr+")
  throw new Error("--algorithm is dcfr or pcfr+");
const { game, tree } = buildEngineGame(
  loadTreeConfig(treeConfigPath(values.game)),
  Number(values.stack),
  loadHeadsUpEquity(),
);
const params = { ...DCFR_PARAMS, tremble: 1e-4, predictive: values.algorithm === "pcfr+" };
const threads = Number(values.threads);
const solver = threads > 1 ? new ParallelCfrSolver(game, params, threads) : new CfrSolver(game, params);
const start = performance.now();
try {
  for (let i = 1; i <= Number(values.iterations); i++) {
    solver.iterate();
    if (i % Number(values.every) !== 0) continue;
    const seats = exploitabilityOf(solver.evaluate(), tree.startingPot);
    const worst = seats.reduce((a, b) => (b.pctPot > a.pctPot ? b : a));
    console.log(
      `${values.game} ${values.stack}bb ${values.algorithm} it ${i} (${((performance.now() - start) / 1000).toFixed(0)} s): worst ${worst.seat} ${worst.pctPot.toFixed(3)}% | ${seats.map((s) => `${s.seat} ${s.pctPot.toFixed(2)}`).join(" ")}`,
    );
  }
} finally {
  solver.close();
}
