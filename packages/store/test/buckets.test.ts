/**
 * Bucketed PLO packs (header.buckets): per-bucket data with one class-to-bucket map. The writer and reader
 * lay the data out per bucket and refuse a bad map; the store serves the classes and walks reach over the
 * buckets with the same result as over the expanded classes.
 */

import { crc32 } from "node:zlib";
import { PLO_CLASS_COUNT } from "@ranges/core";
import { describe, expect, it } from "vitest";
import {
  decodePack,
  encodePack,
  expandToClasses,
  nodeReach,
  type PackData,
  PackFormatError,
  packClassToBucket,
  packPath,
  RangeStore,
  storedValueCount,
  writePack,
} from "../src/index.js";
import { buildPack, tmpDir } from "./fixtures.js";

const B = 7;
const bucketOf = (c: number) => (c * 31) % B;

/** A fixture PLO pack turned into a bucketed one: bucket b plays class b's strategy of the fixture. */
function bucketed(): { pack: PackData; expanded: PackData } {
  const base = buildPack({ game: "plo", stack: 100, maxNodes: 12 });
  const map = Buffer.alloc(2 * PLO_CLASS_COUNT);
  for (let c = 0; c < PLO_CLASS_COUNT; c++) map.writeUInt16LE(bucketOf(c), 2 * c);
  const header = {
    ...base.header,
    buckets: {
      count: B,
      encoding: "u16le-base64" as const,
      map: map.toString("base64"),
      crc32: crc32(map),
      names: Array.from({ length: B }, (_, b) => `b${b}`),
      representatives: Array.from({ length: B }, () => "AKQJ"),
      abstraction: "test",
    },
  };
  const pack: PackData = {
    header,
    nodes: base.nodes.map((n) => ({
      ...n,
      actions: n.actions.map((a) => ({
        ...a,
        freqs: a.freqs.slice(0, B),
        evs: a.evs === null ? null : a.evs.slice(0, B),
      })),
    })),
  };
  // The same strategies stored per class: each class gets its bucket's values.
  const classToBucket = Uint16Array.from({ length: PLO_CLASS_COUNT }, (_, c) => bucketOf(c));
  const expanded: PackData = {
    header: base.header,
    nodes: pack.nodes.map((n) => ({
      ...n,
      actions: n.actions.map((a) => ({
        ...a,
        freqs: expandToClasses(a.freqs, classToBucket),
        evs: a.evs === null ? null : expandToClasses(a.evs, classToBucket),
      })),
    })),
  };
  return { pack, expanded };
}

describe("bucketed PLO packs", () => {
  it("store B values per action, round-trip byte for byte, and refuse a bad map", () => {
    const { pack } = bucketed();
    expect(storedValueCount(pack.header)).toBe(B);
    const bytes = encodePack(pack);
    const back = decodePack(bytes);
    expect(back.nodes[0]!.actions[0]!.freqs.length).toBe(B);
    expect(encodePack(back).equals(bytes)).toBe(true);
    expect(Array.from(packClassToBucket(back.header)!.subarray(0, 10))).toEqual(
      Array.from({ length: 10 }, (_, c) => bucketOf(c)),
    );
    const b = pack.header.buckets!;
    const bad = (buckets: object) => () =>
      encodePack({ ...pack, header: { ...pack.header, buckets: { ...b, ...buckets } } });
    expect(bad({ crc32: b.crc32 ^ 1 })).toThrow(PackFormatError);
    expect(
      bad({ count: B - 1, names: b.names.slice(1), representatives: b.representatives.slice(1) }),
    ).toThrow(/bucket|frequencies/);
    expect(bad({ map: Buffer.alloc(10).toString("base64") })).toThrow(/map holds/);
    expect(bad({ names: ["x"] })).toThrow(/names/);
    // Hold'em packs take no buckets.
    const holdem = buildPack({ game: "nlmtt8", stack: 40, maxNodes: 3 });
    expect(() => encodePack({ ...holdem, header: { ...holdem.header, buckets: b } })).toThrow(/PLO packs/);
  });

  it("serve like the same strategies stored per class, with the same reach", async () => {
    const { pack, expanded } = bucketed();
    const dirA = tmpDir();
    const dirB = tmpDir();
    await writePack(packPath(dirA, "plo", 100), pack);
    await writePack(packPath(dirB, "plo", 100), expanded);
    const a = RangeStore.open({ packsDir: dirA });
    const c = RangeStore.open({ packsDir: dirB });
    try {
      for (const node of pack.nodes) {
        expect(a.node("plo", 100, node.history)).toEqual(c.node("plo", 100, node.history));
        expect(a.node("plo", 100, node.history, { hand: "AsKdQhJc" })).toEqual(
          c.node("plo", 100, node.history, { hand: "AKQJ" }),
        );
        const r = nodeReach(pack, node.history);
        expect(r).toBeCloseTo(nodeReach(expanded, node.history), 12);
      }
    } finally {
      a.close();
      c.close();
    }
  });
});
