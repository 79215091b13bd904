#!/usr/bin/env node
/**
 * The markdown table of a realization fit report (packages/realization `fit`): per line and player, the
 * solved realization and the v3 model's, the v4 fit's and the left-out fit's range-weighted mean absolute gap
 * and weighted correlation to the solves (docs/solver-model.md).
 *
 *   node scripts/realization-table.mjs [data/realization/round-0-fit.json]
 */

import { readFileSync } from "node:fs";

const file = process.argv[2] ?? "data/realization/round-0-fit.json";
const report = JSON.parse(readFileSync(file, "utf8"));
const f = (s) => (s ? `${s.meanAbsGap.toFixed(2)} / ${s.correlation.toFixed(2)}` : "-");
console.log("| line | SPR | boards | player | realized | v3 gap / r | v4 fit gap / r | left out gap / r |");
console.log("|---|---:|---:|---|---:|---|---|---|");
for (const l of report.lines) {
  for (const side of ["oop", "ip"]) {
    const p = l.players[side];
    console.log(
      `| ${l.pack} | ${l.spr} | ${l.boards} | ${p.seat} (${side.toUpperCase()}) | ${p.realizedSolved.toFixed(3)} | ${f(p.v3)} | ${f(p.inSample)} | ${f(p.outOfSample)} |`,
    );
  }
}
if (report.skipped.length > 0)
  console.log(`\nLeft out of the fit (too few boards): ${report.skipped.join(", ")}.`);
