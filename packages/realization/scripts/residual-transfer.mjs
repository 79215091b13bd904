#!/usr/bin/env node
/**
 * Would solved lines' class residuals carry to a line of the same kind of pot? Reads a fit report (`realization
 * fit --out FILE`) and predicts each line out of sample as its left-out fit plus the class residuals (solved less
 * fitted in sample) of the same kind's line nearest in ln SPR, same player (`--from all`: the mean over every
 * other line of that kind). Prints each row's left-out gap and correlation with and without the residuals, and
 * the means (docs/solver-model.md, "The per-line flops in, ...").
 *
 *   node packages/realization/scripts/residual-transfer.mjs FIT.json [--from nearest|all]
 */

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { compareSeries, FIT_BAR, STANDARD_LINES } from "../dist/index.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: "string", default: "nearest" } },
});
if (positionals.length !== 1 || !["nearest", "all"].includes(values.from)) {
  console.error("usage: residual-transfer.mjs FIT.json [--from nearest|all]");
  process.exit(1);
}
const report = JSON.parse(readFileSync(positionals[0], "utf8"));
const kindOf = new Map(STANDARD_LINES.map((l) => [l.id, l.kind]));
const lines = report.lines.map((l) => ({ ...l, kind: kindOf.get(l.pack.split("/").at(-1)) }));

const rows = { leftOut: [], transferred: [] };
for (const line of lines) {
  const others = lines.filter((o) => o.kind === line.kind && o !== line);
  if (others.length === 0) continue;
  const dist = (o) => Math.abs(Math.log(o.spr / line.spr));
  const nearest = Math.min(...others.map(dist));
  const sources = values.from === "all" ? others : others.filter((o) => dist(o) - nearest < 1e-9);
  for (const side of ["oop", "ip"]) {
    const residuals = new Map();
    for (const o of sources)
      for (const c of o.players[side].classes) {
        const list = residuals.get(c.class) ?? [];
        list.push(c.realizedSolved - c.realizedFit);
        residuals.set(c.class, list);
      }
    const classes = line.players[side].classes;
    const shift = (c) => {
      const r = residuals.get(c.class);
      return r ? r.reduce((s, x) => s + x, 0) / r.length : 0;
    };
    const solved = classes.map((c) => c.realizedSolved);
    const weights = classes.map((c) => c.weight);
    const a = compareSeries(
      solved,
      classes.map((c) => c.realizedLeftOut),
      weights,
    );
    const b = compareSeries(
      solved,
      classes.map((c) => c.realizedLeftOut + shift(c)),
      weights,
    );
    rows.leftOut.push(a);
    rows.transferred.push(b);
    const f = (s) => `${s.meanAbsGap.toFixed(3)} / ${s.correlation.toFixed(2)}`;
    const from = sources.map((o) => o.pack.split("/").slice(0, 2).join("/")).join(", ");
    console.log(`${line.pack} ${side} (from ${from}): left out ${f(a)}, with residuals ${f(b)}`);
  }
}
for (const [name, list] of Object.entries(rows)) {
  const mean = (k) => list.reduce((s, x) => s + x[k], 0) / list.length;
  const atBar = list.filter(
    (x) => x.meanAbsGap <= FIT_BAR.outOfSample.gap && x.correlation >= FIT_BAR.outOfSample.correlation,
  ).length;
  console.log(
    `${name}: ${list.length} rows, gap ${mean("meanAbsGap").toFixed(3)} r ${mean("correlation").toFixed(2)}, ${atBar} at the left-out bar`,
  );
}
