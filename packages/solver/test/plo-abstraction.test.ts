import { readFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { PLO_CLASS_COUNT, ploClassCombos, ploClasses, ploClassIndex } from "@ranges/core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildPloAbstraction,
  decodePloBucketMap,
  encodePloBucketMap,
  type PloAbstraction,
  type PloClassFeatures,
  ploClassFeatures,
  stratumOf,
} from "../src/plo/abstraction.js";
import { omahaEquity } from "../src/plo/equity.js";
import {
  computePloRandomEquity,
  defaultPloRandomEquityPath,
  loadPloRandomEquity,
  PLO_RANDOM_EQUITY_DEFAULTS,
  parsePloRandomEquity,
  serializePloRandomEquity,
} from "../src/plo/random-equity.js";

const idx = (name: string): number => {
  const i = ploClassIndex(name);
  if (i === undefined) throw new Error(`no class ${name}`);
  return i;
};

describe("PLO equity against a random hand (data/equity/plo-random.bin)", () => {
  const table = loadPloRandomEquity();

  it("holds every class with the committed sizes and small standard errors", () => {
    expect(table.eq).toHaveLength(PLO_CLASS_COUNT);
    expect({ boards: table.boards, opponentsPerBoard: table.opponentsPerBoard, seed: table.seed }).toEqual(
      PLO_RANDOM_EQUITY_DEFAULTS,
    );
    for (let i = 0; i < PLO_CLASS_COUNT; i++) {
      expect(table.eq[i]).toBeGreaterThan(0.05);
      expect(table.eq[i]).toBeLessThan(0.8);
      expect(table.se[i]).toBeGreaterThan(0);
      expect(table.se[i]).toBeLessThan(0.003);
    }
  });

  it("orders the landmarks: double-suited aces on top, quad deuces at the bottom", () => {
    const eq = (n: string) => table.eq[idx(n)]!;
    expect(eq("(AK)(AK)")).toBeGreaterThan(0.68);
    expect(eq("(AK)(AK)")).toBeGreaterThan(eq("AAKK") + 0.03);
    expect(eq("(AK)(QJ)")).toBeGreaterThan(eq("9642") + 0.15);
    expect(eq("2222")).toBeLessThan(0.15);
  });

  // Independent check: the general Monte Carlo of plo/equity.ts, class against a random hand.
  it.each(["(AK)(AK)", "9642", "AKQJ", "(76)(54)"])(
    "%s agrees with omahaEquity within 4 combined standard errors",
    (name) => {
      const mc = omahaEquity({
        hero: { class: name },
        opponents: [{ random: true }],
        samples: 60_000,
        seed: 5,
      });
      const se = Math.hypot(mc.standardErrors[0]!, table.se[idx(name)]!);
      expect(Math.abs(mc.shares[0]! - table.eq[idx(name)]!)).toBeLessThan(4 * se);
    },
  );

  it("is deterministic and the same for a class whichever other classes are computed", () => {
    const some = [idx("(AK)(AK)"), idx("9642"), idx("2222"), idx("(AKQJ)")];
    const a = computePloRandomEquity({ boards: 300, opponentsPerBoard: 8, seed: 3, classes: some });
    const b = computePloRandomEquity({
      boards: 300,
      opponentsPerBoard: 8,
      seed: 3,
      classes: [idx("AAKK"), ...some.reverse()],
    });
    for (const i of some) {
      expect(a.eq[i]).toBe(b.eq[i]);
      expect(a.se[i]).toBe(b.se[i]);
    }
    expect(Number.isNaN(a.eq[idx("AAKK")]!)).toBe(true);
  });

  it("round-trips through its file format and refuses a damaged file", () => {
    const bytes = readFileSync(defaultPloRandomEquityPath());
    const again = serializePloRandomEquity(parsePloRandomEquity(bytes));
    expect(Buffer.from(again).equals(bytes)).toBe(true);
    const flipped = Uint8Array.from(bytes);
    flipped[flipped.length - 3]! ^= 0x40;
    expect(() => parsePloRandomEquity(flipped)).toThrow(/corrupt/);
    const magic = Uint8Array.from(bytes);
    magic[0] = 0x58;
    expect(() => parsePloRandomEquity(magic)).toThrow(/bad magic/);
    expect(() => parsePloRandomEquity(bytes.subarray(0, bytes.length - 4))).toThrow(/wrong length/);
  });

  it.each([
    [{ boards: 1 }, /boards/],
    [{ boards: 10.5 }, /boards/],
    [{ opponentsPerBoard: 0 }, /opponentsPerBoard/],
    [{ classes: [PLO_CLASS_COUNT] }, /unknown PLO class/],
    [{ classes: [-1] }, /unknown PLO class/],
  ])("refuses options %j", (options, message) => {
    expect(() => computePloRandomEquity(options)).toThrow(message);
  });
});

describe("PLO class features", () => {
  const features = ploClassFeatures();
  const f = (name: string): PloClassFeatures => features[idx(name)]!;

  it.each([
    // name, suit pattern, pairing, nut suited, pair rank, danglers
    ["(AK)(AK)", "ds", "two-pair", true, 12, 0],
    ["AAKK", "rainbow", "two-pair", false, 12, 0],
    ["(AK)(QJ)", "ds", "none", true, -1, 0],
    ["AKQJ", "rainbow", "none", false, -1, 0],
    ["9642", "rainbow", "none", false, -1, 0],
    ["AKQ2", "rainbow", "none", false, -1, 1],
    ["(AK)Q2", "ss", "none", true, -1, 1],
    ["(A2)KQ", "ss", "none", true, -1, 0],
    ["(KQJ)T", "3s", "none", false, -1, 0],
    ["(AKQJ)", "4s", "none", true, -1, 0],
    ["(K9)(K4)", "ds", "pair", false, 11, 0],
    ["AAAK", "rainbow", "trips", false, 12, 0],
    ["2222", "rainbow", "quads", false, 0, 0],
  ] as const)(
    "%s: %s, %s, nut suited %s, pair rank %i, %i dangler(s)",
    (name, suit, pairing, nut, pair, d) => {
      const x = f(name);
      expect([x.suitPattern, x.pairing, x.nutSuited, x.pairRank, x.danglers]).toEqual([
        suit,
        pairing,
        nut,
        pair,
        d,
      ]);
      expect(x.combos).toBe(ploClassCombos(idx(name)));
    },
  );

  it("measures connectivity: a wrap beats a disconnected hand", () => {
    expect(f("JT98").wrapWindows).toBe(4); // 7-J, 8-Q, 9-K and 6-T hold three or four of its ranks
    expect(f("JT98").gaps).toBe(0);
    expect(f("AK72").wrapWindows).toBe(0);
    expect(f("JT98").straightWindows).toBeGreaterThan(f("AK72").straightWindows);
    expect(f("(AK)(AK)").suitedTop).toBe(12);
    expect(f("(AK)(AK)").suitedTop2).toBe(12);
    expect(f("(K9)(Q4)").suitedTop2).toBe(10);
  });
});

describe("PLO buckets", () => {
  let a: PloAbstraction;
  beforeAll(() => {
    a = buildPloAbstraction({ buckets: 512 });
  });
  const bucketOf = (name: string) => a.buckets[a.classToBucket[idx(name)]!]!;

  it("maps every class to one of exactly the asked number of buckets, none empty", () => {
    expect(a.bucketCount).toBe(512);
    expect(a.classToBucket).toHaveLength(PLO_CLASS_COUNT);
    const seen = new Array<number>(512).fill(0);
    for (const b of a.classToBucket) {
      expect(b).toBeLessThan(512);
      seen[b]! += 1;
    }
    expect(seen.every((n) => n > 0)).toBe(true);
    expect(a.buckets.map((b) => b.classes)).toEqual(seen);
    expect(a.buckets.reduce((s, b) => s + b.combos, 0)).toBe(270_725);
    expect(new Set(a.buckets.map((b) => b.name)).size).toBe(512);
  });

  it("is deterministic", () => {
    const again = buildPloAbstraction({ buckets: 512 });
    expect(Buffer.from(again.classToBucket.buffer).equals(Buffer.from(a.classToBucket.buffer))).toBe(true);
    expect(again.buckets).toEqual(a.buckets);
  });

  it("never puts two strata in one bucket, and each representative is a member", () => {
    const features = ploClassFeatures();
    for (let i = 0; i < PLO_CLASS_COUNT; i++) {
      expect(a.buckets[a.classToBucket[i]!]!.stratum).toBe(stratumOf(features[i]!));
    }
    for (const b of a.buckets) expect(a.classToBucket[idx(b.representative)]).toBe(b.id);
  });

  it.each([
    ["(AK)(AK)", "AAKK"], // double-suited against rainbow aces and kings
    ["(AK)(AK)", "(AK)AK"], // double-suited against single-suited
    ["(AK)(QJ)", "9642"],
    ["(AK)(QJ)", "(KQ)(JT)"], // the nut suit
    ["(KQ)(JT)", "(76)(32)"], // same stratum, far apart in strength
    ["JT98", "JT92"], // a wrap against a dangler
    ["AAKK", "KKQQ"], // aces
  ])("keeps %s and %s apart", (x, y) => {
    expect(a.classToBucket[idx(x)]).not.toBe(a.classToBucket[idx(y)]);
  });

  it("puts 9642 rainbow with weak hands only, far from AKQJ double-suited", () => {
    const weak = bucketOf("9642");
    const strong = bucketOf("(AK)(QJ)");
    expect(weak.stratum).toBe("rainbow.none");
    expect(weak.maxEquity).toBeLessThan(0.45);
    expect(strong.minEquity - weak.maxEquity).toBeGreaterThan(0.1);
  });

  it("keeps buckets tight in equity against a random hand", () => {
    const spreads = a.buckets.map((b) => b.maxEquity - b.minEquity).sort((x, y) => x - y);
    expect(spreads[Math.floor(spreads.length / 2)]).toBeLessThan(0.05);
    expect(spreads[Math.floor(spreads.length * 0.9)]).toBeLessThan(0.08);
  });

  it.each([64, 256, 1024])("builds %i buckets", (k) => {
    const b = buildPloAbstraction({ buckets: k });
    expect(b.bucketCount).toBe(k);
    expect(new Set(b.classToBucket).size).toBe(k);
    expect(b.classToBucket[idx("(AK)(AK)")]).not.toBe(b.classToBucket[idx("AAKK")]);
  });

  it.each([
    [{ buckets: 0 }, /buckets must be an integer from 64 to 4096/],
    [{ buckets: 63 }, /buckets/],
    [{ buckets: 4097 }, /buckets/],
    [{ buckets: 100.5 }, /buckets/],
    [{ buckets: Number.NaN }, /buckets/],
    [{ buckets: "512" as unknown as number }, /buckets/],
    [{ iterations: 0 }, /iterations/],
    [{ weights: { equity: -1 } }, /feature weight equity/],
    [{ weights: { equity: Number.POSITIVE_INFINITY } }, /feature weight equity/],
    [{ weights: { colour: 1 } as never }, /unknown feature weight "colour"/],
  ])("refuses options %j", (options, message) => {
    expect(() => buildPloAbstraction(options)).toThrow(message);
  });
});

describe("the bucket map as a pack stores it", () => {
  const a = buildPloAbstraction({ buckets: 256 });
  const json = encodePloBucketMap(a);

  it("round-trips through JSON", () => {
    const text = JSON.stringify(json);
    expect(text.length).toBeLessThan(60_000);
    const back = decodePloBucketMap(JSON.parse(text));
    expect(Array.from(back.classToBucket)).toEqual(Array.from(a.classToBucket));
    expect(back.names).toEqual(a.buckets.map((b) => b.name));
    expect(back.representatives[0]).toBe(a.buckets[0]!.representative);
    expect(ploClasses()).toHaveLength(json.classes);
  });

  /** A map with one class moved to `bucket`, re-checksummed so only the value is wrong. */
  const withBucket = (bucket: number, at = 0) => {
    const bytes = Buffer.from(json.map, "base64");
    bytes.writeUInt16LE(bucket, 2 * at);
    return { ...json, map: bytes.toString("base64"), crc32: crc32(bytes) };
  };

  it.each([
    ["not an object", null, /not an object/],
    ["a string", "plo", /not an object/],
    ["another format", { ...json, format: "holdem-map" }, /format/],
    ["version 2", { ...json, version: 2 }, /version/],
    ["169 classes", { ...json, classes: 169 }, /classes/],
    ["another encoding", { ...json, encoding: "u8" }, /encoding/],
    ["zero buckets", { ...json, buckets: 0 }, /buckets/],
    ["non-base64 map", { ...json, map: "!!!" }, /base64/],
    ["a short map", { ...json, map: json.map.slice(0, 400) }, /bytes/],
    ["a checksum mismatch", { ...json, crc32: json.crc32 ^ 1 }, /checksum/],
    ["a bucket out of range", withBucket(256), /bucket 256/],
    [
      "an empty bucket",
      { ...json, buckets: 257, names: [...json.names, "x"], representatives: [...json.representatives, "x"] },
      /bucket 256 has no class/,
    ],
    ["too few names", { ...json, names: json.names.slice(1) }, /names/],
    [
      "a number among representatives",
      { ...json, representatives: [1, ...json.representatives.slice(1)] },
      /representatives/,
    ],
  ])("refuses %s", (_what, input, message) => {
    expect(() => decodePloBucketMap(input)).toThrow(message);
  });
});
