/**
 * Runs queued solves: claims a job, solves it in a worker thread (`solve-thread.ts`, so the process that
 * holds the worker keeps serving), writes progress and a heartbeat every `heartbeatMs`, stores the pack, and
 * takes the next. The API runs one by default (one solve at a time); `ranges worker` runs more on other
 * processes or machines sharing the database.
 *
 * A cancel request stops the thread at the next heartbeat. A thread that crashes or runs out of memory fails
 * its job with the reason; a worker process that dies leaves its job's heartbeat to go stale, and any
 * worker's `recoverStale` queues it again (up to MAX_ATTEMPTS runs, then failed).
 */

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { Worker } from "node:worker_threads";
import { siblingScript } from "@ranges/store";
import type { ClaimedJob, JobProgress, SolveQueue } from "./queue.js";
import type { SolveThreadInput, SolveThreadMessage } from "./solve-thread.js";

export interface SolveWorkerOptions {
  /** Worker name recorded on the jobs it runs (default host:pid:random). */
  readonly name?: string;
  /** Threads per solve (default 1: the API keeps a core for serving). */
  readonly threads?: number;
  /** How often to look for work when idle (default 2000 ms). */
  readonly pollMs?: number;
  /** Heartbeat and progress interval (default 2000 ms). */
  readonly heartbeatMs?: number;
  /** Called with every state change, for logs. */
  readonly log?: (line: string) => void;
}

export class SolveWorker {
  readonly name: string;
  private readonly threads: number;
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly log: (line: string) => void;
  private running = false;
  private current: { job: ClaimedJob; thread: Worker } | null = null;
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  /** pg-boss worker id (PostgreSQL). */
  private bossWorker: Promise<string> | null = null;

  constructor(
    private readonly queue: SolveQueue,
    o: SolveWorkerOptions = {},
  ) {
    this.name = o.name ?? `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
    this.threads = o.threads ?? 1;
    this.pollMs = o.pollMs ?? 2000;
    this.heartbeatMs = o.heartbeatMs ?? 2000;
    this.log = o.log ?? (() => {});
  }

  /** Starts taking jobs. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks for work now (after an enqueue). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Stops: the running job's thread ends and the job is queued again for the next worker. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    const boss = this.bossWorker;
    if (boss && this.queue.dispatch) {
      await this.queue.dispatch.offWork(await boss).catch(() => {});
    }
    const current = this.current;
    if (current) {
      await current.thread.terminate();
    }
    await this.loop;
  }

  private async run(): Promise<void> {
    const dispatch = this.queue.dispatch;
    if (dispatch) {
      // PostgreSQL: pg-boss delivers job ids; this loop only looks after silent workers' jobs.
      this.bossWorker = dispatch.work(async (jobId) => {
        if (!this.running) return;
        const job = await this.queue.claimById(jobId, this.name);
        if (job) await this.solve(job);
      });
      this.bossWorker.catch((error: Error) =>
        this.log(`solve worker ${this.name}: pg-boss refused to start: ${error.message}`),
      );
    }
    while (this.running) {
      let job: ClaimedJob | null = null;
      try {
        await this.queue.recoverStale();
        if (!dispatch) job = await this.queue.claim(this.name);
      } catch (error) {
        this.log(`solve worker ${this.name}: the queue is unavailable: ${(error as Error).message}`);
      }
      if (job) {
        await this.solve(job);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        timer.unref();
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  private async solve(job: ClaimedJob): Promise<void> {
    this.log(`solve ${job.id}: started on ${this.name} (attempt ${job.attempts})`);
    const { url, execArgv } = siblingScript("solve-thread", import.meta.url);
    const input: SolveThreadInput = {
      request: job.request,
      maxSeconds: job.maxSeconds,
      threads: this.threads,
      jobId: job.id,
    };
    // Its own heap limit: the API runs with a small one (pnpm start caps it at 256 MiB), a solve's tree needs more.
    const thread = new Worker(url, {
      workerData: input,
      execArgv,
      resourceLimits: { maxOldGenerationSizeMb: 4096 },
    });
    this.current = { job, thread };
    let progress: JobProgress | null = null;
    let outcome: SolveThreadMessage | null = null;
    let stopReason: string | null = null;
    const beat = setInterval(() => {
      this.queue.heartbeat(job.id, this.name, progress).then(
        (stop) => {
          if (stop && outcome === null) {
            stopReason = "cancelled";
            void thread.terminate();
          }
        },
        () => {},
      );
    }, this.heartbeatMs);
    const exited = await new Promise<string | null>((resolve) => {
      thread.on("message", (m: SolveThreadMessage) => {
        if (m.type === "progress") progress = m.progress;
        else outcome = m;
      });
      thread.on("error", (error) => resolve(error.message));
      thread.on("exit", (code) => resolve(code === 0 ? null : `the solve thread stopped (exit ${code})`));
    });
    clearInterval(beat);
    this.current = null;
    const done = outcome as SolveThreadMessage | null;
    try {
      if (done?.type === "done") {
        await this.queue.finish(job.id, this.name, done.pack, done.summary);
        this.log(
          `solve ${job.id}: done, ${done.summary.iterations} iterations, worst seat ${done.summary.worstPctPot.toFixed(3)}% pot`,
        );
      } else if (!this.running && stopReason === null) {
        // This worker is stopping: the job goes back to the queue for the next one.
        await this.queue.release(job.id, this.name);
        this.log(`solve ${job.id}: released (worker stopping)`);
      } else {
        const reason =
          done?.type === "error" ? done.message : (exited ?? "the solve thread ended without a result");
        await this.queue.stop(job.id, this.name, stopReason === "cancelled" ? null : reason);
        this.log(`solve ${job.id}: ${stopReason ?? `failed: ${reason}`}`);
      }
    } catch (error) {
      this.log(`solve ${job.id}: could not record the outcome: ${(error as Error).message}`);
    }
  }
}
