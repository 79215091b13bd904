import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessStore } from "@ranges/access";
import { NodeSchema } from "@ranges/schema";
import { afterEach, describe, expect, it } from "vitest";
import {
  dropSchemas,
  freshSchema,
  POSTGRES_AVAILABLE,
  TEST_DATABASE_URL,
} from "../../access/test/backends.js";
import {
  limitsOf,
  SolutionPacks,
  SolveQueue,
  SolveWorker,
  STALE_SECONDS,
  validateSolveRequest,
} from "../src/index.js";
import { HEADS_UP_JAM_FOLD, JAM_FOLD } from "./fixtures.js";

const cleanup: (() => Promise<void> | void)[] = [];
const schemas: string[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
  await dropSchemas(schemas);
});

async function setup(backend: "sqlite" | "postgres", clock?: () => Date) {
  let access: AccessStore;
  if (backend === "sqlite") {
    access = await AccessStore.open(":memory:");
  } else {
    const schema = freshSchema();
    schemas.push(schema);
    access = await AccessStore.open(TEST_DATABASE_URL, { schema });
  }
  cleanup.push(() => access.close());
  const queue = await SolveQueue.open(access.database, clock ? { clock } : {});
  cleanup.push(() => queue.close());
  const dir = mkdtempSync(join(tmpdir(), "solutions-"));
  const solutions = new SolutionPacks(queue, dir);
  cleanup.push(async () => {
    await solutions.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { access, queue, solutions };
}

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each([
  { backend: "sqlite" as const, available: true },
  { backend: "postgres" as const, available: POSTGRES_AVAILABLE },
])("$backend", ({ backend, available }) => {
  it.skipIf(!available)(
    "a 6-max jam-or-fold spot solves end to end and reads like a library pack",
    async () => {
      const { queue, solutions } = await setup(backend);
      const spec = validateSolveRequest(JAM_FOLD);
      const job = await queue.enqueue("aaaaaaaaaaaa", spec, 60);
      expect(job).toMatchObject({ status: "queued", game: "nl", stack: 10, attempts: 0 });
      const worker = new SolveWorker(queue, { pollMs: 50, heartbeatMs: 100 });
      worker.start();
      cleanup.push(() => worker.stop());
      const done = await until("done", async () => {
        const j = await queue.get("aaaaaaaaaaaa", job.id);
        return j?.status === "done" || j?.status === "failed" ? j : undefined;
      });
      expect(done.error).toBeNull();
      expect(done.status).toBe("done");
      expect(done.summary!.worstPctPot).toBeLessThan(0.5);
      expect(done.attempts).toBe(1);
      // Another key sees nothing.
      expect(await queue.get("bbbbbbbbbbbb", job.id)).toBeUndefined();
      await expect(solutions.get("bbbbbbbbbbbb", job.id)).rejects.toThrow(/No solve/);
      const { store, game, stack } = await solutions.get("aaaaaaaaaaaa", job.id);
      const node = await store.jsonAsync({
        kind: "node",
        game,
        stack,
        history: "UTG",
        minFreq: undefined,
        hand: undefined,
        full: true,
      } as never);
      const body = NodeSchema.parse(JSON.parse(node.bytes.toString()));
      const jam = body.actions.find((a) => a.kind === "allin")!;
      const fold = body.actions.find((a) => a.kind === "fold")!;
      // UTG at 10bb: AA always jams, 72o always folds.
      expect(jam.weights.AA).toBeCloseTo(1, 3);
      expect(fold.weights["72o"]).toBeCloseTo(1, 3);
    },
  );

  it.skipIf(!available)("a heads-up jam/fold spot solves and reads with the game's paths", async () => {
    const { queue, solutions } = await setup(backend);
    const job = await queue.enqueue("aaaaaaaaaaaa", validateSolveRequest(HEADS_UP_JAM_FOLD), 60);
    const worker = new SolveWorker(queue, { pollMs: 50, heartbeatMs: 100 });
    worker.start();
    cleanup.push(() => worker.stop());
    const done = await until("done", async () => {
      const j = await queue.get("aaaaaaaaaaaa", job.id);
      return j?.status === "done" || j?.status === "failed" ? j : undefined;
    });
    expect(done.error).toBeNull();
    expect(done.summary!.worstPctPot).toBeLessThan(0.1);
    const { store, game, stack } = await solutions.get("aaaaaaaaaaaa", job.id);
    const read = async (history: string) =>
      NodeSchema.parse(
        JSON.parse(
          (
            await store.jsonAsync({
              kind: "node",
              game,
              stack,
              history,
              minFreq: undefined,
              hand: undefined,
              full: true,
            } as never)
          ).bytes.toString(),
        ),
      );
    // UTG is dealt out: it folds every hand.
    const utg = await read("UTG");
    expect(utg.actions.map((a) => a.kind)).toEqual(["fold"]);
    const sb = await read("UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB");
    expect(sb.actor).toBe("SB");
    expect(sb.reach).toBeCloseTo(1, 9);
    const jam = sb.actions.find((a) => a.kind === "allin")!;
    // Heads-up at 10bb the SB jams far wider than UTG six-handed: every pair and ace, and most hands.
    for (const hand of ["AA", "22", "A2o", "K5o", "T8o"]) expect(jam.weights[hand], hand).toBeCloseTo(1, 2);
    const bb = await read("UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_AI_BB");
    const call = bb.actions.find((a) => a.kind === "call")!;
    expect(call.weights.AA).toBeCloseTo(1, 3);
    expect(call.weights["72o"]).toBeCloseTo(0, 3);
  });

  it.skipIf(!available)("cancels a queued job at once and a running one at its next heartbeat", async () => {
    const { queue } = await setup(backend);
    const first = await queue.enqueue(
      "aaaaaaaaaaaa",
      validateSolveRequest({ game: "nlmtt8", stack: 20 }),
      600,
    );
    const second = await queue.enqueue("aaaaaaaaaaaa", validateSolveRequest(JAM_FOLD), 60);
    expect((await queue.cancel("aaaaaaaaaaaa", second.id)).status).toBe("cancelled");
    const worker = new SolveWorker(queue, { pollMs: 50, heartbeatMs: 100 });
    worker.start();
    cleanup.push(() => worker.stop());
    await until("running", async () => (await queue.get("aaaaaaaaaaaa", first.id))?.status === "running");
    await queue.cancel("aaaaaaaaaaaa", first.id);
    const ended = await until("cancelled", async () => {
      const j = await queue.get("aaaaaaaaaaaa", first.id);
      return j?.status === "cancelled" ? j : undefined;
    });
    expect(ended.finishedAt).not.toBeNull();
    expect(await queue.resultPack("aaaaaaaaaaaa", first.id)).toBeUndefined();
  });

  it.skipIf(!available)("estimates from the machine's own finished solves, per size class", async () => {
    const { queue } = await setup(backend);
    const spec = validateSolveRequest(JAM_FOLD);
    // Before any solve has finished: the defaults of spec.ts.
    expect((await queue.calibrate(spec)).estimateSeconds).toBe(spec.estimateSeconds);
    const job = await queue.enqueue("eeeeeeeeeeee", spec, 60);
    expect(await queue.claimById(job.id, "w")).not.toBeNull();
    await queue.finish(job.id, "w", new Uint8Array([1]), {
      iterations: 40,
      seconds: 0.5,
      decisions: spec.decisions,
      sizeClass: spec.sizeClass,
      worstPctPot: 0.01,
      seats: [],
    });
    // One finished jam/fold solve: its rate and its iterations.
    expect((await queue.calibrate(spec)).estimateSeconds).toBe(1);
    const bigger = { ...spec, decisions: spec.decisions * 400 };
    expect((await queue.calibrate(bigger)).estimateSeconds).toBe(Math.round(0.5 * 400));
    // Another class takes the measured rate with its own default iterations.
    const medium = { ...spec, decisions: 2000, sizeClass: "medium" as const };
    const rate = 0.5 / (spec.decisions * 40);
    expect((await queue.calibrate(medium)).estimateSeconds).toBe(Math.round(2000 * 800 * rate));
  });

  it.skipIf(!available)("a settled job has no time left and says why it has nothing to read", async () => {
    const { queue, solutions } = await setup(backend);
    const key = "dddddddddddd";
    for (const end of ["cancelled", "failed"] as const) {
      const job = await queue.enqueue(key, validateSolveRequest(JAM_FOLD), 60);
      expect(await queue.claimById(job.id, "w")).not.toBeNull();
      await queue.heartbeat(job.id, "w", {
        iteration: 40,
        worstPctPot: 2.5,
        elapsedSeconds: 7,
        etaSeconds: 1493,
      });
      expect((await queue.get(key, job.id))?.progress?.etaSeconds).toBe(1493);
      if (end === "cancelled") {
        await queue.cancel(key, job.id);
        await queue.stop(job.id, "w", null);
      } else {
        await queue.stop(job.id, "w", "out of time at 600 s");
      }
      const settled = await queue.get(key, job.id);
      expect(settled).toMatchObject({ status: end, progress: { iteration: 40, etaSeconds: 0 } });
      await expect(solutions.get(key, job.id)).rejects.toThrow(
        end === "cancelled" ? /was cancelled before it finished/ : /failed \(out of time at 600 s\)/,
      );
    }
  });

  it.skipIf(!available)(
    "a job whose worker went silent is queued again, then failed after 3 runs",
    async () => {
      let now = new Date("2026-11-23T12:00:00Z");
      const { queue } = await setup(backend, () => now);
      const job = await queue.enqueue("aaaaaaaaaaaa", validateSolveRequest(JAM_FOLD), 60);
      for (let run = 1; run <= 3; run++) {
        const claimed = await queue.claim(`dead-${run}`);
        expect(claimed).toMatchObject({ id: job.id, attempts: run });
        // A second worker finds nothing while it runs: never two workers on one job.
        expect(await queue.claim("other")).toBeNull();
        now = new Date(now.getTime() + (STALE_SECONDS + 1) * 1000);
        expect(await queue.recoverStale()).toBe(1);
      }
      const failed = await queue.require("aaaaaaaaaaaa", job.id);
      expect(failed.status).toBe("failed");
      expect(failed.error).toMatch(/stopped answering 3 times/);
    },
  );

  it.skipIf(!available)("caps a key's active solves, exactly under concurrent requests", async () => {
    const { queue } = await setup(backend);
    const spec = validateSolveRequest(JAM_FOLD);
    const limits = { ...limitsOf("standard"), active: 3 };
    const tries = await Promise.allSettled(
      Array.from({ length: 8 }, () => queue.enqueue("cccccccccccc", spec, limits)),
    );
    expect(tries.filter((t) => t.status === "fulfilled")).toHaveLength(3);
    const refused = tries.find((t) => t.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "rate_limited", status: 429 });
    expect(String(refused.reason.message)).toMatch(/3 solves queued or running, the most your plan allows/);
    // Another key is not held by this one's cap; an ended job frees a place.
    await expect(queue.enqueue("dddddddddddd", spec, limits)).resolves.toMatchObject({ status: "queued" });
    const [first] = await queue.list("cccccccccccc");
    await queue.cancel("cccccccccccc", first!.id);
    await expect(queue.enqueue("cccccccccccc", spec, limits)).resolves.toMatchObject({ status: "queued" });
  });

  it.skipIf(!available)(
    "keys take turns: another key's job runs before the rest of a long queue",
    async () => {
      let tick = Date.parse("2026-11-23T12:00:00Z");
      const { queue } = await setup(backend, () => new Date((tick += 1000)));
      const spec = validateSolveRequest(JAM_FOLD);
      const a = [];
      for (let i = 0; i < 3; i++) a.push(await queue.enqueue("aaaaaaaaaaaa", spec, 60));
      const b = await queue.enqueue("bbbbbbbbbbbb", spec, 60);
      expect((await queue.claim("w1"))?.id).toBe(a[0]!.id);
      // A delivery of a's second job (pg-boss) is a turn for the fairest job: b's, whose key runs nothing.
      expect((await queue.claimById(a[1]!.id, "w2"))?.id).toBe(b.id);
      expect((await queue.claim("w3"))?.id).toBe(a[1]!.id);
      // b's own delivery, once b runs, still takes a job: none is left without a turn.
      expect((await queue.claimById(b.id, "w4"))?.id).toBe(a[2]!.id);
      expect(await queue.claim("w5")).toBeNull();
    },
  );
});
