#!/usr/bin/env node
/**
 * Realized equity from the solved postflop packs, per preflop hand class and position, against the preflop
 * model's realization (issue "Heads-up postflop", item 6; the numbers are for the next preflop model, which
 * this does not change).
 *
 * For each committed pack (data/postflop) and each player, at the flop root of every solved board:
 *   realized(class) = sum over boards and combos of the class of  w_b * reach * EV
 *                     / sum of  w_b * reach * pot * equity
 * with w_b the board's share of the 22,100 flops (its representative weight), reach the combo's range weight,
 * EV its expected share of the pot less what it still puts in (pack convention: the two ranges' EVs sum to
 * the pot less rake) and equity its showdown equity against the other range on that board. The preflop model
 * (`realization-v3`, data/trees/nl-v2.json) predicts the same ratio for the class against the other range's
 * classes: its contest share at the pack's SPR over its all-in equity, both from the exact heads-up table.
 *
 *   pnpm build && node scripts/realized-equity.mjs [--out data/postflop/realized-equity.json] [--boards-of PACK]
 *
 * --boards-of PACK keeps, in every pack, only the flops PACK has solved (to compare a pack still being solved
 * with the others on the same flops); print it with --out pointing elsewhere.
 *
 * Prints, per pack and player, the range's overall realization in both and the classes where they differ
 * most, and writes every class's numbers to the JSON file.
 */

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { HOLDEM_CLASSES } from "../packages/core/dist/index.js";
import {
  POSTFLOP_PACK_EXTENSION,
  PostflopPackFile,
  parseRange,
  representativeFlops,
} from "../packages/postflop/dist/index.js";
import { buildShareMatrices, COMBO_CLASS, loadHeadsUpEquity } from "../packages/solver/dist/index.js";

const { values } = parseArgs({
  options: {
    out: { type: "string", default: "data/postflop/realized-equity.json" },
    "boards-of": { type: "string" },
  },
});
const root = new URL("../", import.meta.url).pathname;
const dir = `${root}data/postflop`;
const model = JSON.parse(readFileSync(`${root}data/trees/nl-v2.json`, "utf8")).model;
const table = loadHeadsUpEquity();
const shares = buildShareMatrices(model, table.eq, table.w);
const N = HOLDEM_CLASSES.length;
const flopWeight = new Map(representativeFlops(30).map((f) => [f.board, f.weight]));
const only = values["boards-of"]
  ? new Set(
      PostflopPackFile.open(`${dir}/${values["boards-of"]}${POSTFLOP_PACK_EXTENSION}`).header.boards.map(
        (b) => b.board,
      ),
    )
  : null;

/** A pack header's range ("AKs:0.5,QQ:1,..."), parsed by the postflop package, as a weight per class. */
function rangeWeights(text) {
  const combos = parseRange(text);
  const w = new Float64Array(N);
  for (let c = 0; c < combos.length; c++) if (combos[c] > 0) w[COMBO_CLASS[c]] = combos[c];
  return w;
}

/** The model's realization of class a against an opponent range (weights per class): share over equity. */
function modelRealization(a, opponent, spr, isIp) {
  const m = shares.matrices[shares.indexFor(false, spr, isIp)];
  const allIn = shares.matrices[0];
  let share = 0;
  let eq = 0;
  let mass = 0;
  for (let b = 0; b < N; b++) {
    if (opponent[b] === 0) continue;
    share += m[a * N + b] * opponent[b];
    eq += allIn[a * N + b] * opponent[b];
    mass += table.w[a * N + b] * opponent[b];
  }
  return mass > 0 && eq > 0 ? share / eq : null;
}

const out = { model: model.name, method: "see scripts/realized-equity.mjs", packs: [] };
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(POSTFLOP_PACK_EXTENSION))
  .sort()) {
  const pack = PostflopPackFile.open(`${dir}/${file}`);
  const h = pack.header;
  const spr = h.stack / h.pot;
  const ranges = { oop: rangeWeights(h.ranges.oop), ip: rangeWeights(h.ranges.ip) };
  const sums = {
    oop: { ev: new Float64Array(N), eq: new Float64Array(N) },
    ip: { ev: new Float64Array(N), eq: new Float64Array(N) },
  };
  let boards = 0;
  for (const entry of h.boards) {
    const wb = flopWeight.get(entry.board);
    if (wb === undefined) continue; // a board outside the representative set: no weight to give it
    if (only && !only.has(entry.board)) continue;
    boards++;
    const data = pack.board(entry.board);
    const rootNode = data.nodes[0];
    ["oop", "ip"].forEach((side, p) => {
      const hands = data.hands[p];
      for (let i = 0; i < hands.length; i++) {
        const ev = rootNode.ev[p][i];
        const eq = rootNode.equity[p][i];
        if (!Number.isFinite(ev) || !Number.isFinite(eq)) continue;
        const c = COMBO_CLASS[hands[i]];
        const w = wb * rootNode.reach[p][i];
        sums[side].ev[c] += w * ev;
        sums[side].eq[c] += w * h.pot * eq;
      }
    });
  }
  const packOut = {
    pack: h.id,
    line: h.line,
    potBb: h.pot,
    stackBb: h.stack,
    spr: Number(spr.toFixed(2)),
    boards,
    players: {},
  };
  console.log(`${h.id}: ${boards} boards, pot ${h.pot}bb, SPR ${spr.toFixed(2)}`);
  for (const side of ["oop", "ip"]) {
    const seat = h.line[side] ?? side;
    const isIp = side === "ip";
    const opponent = ranges[isIp ? "oop" : "ip"];
    const rows = [];
    let evAll = 0;
    let eqAll = 0;
    let modelShare = 0;
    let modelEq = 0;
    for (let c = 0; c < N; c++) {
      if (sums[side].eq[c] <= 0) continue;
      const solved = sums[side].ev[c] / sums[side].eq[c];
      const predicted = modelRealization(c, opponent, spr, isIp);
      evAll += sums[side].ev[c];
      eqAll += sums[side].eq[c];
      // The model's range total, each class weighted as in the solve (its flop-equity mass).
      if (predicted !== null) {
        modelShare += predicted * sums[side].eq[c];
        modelEq += sums[side].eq[c];
      }
      rows.push({
        class: HOLDEM_CLASSES[c],
        weight: Number((sums[side].eq[c] / h.pot).toFixed(6)),
        realizedSolved: Number(solved.toFixed(4)),
        realizedModel: predicted === null ? null : Number(predicted.toFixed(4)),
      });
    }
    const overall = evAll / eqAll;
    const overallModel = modelShare / modelEq;
    packOut.players[side] = {
      seat,
      realizedSolved: Number(overall.toFixed(4)),
      realizedModel: Number(overallModel.toFixed(4)),
      classes: rows,
    };
    const diff = rows
      .filter((r) => r.realizedModel !== null && r.weight > 0.0005)
      .sort(
        (a, b) => Math.abs(b.realizedSolved - b.realizedModel) - Math.abs(a.realizedSolved - a.realizedModel),
      );
    console.log(
      `  ${seat} (${side}): realized ${overall.toFixed(3)} solved, ${overallModel.toFixed(3)} model; ${rows.length} classes`,
    );
    console.log(
      `    largest gaps (solved vs model): ${diff
        .slice(0, 8)
        .map((r) => `${r.class} ${r.realizedSolved.toFixed(2)}/${r.realizedModel.toFixed(2)}`)
        .join(", ")}`,
    );
  }
  out.packs.push(packOut);
}
writeFileSync(resolve(root, values.out), `${JSON.stringify(out, null, 1)}\n`);
console.log(`-> ${values.out}`);
