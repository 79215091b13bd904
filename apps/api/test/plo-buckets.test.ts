/**
 * PLO packs stored per bucket (header.buckets: the solver's PLO packs) served through real HTTP, on the shared
 * bucketed fixture (packages/store/test/plo-bucketed.ts): /node and /range answer over the 16,432 classes,
 * each class with its bucket's strategy and EV, `hand` as a class name (URL-encoded parentheses) or four
 * concrete cards, `minFreq` trimming the payload; /spots lists every node of plo and plo9 with its depth and
 * tokens, size-id suffixes included; discovery and the catalog describe the pot-limit trees, the abstraction
 * and what the exploitability measures. Every 200 is validated against its schema by `getJson`.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLO_CLASS_COUNT, ploClasses, ploClassIndex } from "@ranges/core";
import {
  type Catalog,
  CatalogSchema,
  type Discovery,
  DiscoverySchema,
  type Node,
  NodeSchema,
  type Range,
  RangeSchema,
  type Spots,
  SpotsSchema,
} from "@ranges/schema";
import { type PackData, packPath, writePack } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  firstInFold,
  PLO_FIXTURE_BUCKETS,
  ploBucketedPack,
  ploFixtureBucketOf,
  rootOpenEv,
} from "../../../packages/store/test/plo-bucketed.js";
import { bearer, expectError, expectExactly, getJson, start, type TestServer } from "./helpers.js";

const R = "/api/v1/ranges";
const B = PLO_FIXTURE_BUCKETS;
const bucketOf = (c: number) => ploFixtureBucketOf(c, B);

let dir: string;
let t: TestServer;
let key: string;
let plo: PackData;
let plo9: PackData;
/** PLO is not keyless: every data request carries a key. */
const get = (path: string) => getJson(`${t.base}${R}${path}`, bearer(key));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-plo-buckets-"));
  plo = ploBucketedPack({ game: "plo", stack: 100 });
  plo9 = ploBucketedPack({ game: "plo9", stack: 100 });
  await writePack(packPath(dir, "plo", 100), plo);
  await writePack(packPath(dir, "plo9", 100), plo9);
  t = await start({ packsDir: dir, keylessDailyLimit: 100_000 });
  key = (await t.access.createKey({ name: "tests" })).key;
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a PLO pack stored per bucket, over HTTP", () => {
  it("/node answers with weights and EVs over the 16,432 classes from the bucket strategies", async () => {
    const res = await get(`/plo/node?stack=100&history=UTG`);
    expect(res.status).toBe(200);
    const node = res.body as unknown as Node;
    expectExactly(NodeSchema, node);
    const [fold, open] = node.actions;
    expect(node.actions.map((a) => a.action)).toEqual(["Fold", "Open"]);
    expect(open).toMatchObject({ kind: "raise", sizeBb: 3.5, sizePctPot: 100 });
    const names = ploClasses();
    const named = new Set([...Object.keys(fold!.weights), ...Object.keys(open!.weights)]);
    expect(named.size).toBe(PLO_CLASS_COUNT);
    expect(Object.keys(open!.evs).length).toBe(PLO_CLASS_COUNT);
    for (const c of [0, 1, 2, 3, 77, 5000, 16431]) {
      const b = bucketOf(c);
      expect(fold!.weights[names[c]!] ?? 0).toBe(firstInFold(b, B));
      expect(open!.evs[names[c]!]).toBe(rootOpenEv(b, B));
    }
    // Sanity: the double-suited aces never fold first in; rainbow 9642 folds under the gun.
    expect(fold!.weights["(AK)(AK)"] ?? 0).toBe(0);
    expect(open!.weights["(AK)(AK)"]).toBe(1);
    expect(fold!.weights["9642"]).toBe(1);
    // A full PLO node is large (the specification warns it can pass 100 KB).
    expect(res.text.length).toBeGreaterThan(100_000);
  });

  it("takes hand as a URL-encoded class name or four cards, and minFreq trims", async () => {
    const byName = await get(`/plo/node?stack=100&history=UTG&hand=%28AK%29%28AK%29`);
    const byCards = await get(`/plo/node?stack=100&history=UTG&hand=AsKsAhKh`);
    expect(byName.status).toBe(200);
    expect(byCards.body).toEqual(byName.body);
    const open = (byName.body as unknown as Node).actions[1]!;
    expect(open.weights).toEqual({ "(AK)(AK)": 1 });
    expect(open.evs).toEqual({ "(AK)(AK)": 1.5 });

    const range = await get(`/plo/range?stack=100&spot=UTG_Fold&hand=9c6d4h2s`);
    expect(range.status).toBe(200);
    expectExactly(RangeSchema, range.body);
    expect((range.body as unknown as Range).hand).toBe("9642");
    expect((range.body as unknown as Range).freq).toBe(1);

    const small = await get(`/plo/node?stack=100&history=UTG&minFreq=0.5`);
    expect(small.status).toBe(200);
    const fold = (small.body as unknown as Node).actions[0]!;
    expect(Object.values(fold.weights).every((w) => w > 0.5)).toBe(true);
    const foldCount = Object.keys(fold.weights).length;
    let expected = 0;
    for (let c = 0; c < PLO_CLASS_COUNT; c++) if (firstInFold(bucketOf(c), B) > 0.5) expected++;
    expect(foldCount).toBe(expected);
    expect(ploClassIndex("9642")).toBeDefined();
  });

  it("answers a raise token with its size-id suffix, and names the tokens when one is missing", async () => {
    const history = "UTG_Open_HJ";
    const node = (await get(`/plo/node?stack=100&history=${history}&minFreq=0.9`)).body as unknown as Node;
    expect(node.actions.map((a) => a.action)).toEqual(["Fold", "Call", "3B-75", "3B-100"]);
    expect(node.actions.map((a) => a.sizePctPot)).toEqual([null, null, 75, 100]);
    for (const token of ["3B-75", "3B-100"]) {
      const res = await get(`/plo/range?stack=100&spot=${history}_${token}&minFreq=0.5`);
      expect(res.status).toBe(200);
      expectExactly(RangeSchema, res.body);
      expect((res.body as unknown as Range).action).toBe(token);
    }
    // The bare depth token does not name a size at this node: 404 with the tokens to copy.
    const bare = expectError(
      await get(`/plo/range?stack=100&spot=${history}_3B`),
      404,
      "action_not_available",
    );
    expect(bare.hint).toMatchObject({
      validPrefix: history,
      validActions: ["Fold", "Call", "3B-75", "3B-100"],
    });
  });
});

describe("/spots for plo and plo9", () => {
  it("lists every node of the pack with its depth and tokens, size-id suffixes included", async () => {
    for (const [game, pack] of [
      ["plo", plo],
      ["plo9", plo9],
    ] as const) {
      const res = await get(`/${game}/spots?stack=100`);
      expect(res.status, res.text).toBe(200);
      const spots = res.body as unknown as Spots;
      expectExactly(SpotsSchema, spots);
      expect(spots).toMatchObject({ game, stack: 100, count: pack.nodes.length });
      expect(spots.spots).toEqual(
        pack.nodes.map((n) => ({
          history: n.history,
          actor: n.actor,
          depth: n.depth,
          actions: n.actions.map((a) => a.token),
        })),
      );
      expect(new Set(spots.spots.map((s) => s.depth))).toEqual(new Set([1, 2, 3, 4]));
      // A node with two 3-bet sizes lists both suffixed tokens, and each spot is served.
      const sized = spots.spots.find((s) => s.actions.includes("3B-75"))!;
      expect(sized.actions).toEqual(["Fold", "Call", "3B-75", "3B-100"]);
      expect(sized.depth).toBe(2);
      for (const row of spots.spots.slice(0, 5)) {
        const node = await get(`/${game}/node?stack=100&history=${row.history}&minFreq=0.99`);
        expect(node.status).toBe(200);
        expect((node.body as unknown as Node).actions.map((a) => a.action)).toEqual(row.actions);
      }
    }
  });

  it("is keyed, and not served for plo5 and plo6hu", async () => {
    const anon = await getJson(`${t.base}${R}/plo/spots?stack=100`);
    expect(anon.status).toBe(401);
    for (const game of ["plo5", "plo6hu"]) {
      const res = await get(`/${game}/spots?stack=100`);
      expectError(res, 404, "not_found", /\/spots is not served for/);
    }
    expectError(await get(`/plo/spots?stack=50`), 404, "unknown_stack");
  });
});

describe("discovery and catalog describe the PLO games that have packs", () => {
  it("discovery: pot-limit sizing, the bucketed abstraction, exploitability in the solved game", async () => {
    const res = await getJson(`${t.base}${R}/plo`);
    expect(res.status).toBe(200);
    const d = res.body as unknown as Discovery;
    expectExactly(DiscoverySchema, d);
    expect(d).toMatchObject({
      game: "plo",
      stacks: [100],
      positions: ["UTG", "HJ", "CO", "BTN", "SB", "BB"],
    });
    const doc = d.plo!;
    expect(doc).toMatchObject({
      betting: "pot-limit",
      classes: 16432,
      abstractionDoc: "docs/plo-abstraction.md",
    });
    expect(doc.sizing).toMatch(/no raise is larger than the pot/);
    expect(doc.sizing).toMatch(/3B-75 and 3B-100/);
    expect(doc.abstraction).toMatch(new RegExp(`per bucket: ${B} buckets of the 16,432 classes`));
    expect(doc.exploitability).toMatch(/solved game is the bucketed one/);
    const seats = plo.header.provenance.exploitability!;
    expect(doc.packs).toEqual([
      {
        stack: 100,
        storedPer: "bucket",
        buckets: B,
        treeSizes: plo.header.config.treeSizes,
        rake: { percent: 5, capBb: 0.6, noFlopNoDrop: true },
        exploitability: {
          maxMbbPerHand: Math.max(...seats.map((s) => s.mbbPerHand)),
          maxPctPot: Math.max(...seats.map((s) => s.pctPot)),
        },
      },
    ]);
    expect(doc.packs[0]!.treeSizes!.join("; ")).toMatch(/3B-75 75% pot, 3B-100 100% pot/);
  });

  it("the catalog carries the same description; games without packs answer as before", async () => {
    const res = await getJson(`${t.base}${R}/games`);
    const catalog = res.body as unknown as Catalog;
    expectExactly(CatalogSchema, catalog);
    const entry = (game: string) => catalog.games.find((g) => g.game === game)!;
    const discovery = (await getJson(`${t.base}${R}/plo9`)).body as unknown as Discovery;
    expect(entry("plo9").plo).toEqual(discovery.plo);
    expect(entry("plo").plo!.packs.map((p) => p.stack)).toEqual([100]);
    for (const game of ["plo5", "plo6hu", "nl", "nlmtt8"]) {
      expect(entry(game).plo, game).toBeUndefined();
      expect(entry(game).stacks).toEqual([]);
    }
    const plo5 = (await getJson(`${t.base}${R}/plo5`)).body as unknown as Discovery;
    expect(Object.keys(plo5).sort()).toEqual(["game", "positions", "schemaVersion", "stacks", "units"]);
  });
});
