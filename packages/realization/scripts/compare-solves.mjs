#!/usr/bin/env node
/**
 * The same boards solved two ways (another target, another betting tree), compared per class: for the boards
 * both folders hold, each line's and player's realization per class over those boards (sum of reach x EV
 * over sum of reach x pot x equity, gross of rake: `aggregate`'s ratio), folder A against folder B: the mean absolute difference weighted by
 * equity mass in A (as the fit's gap weighs classes) and by combos, and the class that moved most; then the
 * boards' iterations and solve seconds in each folder.
 *
 *   node packages/realization/scripts/compare-solves.mjs A_DIR B_DIR
 *
 * Typical use (issue 26, item 6: what the realization solves' coarse tree and 1% target change): B solved
 * from a job file of some of A's boards with `solve --jobs FILE --target 0.25` or `--tree flop=75%,cap=none`.
 */

import { HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES } from "@ranges/core";
import { aggregate, compareSeries, readBoards } from "../dist/index.js";

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: compare-solves.mjs A_DIR B_DIR");
  process.exit(2);
}
const boardKey = (x) => `${x.game}/${x.stack}/${x.line}/${x.board}`;
const boardsA = readBoards(a);
const boardsB = readBoards(b);
const inA = new Set(boardsA.map(boardKey));
const inB = new Set(boardsB.map(boardKey));
const commonA = boardsA.filter((x) => inB.has(boardKey(x)));
const commonB = boardsB.filter((x) => inA.has(boardKey(x)));
if (commonA.length === 0) {
  console.error("no board is in both folders");
  process.exit(1);
}

// Each line's realization per class over the common boards, as the fit reads it (ratio, gross of rake).
const linesB = new Map(aggregate(commonB).map((l) => [l.pack, l]));
const CLASS_INDEX = new Map(HOLDEM_CLASSES.map((c, i) => [c, i]));
for (const lineA of aggregate(commonA)) {
  const lineB = linesB.get(lineA.pack);
  for (const side of ["oop", "ip"]) {
    const other = new Map(lineB.players[side].classes.map((c) => [c.class, c.realizedSolved]));
    const rows = lineA.players[side].classes.filter((c) => other.has(c.class));
    const ra = rows.map((c) => c.realizedSolved);
    const rb = rows.map((c) => other.get(c.class));
    const byRange = compareSeries(
      ra,
      rb,
      rows.map((c) => c.weight),
    ).meanAbsGap;
    const combos = rows.map((c) => HOLDEM_CLASS_COMBOS[CLASS_INDEX.get(c.class)]);
    const byCombos = compareSeries(ra, rb, combos).meanAbsGap;
    let most = 0;
    for (let i = 1; i < rows.length; i++)
      if (Math.abs(ra[i] - rb[i]) > Math.abs(ra[most] - rb[most])) most = i;
    console.log(
      `${lineA.pack} ${side} (${lineA.boards} boards): by range ${byRange.toFixed(3)}, by combos ${byCombos.toFixed(3)}; most: ${rows[most].class} ${ra[most].toFixed(2)} -> ${rb[most].toFixed(2)}`,
    );
  }
}
const sum = (list, f) => list.reduce((s, x) => s + x[f], 0);
console.log(
  `${commonA.length} boards: A ${sum(commonA, "iterations")} iterations, ${sum(commonA, "seconds").toFixed(0)} s; B ${sum(commonB, "iterations")} iterations, ${sum(commonB, "seconds").toFixed(0)} s`,
);
