#!/usr/bin/env node
/**
 * Re-runs the solver's `finalize` on the strategies a committed pack publishes, with the current engine, and
 * counts what the local-holes census counts on lines nobody reaches (issue "Preflop model v4", item 4): the
 * classes there playing, at 0.1% or more, an action more than 0.05 sb below their best EV. Beside it, the
 * same count read from the pack itself. Nothing is written: it measures what a change to `finalize` does
 * to the published packs without re-solving them. Values come from the current tree config; a pack whose
 * decisions do not match its tree is skipped with a note.
 *
 *   pnpm build && node scripts/refinalize.mjs [--game nl/v2] [--stack 30] [--examples]
 *     [--packs-dir DIR --config SPOT.json]   (a prototype pack and the tree config it was solved from, as
 *                                             `scripts/v4-spot.mjs` writes it)
 */

import { parseArgs } from "node:util";
import { HOLDEM_CLASSES } from "../packages/core/dist/index.js";
import {
  buildEngineGame,
  CfrSolver,
  loadHeadsUpEquity,
  loadTreeConfig,
  packCensus,
  solverParams,
  treeConfigPath,
  unreachedMisplays,
} from "../packages/solver/dist/index.js";
import { RangeStore, readPackFile } from "../packages/store/dist/index.js";

const { values } = parseArgs({
  options: {
    game: { type: "string" },
    stack: { type: "string" },
    examples: { type: "boolean", default: false },
    "packs-dir": { type: "string" },
    config: { type: "string" },
  },
});
const root = new URL("../", import.meta.url).pathname;
// A prototype's tree config holds one game and the stacks it was solved at: only those packs are read.
const only = values.config ? loadTreeConfig(values.config) : null;
const equity = loadHeadsUpEquity();
const store = RangeStore.open({ packsDir: values["packs-dir"] ?? `${root}data/packs`, cacheBytes: 0 });
console.log(
  "| pack | reach-0 nodes | class misplays in the pack | after finalize now | of them >= 1 bb | worst seat, % of the pot: pack | after |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|");
const statuses = store
  .packStatus()
  .filter((s) => s.ok && s.stack !== null && (!values.game || s.game === values.game))
  .filter((s) => !values.stack || s.stack === Number(values.stack))
  .filter((s) => !only || (s.game === only.game && only.profiles.some((p) => p.stacks.includes(s.stack))))
  .sort((a, b) => a.game.localeCompare(b.game) || a.stack - b.stack);
for (const s of statuses) {
  const pack = await readPackFile(s.path);
  if (pack.header.classSet !== "holdem169" || pack.header.evUnit === null) continue;
  const config = only ?? loadTreeConfig(treeConfigPath(s.game));
  const { game, tree } = buildEngineGame(config, s.stack, equity);
  const params = solverParams(config, s.stack);
  const byHistory = new Map(pack.nodes.map((node) => [node.history, node]));
  const solver = new CfrSolver(game, params);
  let missing = 0;
  solver.setStrategies((node) => {
    const p = byHistory.get(node.history);
    const out = new Float64Array(node.actions.length * 169);
    if (!p || p.actions.length !== node.actions.length) {
      missing++;
      out.fill(1 / node.actions.length);
      return out;
    }
    p.actions.forEach((a, k) => {
      for (let c = 0; c < 169; c++) out[k * 169 + c] = a.freqs[c];
    });
    return out;
  });
  if (missing > 0) {
    console.log(
      `| ${s.game} ${s.stack} | ${missing} decisions do not match the current tree: skipped | | | |`,
    );
    continue;
  }
  const worstPct = (seats) => (Math.max(...seats.map((x) => x.exploitability)) / tree.startingPot) * 100;
  const before = worstPct(solver.evaluate());
  solver.finalize();
  const after = worstPct(solver.evaluate());
  // The census's rule (0.1% or more, over 0.05 sb = 0.025 bb below the best) on the engine's results.
  const { decisions: zeroNodes, misplays } = unreachedMisplays(solver.decisionResults());
  const mis = misplays.length;
  const big = misplays.filter((m) => m.shortfall.gap >= 1).length;
  const c = packCensus(pack);
  console.log(
    `| ${s.game} ${s.stack} | ${zeroNodes} | ${c.zeroReachMisplays} | ${mis} | ${big} | ${before.toFixed(3)} | ${after.toFixed(3)} |`,
  );
  if (values.examples) {
    const worst = [...misplays].sort((x, y) => y.shortfall.gap - x.shortfall.gap).slice(0, 8);
    for (const { result: d, c, shortfall } of worst) {
      const played = shortfall.played;
      const evs = d.node.actions.map((_, a) => d.evs[a * 169 + c].toFixed(2)).join("/");
      console.log(
        `    ${d.node.history} ${HOLDEM_CLASSES[c]} ${d.node.actions[played].token} ${(100 * d.strategy[played * 169 + c]).toFixed(1)}% ${evs} bb`,
      );
    }
  }
}
store.close();
