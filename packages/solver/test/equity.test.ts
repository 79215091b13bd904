import {
  HOLDEM_CLASS_COMBOS,
  HOLDEM_CLASSES,
  holdemClassIndex,
  holdemClassOfCards,
  holdemComboCards,
  parseCards,
} from "@ranges/core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ALL_BOARDS,
  BoardSweep,
  canonicalBoards,
  combineHeadsUpParts,
  computeHeadsUpEquity,
  computeHeadsUpPart,
  exactHeadsUpEquity,
  type HeadsUpEquityTable,
  headsUpPairWeights,
  loadHeadsUpEquity,
  parseHeadsUpEquity,
  serializeHeadsUpEquity,
} from "../src/equity/index.js";
import { evaluate7 } from "../src/eval/index.js";

const N = 169;
const classIndex = (name: string): number => {
  const index = holdemClassIndex(name);
  if (index === undefined) throw new Error(`no class ${name}`);
  return index;
};
const combo = (text: string): [number, number] => parseCards(text, 2) as [number, number];
const sharesCard = (x: readonly number[], y: readonly number[]): boolean =>
  x.some((card) => y.includes(card));

const SUIT_PERMUTATIONS: number[][] = [];
for (let a = 0; a < 4; a++)
  for (let b = 0; b < 4; b++)
    for (let c = 0; c < 4; c++)
      for (let d = 0; d < 4; d++) if (new Set([a, b, c, d]).size === 4) SUIT_PERMUTATIONS.push([a, b, c, d]);

/** Key shared by every suit relabelling of (hero combo, villain combo): they all have the same equity. */
function matchupKey(hero: readonly number[], villain: readonly number[]): string {
  let best = "";
  for (const permutation of SUIT_PERMUTATIONS) {
    const relabel = (cards: readonly number[]) =>
      cards.map((card) => (card & ~3) | permutation[card & 3]!).sort((x, y) => x - y);
    const key = [...relabel(hero), ...relabel(villain)].join(",");
    if (best === "" || key < best) best = key;
  }
  return best;
}

/** Class-pair equity by exact enumeration of every non-conflicting combo pair, independently of the table. */
function exactClassEquity(hero: string, villain: string): number {
  const cache = new Map<string, number>();
  let sum = 0;
  let pairs = 0;
  for (const heroCombo of holdemComboCards(classIndex(hero))) {
    for (const villainCombo of holdemComboCards(classIndex(villain))) {
      if (sharesCard(heroCombo, villainCombo)) continue;
      const key = matchupKey(heroCombo, villainCombo);
      let equity = cache.get(key);
      if (equity === undefined) {
        equity = exactHeadsUpEquity(heroCombo, villainCombo).equity;
        cache.set(key, equity);
      }
      sum += equity;
      pairs++;
    }
  }
  return sum / pairs;
}

describe("class-pair weights W", () => {
  const w = headsUpPairWeights();

  it("count non-conflicting ordered combo pairs, checked against core's combo lists", () => {
    const combos = HOLDEM_CLASSES.map((_, index) => holdemComboCards(index));
    for (let hero = 0; hero < N; hero++) {
      for (let villain = 0; villain < N; villain++) {
        let pairs = 0;
        for (const x of combos[hero]!) for (const y of combos[villain]!) if (!sharesCard(x, y)) pairs++;
        if (w[hero * N + villain] !== pairs) expect.fail(`W ${hero},${villain} = ${w[hero * N + villain]}`);
      }
    }
    expect(w[classIndex("AA") * N + classIndex("AA")]).toBe(6);
    expect(w[classIndex("AA") * N + classIndex("KK")]).toBe(36);
    expect(w[classIndex("AA") * N + classIndex("AKo")]).toBe(36);
    expect(w[classIndex("AKs") * N + classIndex("AKs")]).toBe(12);
  });

  it("are symmetric, and each combo meets 1,225 of the other 1,325 combos (101 conflict, itself included)", () => {
    let total = 0;
    for (let hero = 0; hero < N; hero++) {
      let row = 0;
      for (let villain = 0; villain < N; villain++) {
        expect(w[hero * N + villain]).toBe(w[villain * N + hero]);
        row += w[hero * N + villain]!;
      }
      expect(row).toBe(HOLDEM_CLASS_COMBOS[hero]! * 1225);
      total += row;
    }
    expect(total).toBe(1326 * 1225);
    expect(6 * 1225).toBe(6 * ((50 * 49) / 2));
  });
});

describe("board sweep", () => {
  /** Brute force: every ordered pair of live, disjoint combos compared directly. */
  function bruteForce(board: number[]): { wins: Float64Array; ties: Float64Array } {
    const live: Array<{ cards: [number, number]; cls: number; value: number }> = [];
    for (let a = 0; a < 52; a++) {
      for (let b = a + 1; b < 52; b++) {
        if (board.includes(a) || board.includes(b)) continue;
        const [c1, c2, c3, c4, c5] = board as [number, number, number, number, number];
        live.push({
          cards: [a, b],
          cls: holdemClassOfCards(a, b),
          value: evaluate7(c1, c2, c3, c4, c5, a, b),
        });
      }
    }
    const wins = new Float64Array(N * N);
    const ties = new Float64Array(N * N);
    for (const hero of live) {
      for (const villain of live) {
        if (hero === villain || sharesCard(hero.cards, villain.cards)) continue;
        if (hero.value > villain.value) wins[hero.cls * N + villain.cls]!++;
        else if (hero.value === villain.value) ties[hero.cls * N + villain.cls]!++;
      }
    }
    return { wins, ties };
  }

  it.each([
    ["rainbow", "2c7d9hJsKc"],
    ["monotone", "3h8hTh4hAh"],
    ["paired", "5c5d9sQsQh"],
    ["straight on board", "9cTdJhQsKs"],
    ["quads on board", "7c7d7h7s2c"],
  ])("matches brute force on a %s board", (_, text) => {
    const board = parseCards(text, 5)!;
    const wins = new Float64Array(N * N);
    const ties = new Float64Array(N * N);
    new BoardSweep().accumulate(board, 1, wins, ties);
    const expected = bruteForce(board);
    expect(wins).toEqual(expected.wins);
    expect(ties).toEqual(expected.ties);
  });

  it("covers every board once through 134,459 suit-permutation orbits", () => {
    const { boards, weights } = canonicalBoards();
    expect(weights.length).toBe(134_459);
    expect(weights.reduce((sum, size) => sum + size, 0)).toBe(ALL_BOARDS);
    expect(boards.length).toBe(weights.length * 5);
  });
});

describe("exact single matchups", () => {
  it("counts every one of the C(48,5) boards", () => {
    const result = exactHeadsUpEquity(combo("AsAh"), combo("KsKh"));
    expect(result.boards).toBe(1_712_304);
    expect(result.win + result.tie + result.loss).toBe(result.boards);
    expect(result.equity).toBeCloseTo(0.8264, 3);
    expect(() => exactHeadsUpEquity(combo("AsAh"), combo("AsKh"))).toThrow(RangeError);
  });

  it("splits a dead-even matchup in half", () => {
    const result = exactHeadsUpEquity(combo("AsKd"), combo("AhKc"));
    const mirrored = exactHeadsUpEquity(combo("AhKc"), combo("AsKd"));
    expect(result.win).toBe(mirrored.win);
    expect(result.equity).toBe(0.5);
  });
});

describe("committed table data/equity/holdem-hu.bin", () => {
  const table = loadHeadsUpEquity();

  it("is the exact table over all boards", () => {
    expect(table.method).toBe("exact");
    expect(table.samples).toBe(ALL_BOARDS);
    expect(table.se.every((se) => se === 0)).toBe(true);
    expect(table.w).toEqual(headsUpPairWeights());
  });

  it("is zero-sum and even on the diagonal", () => {
    for (let hero = 0; hero < N; hero++) {
      expect(table.eq[hero * N + hero]).toBe(0.5);
      for (let villain = 0; villain < N; villain++) {
        const sum = table.eq[hero * N + villain]! + table.eq[villain * N + hero]!;
        if (Math.abs(sum - 1) > 1e-6)
          expect.fail(`${HOLDEM_CLASSES[hero]} vs ${HOLDEM_CLASSES[villain]}: ${sum}`);
      }
    }
  });

  it.each([
    ["AA", "KK", 0.8195],
    ["AKs", "QQ", 0.4605],
    ["72o", "AA", 0.118],
    ["76s", "22", 0.533],
    ["JTs", "AKo", 0.4051],
  ])("%s vs %s matches exact enumeration of every combo pair (about %f)", (hero, villain, rounded) => {
    const tableEquity = table.eq[classIndex(hero) * N + classIndex(villain)]!;
    const exact = exactClassEquity(hero, villain);
    // The table is exact too; only its float32 storage differs.
    expect(Math.abs(tableEquity - exact)).toBeLessThan(1e-6);
    expect(tableEquity).toBeCloseTo(rounded, 3);
  });

  it("rejects a corrupted file", () => {
    const bytes = serializeHeadsUpEquity(table);
    expect(parseHeadsUpEquity(bytes).eq).toEqual(table.eq);
    bytes[bytes.length - 100]! ^= 1;
    expect(() => parseHeadsUpEquity(bytes)).toThrow(/corrupt/);
    expect(() => parseHeadsUpEquity(bytes.subarray(0, 100))).toThrow();
  });
});

describe("Monte Carlo method", () => {
  const exact = loadHeadsUpEquity();
  const samples = 1024;
  const seed = 99;
  let sampled: HeadsUpEquityTable;
  beforeAll(() => {
    sampled = computeHeadsUpEquity({ method: "monte-carlo", samples, seed });
  });

  it("is deterministic and independent of how the work is split", () => {
    const split = combineHeadsUpParts(
      "monte-carlo",
      [0, 1].map((part) => computeHeadsUpPart({ method: "monte-carlo", part, parts: 2, samples, seed })),
      seed,
    );
    expect(split.eq).toEqual(sampled.eq);
    expect(split.se).toEqual(sampled.se);
    expect(sampled.samples).toBe(samples);
    expect(sampled.seed).toBe(seed);
  });

  it("lands within a few standard errors of the exact table", () => {
    let squaredZ = 0;
    let pairs = 0;
    for (let hero = 0; hero < N; hero++) {
      for (let villain = 0; villain < N; villain++) {
        if (hero === villain) continue;
        const at = hero * N + villain;
        const se = sampled.se[at]!;
        expect(se).toBeGreaterThan(0);
        expect(se).toBeLessThan(0.03);
        const z = (sampled.eq[at]! - exact.eq[at]!) / se;
        // Class pairs share boards, so their errors are correlated; check a loose bound on each pair.
        expect(Math.abs(z)).toBeLessThan(6);
        squaredZ += z * z;
        pairs++;
      }
    }
    expect(squaredZ / pairs).toBeGreaterThan(0.3);
    expect(squaredZ / pairs).toBeLessThan(3);
  });
});
