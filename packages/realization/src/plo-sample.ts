/**
 * PLO realization from sampled subgames (issue 30, item 2): the flop pots of a PLO pack's lines, each
 * measured by exact solves of random deals of the two ranges (`solvePloSubgame` of @ranges/plo-postflop),
 * one file per (line, flop, subgame), pooled per class.
 *
 * A job is one subgame: `chunk` combos dealt to each player from its range at the flop (the pack's
 * published play, `readLine`), in proportion to their weights, and the game between the two deals solved
 * exactly on every turn and river to `targetPct` of the pot with the betting given (pot-limit sizes as
 * fractions of the pot). Subgame k of a (line, flop) draws from a seed made of the batch's seed, the line
 * and the flop, so a job is the same whenever and wherever it runs, and a batch resumes by skipping the
 * files it has.
 *
 * ```ts
 * const jobs = planPloSamples([{ game: "plo", stack: 100, line: "srp-btn-bb" }], { boards: 6, subgames: 2 });
 * for (const job of jobs) runPloSample(job, readLine(store, "plo", 100, spec), settings, outDir);
 * poolPloSamples(readPloSamples(outDir)); // per line and player, each class's realization
 * ```
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  combosOf,
  type PloBetting,
  type PloCombo,
  type PloRealizationClass,
  poolRealization,
  resolvePloSpot,
  solvePloSubgame,
} from "@ranges/plo-postflop";
import { type PloClassFeatures, ploHandsOfClass } from "@ranges/solver";
import { balancedFlops, lineFlopSeed } from "./flops.js";
import { type FlopLine, lineClasses, solverWeight } from "./lines.js";

/** How the subgames are dealt and solved. */
export interface PloSampleSettings {
  /** Combos dealt to each player per subgame. */
  readonly chunk: number;
  readonly seed: number;
  /** Stop a subgame's solve at this exploitability (percent of the pot). */
  readonly targetPct: number;
  readonly maxIterations: number;
  /** Measure the exploitability every this many iterations. */
  readonly checkEvery: number;
  /** The betting on every street (pot-limit sizes as fractions of the pot). */
  readonly betting: PloBetting;
}

/**
 * The realization solves' default: 150 combos a side, 1% of the pot, pot-sized bets and raises only, one
 * raise a street (coarser than the served postflop trees, so that a subgame fits minutes, not hours).
 */
export const DEFAULT_PLO_SAMPLE_SETTINGS: PloSampleSettings = {
  chunk: 150,
  seed: 1,
  targetPct: 1,
  maxIterations: 200,
  checkEvery: 10,
  betting: { bets: [1], raises: [1], raiseCap: 1 },
};

/** One subgame to solve. */
export interface PloSampleJob {
  readonly game: string;
  readonly stack: number;
  readonly line: string;
  readonly board: string;
  readonly subgame: number;
}

export const ploSampleFile = (job: PloSampleJob): string =>
  `${job.game.replace("/", "-")}-${job.stack}-${job.line}-${job.board}-s${job.subgame}.json`;

/** What a job's file holds. Per combo: [class, compat, ev (chips), equity]. */
export interface PloSampleRecord {
  readonly format: "plo-realization-sample";
  readonly version: 1;
  readonly job: PloSampleJob;
  readonly line: {
    readonly kind: string;
    readonly history: string;
    readonly oop: string;
    readonly ip: string;
    readonly pot: number;
    readonly behind: number;
  };
  readonly settings: PloSampleSettings;
  readonly iterations: number;
  readonly exploitabilityPct: number;
  readonly seconds: number;
  readonly combos: {
    readonly oop: readonly (readonly [string, number, number, number])[];
    readonly ip: readonly (readonly [string, number, number, number])[];
  };
}

/**
 * The jobs of some lines: each line's own balanced flops (`lineFlopSeed`, as the hold'em batches'
 * `balanced-per-line`), `subgames` subgames on each. Ordered subgame-major, so a batch stopped early has
 * every flop about as often.
 */
export function planPloSamples(
  lines: readonly { readonly game: string; readonly stack: number; readonly line: string }[],
  o: { readonly boards: number; readonly subgames: number },
): PloSampleJob[] {
  if (!Number.isInteger(o.subgames) || o.subgames < 1)
    throw new RangeError(`subgames must be a whole number >= 1, got ${o.subgames}`);
  const jobs: PloSampleJob[] = [];
  for (let subgame = 0; subgame < o.subgames; subgame++)
    for (const l of lines)
      for (const f of balancedFlops(o.boards, lineFlopSeed(l.game, l.stack, l.line)))
        jobs.push({ game: l.game, stack: l.stack, line: l.line, board: f.board, subgame });
  return jobs;
}

/** A line's two ranges at the flop as concrete combos (classes under the solver's least weight left out). */
export function ploLineCombos(line: FlopLine): [PloCombo[], PloCombo[]] {
  const classes = lineClasses(line.game);
  if (classes.length !== 16_432) throw new RangeError(`${line.game} is not a PLO game`);
  const combos = (weights: Float64Array) => {
    const hands: { cards: readonly number[]; weight: number }[] = [];
    // `lineClasses` of a PLO game is `ploClasses()`: position i is class index i
    for (let i = 0; i < classes.length; i++) {
      const w = solverWeight(weights[i]!);
      if (w === 0) continue;
      for (const cards of ploHandsOfClass(i)) hands.push({ cards, weight: w });
    }
    return combosOf(hands);
  };
  return [combos(line.ranges.oop), combos(line.ranges.ip)];
}

/** A 31-bit hash (FNV-1a) of the batch's seed, line and board: the subgames' seed on that flop. */
function jobSeed(seed: number, job: PloSampleJob): number {
  let h = 0x811c9dc5 ^ seed;
  for (const ch of `${job.game}/${job.stack}/${job.line}/${job.board}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h & 0x7fffffff;
}

/** Solves one job and writes its file (atomically: a stopped batch leaves no half-written file). */
export function runPloSample(
  job: PloSampleJob,
  line: FlopLine,
  settings: PloSampleSettings,
  outDir: string,
  combos: readonly [readonly PloCombo[], readonly PloCombo[]] = ploLineCombos(line),
): PloSampleRecord {
  if (line.game !== job.game || line.stack !== job.stack || line.id !== job.line)
    throw new RangeError(`the line ${line.game} ${line.stack} ${line.id} is not the job's`);
  const started = performance.now();
  const spot = resolvePloSpot({
    board: job.board,
    pot: line.pot,
    stack: line.behind,
    ranges: { oop: combos[0], ip: combos[1] },
    betting: settings.betting,
  });
  const s = solvePloSubgame(spot, job.subgame, settings.chunk, jobSeed(settings.seed, job), {
    targetExploitability: settings.targetPct,
    maxIterations: settings.maxIterations,
    checkEvery: settings.checkEvery,
  });
  const side = (p: 0 | 1) => s.combos[p].map((c) => [c.cls, c.compat, round(c.ev), round(c.equity)] as const);
  const record: PloSampleRecord = {
    format: "plo-realization-sample",
    version: 1,
    job,
    line: {
      kind: line.kind,
      history: line.history,
      oop: line.oop,
      ip: line.ip,
      pot: line.pot,
      behind: line.behind,
    },
    settings,
    iterations: s.iterations,
    exploitabilityPct: round(s.exploitability),
    seconds: Math.round((performance.now() - started) / 100) / 10,
    combos: { oop: side(0), ip: side(1) },
  };
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, ploSampleFile(job));
  writeFileSync(`${file}.part`, `${JSON.stringify(record)}\n`);
  renameSync(`${file}.part`, file);
  return record;
}

const round = (x: number) => (Number.isFinite(x) ? Math.round(x * 1e6) / 1e6 : x);

/** Whether a job's file is there. */
export const ploSampleDone = (job: PloSampleJob, outDir: string): boolean =>
  existsSync(join(outDir, ploSampleFile(job)));

/** Every sample file in a folder (other files are ignored; a file of another format is an error). */
export function readPloSamples(dir: string): PloSampleRecord[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json") && /-s\d+\.json$/.test(f))
    .sort()
    .map((f) => {
      const r = JSON.parse(readFileSync(join(dir, f), "utf8")) as PloSampleRecord;
      if (r.format !== "plo-realization-sample" || r.version !== 1)
        throw new Error(`${f}: not a PLO realization sample (format ${String(r.format)})`);
      return r;
    });
}

/** One line's pooled realization. */
export interface PloLineRealization {
  readonly game: string;
  readonly stack: number;
  readonly line: string;
  readonly kind: string;
  readonly oop: string;
  readonly ip: string;
  readonly pot: number;
  readonly boards: number;
  readonly subgames: number;
  readonly worstExploitabilityPct: number;
  /** Per player, each class's realization (`poolRealization`). */
  readonly classes: { readonly oop: PloRealizationClass[]; readonly ip: PloRealizationClass[] };
}

/** Pools the samples per (game, stack, line). */
export function poolPloSamples(records: readonly PloSampleRecord[]): PloLineRealization[] {
  const byLine = new Map<string, PloSampleRecord[]>();
  for (const r of records) {
    const key = `${r.job.game}/${r.job.stack}/${r.job.line}`;
    const list = byLine.get(key);
    if (list) list.push(r);
    else byLine.set(key, [r]);
  }
  return [...byLine.values()].map((list) => {
    const first = list[0]!;
    const settings = JSON.stringify(first.settings);
    const other = list.find((r) => JSON.stringify(r.settings) !== settings || r.line.pot !== first.line.pot);
    if (other)
      throw new Error(
        `${ploSampleFile(other.job)} was solved with other settings or another pot than ${ploSampleFile(first.job)}: pool each in its own folder`,
      );
    const toResult = (rows: PloSampleRecord["combos"]["oop"]) =>
      rows.map(([cls, compat, ev, equity]) => ({ cls, compat, ev, equity }));
    const [oop, ip] = poolRealization(
      first.line.pot,
      list.map((r) => ({ combos: [toResult(r.combos.oop), toResult(r.combos.ip)] })),
    );
    return {
      game: first.job.game,
      stack: first.job.stack,
      line: first.job.line,
      kind: first.line.kind,
      oop: first.line.oop,
      ip: first.line.ip,
      pot: first.line.pot,
      boards: new Set(list.map((r) => r.job.board)).size,
      subgames: list.length,
      worstExploitabilityPct: Math.max(...list.map((r) => r.exploitabilityPct)),
      classes: { oop, ip },
    };
  });
}

/** A hand category for the summary: how a PLO player sorts starting hands. */
export function ploCategory(f: PloClassFeatures): string {
  const suits = f.suitPattern === "ds" ? "ds" : f.suitPattern === "ss" ? "ss" : "other";
  if (f.pairRank === 12) return "AAxx";
  if (f.pairing !== "none") return "paired";
  if (f.ranks[0]! - f.ranks[3]! === 3) return `rundown ${suits}`;
  if (f.wrapWindows >= 3) return `connected ${suits}`;
  if (f.nutSuited) return "suited ace";
  return `other ${suits}`;
}
