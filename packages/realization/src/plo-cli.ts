/**
 * `node packages/realization/dist/plo-cli.js <command>` (after `pnpm build`): PLO realization from sampled
 * subgames (src/plo-sample.ts; issue 30, item 2).
 *
 *   sample  --packs plo:100 --lines srp-btn-bb,3bp-bb-btn --boards 6 --subgames 2 --out DIR
 *           [--chunk 150] [--target 1] [--max-iterations 200] [--check-every 10] [--seed 1]
 *           [--bets 1] [--raises 1] [--raise-cap 1]   (pot-limit sizes as fractions of the pot, comma lists)
 *           [--shard k/n] [--budget S] [--packs-dir data/packs]
 *           solves every subgame not yet in DIR (resumable; one file per line, flop and subgame)
 *   pool    --in DIR [--out FILE]                       each line's realization per player and class, with
 *                                                        a summary per hand category
 *
 * Lines are those of the hold'em batches (`STANDARD_LINES`, `EARLY_LINES`), read off the PLO pack.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ploClassIndex } from "@ranges/core";
import { ploClassFeatures } from "@ranges/solver";
import { RangeStore } from "@ranges/store";
import { EARLY_LINES, type FlopLine, LineError, type LineSpec, readLine, STANDARD_LINES } from "./lines.js";
import {
  DEFAULT_PLO_SAMPLE_SETTINGS,
  type PloLineRealization,
  type PloSampleSettings,
  planPloSamples,
  ploCategory,
  ploLineCombos,
  ploSampleDone,
  poolPloSamples,
  readPloSamples,
  runPloSample,
} from "./plo-sample.js";

const USAGE =
  "usage: plo-cli sample|pool [options] (the options: the comment at the top of packages/realization/src/plo-cli.ts)";

const fail = (message: string): never => {
  process.stderr.write(`plo-cli: ${message}\n${USAGE}\n`);
  process.exit(2);
};

const positive = (name: string, raw: string | undefined, whole = false): number | undefined => {
  if (raw === undefined) return undefined;
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0 || (whole && !Number.isInteger(x)))
    fail(`--${name} must be a positive ${whole ? "whole " : ""}number, got "${raw}"`);
  return x;
};

const sizes = (name: string, raw: string | undefined): number[] | undefined => {
  if (raw === undefined) return undefined;
  const list = raw.split(",").map(Number);
  if (list.length === 0 || list.some((x) => !Number.isFinite(x) || x <= 0 || x > 1))
    fail(`--${name} takes pot fractions in (0, 1] separated by commas, got "${raw}"`);
  return list;
};

function lineSpecs(raw: string | undefined): LineSpec[] {
  const all = [...STANDARD_LINES, ...EARLY_LINES];
  if (!raw) return [...STANDARD_LINES];
  return raw.split(",").map((id) => all.find((l) => l.id === id) ?? fail(`unknown line "${id}"`));
}

function packsOf(raw: string): { game: string; stack: number }[] {
  return raw.split(",").map((p) => {
    const m = /^([a-z0-9/]+):(\d+)$/.exec(p);
    if (!m) return fail(`--packs takes game:stack pairs such as plo:100, got "${p}"`);
    return { game: m[1]!, stack: Number(m[2]) };
  });
}

async function sample(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      packs: { type: "string", default: "plo:100" },
      "packs-dir": { type: "string", default: "data/packs" },
      lines: { type: "string" },
      boards: { type: "string", default: "6" },
      subgames: { type: "string", default: "1" },
      out: { type: "string" },
      chunk: { type: "string" },
      target: { type: "string" },
      "max-iterations": { type: "string" },
      "check-every": { type: "string" },
      seed: { type: "string" },
      bets: { type: "string" },
      raises: { type: "string" },
      "raise-cap": { type: "string" },
      shard: { type: "string" },
      budget: { type: "string" },
    },
  });
  if (!values.out) fail("sample needs --out DIR");
  const out = resolve(values.out!);
  const d = DEFAULT_PLO_SAMPLE_SETTINGS;
  const settings: PloSampleSettings = {
    chunk: positive("chunk", values.chunk, true) ?? d.chunk,
    seed: positive("seed", values.seed, true) ?? d.seed,
    targetPct: positive("target", values.target) ?? d.targetPct,
    maxIterations: positive("max-iterations", values["max-iterations"], true) ?? d.maxIterations,
    checkEvery: positive("check-every", values["check-every"], true) ?? d.checkEvery,
    betting: {
      bets: sizes("bets", values.bets) ?? d.betting.bets,
      raises: sizes("raises", values.raises) ?? d.betting.raises,
      raiseCap: positive("raise-cap", values["raise-cap"], true) ?? d.betting.raiseCap,
    },
  };
  let shard = { index: 0, count: 1 };
  if (values.shard) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    if (!m || Number(m[1]) >= Number(m[2])) fail(`--shard takes k/n with k < n, got "${values.shard}"`);
    shard = { index: Number(m![1]), count: Number(m![2]) };
  }
  const budget = positive("budget", values.budget);
  const specs = lineSpecs(values.lines);
  const store = RangeStore.open({ packsDir: resolve(values["packs-dir"]!) });
  const lines = new Map<string, { line: FlopLine; combos: ReturnType<typeof ploLineCombos> }>();
  for (const { game, stack } of packsOf(values.packs!)) {
    for (const spec of specs) {
      try {
        const line = readLine(store, game, stack, spec);
        lines.set(`${game}/${stack}/${spec.id}`, { line, combos: ploLineCombos(line) });
      } catch (error) {
        if (!(error instanceof LineError) && !(error instanceof RangeError)) throw error;
        process.stderr.write(`skipped ${game} ${stack}bb ${spec.id}: ${(error as Error).message}\n`);
      }
    }
  }
  store.close();
  const jobs = planPloSamples(
    [...lines.values()].map(({ line }) => ({ game: line.game, stack: line.stack, line: line.id })),
    {
      boards: positive("boards", values.boards, true)!,
      subgames: positive("subgames", values.subgames, true)!,
    },
  ).filter((_, i) => i % shard.count === shard.index);
  const open = jobs.filter((j) => !ploSampleDone(j, out));
  process.stderr.write(`${jobs.length} subgames, ${open.length} not yet solved\n`);
  mkdirSync(out, { recursive: true });
  const started = performance.now();
  let solved = 0;
  for (const job of open) {
    if (budget !== undefined && (performance.now() - started) / 1000 > budget) {
      process.stderr.write(`budget of ${budget} s spent\n`);
      break;
    }
    const { line, combos } = lines.get(`${job.game}/${job.stack}/${job.line}`)!;
    const r = runPloSample(job, line, settings, out, combos);
    solved++;
    process.stderr.write(
      `${new Date().toISOString()} ${job.game} ${job.stack}bb ${job.line} ${job.board} subgame ${job.subgame}: ${r.iterations} iterations, ${r.exploitabilityPct.toFixed(3)}% of the pot, ${r.seconds} s\n`,
    );
  }
  process.stdout.write(`solved ${solved} subgames into ${out}\n`);
}

/** Per category, the combo-weighted realization of its classes (weights: the pooling weights). */
function byCategory(classes: PloLineRealization["classes"]["oop"]): Map<string, { w: number; r: number }> {
  const features = ploClassFeatures();
  const out = new Map<string, { w: number; r: number }>();
  for (const c of classes) {
    if (!Number.isFinite(c.realization)) continue;
    const cat = ploCategory(features[ploClassIndex(c.cls)!]!);
    const acc = out.get(cat) ?? { w: 0, r: 0 };
    acc.w += c.weight;
    acc.r += c.weight * c.realization;
    out.set(cat, acc);
  }
  return out;
}

function pool(args: string[]): void {
  const { values } = parseArgs({ args, options: { in: { type: "string" }, out: { type: "string" } } });
  if (!values.in) fail("pool needs --in DIR");
  const lines = poolPloSamples(readPloSamples(resolve(values.in!)));
  for (const l of lines) {
    process.stdout.write(
      `${l.game} ${l.stack}bb ${l.line} (${l.kind}): ${l.boards} flops, ${l.subgames} subgames, worst ${l.worstExploitabilityPct.toFixed(2)}% of the pot\n`,
    );
    for (const side of ["oop", "ip"] as const) {
      const cats = [...byCategory(l.classes[side]).entries()].sort((a, b) => b[1].w - a[1].w);
      const all = cats.reduce((a, [, x]) => ({ w: a.w + x.w, r: a.r + x.r }), { w: 0, r: 0 });
      process.stdout.write(
        `  ${side === "oop" ? l.oop : l.ip} (${side}): realization ${(all.r / all.w).toFixed(3)} over ${l.classes[side].length} classes; ${cats.map(([k, x]) => `${k} ${(x.r / x.w).toFixed(3)}`).join(", ")}\n`,
      );
    }
  }
  if (values.out) writeFileSync(resolve(values.out), `${JSON.stringify(lines)}\n`);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "sample") await sample(rest);
  else if (command === "pool") pool(rest);
  else {
    process.stdout.write(`${USAGE}\n`);
    process.exitCode = command === undefined ? 2 : command === "--help" ? 0 : 2;
  }
} catch (error) {
  fail((error as Error).message);
}
