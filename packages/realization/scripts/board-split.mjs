#!/usr/bin/env node
/**
 * How much of a fit is the flops' noise: every line's boards split in two halves (even and odd files in name
 * order), the model fitted to one half of every line and compared, per line and player, with the other half's
 * solved realization per class (range-weighted mean absolute gap and weighted correlation, as the fit report
 * measures); beside it the same comparison between the two halves' own solved numbers, the floor any model
 * fitted to one half can reach. Leave-one-line-out cannot see this noise when every line is solved on the
 * same flops: a class that does well on those flops does well on every line.
 *
 *   node packages/realization/scripts/board-split.mjs DIR[,DIR] [--class-ridge X|none] [--class-weights range|mixed]
 *     [--population DIR]   (each half's classes by the regression estimator, src/estimator.ts)
 *     [--line-ridge X[,X]] (each line's own class effects, src/line-effects.ts, fitted to half A on top of the
 *                           model and compared with half B: what the preflop solver is given for a solved line,
 *                           measured on flops it was not fitted to; X/Y: grouped effects, X the ridge of a
 *                           class's deviation from its group, Y the groups')
 *     [--line-smooth-ridge Z[,Z]] (with --line-ridge: each line's effects also smoothed over neighbouring
 *                           classes, src/line-effects.ts' smoothRidge; 0 for none)
 *
 * Prints one row per (class ridge, weighting) asked for; with no options, class ridges 0.01, 0.1, 1 and none
 * for both weightings.
 */

import { parseArgs } from "node:util";
import { HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES } from "@ranges/core";
import { loadHeadsUpEquity } from "@ranges/solver";
import {
  aggregate,
  compareSeries,
  fitLineEffects,
  fitLineOf,
  predictWithLineEffects,
  RealizationFit,
  readBoardSets,
  readPopulations,
} from "../dist/index.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "class-ridge": { type: "string" },
    "class-weights": { type: "string" },
    "min-boards": { type: "string" },
    "line-ridge": { type: "string" },
    "line-smooth-ridge": { type: "string" },
    population: { type: "string" },
  },
});
if (positionals.length !== 1) {
  console.error("usage: board-split.mjs DIR[,DIR] [--class-ridge X|none] [--class-weights range|mixed]");
  process.exit(2);
}
const minBoards = Number(values["min-boards"] ?? 12);
const boards = readBoardSets(positionals[0].split(","));
const byLine = new Map();
for (const b of boards) {
  const key = `${b.game}/${b.stack}/${b.line}`;
  byLine.set(key, [...(byLine.get(key) ?? []), b]);
}
const halves = [[], []];
for (const [, list] of byLine) {
  if (list.length < minBoards) continue;
  list.forEach((b, i) => {
    halves[i % 2].push(b);
  });
}
const CLASS_INDEX = new Map(HOLDEM_CLASSES.map((c, i) => [c, i]));
const table = loadHeadsUpEquity();
const fit = new RealizationFit(table);
const populations = values.population ? readPopulations(values.population) : undefined;
const lines = halves.map((h) => aggregate(h, undefined, populations));
if (populations) {
  const missing = lines[0].filter((l) => l.estimator !== "regression").map((l) => l.pack);
  if (missing.length > 0) console.log(`no population for ${missing.join(", ")}: ratio estimates there`);
}
const fitLines = lines.map((ls, k) =>
  ls.map((l) =>
    fitLineOf(
      l,
      halves[k].find((b) => `${b.game}/${b.stack}/${b.line}` === l.pack),
    ),
  ),
);

/**
 * Mean over (line, player) of the other half's statistics against `predict(line index, side)`; classes weigh
 * by range (equity mass), or by combos with `byCombos`.
 */
function against(other, predict, byCombos = false) {
  let gap = 0;
  let r = 0;
  let n = 0;
  other.forEach((l, i) => {
    for (const side of ["oop", "ip"]) {
      const rows = l.players[side].classes;
      const index = CLASS_INDEX;
      const keep = rows.filter((c) => predict(i, side, index.get(c.class)) !== undefined);
      const s = compareSeries(
        keep.map((c) => c.realizedSolved),
        keep.map((c) => predict(i, side, index.get(c.class))),
        keep.map((c) => (byCombos ? HOLDEM_CLASS_COMBOS[index.get(c.class)] : c.weight)),
      );
      gap += s.meanAbsGap;
      r += s.correlation;
      n++;
    }
  });
  return `gap ${(gap / n).toFixed(3)} r ${(r / n).toFixed(2)}`;
}

// Lines in the same order in both halves (aggregate sorts them by key).
const solvedA = lines[0].map((l, i) => {
  const out = {};
  for (const side of ["oop", "ip"]) {
    const m = new Map();
    l.players[side].classes.forEach((c, k) => {
      m.set(fitLines[0][i].solved[side][k].cls, c.realizedSolved);
    });
    out[side] = m;
  }
  return out;
});
console.log(`${lines[0].length} lines, ${halves[0].length} + ${halves[1].length} boards`);
console.log(
  `half A's solved numbers against half B's: ${against(lines[1], (i, s, c) => solvedA[i][s].get(c))} (by combos: ${against(lines[1], (i, s, c) => solvedA[i][s].get(c), true)})`,
);
const ridges = values["class-ridge"] ? [values["class-ridge"]] : ["0.01", "0.1", "1", "none"];
const weightings = values["class-weights"] ? [values["class-weights"]] : ["range", "mixed"];
for (const w of weightings)
  for (const cr of ridges) {
    const classRidge = cr === "none" ? Number.POSITIVE_INFINITY : Number(cr);
    const model = fit.fit(fitLines[0], 1e-4, classRidge, w);
    const predicted = fitLines[1].map((fl) => fit.predict(model, fl));
    const inA = fitLines[0].map((fl) => fit.predict(model, fl));
    console.log(
      `class ridge ${cr}, ${w}: fitted to half A, against half A ${against(lines[0], (i, s, c) => inA[i][s].get(c))}; against half B ${against(lines[1], (i, s, c) => predicted[i][s].get(c))} (by combos: ${against(lines[1], (i, s, c) => predicted[i][s].get(c), true)})`,
    );
    const smooths = values["line-smooth-ridge"] ? values["line-smooth-ridge"].split(",") : ["0"];
    for (const lr of values["line-ridge"] ? values["line-ridge"].split(",") : [])
      for (const sm of smooths) {
        const withLine = fitLines[1].map((fl, i) =>
          predictWithLineEffects(
            fit,
            table,
            model,
            fl,
            fitLineEffects(
              fit,
              table,
              model,
              fitLines[0][i],
              w,
              Number(lr.split("/")[0]),
              lr.includes("/") ? Number(lr.split("/")[1]) : undefined,
              Number(sm) > 0 ? Number(sm) : undefined,
            ),
          ),
        );
        console.log(
          `  + each line's own effects fitted to half A (line ridge ${lr}${Number(sm) > 0 ? `, smooth ${sm}` : ""}): against half B ${against(lines[1], (i, s, c) => withLine[i][s].get(c))} (by combos: ${against(lines[1], (i, s, c) => withLine[i][s].get(c), true)})`,
        );
      }
  }
