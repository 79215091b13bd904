/**
 * The store's resident index of packs (`packSummaries`, `packSummary`): header facts and node counts without
 * reading any pack's data, kept up to date when a file changes.
 */

import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inflateRawSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { packPath, RangeStore, readPackHead, writePack } from "../src/index.js";
import { buildPack, expectRangesErrorAsync, tmpDir } from "./fixtures.js";

let dir: string;
let stores: RangeStore[] = [];
const open = (): RangeStore => {
  const store = RangeStore.open({ packsDir: dir, refreshMs: 0 });
  stores.push(store);
  return store;
};

const small = buildPack({ game: "nl/v2", stack: 100, maxNodes: 40, seed: 11 });
const larger = buildPack({ game: "nl/v2", stack: 100, maxNodes: 90, seed: 12 });
const mtt = buildPack({ game: "nlmtt8", stack: 40, maxNodes: 30, seed: 3 });

beforeEach(async () => {
  dir = tmpDir("store-summaries-");
  await writePack(packPath(dir, "nl/v2", 100), small);
  await writePack(packPath(dir, "nlmtt8", 40), mtt);
});

afterEach(() => {
  for (const s of stores) s.close();
  stores = [];
  rmSync(dir, { recursive: true, force: true });
});

describe("packSummaries", () => {
  it("lists every live pack with its header and node count and reads no pack data", async () => {
    const store = open();
    const rows = await store.packSummaries();
    expect(rows.map((r) => [r.game, r.stack, r.nodeCount])).toEqual([
      ["nl/v2", 100, small.nodes.length],
      ["nlmtt8", 40, mtt.nodes.length],
    ]);
    expect(rows[0]!.header.provenance).toEqual(small.header.provenance);
    expect(rows.every((r) => !r.dataLoaded)).toBe(true);
    expect(store.packStatus().every((s) => !s.dataLoaded)).toBe(true);
    expect(store.cacheStats().packs).toBe(0);
    // The same facts packMeta gives after loading the pack.
    const meta = store.packMeta("nlmtt8", 40);
    const row = rows[1]!;
    expect({ ...row, dataLoaded: false }).toEqual({
      ...meta,
      game: "nlmtt8",
      stack: 40,
      dataLoaded: false,
    });
    expect((await store.packSummaries("nlmtt8")).map((r) => r.stack)).toEqual([40]);
  });

  it("takes a replaced file's header and node count on refresh", async () => {
    const store = open();
    expect((await store.packSummary("nl/v2", 100)).nodeCount).toBe(small.nodes.length);
    const replaced = {
      ...larger,
      header: { ...larger.header, provenance: { ...larger.header.provenance, iterations: 4321 } },
    };
    await writePack(packPath(dir, "nl/v2", 100), replaced);
    await store.refresh();
    const row = await store.packSummary("nl/v2", 100);
    expect(row.nodeCount).toBe(larger.nodes.length);
    expect(row.header.provenance.iterations).toBe(4321);
    expect(row.dataLoaded).toBe(false);
  });

  it("answers 404 for an unknown stack and 503 for a pack whose head turns out bad", async () => {
    const store = open();
    await expectRangesErrorAsync(store.packSummary("nl/v2", 70), 404, "unknown_stack");
    // Corrupt the index after open (the header stays readable): the node count read fails the pack.
    const path = packPath(dir, "nlmtt8", 40);
    const bytes = readFileSync(path);
    bytes[96 + bytes.readUInt32LE(12) + 5]! ^= 0xff;
    writeFileSync(path, bytes);
    await expectRangesErrorAsync(store.packSummary("nlmtt8", 40), 503, "pack_unavailable");
    expect((await store.packSummaries()).map((r) => r.game)).toEqual(["nl/v2"]);
  });
});

describe("readPackHead", () => {
  it("counts the nodes of every committed pack as parsing its index does", async () => {
    const root = fileURLToPath(new URL("../../../data/packs", import.meta.url));
    let checked = 0;
    for (const game of readdirSync(root)) {
      for (const name of readdirSync(join(root, game)).filter((n) => n.endsWith(".pack"))) {
        const path = join(root, game, name);
        const head = await readPackHead(path);
        const b = readFileSync(path);
        const start = 96 + b.readUInt32LE(12);
        const index = inflateRawSync(b.subarray(start, start + b.readUInt32LE(16)));
        expect(head.nodeCount, path).toBe(JSON.parse(index.toString("utf8")).nodes.length);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
