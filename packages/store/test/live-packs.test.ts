/**
 * Packs that change while the store runs: replaced (atomically, with `writePack`), broken for a while,
 * added and removed. The old version serves until the new file verifies; failures are retried.
 */

import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { packPath, RangeStore, type StoreQuery, writePack } from "../src/index.js";
import { buildPack, expectRangesError, tmpDir } from "./fixtures.js";

let dir: string;
let stores: RangeStore[] = [];
const open = (options: { cacheBytes?: number; refreshMs?: number } = {}): RangeStore => {
  const store = RangeStore.open({ packsDir: dir, refreshMs: 0, ...options });
  stores.push(store);
  return store;
};

const V2 = { game: "nl/v2", stack: 100 } as const;
const root: StoreQuery = { kind: "node", game: "nl/v2", stack: 100, history: "UTG" };
const weightsOf = (body: string) =>
  (JSON.parse(body) as { actions: { weights: Record<string, number> }[] }).actions.map((a) => a.weights);
const first = buildPack({ ...V2, maxNodes: 40, seed: 11 });
const second = buildPack({ ...V2, maxNodes: 40, seed: 12 });

beforeEach(async () => {
  dir = tmpDir("store-live-");
  await writePack(packPath(dir, "nl/v2", 100), first);
  await writePack(
    packPath(dir, "nlmtt8", 40),
    buildPack({ game: "nlmtt8", stack: 40, maxNodes: 30, seed: 3 }),
  );
});

afterEach(() => {
  for (const s of stores) s.close();
  stores = [];
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

/** The body the pack `data` gives for `query`, from a store of its own. */
async function expectedBody(data: typeof first, query: StoreQuery = root): Promise<string> {
  const other = tmpDir("store-live-expected-");
  try {
    await writePack(packPath(other, data.header.game, data.header.stack), data);
    const store = RangeStore.open({ packsDir: other, refreshMs: 0 });
    const body = store.json(query).body;
    store.close();
    return body;
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
}

describe("a pack replaced while the store runs", () => {
  it("serves the old version until the new file verifies, then switches (content, ETag, catalog)", async () => {
    const store = open();
    const before = await store.jsonAsync(root);
    expect(before.body).toBe(await expectedBody(first));
    const catalogBefore = store.json({ kind: "catalog" }).etag;

    await writePack(packPath(dir, "nl/v2", 100), second);
    // Not refreshed yet: the loaded version keeps serving, and the stack stays live.
    expect(store.json(root).body).toBe(before.body);
    expect(store.liveStacks("nl/v2")).toEqual([100]);

    await store.refresh();
    const after = store.json(root);
    expect(after.body).toBe(await expectedBody(second));
    expect(weightsOf(after.body)).not.toEqual(weightsOf(before.body));
    expect(after.etag).not.toBe(before.etag);
    expect(store.json({ kind: "catalog" }).etag).not.toBe(catalogBefore);
    expect(store.liveStacks("nl/v2")).toEqual([100]);
    expect(store.packStatus().find((p) => p.file === "nl-v2/100.pack")).toMatchObject({
      ok: true,
      problem: null,
      dataLoaded: true,
    });
  });

  it("reads the new file when the pack was replaced before its first query (no 503)", async () => {
    const store = open();
    await writePack(packPath(dir, "nl/v2", 100), second);
    expect(store.json(root).body).toBe(await expectedBody(second));
    const async = open();
    await writePack(packPath(dir, "nl/v2", 100), first);
    expect((await async.jsonAsync(root)).body).toBe(await expectedBody(first));
  });

  it("a pack pushed out of memory goes after its bodies, and its changed file serves new bodies", async () => {
    // Measure the two packs, then give a budget that holds the nlmtt8 pack and a few bodies, not nl/v2.
    const probe = open({ cacheBytes: 1 << 30 });
    probe.json({ kind: "node", game: "nlmtt8", stack: 40, history: "UTG" });
    const mttBytes = probe.cacheStats().packBytes;
    const store = open({ cacheBytes: mttBytes + 60_000 });
    // Each asked twice: a body is kept from its query's second miss on.
    store.json(root);
    store.json(root);
    store.json({ kind: "node", game: "nlmtt8", stack: 40, history: "UTG" });
    store.json({ kind: "node", game: "nlmtt8", stack: 40, history: "UTG" });
    // Bodies leave before packs (a body is rebuilt in a millisecond, a pack read in about a second): the
    // nl/v2 body went first, then its pack; the nlmtt8 body is the one cached.
    expect(store.cacheStats()).toMatchObject({ packs: 1, entries: 1 });
    expect(store.packStatus().find((p) => p.file === "nl-v2/100.pack")?.dataLoaded).toBe(false);

    await writePack(packPath(dir, "nl/v2", 100), second);
    await store.refresh();
    expect(store.json(root).body).toBe(await expectedBody(second));
  });

  it("notices a replaced pack by itself every refreshMs", async () => {
    const store = open({ refreshMs: 30 });
    const before = await store.jsonAsync(root);
    await writePack(packPath(dir, "nl/v2", 100), second);
    const expected = await expectedBody(second);
    const deadline = Date.now() + 20_000;
    let body = before.body;
    while (body !== expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      body = (await store.jsonAsync(root)).body;
    }
    expect(body).toBe(expected);
  });
});

describe("transient failures", () => {
  const path = () => packPath(dir, "nl/v2", 100);

  it("keep the loaded version serving (and live) while the file is broken, and clear when it is fixed", async () => {
    const store = open({ cacheBytes: 0 });
    const before = (await store.jsonAsync(root)).body;
    const good = readFileSync(path());
    writeFileSync(path(), good.subarray(0, good.length >> 1)); // truncated in place
    await store.refresh();
    const status = () => store.packStatus().find((p) => p.file === "nl-v2/100.pack")!;
    expect(status()).toMatchObject({
      ok: true,
      dataLoaded: true,
      problem: expect.stringMatching(/truncated/),
    });
    expect(store.json(root).body).toBe(before);
    expect(store.liveStacks("nl/v2")).toEqual([100]);
    // Another pack is read: with a budget of 0 it would evict nl/v2, but the broken file pins it.
    store.json({ kind: "node", game: "nlmtt8", stack: 40, history: "UTG" });
    expect(status().dataLoaded).toBe(true);
    expect(store.json(root).body).toBe(before);

    writeFileSync(path(), good);
    await store.refresh();
    expect(status()).toMatchObject({ ok: true, problem: null });
    expect(store.json(root).body).toBe(before);
  });

  it("a pack not in memory answers 503 while its file is broken, and serves again once it is fixed", async () => {
    const store = open();
    const good = readFileSync(path());
    writeFileSync(path(), good.subarray(0, good.length - 7));
    const e = expectRangesError(() => store.json(root), 503, "pack_unavailable");
    expect(e.message).toContain("nl-v2/100.pack");
    expect(store.liveStacks("nl/v2")).toEqual([]);

    writeFileSync(path(), good);
    await store.refresh(); // the file changed: tried again at once
    expect(store.liveStacks("nl/v2")).toEqual([100]);
    expect(store.json(root).body).toBe(await expectedBody(first));
  });

  it("queries retry a failed pack after a back-off, without a refresh", async () => {
    const store = open();
    const good = readFileSync(path());
    const bad = Buffer.from(good);
    bad[bad.length - 5] = bad[bad.length - 5]! ^ 0xff; // data checksum fails, size unchanged
    writeFileSync(path(), bad);
    vi.useFakeTimers({ toFake: ["Date"] });
    expectRangesError(() => store.json(root), 503, "pack_unavailable");
    writeFileSync(path(), good);
    // Within the back-off the failure stands (no read per query of a bad pack)...
    expectRangesError(() => store.json(root), 503, "pack_unavailable");
    // ...after it, the next query reads the file again.
    vi.setSystemTime(Date.now() + 1_500);
    expect(store.json(root).body).toBe(await expectedBody(first));
    expect(store.liveStacks("nl/v2")).toEqual([100]);
  });

  it("a pack whose header was bad at open joins the live stacks once its file is fixed", async () => {
    const good = readFileSync(path());
    const bad = Buffer.from(good);
    bad[120] = bad[120]! ^ 0x01;
    writeFileSync(path(), bad);
    const store = open();
    expect(store.liveStacks("nl/v2")).toEqual([]);
    writeFileSync(path(), good);
    await store.refresh();
    expect(store.liveStacks("nl/v2")).toEqual([100]);
    expect(store.json(root).body).toBe(await expectedBody(first));
  });
});

describe("packs added and removed", () => {
  it("a new file is verified and joins the live stacks; a removed one leaves", async () => {
    const store = open();
    expect(store.liveStacks("nlmtt8")).toEqual([40]);
    await writePack(packPath(dir, "nlmtt8", 20), buildPack({ game: "nlmtt8", stack: 20, maxNodes: 10 }));
    await store.refresh();
    expect(store.liveStacks("nlmtt8")).toEqual([20, 40]);
    expect(JSON.parse(store.json({ kind: "discovery", game: "nlmtt8" }).body).stacks).toEqual([20, 40]);
    expect(store.json({ kind: "node", game: "nlmtt8", stack: 20, history: "UTG" }).body).toContain(
      '"stack":20',
    );

    renameSync(packPath(dir, "nlmtt8", 40), `${packPath(dir, "nlmtt8", 40)}.off`);
    await store.refresh();
    expect(store.liveStacks("nlmtt8")).toEqual([20]);
    expectRangesError(
      () => store.json({ kind: "node", game: "nlmtt8", stack: 40, history: "UTG" }),
      404,
      "unknown_stack",
    );
  });

  it("a new file that does not verify stays out of the live stacks", async () => {
    const store = open();
    writeFileSync(packPath(dir, "nlmtt8", 30), "not a pack");
    await store.refresh();
    expect(store.liveStacks("nlmtt8")).toEqual([40]);
    expect(store.packStatus().find((p) => p.file === "nlmtt8/30.pack")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/preamble|magic/),
    });
  });
});
