import {
  PLO_CLASS_COUNT,
  parseCards,
  ploClassCombos,
  ploClassIndex,
  ploClassNameOfCards,
} from "@ranges/core";
import { describe, expect, it } from "vitest";
import { exactOmahaEquity, omahaEquity, ploHandsOfClass } from "../src/plo/equity.js";

const cards = (text: string): number[] => parseCards(text, text.length / 2)!;

describe("PLO classes", () => {
  it.each(["(AK)(AK)", "AAKK", "(AKQJ)", "(AKQ)J", "9642"])(
    "%s: its hands are its combos, all of it",
    (name) => {
      const hands = ploHandsOfClass(name);
      expect(hands).toHaveLength(ploClassCombos(ploClassIndex(name)!));
      for (const h of hands) expect(ploClassNameOfCards(h)).toBe(name);
    },
  );

  it("refuses an unknown class", () => {
    expect(() => ploHandsOfClass("AAAAA")).toThrow(/unknown PLO class/);
    expect(() => ploHandsOfClass(PLO_CLASS_COUNT)).toThrow(/unknown PLO class/);
  });
});

describe("exact and Monte Carlo equity", () => {
  // Two spot checks enumerated over all 1,086,008 boards, then estimated by Monte Carlo.
  const spots = [
    ["AsAhKsKh", "JdTd9c8c"],
    ["AcKd7h2s", "QhQsJc6d"],
  ] as const;

  it.each(spots)("%s vs %s: Monte Carlo lands within 4 standard errors of the enumeration", (x, y) => {
    const a = cards(x);
    const b = cards(y);
    const exact = exactOmahaEquity(a, b);
    expect(exact.boards).toBe(1_086_008);
    expect(exact.equity).toBeGreaterThan(0);
    expect(exact.equity).toBeLessThan(1);
    // Symmetry: the other hand's share is the rest.
    expect(exactOmahaEquity(b, a).equity).toBeCloseTo(1 - exact.equity, 12);
    const mc = omahaEquity({ hero: { hand: a }, opponents: [{ hand: b }], samples: 100_000, seed: 3 });
    expect(mc.shares[0]! + mc.shares[1]!).toBeCloseTo(1, 12);
    expect(mc.standardErrors[0]).toBeGreaterThan(0.0005);
    expect(mc.standardErrors[0]).toBeLessThan(0.002);
    expect(Math.abs(mc.shares[0]! - exact.equity)).toBeLessThan(4 * mc.standardErrors[0]!);
  });

  it("is deterministic for a seed", () => {
    const o = { hero: { class: "(AK)(AK)" }, opponents: [{ random: true as const }], samples: 2000, seed: 9 };
    expect(omahaEquity(o)).toEqual(omahaEquity(o));
  });

  it("ranks hands as players know them against a random hand, and three-way shares sum to 1", () => {
    const vsRandom = (name: string) =>
      omahaEquity({ hero: { class: name }, opponents: [{ random: true }], samples: 20_000, seed: 5 })
        .shares[0]!;
    const aakkDs = vsRandom("(AK)(AK)");
    const rainbowJunk = vsRandom("9642");
    expect(aakkDs).toBeGreaterThan(0.6);
    expect(rainbowJunk).toBeLessThan(0.45);
    const three = omahaEquity({
      hero: { class: "(AK)(AK)" },
      opponents: [{ random: true }, { random: true }],
      samples: 20_000,
      seed: 6,
    });
    expect(three.shares.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    expect(three.shares[0]).toBeGreaterThan(three.shares[1]!);
    expect(three.standardErrors.every((e) => e > 0 && e < 0.01)).toBe(true);
  });

  it("removes cards exactly: a range that needs the hero's cards is redrawn, or refused when nothing is left", () => {
    // Hero holds two aces; the opponent's range is AAxx-only classes: they must take the other two aces.
    const weights = new Float64Array(PLO_CLASS_COUNT);
    weights[ploClassIndex("AAKK")!] = 1;
    const r = omahaEquity({
      hero: { hand: cards("AsAhQdJc") },
      opponents: [{ weights }],
      samples: 500,
      seed: 2,
    });
    expect(r.redraws).toBeGreaterThan(0);
    expect(r.shares[1]).toBeGreaterThan(0.5);
    // A hero with three aces leaves one: no AAKK hand fits.
    expect(() =>
      omahaEquity({ hero: { hand: cards("AsAhAdJc") }, opponents: [{ weights }], samples: 10, seed: 2 }),
    ).toThrow(/no hand compatible/);
  });

  it.each([
    [{ hero: { hand: [1, 2, 3] }, opponents: [{ random: true }] }, /four cards/],
    [{ hero: { class: "XYZ" }, opponents: [{ random: true }] }, /unknown PLO class/],
    [{ hero: { random: true }, opponents: [] }, /one or two opponents/],
    [{ hero: { random: true }, opponents: [{ weights: [1, 2] }] }, /16432 weights/],
    [{ hero: { random: true }, opponents: [{ weights: new Float64Array(PLO_CLASS_COUNT) }] }, /empty/],
    [{ hero: { random: true }, opponents: [{ random: true }], samples: 1 }, /samples/],
  ])("refuses bad input %#", (o, message) => {
    // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
    expect(() => omahaEquity(o as any)).toThrow(message);
  });
});
