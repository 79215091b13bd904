#!/usr/bin/env node
/**
 * The local-holes census over every committed preflop pack (issue "Preflop model v4", item 4; the rules are on
 * `packCensus` in packages/solver/src/census.ts): per pack, reached holes (reach >= 1%, an action at >= 10%
 * at least 2 sb below the class's best) and reach-0 non-best responses, and the total.
 *
 *   pnpm build && node scripts/census.mjs [--json FILE] [--game nl/v2] [--examples] [--packs-dir DIR]
 *
 * `--packs-dir` reads another folder of packs laid out like data/packs (a prototype's, say).
 */

import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { packCensus } from "../packages/solver/dist/index.js";
import { RangeStore, readPackFile } from "../packages/store/dist/index.js";

const { values } = parseArgs({
  options: {
    json: { type: "string" },
    game: { type: "string" },
    examples: { type: "boolean", default: false },
    "packs-dir": { type: "string" },
  },
});
const root = new URL("../", import.meta.url).pathname;
const store = RangeStore.open({ packsDir: values["packs-dir"] ?? `${root}data/packs`, cacheBytes: 0 });
const rows = [];
for (const s of store.packStatus()) {
  if (!s.ok || s.stack === null || (values.game && s.game !== values.game)) continue;
  const data = await readPackFile(s.path);
  if (data.header.classSet !== "holdem169") continue;
  const c = packCensus(data);
  rows.push({
    game: s.game,
    stack: s.stack,
    model: data.header.provenance.model?.split(":")[0] ?? null,
    ...c,
  });
}
store.close();
rows.sort((a, b) => a.game.localeCompare(b.game) || a.stack - b.stack);
console.log(
  "| pack | model | nodes | reach >= 1% | holes there | reach-0 nodes | of them misplayed | class misplays |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|");
const total = { holes: 0, zeroNodes: 0, misNodes: 0, mis: 0 };
for (const r of rows) {
  console.log(
    `| ${r.game} ${r.stack} | ${r.model ?? "-"} | ${r.nodes} | ${r.reachedNodes} | ${r.reachedHoles} | ${r.zeroReachNodes} | ${r.zeroReachNodesWithMisplay} | ${r.zeroReachMisplays} |`,
  );
  total.holes += r.reachedHoles;
  total.zeroNodes += r.zeroReachNodes;
  total.misNodes += r.zeroReachNodesWithMisplay;
  total.mis += r.zeroReachMisplays;
  if (values.examples) {
    for (const h of r.worstReached.slice(0, 3))
      console.log(
        `    hole: ${h.history} (reach ${h.reach.toFixed(3)}) ${h.hand} ${h.action} ${(h.freq * 100).toFixed(1)}% at ${h.ev} sb, ${h.best} ${h.bestEv} sb`,
      );
    for (const h of r.worstZeroReach.slice(0, 3))
      console.log(
        `    reach 0: ${h.history} ${h.hand} ${h.action} ${(h.freq * 100).toFixed(1)}% at ${h.ev} sb, ${h.best} ${h.bestEv} sb`,
      );
  }
}
console.log(
  `| all ${rows.length} hold'em packs | | | | ${total.holes} | ${total.zeroNodes} | ${total.misNodes} | ${total.mis} |`,
);
if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 1)}\n`);
