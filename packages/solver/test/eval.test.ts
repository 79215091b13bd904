import { parseCards, seededRandom } from "@ranges/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DISTINCT_HAND_VALUES,
  EVALUATOR_RANK_KEYS,
  evaluate5,
  evaluate7,
  evaluateCards,
  evaluateWith2,
  HAND_CATEGORY,
  HAND_CATEGORY_NAMES,
  handCategory,
  handCategoryName,
  partialHand,
} from "../src/eval/index.js";

const cards = (text: string): number[] => {
  const parsed = parseCards(text, text.length / 2);
  if (!parsed) throw new Error(`bad cards ${text}`);
  return parsed;
};
const value = (text: string): number => evaluateCards(cards(text));

function randomHand(random: () => number, size: number, deck: Uint8Array): Uint8Array {
  for (let i = 0; i < 52; i++) deck[i] = i;
  for (let i = 0; i < size; i++) {
    const pick = i + Math.floor(random() * (52 - i));
    [deck[i], deck[pick]] = [deck[pick]!, deck[i]!];
  }
  return deck.subarray(0, size);
}

/** Best of the 21 five-card hands inside seven cards: the slow reference for evaluate7. */
function bestOf21(hand: ArrayLike<number>): number {
  let best = -1;
  for (let skipA = 0; skipA < 7; skipA++) {
    for (let skipB = skipA + 1; skipB < 7; skipB++) {
      const five: number[] = [];
      for (let i = 0; i < 7; i++) if (i !== skipA && i !== skipB) five.push(hand[i]!);
      best = Math.max(best, evaluate5(five[0]!, five[1]!, five[2]!, five[3]!, five[4]!));
    }
  }
  return best;
}

describe("five-card hands", () => {
  it("all 2,598,960 hands give the standard category counts and 7,462 distinct values", () => {
    const counts = new Array<number>(9).fill(0);
    const seen = new Uint8Array(1 << 16);
    for (let a = 0; a < 52; a++) {
      for (let b = a + 1; b < 52; b++) {
        for (let c = b + 1; c < 52; c++) {
          for (let d = c + 1; d < 52; d++) {
            for (let e = d + 1; e < 52; e++) {
              const hand = evaluate5(a, b, c, d, e);
              counts[handCategory(hand)]!++;
              seen[hand] = 1;
            }
          }
        }
      }
    }
    expect(counts).toEqual([1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]);
    expect(seen.reduce((sum, flag) => sum + flag, 0)).toBe(7_462);
    expect(DISTINCT_HAND_VALUES).toBe(7_462);
  });

  it("orders a ladder of hands strictly, weakest first", () => {
    const ladder = [
      "7c5d4h3s2c", // lowest high card
      "AcKdQhJs9c", // best high card
      "2c2d3h4s5c", // lowest pair
      "AcAdKhQsJc", // best pair
      "3c3d2h2s4c", // lowest two pair
      "AcAdKhKsQc", // best two pair
      "2c2d2h3s4c", // lowest trips
      "AcAdAhKsQc", // best trips
      "Ac2d3h4s5c", // wheel: the lowest straight
      "2c3d4h5s6c",
      "TcJdQhKsAc", // broadway
      "2c3c4c5c7c", // lowest flush
      "AcKcQcJc9c", // best flush
      "2c2d2h3s3c", // lowest full house
      "AcAdAhKsKc", // best full house
      "2c2d2h2s3c", // lowest quads
      "AcAdAhAsKc", // best quads
      "Ac2c3c4c5c", // steel wheel: the lowest straight flush
      "2c3c4c5c6c",
      "TsJsQsKsAs", // royal flush
    ];
    const values = ladder.map(value);
    for (let i = 1; i < values.length; i++) expect(values[i]!, ladder[i]).toBeGreaterThan(values[i - 1]!);
    expect(values.map(handCategoryName)).toEqual([
      ...["high card", "high card", "pair", "pair", "two pair", "two pair"],
      ...["three of a kind", "three of a kind", "straight", "straight", "straight", "flush", "flush"],
      ...["full house", "full house", "four of a kind", "four of a kind"],
      ...["straight flush", "straight flush", "straight flush"],
    ]);
  });

  it("does not wrap straights around the ace and ties hands that differ only in suits", () => {
    expect(handCategory(value("KcAd2h3s4c"))).toBe(HAND_CATEGORY.highCard);
    expect(handCategory(value("QcKcAc2c3c"))).toBe(HAND_CATEGORY.flush);
    expect(value("AcKdQhJs9c")).toBe(value("AsKhQdJc9s"));
    expect(value("AcAdKhQsJc")).toBe(value("AhAsKcQdJh"));
    // Kickers decide: the fifth card counts in a high-card hand, the third pair never does.
    expect(value("AcKdQhJs8c")).toBeLessThan(value("AcKdQhJs9c"));
    expect(value("AcAdKhKsQcQd2h")).toBe(value("AcAdKhKsQc3d2h"));
  });

  it("names categories", () => {
    expect(HAND_CATEGORY_NAMES).toHaveLength(9);
    expect(handCategoryName(value("2c3c4c5c6c"))).toBe("straight flush");
    expect(handCategoryName(value("2c2d3h4s5c"))).toBe("pair");
  });
});

describe("seven-card hands", () => {
  it("agree with the best of 21 five-card hands on 200,000 random hands", () => {
    const random = seededRandom(20_240_601);
    const deck = new Uint8Array(52);
    const categories = new Array<number>(9).fill(0);
    for (let sample = 0; sample < 200_000; sample++) {
      const hand = randomHand(random, 7, deck);
      const fast = evaluate7(hand[0]!, hand[1]!, hand[2]!, hand[3]!, hand[4]!, hand[5]!, hand[6]!);
      const reference = bestOf21(hand);
      if (fast !== reference) expect.fail(`hand ${[...hand].join(",")}: ${fast} != ${reference}`);
      categories[handCategory(fast)]!++;
    }
    // Every category turns up in a sample this size (straight flushes are 0.03% of seven-card hands).
    expect(categories.every((count) => count > 0)).toBe(true);
  });

  it("evaluateCards (5, 6, 7 cards) and evaluateWith2 agree with the direct evaluators", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...Array(52).keys()], { minLength: 7, maxLength: 7 }), (hand) => {
        const [a, b, c, d, e, f, g] = hand as [number, number, number, number, number, number, number];
        const seven = evaluate7(a, b, c, d, e, f, g);
        expect(evaluateCards(hand)).toBe(seven);
        expect(evaluateWith2(partialHand([a, b, c, d, e]), f, g)).toBe(seven);
        expect(evaluateCards([a, b, c, d, e])).toBe(evaluate5(a, b, c, d, e));
        const six = [a, b, c, d, e, f];
        const bestSix = Math.max(...six.map((_, skip) => evaluateCards(six.filter((__, i) => i !== skip))));
        expect(evaluateCards(six)).toBe(bestSix);
      }),
      { numRuns: 3_000, seed: 7 },
    );
    expect(() => evaluateCards([1, 2, 3, 4])).toThrow(RangeError);
  });

  it("is unchanged by card order and by permuting suits", () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...Array(52).keys()], { minLength: 7, maxLength: 7 }),
        fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
        (hand, suitMap) => {
          const permuted = hand.map((card) => (card & ~3) | suitMap[card & 3]!);
          expect(evaluateCards(permuted.toReversed())).toBe(evaluateCards(hand));
        },
      ),
      { numRuns: 3_000, seed: 11 },
    );
  });

  it("finds the wheel, the steel wheel and the best hand among seven", () => {
    expect(handCategory(value("Ac2d3h4s5cKdKh"))).toBe(HAND_CATEGORY.straight);
    expect(value("Ac2d3h4s5cKdKh")).toBe(value("Ac2d3h4s5c"));
    expect(value("Ac2d3h4s5c6dKh")).toBe(value("2d3h4s5c6d")); // six-high beats the wheel
    expect(value("Ac2c3c4c5cKdKh")).toBe(value("Ac2c3c4c5c"));
    expect(value("Ac2c3c4c5c6c7c")).toBe(value("3c4c5c6c7c"));
    expect(value("Ac2c3c4c5c6d7h")).toBe(value("Ac2c3c4c5c")); // steel wheel over a 7-high straight
    expect(value("AcAdAhKsKcQdQh")).toBe(value("AcAdAhKsKc")); // full house picks the best pair
    expect(value("AcAdAhKsKcKdQh")).toBe(value("AcAdAhKsKc")); // two sets: the lower one is the pair
    expect(value("9c9d9h9s2c3c4c")).toBe(value("9c9d9h9s4c")); // quads ignore a four-card flush draw
    expect(value("2h3h4h5h7hAsAd")).toBe(value("2h3h4h5h7h")); // flush over a pair of aces
  });
});

describe("rank keys", () => {
  it("give distinct sums to every multiset of exactly 7 (or exactly 5) ranks with at most four of each", () => {
    for (const [size, keys] of [
      [7, EVALUATOR_RANK_KEYS.seven],
      [5, EVALUATOR_RANK_KEYS.five],
    ] as const) {
      const sums = new Set<number>();
      let multisets = 0;
      const place = (rank: number, left: number, sum: number): void => {
        if (rank === 13) {
          if (left === 0) {
            sums.add(sum);
            multisets++;
          }
          return;
        }
        for (let count = 0; count <= Math.min(4, left); count++)
          place(rank + 1, left - count, sum + count * keys[rank]!);
      };
      place(0, size, 0);
      expect(multisets).toBe(size === 7 ? 49_205 : 6_175);
      expect(sums.size).toBe(multisets);
    }
  });
});
