/**
 * Packs replaced or broken while the API runs, through real HTTP: the API keeps answering (the old pack
 * until the new file verifies), the catalog keeps the stack, and a transient failure heals without a
 * restart.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessStore } from "@ranges/access";
import { HOLDEM_CLASSES } from "@ranges/core";
import { type PackData, packPath, RangeStore, writePack } from "@ranges/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../src/index.js";
import { buildPack, writeFixturePacks } from "./fixtures.js";
import { expectError, getJson, type JsonResponse } from "./helpers.js";

interface Running {
  base: string;
  store: RangeStore;
  close: () => Promise<void>;
}

let dir: string;
let running: Running | null = null;

/** The API on an ephemeral port over `dir`, looking for changed packs every 25 ms. */
async function startApi(): Promise<Running> {
  const store = RangeStore.open({ packsDir: dir, refreshMs: 25 });
  const access = await AccessStore.open(":memory:", { keylessDailyLimit: 1_000_000 });
  const app = createApp({ store, access, logger: () => {} });
  const server: Server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    store,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.close();
      await access.close();
    },
  };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-reload-"));
  await writeFixturePacks(dir, false);
  running = await startApi();
});

afterEach(async () => {
  await running?.close();
  running = null;
  rmSync(dir, { recursive: true, force: true });
});

const NODE = "/api/v1/ranges/nl/v2/node?stack=100&history=UTG_Fold_HJ_Fold_CO";
const file = () => packPath(dir, "nl/v2", 100);

/** The same tree with other strategies: each action takes the frequencies and EVs of the next one. */
function rotated(data: PackData): PackData {
  return {
    header: { ...data.header, provenance: { ...data.header.provenance, notes: ["rotated"] } },
    nodes: data.nodes.map((node) => ({
      ...node,
      actions: node.actions.map((a, i) => {
        const next = node.actions[(i + 1) % node.actions.length]!;
        return { ...a, freqs: next.freqs, evs: next.evs };
      }),
    })),
  };
}

const weights = (r: JsonResponse) => (r.body.actions as { weights: unknown }[]).map((a) => a.weights);
const v2Stacks = (r: JsonResponse) =>
  (r.body.games as { game: string; stacks: number[] }[]).find((g) => g.game === "nl/v2")?.stacks;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a pack replaced while the API runs", () => {
  it("never answers 5xx, keeps the stack in the catalog, and serves the new pack once it verifies", async () => {
    const { base } = running!;
    const before = await getJson(`${base}${NODE}`);
    expect(before.status).toBe(200);

    // What the new pack serves, from a store of its own.
    const next = rotated(buildPack("nl/v2", 100));
    const other = mkdtempSync(join(tmpdir(), "api-reload-expected-"));
    await writePack(packPath(other, "nl/v2", 100), next);
    const expected = JSON.parse(
      RangeStore.open({ packsDir: other, refreshMs: 0 }).json({
        kind: "node",
        game: "nl/v2",
        stack: 100,
        history: "UTG_Fold_HJ_Fold_CO",
      }).body,
    );
    rmSync(other, { recursive: true, force: true });
    expect(expected.actions.map((a: { weights: unknown }) => a.weights)).not.toEqual(weights(before));

    await writePack(file(), next);
    const deadline = Date.now() + 30_000;
    let switched = false;
    let requests = 0;
    while (!switched && Date.now() < deadline) {
      const [node, catalog] = await Promise.all([
        getJson(`${base}${NODE}`),
        getJson(`${base}/api/v1/ranges/games`),
      ]);
      requests += 1;
      expect(node.status, node.text).toBe(200);
      expect(catalog.status).toBe(200);
      expect(v2Stacks(catalog)).toEqual([100]);
      const w = weights(node);
      if (JSON.stringify(w) !== JSON.stringify(weights(before))) {
        expect(node.body).toEqual(expected);
        expect(node.headers.get("etag")).not.toBe(before.headers.get("etag"));
        switched = true;
      }
    }
    expect(switched, `still the old pack after ${requests} requests`).toBe(true);
    // And it stays switched, with the old ETag no longer matching.
    const after = await getJson(`${base}${NODE}`, {
      headers: { "If-None-Match": before.headers.get("etag")! },
    });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(expected);
  });
});

describe("a pack replaced before its first request", () => {
  it("serves the new file (the store opened the old one): no 503, the catalog keeps the stack", async () => {
    const { base } = running!;
    const next = rotated(buildPack("nl/v2", 100));
    await writePack(file(), next);
    const r = await getJson(`${base}${NODE}`);
    expect(r.status, r.text).toBe(200);
    const stored = next.nodes.find((n) => n.history === "UTG_Fold_HJ_Fold_CO")!;
    const fold = stored.actions.find((a) => a.token === "Fold")!;
    const served = (r.body.actions as { action: string; weights: Record<string, number> }[]).find(
      (a) => a.action === "Fold",
    )!;
    // The rotated pack's Fold frequency of the first class, at 4 decimals.
    expect(served.weights[HOLDEM_CLASSES[0]!] ?? 0).toBeCloseTo(fold.freqs[0]!, 4);
    expect(v2Stacks(await getJson(`${base}/api/v1/ranges/games`))).toEqual([100]);
  });
});

describe("a transient failure", () => {
  it("of a pack in memory: the API keeps serving it while the file is broken", async () => {
    const { base } = running!;
    const before = await getJson(`${base}${NODE}`);
    expect(before.status).toBe(200);
    const good = readFileSync(file());
    writeFileSync(file(), good.subarray(0, good.length >> 1)); // truncated in place, not atomically
    for (let i = 0; i < 10; i++) {
      await sleep(25);
      const r = await getJson(`${base}${NODE}&hand=AKs`);
      expect(r.status, r.text).toBe(200);
      expect(v2Stacks(await getJson(`${base}/api/v1/ranges/games`))).toEqual([100]);
    }
    writeFileSync(file(), good);
    await sleep(100);
    const r = await getJson(`${base}${NODE}&minFreq=0.5`);
    expect(r.status).toBe(200);
  });

  it("of a pack not in memory: 503 while the file is broken, served again after, without a restart", async () => {
    const { base } = running!;
    const good = readFileSync(file());
    writeFileSync(file(), good.subarray(0, good.length - 3));
    expectError(await getJson(`${base}${NODE}`), 503, "pack_unavailable", /nl-v2\/100\.pack/);
    expect(v2Stacks(await getJson(`${base}/api/v1/ranges/games`))).toEqual([]);

    writeFileSync(file(), good);
    const deadline = Date.now() + 30_000;
    let r = await getJson(`${base}${NODE}`);
    while (r.status !== 200 && Date.now() < deadline) {
      await sleep(25);
      r = await getJson(`${base}${NODE}`);
    }
    expect(r.status, r.text).toBe(200);
    expect(v2Stacks(await getJson(`${base}/api/v1/ranges/games`))).toEqual([100]);
    expect(running!.store.packStatus().find((p) => p.file === "nl-v2/100.pack")).toMatchObject({
      ok: true,
      error: null,
    });
  });
});
