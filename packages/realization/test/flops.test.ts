import { representativeFlops } from "@ranges/postflop";
import { describe, expect, it } from "vitest";
import { BALANCED_FLOPS_SEED, balancedFlops, flopsOf, lineFlopSeed, rankCounts } from "../src/index.js";

describe("balancedFlops", () => {
  it.each([13, 30, 37, 60])("puts every rank on %i flops floor(3n/13) or ceil(3n/13) times", (n) => {
    const counts = rankCounts(balancedFlops(n));
    expect(counts.reduce((s, c) => s + c, 0)).toBe(3 * n);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });

  it("deals valid, canonical flops weighing 1/n, the same for the same seed", () => {
    const flops = balancedFlops(30);
    for (const f of flops) {
      expect(f.board).toMatch(/^([2-9TJQKA][shdc]){3}$/);
      expect(new Set([f.board.slice(0, 2), f.board.slice(2, 4), f.board.slice(4, 6)]).size).toBe(3);
      // Canonical: the first suit named is spades.
      expect(f.board[1]).toBe("s");
    }
    expect(flops.reduce((s, f) => s + f.weight, 0)).toBeCloseTo(1, 12);
    expect(balancedFlops(30)).toEqual(flops);
    expect(balancedFlops(30, BALANCED_FLOPS_SEED + 1)).not.toEqual(flops);
  });

  it("is what the postflop packs' representative flops are not: the representative 30 hold no deuce", () => {
    expect(rankCounts(flopsOf("representative", 30))[0]).toBe(0);
    expect(flopsOf("representative", 30).map((f) => f.board)).toEqual(
      representativeFlops(30).map((f) => f.board),
    );
    expect(rankCounts(flopsOf("balanced", 30))[0]).toBeGreaterThanOrEqual(6);
  });

  it.each([0, -1, 2.5, 1001, Number.NaN])("refuses %s flops", (n) => {
    expect(() => balancedFlops(n)).toThrow(RangeError);
  });
});

describe("balanced-per-line flops", () => {
  it("differ from line to line, stay balanced, and are the same for the same line", () => {
    const a = flopsOf("balanced-per-line", 15, { game: "nlmtt8", stack: 40, line: "srp-btn-bb" });
    const b = flopsOf("balanced-per-line", 15, { game: "nlmtt8", stack: 40, line: "srp-co-bb" });
    const c = flopsOf("balanced-per-line", 15, { game: "nl/v2", stack: 40, line: "srp-btn-bb" });
    expect(flopsOf("balanced-per-line", 15, { game: "nlmtt8", stack: 40, line: "srp-btn-bb" })).toEqual(a);
    const boards = (x: typeof a) => new Set(x.map((f) => f.board));
    const shared = (x: typeof a, y: typeof a) => [...boards(x)].filter((f) => boards(y).has(f)).length;
    expect(shared(a, b)).toBeLessThan(3);
    expect(shared(a, c)).toBeLessThan(3);
    for (const x of [a, b, c]) {
      const counts = rankCounts(x);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
    expect(lineFlopSeed("nlmtt8", 40, "srp-btn-bb")).not.toBe(lineFlopSeed("nlmtt8", 40, "srp-co-bb"));
  });

  it("need the line", () => {
    expect(() => flopsOf("balanced-per-line", 15)).toThrow(/need the line/);
  });
});
