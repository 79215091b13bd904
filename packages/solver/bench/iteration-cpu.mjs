/**
 * CPU seconds per CFR iteration of the preflop engine on one thread, the cost of `evaluate()`, and a checksum
 * of the results (every decision's strategy and EVs, every seat's value and best response) to compare builds.
 *
 *   pnpm build && nice -n 15 node packages/solver/bench/iteration-cpu.mjs [--tree nl/v2] [--stack 150]
 *     [--iterations 6] [--dist path/to/dist/index.js]
 *
 * Parameters as a preflop solve: DCFR with predictive CFR+ and a 1e-5 tremble. The mean is over iterations 3
 * to 6 (or 3 to the last); `--dist` runs another build (a copy of an older dist) for a before/after.
 */

import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    tree: { type: "string", default: "nl/v2" },
    stack: { type: "string", default: "150" },
    iterations: { type: "string", default: "6" },
    dist: { type: "string" },
  },
});
const dist = values.dist ? pathToFileURL(resolve(values.dist)).href : "../dist/index.js";
const { buildEngineGame, CfrSolver, DCFR_PARAMS, loadHeadsUpEquity, loadTreeConfig, treeConfigPath } =
  await import(dist);

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const { game } = buildEngineGame(
  loadTreeConfig(treeConfigPath(values.tree)),
  Number(values.stack),
  loadHeadsUpEquity(),
);
let t = cpu();
const solver = new CfrSolver(game, { ...DCFR_PARAMS, tremble: 1e-5, predictive: true });
console.log(`${values.tree} ${values.stack}bb: constructor ${(cpu() - t).toFixed(2)} s CPU`);
const per = [];
for (let i = 0; i < Number(values.iterations); i++) {
  t = cpu();
  solver.iterate();
  per.push(cpu() - t);
}
const tail = per.slice(2, 6);
console.log(`CPU per iteration: ${per.map((x) => x.toFixed(2)).join(" ")} s`);
if (tail.length > 0)
  console.log(
    `mean of iterations 3 to ${2 + tail.length}: ${(tail.reduce((a, b) => a + b, 0) / tail.length).toFixed(3)} s`,
  );
t = cpu();
const seats = solver.evaluate();
console.log(`evaluate: ${(cpu() - t).toFixed(2)} s CPU`);
const hash = createHash("sha256");
const bytes = (x) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
for (const d of solver.decisionResults()) {
  hash.update(bytes(d.strategy));
  if (d.evs) hash.update(bytes(d.evs));
}
hash.update(bytes(Float64Array.from(seats.flatMap((s) => [s.value, s.bestResponse]))));
console.log(`checksum ${hash.digest("hex").slice(0, 16)}`);
