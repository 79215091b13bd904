/**
 * The PLO description of discovery and the catalog (`RangeStore.ploDoc`), read from the live packs' headers:
 * a bucketed pack and a pack stored per class of the same game are each described as they are, hold'em
 * games and PLO games without packs have none, and a pack that is removed leaves the description.
 */

import { rmSync } from "node:fs";
import { DiscoverySchema } from "@ranges/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPath, RangeStore, writePack } from "../src/index.js";
import { buildPack, tmpDir } from "./fixtures.js";
import { PLO_FIXTURE_BUCKETS, ploBucketedPack } from "./plo-bucketed.js";

let dir: string;
let store: RangeStore;

beforeAll(async () => {
  dir = tmpDir("store-plo-doc-");
  await writePack(packPath(dir, "plo", 100), ploBucketedPack({ game: "plo", stack: 100, maxNodes: 20 }));
  await writePack(packPath(dir, "plo", 50), buildPack({ game: "plo", stack: 50, maxNodes: 3 }));
  await writePack(packPath(dir, "plo9", 100), ploBucketedPack({ game: "plo9", stack: 100, maxNodes: 20 }));
  await writePack(packPath(dir, "nl", 100), buildPack({ game: "nl", stack: 100, maxNodes: 3 }));
  store = RangeStore.open({ packsDir: dir, refreshMs: 0, worker: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ploDoc", () => {
  it("describes each pack as it is stored: per bucket at 100bb, per class at 50bb", () => {
    const doc = store.ploDoc("plo")!;
    expect(doc.packs.map((p) => [p.stack, p.storedPer, p.buckets])).toEqual([
      [50, "class", null],
      [100, "bucket", PLO_FIXTURE_BUCKETS],
    ]);
    expect(doc.abstraction).toMatch(
      new RegExp(`^Strategies are stored per bucket at 100bb: ${PLO_FIXTURE_BUCKETS} buckets of the 16,432`),
    );
    expect(doc.abstraction).toMatch(/At 50bb strategies are stored per class/);
    expect(doc.exploitability).toMatch(/solved game is the bucketed one/);
    // The per-class fixture measured one seat: its largest figures are that seat's.
    expect(doc.packs[0]!.exploitability).toEqual({ maxMbbPerHand: 1.5, maxPctPot: 0.1 });
    expect(doc.packs[0]!.rake).toEqual({ percent: 5, capBb: 0.6, noFlopNoDrop: true });
  });

  it("only PLO games with live packs have one; discovery and the catalog carry it", async () => {
    expect(store.ploDoc("nl")).toBeNull();
    expect(store.ploDoc("plo5")).toBeNull();
    const discovery = DiscoverySchema.parse(store.discovery("plo9"));
    expect(discovery.plo?.packs.map((p) => p.stack)).toEqual([100]);
    expect(discovery.plo?.abstraction).not.toMatch(/per class/);
    const catalog = store.catalog();
    expect(catalog.games.find((g) => g.game === "plo")!.plo).toEqual(store.ploDoc("plo"));
    expect(catalog.games.find((g) => g.game === "nl")!.plo).toBeUndefined();
    expect("plo" in store.discovery("plo6hu")).toBe(false);
    // A pack that is removed leaves the description with its stack.
    rmSync(packPath(dir, "plo", 50));
    await store.refresh();
    expect(store.ploDoc("plo")!.packs.map((p) => p.stack)).toEqual([100]);
    expect(store.ploDoc("plo")!.abstraction).not.toMatch(/per class/);
  });
});
