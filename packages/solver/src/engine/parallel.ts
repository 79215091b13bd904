/**
 * One solve on several threads, with results bit-identical to the serial `CfrSolver`.
 *
 * The tree is cut below a few shallow decisions into disjoint subtrees, spread over `threads` groups of
 * about equal work (estimated from the nodes and the players in each showdown). Group 0 is solved on the
 * calling thread, every other group in a `worker_threads` Worker holding its own `CfrSolver` over just
 * those subtrees; the part above the cut (the top) is held by another `CfrSolver` on the calling thread.
 * Every operation runs in the serial order: the top's down step (strategies and reaches, written into
 * shared memory that the groups read as their roots' reaches), then every group's down and up steps at
 * once, each group writing its roots' values into shared memory, then the top's up step (values and regret
 * updates above the cut). A node's arithmetic depends only on its own inputs, which are the same numbers
 * as in a serial solve, so every strategy, value, EV and exploitability is the same to the last bit. Only
 * the caches of showdown products are per thread (a product is recomputed where two threads need it).
 *
 * The calling thread blocks (Atomics.wait) while the workers run, so the API stays synchronous. A worker's
 * error is rethrown on the calling thread; a worker that stops answering (killed, out of memory) is
 * reported after a grace period. `close()` ends the workers (the results stay readable).
 */

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import {
  type CfrParams,
  CfrSolver,
  DCFR_PARAMS,
  type DecisionResult,
  type ForestRoot,
  type PackedResults,
  type SeatResult,
  type Solver,
  walkDecisionResults,
} from "./cfr.js";
import type { DecisionNode, EngineGame, TreeNode } from "./game.js";

// ---------------------------------------------------------------------------------------------------------
// Partition

/**
 * Estimated work of one iteration at a node, in 169-wide vector operations (a dense 169 x 169 product is
 * 169). Decisions: regret matching, the tremble, a sparse card-removal projection per action, values and
 * regret updates. Showdowns: per player and pot the duel products (about half of them shared with sibling
 * terminals through the cache); with three players the cycle term's products (cached too), with four or
 * more (k - 1) uncached products per player and pot. The board-conditioned model does that work once per
 * strength bucket (`buckets`) in all-in pots.
 */
export function nodeCost(node: TreeNode, seats: number, buckets = 1): number {
  if (node.type === "decision") return seats + node.actions.length * (56 + seats);
  if (node.type === "fold") return 2 + seats;
  let cost = 0;
  const b = node.allIn ? buckets : 1;
  const k0 = node.players.length;
  cost += k0 * (2 + seats);
  for (const pot of node.pots) {
    const k = pot.players.length;
    if (k === 2) cost += k * (0.5 * 169 + seats + 4);
    else if (k === 3) cost += k * (b * (2 * 0.5 * 169 + 2 * 0.7 * 169) + 6 * seats);
    else
      cost += k * (b * ((k - 1) * 0.5 * 169 + (k - 1) * (169 + (k - 2) * 0.5 * 169) * 0.6) + 3 * k * seats);
  }
  return cost;
}

export interface Partition {
  /** The subtree roots solved away from the top (decisions). */
  readonly cut: ReadonlySet<TreeNode>;
  /** The cut roots of each group, in tree pre-order. Some groups may be empty (tiny trees). */
  readonly groups: readonly (readonly TreeNode[])[];
  /** Estimated work per group and of the top (same units as `nodeCost`). */
  readonly groupCost: readonly number[];
  readonly topCost: number;
}

/**
 * Cuts the tree for `groups` threads: starting from the root, the costliest subtree is split (its root
 * joins the top, its decision children become subtrees) until every subtree is at most 1/(16 * groups) of
 * the work or there are `maxCuts` of them; then the subtrees are dealt to the groups, costliest first, each
 * to the least loaded group. Deterministic.
 */
export function partitionTree(
  root: TreeNode,
  seats: number,
  groups: number,
  maxCuts = 512,
  buckets = 1,
): Partition {
  const cost = new Map<TreeNode, number>();
  const order = new Map<TreeNode, number>();
  const visit = (node: TreeNode): number => {
    order.set(node, order.size);
    let c = nodeCost(node, seats, buckets);
    if (node.type === "decision") for (const child of node.children) c += visit(child);
    cost.set(node, c);
    return c;
  };
  const total = visit(root);
  const cut = new Set<TreeNode>();
  let topCost = 0;
  const expand = (node: TreeNode) => {
    topCost += nodeCost(node, seats, buckets);
    if (node.type !== "decision") return;
    for (const child of node.children) {
      if (child.type === "decision") cut.add(child);
      else topCost += cost.get(child)!;
    }
  };
  expand(root);
  const target = total / (16 * groups);
  for (;;) {
    let worst: TreeNode | null = null;
    for (const node of cut) {
      if (!worst || cost.get(node)! > cost.get(worst)!) worst = node;
    }
    if (!worst || cost.get(worst)! <= target) break;
    const children = worst.type === "decision" ? worst.children.filter((c) => c.type === "decision") : [];
    if (cut.size - 1 + children.length > maxCuts) break;
    cut.delete(worst);
    expand(worst);
  }
  const byCost = [...cut].sort((a, b) => cost.get(b)! - cost.get(a)! || order.get(a)! - order.get(b)!);
  const members: TreeNode[][] = Array.from({ length: groups }, () => []);
  const load = new Array<number>(groups).fill(0);
  for (const node of byCost) {
    let g = 0;
    for (let i = 1; i < groups; i++) if (load[i]! < load[g]!) g = i;
    members[g]!.push(node);
    load[g]! += cost.get(node)!;
  }
  for (const m of members) m.sort((a, b) => order.get(a)! - order.get(b)!);
  return { cut, groups: members, groupCost: load, topCost };
}

/** The decisions of the subtrees at `roots`, in pre-order (the order a `CfrSolver` compiles them in). */
function decisionsBelow(roots: readonly TreeNode[], stop?: ReadonlySet<TreeNode>): DecisionNode[] {
  const out: DecisionNode[] = [];
  const walk = (node: TreeNode) => {
    if (node.type !== "decision") return;
    out.push(node);
    for (const child of node.children) if (!stop?.has(child)) walk(child);
  };
  for (const r of roots) walk(r);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Shared memory

/** Buffers of `n` doubles carved out of SharedArrayBuffers; a buffer is named by its index. */
class Arena {
  static readonly PER_CHUNK = 256;
  readonly chunks: SharedArrayBuffer[] = [];
  private count = 0;
  private readonly index = new Map<Float64Array, number>();
  private readonly n: number;
  constructor(n: number) {
    this.n = n;
  }

  alloc(): Float64Array {
    const per = Arena.PER_CHUNK;
    if (this.count % per === 0) this.chunks.push(new SharedArrayBuffer(per * this.n * 8));
    const id = this.count++;
    const view = new Float64Array(this.chunks[this.chunks.length - 1]!, (id % per) * this.n * 8, this.n);
    this.index.set(view, id);
    return view;
  }

  idOf(view: Float64Array): number {
    const id = this.index.get(view);
    if (id === undefined) throw new Error("buffer not in the arena");
    return id;
  }
}

/** Views of arena buffers by index (one view per index, so a solver's caches see shared buffers as one). */
function arenaViews(chunks: readonly SharedArrayBuffer[], n: number): (id: number) => Float64Array {
  const views = new Map<number, Float64Array>();
  return (id) => {
    let v = views.get(id);
    if (!v) {
      const per = Arena.PER_CHUNK;
      v = new Float64Array(chunks[Math.floor(id / per)]!, (id % per) * n * 8, n);
      views.set(id, v);
    }
    return v;
  };
}

interface RootRefs {
  readonly node: TreeNode;
  readonly reach: number[];
  readonly proj: number[];
  readonly active: number[];
  readonly value: (number | null)[];
  readonly br: (number | null)[];
}

function forestOf(roots: readonly RootRefs[], view: (id: number) => Float64Array): ForestRoot[] {
  return roots.map((r) => ({
    node: r.node,
    reach: r.reach.map(view),
    proj: r.proj.map(view),
    active: r.active,
    value: r.value.map((id) => (id === null ? null : view(id))),
    br: r.br.map((id) => (id === null ? null : view(id))),
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Worker protocol

/**
 * Control words (Int32 indices) of a worker's control buffer; busy seconds and the thread's CPU seconds
 * while busy (Float64) follow at byte 32.
 */
const CMD_SEQ = 0;
const CMD = 1;
const DONE_SEQ = 2;
const STATUS = 3;
const BUSY_OFFSET = 32;
const CONTROL_BYTES = 48;

/** CPU seconds of the calling thread (NaN where Node cannot tell: before 23.9). */
function threadCpu(): number {
  const usage = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage;
  if (!usage) return Number.NaN;
  const u = usage();
  return (u.user + u.system) / 1e6;
}

const Cmd = {
  iterate: 1,
  evaluateTrembled: 2,
  evaluate: 3,
  finalizeReaches: 4,
  finalizeValues: 5,
  results: 6,
  quit: 7,
  saveAverages: 8,
  restoreAverages: 9,
} as const;

/** What a worker receives (structured clone): the game's numbers, its subtrees and the shared buffers. */
interface WorkerInit {
  readonly game: Omit<EngineGame, "root">;
  readonly params: CfrParams;
  readonly chunks: SharedArrayBuffer[];
  readonly roots: RootRefs[];
  readonly control: SharedArrayBuffer;
  readonly port: MessagePort;
}

type WorkerMessage = { error: string } | { results: PackedResults };

function runCommand(solver: CfrSolver, cmd: number, port: MessagePort): void {
  switch (cmd) {
    case Cmd.iterate:
      solver.iterateDown();
      solver.iterateUp();
      return;
    case Cmd.evaluateTrembled:
      solver.evaluateTrembledReaches();
      solver.evaluateTrembledValues();
      return;
    case Cmd.evaluate:
      solver.evaluateReaches();
      solver.evaluateValues();
      return;
    case Cmd.finalizeReaches:
      solver.finalizeReaches();
      return;
    case Cmd.finalizeValues:
      solver.finalizeTrembledReaches();
      solver.finalizeValues();
      return;
    case Cmd.saveAverages:
      solver.saveAverages();
      return;
    case Cmd.restoreAverages:
      solver.restoreAverages();
      return;
    case Cmd.results: {
      const results = solver.packResults();
      const transfer = [
        results.offsets.buffer,
        results.strategies.buffer,
        results.evs.buffer,
        results.hasEvs.buffer,
      ];
      port.postMessage({ results } satisfies WorkerMessage, transfer as ArrayBuffer[]);
      return;
    }
    default:
      throw new Error(`unknown solver worker command ${cmd}`);
  }
}

const errorText = (err: unknown): string =>
  err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);

/** The worker's side: build the subtrees' solver, then run commands until told to quit. */
export function runCfrWorker(init: WorkerInit): void {
  const ctrl = new Int32Array(init.control, 0, 8);
  const busy = new Float64Array(init.control, BUSY_OFFSET, 2);
  const port = init.port;
  const finish = (seq: number, ok: boolean) => {
    Atomics.store(ctrl, STATUS, ok ? 0 : 1);
    Atomics.store(ctrl, DONE_SEQ, seq);
    Atomics.notify(ctrl, DONE_SEQ);
  };
  let solver: CfrSolver;
  try {
    const n = init.game.classCount;
    const game: EngineGame = { ...init.game, root: init.roots[0]!.node };
    solver = new CfrSolver(game, init.params, { forest: forestOf(init.roots, arenaViews(init.chunks, n)) });
  } catch (err) {
    port.postMessage({ error: errorText(err) } satisfies WorkerMessage);
    finish(1, false);
    return;
  }
  finish(1, true);
  let seen = 1;
  for (;;) {
    Atomics.wait(ctrl, CMD_SEQ, seen);
    const seq = Atomics.load(ctrl, CMD_SEQ);
    if (seq === seen) continue;
    seen = seq;
    const cmd = Atomics.load(ctrl, CMD);
    if (cmd === Cmd.quit) {
      finish(seq, true);
      port.close();
      return;
    }
    const t0 = performance.now();
    const c0 = threadCpu();
    try {
      runCommand(solver, cmd, port);
      busy[0]! += (performance.now() - t0) / 1000;
      busy[1]! += threadCpu() - c0;
      finish(seq, true);
    } catch (err) {
      port.postMessage({ error: errorText(err) } satisfies WorkerMessage);
      finish(seq, false);
    }
  }
}

/**
 * The worker's entry module: `cfr-worker.js` next to this module once built (tsup puts every entry and
 * chunk in dist/), `cfr-worker.ts` when running from the sources (tests).
 */
function workerEntry(): URL {
  const here = import.meta.url;
  const entry = new URL(here.endsWith(".ts") ? "./cfr-worker.ts" : "./cfr-worker.js", here);
  if (!existsSync(fileURLToPath(entry)))
    throw new Error(`solver worker entry ${fileURLToPath(entry)} not found (build @ranges/solver)`);
  return entry;
}

/**
 * Bootstrap run in each worker: from the sources, Node strips the types of .ts files but does not map the
 * sources' ".js" imports to ".ts", so a resolve hook does; a failure to load is reported like any error.
 */
const BOOTSTRAP = `
const { workerData } = require("node:worker_threads");
const entry = workerData.entry;
if (entry.endsWith(".ts")) {
  const { registerHooks } = require("node:module");
  const { existsSync } = require("node:fs");
  const { fileURLToPath } = require("node:url");
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.endsWith(".ts")) {
        const ts = new URL(specifier.slice(0, -3) + ".ts", context.parentURL);
        if (existsSync(fileURLToPath(ts))) return nextResolve(ts.href, context);
      }
      return nextResolve(specifier, context);
    },
  });
}
import(entry).catch((err) => {
  const init = workerData.init;
  init.port.postMessage({ error: String((err && err.stack) || err) });
  const ctrl = new Int32Array(init.control, 0, 8);
  Atomics.store(ctrl, ${STATUS}, 1);
  Atomics.store(ctrl, ${DONE_SEQ}, 1);
  Atomics.notify(ctrl, ${DONE_SEQ});
});
`;

interface WorkerHandle {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly ctrl: Int32Array;
  /** The decisions it holds, in its solver's order. */
  readonly decisions: DecisionNode[];
  seq: number;
}

/** A worker that shows no progress for this long beyond the calling thread's own share is given up on. */
const GRACE_SECONDS = 120;

export interface ParallelStats {
  readonly threads: number;
  /** Estimated work per group (group 0 on the calling thread) and of the top. */
  readonly groupCost: readonly number[];
  readonly topCost: number;
  /** Seconds each group spent computing (group 0: the calling thread). */
  readonly busySeconds: readonly number[];
  /** CPU seconds of each group's thread while computing (NaN before Node 23.9). */
  readonly cpuSeconds: readonly number[];
  /** Seconds the calling thread spent on the top part, and its CPU seconds. */
  readonly topSeconds: number;
  readonly topCpuSeconds: number;
  /** Seconds the calling thread waited for workers. */
  readonly waitSeconds: number;
}

/** `CfrSolver` on several threads, with bit-identical results. Call `close()` when done. */
export class ParallelCfrSolver implements Solver {
  readonly game: EngineGame;
  readonly params: CfrParams;
  readonly threads: number;
  private readonly top: CfrSolver;
  private readonly local: CfrSolver | null;
  private readonly localDecisions: DecisionNode[];
  private readonly topDecisions: DecisionNode[];
  private workers: WorkerHandle[];
  /** Each worker's busy seconds and CPU seconds (kept after the workers end). */
  private readonly meters: Float64Array[] = [];
  private readonly partition: Partition;
  private closed = false;
  private version = 0;
  private results: { version: number; results: DecisionResult[] } | null = null;
  private localBusy = 0;
  private localCpu = 0;
  private topSeconds = 0;
  private topCpu = 0;
  private waitSeconds = 0;

  constructor(game: EngineGame, params: CfrParams = DCFR_PARAMS, threads = 2) {
    this.game = game;
    this.params = params;
    const n = game.classCount;
    const seats = game.seats.length;
    const partition = partitionTree(
      game.root,
      seats,
      Math.max(1, Math.floor(threads)),
      512,
      game.multiway?.buckets ?? 1,
    );
    this.partition = partition;
    const arena = new Arena(n);
    const refs = new Map<TreeNode, RootRefs>();
    const t0 = performance.now();
    const c0 = threadCpu();
    this.top = new CfrSolver(game, params, {
      cut: {
        isCut: (node) => partition.cut.has(node),
        alloc: () => arena.alloc(),
        stub: (node, reach, proj, active) => {
          const value = Array.from({ length: seats }, (_, s) => (active.includes(s) ? arena.alloc() : null));
          const br = Array.from({ length: seats }, (_, s) => (active.includes(s) ? arena.alloc() : null));
          const id = (v: Float64Array | null) => (v ? arena.idOf(v) : null);
          refs.set(node, {
            node,
            reach: reach.map((r) => arena.idOf(r)),
            proj: proj.map((p) => arena.idOf(p)),
            active: [...active],
            value: value.map(id),
            br: br.map(id),
          });
          return { value, br };
        },
      },
    });
    this.topSeconds += (performance.now() - t0) / 1000;
    this.topCpu += threadCpu() - c0;
    this.topDecisions = decisionsBelow([game.root], partition.cut);
    const groups = partition.groups.filter((g) => g.length > 0);
    this.threads = Math.max(1, groups.length);
    const { root: _root, ...numbers } = game;
    const entry = groups.length > 1 ? workerEntry() : null;
    this.workers = [];
    try {
      for (const group of groups.slice(1)) {
        const control = new SharedArrayBuffer(CONTROL_BYTES);
        // Command 1 is the start-up (the worker builds its solver and answers with done = 1).
        new Int32Array(control)[CMD_SEQ] = 1;
        const { port1, port2 } = new MessageChannel();
        const init: WorkerInit = {
          game: numbers,
          params,
          chunks: arena.chunks,
          roots: group.map((node) => refs.get(node)!),
          control,
          port: port2,
        };
        const worker = new Worker(BOOTSTRAP, {
          eval: true,
          workerData: { entry: entry!.href, init },
          transferList: [port2],
        });
        worker.unref();
        port1.unref();
        // Errors reach the calling thread through the control buffer; this keeps a late one from crashing it.
        worker.on("error", () => {});
        const busy = new Float64Array(control, BUSY_OFFSET, 2);
        this.meters.push(busy);
        this.workers.push({
          worker,
          port: port1,
          ctrl: new Int32Array(control, 0, 8),
          decisions: decisionsBelow(group),
          seq: 1,
        });
      }
      const t1 = performance.now();
      const mine = groups[0] ?? [];
      this.local =
        mine.length > 0
          ? new CfrSolver(game, params, {
              forest: forestOf(
                mine.map((node) => refs.get(node)!),
                arenaViews(arena.chunks, n),
              ),
            })
          : null;
      this.localDecisions = decisionsBelow(mine);
      this.collect((performance.now() - t1) / 1000);
    } catch (err) {
      this.shutdown();
      throw err;
    }
  }

  get iterations(): number {
    return this.top.iterations;
  }

  iterate(): void {
    this.version++;
    this.guard(() => {
      this.onTop(() => this.top.iterateDown());
      this.step(Cmd.iterate, (s) => {
        s.iterateDown();
        s.iterateUp();
      });
      this.onTop(() => this.top.iterateUp());
    });
  }

  evaluate(): SeatResult[] {
    this.version++;
    return this.guard(() => {
      if (this.top.trembles) {
        this.onTop(() => this.top.evaluateTrembledReaches());
        this.step(Cmd.evaluateTrembled, (s) => {
          s.evaluateTrembledReaches();
          s.evaluateTrembledValues();
        });
        this.onTop(() => this.top.evaluateTrembledValues());
      }
      this.onTop(() => this.top.evaluateReaches());
      this.step(Cmd.evaluate, (s) => {
        s.evaluateReaches();
        s.evaluateValues();
      });
      this.onTop(() => this.top.evaluateValues());
      return this.top.seatResults();
    });
  }

  finalize(): void {
    this.version++;
    this.guard(() => {
      this.onTop(() => this.top.finalizeReaches());
      // The workers must read the published reaches before the top overwrites them with trembled ones.
      this.step(Cmd.finalizeReaches, (s) => s.finalizeReaches());
      this.onTop(() => this.top.finalizeTrembledReaches());
      this.step(Cmd.finalizeValues, (s) => {
        s.finalizeTrembledReaches();
        s.finalizeValues();
      });
      this.onTop(() => this.top.finalizeValues());
    });
  }

  saveAverages(): void {
    this.guard(() => {
      this.onTop(() => this.top.saveAverages());
      this.step(Cmd.saveAverages, (s) => s.saveAverages());
    });
  }

  restoreAverages(): void {
    this.version++;
    this.guard(() => {
      this.onTop(() => this.top.restoreAverages());
      this.step(Cmd.restoreAverages, (s) => s.restoreAverages());
    });
  }

  decisionResults(): DecisionResult[] {
    if (this.results && (this.results.version === this.version || this.closed)) return this.results.results;
    if (this.closed) throw new Error("the parallel solver is closed");
    const results = this.guard(() => {
      const byNode = new Map<DecisionNode, { strategy: Float64Array; evs: Float64Array | null }>();
      const add = (packed: PackedResults, decisions: readonly DecisionNode[]) => {
        decisions.forEach((node, i) => {
          const from = packed.offsets[i]!;
          const to = packed.offsets[i + 1]!;
          byNode.set(node, {
            strategy: packed.strategies.subarray(from, to),
            evs: packed.hasEvs[i] ? packed.evs.subarray(from, to) : null,
          });
        });
      };
      add(this.top.packResults(), this.topDecisions);
      this.step(Cmd.results, (s) => add(s.packResults(), this.localDecisions));
      for (const w of this.workers) {
        const msg = receiveMessageOnPort(w.port)?.message as WorkerMessage | undefined;
        if (!msg || !("results" in msg)) throw new Error("solver worker sent no results");
        add(msg.results, w.decisions);
      }
      return walkDecisionResults(this.game, (node) => {
        const r = byNode.get(node);
        if (!r) throw new Error(`no results for decision ${node.history}`);
        return r;
      });
    });
    this.results = { version: this.version, results };
    return results;
  }

  /** Ends the workers; `decisionResults()` stays readable (gathered now), nothing else works after. */
  close(): void {
    if (this.closed) return;
    try {
      if (this.workers.length > 0 || this.local) this.decisionResults();
    } finally {
      this.shutdown();
    }
  }

  stats(): ParallelStats {
    return {
      threads: this.threads,
      groupCost: this.partition.groupCost,
      topCost: this.partition.topCost,
      busySeconds: [this.localBusy, ...this.meters.map((m) => m[0]!)],
      cpuSeconds: [this.localCpu, ...this.meters.map((m) => m[1]!)],
      topSeconds: this.topSeconds,
      topCpuSeconds: this.topCpu,
      waitSeconds: this.waitSeconds,
    };
  }

  private onTop(f: () => void): void {
    const t0 = performance.now();
    const c0 = threadCpu();
    f();
    this.topSeconds += (performance.now() - t0) / 1000;
    this.topCpu += threadCpu() - c0;
  }

  /** Runs `f`; on any error the workers are ended and the solver is closed. */
  private guard<T>(f: () => T): T {
    if (this.closed) throw new Error("the parallel solver is closed");
    try {
      return f();
    } catch (err) {
      this.shutdown();
      throw err;
    }
  }

  /** One command on every group: the workers' in parallel with the calling thread's own group. */
  private step(cmd: number, local: (s: CfrSolver) => void): void {
    for (const w of this.workers) {
      Atomics.store(w.ctrl, CMD, cmd);
      w.seq++;
      Atomics.store(w.ctrl, CMD_SEQ, w.seq);
      Atomics.notify(w.ctrl, CMD_SEQ);
    }
    const t0 = performance.now();
    const c0 = threadCpu();
    if (this.local) local(this.local);
    const own = (performance.now() - t0) / 1000;
    this.localBusy += own;
    this.localCpu += threadCpu() - c0;
    this.collect(own);
  }

  /** Waits for every worker to finish its current command; throws a worker's error. */
  private collect(ownSeconds: number): void {
    const t0 = performance.now();
    const limit = GRACE_SECONDS + 10 * ownSeconds;
    this.workers.forEach((w, i) => {
      for (;;) {
        const done = Atomics.load(w.ctrl, DONE_SEQ);
        if (done === w.seq) break;
        if ((performance.now() - t0) / 1000 > limit)
          throw new Error(
            `solver worker ${i + 1} stopped answering (no result ${Math.round(limit)}s after the calling thread finished its share: killed or out of memory?)`,
          );
        Atomics.wait(w.ctrl, DONE_SEQ, done, 1000);
      }
      if (Atomics.load(w.ctrl, STATUS) !== 0) {
        const msg = receiveMessageOnPort(w.port)?.message as WorkerMessage | undefined;
        const text = msg && "error" in msg ? msg.error : "unknown error";
        throw new Error(`solver worker ${i + 1} failed: ${text}`);
      }
    });
    this.waitSeconds += (performance.now() - t0) / 1000;
  }

  private shutdown(): void {
    this.closed = true;
    for (const w of this.workers) {
      Atomics.store(w.ctrl, CMD, Cmd.quit);
      Atomics.store(w.ctrl, CMD_SEQ, w.seq + 1);
      Atomics.notify(w.ctrl, CMD_SEQ);
      w.port.close();
      w.worker.terminate().catch(() => {});
    }
    this.workers = [];
  }
}
