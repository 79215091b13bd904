/** The solve queue through the MCP SDK's client: enqueue, follow, read the result like a library pack. */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import { SolutionPacks, SolveQueue, SolveWorker } from "@ranges/queue";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import { writeFixturePacks } from "./fixtures.js";
import { connect, fails, ok } from "./helpers.js";

let access: AccessStore;
let store: RangeStore;
let running: RunningMcpServer;
let worker: SolveWorker;
let solutions: SolutionPacks;
let dir: string;
let alice: Client;
let bob: Client;
let anon: Client;

beforeAll(async () => {
  store = RangeStore.open({ packsDir: (await writeFixturePacks()).dir });
  access = await AccessStore.open(":memory:");
  const queue = await SolveQueue.open(access.database);
  dir = mkdtempSync(join(tmpdir(), "mcp-solutions-"));
  solutions = new SolutionPacks(queue, dir);
  worker = new SolveWorker(queue, { pollMs: 50, heartbeatMs: 200 });
  worker.start();
  running = await startMcpServer({
    port: 0,
    host: "127.0.0.1",
    store,
    access,
    solves: { queue, solutions, worker },
  });
  alice = await connect(running.url, (await access.createKey({ name: "alice" })).key);
  bob = await connect(running.url, (await access.createKey({ name: "bob" })).key);
  anon = await connect(running.url);
});

afterAll(async () => {
  for (const c of [alice, bob, anon]) await c?.close();
  await running?.close();
  await worker?.stop();
  await solutions?.close();
  await access?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Job = {
  id: string;
  status: string;
  summary: { worstPctPot: number } | null;
  next: string;
  error: string | null;
};

describe("the solve queue tools", () => {
  it("a 6-max 10bb jam-or-fold spot: enqueue, follow, then read it with get_node and solution", async () => {
    const started = Date.now();
    const queued = (
      await ok(alice, "enqueue_solve", {
        game: "nl/v2",
        stack: 10,
        changes: { jamOrFold: true, allInFrom: 1 },
      })
    ).solve as Job & { decisions: number; estimateSeconds: number };
    expect(queued.status).toMatch(/queued|running/);
    expect(queued.decisions).toBeGreaterThan(5);
    let job = queued;
    while (job.status === "queued" || job.status === "running") {
      await new Promise((r) => setTimeout(r, 200));
      job = (await ok(alice, "get_queued_solve", { id: queued.id })).solve as typeof job;
    }
    expect(job.error).toBeNull();
    expect(job.status).toBe("done");
    expect(job.summary!.worstPctPot).toBeLessThan(0.5);
    expect(job.next).toMatch(/solution/);
    process.stderr.write(
      `enqueue to result, 6-max 10bb jam or fold: ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );

    const node = await ok(alice, "get_node", { solution: queued.id, history: "UTG", hand: "AA" });
    expect(node).toMatchObject({ game: "nl/v2", stack: 10, history: "UTG", hand: "AA" });
    // UTG at 10bb jams aces.
    expect((node.actions as { kind: string; freq: number }[]).find((a) => a.kind === "allin")!.freq).toBe(1);
    const spots = await ok(alice, "list_spots", { solution: queued.id, limit: 5 });
    expect((spots.spots as unknown[]).length).toBe(5);
    const range = await ok(alice, "get_range", { solution: queued.id, spot: "UTG_Fold", hand: "72o" });
    expect(range).toMatchObject({ game: "nl/v2", stack: 10 });

    const mine = await ok(alice, "list_queued_solves", {});
    expect((mine.solves as Job[]).map((j) => j.id)).toContain(queued.id);
    const library = await ok(alice, "list_library_solutions", {});
    expect((library.mine as Job[]).map((j) => j.id)).toEqual([queued.id]);
    expect((library.library as unknown[]).length).toBeGreaterThan(0);

    // Nobody else sees it.
    expect(await fails(bob, "get_queued_solve", { id: queued.id })).toMatchObject({ status: 404 });
    expect(await fails(bob, "get_node", { solution: queued.id, history: "UTG" })).toMatchObject({
      status: 404,
    });
    expect((await ok(bob, "list_library_solutions", {})).mine).toEqual([]);
  });

  it("a heads-up jam-or-fold spot (dealtIn) reads with the game's own paths", async () => {
    const started = Date.now();
    const queued = (
      await ok(alice, "enqueue_solve", {
        game: "nl",
        stack: 10,
        changes: { jamOrFold: true, allInFrom: 1, dealtIn: ["SB", "BB"] },
      })
    ).solve as Job;
    let job = queued;
    while (job.status === "queued" || job.status === "running") {
      await new Promise((r) => setTimeout(r, 200));
      job = (await ok(alice, "get_queued_solve", { id: queued.id })).solve as typeof job;
    }
    expect(job.error).toBeNull();
    expect(job.status).toBe("done");
    process.stderr.write(
      `enqueue to result, heads-up 10bb jam or fold: ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
    const history = "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB";
    const sb = await ok(alice, "get_node", { solution: queued.id, history, hand: "K5o" });
    expect(sb).toMatchObject({ game: "nl", stack: 10, history, actor: "SB" });
    // Heads-up at 10bb the SB jams K5o, which UTG folds six-handed.
    expect((sb.actions as { kind: string; freq: number }[]).find((a) => a.kind === "allin")!.freq).toBe(1);
    const utg = await ok(alice, "get_node", { solution: queued.id, history: "UTG", hand: "AA" });
    expect((utg.actions as { kind: string }[]).map((a) => a.kind)).toEqual(["fold"]);
    // The seats not dealt in need not be written out: "SB" is the SB's decision after the four folds.
    const short = await ok(alice, "get_node", { solution: queued.id, history: "SB", hand: "K5o" });
    expect(short).toEqual(sb);
    const jam = await ok(alice, "get_range", { solution: queued.id, spot: "SB_AI_BB_Call", hand: "AA" });
    expect(jam).toMatchObject({ spot: `${history}_AI_BB_Call`, action: "Call" });
    // A short path that does not fit is refused in terms of the path as written, as over HTTP.
    const wrong = await fails(alice, "get_node", { solution: queued.id, history: "SB_Call_BB" });
    expect(wrong).toMatchObject({ status: 404, code: "action_not_available", validPrefix: "SB" });
    expect(JSON.stringify(wrong)).not.toContain("UTG_Fold");
    const first = await fails(alice, "get_range", { solution: queued.id, spot: "BB_AI" });
    expect(first).toMatchObject({ status: 404, code: "node_not_found", validPrefix: "" });
    expect(first.message).toMatch(/the folds of the seats not dealt in \(UTG, HJ, CO, BTN\) is SB/);
    // The spot list of an nl solve (the public nl packs have none).
    const spots = await ok(alice, "list_spots", { solution: queued.id });
    expect((spots.spots as { history: string }[]).map((s) => s.history)).toContain(`${history}_AI_BB`);
    // A finished job's progress says nothing is left to run.
    const done = (await ok(alice, "get_queued_solve", { id: queued.id })).solve as Job & {
      progress: { etaSeconds: number } | null;
    };
    if (done.progress !== null) expect(done.progress.etaSeconds).toBe(0);
    const bad = await fails(alice, "enqueue_solve", {
      game: "nl",
      stack: 10,
      changes: { dealtIn: ["UTG", "BB"] },
    });
    expect(bad).toMatchObject({ status: 400, code: "invalid_parameter" });
    expect(bad.message).toMatch(/dealtIn must list the last seats to act preflop/);
  });

  it("needs a key, refuses what the solver cannot build, and a tree over the plan with its estimate", async () => {
    expect(await fails(anon, "enqueue_solve", { game: "nl", stack: 10 })).toMatchObject({ status: 401 });
    expect(await fails(anon, "list_queued_solves", {})).toMatchObject({ status: 401 });
    const bad = await fails(alice, "enqueue_solve", {
      game: "nl",
      stack: 40,
      changes: { limpSeats: ["XX"] },
    });
    expect(bad).toMatchObject({ status: 400, code: "invalid_parameter" });
    expect(bad.message).toMatch(/cannot build this tree.*limp seat XX/);
    const big = await fails(alice, "enqueue_solve", { game: "nl9", stack: 100 });
    expect(big.message).toMatch(/decisions and would take about \d+ s; plan standard allows/);
    expect(big.hint).toMatchObject({ limit: { decisions: 4000 } });
    expect(await fails(alice, "get_node", { history: "UTG" })).toMatchObject({ code: "missing_parameter" });
    expect(
      await fails(alice, "get_node", {
        solution: "sol_0123456789abcdef",
        game: "nl",
        stack: 100,
        history: "UTG",
      }),
    ).toMatchObject({ status: 400 });
  });

  it("cancels a queued solve with get_queued_solve cancel: true", async () => {
    // The worker takes the first; the second waits in the queue.
    const jam = { jamOrFold: true, allInFrom: 1 };
    const first = (await ok(alice, "enqueue_solve", { game: "nl/v2", stack: 11, changes: jam })).solve as Job;
    const second = (await ok(alice, "enqueue_solve", { game: "nl/v2", stack: 12, changes: jam }))
      .solve as Job;
    const cancelled = (await ok(alice, "get_queued_solve", { id: second.id, cancel: true })).solve as Job;
    expect(cancelled.status).toBe("cancelled");
    const read = await fails(alice, "get_node", { solution: second.id, history: "UTG" });
    expect(read.message).toMatch(/was cancelled, so it has no strategies to read; enqueue_solve it again/);
    expect(read.message).not.toMatch(/once it is done/);
    const stopped = (await ok(alice, "get_queued_solve", { id: first.id, cancel: true })).solve as Job;
    expect(["cancelled", "running", "done"]).toContain(stopped.status);
  });
});
