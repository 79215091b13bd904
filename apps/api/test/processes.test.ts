/**
 * Several API processes on one account database, as run in production: real `main.ts` processes (the
 * source, with types stripped by Node) on ephemeral ports.
 * - PostgreSQL (DATABASE_URL): limits and quotas are exact across processes.
 * - SQLite (ACCESS_DB): a second server on the same file is refused at start with a message.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AccessStore } from "@ranges/access";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePacksDir } from "./helpers.js";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
/** Lets Node run the TypeScript sources: `./x.js` imports resolve to `./x.ts`. */
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

/** Starts main.ts; resolves with its port, or rejects with what it printed when it exits first. */
function startApi(env: Record<string, string>): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", `data:text/javascript,${encodeURIComponent(REGISTER)}`, MAIN],
      {
        env: { ...process.env, PORT: "0", PACKS_REFRESH_MS: "0", ...env },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    children.push(child);
    let err = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      err += chunk;
      const m = /API on http:\/\/localhost:(\d+)/.exec(err);
      if (m) resolve({ port: Number(m[1]), child });
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
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
  const line = `PostgreSQL at ${TEST_DATABASE_URL} is not reachable: the two-process PostgreSQL test is SKIPPED.`;
  if (process.env.REQUIRE_POSTGRES === "1")
    throw new Error(`${line} REQUIRE_POSTGRES=1 makes that an error.`);
  process.stderr.write(`\n*** ${line}\n\n`);
}

let packs: { dir: string; remove: () => void };
beforeAll(async () => {
  packs = await fixturePacksDir(false);
});
afterAll(() => packs.remove());

describe.skipIf(!postgres)("two API processes on PostgreSQL", () => {
  const schema = `t_proc_${process.pid}`;
  // pg reads `options` from the URL: each connection of both servers uses the test's schema.
  const url = `${TEST_DATABASE_URL}${TEST_DATABASE_URL.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;

  afterAll(async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  });

  it("share exact limits: 300 keyless calls against 200 and 10 keyed against a quota of 5", async () => {
    const admin = await AccessStore.open(TEST_DATABASE_URL, { schema });
    const { key } = await admin.createKey({ name: "five", dailyQuota: 5 });
    const a = await startApi({ DATABASE_URL: url, PACKS_DIR: packs.dir });
    const b = await startApi({ DATABASE_URL: url, PACKS_DIR: packs.dir });
    const bases = [a.port, b.port].map((p) => `http://127.0.0.1:${p}`);
    const keyless = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        fetch(`${bases[i % 2]}/api/v1/ranges/games`).then((r) => r.status),
      ),
    );
    expect(keyless.filter((s) => s === 200)).toHaveLength(200);
    expect(keyless.filter((s) => s === 429)).toHaveLength(100);
    const keyed = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fetch(`${bases[i % 2]}/api/v1/ranges/games`, { headers: { authorization: `Bearer ${key}` } }).then(
          (r) => r.status,
        ),
      ),
    );
    expect(keyed.filter((s) => s === 200)).toHaveLength(5);
    expect(keyed.filter((s) => s === 429)).toHaveLength(5);
    expect(await admin.usedToday({ ip: "127.0.0.1" })).toBe(200);
    await admin.close();
    a.child.kill("SIGTERM");
    b.child.kill("SIGTERM");
  });
});

describe("two API processes on one SQLite file", () => {
  it("the second is refused at start with a message that says what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "api-proc-"));
    try {
      const env = { ACCESS_DB: join(dir, "access.sqlite"), PACKS_DIR: packs.dir, DATABASE_URL: "" };
      const first = await startApi(env);
      await expect(startApi(env)).rejects.toThrow(
        /exited 1: .*Another server process \(pid \d+\) is metering calls on .*access\.sqlite.*DATABASE_URL/s,
      );
      // The first keeps serving.
      expect((await fetch(`http://127.0.0.1:${first.port}/api/v1/ranges/games`)).status).toBe(200);
      first.child.kill("SIGTERM");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
