/**
 * Issue 27 finding 2 / issue 28 item 4: the metadata tools answer from the store's resident index (headers and
 * node counts) and never read pack data; a JSON-RPC batch is bounded.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import { packPath, RangeStore, writePack } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BATCH_MESSAGES, type RunningMcpServer, startMcpServer } from "../src/index.js";
import { ListDatasetsSchema } from "../src/schemas.js";
import { type FixturePacks, writeFixturePacks } from "./fixtures.js";
import { connect, ok } from "./helpers.js";

let packs: FixturePacks;
let store: RangeStore;
let access: AccessStore;
let running: RunningMcpServer;
let anon: Client;

beforeAll(async () => {
  packs = await writeFixturePacks();
  store = RangeStore.open({ packsDir: packs.dir, refreshMs: 0 });
  access = await AccessStore.open(":memory:");
  running = await startMcpServer({ port: 0, host: "127.0.0.1", store, access });
  anon = await connect(running.url);
});

afterAll(async () => {
  await anon?.close();
  await running?.close();
  await access?.close();
  store?.close();
});

const loaded = () =>
  store
    .packStatus()
    .filter((s) => s.dataLoaded)
    .map((s) => s.file);

describe("metadata from the resident index", () => {
  it("list_datasets and list_library_solutions read no pack data", async () => {
    expect(loaded()).toEqual([]);
    const out = ListDatasetsSchema.parse(await ok(anon, "list_datasets"));
    expect(out.count).toBe(store.packStatus().filter((s) => s.ok).length);
    for (const row of out.datasets) {
      expect(row.nodeCount, `${row.game}@${row.stack}`).toBe(packs.nodeCounts[`${row.game}@${row.stack}`]);
    }
    const library = (await ok(anon, "list_library_solutions")) as { library: { game: string }[] };
    expect(library.library).toHaveLength(out.count);
    await ok(anon, "get_range_metadata", { game: "nl/v2", stack: 100 });
    await ok(anon, "get_exploitability", { game: "nlmtt8", stack: 40 });
    expect(loaded()).toEqual([]);
    expect(store.cacheStats().packs).toBe(0);
  });

  it("a replaced pack's provenance shows once the store refreshes", async () => {
    const before = ListDatasetsSchema.parse(await ok(anon, "list_datasets", { game: "nlmtt8" }));
    const row = before.datasets.find((d) => d.stack === 40)!;
    const { readPackFile } = await import("@ranges/store");
    const path = packPath(packs.dir, "nlmtt8", 40);
    const data = await readPackFile(path);
    const iterations = (row.iterations ?? 0) + 777;
    await writePack(path, {
      ...data,
      header: { ...data.header, provenance: { ...data.header.provenance, iterations } },
    });
    await store.refresh();
    const after = ListDatasetsSchema.parse(await ok(anon, "list_datasets", { game: "nlmtt8" }));
    expect(after.datasets.find((d) => d.stack === 40)!.iterations).toBe(iterations);
  });
});

describe("JSON-RPC batches", () => {
  const post = (body: unknown) =>
    fetch(running.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify(body),
    });
  const listGames = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "list_games", arguments: {} },
  });

  it(`answers a batch of up to ${MAX_BATCH_MESSAGES} messages and refuses a larger one unread`, async () => {
    const small = await post([listGames(1), listGames(2), listGames(3)]);
    expect(small.status).toBe(200);
    const answers = (await small.json()) as { id: number; result: { isError?: boolean } }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    expect(answers.every((a) => a.result.isError !== true)).toBe(true);

    const large = await post(Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, i) => listGames(i + 1)));
    expect(large.status).toBe(400);
    const body = (await large.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toContain(`at most ${MAX_BATCH_MESSAGES}`);
    expect(MAX_BATCH_MESSAGES).toBeLessThanOrEqual(10);
  });
});
