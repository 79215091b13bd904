/**
 * Job delivery on PostgreSQL through pg-boss, so any number of worker processes on any machines share one
 * queue: `enqueue` sends the job's id to pg-boss's queue, and each worker takes ids from it (pg-boss
 * claims with `FOR UPDATE SKIP LOCKED`, so one message goes to one worker). While a solve runs, pg-boss's
 * worker sends heartbeats; a worker that dies stops them, and after `heartbeatSeconds` pg-boss delivers
 * the job again (up to MAX_ATTEMPTS runs), where `claimById` takes it over from the silent worker.
 *
 * pg-boss keeps its tables in a schema of its own: `pgboss`, or `<account schema>_boss` when the account
 * tables are not in `public` (tests give each database a schema, so their queues never mix).
 * On SQLite (one machine) workers poll the jobs table instead (`SolveQueue.claim`).
 */

import { PgBoss } from "pg-boss";

export const SOLVE_QUEUE_NAME = "preflop-solve";

export interface DispatchOptions {
  readonly connectionString: string;
  /** The account tables' schema; pg-boss's goes beside it. */
  readonly accountSchema: string | null;
  /** Runs a job gets before pg-boss gives up on it. */
  readonly attempts: number;
  /** Seconds without a heartbeat before pg-boss delivers a job again (>= 10). */
  readonly heartbeatSeconds: number;
  /** Longest a run may hold a job (the largest plan's time limit plus slack). */
  readonly expireInSeconds: number;
}

export class BossDispatch {
  private constructor(private readonly boss: PgBoss) {}

  static async start(o: DispatchOptions): Promise<BossDispatch> {
    const schema = o.accountSchema && o.accountSchema !== "public" ? `${o.accountSchema}_boss` : "pgboss";
    const boss = new PgBoss({ connectionString: o.connectionString, schema, max: 4 });
    // Errors of its background work (maintenance, a dropped connection) are retried by pg-boss itself.
    boss.on("error", () => {});
    await boss.start();
    await boss.createQueue(SOLVE_QUEUE_NAME, {
      retryLimit: Math.max(0, o.attempts - 1),
      heartbeatSeconds: Math.max(10, o.heartbeatSeconds),
      expireInSeconds: o.expireInSeconds,
    });
    return new BossDispatch(boss);
  }

  /** Delivers a job id to one worker. */
  async send(jobId: string): Promise<void> {
    await this.boss.send(SOLVE_QUEUE_NAME, { jobId });
  }

  /**
   * Takes job ids one at a time; `handler` resolves when the job is over (pg-boss heartbeats meanwhile).
   * Returns the worker's id for `offWork`.
   */
  async work(handler: (jobId: string) => Promise<void>): Promise<string> {
    const id = await this.boss.work<{ jobId: string }>(
      SOLVE_QUEUE_NAME,
      { localConcurrency: 1, batchSize: 1, pollingIntervalSeconds: 1 },
      async ([job]) => {
        if (job) await handler(job.data.jobId);
      },
    );
    return id;
  }

  /** Stops one worker from taking more jobs. */
  async offWork(id: string): Promise<void> {
    await this.boss.offWork(SOLVE_QUEUE_NAME, { id, wait: false });
  }

  /** Stops taking jobs (running handlers finish or are stopped by their owner), then closes. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, close: true, timeout: 5000 });
  }
}
