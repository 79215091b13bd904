#!/usr/bin/env node
/**
 * The same boards solved two ways (another target, another betting tree), compared per class: for the boards
 * both folders hold, each line's and player's realization per class over those boards (sum of reach x EV
 * over sum of reach x pot x equity), folder A against folder B: the mean absolute difference weighted by
 * equity mass in A (as the fit's gap weighs classes) and by combos, and the class that moved most; then the
 * boards' iterations and solve seconds in each folder.
 *
 *   node packages/realization/scripts/compare-solves.mjs A_DIR B_DIR
 *
 * Typical use (issue 26, item 6: what the realization solves' coarse tree and 1% target change): B solved
 * from a job file of some of A's boards with `solve --jobs FILE --target 0.25` or `--tree flop=75%,cap=none`.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES } from "@ranges/core";

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: compare-solves.mjs A_DIR B_DIR");
  process.exit(2);
}
const files = (dir) => new Set(readdirSync(dir).filter((f) => f.endsWith(".json")));
const inB = files(b);
const common = [...files(a)].filter((f) => inB.has(f)).sort();
if (common.length === 0) {
  console.error("no board is in both folders");
  process.exit(1);
}

const N = 169;
const sums = new Map();
const totals = { a: { iterations: 0, seconds: 0 }, b: { iterations: 0, seconds: 0 } };
for (const f of common) {
  const x = JSON.parse(readFileSync(join(a, f), "utf8"));
  const y = JSON.parse(readFileSync(join(b, f), "utf8"));
  totals.a.iterations += x.iterations;
  totals.a.seconds += x.seconds;
  totals.b.iterations += y.iterations;
  totals.b.seconds += y.seconds;
  for (const side of ["oop", "ip"]) {
    const key = `${x.game} ${x.stack}bb ${x.line} ${side}`;
    if (!sums.has(key)) {
      const zero = () => new Float64Array(N);
      sums.set(key, { boards: 0, evA: zero(), eqA: zero(), evB: zero(), eqB: zero() });
    }
    const s = sums.get(key);
    s.boards++;
    for (let c = 0; c < N; c++) {
      s.evA[c] += x[side].ev[c];
      s.eqA[c] += x[side].eq[c];
      s.evB[c] += y[side].ev[c];
      s.eqB[c] += y[side].eq[c];
    }
  }
}

for (const [key, s] of sums) {
  let byRange = 0;
  let mass = 0;
  let byCombos = 0;
  let combos = 0;
  let largest = null;
  for (let c = 0; c < N; c++) {
    if (!(s.eqA[c] > 1e-9 && s.eqB[c] > 1e-9)) continue;
    const ra = s.evA[c] / s.eqA[c];
    const rb = s.evB[c] / s.eqB[c];
    const d = Math.abs(ra - rb);
    byRange += s.eqA[c] * d;
    mass += s.eqA[c];
    byCombos += HOLDEM_CLASS_COMBOS[c] * d;
    combos += HOLDEM_CLASS_COMBOS[c];
    if (!largest || d > largest.d) largest = { d, c, ra, rb };
  }
  const most = largest
    ? `; most: ${HOLDEM_CLASSES[largest.c]} ${largest.ra.toFixed(2)} -> ${largest.rb.toFixed(2)}`
    : "";
  console.log(
    `${key} (${s.boards} boards): by range ${(byRange / mass).toFixed(3)}, by combos ${(byCombos / combos).toFixed(3)}${most}`,
  );
}
console.log(
  `${common.length} boards: A ${totals.a.iterations} iterations, ${totals.a.seconds.toFixed(0)} s; B ${totals.b.iterations} iterations, ${totals.b.seconds.toFixed(0)} s`,
);
