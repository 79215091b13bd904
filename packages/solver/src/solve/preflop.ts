/**
 * Solving one (game, stack): build the tree from its config, run DCFR until every seat's exploitability
 * is under the target (or the iteration/time budget runs out), evaluate, and export a pack.
 */

import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import { GAMES, HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES, roundBb } from "@ranges/core";
import { PACK_FORMAT_VERSION, type PackConfig, type PackData, type PackNode } from "@ranges/store";
import {
  type CfrParams,
  CfrSolver,
  DCFR_PARAMS,
  PURIFY_BELOW,
  type SeatResult,
  type Solver,
} from "../engine/cfr.js";
import { countNodes, type EngineGame, forEachNode, type TreeNode } from "../engine/game.js";
import { ParallelCfrSolver } from "../engine/parallel.js";
import {
  type HeadsUpEquityTable,
  loadHeadsUpEquity,
  loadMultiwayTable,
  type MultiwayTable,
} from "../equity/index.js";
import {
  buildGroundedMatrices,
  CLASS_EFFECT_FEATURES,
  GAMMA_TERMS,
  type GroundedParams,
  HAND_FEATURES,
  PLAYER_FEATURES,
} from "../model/grounded.js";
import { buildBucketedDuels } from "../model/multiway.js";
import { buildShareMatrices } from "../model/realization.js";
import { type BuiltTree, buildPreflopTree, type DuelKind } from "../tree/build.js";
import {
  profileFor,
  rakeOf,
  type SolverAlgorithm,
  type TreeConfig,
  type TrembleScope,
} from "../tree/config.js";

/** The algorithm line of a pack's provenance; `over` names what the solve is vectorized over. */
export const algorithmName = (
  alternate: boolean,
  algorithm: SolverAlgorithm = "dcfr",
  over = "169 classes",
  tremble = PREFLOP_TREMBLE,
  scope: TrembleScope = "untaken",
): string =>
  `${algorithm === "pcfr+" ? "Predictive CFR+ (regret matching+ with the last instantaneous regrets as prediction, averages weighted by t^2)" : "DCFR (alpha 1.5, beta 0, gamma 2)"}, ${alternate ? "alternating" : "simultaneous"} seat updates, vectorized over ${over}; trembling hand (${scope === "every" ? `every action of every hand mixed with ${tremble} while iterating` : `every action at least ${tremble} while iterating`}), published averages with frequencies under ${PURIFY_BELOW} zeroed`;

/** The tremble of a (config, stack): the profile's `tremble`, `PREFLOP_TREMBLE` by default. */
export const trembleOf = (config: TreeConfig, stack: number): number =>
  profileFor(config, stack).tremble ?? PREFLOP_TREMBLE;

/** Which actions tremble for a (config, stack): the profile's `trembleScope`, `"untaken"` by default. */
export const trembleScopeOf = (config: TreeConfig, stack: number): TrembleScope =>
  profileFor(config, stack).trembleScope ?? "untaken";

/** The regret minimizer of a (config, stack): the profile's `algorithm`, DCFR by default. */
export const algorithmOf = (config: TreeConfig, stack: number): SolverAlgorithm =>
  profileFor(config, stack).algorithm ?? "dcfr";

/**
 * Version of the solver's game model and engine semantics: part of every pack's input hash, so changing the
 * model makes `pnpm solve --all` re-solve every pack. Bump it with any change that alters results.
 */
export const SOLVER_MODEL_VERSION = "v3.3";

/**
 * What identifies the tables of a PLO solve beyond its config: the abstraction (bucket count and the CRC-32 of
 * its class-to-bucket map, which pins every setting that built it) and the bucket equity table (the map it
 * was built for, its boards, hands per bucket, parts and seed). See `ploSolveIdentity` (solve/plo.ts).
 */
export interface PloSolveIdentity {
  readonly buckets: number;
  readonly mapCrc32: number;
  readonly equity: {
    readonly buckets: number;
    readonly mapCrc32: number;
    readonly boards: number;
    readonly handsPerBucket: number;
    readonly parts: number;
    readonly seed: number;
  };
}

/**
 * Hash of everything a (config, stack) solve depends on: the model version, the config without the other
 * stacks' profiles, the stack and the equity table's seed, and for PLO the abstraction and bucket equity
 * table (`plo`; absent for hold'em, whose hashes are unchanged by it). `pnpm solve --all` skips a pack whose
 * header records the same hash.
 */
export function solveInputHash(
  config: TreeConfig,
  stack: number,
  equitySeed: number,
  plo?: PloSolveIdentity,
): string {
  const { profiles: _profiles, description: _description, ...rest } = config;
  const input = {
    model: SOLVER_MODEL_VERSION,
    config: rest,
    profile: profileFor(config, stack),
    stack,
    equitySeed,
    ...(plo === undefined ? {} : { plo }),
  };
  return createHash("sha256").update(stableJson(input)).digest("hex").slice(0, 16);
}

/** The input hash recorded in a pack's provenance notes, or null. */
export function recordedInputHash(notes: readonly string[] | null | undefined): string | null {
  for (const note of notes ?? []) {
    const m = /^Inputs: ([0-9a-f]{16})\b/.exec(note);
    if (m) return m[1]!;
  }
  return null;
}

function stableJson(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(stableJson).join(",")}]`;
  if (x && typeof x === "object")
    return `{${Object.keys(x)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((x as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(x);
}

/** Least probability of every action while iterating (see `CfrParams.tremble`). */
export const PREFLOP_TREMBLE = 1e-4;

export interface SolveProgress {
  readonly iteration: number;
  /** Worst seat's exploitability in percent of the starting pot at the last check. */
  readonly worstPctPot: number;
  /** The least of `worstPctPot` over the checks so far (the checkpoint that would be published). */
  readonly bestPctPot: number;
  readonly elapsedSeconds: number;
  /** Estimated seconds left (by the iteration budget, or by the convergence trend when it is faster). */
  readonly etaSeconds: number;
}

export interface SolveOptions {
  readonly config: TreeConfig;
  /** Repository-relative path of the config, recorded in the pack. */
  readonly configPath?: string;
  readonly stack: number;
  readonly equity?: HeadsUpEquityTable;
  /** Board-conditioned duels table for pots of three or more (default: the committed one). */
  readonly multiway?: MultiwayTable;
  readonly maxIterations?: number;
  readonly maxSeconds?: number;
  /** Stop when every seat is at or under this exploitability (percent of the starting pot). */
  readonly targetPctPot?: number;
  /** Iterations between exploitability checks. */
  readonly checkEvery?: number;
  readonly onProgress?: (p: SolveProgress) => void;
  /** Least probability of every action while iterating (default: the profile's, see `trembleOf`; 0 for none). */
  readonly tremble?: number;
  /** Injected clock (ms) so tests and packs do not depend on wall time. */
  readonly now?: () => number;
  /**
   * Threads for this solve (1: serial). Default: RANGES_SOLVER_THREADS if set, else every core for trees
   * over `PARALLEL_MIN_DECISIONS` decisions. The results are the same to the bit either way.
   */
  readonly threads?: number;
}

/** Trees with more decisions than this are solved on every core by default (smaller ones gain little). */
export const PARALLEL_MIN_DECISIONS = 2000;

/** Most threads one solve uses by default. */
const MAX_DEFAULT_THREADS = 8;

/**
 * Threads for a solve of a tree with `decisions` decisions: `requested` if given, else the environment's
 * RANGES_SOLVER_THREADS (a positive integer; 1 forces the serial solver), else every core (at most 8) for a
 * tree over `PARALLEL_MIN_DECISIONS` decisions and 1 for a smaller one.
 */
export function solverThreads(decisions: number, requested?: number): number {
  const valid = (x: number) => Number.isInteger(x) && x >= 1;
  if (requested !== undefined) {
    if (!valid(requested)) throw new Error(`threads must be a positive integer, got ${requested}`);
    return requested;
  }
  const env = process.env.RANGES_SOLVER_THREADS?.trim();
  if (env) {
    const x = Number(env);
    if (!valid(x)) throw new Error(`RANGES_SOLVER_THREADS must be a positive integer, got "${env}"`);
    return x;
  }
  if (decisions <= PARALLEL_MIN_DECISIONS) return 1;
  return Math.max(1, Math.min(MAX_DEFAULT_THREADS, availableParallelism()));
}

export interface SeatExploitabilityResult extends SeatResult {
  readonly mbbPerHand: number;
  readonly pctPot: number;
}

export interface SolveResult {
  readonly tree: BuiltTree;
  /** The solver, closed (its threads ended): its `decisionResults()` stay readable. */
  readonly solver: Solver;
  readonly game: EngineGame;
  /** Threads the solve ran on (1: the serial solver). */
  readonly threads: number;
  /** Iterations run. */
  readonly iterations: number;
  /**
   * Iteration whose average strategies are published: the last one, or an earlier check that was less
   * exploitable than the last (the solver keeps the least exploitable checkpoint).
   */
  readonly publishedIteration: number;
  readonly seconds: number;
  readonly seats: readonly SeatExploitabilityResult[];
  readonly nodes: { decisions: number; terminals: number };
  /** Worst seat's exploitability (percent of the pot) of the averages before purification. */
  readonly averagesWorstPctPot: number;
  /** Decisions that the published strategies never reach (reach 0). */
  readonly unreachedNodes: number;
}

let committedMultiway: MultiwayTable | null = null;

/** The committed board-conditioned duels table, read once. */
export function committedMultiwayTable(): MultiwayTable {
  committedMultiway ??= loadMultiwayTable();
  return committedMultiway;
}

/**
 * The engine's game for a config and stack. Pots of three or more use board-conditioned duels from `multiway`
 * (the committed table by default).
 */
export function buildEngineGame(
  config: TreeConfig,
  stack: number,
  equity: HeadsUpEquityTable,
  multiway: MultiwayTable = committedMultiwayTable(),
): { game: EngineGame; tree: BuiltTree } {
  if (GAMES[config.game].variant !== "holdem") {
    throw new Error(
      `${config.game} is PLO: its pot-limit trees build (buildPreflopTree), but the solver's terminal model and classes are hold'em only`,
    );
  }
  const grounded = config.model.grounded
    ? buildGroundedMatrices(checkedGrounded(config.model.grounded), equity.eq, equity.w)
    : null;
  const shares = grounded ?? buildShareMatrices(config.model, equity.eq, equity.w);
  const matrixFor = grounded
    ? grounded.indexForKind
    : (kind: DuelKind) => shares.indexFor(kind.allIn, kind.spr, kind.rowIsIp);
  const tree = buildPreflopTree(config, stack, matrixFor);
  const game: EngineGame = {
    seats: tree.seats,
    classCount: 169,
    combos: Float64Array.from(HOLDEM_CLASS_COMBOS),
    oppPerCombo: 1225,
    W: equity.w,
    matrices: shares.matrices,
    multiway: buildBucketedDuels(
      multiway,
      equity.w,
      shares.matrices,
      allInMultiwayDuels(tree.root, tree.seats.length),
    ),
    root: tree.root,
  };
  return { game, tree };
}

/** The duel matrices that all-in pots of three or more players settle with (the only ones bucketed). */
function allInMultiwayDuels(root: TreeNode, seats: number): Set<number> {
  const used = new Set<number>();
  forEachNode(root, (node) => {
    if (node.type !== "showdown" || !node.allIn || node.players.length < 3) return;
    for (const i of node.players)
      for (const j of node.players) if (i !== j) used.add(node.duel[i * seats + j]!);
  });
  return used;
}

/** A config's grounded parameters, their sizes and numbers checked (a wrong file fails before the solve). */
function checkedGrounded(p: GroundedParams): GroundedParams {
  const sizes: [string, ArrayLike<number> | undefined, number][] = [
    ["theta", p.theta, HAND_FEATURES.length * PLAYER_FEATURES.length],
    ["gamma", p.gamma, GAMMA_TERMS.length],
    ["classEffects", p.classEffects ?? [], p.classEffects ? 169 * CLASS_EFFECT_FEATURES.length : 0],
  ];
  (p.lines ?? []).forEach((l, k) => {
    sizes.push(
      [`lines[${k}].effects.oop`, l.effects?.oop, 169],
      [`lines[${k}].effects.ip`, l.effects?.ip, 169],
    );
    const where = `model.grounded.lines[${k}]`;
    if (typeof l.oop !== "string" || typeof l.ip !== "string" || l.oop === l.ip)
      throw new Error(`${where}: "oop" and "ip" must name two different seats`);
    if (!Number.isInteger(l.raises) || l.raises < 0)
      throw new Error(`${where}.raises: expected a whole number of raises, 0 for a limped pot`);
    if (
      (l.raises === 0) !== (l.aggressor === null) ||
      !(l.aggressor === null || l.aggressor === "oop" || l.aggressor === "ip")
    )
      throw new Error(`${where}.aggressor: "oop" or "ip" when somebody raised, null in a limped pot`);
    if (!(l.spr > 0) || !Number.isFinite(l.spr)) throw new Error(`${where}.spr: expected a positive number`);
  });
  for (const [name, xs, n] of sizes) {
    if (!xs || xs.length !== n || !Array.from(xs).every(Number.isFinite))
      throw new Error(`model.grounded.${name}: expected ${n} finite numbers, got ${xs?.length ?? "none"}`);
  }
  return p;
}

export function exploitabilityOf(
  seats: readonly SeatResult[],
  startingPot: number,
): SeatExploitabilityResult[] {
  return seats.map((s) => ({
    ...s,
    mbbPerHand: s.exploitability * 1000,
    pctPot: (s.exploitability / startingPot) * 100,
  }));
}

export function solvePreflop(options: SolveOptions): SolveResult {
  const { config, stack } = options;
  const equity = options.equity ?? loadHeadsUpEquity();
  const { game, tree } = buildEngineGame(config, stack, equity, options.multiway);
  return solveBuiltGame(options, game, tree);
}

/** The budget, target, clock and threads of a solve: `SolveOptions` less the tables of one variant. */
export type EngineSolveOptions = Omit<SolveOptions, "equity" | "multiway">;

/**
 * Solves an already built game (hold'em or PLO): DCFR (or the profile's algorithm) with the tremble, checks
 * every `checkEvery` iterations, the least exploitable checkpoint, the target and the iteration and time
 * budget, then purification and the final evaluation. `solvePreflop` and `solvePlo` differ only in the game
 * they build.
 */
/** The engine's parameters for a config and stack: DCFR, the tremble and its scope, the algorithm. */
export function solverParams(
  config: TreeConfig,
  stack: number,
  tremble = trembleOf(config, stack),
): CfrParams {
  return {
    ...DCFR_PARAMS,
    alternate: config.solve.alternate,
    tremble,
    ...(trembleScopeOf(config, stack) === "every" ? { trembleEvery: true } : {}),
    ...(algorithmOf(config, stack) === "pcfr+" ? { predictive: true } : {}),
  };
}

export function solveBuiltGame(options: EngineSolveOptions, game: EngineGame, tree: BuiltTree): SolveResult {
  const { config, stack } = options;
  const now = options.now ?? (() => performance.now());
  const nodes = countNodes(tree.root);
  const params = solverParams(config, stack, options.tremble);
  const threads = solverThreads(nodes.decisions, options.threads);
  const solver: Solver =
    threads > 1 ? new ParallelCfrSolver(game, params, threads) : new CfrSolver(game, params);
  try {
    return runSolve(options, solver, game, tree, nodes, now);
  } finally {
    solver.close();
  }
}

function runSolve(
  options: EngineSolveOptions,
  solver: Solver,
  game: EngineGame,
  tree: BuiltTree,
  nodes: { decisions: number; terminals: number },
  now: () => number,
): SolveResult {
  const { config, stack } = options;
  const maxIterations = options.maxIterations ?? config.solve.maxIterations;
  const maxSeconds = options.maxSeconds ?? config.solve.maxSeconds;
  // Jam/fold trees are small and held to a tighter bar (0.05% of the pot, under the 0.1% required).
  const target =
    options.targetPctPot ?? (profileFor(config, stack).jamOrFold ? 0.05 : config.solve.targetPctPot);
  // With alternating updates a check after a whole round of seats compares like with like.
  const checkEvery = options.checkEvery ?? (config.solve.alternate ? 4 * tree.seats.length : 25);
  // A check (evaluating the averages: reaches, values and best responses, with and without the tremble)
  // costs about five iterations, so far from the target they are spaced out (see `nextCheckAfter`).
  let nextCheck = checkEvery;
  const start = now();
  let seats: SeatExploitabilityResult[] = [];
  // The least exploitable check so far: its averages are set aside, and published if the run ends worse
  // (in games of more than two players the averages' exploitability can rise again as iterations go on).
  let best = { worst: Number.POSITIVE_INFINITY, iteration: 0 };
  let worst = Number.POSITIVE_INFINITY;
  for (;;) {
    solver.iterate();
    const it = solver.iterations;
    const elapsed = (now() - start) / 1000;
    const done = it >= maxIterations || elapsed >= maxSeconds;
    if (it >= nextCheck || done) {
      seats = exploitabilityOf(solver.evaluate(), tree.startingPot);
      worst = Math.max(...seats.map((s) => s.pctPot));
      const perIt = elapsed / it;
      options.onProgress?.({
        iteration: it,
        worstPctPot: worst,
        bestPctPot: Math.min(worst, best.worst),
        elapsedSeconds: elapsed,
        etaSeconds: Math.max(0, Math.min((maxIterations - it) * perIt, maxSeconds - elapsed)),
      });
      if (worst <= target || done) break;
      nextCheck =
        it + (options.checkEvery === undefined ? nextCheckAfter(worst, target, checkEvery) : checkEvery);
      if (worst < best.worst) {
        solver.saveAverages();
        best = { worst, iteration: it };
      }
    }
  }
  if (seats.length === 0) {
    seats = exploitabilityOf(solver.evaluate(), tree.startingPot);
    worst = Math.max(...seats.map((s) => s.pctPot));
  }
  let publishedIteration = solver.iterations;
  if (best.worst < worst) {
    solver.restoreAverages();
    publishedIteration = best.iteration;
    worst = best.worst;
  }
  const averagesWorstPctPot = worst;
  solver.finalize();
  seats = exploitabilityOf(solver.evaluate(), tree.startingPot);
  const unreachedNodes = solver.decisionResults().filter((d) => d.reach === 0).length;
  return {
    averagesWorstPctPot,
    unreachedNodes,
    tree,
    solver,
    game,
    threads: solver instanceof ParallelCfrSolver ? solver.threads : 1,
    iterations: solver.iterations,
    publishedIteration,
    seconds: (now() - start) / 1000,
    seats,
    nodes,
  };
}

/**
 * Iterations until the next exploitability check of a solve whose last check found `worst` (percent of the
 * pot) against `target`: `base` near the target (at most 1.5 times it), twice that up to 3 times it, four
 * times beyond. A check costs about five iterations (nl/v2 150bb, one thread: 15.6 s of CPU against 2.8 s per
 * iteration), so checking every 25 iterations from the start spent a fifth of a solve on checks.
 */
export function nextCheckAfter(worst: number, target: number, base: number): number {
  if (worst > 3 * target) return 4 * base;
  if (worst > 1.5 * target) return 2 * base;
  return base;
}

/** Readable raise sizes of the tree, collected from the decoded actions (e.g. "UTG Open 2.19bb (34%)"). */
function treeSizes(tree: BuiltTree): string[] {
  const seen = new Map<string, Set<string>>();
  forEachNode(tree.root, (node) => {
    if (node.type !== "decision") return;
    for (const a of node.actions) {
      if (a.kind !== "raise" && a.kind !== "allin") continue;
      const label = a.kind === "allin" ? "AI" : `${a.token} ${a.sizePctPot}% pot`;
      const key = `depth ${node.depth}`;
      if (!seen.has(key)) seen.set(key, new Set());
      seen.get(key)!.add(label);
    }
  });
  return [...seen.entries()].map(([k, v]) => `${k}: ${[...v].join(", ")}`);
}

function packConfig(config: TreeConfig, tree: BuiltTree): PackConfig {
  const profile = profileFor(config, tree.stack);
  const unverified: { field: string; reason: string }[] = [
    { field: "importedAt", reason: "Solved by this project's solver, not imported." },
  ];
  let stacks: number[] | null = tree.seats.map(() => tree.stack);
  if (profile.jamOrFold && config.game === "nlmtt8") {
    stacks = null;
    unverified.push({
      field: "stacks",
      reason: `At ${tree.stack}bb the game is all-in/fold against deeper stacks; the tree plays every seat at ${tree.stack}bb effective, so per-seat starting stacks are not stated.`,
    });
  }
  let openSizes: PackConfig["openSizes"] = null;
  if (config.game === "nlmtt8") {
    const rootOpen = (seat: string) => {
      let size: number | null = null;
      forEachNode(tree.root, (node) => {
        if (size !== null || node.type !== "decision" || tree.seats[node.actor] !== seat || node.depth !== 1)
          return;
        const a =
          node.actions.find((x) => x.kind === "raise") ?? node.actions.find((x) => x.kind === "allin");
        if (a) size = a.sizeBb;
      });
      return size;
    };
    openSizes = {
      open: { label: profile.openLabel ?? "all-in", sizeBb: rootOpen("UTG") },
      sb: { label: profile.sbOpenLabel ?? "all-in", sizeBb: rootOpen("SB") },
      note: "Labels are the pack listing and may round; each node's sizeBb is the decoded raise-to and is authoritative.",
    };
  } else {
    unverified.push({ field: "openSizes", reason: "Open-size listings are published for nlmtt8 only." });
  }
  const rake = rakeOf(config);
  return {
    seats: [...tree.seats],
    stacks,
    blinds: { ...config.blinds },
    ante: config.ante,
    antePostedBy: config.antePostedBy,
    stackIncludesAnte: config.ante > 0 ? true : null,
    treeSizes: treeSizes(tree),
    openSizes,
    importedAt: null,
    unverified:
      config.ante > 0
        ? unverified
        : [...unverified, { field: "stackIncludesAnte", reason: "The game has no ante." }],
    // The rake the strategies were solved with (null: none).
    rake: rake ? { percent: rake.percent, capBb: rake.capBb, noFlopNoDrop: true } : null,
  };
}

export interface PackExportOptions {
  readonly createdAt: string;
  readonly configPath: string | null;
  /** Seed of the heads-up equity table the solve used (the solver itself draws nothing at random). */
  readonly seed: number;
  /** Recorded solve time; defaults to the measured one (a regeneration check passes the original). */
  readonly solveSeconds?: number;
}

/**
 * The pack nodes of a solve: each decision's average strategy per hand of the engine (hold'em classes, or
 * PLO buckets), and EVs in sb relative to fold when the game has EVs.
 */
export function packNodesOf(result: SolveResult, config: TreeConfig): PackNode[] {
  const info = GAMES[config.game];
  const n = result.game.classCount;
  return result.solver.decisionResults().map(({ node, strategy, evs }) => ({
    history: node.history,
    actor: result.tree.seats[node.actor]!,
    depth: node.depth,
    actions: node.actions.map((a, i) => {
      const freqs = new Float32Array(n);
      for (let c = 0; c < n; c++) freqs[c] = strategy[i * n + c]!;
      let evSb: Float32Array | null = null;
      if (info.hasEvs && evs) {
        evSb = new Float32Array(n);
        // bb to sb: two small blinds are one big blind.
        for (let c = 0; c < n; c++) evSb[c] = a.kind === "fold" ? 0 : evs[i * n + c]! * 2;
      }
      const base = {
        code: a.code,
        token: a.token,
        kind: a.kind,
        sizeBb: a.sizeBb,
        sizePctPot: a.sizePctPot,
        freqs,
        evs: evSb,
      };
      return a.sizeReason === undefined ? base : { ...base, sizeReason: a.sizeReason };
    }),
  }));
}

/** Provenance fields every solved pack shares: exploitability per seat, times, the tree config. */
export function solvedProvenanceBase(result: SolveResult, opts: PackExportOptions) {
  return {
    source: "solver" as const,
    iterations: result.iterations,
    exploitability: result.seats.map((s) => ({
      seat: s.seat,
      mbbPerHand: roundTo(s.mbbPerHand, 4),
      pctPot: roundTo(s.pctPot, 5),
    })),
    seed: opts.seed,
    solveSeconds: opts.solveSeconds ?? roundTo(result.seconds, 1),
    createdAt: opts.createdAt,
    treeConfig: opts.configPath,
  };
}

/** Notes every solved pack shares: no forced folds, rake, unreached lines, the checkpoint, the tree. */
export function solvedNotes(result: SolveResult, config: TreeConfig): string[] {
  return [
    "No forced folds: facing a bet every seat may fold or call (all-in for less counts as a call); pots may be multiway.",
    `Rake: ${rakeText(config)}.`,
    `Unreached lines: ${result.unreachedNodes} decisions have reach 0 under these strategies; their strategies are best responses to the others' play, solved with every action kept at probability ${trembleOf(config, result.tree.stack)} or more while iterating (the deviating seat holding its range from before the deviation).`,
    ...(result.publishedIteration < result.iterations
      ? [
          `Checkpoint: the published strategies are the averages at iteration ${result.publishedIteration}, the least exploitable of the checks; the run went on to iteration ${result.iterations} without improving on it.`,
        ]
      : []),
    `Tree: ${result.nodes.decisions} decision nodes, ${result.nodes.terminals} terminals; starting pot ${roundBb(result.tree.startingPot)}bb.`,
  ];
}

/** The pack config (table facts) of a solve. */
export const solvedPackConfig = (config: TreeConfig, result: SolveResult): PackConfig =>
  packConfig(config, result.tree);

/** Turns a solve into a pack: average strategies per class, EVs in sb relative to fold (if the game has EVs). */
export function toPackData(result: SolveResult, config: TreeConfig, opts: PackExportOptions): PackData {
  const info = GAMES[config.game];
  if (info.variant !== "holdem")
    throw new Error(`${config.game} is PLO: export its solve with toPloPackData`);
  const nodes = packNodesOf(result, config);
  const m = config.model;
  return {
    header: {
      format: "preflop-ranges-pack",
      formatVersion: PACK_FORMAT_VERSION,
      game: config.game,
      stack: result.tree.stack,
      classSet: "holdem169",
      classCount: HOLDEM_CLASSES.length,
      evUnit: info.hasEvs ? "sb" : null,
      config: packConfig(config, result.tree),
      provenance: {
        ...solvedProvenanceBase(result, opts),
        algorithm: algorithmName(
          config.solve.alternate,
          algorithmOf(config, result.tree.stack),
          undefined,
          trembleOf(config, result.tree.stack),
          trembleScopeOf(config, result.tree.stack),
        ),
        model: m.grounded
          ? `${m.name}: heads-up all-in pots by exact equity; heads-up flop pots by grounded shares (model.grounded: parameters fitted to this project's own postflop solves, per SPR point, position and initiative); all-in pots of three or more players by board-conditioned duels (${result.game.multiway?.buckets ?? 1} buckets); flop pots of three or more by independent duels of the same shares clipped to [0, 1] (a player who wins every duel takes the pot, the rest is split equally; not solved); ${rakeText(config)}`
          : `${m.name}: heads-up all-in pots by exact equity; flop pots by equity realization (contest exponent ${m.contestExponent}, IP ${m.ipFactor}, OOP ${m.oopFactor}, suited +${m.suitedBonus}, pair +${m.pairBonus}, connected +[${m.connectedBonus.join(", ")}], full at SPR ${m.sprFull}); all-in pots of three or more players by board-conditioned duels (each duel taken per strength bucket of the sweeping player's hand on the board, ${result.game.multiway?.buckets ?? 1} buckets), flop pots of three or more by independent duels of the realization model (a player who wins every duel takes the pot, the rest is split equally); ${rakeText(config)}`,
        notes: [
          ...solvedNotes(result, config),
          `Inputs: ${solveInputHash(config, result.tree.stack, opts.seed)} (model ${SOLVER_MODEL_VERSION}; pnpm solve --all skips the pack while this matches).`,
          "Exploitability: best response of each seat against the stored average strategies of the others, on this tree and terminal model.",
        ],
      },
    },
    nodes,
  };
}

export const rakeText = (config: TreeConfig): string => {
  const r = rakeOf(config);
  return r ? `${r.percent}% of the pot capped at ${r.capBb}bb, taken only when a flop is dealt` : "none";
};

export const roundTo = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;
