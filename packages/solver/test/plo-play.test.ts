import { PLO_CLASS_COUNT, ploClassIndex } from "@ranges/core";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluate5 } from "../src/eval/evaluator.js";
import {
  buildPloAbstraction,
  PLO_FOCUS,
  PLO_PLAY_ABSTRACTION,
  type PloAbstraction,
  ploClassFeatures,
  ploFocusWeights,
} from "../src/plo/abstraction.js";
import { loadPloBucketEquity, ploBucketMapCrc32 } from "../src/plo/bucket-equity.js";
import { OmahaBoard } from "../src/plo/evaluator.js";
import {
  computePloPlayFeatures,
  loadPloPlayFeatures,
  nutValueAgainst,
  PLO_PLAY_COLUMNS,
  PLO_PLAY_FEATURES_DEFAULTS,
  parsePloPlayFeatures,
  serializePloPlayFeatures,
  sortedPairs,
} from "../src/plo/play-features.js";
import { loadPloRandomEquity } from "../src/plo/random-equity.js";
import { highBits, lowBits } from "../src/plo/table-file.js";

const idx = (name: string): number => {
  const i = ploClassIndex(name);
  if (i === undefined) throw new Error(`no class ${name}`);
  return i;
};

/** A small seeded generator for the brute-force checks (not the tables' own). */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

describe("the nuts a hand can face", () => {
  // Brute force: every pair of cards off the board and the hand, with every three board cards.
  const bruteNut = (board: number[], hand: number[]): number => {
    let best = -1;
    const out = new Set([...board, ...hand]);
    for (let a = 0; a < 52; a++)
      for (let b = a + 1; b < 52; b++) {
        if (out.has(a) || out.has(b)) continue;
        for (let i = 0; i < 5; i++)
          for (let j = i + 1; j < 5; j++)
            for (let k = j + 1; k < 5; k++)
              best = Math.max(best, evaluate5(a, b, board[i]!, board[j]!, board[k]!));
      }
    return best;
  };

  it("is the best two-card Omaha hand among the cards the board and the hand leave, on 40 random deals", () => {
    const random = lcg(5);
    for (let deal = 0; deal < 40; deal++) {
      const cards: number[] = [];
      while (cards.length < 9) {
        const c = Math.floor(random() * 52);
        if (!cards.includes(c)) cards.push(c);
      }
      const board = cards.slice(0, 5);
      const hand = cards.slice(5);
      let lo = 0;
      let hi = 0;
      for (const c of hand) {
        lo |= lowBits(c);
        hi |= highBits(c);
      }
      const rated = new OmahaBoard(board);
      expect(nutValueAgainst(sortedPairs(rated), lo, hi)).toBe(bruteNut(board, hand));
    }
  });

  it("drops the nuts that need a card the hand holds: As Ks on a Qs Js Ts board", () => {
    // spades 4s..As, board Qs Js Ts 3d 2c; the royal flush needs As Ks, the next best a K-high straight flush
    const s = (rank: number) => rank * 4 + 3;
    const board = [s(10), s(9), s(8), 1 * 4, 0 * 4 + 1];
    const rated = new OmahaBoard(board);
    const pairs = sortedPairs(rated);
    expect(nutValueAgainst(pairs, 0, 0)).toBe(rated.pair(s(12), s(11)));
    const hand = [s(12), 5 * 4, 6 * 4, 7 * 4]; // the ace of spades and three offsuit cards
    let lo = 0;
    let hi = 0;
    for (const c of hand) {
      lo |= lowBits(c);
      hi |= highBits(c);
    }
    expect(nutValueAgainst(pairs, lo, hi)).toBe(rated.pair(s(11), s(7)));
  });
});

describe("PLO play features (data/equity/plo-play.bin)", () => {
  const table = loadPloPlayFeatures();
  const f = (key: (typeof PLO_PLAY_COLUMNS)[number], name: string) => table[key][idx(name)]!;

  it("holds every class with the committed sizes, each feature in range", () => {
    expect({
      flops: table.flops,
      runoutsPerFlop: table.runoutsPerFlop,
      opponentsPerBoard: table.opponentsPerBoard,
      seed: table.seed,
    }).toEqual(PLO_PLAY_FEATURES_DEFAULTS);
    for (const key of PLO_PLAY_COLUMNS) {
      expect(table[key]).toHaveLength(PLO_CLASS_COUNT);
      const values = Array.from(table[key]);
      expect(values.every((x) => x >= 0 && x <= 1)).toBe(true);
    }
  });

  it("measures the same equity as the random-hand table, on another sample", () => {
    const eq = loadPloRandomEquity().eq;
    let sum = 0;
    let max = 0;
    for (let i = 0; i < PLO_CLASS_COUNT; i++) {
      const gap = Math.abs(table.equity[i]! - eq[i]!);
      sum += gap;
      max = Math.max(max, gap);
    }
    expect(sum / PLO_CLASS_COUNT).toBeLessThan(0.005);
    expect(max).toBeLessThan(0.025);
  });

  it("gives hands that can never hold the nuts a nut rate of exactly 0: QQQQ and 2222", () => {
    // Two queens of the hand and three board cards: the fourth queen is never there for quads or a straight.
    expect(f("nutRate", "QQQQ")).toBe(0);
    expect(f("nutRate", "2222")).toBe(0);
  });

  it("tells a rundown from a high-card hand of about the same equity", () => {
    expect(Math.abs(f("equity", "JT98") - f("equity", "AK72"))).toBeLessThan(0.05);
    expect(f("nutRate", "JT98")).toBeGreaterThan(3 * f("nutRate", "AK72"));
    expect(f("strongRate", "JT98")).toBeGreaterThan(2 * f("strongRate", "AK72"));
    expect(f("flopSd", "JT98")).toBeGreaterThan(f("flopSd", "AK72") + 0.01);
  });

  it("finds the pairs' equity steady over flops and the rundowns' swinging", () => {
    expect(f("flopSd", "AAKK")).toBeLessThan(f("flopSd", "(JT)(98)") - 0.03);
    expect(f("flopSd", "KK72")).toBeLessThan(f("flopSd", "(87)(65)") - 0.05);
    expect(f("riverSd", "QQQQ")).toBeLessThan(f("riverSd", "9876") - 0.1);
  });

  it("is deterministic and the same for a class whichever other classes are computed", () => {
    const options = { flops: 40, runoutsPerFlop: 3, opponentsPerBoard: 4, seed: 3 };
    const alone = computePloPlayFeatures({ ...options, classes: [idx("(JT)(98)")] });
    const together = computePloPlayFeatures({ ...options, classes: [idx("AAKK"), idx("(JT)(98)")] });
    for (const key of PLO_PLAY_COLUMNS) {
      expect(alone[key][idx("(JT)(98)")]).toBe(together[key][idx("(JT)(98)")]);
      expect(alone[key][idx("AAKK")]).toBeNaN();
    }
  });

  it("round-trips through its file format and refuses a damaged file", () => {
    const bytes = serializePloPlayFeatures(table);
    const back = parsePloPlayFeatures(bytes);
    for (const key of PLO_PLAY_COLUMNS) expect(back[key]).toEqual(table[key]);
    expect(Buffer.from(serializePloPlayFeatures(back)).equals(Buffer.from(bytes))).toBe(true);
    const damaged = bytes.slice();
    damaged[damaged.length - 3]! ^= 1;
    expect(() => parsePloPlayFeatures(damaged)).toThrow(/corrupt/);
    const wrongMagic = bytes.slice();
    wrongMagic[0] = 0x58;
    expect(() => parsePloPlayFeatures(wrongMagic)).toThrow(/bad magic/);
    expect(() => parsePloPlayFeatures(bytes.slice(0, bytes.length - 4))).toThrow(/wrong length/);
  });

  it.each([
    [{ flops: 1 }, /flops/],
    [{ runoutsPerFlop: 1 }, /runoutsPerFlop/],
    [{ runoutsPerFlop: 41 }, /runoutsPerFlop/],
    [{ opponentsPerBoard: 1 }, /opponentsPerBoard/],
    [{ classes: [PLO_CLASS_COUNT] }, /unknown PLO class/],
  ])("refuses options %j", (options, message) => {
    expect(() => computePloPlayFeatures(options)).toThrow(message);
  });
});

describe("the play-aware abstraction", () => {
  let play: PloAbstraction;
  beforeAll(() => {
    play = buildPloAbstraction(PLO_PLAY_ABSTRACTION);
  });

  it("leaves the packs' abstraction as it was: its map is the one the committed bucket table was built for", () => {
    const packs = buildPloAbstraction();
    expect(ploBucketMapCrc32(packs.classToBucket)).toBe(loadPloBucketEquity().mapCrc32);
    expect(packs.params.play).toBeUndefined();
    expect(packs.params.focus).toBeUndefined();
    expect(ploBucketMapCrc32(play.classToBucket)).not.toBe(ploBucketMapCrc32(packs.classToBucket));
  });

  it("records its play weights, the play table and its focus", () => {
    expect(play.params.play).toEqual({
      weights: PLO_PLAY_ABSTRACTION.playWeights,
      ...PLO_PLAY_FEATURES_DEFAULTS,
    });
    expect(play.params.focus).toEqual(PLO_FOCUS);
    expect(play.bucketCount).toBe(512);
    expect(new Set(play.classToBucket).size).toBe(512);
  });

  it("is deterministic", () => {
    const again = buildPloAbstraction(PLO_PLAY_ABSTRACTION);
    expect(Buffer.from(again.classToBucket.buffer).equals(Buffer.from(play.classToBucket.buffer))).toBe(true);
  });

  it("keeps buckets tighter in nut rate and strong-hand rate than the packs' abstraction", () => {
    const packs = buildPloAbstraction();
    const table = loadPloPlayFeatures();
    const medianSpread = (a: PloAbstraction, column: Float64Array) => {
      const lo = new Float64Array(a.bucketCount).fill(1);
      const hi = new Float64Array(a.bucketCount).fill(0);
      a.classToBucket.forEach((b, c) => {
        lo[b] = Math.min(lo[b]!, column[c]!);
        hi[b] = Math.max(hi[b]!, column[c]!);
      });
      const s = Array.from(hi, (h, b) => h - lo[b]!).sort((x, y) => x - y);
      return s[s.length >> 1]!;
    };
    expect(medianSpread(play, table.nutRate)).toBeLessThan(0.85 * medianSpread(packs, table.nutRate));
    expect(medianSpread(play, table.strongRate)).toBeLessThan(0.9 * medianSpread(packs, table.strongRate));
  });

  it("spends its buckets on the hands that are played: fewer classes share a bucket above 0.5 equity than below 0.44", () => {
    const eq = loadPloRandomEquity().eq;
    const size = new Int32Array(play.bucketCount);
    for (const b of play.classToBucket) size[b]! += 1;
    const mean = (keep: (e: number) => boolean) => {
      let sum = 0;
      let n = 0;
      play.classToBucket.forEach((b, c) => {
        if (!keep(eq[c]!)) return;
        sum += size[b]!;
        n++;
      });
      return sum / n;
    };
    expect(mean((e) => e >= 0.5)).toBeLessThan(0.6 * mean((e) => e <= 0.44));
  });

  it("weighs classes by the focus: 0.15 at or below 0.44, 1 at or above 0.5, linear between", () => {
    const features = ploClassFeatures();
    const w = ploFocusWeights(features, PLO_FOCUS);
    features.forEach((f, i) => {
      const expected = 0.15 + 0.85 * Math.min(1, Math.max(0, (f.equity - 0.44) / 0.06));
      expect(w[i]).toBeCloseTo(expected, 12);
    });
    expect(ploFocusWeights(features).every((x) => x === 1)).toBe(true);
  });

  it.each([
    [{ playWeights: { nutRate: -1 } }, /feature weight nutRate/],
    [{ playWeights: { nuts: 1 } as never }, /unknown feature weight "nuts"/],
    [{ focus: { low: 0.5, high: 0.4, floor: 0.2 } }, /focus needs/],
    [{ focus: { low: 0.4, high: 0.5, floor: 0 } }, /focus needs/],
    [{ focus: { low: 0.4, high: 0.5, floor: 1.5 } }, /focus needs/],
    [{ focus: { low: Number.NaN, high: 0.5, floor: 0.2 } }, /focus needs/],
  ])("refuses options %j", (options, message) => {
    expect(() => buildPloAbstraction(options)).toThrow(message);
  });
});
