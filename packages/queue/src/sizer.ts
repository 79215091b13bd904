/**
 * Sizes solve requests off the event loop. Building a preflop tree takes from milliseconds to seconds and
 * its memory grows with the tree, so `validateSolveRequest` runs in a worker thread (`size-thread.ts`) with
 * a heap cap and a time limit: a request that needs more is refused with a clear 400, the thread is replaced,
 * and the serving thread never waits on the build. One sizing runs at a time; at most `maxWaiting` wait,
 * and a caller (`owner`) has at most one waiting or running, so one key cannot fill the line.
 */

import { Worker } from "node:worker_threads";
import { RangesError, type RangesErrorCode } from "@ranges/core";
import { siblingScript } from "@ranges/store";
import type { SizeThreadReply } from "./size-thread.js";
import { tooLargeMessage, type ValidSpec } from "./spec.js";

export interface SpecSizerOptions {
  /** The longest one sizing may take (default 20 s). */
  readonly timeoutMs?: number;
  /** The sizing thread's heap cap in MiB (default 384). */
  readonly heapMb?: number;
  /** Requests that may wait behind the running one (default 8). */
  readonly maxWaiting?: number;
}

interface Job {
  readonly id: number;
  readonly request: unknown;
  readonly owner: string;
  readonly resolve: (spec: ValidSpec) => void;
  readonly reject: (error: Error) => void;
}

export class SpecSizer {
  private readonly timeoutMs: number;
  private readonly heapMb: number;
  private readonly maxWaiting: number;
  private readonly waiting: Job[] = [];
  private running: { job: Job; timer: ReturnType<typeof setTimeout> } | null = null;
  private worker: Worker | null = null;
  private nextId = 1;
  private closed = false;

  constructor(o: SpecSizerOptions = {}) {
    this.timeoutMs = o.timeoutMs ?? 20_000;
    this.heapMb = o.heapMb ?? 384;
    this.maxWaiting = o.maxWaiting ?? 8;
  }

  /** Validates and sizes `request` for `owner` (a key id); rejects with the `RangesError` to answer. */
  size(request: unknown, owner: string): Promise<ValidSpec> {
    if (this.closed)
      return Promise.reject(new RangesError("pack_unavailable", "The server is shutting down."));
    const busy = this.running?.job.owner === owner || this.waiting.some((j) => j.owner === owner);
    if (busy) {
      return Promise.reject(
        new RangesError(
          "rate_limited",
          "Your previous solve request is still being sized; send the next one when it has been answered.",
          { retryAfterSeconds: 2 },
        ),
      );
    }
    if (this.waiting.length >= this.maxWaiting) {
      return Promise.reject(
        new RangesError(
          "pack_unavailable",
          `${this.waiting.length + 1} solve requests are being sized; ask again in a few seconds.`,
          { retryAfterSeconds: 5 },
        ),
      );
    }
    return new Promise<ValidSpec>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, request, owner, resolve, reject });
      this.pump();
    });
  }

  /** Stops the thread; waiting requests are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) {
      job.reject(new RangesError("pack_unavailable", "The server is shutting down."));
    }
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const job = this.waiting.shift();
    if (!job) return;
    const worker = this.start();
    worker.ref();
    const timer = setTimeout(() => {
      this.fail(tooLargeMessage(`sizing it took more than ${Math.round(this.timeoutMs / 1000)} s`));
    }, this.timeoutMs);
    this.running = { job, timer };
    worker.postMessage({ id: job.id, request: job.request });
  }

  /** Ends the running job with a 400 and replaces the thread (it may be stuck or out of memory). */
  private fail(message: string): void {
    const worker = this.worker;
    this.worker = null;
    worker?.removeAllListeners();
    void worker?.terminate();
    this.settle((job) => job.reject(new RangesError("invalid_parameter", message)));
  }

  private settle(finish: (job: Job) => void): void {
    const current = this.running;
    if (!current) return;
    clearTimeout(current.timer);
    this.running = null;
    finish(current.job);
    this.worker?.unref();
    this.pump();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const { url, execArgv } = siblingScript("size-thread", import.meta.url);
    const worker = new Worker(url, {
      execArgv,
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    worker.on("message", (reply: SizeThreadReply) => {
      if (this.running?.job.id !== reply.id) return;
      this.settle((job) => {
        if ("spec" in reply) job.resolve(reply.spec);
        else
          job.reject(
            new RangesError(
              reply.error.code as RangesErrorCode,
              reply.error.message,
              reply.error.hint as never,
            ),
          );
      });
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const memory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
      this.fail(
        tooLargeMessage(
          memory ? `sizing it needed more than ${this.heapMb} MiB` : `sizing it failed (${error.message})`,
        ),
      );
    });
    worker.on("exit", () => {
      if (this.worker === worker) {
        this.worker = null;
        if (this.running) this.fail(tooLargeMessage("the sizing thread stopped"));
      }
    });
    this.worker = worker;
    return worker;
  }
}
