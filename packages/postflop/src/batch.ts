/**
 * The postflop packs of this repository and the resumable batch that solves them.
 *
 * Packs (ids): `srp-btn-bb-100bb` (BTN opens, SB folds, BB calls: a single-raised pot) and `3bp-bb-btn-100bb`
 * (BTN opens, SB folds, BB 3-bets, BTN calls), each with the 75%-pot tree and, as `<id>-flop33`, the tree with a
 * 33% flop bet (75% on turn and river). Ranges at the flop, pot, stacks and rake come from the `nl/v2` 100bb
 * preflop pack (`nlv2PackJobs`), so postflop follows our own preflop.
 *
 * `runPackJob` solves a pack's boards one by one and rewrites the pack file (atomically) after each, keeping
 * the boards already there; a board already in the file with the same inputs (its `inputsHash`) is skipped,
 * so a batch that stops resumes where it left off. It commits nothing.
 */

import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { RangeStore } from "@ranges/store";
import { CheckSchedule } from "./checks.js";
import type { PostflopConfig } from "./config.js";
import { type DcfrParams, describeDcfr } from "./dcfr.js";
import { extractBoard, firstStreetNodes } from "./extract.js";
import {
  type BoardProvenance,
  canonicalJson,
  encodePostflopPack,
  type PackHeaderBase,
  POSTFLOP_PACK_EXTENSION,
  PostflopPackFile,
  type PostflopPackHeader,
  type PreflopLine,
  type StoredBoard,
  storeBoard,
  writePostflopPack,
} from "./pack.js";
import { createPostflopSolver } from "./solve.js";
import { canonicalBoard, parseBoard, representativeFlops } from "./textures.js";

/**
 * The schedule the packs are solved with: the paper's DCFR, which every committed board was solved with. It
 * is part of each board's inputs hash, so changing it re-solves every board of every pack; the solver's own
 * default (`DEFAULT_DCFR`, gamma 3 with a delay of 1) gets a board to the target in some 10% fewer
 * iterations (BENCHMARKS.md, "A delayed discount"): for new packs and re-solves, not worth re-solving the
 * committed ones for.
 */
export const PACK_DCFR: DcfrParams = { alpha: 1.5, beta: 0, gamma: 2 };

export const SOLVER_ALGORITHM = describeDcfr(PACK_DCFR);

/** Everything needed to solve one pack's boards. */
export interface PackJob {
  readonly id: string;
  readonly basePack: string;
  readonly tree: "75" | "flop33";
  readonly line: PreflopLine;
  readonly pot: number;
  readonly stack: number;
  readonly rake: { readonly percent: number; readonly capBb: number };
  readonly ranges: { readonly oop: string; readonly ip: string };
  /** Boards to solve (any order; each is solved as its canonical suit class). */
  readonly boards: readonly string[];
}

/** The betting trees: the spec's 75%-pot tree and the 33% flop variant. */
export function treeConfig(
  tree: "75" | "flop33",
): Pick<PostflopConfig, "sizes" | "donkBets" | "allInThreshold" | "forceAllInThreshold"> {
  const street = (bet: string) => ({ bet, raise: "2.5x" });
  return {
    sizes: { flop: street(tree === "flop33" ? "33%" : "75%"), turn: street("75%"), river: street("75%") },
    donkBets: false,
    allInThreshold: 1.5,
    forceAllInThreshold: 0.15,
  };
}

/** Class weights below this are left out of a range (hands a seat plays this rarely barely move the answer). */
export const MIN_CLASS_WEIGHT = 0.005;

/** A class-to-weight map as a range string (`AA:0.9767,AKs,...`), weights to 4 decimals. */
export function rangeFromWeights(weights: Readonly<Record<string, number>>): string {
  const items: string[] = [];
  for (const [hand, w] of Object.entries(weights)) {
    const x = Math.round(w * 10000) / 10000;
    if (x < MIN_CLASS_WEIGHT) continue;
    items.push(x >= 1 ? hand : `${hand}:${x}`);
  }
  return items.join(",");
}

type Action = ReturnType<RangeStore["node"]>["actions"][number];

/** The raise a seat uses most at a node (by combos). */
function mainRaise(actions: readonly Action[], where: string): Action {
  const raises = actions.filter((a) => a.kind === "raise");
  if (raises.length === 0) throw new Error(`${where}: no raise to follow`);
  return raises.reduce((best, a) => (a.combos > best.combos ? a : best));
}

function callOf(actions: readonly Action[], where: string): Action {
  const call = actions.find((a) => a.kind === "call");
  if (!call) throw new Error(`${where}: no call`);
  return call;
}

/**
 * The jobs of the repository's packs from a preflop store holding `nl/v2` at 100bb: single-raised pot (BTN's
 * most used open, BB calls) and 3-bet pot (BB's most used 3-bet over it, BTN calls), each in both trees.
 */
export function nlv2PackJobs(store: RangeStore, boards?: readonly string[]): PackJob[] {
  const game = "nl/v2";
  const stack = 100;
  const flops = boards ?? representativeFlops(30).map((f) => f.board);
  const rake = store.packMeta(game, stack).header.config.rake;
  if (!rake)
    throw new Error("nl/v2 100bb: the pack records no rake; re-solve it with a tree config that has one");
  const btnHistory = "UTG_Fold_HJ_Fold_CO_Fold_BTN";
  const btn = store.node(game, stack, btnHistory);
  const open = mainRaise(btn.actions, btnHistory);
  const bbHistory = `${btnHistory}_${open.action}_SB_Fold_BB`;
  const bb = store.node(game, stack, bbHistory);
  const call = callOf(bb.actions, bbHistory);
  const threeBet = mainRaise(bb.actions, bbHistory);
  const btn2History = `${bbHistory}_${threeBet.action}_BTN`;
  const btn2 = store.node(game, stack, btn2History);
  const btnCall = callOf(btn2.actions, btn2History);
  const openTo = open.sizeBb!;
  const threeTo = threeBet.sizeBb!;
  const product: Record<string, number> = {};
  for (const [hand, w] of Object.entries(open.weights)) product[hand] = w * (btnCall.weights[hand] ?? 0);
  const lines: Omit<PackJob, "id" | "basePack" | "tree" | "boards">[] = [
    {
      line: {
        kind: "srp",
        description: `BTN opens to ${openTo}bb, SB folds, BB calls (single-raised pot)`,
        game,
        stack,
        oop: "BB",
        ip: "BTN",
        oopSpot: `${bbHistory}_${call.action}`,
        ipSpot: `${btnHistory}_${open.action}`,
      },
      pot: round2(2 * openTo + 0.5),
      stack: round2(stack - openTo),
      rake: { percent: rake.percent, capBb: rake.capBb },
      ranges: { oop: rangeFromWeights(call.weights), ip: rangeFromWeights(open.weights) },
    },
    {
      line: {
        kind: "3bp",
        description: `BTN opens to ${openTo}bb, SB folds, BB 3-bets to ${threeTo}bb, BTN calls (3-bet pot)`,
        game,
        stack,
        oop: "BB",
        ip: "BTN",
        oopSpot: `${bbHistory}_${threeBet.action}`,
        ipSpot: `${btn2History}_${btnCall.action}`,
      },
      pot: round2(2 * threeTo + 0.5),
      stack: round2(stack - threeTo),
      rake: { percent: rake.percent, capBb: rake.capBb },
      ranges: { oop: rangeFromWeights(threeBet.weights), ip: rangeFromWeights(product) },
    },
  ];
  const jobs: PackJob[] = [];
  for (const l of lines) {
    // srp-btn-bb-100bb (the opener first), 3bp-bb-btn-100bb (the 3-bettor first).
    const id =
      l.line.kind === "3bp"
        ? `3bp-bb-btn-${stack}bb`
        : `srp-${l.line.ip.toLowerCase()}-${l.line.oop.toLowerCase()}-${stack}bb`;
    jobs.push({ ...l, id, basePack: id, tree: "75", boards: flops });
    jobs.push({ ...l, id: `${id}-flop33`, basePack: id, tree: "flop33", boards: flops });
  }
  return jobs;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export interface BatchOptions {
  /** Threads per solve (default: every core). */
  readonly threads?: number;
  /** Stop a board at this exploitability, percent of the pot (default 0.5). */
  readonly targetPct?: number;
  /** Stop a board after this many iterations (default 1000). */
  readonly maxIterations?: number;
  /** Stop a board after about this many seconds (not part of its inputs). */
  readonly maxSeconds?: number;
  /** Iterations between the first measures of exploitability (default 10); `CheckSchedule` plans the rest. */
  readonly checkEvery?: number;
  readonly log?: (line: string) => void;
  /** Clock for provenance (tests). */
  readonly now?: () => Date;
}

export interface BoardOutcome {
  readonly pack: string;
  readonly board: string;
  readonly status: "solved" | "skipped";
  readonly provenance: BoardProvenance;
}

/**
 * The config a pack's board is solved from: the pack's pot, stack, ranges, tree and rake (a job's, or a pack
 * header's, which records them) on that board.
 */
export function packBoardConfig(
  spot: Pick<PostflopPackHeader, "pot" | "stack" | "ranges" | "rake" | "treeConfig">,
  board: string,
): PostflopConfig {
  return {
    board,
    pot: spot.pot,
    stack: spot.stack,
    ranges: { oop: spot.ranges.oop, ip: spot.ranges.ip },
    ...(spot.treeConfig as Omit<PostflopConfig, "board" | "pot" | "stack" | "ranges">),
    rake: { percent: spot.rake.percent, cap: spot.rake.capBb },
  };
}

/** The config of one board of a job. */
export function boardConfig(job: PackJob, board: string): PostflopConfig {
  return packBoardConfig({ ...job, treeConfig: treeConfig(job.tree) }, board);
}

/** The hash that identifies a board's solve: config, target, iteration cap and algorithm. */
export function inputsHash(config: PostflopConfig, targetPct: number, maxIterations: number): string {
  const text = canonicalJson({
    config,
    targetPct,
    maxIterations,
    algorithm: SOLVER_ALGORITHM,
    isomorphism: true,
  });
  return createHash("sha256").update(text).digest("hex");
}

const streetOf = (cards: number): PostflopPackHeader["street"] =>
  cards === 3 ? "flop" : cards === 4 ? "turn" : "river";

/** The path of a job's pack in `outDir`. */
export const packFile = (outDir: string, id: string): string =>
  join(outDir, `${id}${POSTFLOP_PACK_EXTENSION}`);

/**
 * Solves every board of a job that the pack file in `outDir` lacks (or holds with other inputs), rewriting the
 * file after each board. Returns what happened to each board.
 */
export async function runPackJob(
  job: PackJob,
  outDir: string,
  options: BatchOptions = {},
): Promise<BoardOutcome[]> {
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const targetPct = options.targetPct ?? 0.5;
  const maxIterations = options.maxIterations ?? 1000;
  const checkEvery = Math.max(1, Math.floor(options.checkEvery ?? 10));
  const path = packFile(outDir, job.id);
  const boards = [
    ...new Set(
      job.boards.map((b) => {
        const cards = parseBoard(b);
        if (!cards) throw new Error(`${job.id}: "${b}" is not a board of 3 to 5 cards`);
        return canonicalBoard(cards);
      }),
    ),
  ];
  const street = streetOf(parseBoard(boards[0]!)!.length);
  if (boards.some((b) => streetOf(parseBoard(b)!.length) !== street)) {
    throw new Error(`${job.id}: every board of a pack must have the same number of cards`);
  }
  const baseWithoutNodes = {
    id: job.id,
    basePack: job.basePack,
    tree: job.tree,
    line: job.line,
    street,
    pot: job.pot,
    stack: job.stack,
    rake: job.rake,
    treeConfig: treeConfig(job.tree) as Record<string, unknown>,
    ranges: job.ranges,
    solver: { algorithm: SOLVER_ALGORITHM, targetPct, isomorphism: true },
  };
  let existing: PostflopPackFile | null = null;
  if (existsSync(path)) {
    try {
      existing = PostflopPackFile.open(path);
      const { nodes: _n, boards: _b, writtenAt: _w, format: _f, formatVersion: _v, ...old } = existing.header;
      if (canonicalJson(old) !== canonicalJson(baseWithoutNodes)) {
        log(
          `${job.id}: the pack on disk was solved from other inputs (ranges, pot, tree or target); starting it afresh`,
        );
        existing = null;
      }
    } catch (error) {
      log(`${job.id}: the pack on disk cannot be read (${(error as Error).message}); starting it afresh`);
      existing = null;
    }
  }
  let stored: StoredBoard[] = existing ? existing.storedBoards() : [];
  let nodes = existing?.header.nodes ?? null;
  const outcomes: BoardOutcome[] = [];
  for (const [k, board] of boards.entries()) {
    const config = boardConfig(job, board);
    const hash = inputsHash(config, targetPct, maxIterations);
    const have = stored.find((s) => s.entry.board === board);
    if (have && have.entry.provenance.inputsHash === hash) {
      outcomes.push({ pack: job.id, board, status: "skipped", provenance: have.entry.provenance });
      log(`${job.id} ${board} (${k + 1}/${boards.length}): already solved with these inputs, skipped`);
      continue;
    }
    const started = performance.now();
    const solver = createPostflopSolver(
      config,
      options.threads === undefined ? { dcfr: PACK_DCFR } : { threads: options.threads, dcfr: PACK_DCFR },
    );
    try {
      let e = { pctPot: Number.NaN, chips: Number.NaN };
      let measuredAt = -1;
      const checks = new CheckSchedule(checkEvery, targetPct);
      const elapsed = () => (performance.now() - started) / 1000;
      while (solver.iteration < maxIterations) {
        solver.iterate();
        const timeUp = options.maxSeconds !== undefined && elapsed() >= options.maxSeconds;
        if (checks.due(solver.iteration) || solver.iteration === maxIterations || timeUp) {
          e = solver.exploitability();
          measuredAt = solver.iteration;
          checks.record(measuredAt, e.pctPot);
          log(
            `${job.id} ${board}: iteration ${solver.iteration}, exploitability ${e.pctPot.toFixed(3)}% of the pot, ${elapsed().toFixed(1)} s`,
          );
          if (e.pctPot <= targetPct || timeUp) break;
        }
      }
      if (measuredAt !== solver.iteration) e = solver.exploitability();
      const tableNodes = firstStreetNodes(solver);
      if (nodes && canonicalJson(nodes) !== canonicalJson(tableNodes)) {
        throw new Error(`${job.id} ${board}: the betting tree differs from the pack's node table`);
      }
      nodes = tableNodes;
      const data = extractBoard(solver);
      const values = solver.values();
      const provenance: BoardProvenance = {
        solvedAt: now().toISOString(),
        seconds: Math.round(elapsed() * 100) / 100,
        iterations: solver.iteration,
        threads: options.threads ?? availableParallelism(),
        exploitabilityPct: Math.round(e.pctPot * 10000) / 10000,
        exploitabilityBb: Math.round(e.chips * 1e6) / 1e6,
        targetPct,
        inputsHash: hash,
      };
      const rootEv = { oop: Math.round(values[0] * 1e6) / 1e6, ip: Math.round(values[1] * 1e6) / 1e6 };
      const entry = storeBoard(tableNodes, board, data, rootEv, provenance);
      stored = [...stored.filter((s) => s.entry.board !== board), entry];
      const base: PackHeaderBase = { ...baseWithoutNodes, nodes: tableNodes };
      await writePostflopPack(path, encodePostflopPack(base, stored, now().toISOString()));
      outcomes.push({ pack: job.id, board, status: "solved", provenance });
      log(
        `${job.id} ${board} (${k + 1}/${boards.length}): ${provenance.iterations} iterations, ${provenance.exploitabilityPct}% of the pot, ${provenance.seconds} s; written`,
      );
    } finally {
      solver.close();
    }
  }
  return outcomes;
}
