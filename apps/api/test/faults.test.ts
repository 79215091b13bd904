/**
 * Faults a client can cause, against a real `main.ts` process with the production heap cap (256 MiB):
 * requests that used to take the server down or freeze it must get a clear error while /healthz keeps
 * answering.
 */

import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessStore } from "@ranges/access";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePacksDir } from "./helpers.js";
import { killAll, spawnSource } from "./processes.js";

/** Starts main.ts; resolves with its port and the process, or rejects with what it printed on exit. */
function startApi(env: Record<string, string>): Promise<{ base: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawnSource(
      "main",
      [],
      {
        PORT: "0",
        PACKS_REFRESH_MS: "0",
        DATABASE_URL: "",
        NODE_OPTIONS: "--max-old-space-size=256",
        ...env,
      },
      ["ignore", "ignore", "pipe"],
    );
    let err = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      err += chunk;
      const m = /API on http:\/\/localhost:(\d+)/.exec(err);
      if (m) resolve({ base: `http://127.0.0.1:${m[1]}`, child });
    });
    child.on("exit", (code, signal) => reject(new Error(`exited ${code ?? signal}: ${err}`)));
  });
}

let packs: { dir: string; remove: () => void };
let dir: string;
let api: { base: string; child: ChildProcess };
let key: string;
let exited: string | null = null;

beforeAll(async () => {
  packs = await fixturePacksDir(false);
  dir = mkdtempSync(join(tmpdir(), "api-faults-"));
  const accessDb = join(dir, "access.sqlite");
  const admin = await AccessStore.open(accessDb);
  key = (await admin.createKey({ name: "attacker" })).key;
  await admin.close();
  api = await startApi({ ACCESS_DB: accessDb, PACKS_DIR: packs.dir, SOLVE_WORKERS: "0" });
  api.child.on("exit", (code, signal) => {
    exited = `exited ${code ?? signal}`;
  });
});
afterAll(() => {
  killAll();
  packs.remove();
  rmSync(dir, { recursive: true, force: true });
});

const solve = (body: unknown) =>
  fetch(`${api.base}/api/v1/solves`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });

describe("tree-size attacks on the solve queue", () => {
  it("refuses maxRaises 10 with maxCallersToRaise 8 on nl9 with a 400 naming the limit, and stays up", async () => {
    const res = await solve({ game: "nl9", stack: 1000, changes: { maxRaises: 10, maxCallersToRaise: 8 } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_parameter");
    expect(body.error.message).toMatch(/changes\.maxRaises must be an integer from 1 to 5/);
    expect((await fetch(`${api.base}/healthz`)).status).toBe(200);
    expect(exited).toBeNull();
  });

  it("refuses maxCallersToRaise over the seats before building", async () => {
    const res = await solve({ game: "nl9", stack: 100, changes: { maxCallersToRaise: 8 } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /changes\.maxCallersToRaise must be an integer from 0 to 7/,
    );
  });

  it("sizes a tree within the field limits off the event loop: /healthz answers meanwhile, then a 400", async () => {
    // Every field is within its limit, but the multiway tree is far over any plan: the sizing stops at its
    // budget on the sizing thread while the server keeps answering.
    const big = solve({ game: "nl9", stack: 1000, changes: { maxRaises: 5, maxCallersToRaise: 7 } });
    let answered: Response | null = null;
    void big.then((r) => {
      answered = r;
    });
    const health = await fetch(`${api.base}/healthz`);
    expect(health.status).toBe(200);
    expect(answered).toBeNull(); // /healthz was answered while the tree was still being sized
    const res = await big;
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /too large to solve here/,
    );
    // A second key-holder request while one is sized is fine once the first is answered.
    const small = await solve({ game: "nl", stack: 10, changes: { dealtIn: ["SB", "BB"], jamOrFold: true } });
    expect(small.status).toBe(202);
    expect(exited).toBeNull();
  });
});
