/**
 * Several API processes on one account database, as run in production: real `main.ts` processes (the
 * source, with types stripped by Node) on ephemeral ports.
 * - PostgreSQL (DATABASE_URL): limits and quotas are exact across processes.
 * - SQLite (ACCESS_DB): a second server on the same file is refused at start with a message.
 */

import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessStore } from "@ranges/access";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePacksDir } from "./helpers.js";
import {
  dropSchemas,
  killAll,
  POSTGRES_AVAILABLE,
  spawnSource,
  TEST_DATABASE_URL,
  withSearchPath,
} from "./processes.js";

afterAll(killAll);

/** Starts main.ts; resolves with its port, or rejects with what it printed when it exits first. */
function startApi(env: Record<string, string>): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawnSource("main", [], { PORT: "0", PACKS_REFRESH_MS: "0", ...env }, [
      "ignore",
      "ignore",
      "pipe",
    ]);
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

let packs: { dir: string; remove: () => void };
beforeAll(async () => {
  packs = await fixturePacksDir(false);
});
afterAll(() => packs.remove());

describe.skipIf(!POSTGRES_AVAILABLE)("two API processes on PostgreSQL", () => {
  const schema = `t_proc_${process.pid}`;
  // pg reads `options` from the URL: each connection of both servers uses the test's schema.
  const url = withSearchPath(TEST_DATABASE_URL, schema);

  afterAll(() => dropSchemas([schema]));

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

describe("start-up checks", () => {
  /** Runs `check` with the environment of a start on its own SQLite file (removed after) plus `extra`. */
  async function withStartEnv(
    extra: Record<string, string>,
    check: (env: Record<string, string>) => Promise<void>,
  ): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), "api-proc-"));
    try {
      await check({
        ACCESS_DB: join(dir, "access.sqlite"),
        PACKS_DIR: packs.dir,
        DATABASE_URL: "",
        ...extra,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("refuses TRUST_PROXY without PUBLIC_URL, with a message that says what to set", async () => {
    await withStartEnv({ TRUST_PROXY: "loopback", PUBLIC_URL: "" }, async (env) => {
      await expect(startApi(env)).rejects.toThrow(/exited 1: .*TRUST_PROXY is set .*PUBLIC_URL is not/s);
      // With PUBLIC_URL the same start serves.
      const ok = await startApi({ ...env, PUBLIC_URL: "https://ranges.example" });
      expect((await fetch(`http://127.0.0.1:${ok.port}/healthz`)).status).toBe(200);
      ok.child.kill("SIGTERM");
    });
  });

  it.each(["0", "1.5", "two"])("refuses POSTFLOP_SUBGAME_THREADS=%s, naming it", async (threads) => {
    await withStartEnv({ POSTFLOP_SUBGAME_THREADS: threads }, async (env) => {
      await expect(startApi(env)).rejects.toThrow(/exited 1: .*POSTFLOP_SUBGAME_THREADS=/s);
    });
  });
});
