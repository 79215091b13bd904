/**
 * A PLO pack stored per bucket (header.buckets: the solver's PLO packs) served through real HTTP: /node and
 * /range answer over the 16,432 classes, each class with its bucket's strategy and EV, `hand` as a class
 * name (URL-encoded parentheses) or four concrete cards, `minFreq` trimming the payload.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { PLO_CLASS_COUNT, ploClasses, ploClassIndex } from "@ranges/core";
import type { Node, Range } from "@ranges/schema";
import { type PackData, packPath, writePack } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, getJson, start, type TestServer } from "./helpers.js";

const R = "/api/v1/ranges";
const B = 4;
/** Fold frequency and fold-relative open EV of each bucket. */
const FOLD = [0, 0.25, 0.75, 1];
const OPEN_EV = [1.5, 0.25, -0.1, -0.5];

const bucketOf = (c: number): number => {
  const name = ploClasses()[c]!;
  if (name === "(AK)(AK)") return 0;
  if (name === "9642") return 3;
  return c % B;
};

function bucketedPack(): PackData {
  const map = Buffer.alloc(2 * PLO_CLASS_COUNT);
  for (let c = 0; c < PLO_CLASS_COUNT; c++) map.writeUInt16LE(bucketOf(c), 2 * c);
  const action = (token: "Fold" | "Open", code: number) => ({
    code,
    token,
    kind: token === "Fold" ? ("fold" as const) : ("raise" as const),
    sizeBb: token === "Fold" ? null : 3.5,
    sizePctPot: token === "Fold" ? null : 100,
    freqs: Float32Array.from(FOLD, (f) => (token === "Fold" ? f : 1 - f)),
    evs: Float32Array.from(OPEN_EV, (ev) => (token === "Fold" ? 0 : ev)),
  });
  return {
    header: {
      format: "preflop-ranges-pack",
      formatVersion: 2,
      game: "plo",
      stack: 100,
      classSet: "plo16432",
      classCount: PLO_CLASS_COUNT,
      evUnit: "sb",
      buckets: {
        count: B,
        encoding: "u16le-base64",
        map: map.toString("base64"),
        crc32: crc32(map),
        names: ["b0", "b1", "b2", "b3"],
        representatives: ["(AK)(AK)", "(AK)QJ", "AKQJ", "9642"],
        abstraction: "test: four buckets",
      },
      config: {
        seats: ["UTG", "HJ", "CO", "BTN", "SB", "BB"],
        stacks: [100, 100, 100, 100, 100, 100],
        blinds: { sb: 0.5, bb: 1 },
        ante: null,
        antePostedBy: null,
        stackIncludesAnte: null,
        treeSizes: null,
        openSizes: null,
        rake: { percent: 5, capBb: 0.6, noFlopNoDrop: true },
        importedAt: null,
        unverified: [{ field: "importedAt", reason: "synthetic test pack" }],
      },
      provenance: {
        source: "solver",
        algorithm: "synthetic fixture",
        iterations: 0,
        exploitability: null,
        seed: 1,
        model: null,
        solveSeconds: null,
        createdAt: "2026-01-01T00:00:00.000Z",
        treeConfig: null,
        notes: ["test fixture: strategies per bucket"],
      },
    },
    nodes: [{ history: "UTG", actor: "UTG", depth: 1, actions: [action("Fold", 0), action("Open", 40100)] }],
  };
}

let dir: string;
let t: TestServer;
let key: string;
/** PLO is not keyless: every request carries a key. */
const get = (path: string) => getJson(`${t.base}${R}${path}`, bearer(key));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-plo-buckets-"));
  await writePack(packPath(dir, "plo", 100), bucketedPack());
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
    const [fold, open] = node.actions;
    expect(fold!.action).toBe("Fold");
    const names = ploClasses();
    const named = new Set([...Object.keys(fold!.weights), ...Object.keys(open!.weights)]);
    expect(named.size).toBe(PLO_CLASS_COUNT);
    expect(Object.keys(open!.evs).length).toBe(PLO_CLASS_COUNT);
    for (const c of [0, 1, 2, 3, 77, 5000, 16431]) {
      const b = bucketOf(c);
      expect(fold!.weights[names[c]!] ?? 0).toBe(FOLD[b]);
      expect(open!.evs[names[c]!]).toBe(OPEN_EV[b]);
    }
    expect(fold!.weights["(AK)(AK)"] ?? 0).toBe(0);
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
    expect((range.body as unknown as Range).hand).toBe("9642");
    expect((range.body as unknown as Range).freq).toBe(1);

    const small = await get(`/plo/node?stack=100&history=UTG&minFreq=0.5`);
    expect(small.status).toBe(200);
    const fold = (small.body as unknown as Node).actions[0]!;
    expect(Object.values(fold.weights).every((w) => w > 0.5)).toBe(true);
    const foldCount = Object.keys(fold.weights).length;
    let expected = 0;
    for (let c = 0; c < PLO_CLASS_COUNT; c++) if (FOLD[bucketOf(c)]! > 0.5) expected++;
    expect(foldCount).toBe(expected);
    expect(ploClassIndex("9642")).toBeDefined();
  });
});
