/**
 * Issue 28 item 6, the solve queue's views, without running the solver: a job is claimed and driven here
 * through the queue's own worker API, so its progress is known. A settled job shows no time left; a cancelled
 * or failed solve says why it has nothing to read.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import { SolutionPacks, SolveQueue } from "@ranges/queue";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import { writeFixturePacks } from "./fixtures.js";
import { connect, fails, ok } from "./helpers.js";

let store: RangeStore;
let access: AccessStore;
let queue: SolveQueue;
let solutions: SolutionPacks;
let dir: string;
let running: RunningMcpServer;
let client: Client;

beforeAll(async () => {
  store = RangeStore.open({ packsDir: (await writeFixturePacks()).dir, refreshMs: 0 });
  access = await AccessStore.open(":memory:");
  queue = await SolveQueue.open(access.database);
  dir = mkdtempSync(join(tmpdir(), "mcp-queue-views-"));
  solutions = new SolutionPacks(queue, dir);
  // No worker: the test plays it.
  running = await startMcpServer({ port: 0, host: "127.0.0.1", store, access, solves: { queue, solutions } });
  client = await connect(running.url, (await access.createKey({ name: "views" })).key);
});

afterAll(async () => {
  await client?.close();
  await running?.close();
  await solutions?.close();
  await access?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Job = { id: string; status: string; progress: { iteration: number; etaSeconds: number } | null };

/** Enqueues a small solve and claims it as a worker that reported `etaSeconds` left. */
async function runningJob(etaSeconds: number): Promise<Job> {
  const queued = (
    await ok(client, "enqueue_solve", {
      game: "nl",
      stack: 10,
      changes: { dealtIn: ["SB", "BB"], jamOrFold: true },
    })
  ).solve as Job;
  const claimed = await queue.claimById(queued.id, "test-worker");
  expect(claimed).not.toBeNull();
  await queue.heartbeat(queued.id, "test-worker", {
    iteration: 40,
    worstPctPot: 2.5,
    elapsedSeconds: 7,
    etaSeconds,
  });
  const now = (await ok(client, "get_queued_solve", { id: queued.id })).solve as Job;
  expect(now).toMatchObject({ status: "running", progress: { iteration: 40, etaSeconds } });
  return now;
}

describe("settled solves", () => {
  it("a cancelled solve shows no time left and says it has nothing to read", async () => {
    const job = await runningJob(1493);
    await ok(client, "get_queued_solve", { id: job.id, cancel: true });
    await queue.stop(job.id, "test-worker", null);
    const settled = (await ok(client, "get_queued_solve", { id: job.id })).solve as Job;
    expect(settled).toMatchObject({ status: "cancelled", progress: { iteration: 40, etaSeconds: 0 } });
    const read = await fails(client, "get_node", { solution: job.id, history: "SB" });
    expect(read.message).toMatch(/was cancelled, so it has no strategies to read; enqueue_solve it again/);
    expect(read.message).not.toMatch(/once it is done/);
  });

  it("a failed solve shows no time left and gives its reason", async () => {
    const job = await runningJob(600);
    await queue.stop(job.id, "test-worker", "the solve ran out of time");
    const settled = (await ok(client, "get_queued_solve", { id: job.id })).solve as Job;
    expect(settled).toMatchObject({ status: "failed", progress: { etaSeconds: 0 } });
    const listed = (await ok(client, "list_queued_solves", {})).solves as Job[];
    expect(listed.find((j) => j.id === job.id)?.progress?.etaSeconds).toBe(0);
    const read = await fails(client, "list_spots", { solution: job.id });
    expect(read.message).toMatch(/failed \(the solve ran out of time\), so it has no strategies to read/);
  });
});
