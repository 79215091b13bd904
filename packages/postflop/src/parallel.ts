/**
 * Units on several threads: `threads - 1` worker threads and the calling thread take units from one atomic
 * counter (costliest first) until none is left. Storage and the exchange buffers are SharedArrayBuffers;
 * each worker builds the same `PostflopGame` from the config and runs the same `Engine`, so a unit's numbers
 * do not depend on the thread that ran it (and the whole solve does not depend on the number of threads).
 *
 * The calling thread blocks (Atomics.wait) while the units run, so the solver's API stays synchronous. A
 * worker's error is rethrown on the calling thread; a worker that stops answering is reported.
 */

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  type TransferListItem,
  Worker,
} from "node:worker_threads";
import { type PostflopConfig, resolveConfig } from "./config.js";
import type { Discount } from "./dcfr.js";
import { Engine, type Mode } from "./engine.js";
import { PostflopGame, type Showdowns } from "./game.js";
import { type ChunkLayout, chunkViews } from "./kernels.js";
import { claimOrder, runUnits, type SolverBuffers, type UnitRunner } from "./solver.js";

const SEQ = 0;
const MODE = 1;
const TRAVERSER = 2;
const NEXT = 3;
const DONE = 4;
const READY = 5;
const FAILED = 6;
const STOP = -1;

export interface WorkerInit {
  readonly config: PostflopConfig;
  readonly isomorphism: boolean;
  readonly prune: boolean;
  readonly chunkFloats: number | undefined;
  /** The caller's showdown orders (shared memory: the worker evaluates no hand and copies nothing). */
  readonly showdowns: Showdowns;
  /** The storage chunks' memories and layouts; the worker uses working-vector region `thread`. */
  readonly memories: WebAssembly.Memory[];
  readonly layouts: ChunkLayout[];
  readonly thread: number;
  readonly leafReach: SharedArrayBuffer;
  readonly unitOut: SharedArrayBuffer;
  readonly control: SharedArrayBuffer;
  readonly discount: SharedArrayBuffer;
}

/** A worker entry module of this package (`worker`, `subgame-worker`), built next to this file. */
function workerEntry(name: string): URL {
  const here = import.meta.url;
  const entry = new URL(here.endsWith(".ts") ? `./${name}.ts` : `./${name}.js`, here);
  if (!existsSync(fileURLToPath(entry))) {
    throw new Error(`postflop worker entry ${fileURLToPath(entry)} not found (build @ranges/postflop)`);
  }
  return entry;
}

/**
 * Loads the worker module; from the TypeScript sources (tests) it first maps `./x.js` imports of `.ts`
 * files to the `.ts` files, which Node.js runs by stripping their types.
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
      if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL && context.parentURL.endsWith(".ts")) {
        const ts = new URL(specifier.slice(0, -3) + ".ts", context.parentURL);
        if (existsSync(fileURLToPath(ts))) return nextResolve(ts.href, context);
      }
      return nextResolve(specifier, context);
    },
  });
}
import(entry).catch((error) => { throw error; });
`;

/** Young generation of a solver worker thread's heap, MiB (see `startWorker`). */
const YOUNG_GENERATION_MB = 4;

/** Starts a worker thread on one of this package's worker entries; it reads `workerData` as given. */
export function startWorker(
  name: "worker" | "subgame-worker",
  data: Record<string, unknown>,
  transferList: readonly TransferListItem[] = [],
): Worker {
  const entry = workerEntry(name);
  return new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { ...data, entry: entry.href },
    transferList: [...transferList],
    // A solver worker allocates little once its game is built; V8's default young generation (up to 16 MiB
    // on a machine of this size) would stay committed for nothing. 4 MiB: the flop benchmark's peak RSS is
    // 20 MiB lower (BENCHMARKS.md, "The engine's memory beside the reference's"). The subgame worker builds
    // a game per request and keeps the default.
    ...(name === "worker" ? { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } } : {}),
  });
}

export class ThreadRunner implements UnitRunner {
  private readonly engine: Engine;
  private readonly buffers: SolverBuffers;
  private readonly control: Int32Array;
  private readonly discount: Float64Array;
  private readonly order: Int32Array;
  private readonly workers: Worker[] = [];
  private readonly ports: MessagePort[] = [];
  private readonly errors: string[] = [];
  private ready = false;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    engine: Engine,
    buffers: SolverBuffers,
    threads: number,
    config: PostflopConfig,
    isomorphism: boolean,
    chunkFloats?: number,
  ) {
    this.engine = engine;
    this.buffers = buffers;
    this.control = new Int32Array(new SharedArrayBuffer(16 * 4));
    this.discount = new Float64Array(new SharedArrayBuffer(4 * 8));
    this.order = claimOrder(engine.game);
    const sab = (view: ArrayBufferView) => view.buffer as SharedArrayBuffer;
    const init: WorkerInit = {
      config,
      isomorphism,
      prune: engine.prune,
      chunkFloats,
      showdowns: { sdKey: engine.game.sdKey, sdLength: engine.game.sdLength },
      memories: buffers.chunks.map((c) => c.memory),
      layouts: buffers.chunks.map((c) => c.layout),
      thread: 0,
      leafReach: sab(buffers.leafReach),
      unitOut: sab(buffers.unitOut),
      control: this.control.buffer as SharedArrayBuffer,
      discount: this.discount.buffer as SharedArrayBuffer,
    };
    for (let i = 0; i < threads - 1; i++) {
      const { port1, port2 } = new MessageChannel();
      const worker = startWorker("worker", { init: { ...init, thread: i + 1 }, port: port2 }, [port2]);
      worker.on("error", (error) => {
        this.errors.push(String(error?.stack ?? error));
        Atomics.add(this.control, FAILED, 1);
      });
      worker.unref();
      port1.unref();
      this.workers.push(worker);
      this.ports.push(port1);
    }
  }

  private waitFor(index: number, target: number): void {
    const started = Date.now();
    for (;;) {
      const now = Atomics.load(this.control, index);
      if (now >= target) return;
      if (Atomics.load(this.control, FAILED) > 0) this.fail();
      Atomics.wait(this.control, index, now, 1000);
      if (Date.now() - started > 600_000 && Atomics.load(this.control, index) === now) {
        throw new Error("postflop worker threads stopped answering");
      }
    }
  }

  private fail(): never {
    // Let the failing worker's message arrive.
    const deadline = Date.now() + 2000;
    while (this.errors.length === 0 && Date.now() < deadline) {
      for (const port of this.ports) {
        const message = receiveMessageOnPort(port)?.message as { error?: string } | undefined;
        if (message?.error) this.errors.push(message.error);
      }
      if (this.errors.length === 0) Atomics.wait(this.control, FAILED, 0, 10);
    }
    this.close();
    throw new Error(`a postflop worker thread failed: ${this.errors[0] ?? "unknown error"}`);
  }

  run(mode: Mode, traverser: number, discount: Discount): void {
    const c = this.control;
    if (!this.ready) {
      this.waitFor(READY, this.workers.length);
      this.ready = true;
    }
    Atomics.store(c, MODE, mode);
    Atomics.store(c, TRAVERSER, traverser);
    this.discount[0] = discount.positive;
    this.discount[1] = discount.negative;
    this.discount[2] = discount.strategy;
    Atomics.store(c, NEXT, 0);
    Atomics.store(c, DONE, 0);
    Atomics.add(c, SEQ, 1);
    Atomics.notify(c, SEQ);
    const total = this.engine.game.units.length;
    runUnits(
      this.engine,
      this.buffers,
      mode,
      traverser,
      discount,
      () => {
        const k = Atomics.add(c, NEXT, 1);
        return k < total ? k : -1;
      },
      this.order,
    );
    this.waitFor(DONE, this.workers.length);
    if (Atomics.load(c, FAILED) > 0) this.fail();
  }

  closed(): Promise<void> {
    return this.exited;
  }

  close(): void {
    if (this.workers.length === 0) return;
    Atomics.store(this.control, MODE, STOP);
    Atomics.add(this.control, SEQ, 1);
    Atomics.notify(this.control, SEQ);
    this.exited = Promise.all(this.workers.map((worker) => worker.terminate())).then(() => {});
    for (const port of this.ports) port.close();
    this.workers.length = 0;
    this.ports.length = 0;
  }
}

/** The worker thread's loop (src/worker.ts calls it). */
export function runWorker(init: WorkerInit, post: (message: unknown) => void): void {
  const control = new Int32Array(init.control);
  try {
    const game = new PostflopGame(resolveConfig(init.config), {
      isomorphism: init.isomorphism,
      compressed: init.layouts[0]?.entryBytes === 2,
      ...(init.chunkFloats ? { chunkFloats: init.chunkFloats } : {}),
      showdowns: init.showdowns,
    });
    const chunks = init.memories.map((memory, i) => chunkViews(memory, init.layouts[i]!));
    const buffers: SolverBuffers = {
      chunks,
      regret: chunks.map((c) => c.regret),
      cum: chunks.map((c) => c.cum),
      leafReach: new Float64Array(init.leafReach),
      unitOut: new Float64Array(init.unitOut),
    };
    const engine = new Engine(game, chunks, init.thread);
    engine.prune = init.prune;
    const order = claimOrder(game);
    const discount = new Float64Array(init.discount);
    const total = game.units.length;
    let seq = Atomics.load(control, SEQ);
    Atomics.add(control, READY, 1);
    Atomics.notify(control, READY);
    for (;;) {
      Atomics.wait(control, SEQ, seq);
      seq = Atomics.load(control, SEQ);
      const mode = Atomics.load(control, MODE);
      if (mode === STOP) return;
      runUnits(
        engine,
        buffers,
        mode as Mode,
        Atomics.load(control, TRAVERSER),
        { positive: discount[0]!, negative: discount[1]!, strategy: discount[2]! },
        () => {
          const k = Atomics.add(control, NEXT, 1);
          return k < total ? k : -1;
        },
        order,
      );
      Atomics.add(control, DONE, 1);
      Atomics.notify(control, DONE);
    }
  } catch (error) {
    post({ error: String((error as Error)?.stack ?? error) });
    Atomics.add(control, FAILED, 1);
    Atomics.notify(control, FAILED);
    Atomics.notify(control, DONE);
    Atomics.notify(control, READY);
  }
}
