/** The solve queue over HTTP: queue a spot, follow it, read the result, cancel; owners only. */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SolutionPacks, SolveQueue, SolveWorker } from "@ranges/queue";
import { NodeSchema } from "@ranges/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, fixturePacksDir, getJson, start, type TestServer } from "./helpers.js";

let t: TestServer;
let packs: { dir: string; remove: () => void };
let dir: string;
let worker: SolveWorker;
let solutions: SolutionPacks;
let alice: string;
let bob: string;

beforeAll(async () => {
  packs = await fixturePacksDir(false);
  dir = mkdtempSync(join(tmpdir(), "api-solutions-"));
  // The queue lives in the server's account database: start, then attach the queue to its access store.
  let queue: SolveQueue | undefined;
  const lazy = {
    get queue() {
      return queue!;
    },
    get solutions() {
      return solutions;
    },
    get worker() {
      return worker;
    },
  };
  t = await start({ packsDir: packs.dir, solves: lazy });
  queue = await SolveQueue.open(t.access.database);
  solutions = new SolutionPacks(queue, dir);
  worker = new SolveWorker(queue, { pollMs: 50, heartbeatMs: 200 });
  worker.start();
  alice = (await t.access.createKey({ name: "alice" })).key;
  bob = (await t.access.createKey({ name: "bob" })).key;
});
afterAll(async () => {
  await worker.stop();
  await solutions.close();
  await t.close();
  packs.remove();
  rmSync(dir, { recursive: true, force: true });
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const post = (key: string | null, body: unknown) =>
  getJson(`${t.base}/api/v1/solves`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? auth(key) : {}) },
    body: JSON.stringify(body),
  });

/** Polls a solve until it leaves the queue; its final status (an error naming the last one after 240 s). */
async function settled(key: string, id: string): Promise<string> {
  let status = "not read yet";
  for (const deadline = Date.now() + 240_000; Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 200));
    const res = await getJson(`${t.base}/api/v1/solves/${id}`, { headers: auth(key) });
    status = (res.body as { solve: { status: string } }).solve.status;
    if (status !== "queued" && status !== "running") return status;
  }
  throw new Error(`solve ${id} is still ${status} after 240 s`);
}

describe("/api/v1/solves", () => {
  it("accepts every solve example the READMEs show, on the standard plan, and serves the read shown with it", async () => {
    const root = new URL("../../../", import.meta.url);
    const examples = ["README.md", "apps/api/README.md"].flatMap((file) => {
      const text = readFileSync(new URL(file, root), "utf8").replace(/\n\s*/g, " ");
      return [...text.matchAll(/`(\{"game": [^`]*\})`/g)].map((m) => {
        // "..., then read it with `GET /api/v1/solves/{id}/node?history=...`": the read of that solve.
        const sentence = text.slice(m.index! + m[0].length).split(/\.\s/)[0]!;
        const read = /`GET \/api\/v1\/solves\/\{id\}\/((?:node|range)\?[^`]+)`/.exec(sentence)?.[1];
        return { file, json: m[1]!, read };
      });
    });
    expect(examples.length).toBeGreaterThanOrEqual(3);
    expect(examples.some((e) => e.read)).toBe(true);
    const key = (await t.access.createKey({ name: "readme" })).key;
    for (const { file, json, read } of examples) {
      const res = await post(key, JSON.parse(json));
      expect(res.status, `${file}: ${json} -> ${JSON.stringify(res.body)}`).toBe(202);
      const id = (res.body as { solve: { id: string } }).solve.id;
      if (read) {
        expect(await settled(key, id)).toBe("done");
        const node = await getJson(`${t.base}/api/v1/solves/${id}/${read}`, { headers: auth(key) });
        expect(node.status, `${file}: ${read} -> ${node.text.slice(0, 300)}`).toBe(200);
        // A seat that plays: more than a forced fold.
        expect((node.body as { actions: unknown[] }).actions.length, read).toBeGreaterThan(1);
      } else {
        await getJson(`${t.base}/api/v1/solves/${id}`, { method: "DELETE", headers: auth(key) });
      }
    }
  });

  it("queues a 10bb jam-or-fold spot (202), follows it to done, and serves its node to its owner only", async () => {
    const queued = await post(alice, {
      game: "nl/v2",
      stack: 10,
      changes: { jamOrFold: true, allInFrom: 1 },
    });
    expect(queued.status).toBe(202);
    const id = (queued.body as { solve: { id: string } }).solve.id;
    expect(queued.headers.get("location")).toBe(`/api/v1/solves/${id}`);
    expect(await settled(alice, id)).toBe("done");
    const node = await getJson(`${t.base}/api/v1/solves/${id}/node?history=UTG&hand=AA`, {
      headers: auth(alice),
    });
    expect(node.status).toBe(200);
    const parsed = NodeSchema.parse(node.body);
    expect(parsed.actions.find((a) => a.kind === "allin")!.weights.AA).toBeCloseTo(1, 3);
    const spots = await getJson(`${t.base}/api/v1/solves/${id}/spots`, { headers: auth(alice) });
    expect(spots.status).toBe(200);
    // Owners only; the list holds the caller's.
    expect((await getJson(`${t.base}/api/v1/solves/${id}`, { headers: auth(bob) })).status).toBe(404);
    expect(
      (await getJson(`${t.base}/api/v1/solves/${id}/node?history=UTG`, { headers: auth(bob) })).status,
    ).toBe(404);
    const list = await getJson(`${t.base}/api/v1/solves`, { headers: auth(alice) });
    expect((list.body as { solves: { id: string }[] }).solves.map((s) => s.id)).toContain(id);
    expect((await getJson(`${t.base}/api/v1/solves`, { headers: auth(bob) })).body).toMatchObject({
      solves: [],
    });
  });

  it("reads a heads-up solve with only the seats that play: the folds of the seats not dealt in are added", async () => {
    const queued = await post(alice, {
      game: "nl",
      stack: 10,
      changes: { dealtIn: ["SB", "BB"], jamOrFold: true },
    });
    expect(queued.status).toBe(202);
    const id = (queued.body as { solve: { id: string } }).solve.id;
    expect(await settled(alice, id)).toBe("done");
    const read = async (query: string) => {
      const res = await getJson(`${t.base}/api/v1/solves/${id}/${query}`, { headers: auth(alice) });
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body as { actor?: string; history?: string; actions?: unknown[] };
    };
    const short = await read("node?history=SB");
    const long = await read("node?history=UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB");
    expect(short.actor).toBe("SB");
    expect(short).toEqual(long);
    // The BB facing the SB's shove, and the same as a range.
    expect((await read("node?history=SB_AI_BB")).actor).toBe("BB");
    expect(await read("range?spot=SB_AI_BB_Call&hand=AA")).toEqual(
      await read("range?spot=UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_AI_BB_Call&hand=AA"),
    );

    // A path that does not fit is a 400 or 404 about the path as written, not the one with the folds added.
    const refused = async (query: string, status: number, code: string) => {
      const res = await getJson(`${t.base}/api/v1/solves/${id}/${query}`, { headers: auth(alice) });
      const error = expectError(res, status, code);
      expect(JSON.stringify(error), query).not.toContain("UTG_Fold");
      return error;
    };
    const asRange = await refused("node?history=SB_AI_BB_Call", 400, "malformed_path");
    expect(asRange.message).toContain('"SB_AI_BB_Call" ends in the action "Call"');
    expect(asRange.message).toContain("call /range with spot=SB_AI_BB_Call");
    const asNode = await refused("range?spot=SB", 400, "malformed_path");
    expect(asNode.message).toContain("history=SB");
    expect((await refused("node?history=Fold_SB", 400, "malformed_path")).message).toMatch(
      /position 1 of "Fold_SB"/,
    );
    const order = await refused("node?history=SB_AI_SB", 400, "malformed_path");
    expect(order.message).toMatch(/SB cannot act at position 3 of "SB_AI_SB"/);
    expect(order.validPrefix).toBe("SB_AI");
    const notAnAction = await refused("node?history=SB_Call_BB", 404, "action_not_available");
    expect(notAnAction).toMatchObject({ validPrefix: "SB", validActions: ["Fold", "AI"] });
    // The BB first: the SB acts before it; the folds of the seats not dealt in are named as such.
    const bbFirst = await refused("node?history=BB", 404, "node_not_found");
    expect(bbFirst.validPrefix).toBe("");
    expect(bbFirst.message).toMatch(/the folds of the seats not dealt in \(UTG, HJ, CO, BTN\) is SB/);
    await refused("node?history=_SB", 400, "malformed_path");
    await refused("node?history=SB_AI_BB_AI_SB", 404, "node_not_found");
    // Any path of seats, tokens and stray characters: 200, 400 or 404, never a 500, and an error of a path
    // that starts at a dealt seat never names the folds it did not write (its segments have no CO).
    const segment = fc.constantFrom(
      "UTG",
      "HJ",
      "BTN",
      "SB",
      "BB",
      "Fold",
      "Call",
      "AI",
      "60%",
      "sb",
      "",
      "x",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 7 }),
        fc.boolean(),
        async (parts, node) => {
          const path = encodeURIComponent(parts.join("_"));
          const query = node ? `node?history=${path}` : `range?spot=${path}`;
          const res = await getJson(`${t.base}/api/v1/solves/${id}/${query}`, { headers: auth(alice) });
          expect([200, 400, 404], `${query}: ${res.text.slice(0, 200)}`).toContain(res.status);
          if (res.status !== 200 && ["SB", "BB"].includes(parts[0]!))
            expect(res.text).not.toContain("UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold");
        },
      ),
      { numRuns: 150 },
    );
    // A path that writes a seat not dealt in is read as written: the folds before it are missing.
    const written = await getJson(`${t.base}/api/v1/solves/${id}/node?history=BTN_Fold_SB`, {
      headers: auth(alice),
    });
    expect(expectError(written, 404, "missing_folds").hint).toMatchObject({
      suggestedPath: "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB",
    });
  });

  it("refuses without a key, bad trees and trees over the plan (with the estimate), and stack in a solution read", async () => {
    expect((await post(null, { game: "nl", stack: 10 })).status).toBe(401);
    const bad = await post(alice, { game: "nl", stack: 40, changes: { limpSeats: ["XX"] } });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { message: string } }).error.message).toMatch(/limp seat XX/);
    const big = await post(alice, { game: "nl9", stack: 100 });
    expect(big.status).toBe(400);
    expect((big.body as { error: { hint: unknown } }).error.hint).toMatchObject({
      limit: { decisions: 4000 },
    });
    expect((await getJson(`${t.base}/api/v1/solves/nope`, { headers: auth(alice) })).status).toBe(404);
  });

  it("DELETE cancels a queued solve", async () => {
    const jam = { jamOrFold: true, allInFrom: 1 };
    await post(alice, { game: "nl/v2", stack: 11, changes: jam });
    const second = (await post(alice, { game: "nl/v2", stack: 12, changes: jam })).body as {
      solve: { id: string };
    };
    const res = await getJson(`${t.base}/api/v1/solves/${second.solve.id}`, {
      method: "DELETE",
      headers: auth(alice),
    });
    expect(res.status).toBe(200);
    expect((res.body as { solve: { status: string } }).solve.status).toBe("cancelled");
  });
});
