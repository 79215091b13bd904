/**
 * `solvePostflop(config, options)`: solve a spot to a target exploitability and return the strategies, EVs
 * and equities of every decision on the first street.
 */

import { availableParallelism } from "node:os";
import { CheckSchedule } from "./checks.js";
import { type PostflopConfig, type ResolvedConfig, resolveConfig } from "./config.js";
import { type DcfrParams, DEFAULT_DCFR, discountAt } from "./dcfr.js";
import { MODE_EVAL } from "./engine.js";
import { PostflopGame } from "./game.js";
import { blockedTotals, showdownValues } from "./hand-loops.js";
import { ThreadRunner } from "./parallel.js";
import { comboName } from "./range.js";
import { allocateBuffers, PostflopSolver } from "./solver.js";
import { type ActionInfo, DECISION } from "./tree.js";

export interface PostflopProgress {
  readonly iteration: number;
  readonly maxIterations: number;
  /** The last measured exploitability, percent of the starting pot (NaN before the first measure). */
  readonly exploitability: number;
  /** Whether that measure was taken after this iteration. */
  readonly measured: boolean;
  readonly elapsedSeconds: number;
}

export interface PostflopSolveOptions {
  /** Stop after this many iterations (default 1000). */
  readonly maxIterations?: number;
  /** Stop once the exploitability is at most this percent of the starting pot (default 0.5). */
  readonly targetExploitability?: number;
  /** Stop after about this many seconds (checked after each iteration). */
  readonly maxSeconds?: number;
  /** Threads (default: every core, `availableParallelism()`); 1 solves on the calling thread only. */
  readonly threads?: number;
  /** Solve suit-isomorphic cards once (default true). */
  readonly isomorphism?: boolean;
  /**
   * 16-bit storage of regrets and strategy sums (default false; `GameOptions.compressed`): half the memory,
   * each entry rounded to 1/32767 (regrets) or 1/65535 (sums) of its decision's largest.
   */
  readonly compressed?: boolean;
  /**
   * Skip the subtrees the opponent's reach does not enter in CFR traversals too (default false): their values
   * are 0 and only their discounting is skipped. Best responses and evaluations always skip them (exact).
   */
  readonly pruning?: boolean;
  /** Iterations between the first measures of exploitability (default 10); `CheckSchedule` plans the rest. */
  readonly checkEvery?: number;
  readonly dcfr?: DcfrParams;
  /** Called after every iteration. */
  readonly onProgress?: (progress: PostflopProgress) => void;
}

/** A decision of the first street. Vectors are per hand of `PostflopResult.hands`. */
export interface PostflopNode {
  /** Actions from the root (labels). */
  readonly path: readonly string[];
  readonly player: "oop" | "ip";
  /** The pot at the node (chips). */
  readonly pot: number;
  readonly actions: readonly ActionInfo[];
  /** `strategy[a][h]`: frequency of action a for the acting player's hand h (average strategy). */
  readonly strategy: readonly (readonly number[])[];
  /** The probability that each hand plays to this node, per player (its range weight times its actions). */
  readonly reach: { readonly oop: readonly number[]; readonly ip: readonly number[] };
  /**
   * EV of each hand at the node in chips: its expected share of the pot less what it still puts in (the
   * convention where the two ranges' EVs at the root sum to the pot, less rake). null where a hand cannot
   * meet any hand of the opponent's range at the node.
   */
  readonly ev: { readonly oop: readonly (number | null)[]; readonly ip: readonly (number | null)[] };
  /** Equity of each hand against the opponent's range at the node, every runout dealt (ties half). */
  readonly equity: { readonly oop: readonly (number | null)[]; readonly ip: readonly (number | null)[] };
}

export interface PostflopResult {
  readonly config: PostflopConfig;
  readonly iterations: number;
  /** Exploitability at the end, percent of the starting pot and chips. */
  readonly exploitability: number;
  readonly exploitabilityChips: number;
  readonly seconds: number;
  readonly threads: number;
  /** Hands of each player (combo text, high card first) and their range weights. */
  readonly hands: { readonly oop: readonly string[]; readonly ip: readonly string[] };
  readonly weights: { readonly oop: readonly number[]; readonly ip: readonly number[] };
  /** Each player's EV at the root (chips, pot-share convention; they sum to the pot less rake). */
  readonly ev: { readonly oop: number; readonly ip: number };
  /** Every decision of the first street, in tree pre-order (the root first). */
  readonly nodes: readonly PostflopNode[];
  readonly tree: { readonly decisions: number; readonly storageFloats: number; readonly units: number };
}

/** Builds a solver (threads started) for a config; `close()` it when done. */
export function createPostflopSolver(
  config: PostflopConfig | ResolvedConfig,
  options: Pick<PostflopSolveOptions, "threads" | "isomorphism" | "compressed" | "pruning" | "dcfr"> = {},
): PostflopSolver {
  const resolved = "source" in config ? config : resolveConfig(config);
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const isomorphism = options.isomorphism !== false;
  const game = new PostflopGame(resolved, { isomorphism, compressed: options.compressed === true });
  const parallel = threads > 1 && game.units.length > 1;
  const buffers = allocateBuffers(game, parallel, parallel ? threads : 1);
  const solver = new PostflopSolver(game, buffers, null, options.dcfr ?? DEFAULT_DCFR);
  solver.engine.prune = options.pruning === true;
  if (parallel)
    solver.setRunner(new ThreadRunner(solver.engine, buffers, threads, resolved.source, isomorphism));
  return solver;
}

export function solvePostflop(config: PostflopConfig, options: PostflopSolveOptions = {}): PostflopResult {
  const started = performance.now();
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const solver = createPostflopSolver(config, options);
  try {
    const maxIterations = options.maxIterations ?? 1000;
    const target = options.targetExploitability ?? 0.5;
    const checks = new CheckSchedule(Math.max(1, Math.floor(options.checkEvery ?? 10)), target);
    const elapsed = () => (performance.now() - started) / 1000;
    let exploitability = Number.NaN;
    let chips = Number.NaN;
    let measuredAt = -1;
    while (solver.iteration < maxIterations) {
      solver.iterate();
      const timeUp = options.maxSeconds !== undefined && elapsed() >= options.maxSeconds;
      if (checks.due(solver.iteration) || solver.iteration === maxIterations || timeUp) {
        const e = solver.exploitability();
        exploitability = e.pctPot;
        chips = e.chips;
        measuredAt = solver.iteration;
        checks.record(measuredAt, exploitability);
      }
      options.onProgress?.({
        iteration: solver.iteration,
        maxIterations,
        exploitability,
        measured: measuredAt === solver.iteration,
        elapsedSeconds: elapsed(),
      });
      if (measuredAt === solver.iteration && exploitability <= target) break;
      if (timeUp) break;
    }
    if (measuredAt !== solver.iteration) {
      const e = solver.exploitability();
      exploitability = e.pctPot;
      chips = e.chips;
    }
    return describe(solver, config, exploitability, chips, elapsed(), threads);
  } finally {
    solver.close();
  }
}

/** The result of a solver's current average strategies (EVs and equities of the first street's decisions). */
export function describe(
  solver: PostflopSolver,
  config: PostflopConfig,
  exploitability: number,
  chips: number,
  seconds: number,
  threads: number,
): PostflopResult {
  const g = solver.game;
  const top = solver.top;
  const none = discountAt(1, solver.params);
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  const topIndex = new Map<number, number>();
  g.topNodes.forEach((id, i) => {
    topIndex.set(id, i);
  });
  const decisions = [...g.topNodes].filter((id) => g.kind[id] === DECISION);
  const perPlayer = [0, 1].map(() => new Map<number, { ev: (number | null)[]; equity: (number | null)[] }>());
  const rootEv: number[] = [0, 0];
  const z = solver.pairWeight();
  for (let t = 0; t < 2; t++) {
    const rootOff = solver.traverse(MODE_EVAL, t, none);
    let v = 0;
    for (let h = 0; h < g.n[t]!; h++) v += g.weights[t]![h]! * top.buf[rootOff + h]!;
    rootEv[t] = v / z;
    for (const id of decisions) {
      const i = topIndex.get(id)!;
      const opp = top.buf.subarray(top.reachOff[1 - t]![i]!, top.reachOff[1 - t]![i]! + g.n[1 - t]!);
      const totals = opponentTotals(g, t, opp);
      const cfv = top.buf.subarray(top.valueOff[i]!, top.valueOff[i]! + g.n[t]!);
      const contrib = t === 0 ? g.contrib0[id]! : g.contrib1[id]!;
      const ev = Array.from(cfv, (x, h) => (totals[h]! > 1e-12 ? round(x / totals[h]! + contrib) : null));
      const eq = equities(g, t, opp, totals);
      perPlayer[t]!.set(id, { ev, equity: eq.map((x) => (x === null ? null : round(x))) });
    }
  }
  // The EVAL traversal for IP left the average strategies and reaches of every top node in place.
  const nodes: PostflopNode[] = decisions.map((id) => {
    const i = topIndex.get(id)!;
    const node = g.tree.nodes[id]!;
    const q = g.player[id]!;
    const n = g.n[q]!;
    const strat = top.stratOff[i]!;
    const reach = (p: number) =>
      Array.from(top.buf.subarray(top.reachOff[p]![i]!, top.reachOff[p]![i]! + g.n[p]!), round);
    return {
      path: node.path,
      player: q === 0 ? "oop" : "ip",
      pot: g.config.pot + node.contrib[0] + node.contrib[1],
      actions: node.actions,
      strategy: node.actions.map((_, a) =>
        Array.from(top.buf.subarray(strat + a * n, strat + (a + 1) * n), round),
      ),
      reach: { oop: reach(0), ip: reach(1) },
      ev: { oop: perPlayer[0]!.get(id)!.ev, ip: perPlayer[1]!.get(id)!.ev },
      equity: { oop: perPlayer[0]!.get(id)!.equity, ip: perPlayer[1]!.get(id)!.equity },
    };
  });
  return {
    config,
    iterations: solver.iteration,
    exploitability,
    exploitabilityChips: chips,
    seconds,
    threads,
    hands: { oop: Array.from(g.combos[0], comboName), ip: Array.from(g.combos[1], comboName) },
    weights: { oop: Array.from(g.weights[0]), ip: Array.from(g.weights[1]) },
    ev: { oop: round(rootEv[0]!), ip: round(rootEv[1]!) },
    nodes,
    tree: { decisions: g.tree.counts().decisions, storageFloats: g.storageFloats(), units: g.units.length },
  };
}

/** For each hand of player t, the opponent's reach over hands that share no card with it. */
export function opponentTotals(g: PostflopGame, t: number, opp: ArrayLike<number>): Float64Array {
  const no = g.n[1 - t]!;
  const nt = g.n[t]!;
  const buf = new Float64Array(no + nt);
  buf.set(opp, 0);
  blockedTotals(buf, 0, no, g, t, new Float64Array(52), 1);
  return buf.slice(no, no + nt);
}

/**
 * Each hand's equity against the opponent's reach `opp`: win plus half the ties over every runout, from the
 * showdown sweep on every final board with A = B = 1/2 (a pot of 1, nothing put in).
 */
export function equities(
  g: PostflopGame,
  t: number,
  opp: ArrayLike<number>,
  totals: Float64Array,
): (number | null)[] {
  const no = g.n[1 - t]!;
  const nt = g.n[t]!;
  const buf = new Float64Array(no + nt);
  buf.set(opp, 0);
  const acc = new Float64Array(nt);
  const sums = new Float64Array(104);
  for (let b = 0; b < g.boardCount; b++) {
    showdownValues(buf, 0, no, g, t, 1 - t, b, 0.5, 0.5, sums);
    for (let h = 0; h < nt; h++) acc[h]! += buf[no + h]!;
  }
  const left = 52 - g.board.length - 4;
  const runouts = g.startStreet === 0 ? (left * (left - 1)) / 2 : g.startStreet === 1 ? left : 1;
  return Array.from(acc, (x, h) => (totals[h]! > 1e-12 ? x / (runouts * totals[h]!) : null));
}
