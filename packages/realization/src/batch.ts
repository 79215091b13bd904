/**
 * The resumable realization batch: every (game, stack, line, flop) job is one JSON file in the output folder,
 * written atomically when the board is solved; a job whose file holds the same inputs hash is skipped, so a
 * stopped batch goes on where it stopped. `shard` splits the jobs between processes (job i goes to shard
 * i mod n), so several machines or cores can share one list without talking to each other.
 */

import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { RangeStore } from "@ranges/store";
import { blendWeights } from "./blend.js";
import { type FlopSet, flopsOf } from "./flops.js";
import { type FlopLine, LineError, type LineSpec, readLine } from "./lines.js";
import {
  type BoardRealization,
  EARLIER_DCFR,
  inputsHash,
  released,
  type SolveSettings,
  solveBoard,
  solveConfig,
  solvedRanges,
} from "./solve.js";

export interface BatchJob {
  readonly line: FlopLine;
  readonly board: string;
  /** The board's share of all flops (representative weight). */
  readonly weight: number;
  readonly file: string;
}

export interface BatchPlan {
  readonly jobs: BatchJob[];
  /** Lines a pack does not have (all in before the flop, or a step it does not offer), with why. */
  readonly skipped: { game: string; stack: number; line: string; why: string }[];
}

export const jobFileName = (game: string, stack: number, line: string, board: string): string =>
  `${game.replace("/", "-")}-${stack}-${line}-${board}.json`;

/**
 * The jobs of some lines of some packs on `boards` flops of a set (src/flops.ts; round 0 solved the
 * representative flops, later rounds the balanced ones, each line its own with `balanced-per-line`),
 * cheapest pots first.
 */
export function planBatch(
  store: RangeStore,
  packs: readonly { game: string; stack: number }[],
  lines: readonly LineSpec[],
  boards: number,
  outDir: string,
  flopSet: FlopSet = "balanced",
): BatchPlan {
  const shared = flopSet === "balanced-per-line" ? null : flopsOf(flopSet, boards);
  const jobs: BatchJob[] = [];
  const skipped: BatchPlan["skipped"] = [];
  for (const { game, stack } of packs) {
    for (const spec of lines) {
      let line: FlopLine;
      try {
        line = readLine(store, game, stack, spec);
      } catch (error) {
        if (!(error instanceof LineError)) throw error;
        skipped.push({ game, stack, line: spec.id, why: error.message });
        continue;
      }
      const flops = shared ?? flopsOf(flopSet, boards, { game, stack, line: spec.id });
      for (const f of flops) {
        jobs.push({
          line,
          board: f.board,
          weight: f.weight,
          file: join(outDir, jobFileName(game, stack, spec.id, f.board)),
        });
      }
    }
  }
  // Small stack-to-pot ratios solve fastest: they come first, so every kind of pot has data early.
  jobs.sort((a, b) => a.line.behind / a.line.pot - b.line.behind / b.line.pot);
  return { jobs, skipped };
}

/**
 * A job's file, when it holds a finished solve of these inputs. A board that `maxSeconds` stopped before its
 * target is data (the aggregate and the fit read it) but not finished: the next batch solves it again.
 */
export function finished(job: BatchJob, settings: SolveSettings): BoardRealization | null {
  if (!existsSync(job.file)) return null;
  try {
    const stored = JSON.parse(readFileSync(job.file, "utf8")) as BoardRealization & { weight: number };
    const config = solveConfig(job.line, job.board, settings);
    // Boards solved with the earlier schedule to the same target stand (solve.ts, EARLIER_DCFR).
    const same =
      stored.inputsHash === inputsHash(config, settings) ||
      stored.inputsHash === inputsHash(config, settings, EARLIER_DCFR);
    return same && !stored.stoppedEarly ? stored : null;
  } catch {
    return null;
  }
}

export interface RunOptions {
  readonly shard?: { readonly index: number; readonly count: number };
  readonly log?: (line: string) => void;
  /** Stop starting new jobs after this many seconds. */
  readonly budgetSeconds?: number;
}

/**
 * Solves the plan's jobs this shard owns and has not finished. Returns how many it solved. Between boards it
 * waits until the last board's solver has released its threads and storage (`released`).
 */
export async function runBatch(
  plan: BatchPlan,
  settings: SolveSettings,
  options: RunOptions = {},
): Promise<number> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  let solved = 0;
  for (let i = 0; i < plan.jobs.length; i++) {
    const job = plan.jobs[i]!;
    if (options.shard && i % options.shard.count !== options.shard.index) continue;
    if (options.budgetSeconds !== undefined && (performance.now() - started) / 1000 > options.budgetSeconds)
      continue;
    if (finished(job, settings)) continue;
    const result = solveBoard(job.line, job.board, settings);
    await released();
    const ranges = solvedRanges(job.line, settings);
    const stored = {
      ...result,
      weight: job.weight,
      kind: job.line.kind,
      seats: { oop: job.line.oop, ip: job.line.ip },
      history: job.line.history,
      // The ranges solved (with the floor when the solve applies it): the fit reads each player's opponent
      // range from here.
      ranges: { oop: Array.from(ranges.oop, round4), ip: Array.from(ranges.ip, round4) },
      ...(settings.rangeFloor ? { rangeFloor: settings.rangeFloor } : {}),
      ...(settings.rangeFloor && settings.floorBy === "best-response" ? { floorBy: "best-response" } : {}),
    };
    const text = `${JSON.stringify(stored)}\n`;
    writeFileSync(`${job.file}.tmp`, text);
    renameSync(`${job.file}.tmp`, job.file);
    solved++;
    log(
      `${job.line.game} ${job.line.stack}bb ${job.line.id} ${job.board}: ${result.iterations} iterations, ${result.exploitabilityPct}% of the pot, ${result.seconds} s`,
    );
  }
  return solved;
}

const round4 = (x: number) => Math.round(x * 10000) / 10000;

/**
 * A plan whose lines hold ranges averaged with an earlier plan's: each class's weight at the end of a line is
 * `(1 - earlierShare) * plan's + earlierShare * earlier's`, and the line's reach the same mixture. That is the
 * range of the two prototypes' strategies mixed (a line's range is linear in the mixture), the damping of
 * fictitious play: a round planned this way solves its pots for the averaged ranges, so hands that flip
 * between actions near indifference (the SB's limps and raises, the BB's 3-bets) move half as far. On the toy
 * oracle it halves the movement between rounds without making the iteration converge (docs/solver-model.md).
 * Every line of `plan` must be in `earlier` with the same pot, stacks behind and history (the same tree);
 * boards and files are `plan`'s.
 *
 *   blendPlan(round5, round4, 0.5)   // each line's ranges: half prototype 23's, half prototype 22's
 */
export function blendPlan(plan: BatchPlan, earlier: BatchPlan, earlierShare: number): BatchPlan {
  if (!(earlierShare >= 0 && earlierShare < 1))
    throw new Error(`blend: the earlier plan's share must be at least 0 and below 1, not ${earlierShare}`);
  const key = (l: FlopLine) => `${l.game}/${l.stack}/${l.id}`;
  const before = new Map<string, FlopLine>();
  for (const j of earlier.jobs) before.set(key(j.line), j.line);
  const blended = new Map<string, FlopLine>();
  const blend = (line: FlopLine): FlopLine => {
    const k = key(line);
    const done = blended.get(k);
    if (done) return done;
    const old = before.get(k);
    if (!old) throw new Error(`blend: the earlier plan has no line ${k}`);
    if (old.pot !== line.pot || old.behind !== line.behind || old.history !== line.history)
      throw new Error(
        `blend: line ${k} differs between the plans (pot ${old.pot} and ${line.pot}, behind ${old.behind} and ${line.behind}, history ${old.history} and ${line.history})`,
      );
    const out: FlopLine = {
      ...line,
      ranges: {
        oop: blendWeights(line.ranges.oop, old.ranges.oop, earlierShare),
        ip: blendWeights(line.ranges.ip, old.ranges.ip, earlierShare),
      },
      reach: (1 - earlierShare) * line.reach + earlierShare * old.reach,
    };
    blended.set(k, out);
    return out;
  };
  return { jobs: plan.jobs.map((j) => ({ ...j, line: blend(j.line) })), skipped: plan.skipped };
}

/**
 * The jobs of `ids` only (`solve --jobs FILE --lines a,b`: a plan's lines one at a time, in the order the plan
 * gives them). Throws when an id has no job in the plan, so a mistyped or absent line is not silently skipped.
 */
export function planLines(plan: BatchPlan, ids: readonly string[]): BatchPlan {
  const present = new Set(plan.jobs.map((j) => j.line.id));
  const missing = ids.filter((id) => !present.has(id));
  if (missing.length > 0)
    throw new Error(
      `the plan has no jobs for ${missing.join(", ")}; its lines: ${[...present].join(", ") || "none"}`,
    );
  const wanted = new Set(ids);
  return { jobs: plan.jobs.filter((j) => wanted.has(j.line.id)), skipped: plan.skipped };
}

/** A plan as JSON (ranges as arrays, files relative to the output folder), for a machine without the packs. */
export function planToJson(plan: BatchPlan): string {
  return JSON.stringify({
    jobs: plan.jobs.map((j) => ({
      line: { ...j.line, ranges: { oop: Array.from(j.line.ranges.oop), ip: Array.from(j.line.ranges.ip) } },
      board: j.board,
      weight: j.weight,
      file: basename(j.file),
    })),
    skipped: plan.skipped,
  });
}

/** A plan written by `planToJson`, its files in `outDir`. */
export function planFromJson(text: string, outDir: string): BatchPlan {
  const raw = JSON.parse(text) as {
    jobs: {
      line: FlopLine & { ranges: { oop: number[]; ip: number[] } };
      board: string;
      weight: number;
      file: string;
    }[];
    skipped: BatchPlan["skipped"];
  };
  return {
    jobs: raw.jobs.map((j) => ({
      line: {
        ...j.line,
        ranges: { oop: Float64Array.from(j.line.ranges.oop), ip: Float64Array.from(j.line.ranges.ip) },
      },
      board: j.board,
      weight: j.weight,
      file: join(outDir, basename(j.file)),
    })),
    skipped: raw.skipped,
  };
}
