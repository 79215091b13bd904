/**
 * Inputs the readers refuse, met in the wide sample of real files (bench/coverage.ts): each a small change to
 * a hand of test/fixtures/real-formats, with the line the error names and a reason a player can act on.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseHandHistories } from "../src/index.js";
import { FIXTURES } from "./helpers.js";

const read = (file: string): string => readFileSync(join(FIXTURES, "real-formats", file), "utf8");

const swap = (text: string, from: string, to: string): string => {
  expect(text).toContain(from);
  return text.replace(from, to);
};
const first = (file: string): string => read(file).split(/\n{3,}|\n\n(?=PokerStars|Poker Hand|Game #)/)[0]!;
const STARS = first("pokerstars-old-and-mixed.txt");
const GG = first("ggpoker-named-and-missed-blind.txt");
const H888 = first("888poker-local-clients.txt");
const PARTY = read("partypoker-variants.txt").split("\n\nGame #12000000002")[0]!;
const XML = read("ipoker-tournament-no-code.xml");

/** Inputs that must fail: the line named (by its text) and the reason. */
const MUST_FAIL: Array<{ name: string; text: string; at: string; message: RegExp; parsed?: number }> = [
  {
    name: "PokerStars: 6+ Hold'em (short deck)",
    text: swap(STARS, "Hold'em No Limit - Level II", "6+ Hold'em No Limit - Level II"),
    at: "PokerStars Game",
    message: /^6\+ Hold'em is not a game read here \(hold'em and Omaha only\)$/,
  },
  {
    name: "PokerStars: Courchevel",
    text: swap(STARS, "Hold'em No Limit - Level II", "Courchevel Pot Limit - Level II"),
    at: "PokerStars Game",
    message: /^Courchevel is not a game read here/,
  },
  {
    name: "GGPoker: short deck",
    text: swap(GG, "PLO ($5/$10)", "ShortDeck No Limit ($5)"),
    at: "Poker Hand #OM900001",
    message: /^ShortDeck is not a game read here/,
  },
  {
    name: "GGPoker: all-in insurance",
    text: swap(
      GG,
      "77c0ffee: folds",
      "77c0ffee: get an all-in insurance (premium ($0/$4/$0) for ($0/$10/$0))",
    ),
    at: "get an all-in insurance",
    message: /^GGPoker's all-in insurance is not read$/,
  },
  {
    name: "888poker: a tournament hand without its date",
    text: swap(H888, "- *** 02 02 2020 09:09:48", "- ***"),
    at: "Blinds No Limit Holdem - ***",
    message: /^no date and time after '- \*\*\*': 888poker left out when this hand was played$/,
  },
  {
    name: "888poker: a card in no language read here",
    text: swap(H888, "10Pik", "10Spade"),
    at: "Dealt to Hero",
    message:
      /^"10Spade" is not a card \(2c to Ah; a client set to another language writes cards not read here\)$/,
  },
  {
    name: "partypoker: a hand partypoker did not write",
    text: swap(PARTY, "Seat 2 is the button", "The hand history for this hand number is not available here."),
    at: "is not available",
    message: /^partypoker did not write this hand \(its history is not available in the file\)$/,
  },
  {
    name: "partypoker: a cash-out line in a form not read",
    text: swap(
      read("partypoker-game-table.txt").split("\n\n\n")[0]!,
      "Hero calls (9.45)",
      "Hero calls (9.45)\nlukas.b Cash-out offer pending",
    ),
    at: "Cash-out offer",
    message: /^unrecognised action "Cash-out offer pending"$/,
  },
  {
    name: "partypoker: a player who has no seat line",
    text: swap(PARTY, "rosa_m posts big blind [$0.25 USD].", "nadia_z posts big blind [$0.25 USD]."),
    at: "nadia_z posts big blind",
    message:
      /^"nadia_z" plays this hand but has no seat line, so their seat and stack are unknown \(the seats are listed incompletely, or the file spells the name two ways\)$/,
  },
  {
    name: "partypoker: a player who joins after the seats are listed and plays",
    text: swap(
      PARTY,
      "rosa_m posts big blind [$0.25 USD].",
      "nadia_z has joined the table.\nrosa_m is sitting out\nnadia_z posts big blind [$0.25 USD].",
    ),
    at: "nadia_z posts big blind",
    message:
      /^"nadia_z" joined the table after the seats were listed and plays this hand, but partypoker wrote no seat or stack for them: the hand cannot be replayed without them$/,
  },
  {
    name: "partypoker: a player who joins with a stack written as 0 and plays",
    text: swap(
      swap(PARTY, "Seat 4: tomas.k ( $30 USD )", "Seat 4: tomas.k ( $30 USD )\nSeat 5: nadia_z ( $0 USD )"),
      "rosa_m posts big blind [$0.25 USD].",
      "rosa_m posts big blind [$0.25 USD].\nnadia_z has joined the table.\nnadia_z posts big blind [$0.25 USD].",
    ),
    at: "nadia_z posts big blind",
    message:
      /^"nadia_z" joined the table during this hand and plays it, but partypoker wrote their stack as 0 \(before their buy-in\): the hand cannot be replayed without it$/,
  },
  {
    name: "partypoker: a seat line in a form not read (another tool's note after it)",
    text: swap(PARTY, "Seat 2: Hero ( $24.10 USD )", "Seat 2: Hero ( $24.10 USD ) [fish]"),
    at: "[fish]",
    message: /^unrecognised seat line \(Seat 1: name \( \$10\.25 USD \)\)$/,
  },
  {
    name: "Winamax: a tournament summary, not a hand",
    text: `Winamax Poker - Tournament summary : Freeroll 150(5142226)\nPlayer : Hero\nBuy-In : 0€ + 0€\nYou finished in 12th place`,
    at: "Tournament summary",
    message: /^a Winamax tournament summary \(the results, no hands\): there is no hand to read$/,
  },
  {
    name: "iPoker: a tournament hand with neither a dealer nor a small blind",
    text: swap(XML, '<action no="1" player="oskar_w" sum="10" type="1" />', ""),
    at: "</players>",
    message: /^no dealer among the players \(dealer="1"\), and no small blind to find the button by$/,
    parsed: 1,
  },
];

describe("real-world formats: inputs that must fail", () => {
  it.each(MUST_FAIL)("$name", ({ text, at, message, parsed = 0 }) => {
    const { hands, errors } = parseHandHistories(text);
    expect(errors, JSON.stringify(errors)).toHaveLength(1);
    expect(errors[0]!.message).toMatch(message);
    const index = text.split("\n").findIndex((l) => l.includes(at));
    expect(index).toBeGreaterThanOrEqual(0);
    expect(errors[0]!.line).toBe(index + 1);
    // The other hands of the text still parse.
    expect(hands).toHaveLength(parsed);
  });
});
