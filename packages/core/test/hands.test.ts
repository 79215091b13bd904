/** Hand classes: the 169 hold'em classes and the 16,432 four-card PLO classes. */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Card,
  cardRank,
  formatCard,
  HOLDEM_CLASS_COMBOS,
  HOLDEM_CLASS_COUNT,
  HOLDEM_CLASSES,
  HOLDEM_COMBO_COUNT,
  holdemClassCombos,
  holdemClassIndex,
  holdemClassKind,
  holdemClassOfCards,
  holdemComboCards,
  makeCard,
  PLO_CLASS_COUNT,
  PLO_HAND_COUNT,
  parseCard,
  parseCards,
  parseHand,
  parsePloHand,
  ploClassComboCounts,
  ploClassCombos,
  ploClasses,
  ploClassIndex,
  ploClassNameOfCards,
  ploCombosOfName,
} from "../src/index.js";
import { expectRangesError } from "./errors.js";

const comboKey = (a: Card, b: Card) => `${Math.min(a, b)}-${Math.max(a, b)}`;

describe("cards", () => {
  it("encodes rank * 4 + suit and parses in either case", () => {
    expect(parseCard("2c")).toBe(0);
    expect(parseCard("As")).toBe(51);
    expect(parseCard("ah")).toBe(makeCard(12, 2));
    expect(parseCard("TD")).toBe(makeCard(8, 1));
    expect(formatCard(makeCard(11, 3))).toBe("Ks");
    for (const bad of ["", "A", "1s", "Ax", "Ahh"]) expect(parseCard(bad)).toBeNull();
    expect(parseCards("AhKh", 2)).toEqual([makeCard(12, 2), makeCard(11, 2)]);
    expect(parseCards("AhAh", 2)).toBeNull();
    expect(parseCards("AhK", 2)).toBeNull();
  });
});

describe("hold'em classes", () => {
  it("has 169 distinct classes in grid order", () => {
    expect(HOLDEM_CLASS_COUNT).toBe(169);
    expect(HOLDEM_CLASSES).toHaveLength(169);
    expect(new Set(HOLDEM_CLASSES).size).toBe(169);
    const corners: Array<[number, string]> = [
      [0, "AA"],
      [1, "AKs"],
      [12, "A2s"],
      [13, "AKo"],
      [14, "KK"],
      [15, "KQs"],
      [26, "AQo"],
      [27, "KQo"],
      [156, "A2o"],
      [167, "32o"],
      [168, "22"],
    ];
    for (const [index, name] of corners) {
      expect(HOLDEM_CLASSES[index]).toBe(name);
      expect(holdemClassIndex(name)).toBe(index);
    }
    HOLDEM_CLASSES.forEach((name, i) => {
      expect(holdemClassIndex(name)).toBe(i);
    });
  });

  it("has 13 pairs (6 combos), 78 suited (4) and 78 offsuit (12), 1326 combos in all", () => {
    const byKind = { pair: 0, suited: 0, offsuit: 0 };
    const combosOf = { pair: 6, suited: 4, offsuit: 12 };
    HOLDEM_CLASSES.forEach((name, i) => {
      const kind = holdemClassKind(i);
      byKind[kind] += 1;
      expect(holdemClassCombos(i)).toBe(combosOf[kind]);
      expect(HOLDEM_CLASS_COMBOS[i]).toBe(combosOf[kind]);
      expect(kind === "pair" ? name.length === 2 : name.endsWith(kind === "suited" ? "s" : "o")).toBe(true);
    });
    expect(byKind).toEqual({ pair: 13, suited: 78, offsuit: 78 });
    expect(HOLDEM_CLASS_COMBOS.reduce((a, b) => a + b, 0)).toBe(1326);
    expect(HOLDEM_COMBO_COUNT).toBe(1326);
  });

  it("lists each class's distinct combos, high card first, each mapping back to the class", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 169; i++) {
      const combos = holdemComboCards(i);
      expect(combos).toHaveLength(holdemClassCombos(i));
      const keys = new Set(combos.map(([a, b]) => comboKey(a, b)));
      expect(keys.size).toBe(combos.length);
      for (const [a, b] of combos) {
        expect(a).not.toBe(b);
        expect(cardRank(a)).toBeGreaterThanOrEqual(cardRank(b));
        expect(holdemClassOfCards(a, b)).toBe(i);
        expect(holdemClassOfCards(b, a)).toBe(i);
        seen.add(comboKey(a, b));
      }
    }
    expect(seen.size).toBe(1326);
  });

  it("maps every one of the 1326 two-card combos to exactly one class", () => {
    const counts = new Array<number>(169).fill(0);
    for (let a = 0; a < 52; a++) {
      for (let b = a + 1; b < 52; b++) {
        const i = holdemClassOfCards(a, b);
        expect(i).toBeGreaterThanOrEqual(0);
        expect(i).toBeLessThan(169);
        counts[i]! += 1;
        expect(holdemComboCards(i).some(([x, y]) => comboKey(x, y) === comboKey(a, b))).toBe(true);
      }
    }
    expect(counts).toEqual([...HOLDEM_CLASS_COMBOS]);
  });

  it.each([
    ["AKs", "AKs", 1],
    ["AhKh", "AKs", 1],
    ["KhAh", "AKs", 1],
    ["KAs", "AKs", 1],
    ["aks", "AKs", 1],
    ["AKo", "AKo", 13],
    ["KAo", "AKo", 13],
    ["AsKd", "AKo", 13],
    ["AA", "AA", 0],
    ["AdAc", "AA", 0],
    ["22", "22", 168],
    ["2c2d", "22", 168],
    ["T9s", "T9s", holdemClassIndex("T9s")],
    ["9Ts", "T9s", holdemClassIndex("T9s")],
    ["tc9c", "T9s", holdemClassIndex("T9s")],
  ])("parseHand nl %j -> %s", (text, name, index) => {
    expect(parseHand("nl", text)).toEqual({ name, index });
    expect(parseHand("nlmtt8", text)).toEqual({ name, index });
  });

  it.each(["AKx", "AAs", "AAo", "", "AhAh", "AK", "AKS", "A", "AhKhQh", "1Kh2c", "XX", "(AK)QJ", "AsKsQdJc"])(
    "parseHand nl rejects %j with 400 invalid_hand",
    (text) => {
      const error = expectRangesError(() => parseHand("nl", text), 400, "invalid_hand");
      expect(error.hint?.examples).toContain("AKs");
    },
  );

  it("property: two random cards map to the class whose combos hold them, for any suit renaming", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 51 }), { minLength: 2, maxLength: 2 }),
        fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
        ([a, b], suits) => {
          const i = holdemClassOfCards(a!, b!);
          expect(holdemComboCards(i).some(([x, y]) => comboKey(x, y) === comboKey(a!, b!))).toBe(true);
          expect(parseHand("nl", formatCard(a!) + formatCard(b!))).toEqual({
            name: HOLDEM_CLASSES[i],
            index: i,
          });
          const rename = (c: Card) => makeCard(cardRank(c), suits[c & 3]!);
          expect(holdemClassOfCards(rename(a!), rename(b!))).toBe(i);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("PLO classes", () => {
  const classes = ploClasses();

  it("enumerates exactly 16,432 distinct names whose combos sum to 270,725", () => {
    expect(PLO_CLASS_COUNT).toBe(16_432);
    expect(PLO_HAND_COUNT).toBe(270_725);
    expect(classes).toHaveLength(16_432);
    expect(new Set(classes).size).toBe(16_432);
    const counts = ploClassComboCounts();
    expect(counts).toHaveLength(16_432);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(270_725);
    expect(classes[0]).toBe("AAAA");
    expect(classes[classes.length - 1]).toBe("2222");
  });

  it("gives every class a name that parses to itself, its own index and the table's combo count", () => {
    classes.forEach((name, i) => {
      expect(parsePloHand(name)).toBe(name);
      expect(ploClassIndex(name)).toBe(i);
      expect(ploCombosOfName(name)).toBe(ploClassCombos(i));
    });
    expect(parseHand("plo", "(AK)QJ")).toEqual({ name: "(AK)QJ", index: ploClassIndex("(AK)QJ") });
  });

  it.each([
    ["(AK)(AK)", 6],
    ["(AK)QJ", 24],
    ["(AKQ)J", 12],
    ["(AKQJ)", 4],
    ["AKQJ", 24],
    ["AAKK", 6],
    ["AAAA", 1],
    ["(AK)AK", 24],
    ["(AK)AA", 12],
    ["(AK)(AQ)", 12],
    ["(AK)(QJ)", 12],
  ])("%s has %i combos", (name, combos) => {
    expect(ploCombosOfName(name)).toBe(combos);
    expect(ploClassCombos(ploClassIndex(name)!)).toBe(combos);
  });

  it.each([
    ["QJ(AK)", "(AK)QJ"],
    ["JQ(KA)", "(AK)QJ"],
    ["(KA)(KA)", "(AK)(AK)"],
    ["(qj)(ak)", "(AK)(QJ)"],
    ["(AQ)(AK)", "(AK)(AQ)"],
    ["J(AKQ)", "(AKQ)J"],
    ["(JQKA)", "(AKQJ)"],
    ["KAKA", "AAKK"],
    ["AK(AK)", "(AK)AK"],
    ["AsKsQdJc", "(AK)QJ"],
    ["JcQdKsAs", "(AK)QJ"],
    ["AhKdQcJs", "AKQJ"],
    ["AsAdKsKd", "(AK)(AK)"],
    ["AsKsQsJs", "(AKQJ)"],
    ["AsKsQsJd", "(AKQ)J"],
    ["2c2d2h2s", "2222"],
  ])("parsePloHand canonicalizes %s to %s", (text, name) => {
    expect(parsePloHand(text)).toBe(name);
    expect(parseHand("plo", text).name).toBe(name);
    expect(parseHand("plo6hu", text).name).toBe(name);
  });

  it.each([
    "(AA)KQ",
    "AKQ",
    "AKQJT",
    "",
    "(A)KQJ",
    "(AK",
    "AK)QJ",
    "((AK))QJ",
    "(AK)(AK)(Q)",
    "(AKQJT)",
    "AAAAA",
    "AKQX",
    "AsAsKdQc",
    "AsKsQd",
    "%28AK%29QJ",
    "AKs",
  ])("parseHand plo rejects %j with 400 invalid_hand", (text) => {
    expect(parsePloHand(text)).toBeNull();
    const error = expectRangesError(() => parseHand("plo", text), 400, "invalid_hand");
    expect(error.message).toContain("%28");
  });

  it("property: four random cards map to one class whose name parses back, for any suit renaming and order", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 51 }), { minLength: 4, maxLength: 4 }),
        fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
        fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
        (cards, suits, order) => {
          const name = ploClassNameOfCards(cards);
          const index = ploClassIndex(name);
          expect(index).toBeDefined();
          expect(classes[index!]).toBe(name);
          expect(parsePloHand(name)).toBe(name);
          expect(ploCombosOfName(name)).toBeGreaterThanOrEqual(1);
          const text = cards.map(formatCard).join("");
          expect(parsePloHand(text)).toBe(name);
          expect(parseHand("plo", text)).toEqual({ name, index });
          const renamed = cards.map((c) => makeCard(cardRank(c), suits[c & 3]!));
          expect(ploClassNameOfCards(renamed)).toBe(name);
          expect(ploClassNameOfCards(order.map((k) => cards[k]!))).toBe(name);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("property: any string of ranks and parentheses parses to null or a class of the table", () => {
    const piece = fc.constantFrom("A", "K", "Q", "J", "T", "9", "2", "a", "(", ")", "x", "s");
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 10 }).map((a) => a.join("")),
        (text) => {
          const name = parsePloHand(text);
          if (name === null) return;
          const index = ploClassIndex(name);
          expect(index).toBeDefined();
          expect(ploCombosOfName(text)).toBe(ploClassCombos(index!));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
