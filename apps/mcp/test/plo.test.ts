/**
 * The PLO side of the MCP tools through the SDK's own client against a real server, on the shared bucketed
 * PLO fixture (packages/store/test/plo-bucketed.ts, the packs the API's PLO tests serve): compact ranges
 * with counts and representative pure and mixed hands (one per bucket) sized for an agent's context, exact
 * strategies with detail "full" and with `hand` or `combo` (a class name or four cards), list_spots with
 * size-id tokens, and the documentation tools describing the pot-limit trees, the abstraction and the
 * exploitability of the solved (bucketed) game. The server validates every answer strictly against its
 * schema before sending it, and the client validates it against the advertised output schema.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import { ploClasses, ploClassIndex } from "@ranges/core";
import { CatalogSchema, type Node } from "@ranges/schema";
import { type PackData, packPath, RangeStore, writePack } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  firstInFold,
  PLO_FIXTURE_BUCKETS,
  ploBucketedPack,
  ploFixtureBucketOf,
} from "../../../packages/store/test/plo-bucketed.js";
import { COMPACT_BUDGET, COMPACT_FLOOR, REPRESENTATIVES } from "../src/compact.js";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import {
  type CompactAction,
  CompactNodeSchema,
  CompactRangeSchema,
  CompactSpotsSchema,
  ExploitabilitySchema,
  FullNodeSchema,
  FullRangeSchema,
  ListDatasetsSchema,
  RangeMetadataSchema,
  TreeDocsSchema,
} from "../src/schemas.js";
import { call, connect, fails, ok } from "./helpers.js";

const B = PLO_FIXTURE_BUCKETS;
let dir: string;
let plo: PackData;
let store: RangeStore;
let access: AccessStore;
let running: RunningMcpServer;
let anon: Client;
let keyed: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-plo-"));
  plo = ploBucketedPack({ game: "plo", stack: 100 });
  await writePack(packPath(dir, "plo", 100), plo);
  await writePack(packPath(dir, "plo9", 100), ploBucketedPack({ game: "plo9", stack: 100 }));
  store = RangeStore.open({ packsDir: dir });
  access = await AccessStore.open(":memory:");
  running = await startMcpServer({ port: 0, host: "127.0.0.1", store, access });
  anon = await connect(running.url);
  keyed = await connect(running.url, (await access.createKey({ name: "tests" })).key);
});

afterAll(async () => {
  await anon?.close();
  await keyed?.close();
  await running?.close();
  access?.close();
  rmSync(dir, { recursive: true, force: true });
});

const names = ploClasses();
const bucketOfName = (name: string) => ploFixtureBucketOf(ploClassIndex(name)!, B);
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Checks a compact PLO action against the full node's weights for the same action. */
function checkCompactAction(a: CompactAction, weights: Record<string, number>, threshold: number): void {
  const kept = Object.entries(weights).filter(([, f]) => f > threshold);
  const pure = kept.filter(([, f]) => f >= 0.995);
  expect(a.counts).toMatchObject({
    classes: kept.length,
    pure: pure.length,
    mixed: kept.length - pure.length,
  });
  const pureBuckets = new Set(pure.map(([n]) => bucketOfName(n)));
  const mixedBuckets = new Set(kept.filter(([, f]) => f < 0.995).map(([n]) => bucketOfName(n)));
  expect(a.counts!.buckets).toEqual({ pure: pureBuckets.size, mixed: mixedBuckets.size });
  const rep = a.representative!;
  expect(rep.pure.length).toBe(Math.min(REPRESENTATIVES, pureBuckets.size));
  expect(rep.mixed.length).toBe(Math.min(REPRESENTATIVES, mixedBuckets.size));
  // One class per bucket, each the bucket's representative in the pack, taking the action as shown.
  const shown = [...rep.pure, ...rep.mixed.map((m) => m.slice(0, m.lastIndexOf(":")))];
  expect(new Set(shown.map(bucketOfName)).size).toBe(shown.length);
  for (const name of shown) {
    expect(plo.header.buckets!.representatives[bucketOfName(name)]).toBe(name);
  }
  for (const name of rep.pure) expect(weights[name]).toBeGreaterThanOrEqual(0.995);
  for (const m of rep.mixed) {
    const [name, f] = [m.slice(0, m.lastIndexOf(":")), Number(m.slice(m.lastIndexOf(":") + 1))];
    expect(Math.abs(weights[name]! - f)).toBeLessThanOrEqual(0.005);
  }
  // The top EVs are one class per bucket too.
  const top = a.topEvsSb ?? [];
  expect(new Set(top.map((e) => bucketOfName(e.hand))).size).toBe(top.length);
}

describe("compact PLO ranges", () => {
  it("get_node: counts of classes and buckets, representative pure and mixed hands, a few KB", async () => {
    const result = await call(keyed, "get_node", { game: "plo", stack: 100, history: "UTG" });
    const node = CompactNodeSchema.parse(result.structuredContent);
    expect(node.actions.map((a) => a.action)).toEqual(["Fold", "Open"]);
    const full = store.node("plo", 100, "UTG");
    node.actions.forEach((a, i) => {
      checkCompactAction(a, full.actions[i]!.weights, node.threshold);
    });
    const open = node.actions[1]!;
    // Highest EV first: the double-suited aces' bucket leads the pure opens; 9642's bucket only folds.
    expect(open.representative!.pure[0]).toBe("(AK)(AK)");
    expect(open.representative!.pure).not.toContain("9642");
    // Fold EVs are all 0: the fold representatives go by rank, high to low.
    const folds = node.actions[0]!.representative!.pure.map((n) => ploClassIndex(n)!);
    expect(folds).toEqual([...folds].sort((a, b) => a - b));
    expect(open.representative!.mixed.every((m) => /^.+:0\.\d+$/.test(m))).toBe(true);
    expect(node.rangeFormat).toMatch(new RegExp(`one strategy per bucket \\(${B} buckets`));
    expect(node.threshold).toBe(COMPACT_FLOOR);
    if (process.env.MCP_SIZES) console.log({ ploCompactNodeBytes: bytes(result.structuredContent) });
    expect(bytes(result.structuredContent)).toBeLessThan(COMPACT_BUDGET);
  });

  it("get_range: one action summarized, with its size, sized for an agent's context", async () => {
    const result = await call(keyed, "get_range", { game: "plo", stack: 100, spot: "UTG_Fold_HJ_Open" });
    const range = CompactRangeSchema.parse(result.structuredContent);
    expect(range).toMatchObject({ action: "Open", kind: "raise", sizePctPot: 100, sizeBb: 3.5 });
    const full = store.range("plo", 100, "UTG_Fold_HJ_Open");
    checkCompactAction(range as unknown as CompactAction, full.weights, range.threshold);
    const size = bytes(result.structuredContent);
    if (process.env.MCP_SIZES) {
      console.log({ ploCompactRangeBytes: size, ploFullRangeBytes: bytes(full) });
      console.log(JSON.stringify(result.structuredContent, null, 1));
    }
    expect(size).toBeLessThan(4000);
    // A node with two 3-bet sizes: each suffixed token is its own range.
    for (const token of ["3B-75", "3B-100"]) {
      const r = CompactRangeSchema.parse(
        await ok(keyed, "get_range", { game: "plo", stack: 100, spot: `UTG_Open_HJ_${token}` }),
      );
      expect(r).toMatchObject({ action: token, sizePctPot: Number(token.slice(3)) });
    }
  });

  it("minFreq raises the threshold of the compact form", async () => {
    const node = CompactNodeSchema.parse(
      await ok(keyed, "get_node", { game: "plo", stack: 100, history: "UTG", minFreq: 0.5 }),
    );
    expect(node.threshold).toBe(0.5);
    const full = store.node("plo", 100, "UTG");
    node.actions.forEach((a, i) => {
      checkCompactAction(a, full.actions[i]!.weights, 0.5);
    });
  });
});

describe("exact PLO strategies", () => {
  it("hand as a class name or four cards, combo as four cards: that class's exact numbers and its bucket", async () => {
    const full = store.node("plo", 100, "UTG");
    for (const args of [{ hand: "(AK)(AK)" }, { hand: "AsKsAhKh" }, { combo: "AdKdAcKc" }]) {
      const node = CompactNodeSchema.parse(
        await ok(keyed, "get_node", { game: "plo", stack: 100, history: "UTG", ...args }),
      );
      expect(node.hand).toBe("(AK)(AK)");
      expect(node.actions.map((a) => [a.action, a.freq, a.evSb])).toEqual(
        full.actions.map((a) => [a.action, a.weights["(AK)(AK)"] ?? 0, a.evs["(AK)(AK)"]]),
      );
      expect(node.bucket).toEqual({
        name: "fixture.1",
        representative: "(AK)(AK)",
        classes: names.filter((_, c) => ploFixtureBucketOf(c, B) === 0).length,
      });
      expect(node.rangeFormat).toBeUndefined();
      if ("combo" in args) expect(node.combo).toBe("AdKdAcKc");
    }
    const fold = CompactRangeSchema.parse(
      await ok(keyed, "get_range", { game: "plo", stack: 100, spot: "UTG_Fold", hand: "9c6d4h2s" }),
    );
    expect(fold).toMatchObject({ hand: "9642", freq: 1, evSb: 0 });
    expect(fold.bucket).toMatchObject({ representative: "9642", name: `fixture.${B}` });
    // Another class of 9642's bucket plays the same strategy and names the same bucket.
    const other = names.find((n, c) => n !== "9642" && ploFixtureBucketOf(c, B) === B - 1)!;
    const same = CompactRangeSchema.parse(
      await ok(keyed, "get_range", { game: "plo", stack: 100, spot: "UTG_Fold", hand: other }),
    );
    expect(same).toMatchObject({ hand: other, freq: firstInFold(B - 1, B), evSb: 0, bucket: fold.bucket });
  });

  it('detail "full" with minFreq or hand is the API object; without either it is refused', async () => {
    const node = FullNodeSchema.parse(
      await ok(keyed, "get_node", { game: "plo", stack: 100, history: "UTG", detail: "full", minFreq: 0.9 }),
    );
    const { warnings, ...body } = node;
    expect(body).toEqual(store.node("plo", 100, "UTG", { minFreq: 0.9 }));
    expect(warnings).toEqual([]);
    const range = FullRangeSchema.parse(
      await ok(keyed, "get_range", {
        game: "plo",
        stack: 100,
        spot: "UTG_Open",
        detail: "full",
        hand: "(AK)(AK)",
      }),
    );
    expect(range).toMatchObject({ hand: "(AK)(AK)", freq: 1, weights: { "(AK)(AK)": 1 } });
    expect(
      await fails(keyed, "get_range", { game: "plo", stack: 100, spot: "UTG_Open", detail: "full" }),
    ).toMatchObject({ status: 400, code: "invalid_parameter" });
    expect(await fails(anon, "get_node", { game: "plo", stack: 100, history: "UTG" })).toMatchObject({
      status: 401,
    });
  });
});

describe("list_spots for PLO", () => {
  it("finds the nodes with size-id tokens; every page matches the pack", async () => {
    for (const game of ["plo", "plo9"]) {
      const all = store.spots(game as "plo", 100).spots;
      const page = CompactSpotsSchema.parse(
        await ok(keyed, "list_spots", { game, stack: 100, query: "action:3B-75" }),
      );
      const sized = all.filter((s) => s.actions.includes("3B-75"));
      expect(sized.length).toBeGreaterThan(0);
      expect(page.total).toBe(sized.length);
      expect(page.spots).toEqual(sized.slice(0, 50));
      for (const row of page.spots) expect(row.actions).toEqual(["Fold", "Call", "3B-75", "3B-100"]);
      const deep = CompactSpotsSchema.parse(
        await ok(keyed, "list_spots", { game, stack: 100, query: "depth:4", limit: 200 }),
      );
      expect(deep.total).toBe(all.filter((s) => s.depth === 4).length);
    }
  });
});

describe("documentation of the PLO games", () => {
  it("get_tree_docs: pot-limit sizing, suffix tokens, the abstraction and the exploitability of the solved game", async () => {
    const docs = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "plo" }));
    expect(docs).toMatchObject({ stack: 100, stacks: [100], tokens: { style: "depth" } });
    expect(docs.tokens.allowed).toContain("<token>-<size_id>");
    expect(docs.tokens.grammar).toMatch(/no raise is larger than the pot/);
    expect(docs.tokens.grammar).toMatch(/3B-75 and 3B-100/);
    expect(docs.treeSizes).toEqual(plo.header.config.treeSizes);
    expect(docs.rake).toEqual({ percent: 5, capBb: 0.6, noFlopNoDrop: true });
    expect(docs.plo).toEqual(store.ploDoc("plo"));
    expect(docs.plo!.abstraction).toMatch(new RegExp(`${B} buckets of the 16,432 classes`));
    expect(docs.plo!.abstractionDoc).toBe("docs/plo-abstraction.md");
    expect(docs.plo!.exploitability).toMatch(/bucketed/);
    expect(docs.examples[0]!.history).toBe("UTG");
    for (const e of docs.examples) expect(() => store.node("plo", 100, e.history)).not.toThrow();
    // A PLO game without packs answers as before: no examples, no description.
    const none = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "plo5" }));
    expect(none).toMatchObject({ stack: null, examples: [], treeSizes: null });
    expect(none.plo).toBeUndefined();
    expect(none.warnings[0]).toMatch(/No pack/);
  });

  it("list_datasets: PLO rows say how strategies are stored and where exploitability was measured", async () => {
    const out = ListDatasetsSchema.parse(await ok(anon, "list_datasets"));
    expect(out.datasets.map((d) => `${d.game}@${d.stack}`)).toEqual(["plo@100", "plo9@100"]);
    for (const row of out.datasets) {
      expect(row.abstraction).toMatchObject({
        classes: 16432,
        storedPer: "bucket",
        buckets: B,
        doc: "docs/plo-abstraction.md",
      });
      expect(row.abstraction!.description).toMatch(/test fixture/);
      expect(row.exploitability).toMatchObject({ measured: true });
      expect(row.exploitability!.measuredIn).toMatch(/solved \(bucketed\) game/);
    }
  });

  it("list_games, get_range_metadata and get_exploitability carry the same facts", async () => {
    const games = CatalogSchema.parse(await ok(anon, "list_games"));
    expect(games.games.find((g) => g.game === "plo")!.plo).toEqual(store.ploDoc("plo"));
    expect(games.games.find((g) => g.game === "plo9")!.plo!.packs[0]).toMatchObject({ buckets: B });
    expect(games.games.find((g) => g.game === "plo5")!.plo).toBeUndefined();
    const meta = RangeMetadataSchema.parse(await ok(anon, "get_range_metadata", { game: "plo", stack: 100 }));
    expect(meta.abstraction).toMatchObject({ storedPer: "bucket", buckets: B });
    expect(meta.classSet).toBe("plo16432");
    const ex = ExploitabilitySchema.parse(await ok(anon, "get_exploitability", { game: "plo", stack: 100 }));
    expect(ex.measured).toBe(true);
    expect(ex.caveat).toMatch(/measured, in the bucketed game/);
  });

  it("a full node's compact form stays small however the buckets mix", async () => {
    // Every tenth node of the fixture, compact: the largest stays within the budget.
    let largest = 0;
    for (const row of store.spots("plo", 100).spots.filter((_, i) => i % 10 === 0)) {
      const r = await call(keyed, "get_node", { game: "plo", stack: 100, history: row.history });
      expect(r.isError, row.history).toBeFalsy();
      largest = Math.max(largest, bytes(r.structuredContent));
    }
    if (process.env.MCP_SIZES) console.log({ ploCompactNodeMaxBytes: largest });
    expect(largest).toBeLessThan(COMPACT_BUDGET);
    expect((store.node("plo", 100, "UTG") as Node).actions).toHaveLength(2);
  });
});
