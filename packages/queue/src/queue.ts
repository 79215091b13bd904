/**
 * The solve queue's records, in the account database (`solve_jobs`, `solve_results`; SQLite or PostgreSQL).
 *
 * A job goes queued -> running -> done | failed | cancelled. A worker claims the oldest queued job with one
 * conditional update (`WHERE status = 'queued'`), so two workers never run the same job; while it runs it
 * writes progress and a heartbeat every few seconds. A running job whose heartbeat is older than
 * `STALE_SECONDS` lost its worker: it is queued again, or failed with the reason after `MAX_ATTEMPTS`.
 * Cancelling a queued job ends it at once; a running one is flagged, and its worker stops at the next
 * heartbeat. The finished pack is stored as bytes, so a worker on any machine can deliver it.
 */

import { randomBytes } from "node:crypto";
import type { AccountDatabase, AccountTables } from "@ranges/access";
import { RangesError } from "@ranges/core";
import { sql } from "kysely";
import { BossDispatch } from "./dispatch.js";
import { SpecSizer, type SpecSizerOptions } from "./sizer.js";
import {
  DEFAULT_ITERATIONS,
  estimateFrom,
  limitsOf,
  type PlanLimits,
  SECONDS_PER_DECISION_ITERATION,
  type SizeClass,
  type SolveRequest,
  type ValidSpec,
} from "./spec.js";

/** Finished solves the estimates are calibrated on (the most recent). */
const CALIBRATION_JOBS = 50;

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export const JOB_STATUSES = ["queued", "running", "done", "failed", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A running job without a heartbeat for this long lost its worker. */
export const STALE_SECONDS = 60;
/** Runs a job gets before a lost worker fails it instead of queuing it again. */
export const MAX_ATTEMPTS = 3;

export interface JobProgress {
  readonly iteration: number;
  /** Worst seat's exploitability, % of the starting pot (measured every few iterations). */
  readonly worstPctPot: number;
  readonly elapsedSeconds: number;
  readonly etaSeconds: number;
}

export interface JobSummary {
  readonly iterations: number;
  readonly seconds: number;
  readonly decisions: number;
  /** The tree's size class (estimates calibrate iterations per class); absent on solves before it was kept. */
  readonly sizeClass?: SizeClass;
  readonly worstPctPot: number;
  readonly seats: readonly { seat: string; pctPot: number; mbbPerHand: number }[];
}

/** A job as its owner sees it. */
export interface SolveJob {
  /** `sol_` and 16 hex characters; also the solution's id once it is done. */
  readonly id: string;
  readonly status: JobStatus;
  readonly request: SolveRequest;
  readonly game: string;
  readonly stack: number;
  readonly decisions: number;
  readonly estimateSeconds: number;
  readonly maxSeconds: number;
  readonly progress: JobProgress | null;
  readonly summary: JobSummary | null;
  readonly error: string | null;
  readonly attempts: number;
  readonly cancelRequested: boolean;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
}

/** The columns a job is read with (`COLUMNS`), typed as the account database declares them. */
type Row = Pick<AccountTables["solve_jobs"], (typeof COLUMNS)[number]>;

function toJob(r: Row): SolveJob {
  const status = r.status as JobStatus;
  const progress = r.progress === null ? null : (JSON.parse(r.progress) as JobProgress);
  // The worker's last report stays on a settled job; nothing is left to run, so nothing is left to wait for.
  const settled = status !== "queued" && status !== "running";
  return {
    id: r.id,
    status,
    request: JSON.parse(r.spec) as SolveRequest,
    game: r.game,
    stack: Number(r.stack),
    decisions: Number(r.decisions),
    estimateSeconds: Number(r.estimate_seconds),
    maxSeconds: Number(r.max_seconds),
    progress: settled && progress !== null ? { ...progress, etaSeconds: 0 } : progress,
    summary: r.summary === null ? null : (JSON.parse(r.summary) as JobSummary),
    error: r.error,
    attempts: Number(r.attempts),
    cancelRequested: Number(r.cancel_requested) === 1,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

const COLUMNS = [
  "id",
  "key_id",
  "status",
  "spec",
  "game",
  "stack",
  "decisions",
  "estimate_seconds",
  "max_seconds",
  "progress",
  "summary",
  "error",
  "attempts",
  "cancel_requested",
  "created_at",
  "started_at",
  "finished_at",
] as const;

/** A claimed job with what its worker needs. */
export interface ClaimedJob {
  readonly id: string;
  readonly keyId: string;
  readonly request: SolveRequest;
  readonly maxSeconds: number;
  readonly attempts: number;
}

const notFound = (id: string) =>
  new RangesError("not_found", `No solve ${id.slice(0, 40)} among yours: list_queued_solves lists them.`);

export interface SolveQueueOptions {
  /** Injected clock for tests. */
  readonly clock?: () => Date;
  /** Seconds without a heartbeat after which a running job's worker counts as lost (default 60). */
  readonly staleSeconds?: number;
  /**
   * PostgreSQL: deliver jobs through pg-boss (default true there; `SolveQueue.open` starts it). A running job
   * is taken over by the next delivery after this many seconds without a heartbeat (>= 10, default 20).
   */
  readonly heartbeatSeconds?: number;
  /** Limits of the thread that sizes requested trees (`size`). */
  readonly sizer?: SpecSizerOptions;
}

/** The longest a run may hold a pg-boss delivery: the largest plan's limit plus slack. */
const DELIVERY_EXPIRY_SECONDS = 2 * 3600;

export class SolveQueue {
  private readonly clock: () => Date;
  private readonly staleSeconds: number;
  /** pg-boss delivery on PostgreSQL; null on SQLite (workers poll). */
  readonly dispatch: BossDispatch | null;
  /** Seconds without a heartbeat before another delivery may take a running job over. */
  readonly takeoverSeconds: number;
  private readonly sizerOptions: SpecSizerOptions;
  private sizer: SpecSizer | null = null;

  constructor(
    private readonly account: AccountDatabase,
    o: SolveQueueOptions = {},
    dispatch: BossDispatch | null = null,
  ) {
    this.clock = o.clock ?? (() => new Date());
    this.staleSeconds = o.staleSeconds ?? STALE_SECONDS;
    this.dispatch = dispatch;
    this.takeoverSeconds = Math.max(10, o.heartbeatSeconds ?? 20) - 5;
    this.sizerOptions = o.sizer ?? {};
  }

  /** The queue over an account database; on PostgreSQL it starts pg-boss delivery. */
  static async open(account: AccountDatabase, o: SolveQueueOptions = {}): Promise<SolveQueue> {
    if (account.backend !== "postgres" || account.url === null) return new SolveQueue(account, o);
    const dispatch = await BossDispatch.start({
      connectionString: account.url,
      accountSchema: account.schema,
      attempts: MAX_ATTEMPTS,
      heartbeatSeconds: Math.max(10, o.heartbeatSeconds ?? 20),
      expireInSeconds: DELIVERY_EXPIRY_SECONDS,
    });
    return new SolveQueue(account, o, dispatch);
  }

  /** Stops pg-boss (PostgreSQL) and the sizing thread. */
  async close(): Promise<void> {
    await this.sizer?.close();
    await this.dispatch?.stop();
  }

  /**
   * Validates and sizes a request on the sizing thread (`SpecSizer`), never on the caller's event loop: a
   * clear 400 for anything the solver cannot build or that is too large to size; one at a time per key.
   */
  async size(keyId: string, request: unknown): Promise<ValidSpec> {
    this.sizer ??= new SpecSizer(this.sizerOptions);
    const spec = await this.sizer.size(request, keyId);
    return this.calibrate(spec);
  }

  /**
   * The estimate from this machine's own finished solves (the last `CALIBRATION_JOBS`): seconds per
   * decision-iteration is their median, and the iterations the median of those of the same size class;
   * either falls back to `spec.ts`'s defaults until a solve has finished. Solves on other machines of one
   * database count too: they share the workers' queue.
   */
  async calibrate(spec: ValidSpec): Promise<ValidSpec> {
    const rows = await this.db
      .selectFrom("solve_jobs")
      .select(["summary", "decisions"])
      .where("status", "=", "done")
      .orderBy("finished_at", "desc")
      .limit(CALIBRATION_JOBS)
      .execute();
    const rates: number[] = [];
    const iterations: number[] = [];
    for (const r of rows) {
      if (r.summary === null) continue;
      const summary = JSON.parse(r.summary) as JobSummary;
      const decisions = Number(r.decisions);
      if (!(summary.iterations > 0 && decisions > 0 && summary.seconds > 0)) continue;
      rates.push(summary.seconds / (decisions * summary.iterations));
      if (summary.sizeClass === spec.sizeClass) iterations.push(summary.iterations);
    }
    const rate = median(rates) ?? SECONDS_PER_DECISION_ITERATION;
    const iters = median(iterations) ?? DEFAULT_ITERATIONS[spec.sizeClass];
    return { ...spec, estimateSeconds: estimateFrom(spec.decisions, iters, rate) };
  }

  private get db() {
    return this.account.db;
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /**
   * Records a validated spec for a key holder under its plan's limits (`limitsOf(plan)`; a number is the
   * time limit with the standard plan's other limits). A key with `limits.active` solves queued or running
   * is refused with 429 until one ends: counted and inserted in one transaction (PostgreSQL: under a
   * per-key advisory lock), so concurrent requests cannot pass the cap together.
   */
  async enqueue(keyId: string, spec: ValidSpec, limits: PlanLimits | number): Promise<SolveJob> {
    const plan = typeof limits === "number" ? { ...limitsOf("standard"), seconds: limits } : limits;
    const id = `sol_${randomBytes(8).toString("hex")}`;
    await this.db.transaction().execute(async (tx) => {
      if (this.account.backend === "postgres") {
        await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`solve_jobs:${keyId}`}, 0))`.execute(tx);
      }
      const active = await tx
        .selectFrom("solve_jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("key_id", "=", keyId)
        .where("status", "in", ["queued", "running"])
        .executeTakeFirstOrThrow();
      if (Number(active.n) >= plan.active) {
        throw new RangesError(
          "rate_limited",
          `You have ${Number(active.n)} solves queued or running, the most your plan allows at once (${plan.active}); queue the next when one is done, or cancel one (DELETE /api/v1/solves/{id}, or get_queued_solve with cancel).`,
          { active: Number(active.n), limit: plan.active, retryAfterSeconds: 60 },
        );
      }
      await this.insertJob(tx, id, keyId, spec, plan.seconds);
    });
    await this.dispatch?.send(id);
    return (await this.get(keyId, id))!;
  }

  private async insertJob(
    tx: AccountDatabase["db"],
    id: string,
    keyId: string,
    spec: ValidSpec,
    maxSeconds: number,
  ): Promise<void> {
    await tx
      .insertInto("solve_jobs")
      .values({
        id,
        key_id: keyId,
        status: "queued",
        spec: JSON.stringify(spec.request),
        game: spec.game,
        stack: spec.stack,
        decisions: spec.decisions,
        estimate_seconds: spec.estimateSeconds,
        max_seconds: maxSeconds,
        progress: null,
        summary: null,
        error: null,
        attempts: 0,
        worker: null,
        cancel_requested: 0,
        created_at: this.now(),
        started_at: null,
        heartbeat_at: null,
        finished_at: null,
      })
      .execute();
  }

  /** The caller's job, or undefined. */
  async get(keyId: string, id: string): Promise<SolveJob | undefined> {
    const row = await this.db
      .selectFrom("solve_jobs")
      .select(COLUMNS)
      .where("id", "=", id)
      .where("key_id", "=", keyId)
      .executeTakeFirst();
    return row ? toJob(row) : undefined;
  }

  /** The caller's job, or a 404 naming the tool that lists them. */
  async require(keyId: string, id: string): Promise<SolveJob> {
    const job = await this.get(keyId, id);
    if (!job) throw notFound(id);
    return job;
  }

  /** The caller's jobs, newest first. */
  async list(keyId: string, limit = 50, status?: JobStatus): Promise<SolveJob[]> {
    let q = this.db.selectFrom("solve_jobs").select(COLUMNS).where("key_id", "=", keyId);
    if (status) q = q.where("status", "=", status);
    const rows = await q.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
    return rows.map((r) => toJob(r));
  }

  /** Cancels the caller's job: a queued one at once, a running one at its worker's next heartbeat. */
  async cancel(keyId: string, id: string): Promise<SolveJob> {
    const job = await this.require(keyId, id);
    if (job.status === "queued") {
      await this.db
        .updateTable("solve_jobs")
        .set({ status: "cancelled", cancel_requested: 1, finished_at: this.now() })
        .where("id", "=", id)
        .where("status", "=", "queued")
        .execute();
    } else if (job.status === "running") {
      await this.db.updateTable("solve_jobs").set({ cancel_requested: 1 }).where("id", "=", id).execute();
    }
    return this.require(keyId, id);
  }

  /**
   * Claims the fairest queued job for `worker` (one conditional update: never two workers on one job): keys
   * take turns. A job's turn is its key's running jobs plus its place among the key's queued jobs, and the
   * lowest turn runs first (oldest first among equals), so a key with 60 jobs queued runs one of them, then
   * another key's first, and so on, rather than all of its jobs before anyone else's.
   */
  async claim(worker: string): Promise<ClaimedJob | null> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const next = await this.db
        .selectFrom("solve_jobs as j")
        .select(["j.id", "j.key_id", "j.spec", "j.max_seconds", "j.attempts"])
        .where("j.status", "=", "queued")
        .orderBy(
          (eb) =>
            sql<number>`(${eb
              .selectFrom("solve_jobs as r")
              .select((e) => e.fn.countAll().as("n"))
              .where("r.key_id", "=", eb.ref("j.key_id"))
              .where("r.status", "=", "running")}) + (${eb
              .selectFrom("solve_jobs as q")
              .select((e) => e.fn.countAll().as("n"))
              .where("q.key_id", "=", eb.ref("j.key_id"))
              .where("q.status", "=", "queued")
              .where((e) =>
                e.or([
                  e("q.created_at", "<", e.ref("j.created_at")),
                  e.and([e("q.created_at", "=", e.ref("j.created_at")), e("q.id", "<", e.ref("j.id"))]),
                ]),
              )})`,
        )
        .orderBy("j.created_at")
        .orderBy("j.id")
        .limit(1)
        .executeTakeFirst();
      if (!next) return null;
      const now = this.now();
      const taken = await this.db
        .updateTable("solve_jobs")
        .set({
          status: "running",
          worker,
          attempts: Number(next.attempts) + 1,
          started_at: now,
          heartbeat_at: now,
          progress: null,
        })
        .where("id", "=", next.id)
        .where("status", "=", "queued")
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) {
        return {
          id: next.id,
          keyId: next.key_id,
          request: JSON.parse(next.spec) as SolveRequest,
          maxSeconds: Number(next.max_seconds),
          attempts: Number(next.attempts) + 1,
        };
      }
    }
    return null;
  }

  /**
   * Takes one delivery (pg-boss): a running job whose worker went silent for `takeoverSeconds` (pg-boss
   * delivered it again) is taken over; otherwise the delivery is a turn to run the fairest queued job
   * (`claim`), which need not be the one delivered: every queued job has a delivery of its own still to
   * come, so none is left behind. Null when nothing is queued.
   */
  async claimById(id: string, worker: string): Promise<ClaimedJob | null> {
    const row = await this.db
      .selectFrom("solve_jobs")
      .select([
        "id",
        "key_id",
        "spec",
        "max_seconds",
        "attempts",
        "status",
        "heartbeat_at",
        "cancel_requested",
      ])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return null;
    const cutoff = new Date(this.clock().getTime() - this.takeoverSeconds * 1000).toISOString();
    const takeover = row.status === "running" && row.heartbeat_at !== null && row.heartbeat_at < cutoff;
    if (!takeover) return this.claim(worker);
    if (takeover && (Number(row.attempts) >= MAX_ATTEMPTS || Number(row.cancel_requested) === 1)) {
      await this.failStale(row.id, Number(row.cancel_requested) === 1);
      return null;
    }
    const now = this.now();
    let q = this.db
      .updateTable("solve_jobs")
      .set({
        status: "running",
        worker,
        attempts: Number(row.attempts) + 1,
        started_at: now,
        heartbeat_at: now,
        progress: null,
      })
      .where("id", "=", id)
      .where("status", "=", row.status);
    q =
      row.heartbeat_at === null
        ? q.where("heartbeat_at", "is", null)
        : q.where("heartbeat_at", "=", row.heartbeat_at);
    const taken = await q.executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return null;
    return {
      id: row.id,
      keyId: row.key_id,
      request: JSON.parse(row.spec) as SolveRequest,
      maxSeconds: Number(row.max_seconds),
      attempts: Number(row.attempts) + 1,
    };
  }

  private async failStale(id: string, cancelled: boolean): Promise<void> {
    await this.db
      .updateTable("solve_jobs")
      .set(
        cancelled
          ? { status: "cancelled", finished_at: this.now() }
          : {
              status: "failed",
              error: `its worker stopped answering ${MAX_ATTEMPTS} times; the spot may be too large for the workers' memory or time`,
              finished_at: this.now(),
            },
      )
      .where("id", "=", id)
      .where("status", "=", "running")
      .execute();
  }

  /** Records progress and the heartbeat; true when the owner asked to cancel (the worker then stops). */
  async heartbeat(id: string, worker: string, progress: JobProgress | null): Promise<boolean> {
    await this.db
      .updateTable("solve_jobs")
      .set({ heartbeat_at: this.now(), ...(progress ? { progress: JSON.stringify(progress) } : {}) })
      .where("id", "=", id)
      .where("worker", "=", worker)
      .where("status", "=", "running")
      .execute();
    const row = await this.db
      .selectFrom("solve_jobs")
      .select(["cancel_requested", "status", "worker"])
      .where("id", "=", id)
      .executeTakeFirst();
    return !row || Number(row.cancel_requested) === 1 || row.status !== "running" || row.worker !== worker;
  }

  /** Stores the finished pack and marks the job done (only if this worker still holds it). */
  async finish(id: string, worker: string, pack: Uint8Array, summary: JobSummary): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const done = await tx
        .updateTable("solve_jobs")
        .set({ status: "done", summary: JSON.stringify(summary), finished_at: this.now(), error: null })
        .where("id", "=", id)
        .where("worker", "=", worker)
        .where("status", "=", "running")
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) return false;
      await tx.insertInto("solve_results").values({ job_id: id, pack }).execute();
      return true;
    });
  }

  /** Ends a running job: cancelled when its owner asked, else failed with the reason. */
  async stop(id: string, worker: string, reason: string | null): Promise<void> {
    const row = await this.db
      .selectFrom("solve_jobs")
      .select(["cancel_requested"])
      .where("id", "=", id)
      .executeTakeFirst();
    const cancelled = row !== undefined && Number(row.cancel_requested) === 1;
    await this.db
      .updateTable("solve_jobs")
      .set({
        status: cancelled ? "cancelled" : "failed",
        error: cancelled ? null : (reason ?? "the solve stopped"),
        finished_at: this.now(),
      })
      .where("id", "=", id)
      .where("worker", "=", worker)
      .where("status", "=", "running")
      .execute();
  }

  /** Puts a running job back in the queue (its worker is shutting down); the run does not count. */
  async release(id: string, worker: string): Promise<void> {
    await this.db
      .updateTable("solve_jobs")
      .set((eb) => ({ status: "queued", worker: null, heartbeat_at: null, attempts: eb("attempts", "-", 1) }))
      .where("id", "=", id)
      .where("worker", "=", worker)
      .where("status", "=", "running")
      .execute();
    await this.dispatch?.send(id);
  }

  /**
   * Running jobs whose worker went silent: queued again (attempts left) or failed with the reason.
   * Returns how many were touched.
   */
  async recoverStale(): Promise<number> {
    const cutoff = new Date(this.clock().getTime() - this.staleSeconds * 1000).toISOString();
    const stale = await this.db
      .selectFrom("solve_jobs")
      .select(["id", "attempts", "worker", "cancel_requested"])
      .where("status", "=", "running")
      .where("heartbeat_at", "<", cutoff)
      .execute();
    for (const job of stale) {
      const retry = Number(job.attempts) < MAX_ATTEMPTS && Number(job.cancel_requested) === 0;
      await this.db
        .updateTable("solve_jobs")
        .set(
          retry
            ? { status: "queued", worker: null, heartbeat_at: null }
            : Number(job.cancel_requested) === 1
              ? { status: "cancelled", finished_at: this.now() }
              : {
                  status: "failed",
                  error: `its worker (${job.worker ?? "unknown"}) stopped answering ${MAX_ATTEMPTS} times; the spot may be too large for the workers' memory or time`,
                  finished_at: this.now(),
                },
        )
        .where("id", "=", job.id)
        .where("status", "=", "running")
        .where("worker", "=", job.worker)
        .execute();
      // PostgreSQL: a job queued again needs a delivery (a duplicate is harmless: claimById takes it once).
      if (retry) await this.dispatch?.send(job.id);
    }
    return stale.length;
  }

  /** The finished pack of the caller's job, or undefined when it is not done. */
  async resultPack(keyId: string, id: string): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom("solve_results")
      .innerJoin("solve_jobs", "solve_jobs.id", "solve_results.job_id")
      .select("solve_results.pack")
      .where("solve_jobs.id", "=", id)
      .where("solve_jobs.key_id", "=", keyId)
      .executeTakeFirst();
    return row?.pack;
  }
}
