/**
 * An API process on PostgreSQL stopped under load, with an unmetered key (the CLI's default, whose calls are
 * counted in memory and written in batches): calls served (200 answers the client received) against calls
 * counted (`ranges keys list`, USED TODAY). Issue 27 finding 4: 2,550 served, 73 counted after SIGTERM;
 * 3,343 and 42 after kill -9.
 * - SIGTERM: the server finishes what is in flight and writes every count: counted = served.
 * - kill -9: what was counted since the last write is lost; the loss is printed and bounded here by the
 *   calls of one second of the 4 s load (the store writes every 100 ms; the rest is slack for a loaded
 *   machine, where a write can wait).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createKey,
  type LoadResult,
  load,
  POSTGRES_AVAILABLE,
  sleep,
  startApi,
  stopAll,
  suiteSchema,
  usedToday,
} from "./pg-support.js";

const catalog = "/api/v1/ranges/games";

describe.skipIf(!POSTGRES_AVAILABLE)("an API process on PostgreSQL stopped under load", () => {
  let db: Awaited<ReturnType<typeof suiteSchema>>;
  beforeAll(async () => {
    db = await suiteSchema("stop");
  });
  afterAll(async () => {
    stopAll();
    await db?.drop();
  });

  /** Loads a fresh instance with a fresh unmetered key for 4 s, then sends `signal` while the load goes on. */
  async function stopUnderLoad(signal: NodeJS.Signals): Promise<{ result: LoadResult; counted: number }> {
    const { key, id } = await createKey(db.url, `load-${signal}`);
    const api = await startApi(db.url);
    let signalled = false;
    const running = load(
      [api.base],
      catalog,
      { authorization: `Bearer ${key}` },
      {
        concurrency: 16,
        stop: () => false,
        endOnFailure: true,
      },
    );
    await sleep(4000);
    api.child.kill(signal);
    signalled = true;
    const result = await running;
    const exit = await api.exited;
    expect(signalled).toBe(true);
    if (signal === "SIGTERM") expect(exit, api.stderr()).toBe(0);
    const counted = await usedToday(db.url, id);
    const lost = result.served - counted;
    process.stderr.write(
      `${signal} under load: ${result.served} calls served, ${counted} counted, ${lost} lost (${((100 * lost) / Math.max(1, result.served)).toFixed(2)}%); ${result.failed} loops ended without an answer\n`,
    );
    return { result, counted };
  }

  it("SIGTERM: every call served is counted", async () => {
    const { result, counted } = await stopUnderLoad("SIGTERM");
    expect(result.served).toBeGreaterThan(100);
    expect(Object.keys(result.others)).toEqual([]);
    expect(counted).toBe(result.served);
  });

  it("kill -9: the calls lost are the last moments' only", async () => {
    const { result, counted } = await stopUnderLoad("SIGKILL");
    expect(result.served).toBeGreaterThan(100);
    expect(Object.keys(result.others)).toEqual([]);
    // Counted can pass served by calls counted whose answers were cut off (at most the 16 in flight).
    expect(counted).toBeLessThanOrEqual(result.served + 16);
    expect(result.served - counted).toBeLessThanOrEqual(result.served / 4 + 16);
  });
});
