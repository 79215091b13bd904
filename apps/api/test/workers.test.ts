/**
 * `ranges worker` processes on one queue, as run in production (the CLI source, types stripped by Node):
 * - two workers on PostgreSQL never run the same job (every job ends done after exactly one run);
 * - a worker killed mid-solve leaves its job to another worker, which runs it again to the end.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AccessStore } from "@ranges/access";
import { type SolveJob, SolveQueue, validateSolveRequest } from "@ranges/queue";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const HOOKS = `export async function resolve(s, c, next) {
  try { return await next(s, c); } catch (e) {
    if (/^\\.\\.?\\//.test(s) && s.endsWith(".js")) return next(s.slice(0, -3) + ".ts", c);
    throw e;
  }
}`;
const REGISTER = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

function startWorker(env: Record<string, string>): ChildProcess {
  const child = spawn(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(REGISTER)}`, CLI, "worker", "--threads", "1"],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  return child;
}

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

async function reachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}
const postgres = await reachable();
if (!postgres) {
  const line = `PostgreSQL at ${TEST_DATABASE_URL} is not reachable: the two-worker PostgreSQL test is SKIPPED.`;
  if (process.env.REQUIRE_POSTGRES === "1")
    throw new Error(`${line} REQUIRE_POSTGRES=1 makes that an error.`);
  process.stderr.write(`\n*** ${line}\n\n`);
}

describe.skipIf(!postgres)("two worker processes on PostgreSQL", () => {
  const schema = `t_workers_${process.pid}`;
  const url = `${TEST_DATABASE_URL}${TEST_DATABASE_URL.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  afterAll(async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  });

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
