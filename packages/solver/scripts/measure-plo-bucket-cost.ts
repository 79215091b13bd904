/**
 * What the PLO bucketing costs (docs/plo-abstraction.md, "Measuring the cost"): a heads-up PLO spot is solved
 * over a fine abstraction and over coarser ones; each coarse strategy is carried over to the fine game and
 * measured there by an exact best response.
 *
 *   node packages/solver/scripts/measure-plo-bucket-cost.ts --fine 1024 --fine-table PATH
 *     [--coarse 512=data/equity/plo-hu-buckets.bin,256=PATH] [--game plo6hu] [--stack 100]
 *     [--target 0.02] [--max-iterations 20000] [--json OUT]
 *
 * Carrying a strategy over: every class plays its coarse bucket's strategy; a fine bucket's strategy at a
 * decision is then the mix of its classes' strategies weighted by their combos times their own reach there
 * (the chance that the class's own earlier actions lead to the decision), which is the strategy the classes
 * of that bucket play together as one hand of the fine game (sequence form, so the mix is exact along the
 * whole line, not only at one decision). The fine game's equity table comes from
 * `build-plo-bucket-equity.ts --buckets N --out PATH`. A count written `512p` (in `--fine` or `--coarse`) is
 * the play-aware abstraction of that many buckets (`PLO_PLAY_ABSTRACTION`; its table from
 * `build-plo-bucket-equity.ts --buckets 512 --play`).
 *
 * Reported per coarse abstraction: each seat's exploitability in the fine game (best response value less
 * the seat's value, bb per hand and percent of the starting pot), the same for the fine game's own solve, the
 * difference of each seat's value from its value in the fine solve, and at the first two decisions (the SB
 * first in, the BB facing the SB's first raise) the classes whose frequencies differ most between the two
 * solves. The fine abstraction is itself a
 * bucketing, so the cost measured is the cost of the coarse buckets against the fine ones: a lower bound of
 * what they cost against all 16,432 classes.
 *
 * Runs straight from the TypeScript sources (Node >= 22.18 / 24); @ranges/core must be built.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import "./run-from-source.ts";

const solver: typeof import("../src/index.ts") = await import("../src/index.ts");
const { ploClasses } = await import("@ranges/core");
const {
  CfrSolver,
  buildPloAbstraction,
  loadTreeConfig,
  PLO_PLAY_ABSTRACTION,
  parsePloBucketEquity,
  ploBucketCombos,
  solvePlo,
} = solver;
type DecisionNode = import("../src/index.ts").DecisionNode;
type PloSolveResult = import("../src/index.ts").PloSolveResult;
type TreeNode = DecisionNode | { type: string };

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const { values } = parseArgs({
  options: {
    game: { type: "string", default: "plo6hu" },
    stack: { type: "string", default: "100" },
    fine: { type: "string" },
    "fine-table": { type: "string" },
    coarse: { type: "string", default: "512=data/equity/plo-hu-buckets.bin" },
    target: { type: "string", default: "0.02" },
    "max-iterations": { type: "string", default: "20000" },
    json: { type: "string" },
  },
});
if (!values.fine || !values["fine-table"]) {
  process.stderr.write("usage: --fine N --fine-table PATH [--coarse N=PATH,...] (see the file's comment)\n");
  process.exit(2);
}
const stack = Number(values.stack);
const target = Number(values.target);
const maxIterations = Number(values["max-iterations"]);
const config = loadTreeConfig(resolve(repoRoot, `data/trees/${values.game}.json`));
const started = performance.now();
const say = (line: string) =>
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${line}\n`);

/** `512` (the packs' abstraction) or `512p` (the play-aware one): the abstraction and its bucket count. */
function abstractionOf(spec: string) {
  const m = /^(\d+)(p?)$/.exec(spec);
  if (!m) throw new Error(`a bucket count is N or Np (play-aware), got "${spec}"`);
  const buckets = Number(m[1]);
  const options = m[2] ? PLO_PLAY_ABSTRACTION : {};
  return { buckets, abstraction: buildPloAbstraction({ buckets, ...options }) };
}

function solveAt(spec: string, table: string): PloSolveResult {
  const { buckets, abstraction } = abstractionOf(spec);
  const equity = parsePloBucketEquity(new Uint8Array(readFileSync(resolve(repoRoot, table))));
  const model = { ...(config.model as Record<string, unknown>), buckets };
  const result = solvePlo({
    config: { ...config, model } as typeof config,
    stack,
    tables: { abstraction, equity },
    targetPctPot: target,
    maxIterations,
    threads: 1,
  });
  const worst = Math.max(...result.seats.map((s) => s.pctPot));
  say(`${spec} buckets: ${result.iterations} iterations, worst seat ${worst.toFixed(4)}% of the pot`);
  return result;
}

/** Decisions in pre-order with each seat's own reach per class (bucket) under the published strategies. */
function walk(result: PloSolveResult) {
  const decisions = result.solver.decisionResults();
  const byNode = new Map(decisions.map((d) => [d.node, d.strategy]));
  const n = result.game.classCount;
  const out: { node: DecisionNode; strategy: Float64Array; ownReach: Float64Array }[] = [];
  const go = (node: TreeNode, reach: Float64Array[]) => {
    if (node.type !== "decision") return;
    const d = node as DecisionNode;
    const s = byNode.get(d)!;
    out.push({ node: d, strategy: s, ownReach: reach[d.actor]! });
    d.children.forEach((child, a) => {
      const r = new Float64Array(n);
      for (let c = 0; c < n; c++) r[c] = reach[d.actor]![c]! * s[a * n + c]!;
      const next = [...reach];
      next[d.actor] = r;
      go(child as TreeNode, next);
    });
  };
  go(
    result.game.root as TreeNode,
    result.game.seats.map(() => new Float64Array(n).fill(1)),
  );
  return out;
}

const classCombos = ploBucketCombos(
  Int32Array.from({ length: 16432 }, (_, i) => i),
  16432,
);

/** A coarse solve's strategies carried over to the fine game (see the file's comment). */
function carryOver(coarse: PloSolveResult, fine: PloSolveResult): Map<DecisionNode, Float64Array> {
  const cMap = coarse.tables.abstraction.classToBucket;
  const fMap = fine.tables.abstraction.classToBucket;
  const nc = coarse.game.classCount;
  const nf = fine.game.classCount;
  const from = walk(coarse);
  const to = walk(fine);
  if (from.length !== to.length) throw new Error("the two trees differ");
  const out = new Map<DecisionNode, Float64Array>();
  from.forEach((c, i) => {
    const f = to[i]!;
    const A = c.node.children.length;
    if (f.node.children.length !== A || f.node.actor !== c.node.actor)
      throw new Error("the two trees differ");
    const num = new Float64Array(A * nf);
    const den = new Float64Array(nf);
    const plain = new Float64Array(A * nf);
    const plainDen = new Float64Array(nf);
    for (let k = 0; k < 16432; k++) {
      const b = cMap[k]!;
      const fb = fMap[k]!;
      const w = classCombos[k]! * c.ownReach[b]!;
      den[fb]! += w;
      plainDen[fb]! += classCombos[k]!;
      for (let a = 0; a < A; a++) {
        num[a * nf + fb]! += w * c.strategy[a * nc + b]!;
        plain[a * nf + fb]! += classCombos[k]! * c.strategy[a * nc + b]!;
      }
    }
    const s = new Float64Array(A * nf);
    for (let fb = 0; fb < nf; fb++) {
      for (let a = 0; a < A; a++) {
        // A fine bucket none of whose classes reach here: its classes' strategies, weighted by combos.
        s[a * nf + fb] = den[fb]! > 0 ? num[a * nf + fb]! / den[fb]! : plain[a * nf + fb]! / plainDen[fb]!;
      }
    }
    out.set(f.node, s);
  });
  return out;
}

/** Each seat's value, best response and exploitability of a profile in a solved game. */
function measure(game: PloSolveResult, strategies: Map<DecisionNode, Float64Array>) {
  const s = new CfrSolver(game.game, game.solver.params);
  s.setStrategies((node) => strategies.get(node)!);
  const pot = game.tree.startingPot;
  return s.evaluate().map((r) => ({
    seat: r.seat,
    value: r.value,
    bestResponse: r.bestResponse,
    exploitabilityBb: r.exploitability,
    exploitabilityPctPot: (100 * r.exploitability) / pot,
  }));
}

/** At the SB's first decision and the BB's answer to its first raise: the classes that play most differently. */
function largestDifferences(coarse: PloSolveResult, fine: PloSolveResult, count = 8) {
  const names = ploClasses();
  const cMap = coarse.tables.abstraction.classToBucket;
  const fMap = fine.tables.abstraction.classToBucket;
  const [nc, nf] = [coarse.game.classCount, fine.game.classCount];
  const cDec = walk(coarse);
  const fDec = walk(fine);
  const raise = cDec[0]!.node.actions.findIndex((a) => a.kind === "raise");
  const second = cDec.findIndex(
    (d) => d.node.history === `${cDec[0]!.node.history}_${cDec[0]!.node.actions[raise]!.token}_BB`,
  );
  return [0, second]
    .filter((i) => i >= 0)
    .map((i) => {
      const c = cDec[i]!;
      const f = fDec[i]!;
      const tokens = c.node.actions.map((a) => a.token);
      const rows = names.map((name, k) => {
        const cs = tokens.map((_, a) => c.strategy[a * nc + cMap[k]!]!);
        const fs = tokens.map((_, a) => f.strategy[a * nf + fMap[k]!]!);
        const diff = Math.max(...cs.map((x, a) => Math.abs(x - fs[a]!)));
        return { name, diff, cs, fs };
      });
      rows.sort((a, b) => b.diff - a.diff || (a.name < b.name ? -1 : 1));
      const share = (t: number) => rows.filter((r) => r.diff > t).length / rows.length;
      const r3 = (x: number) => Math.round(x * 1000) / 1000;
      return {
        decision: c.node.history,
        actions: tokens,
        classesDifferingOver: { "0.1": r3(share(0.1)), "0.25": r3(share(0.25)), "0.5": r3(share(0.5)) },
        largest: rows.slice(0, count).map((r) => ({
          class: r.name,
          coarse: r.cs.map(r3),
          fine: r.fs.map(r3),
        })),
      };
    });
}

const fineBuckets = values.fine;
const fine = solveAt(fineBuckets, values["fine-table"]);
const fineOwn = new Map(walk(fine).map((d) => [d.node, d.strategy]));
const fineSelf = measure(fine, fineOwn);
const rows: Record<string, unknown>[] = [];
for (const item of values.coarse.split(",")) {
  const [count, table] = item.split("=");
  const coarse = solveAt(count!, table!);
  const carried = measure(fine, carryOver(coarse, fine));
  const row = {
    coarseBuckets: count,
    coarseIterations: coarse.iterations,
    coarseOwnGame: coarse.seats.map((s) => ({ seat: s.seat, exploitabilityPctPot: s.pctPot })),
    inFineGame: carried.map((c, i) => ({
      ...c,
      valueMinusFineSolve: c.value - fineSelf[i]!.value,
    })),
    largestDifferences: largestDifferences(coarse, fine),
  };
  rows.push(row);
  for (const c of row.inFineGame) {
    say(
      `${count} -> ${fineBuckets}: ${c.seat} exploitable ${c.exploitabilityBb.toFixed(5)} bb/hand (${c.exploitabilityPctPot.toFixed(4)}% of the pot), value ${c.value.toFixed(5)} (${c.valueMinusFineSolve >= 0 ? "+" : ""}${c.valueMinusFineSolve.toFixed(5)} against the fine solve)`,
    );
  }
}
const report = {
  game: values.game,
  stack,
  startingPot: fine.tree.startingPot,
  fineBuckets,
  fineIterations: fine.iterations,
  fineSelf,
  targetPctPot: target,
  coarse: rows,
};
for (const f of fineSelf) {
  say(`${fineBuckets} own solve: ${f.seat} exploitable ${f.exploitabilityPctPot.toFixed(4)}% of the pot`);
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
else process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
