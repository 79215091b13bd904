#!/usr/bin/env node
/**
 * The same boards solved two ways, compared per class: realization (sum of reach x EV over sum of reach x
 * pot x equity) of each class in folder A against folder B, for the classes under the floor (weight below
 * it in the pack's range: in a `--floor-by best-response` folder they took best-response values) and for the
 * classes the solve held, per line and player; and the solve times.
 *
 *   node packages/realization/scripts/compare-floors.mjs A_DIR B_DIR
 *
 * Typical use: A solved with `--range-floor 0.005` (every class in the solve), B with `--range-floor 0.005
 * --floor-by best-response` (issue 26: what the cheaper method changes).
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: compare-floors.mjs A_DIR B_DIR");
  process.exit(2);
}
const read = (dir) =>
  new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => [f, JSON.parse(readFileSync(join(dir, f), "utf8"))]),
  );
const A = read(a);
const B = read(b);
const common = [...A.keys()].filter((f) => B.has(f)).sort();
if (common.length === 0) {
  console.error("no board is in both folders");
  process.exit(1);
}

/** Pack range weights of a board: the unfloored ranges (whichever file holds them). */
const packRanges = (x, y) => (x.floorBy === "best-response" ? x.ranges : y.ranges);
const realization = (sums, c) => (sums.eq[c] > 1e-9 ? sums.ev[c] / sums.eq[c] : null);

const rows = new Map();
let secondsA = 0;
let secondsB = 0;
for (const f of common) {
  const x = A.get(f);
  const y = B.get(f);
  secondsA += x.seconds;
  secondsB += y.seconds;
  const ranges = packRanges(x, y);
  const floor = x.rangeFloor ?? y.rangeFloor ?? 0.005;
  for (const side of ["oop", "ip"]) {
    const key = `${x.line} ${side}`;
    if (!rows.has(key)) rows.set(key, { under: [], held: [] });
    const row = rows.get(key);
    for (let c = 0; c < 169; c++) {
      const ra = realization(x[side], c);
      const rb = realization(y[side], c);
      if (ra === null || rb === null) continue;
      (ranges[side][c] < floor ? row.under : row.held).push(rb - ra);
    }
  }
}

const stats = (d) => {
  if (d.length === 0) return "-";
  const abs = d.map(Math.abs).sort((p, q) => p - q);
  const mean = abs.reduce((s, v) => s + v, 0) / abs.length;
  const signed = d.reduce((s, v) => s + v, 0) / d.length;
  return `${mean.toFixed(3)} | ${signed >= 0 ? "+" : ""}${signed.toFixed(3)} | ${abs[Math.floor(abs.length * 0.9)].toFixed(3)} | ${abs[abs.length - 1].toFixed(3)} (${d.length})`;
};
console.log(
  `${common.length} boards in both; solve time A ${secondsA.toFixed(0)} s, B ${secondsB.toFixed(0)} s (B/A ${(secondsB / secondsA).toFixed(2)})`,
);
console.log("");
console.log("Realization B - A per (board, class): mean |gap| | mean gap | 90th percentile | max (count)");
console.log("");
console.log("| line, player | classes under the floor | classes in the solve |");
console.log("|---|---|---|");
for (const [key, row] of rows) console.log(`| ${key} | ${stats(row.under)} | ${stats(row.held)} |`);
