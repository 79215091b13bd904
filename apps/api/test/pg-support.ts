/**
 * Real API processes on one PostgreSQL database, for the pg-*.test.ts suites, reached only as a user reaches
 * them: HTTP, signals, and the `ranges` CLI. Nothing of apps/api/src is imported: the processes run the built
 * `dist/main.js` and `dist/cli.js` when they are at least as new as every source file, else the sources
 * themselves (Node strips the types; `SOURCE_EXEC_ARGV` maps `./x.js` imports to `./x.ts`), as a clean
 * checkout has no dist of this app before `pnpm build`.
 *
 * Each suite gets a schema of its own in the test database; every connection of its processes uses it (pg
 * reads `options` from the URL). PostgreSQL availability and the skip/REQUIRE_POSTGRES rule come from the
 * account tests' helper (packages/access/test/backends.ts).
 */

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AccessStore } from "@ranges/access";
import { SOURCE_EXEC_ARGV } from "@ranges/store";
import {
  dropSchemas,
  POSTGRES_AVAILABLE,
  TEST_DATABASE_URL,
} from "../../../packages/access/test/backends.js";

export { POSTGRES_AVAILABLE, TEST_DATABASE_URL };

const APP = fileURLToPath(new URL("..", import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** How to run `main` or `cli`: the build when it is current, else the source. */
function entry(script: "main" | "cli"): string[] {
  const built = join(APP, "dist", `${script}.js`);
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource(join(APP, "src"))) return [built];
  return [...SOURCE_EXEC_ARGV, join(APP, "src", `${script}.ts`)];
}

/**
 * A schema of its own for one suite, made and migrated now, and a database URL whose connections use it;
 * `drop` removes it.
 */
export async function suiteSchema(
  tag: string,
): Promise<{ schema: string; url: string; drop: () => Promise<void> }> {
  const schema = `t_pg_${tag}_${randomBytes(4).toString("hex")}`;
  await (await AccessStore.open(TEST_DATABASE_URL, { schema })).close();
  const url = `${TEST_DATABASE_URL}${TEST_DATABASE_URL.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { schema, url, drop: () => dropSchemas([schema]) };
}

/** Runs `ranges <args>` on the suite's database; its stdout, or a rejection with what it printed. */
export function cli(url: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...entry("cli"), ...args],
      { env: { ...process.env, DATABASE_URL: url }, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`ranges ${args.join(" ")}: ${error.message}\n${stdout}${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** `ranges keys create --name <name>` (unmetered unless `quota`): the key it printed. */
export async function createKey(
  url: string,
  name: string,
  quota?: number,
): Promise<{ key: string; id: string }> {
  const out = await cli(url, [
    "keys",
    "create",
    "--name",
    name,
    ...(quota === undefined ? [] : ["--quota", String(quota)]),
  ]);
  const key = /^(pr_([0-9a-f]{12})_\S+)$/m.exec(out);
  if (!key) throw new Error(`no key in: ${out}`);
  return { key: key[1]!, id: key[2]! };
}

/** USED TODAY of a key in `ranges keys list`. */
export async function usedToday(url: string, id: string): Promise<number> {
  const out = await cli(url, ["keys", "list"]);
  const line = out.split("\n").find((l) => l.startsWith(`pr_${id} `));
  if (!line) throw new Error(`pr_${id} is not in: ${out}`);
  // KEY NAME PLAN QUOTA/DAY USED TODAY CREATED (date time) STATUS: USED TODAY is the 5th column from the start.
  const cols = line.trim().split(/\s+/);
  return Number(cols[4]);
}

export interface Api {
  readonly base: string;
  readonly child: ChildProcess;
  /** What the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string>;
}

const apis: ChildProcess[] = [];
const dirs: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts an API process on the suite's database, with no packs and no solve workers (the catalog, accounts
 * and keys are what these suites call). Resolves once it accepts connections; no HTTP call is made, so no
 * meter counts one.
 */
export async function startApi(
  url: string,
  env: Record<string, string> | ((port: number) => Record<string, string>) = {},
): Promise<Api> {
  const dir = mkdtempSync(join(tmpdir(), "pg-api-"));
  dirs.push(dir);
  const port = await freePort();
  const child = spawn(process.execPath, entry("main"), {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: url,
      ACCESS_DB: join(dir, "access.sqlite"),
      PACKS_DIR: join(dir, "packs"),
      POSTFLOP_DIR: join(dir, "postflop"),
      PACKS_REFRESH_MS: "0",
      SOLVE_WORKERS: "0",
      ...(typeof env === "function" ? env(port) : env),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  apis.push(child);
  let err = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "?")),
  );
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  for (const deadline = Date.now() + 120_000; !(await accepts(port)); ) {
    if (gone) throw new Error(`the API exited before listening: ${err}`);
    if (Date.now() > deadline) throw new Error(`the API did not listen within 120 s: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base: `http://127.0.0.1:${port}`, child, stderr: () => err, exited };
}

/** Kills every API process still running and removes their directories (call from afterAll). */
export function stopAll(): void {
  for (const c of apis.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface LoadResult {
  /** Answers with status 200. */
  served: number;
  /** Other statuses, by status. */
  others: Record<number, number>;
  /** Requests that got no answer (connection refused or reset). */
  failed: number;
}

/**
 * Calls `path` on the bases in turn from `concurrency` loops until `stop()` says so; a loop ends at its first
 * request without an answer when `endOnFailure` (the server went away).
 */
export async function load(
  bases: readonly string[],
  path: string,
  headers: Record<string, string>,
  o: { concurrency: number; stop: () => boolean; endOnFailure?: boolean },
): Promise<LoadResult> {
  const result: LoadResult = { served: 0, others: {}, failed: 0 };
  let n = 0;
  const loop = async () => {
    while (!o.stop()) {
      const base = bases[n++ % bases.length]!;
      try {
        const res = await fetch(`${base}${path}`, { headers });
        await res.arrayBuffer();
        if (res.status === 200) result.served += 1;
        else result.others[res.status] = (result.others[res.status] ?? 0) + 1;
      } catch {
        result.failed += 1;
        if (o.endOnFailure) return;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, loop));
  return result;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
