/**
 * Bad input: each bad hand is one error naming its hand number and the line, and the hands around it
 * still parse. A table of inputs that must fail, each a small change to a good hand.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HandHistoryError, parseHandHistories, parseHandHistory } from "../src/index.js";
import { FIXTURES } from "./helpers.js";

/** A good PokerStars hand (hand #230000000001 of the euro fixture), 1 line per entry. */
const GOOD = readFileSync(join(FIXTURES, "pokerstars/cash-eur-6max-sidepots.txt"), "utf8")
  .split(/\n{2,}/)[0]!
  .trim();

/** A good GGPoker hand. */
const GOOD_GG = readFileSync(join(FIXTURES, "mixed/good-and-bad.txt"), "utf8")
  .split(/\n{2,}/)[0]!
  .trim();

interface Bad {
  name: string;
  /** The good hand's text, changed. */
  text: string;
  /** Part of the line the error must point at (its first occurrence). */
  at: string;
  message: RegExp;
  /** The hand number the error names (default: the good hand's). */
  handId?: string | null;
}

const swap = (text: string, from: string, to: string): string => {
  if (!text.includes(from)) throw new Error(`test set-up: "${from}" is not in the hand`);
  return text.replace(from, to);
};

const BAD: Bad[] = [
  {
    name: "a game this parser does not read",
    text: swap(GOOD, "Hold'em No Limit (€0.02", "Razz (€0.02"),
    at: "PokerStars Hand",
    message: /^Razz is not a game read here \(hold'em and Omaha only\)$/,
  },
  {
    name: "no betting limit",
    text: swap(GOOD, "Hold'em No Limit (", "Hold'em ("),
    at: "PokerStars Hand",
    message: /no betting limit/,
  },
  {
    name: "stakes that are not amounts",
    text: swap(GOOD, "(€0.02/€0.05 EUR)", "(€x/€0.05 EUR)"),
    at: "PokerStars Hand",
    message: /small blind is not an amount/,
  },
  {
    name: "no stakes",
    text: swap(GOOD, "(€0.02/€0.05 EUR) ", ""),
    at: "PokerStars Hand",
    message: /no stakes/,
  },
  {
    name: "no date",
    text: swap(GOOD, "2021/07/10 21:14:05 CEST [2021/07/10 15:14:05 ET]", "yesterday"),
    at: "PokerStars Hand",
    message: /no date/,
  },
  {
    name: "an impossible date",
    text: swap(GOOD, "2021/07/10 21:14:05 CEST", "2021/13/10 21:14:05 CEST"),
    at: "PokerStars Hand",
    message: /no date/,
  },
  {
    name: "a tournament without a level",
    text: swap(GOOD, "Hold'em No Limit (€0.02/€0.05 EUR)", "Tournament #12, $1+$0.10 USD Hold'em No Limit"),
    at: "PokerStars Hand",
    message: /no blind level/,
  },
  {
    name: "no ':' after the hand number",
    text: swap(GOOD, "#230000000001:", "#230000000001"),
    at: "PokerStars Hand",
    message: /no ":"/,
  },
  {
    name: "no table line",
    text: swap(GOOD, "Table 'Hercules IV' 6-max Seat #2 is the button\n", ""),
    at: "Seat 1:",
    message: /no 'Table/,
  },
  {
    name: "a table line without the button",
    text: swap(GOOD, "Seat #2 is the button", "button unknown"),
    at: "Table '",
    message: /unrecognised table line/,
  },
  {
    name: "a stack that is not an amount",
    text: swap(GOOD, "mila.v (€5.12 in chips)", "mila.v (lots in chips)"),
    at: "Seat 1:",
    message: /"lots" is not an amount/,
  },
  {
    name: "a seat line without chips",
    text: swap(GOOD, "Seat 1: mila.v (€5.12 in chips)", "Seat 1: mila.v"),
    at: "Seat 1:",
    message: /unrecognised seat line/,
  },
  {
    name: "a seat listed twice",
    text: swap(GOOD, "Seat 6: Ziegenpeter", "Seat 5: Ziegenpeter"),
    at: "Seat 5: Ziegenpeter",
    message: /seat 5 listed twice/,
  },
  {
    name: "a player listed twice",
    text: swap(GOOD, "Seat 6: Ziegenpeter", "Seat 6: tr1cky"),
    at: "Seat 6: tr1cky",
    message: /player "tr1cky" listed twice/,
  },
  {
    name: "an unknown action",
    text: swap(GOOD, "mila.v: folds", "mila.v: dances"),
    at: "mila.v: dances",
    message: /unrecognised action "dances"/,
  },
  {
    name: "an action by someone not seated",
    text: swap(GOOD, "mila.v: folds", "Ghost: calls €0.15"),
    at: "Ghost:",
    message: /"Ghost" is not seated/,
  },
  {
    name: "an unrecognised line",
    text: swap(GOOD, "mila.v: folds", "mila.v: folds\nThe dealer spills the chips"),
    at: "The dealer spills the chips",
    message: /unrecognised line/,
  },
  {
    name: "a hand the site cancelled",
    text: swap(GOOD, "mila.v: folds", "mila.v: folds\nHand cancelled"),
    at: "Hand cancelled",
    message: /the site cancelled this hand: nothing in it was played for real/,
  },
  {
    name: "a GGPoker cash drop (not supported)",
    text: swap(GOOD, "*** FLOP ***", "Cash Drop to Pot : total €1\n*** FLOP ***"),
    at: "Cash Drop",
    message: /^GGPoker's Cash Drop to Pot \(money the site adds to the pot\) is not read$/,
  },
  {
    name: "a raise without 'to'",
    text: swap(GOOD, "raises €0.10 to €0.15", "raises €0.10"),
    at: "Ziegenpeter: raises",
    message: /without " to "/,
  },
  {
    name: "a raise to less than already in",
    text: swap(GOOD, "kj_dealer: raises €0.50 to €0.65", "kj_dealer: raises €0.50 to €0.01"),
    at: "kj_dealer: raises",
    message: /less than/,
  },
  {
    name: "an amount that is not one",
    text: swap(GOOD, "Ostkreuz77: calls €0.15", "Ostkreuz77: calls €abc"),
    at: "Ostkreuz77: calls",
    message: /"€abc" is not an amount/,
  },
  {
    name: "a negative amount",
    text: swap(GOOD, "Ostkreuz77: calls €0.15", "Ostkreuz77: calls -0.15"),
    at: "Ostkreuz77: calls",
    message: /not an amount/,
  },
  {
    name: "an action after folding",
    text: swap(GOOD, "Ostkreuz77: folds", "Ostkreuz77: folds\nOstkreuz77: calls €0.50"),
    at: "Ostkreuz77: calls €0.50",
    message: /acts after folding/,
  },
  {
    name: "a card that is not one",
    text: swap(GOOD, "*** FLOP *** [7h 2c Qh]", "*** FLOP *** [7h 2c Qx]"),
    at: "*** FLOP ***",
    message: /"Qx" is not a card/,
  },
  {
    name: "a flop of two cards",
    text: swap(GOOD, "*** FLOP *** [7h 2c Qh]", "*** FLOP *** [7h 2c]"),
    at: "*** FLOP ***",
    message: /needs 3 board cards/,
  },
  {
    name: "a card twice",
    text: swap(GOOD, "[7h 2c Qh] [Td]", "[7h 2c Qh] [Qs]"),
    at: "Total pot",
    message: /Qs appears twice/,
  },
  {
    name: "three hole cards in hold'em",
    text: swap(GOOD, "Dealt to kj_dealer [Qd Qs]", "Dealt to kj_dealer [Qd Qs 2d]"),
    at: "Dealt to",
    message: /3 hole cards dealt to kj_dealer/,
  },
  {
    name: "cards dealt to someone not seated",
    text: swap(GOOD, "Dealt to kj_dealer", "Dealt to nobody"),
    at: "Dealt to",
    message: /"nobody" is dealt cards but not seated/,
  },
  {
    name: "shown cards that are not the ones dealt",
    text: swap(GOOD, "kj_dealer: doesn't show hand", "kj_dealer: shows [Ad Kd]"),
    at: "kj_dealer: shows",
    message: /kj_dealer's cards were Qd Qs/,
  },
  {
    name: "a section of another game",
    text: swap(GOOD, "*** FLOP *** [7h 2c Qh]", "*** 3rd STREET *** [7h 2c Qh]"),
    at: "*** 3rd STREET",
    message: /unsupported section|unrecognised \*\*\* line/,
  },
  {
    name: "a flop before the hole cards",
    text: swap(GOOD, "*** HOLE CARDS ***", "*** FLOP *** [5d 6d 8d]"),
    at: "*** FLOP *** [5d",
    message: /before \*\*\* HOLE CARDS/,
  },
  {
    name: "an uncalled bet to someone not seated",
    text: swap(GOOD, "returned to kj_dealer", "returned to nobody"),
    at: "Uncalled bet",
    message: /"nobody", who is not seated/,
  },
  {
    name: "a collection from an unknown pot",
    text: swap(GOOD, "€2.57 from pot", "€2.57 from the kitty"),
    at: "collected €2.57",
    message: /unrecognised pot "the kitty"/,
  },
  {
    name: "a total pot the actions do not make",
    text: swap(GOOD, "Total pot €2.70", "Total pot €2.80"),
    at: "Total pot",
    message: /put 2.7 in the pot, but the summary's total pot is 2.8/,
  },
  {
    name: "collections and rake that do not make the total pot",
    text: swap(GOOD, "Rake €0.13", "Rake €0.23"),
    at: "Total pot",
    message: /2.57 collected plus 0.23 withheld is not the total pot of 2.7/,
  },
  {
    name: "more chips put in than the stack",
    text: swap(GOOD, "Seat 6: Ziegenpeter (€5 in chips)", "Seat 6: Ziegenpeter (€1 in chips)"),
    at: "Total pot",
    message: /Ziegenpeter puts in 1.25, more than the stack of 1/,
  },
  {
    name: "a hand cut off before its summary",
    text: GOOD.slice(0, GOOD.indexOf("*** SUMMARY ***")).trim(),
    at: "kj_dealer: doesn't show hand",
    message: /ends before its \*\*\* SUMMARY/,
  },
  {
    name: "a summary without a total pot",
    text: swap(GOOD, "Total pot €2.70 | Rake €0.13", "Pot was big"),
    at: "Seat 6: Ziegenpeter folded",
    message: /no 'Total pot' line/,
  },
  {
    name: "fewer than two players dealt in",
    text: GOOD.replace(/^(Seat [2-6]: .*\)) $/gm, "$1 is sitting out")
      .replace(/^(?!Seat|Table|Poker|\*\*\*).*$/gm, "")
      .replace("*** SUMMARY ***", "*** SUMMARY ***\nTotal pot €0 | Rake €0"),
    at: "Table '",
    message: /fewer than two players/,
  },
  {
    name: "a fee that is not one",
    text: swap(GOOD, "| Rake €0.13", "| Rake"),
    at: "Total pot",
    message: /unrecognised fee "Rake"/,
  },
];

const lineOf = (text: string, part: string): number =>
  text.split("\n").findIndex((l) => l.includes(part)) + 1;

describe("inputs that must fail", () => {
  it("starts from a good hand", () => {
    expect(parseHandHistories(GOOD).errors).toEqual([]);
    expect(parseHandHistories(GOOD_GG).errors).toEqual([]);
  });

  it.each(BAD)("$name", ({ text, at, message, handId }) => {
    const { hands, errors } = parseHandHistories(text);
    expect(hands).toEqual([]);
    expect(errors).toHaveLength(1);
    const error = errors[0]!;
    expect(error.message).toMatch(message);
    expect(error.handId).toBe(handId === undefined ? "230000000001" : handId);
    expect(error.site).toBe("pokerstars");
    expect(error.handLine).toBe(1);
    expect(lineOf(text, at)).toBeGreaterThan(0);
    expect({ line: error.line, text: error.text }).toEqual({
      line: lineOf(text, at),
      text: text.split("\n")[lineOf(text, at) - 1]!.trim(),
    });
  });

  it.each(BAD)(
    "$name: the hands before and after it still parse, and lines count from the file's start",
    ({ text, at, message }) => {
      const file = `${GOOD_GG}\n\n${text}\n\n${GOOD_GG}\n`;
      const { hands, errors } = parseHandHistories(file);
      expect(hands.map((h) => [h.id, h.line])).toEqual([
        ["RC2000000101", 1],
        ["RC2000000101", GOOD_GG.split("\n").length + text.split("\n").length + 3],
      ]);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toMatch(message);
      const offset = GOOD_GG.split("\n").length + 1;
      expect(errors[0]!.line).toBe(offset + lineOf(text, at));
      expect(errors[0]!.handLine).toBe(offset + 1);
    },
  );
});

describe("errors in a file", () => {
  it("names each bad hand's number and line; the good hands around them parse", () => {
    const { hands, errors } = parseHandHistories(
      readFileSync(join(FIXTURES, "mixed/good-and-bad.txt"), "utf8"),
    );
    expect(hands.map((h) => h.id)).toEqual(["RC2000000101", "280000000002"]);
    expect(errors).toEqual([
      {
        handId: "280000000001",
        site: "pokerstars",
        line: 33,
        handLine: 24,
        message: 'unrecognised action "dances"',
        text: "beta: dances",
      },
      {
        handId: "280000000003",
        site: "pokerstars",
        line: 87,
        handLine: 69,
        message: "the actions put 0.65 in the pot, but the summary's total pot is 0.75",
        text: "Total pot $0.75 | Rake $0.03",
      },
      {
        handId: "RC2000000102",
        site: "ggpoker",
        line: 102,
        handLine: 93,
        message: "the hand ends before its *** SUMMARY *** (cut off?)",
        text: "Hero: folds",
      },
    ]);
  });

  it("reports text before the first hand once, and a file with no hand at all", () => {
    const junk = parseHandHistories(`Exported by a tool\nversion 2\n\n${GOOD}`);
    expect(junk.hands).toHaveLength(1);
    expect(junk.errors).toEqual([
      {
        handId: null,
        site: null,
        line: 1,
        handLine: 1,
        message: expect.stringContaining("text before the first hand"),
        text: "Exported by a tool",
      },
    ]);
    expect(parseHandHistories("hello\nworld").errors[0]!.message).toMatch(/no hand found/);
    expect(parseHandHistories("")).toEqual({ hands: [], errors: [] });
    expect(parseHandHistories("\uFEFF\r\n\r\n")).toEqual({ hands: [], errors: [] });
  });

  it("a hand number it cannot read gives an error without one", () => {
    const { errors } = parseHandHistories(swap(GOOD, "#230000000001:", "#:"));
    expect(errors).toEqual([
      expect.objectContaining({
        handId: null,
        site: null,
        line: 1,
        message: expect.stringMatching(/no hand found/),
      }),
    ]);
  });

  it("with a site named, hands of the other site are errors", () => {
    const file = `${GOOD}\n\n${GOOD_GG}`;
    const stars = parseHandHistories(file, { site: "pokerstars" });
    expect(stars.hands.map((h) => h.site)).toEqual(["pokerstars"]);
    expect(stars.errors).toEqual([
      expect.objectContaining({
        handId: "RC2000000101",
        site: "ggpoker",
        line: GOOD.split("\n").length + 2,
        message: "a GGPoker hand, but the site asked for is PokerStars",
      }),
    ]);
    const gg = parseHandHistories(file, { site: "ggpoker" });
    expect(gg.hands.map((h) => h.site)).toEqual(["ggpoker"]);
    expect(gg.errors[0]!.message).toBe("a PokerStars hand, but the site asked for is GGPoker");
    expect(parseHandHistories(file, { site: "auto" }).hands).toHaveLength(2);
    expect(() => parseHandHistories(file, { site: "fulltilt" as never })).toThrow(TypeError);
  });

  it("parseHandHistory reads one hand or throws HandHistoryError", () => {
    expect(parseHandHistory(GOOD).id).toBe("230000000001");
    const bad = swap(GOOD, "mila.v: folds", "mila.v: dances");
    expect(() => parseHandHistory(bad)).toThrow(HandHistoryError);
    try {
      parseHandHistory(bad);
    } catch (error) {
      expect((error as HandHistoryError).details.line).toBe(lineOf(bad, "mila.v: dances"));
      expect((error as Error).message).toBe(
        `hand #230000000001, line ${lineOf(bad, "mila.v: dances")}: unrecognised action "dances" (mila.v: dances)`,
      );
    }
    expect(() => parseHandHistory(`${GOOD}\n\n${GOOD}`)).toThrow(/expected one hand, found 2/);
    expect(() => parseHandHistory("")).toThrow(/expected one hand, found 0/);
  });
});
