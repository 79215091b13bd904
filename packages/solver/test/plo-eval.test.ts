import { parseCards } from "@ranges/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate5, evaluateCards, HAND_CATEGORY, handCategory } from "../src/eval/index.js";
import { evaluateOmaha, OmahaBoard } from "../src/plo/evaluator.js";

const cards = (text: string): number[] => {
  const parsed = parseCards(text, text.length / 2);
  if (!parsed) throw new Error(`bad cards ${text}`);
  return parsed;
};

/** The definition, written out: every 2 of the hole cards with every 3 of the board, by `evaluateCards`. */
function bruteForce(hole: number[], board: number[]): number {
  let best = -1;
  for (let i = 0; i < hole.length; i++)
    for (let j = i + 1; j < hole.length; j++)
      for (let a = 0; a < board.length; a++)
        for (let b = a + 1; b < board.length; b++)
          for (let c = b + 1; c < board.length; c++)
            best = Math.max(best, evaluateCards([hole[i]!, hole[j]!, board[a]!, board[b]!, board[c]!]));
  return best;
}

/** n distinct cards from a permutation of the deck. */
const deal = (n: number) =>
  fc.shuffledSubarray(
    Array.from({ length: 52 }, (_, i) => i),
    { minLength: n, maxLength: n },
  );

describe("Omaha evaluation (two hole cards and three board cards)", () => {
  it.each([
    // hole, board, category, why
    ["Ts9h8h7c", "AsKsQsJs2d", HAND_CATEGORY.straight, "one spade is no flush; T9 + KQJ is a straight"],
    [
      "AhKd7c2c",
      "Th9h8h7h6h",
      HAND_CATEGORY.pair,
      "a straight flush on board does not play: exactly two hole cards",
    ],
    ["KhKd7c2c", "AsAdAc5h3d", HAND_CATEGORY.fullHouse, "KK with AAA"],
    ["Ah5d7c2c", "AsAdKc5h3d", HAND_CATEGORY.fullHouse, "A5 with A-A-5"],
    ["AhKh7c2c", "QhJh3h8d9s", HAND_CATEGORY.flush, "two hearts in the hand, three on board"],
    [
      "Ah7c2c3d",
      "QhJh3h8h9h",
      HAND_CATEGORY.pair,
      "one heart is no flush even with five on board: 33 is the best",
    ],
    ["9c8d2h2s", "7h6c5dKsKh", HAND_CATEGORY.straight, "98 + 765"],
    ["AcAd2h2s", "7h6c5dKsQh", HAND_CATEGORY.pair, "AA with three board cards is only a pair of aces"],
  ])("%s on %s: category %i (%s)", (hole, board, category, _why) => {
    const h = cards(hole);
    const b = cards(board);
    expect(handCategory(evaluateOmaha(h, b))).toBe(category);
    expect(new OmahaBoard(b).evaluate4(h[0]!, h[1]!, h[2]!, h[3]!)).toBe(evaluateOmaha(h, b));
  });

  it("equals the 60-combination brute force on random deals (four cards), and OmahaBoard agrees", () => {
    fc.assert(
      fc.property(deal(9), (d) => {
        const hole = d.slice(0, 4);
        const board = d.slice(4);
        const direct = evaluateOmaha(hole, board);
        expect(direct).toBe(bruteForce(hole, board));
        expect(new OmahaBoard(board).evaluate4(hole[0]!, hole[1]!, hole[2]!, hole[3]!)).toBe(direct);
      }),
      { numRuns: 3000, seed: 20261123 },
    );
  });

  it("handles five and six hole cards and three- and four-card boards by the same rule", () => {
    fc.assert(
      fc.property(deal(11), fc.integer({ min: 5, max: 6 }), fc.integer({ min: 3, max: 5 }), (d, n, m) => {
        const hole = d.slice(0, n);
        const board = d.slice(n, n + m);
        expect(evaluateOmaha(hole, board)).toBe(bruteForce(hole, board));
        if (m === 5) expect(new OmahaBoard(board).evaluate(hole)).toBe(bruteForce(hole, board));
      }),
      { numRuns: 1000, seed: 7 },
    );
  });

  it("ranks hands as showdowns do: ties are equal values", () => {
    const board = cards("AsKd7c4h2s");
    const b = new OmahaBoard(board);
    // Both make A-K two pair... AcKc vs AhKh (no flush possible): a tie.
    const x = cards("AcKc9d8d");
    const y = cards("AhKh9s8s");
    expect(b.evaluate4(x[0]!, x[1]!, x[2]!, x[3]!)).toBe(b.evaluate4(y[0]!, y[1]!, y[2]!, y[3]!));
    expect(b.pair(x[0]!, x[1]!)).toBe(evaluate5(x[0]!, x[1]!, board[0]!, board[1]!, board[2]!));
  });

  it.each([
    [[0, 1], [2, 3], /3 to 5 cards/],
    [[0], [2, 3, 4], /2 to 6 hole cards/],
    [[0, 1, 2, 3], [3, 4, 5], /appears twice/],
    [[0, 1, 2, 52], [5, 6, 7], /not 0\.\.51/],
  ])("refuses bad input %#", (hole, board, message) => {
    expect(() => evaluateOmaha(hole, board)).toThrow(message);
  });

  it("OmahaBoard refuses boards that are not five distinct cards", () => {
    expect(() => new OmahaBoard([1, 2, 3, 4])).toThrow(/five-card board/);
    expect(() => new OmahaBoard([1, 2, 3, 4, 4])).toThrow(/twice/);
  });
});
