/**
 * `ranges worker` processes on one queue, as run in production (the CLI source, types stripped by Node):
 * - two workers on PostgreSQL never run the same job (every job ends done after exactly one run);
 * - a worker killed mid-solve leaves its job to another worker, which runs it again to the end.
 */

import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessStore } from "@ranges/access";
import { type SolveJob, SolveQueue, validateSolveRequest } from "@ranges/queue";
import { afterAll, describe, expect, it } from "vitest";
import {
  dropSchemas,
  killAll,
  POSTGRES_AVAILABLE,
  spawnSource,
  TEST_DATABASE_URL,
  withSearchPath,
} from "./processes.js";

afterAll(killAll);

const startWorker = (env: Record<string, string>): ChildProcess =>
  spawnSource("cli", ["worker", "--threads", "1"], env, ["ignore", "pipe", "pipe"]);

const jam = (stack: number) =>
  validateSolveRequest({ game: "nl/v2", stack, changes: { jamOrFold: true, allInFrom: 1 } });

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 180_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!POSTGRES_AVAILABLE)("two worker processes on PostgreSQL", () => {
  const schema = `t_workers_${process.pid}`;
  const url = withSearchPath(TEST_DATABASE_URL, schema);
  afterAll(() => dropSchemas([schema]));

  it("never run the same job: four jobs, each done after exactly one run", async () => {
    const access = await AccessStore.open(TEST_DATABASE_URL, { schema });
    const queue = await SolveQueue.open(access.database);
    const jobs: SolveJob[] = [];
    for (const stack of [10, 11, 12, 13]) jobs.push(await queue.enqueue("aaaaaaaaaaaa", jam(stack), 600));
    startWorker({ DATABASE_URL: url });
    startWorker({ DATABASE_URL: url });
    const done = await until("all done", async () => {
      const list = await queue.list("aaaaaaaaaaaa");
      return list.every((j) => j.status === "done") ? list : undefined;
    });
    expect(done).toHaveLength(4);
    for (const j of done) expect(j.attempts).toBe(1);
    await queue.close();
    await access.close();
  });
});

describe("a worker killed mid-solve", () => {
  it("leaves its job to another worker, which runs it again to the end", async () => {
    const dir = mkdtempSync(join(tmpdir(), "api-workers-"));
    try {
      const file = join(dir, "access.sqlite");
      const access = await AccessStore.open(file);
      const queue = await SolveQueue.open(access.database);
      const job = await queue.enqueue("aaaaaaaaaaaa", jam(10), 600);
      const env = { ACCESS_DB: file, DATABASE_URL: "", SOLVE_STALE_SECONDS: "4" };
      const first = startWorker(env);
      await until("running", async () => (await queue.get("aaaaaaaaaaaa", job.id))?.status === "running");
      first.kill("SIGKILL");
      startWorker(env);
      const ended = await until("done again", async () => {
        const j = await queue.get("aaaaaaaaaaaa", job.id);
        return j?.status === "done" || j?.status === "failed" ? j : undefined;
      });
      expect(ended.status).toBe("done");
      expect(ended.attempts).toBe(2);
      await access.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
