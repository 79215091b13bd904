/**
 * Later streets on demand. A pack stores every decision of its first street (the flop); a turn or river node
 * is answered by solving the street that holds it as a game of its own, from the ranges both players reach
 * it with in the solve of the street before, with the pack's own sizes, thresholds and rake:
 *
 * - `nextStreetConfig` cuts that game out: the board with the new card, the pot and stacks after the
 *   action that closed the street, per-combo ranges (reach at the closing decision times the closer's
 *   frequency of the closing action, hands holding the new card removed), and who bet last (so a lead is a
 *   donk bet exactly where the pack's tree says it is).
 * - `solveSubgame` solves it to a target (0.5% of its own pot by default) and extracts its first street's
 *   decisions in the pack's own layout (`PackNodeInfo` + `BoardData`), so every reader of packs reads it.
 * - `OnDemandSubgames` runs those solves on a worker thread, one at a time, and keeps the latest answers.
 *
 * An answer is an equilibrium of that subgame (its exploitability is measured by an exact best response,
 * in percent of the subgame's pot); it is not the flop solve's own turn strategy, which is not stored.
 */

import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { type Card, formatCard, RangesError } from "@ranges/core";
import { COMBO_HIGH_CARD, COMBO_LOW_CARD } from "@ranges/solver/hands";
import { CheckSchedule } from "./checks.js";
import type { PostflopConfig } from "./config.js";
import { describeDcfr } from "./dcfr.js";
import { type BoardData, extractBoard, firstStreetNodes, type PackNodeInfo } from "./extract.js";
import { type BoardProvenance, canonicalJson } from "./pack.js";
import { startWorker } from "./parallel.js";
import { comboName } from "./range.js";
import { createPostflopSolver } from "./solve.js";

export type Street = "flop" | "turn" | "river";

export const STREET_OF_CARDS: Readonly<Record<number, Street>> = { 3: "flop", 4: "turn", 5: "river" };

/**
 * How an on-demand subgame was solved: a pack board's provenance (its exploitability in percent of the
 * subgame's pot) without the inputs hash, and what the subgame was.
 */
export interface SubgameProvenance extends Omit<BoardProvenance, "inputsHash"> {
  readonly kind: "on_demand_subgame";
  /** The street the subgame starts on. */
  readonly street: Street;
  /** The board of the subgame (solved frame) and its pot and effective stack at the start, bb. */
  readonly board: string;
  readonly potBb: number;
  readonly stackBb: number;
  /** Whether the target was reached (else the iteration or time cap stopped the solve). */
  readonly reachedTarget: boolean;
  /** The solver's schedule (its default, `DEFAULT_DCFR`; a pack's header names the one its flops were solved with). */
  readonly algorithm: string;
}

export interface SubgameResult {
  readonly config: PostflopConfig;
  /** The subgame's first-street decisions, in tree pre-order (node 0 its root). */
  readonly nodes: readonly PackNodeInfo[];
  readonly data: BoardData;
  readonly rootEv: { readonly oop: number; readonly ip: number };
  readonly provenance: SubgameProvenance;
}

export interface SubgameSolveOptions {
  /** Percent of the subgame's pot (default 0.5). */
  readonly targetPct?: number;
  /** Default 600. */
  readonly maxIterations?: number;
  /** Stop after about this many seconds (default 60). */
  readonly maxSeconds?: number;
  /** Default: every core. */
  readonly threads?: number;
  /** Iterations between the first measures of exploitability (default 10); `CheckSchedule` plans the rest. */
  readonly checkEvery?: number;
}

/** Why a path cannot go on to another street (a fold, an all-in, the river's end). */
export class NoNextStreetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoNextStreetError";
  }
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** A weight as range text (8 decimals, no exponent; weights below 5e-9 are 0). */
function weightText(w: number): string {
  const t = w.toFixed(8).replace(/0+$/, "").replace(/\.$/, "");
  return t === "" ? "0" : t;
}

/**
 * The game of the street after decision `at.node`'s action `at.action` (a check behind or a call that ends
 * the street) when `card` is dealt. `parent` is the config of the solve that `nodes`/`data` come from (its
 * board, pot and stack are those at the start of its street); the new config keeps its sizes, thresholds,
 * raise cap and rake. Throws `NoNextStreetError` when no street follows (see `checkNextStreet`).
 */
export function nextStreetConfig(
  parent: PostflopConfig,
  nodes: readonly PackNodeInfo[],
  data: BoardData,
  at: { readonly node: number; readonly action: number },
  card: Card,
): PostflopConfig {
  const { pot, stack } = checkNextStreet(parent, nodes, at);
  const node = nodes[at.node]!;
  const action = node.actions[at.action]!;
  const label = `"${action.label}"`;
  const board = parent.board.replace(/[\s,]+/g, "");
  const q = node.player === "oop" ? 0 : 1;
  const d = data.nodes[at.node]!;
  const ranges = [0, 1].map((p) => {
    const items: string[] = [];
    data.hands[p]!.forEach((combo, h) => {
      if (COMBO_HIGH_CARD[combo] === card || COMBO_LOW_CARD[combo] === card) return;
      const w = d.reach[p]![h]! * (p === q ? d.strategy[at.action]![h]! : 1);
      const text = weightText(w);
      if (text !== "0") items.push(text === "1" ? comboName(combo) : `${comboName(combo)}:${text}`);
    });
    return items.join(",");
  });
  if (ranges[0] === "" || ranges[1] === "") {
    throw new NoNextStreetError(
      `no hand of the ${ranges[0] === "" ? "OOP" : "IP"} range plays on after ${label}`,
    );
  }
  const previousAggressor = action.kind === "call" ? (q === 0 ? "ip" : "oop") : null;
  const {
    board: _board,
    pot: _pot,
    stack: _stack,
    ranges: _ranges,
    previousAggressor: _previous,
    ...tree
  } = parent;
  return {
    ...tree,
    board: board + formatCard(card),
    pot,
    stack,
    ranges: { oop: ranges[0]!, ip: ranges[1]! },
    ...(previousAggressor ? { previousAggressor } : {}),
  };
}

/**
 * The pot and effective stack of the street after decision `at.node`'s action `at.action`; throws
 * `NoNextStreetError` when no street with decisions follows: a fold, an action that does not end the street
 * (only a call, or IP's check behind, does), the river's end (showdown), or a call that leaves both all in.
 */
export function checkNextStreet(
  parent: PostflopConfig,
  nodes: readonly PackNodeInfo[],
  at: { readonly node: number; readonly action: number },
): { pot: number; stack: number } {
  const node = nodes[at.node]!;
  const action = node.actions[at.action]!;
  const label = `"${action.label}"`;
  if (action.kind === "fold") throw new NoNextStreetError(`the hand is over after ${label}`);
  if (!(action.kind === "call" || (action.kind === "check" && node.player === "ip"))) {
    throw new NoNextStreetError(`${label} does not end the street's betting`);
  }
  if (parent.board.replace(/[\s,]+/g, "").length >= 10) {
    throw new NoNextStreetError(
      `${label} ends the river's betting: the hands are shown down, no card follows`,
    );
  }
  const stack = round6(parent.stack - action.to);
  if (stack <= 1e-9) {
    throw new NoNextStreetError(
      `both players are all in after ${label}: the rest of the board is dealt with no decision left`,
    );
  }
  return { pot: round6(node.pot + action.add), stack };
}

/** Solves a subgame on the calling thread (its units on `threads` threads) and extracts its first street. */
export function solveSubgame(config: PostflopConfig, options: SubgameSolveOptions = {}): SubgameResult {
  const started = performance.now();
  const targetPct = options.targetPct ?? 0.5;
  const maxIterations = options.maxIterations ?? 600;
  const maxSeconds = options.maxSeconds ?? 60;
  const checks = new CheckSchedule(Math.max(1, Math.floor(options.checkEvery ?? 10)), targetPct);
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const solver = createPostflopSolver(config, { threads });
  try {
    const elapsed = () => (performance.now() - started) / 1000;
    let e = { pctPot: Number.NaN, chips: Number.NaN };
    let measuredAt = -1;
    while (solver.iteration < maxIterations) {
      solver.iterate();
      const timeUp = elapsed() >= maxSeconds;
      if (checks.due(solver.iteration) || timeUp) {
        e = solver.exploitability();
        measuredAt = solver.iteration;
        checks.record(measuredAt, e.pctPot);
        if (e.pctPot <= targetPct || timeUp) break;
      }
    }
    if (measuredAt !== solver.iteration) e = solver.exploitability();
    const values = solver.values();
    const board = config.board.replace(/[\s,]+/g, "");
    return {
      config,
      nodes: firstStreetNodes(solver),
      data: extractBoard(solver),
      rootEv: { oop: round6(values[0]), ip: round6(values[1]) },
      provenance: {
        kind: "on_demand_subgame",
        street: STREET_OF_CARDS[board.length / 2]!,
        board,
        potBb: config.pot,
        stackBb: config.stack,
        solvedAt: new Date().toISOString(),
        seconds: Math.round(elapsed() * 100) / 100,
        iterations: solver.iteration,
        threads,
        exploitabilityPct: Math.round(e.pctPot * 10000) / 10000,
        exploitabilityBb: round6(e.chips),
        targetPct,
        reachedTarget: e.pctPot <= targetPct,
        algorithm: describeDcfr(solver.params),
      },
    };
  } finally {
    solver.close();
  }
}

interface Pending {
  readonly resolve: (result: SubgameResult) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Who asks for the subgames solved in this async context (a key id or a client address): a server runs each
 * request inside `subgameCaller.run(caller, ...)`, and each caller holds at most `perCaller` of the
 * `maxQueue` solves (429 `rate_limited` beyond), so one key cannot take every slot. Unset: no per-caller share.
 */
export const subgameCaller = new AsyncLocalStorage<string>();

/**
 * Subgames solved on a worker thread (one at a time, in the order asked) with the latest `cacheSize` answers
 * kept: the same subgame asked again, or while it is being solved, is answered from the same solve. Only
 * answers that reached the target are kept (those stop at an iteration count, so the solve is deterministic
 * and a kept answer is the answer); one stopped by the time or iteration cap is served once, marked so, and
 * solved again when asked again. At most `maxQueue` solves wait or run; one more
 * is refused with 503 `pack_unavailable` (try again shortly) rather than queued behind minutes of work. The
 * worker stops after `idleMs` without work and never keeps the process alive on its own.
 */
export class OnDemandSubgames {
  readonly options: Required<Omit<SubgameSolveOptions, "threads">> & { readonly threads: number };
  private readonly cacheSize: number;
  private readonly idleMs: number;
  private readonly maxQueue: number;
  private readonly perCaller: number;
  /** Solves waiting or running per caller (`subgameCaller`). */
  private readonly byCaller = new Map<string, number>();
  private readonly cache = new Map<string, Promise<SubgameResult>>();
  private readonly pending = new Map<number, Pending>();
  private worker: Worker | null = null;
  private nextId = 1;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Solves run so far (not cache hits); for tests and metrics. */
  solves = 0;

  constructor(
    options: SubgameSolveOptions & {
      cacheSize?: number;
      idleMs?: number;
      maxQueue?: number;
      perCaller?: number;
    } = {},
  ) {
    this.options = {
      targetPct: options.targetPct ?? 0.5,
      maxIterations: options.maxIterations ?? 600,
      maxSeconds: options.maxSeconds ?? 60,
      checkEvery: options.checkEvery ?? 10,
      threads: Math.max(1, Math.floor(options.threads ?? availableParallelism())),
    };
    this.cacheSize = Math.max(1, options.cacheSize ?? 64);
    this.idleMs = options.idleMs ?? 60_000;
    this.maxQueue = Math.max(1, options.maxQueue ?? 8);
    this.perCaller = Math.max(1, Math.min(this.maxQueue, options.perCaller ?? Math.floor(this.maxQueue / 4)));
  }

  /** The identity of a subgame's answer: its config and the solve settings. */
  key(config: PostflopConfig): string {
    const { threads: _threads, ...settings } = this.options;
    return createHash("sha256").update(canonicalJson({ config, settings })).digest("hex");
  }

  /** Whether the answer is at hand without a solve. */
  has(config: PostflopConfig): boolean {
    return this.cache.has(this.key(config));
  }

  solve(config: PostflopConfig): Promise<SubgameResult> {
    const key = this.key(config);
    const known = this.cache.get(key);
    if (known) {
      this.cache.delete(key);
      this.cache.set(key, known);
      return known;
    }
    if (this.pending.size >= this.maxQueue) {
      throw new RangesError(
        "pack_unavailable",
        `The turn and river solver is busy with ${this.pending.size} solves; ask again in a few seconds (answers already solved are served at once).`,
        { retryAfterSeconds: 5 },
      );
    }
    const caller = subgameCaller.getStore();
    const held = caller === undefined ? 0 : (this.byCaller.get(caller) ?? 0);
    if (caller !== undefined && held >= this.perCaller) {
      throw new RangesError(
        "rate_limited",
        `You have ${held} turn and river solves waiting or running, the most one caller may hold; ask again when one is answered (answers already solved are served at once).`,
        { retryAfterSeconds: 5 },
      );
    }
    const promise = this.run(config);
    if (caller !== undefined) {
      this.byCaller.set(caller, held + 1);
      const release = () => {
        const left = (this.byCaller.get(caller) ?? 1) - 1;
        if (left > 0) this.byCaller.set(caller, left);
        else this.byCaller.delete(caller);
      };
      promise.then(release, release);
    }
    this.cache.set(key, promise);
    const forget = () => {
      if (this.cache.get(key) === promise) this.cache.delete(key);
    };
    promise.then((result) => {
      if (!result.provenance.reachedTarget) forget();
    }, forget);
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return promise;
  }

  private run(config: PostflopConfig): Promise<SubgameResult> {
    this.solves++;
    const worker = this.start();
    const id = this.nextId++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    worker.ref();
    return new Promise<SubgameResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, config, options: this.options });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker("subgame-worker", {});
    worker.on("message", (message: { id: number; result?: SubgameResult; error?: string }) => {
      const job = this.pending.get(message.id);
      if (!job) return;
      this.pending.delete(message.id);
      if (message.result) job.resolve(message.result);
      else job.reject(new Error(message.error ?? "the subgame solve failed"));
      this.settle();
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the subgame worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(): void {
    if (this.pending.size > 0 || !this.worker) return;
    this.worker.unref();
    this.idleTimer = setTimeout(() => this.close(), this.idleMs);
    this.idleTimer.unref();
  }

  /** Stops the worker (pending solves fail); the cache stays. */
  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    for (const job of this.pending.values()) job.reject(new Error("the subgame solver was closed"));
    this.pending.clear();
    void worker.terminate();
  }
}
