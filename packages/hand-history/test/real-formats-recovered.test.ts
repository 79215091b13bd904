/**
 * Hands of the public sample files that were refused and that their own lines let us read exactly (each
 * written here by hand, with invented players and amounts, in test/fixtures/real-formats), and the inputs
 * near them that must still be refused, with the reason a player reads.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Hand, parseHandHistories, writeHandHistory } from "../src/index.js";
import { expectChipsConserved, FIXTURES, nets, player } from "./helpers.js";

const read = (file: string): string => readFileSync(join(FIXTURES, "real-formats", file), "utf8");
const swap = (text: string, from: string, to: string): string => {
  expect(text).toContain(from);
  return text.replace(from, to);
};

const CASES: Array<{ file: string; hands: number; check: (hands: Hand[]) => void }> = [
  {
    file: "partypoker-game-table-cash-out.txt",
    hands: 2,
    check: ([a, b]) => {
      // All in on the flop, olek77 took the cash out of $21.37; Hero's straight won the pot (less the rake)
      // and the $4.55 nobody called. The summary's "collected $21.37" is the cash out, not a pot.
      expect(a!.cashouts).toEqual([{ player: "olek77", amount: 21.37 }]);
      expect(a!.collected).toEqual([{ player: "Hero", amount: 35.1, pot: 0, board: 0 }]);
      expect(a!.uncalled).toEqual([{ player: "Hero", amount: 4.55 }]);
      expect(nets(a!)).toEqual({ mika_r: -0.1, olek77: 2.97, Hero: 16.7 });
      expect(a!.notes).toEqual(["olek77 cashed out the hand for 21.37"]);
      // jonas.p's all-in is written 650332, a chip short of the 650333 the ante left him (the summary: lost
      // 655333, his whole stack): read as the whole stack, so Hero's call of 530333 is matched.
      expect(player(b!, "jonas.p")).toMatchObject({ invested: 655333, allIn: true });
      expect(b!.actions.preflop.find((x) => x.player === "jonas.p")).toMatchObject({ to: 650333 });
      expect(b!.uncalled).toEqual([]);
      expect(nets(b!)).toEqual({ vera_k: -5000, Hero: 660333, "jonas.p": -655333 });
      expect(b!.notes).toEqual([
        "jonas.p's all-in is written 1 chip short of their stack: read as the whole stack",
      ]);
    },
  },
  {
    file: "partypoker-live-blind-and-levels.txt",
    hands: 3,
    check: ([a, b, c]) => {
      // Fixed limit $10/$20: sven.o posts a second small blind of $5 and calls $5 to the big blind of $10,
      // so the $5 counted (a live blind, not dead money).
      expect(a!.posts.filter((p) => p.player === "sven.o")).toEqual([
        { player: "sven.o", type: "sb", amount: 5, allIn: false },
      ]);
      expect(nets(a!)).toEqual({ lena_w: 0, piotr_b: -5, Hero: 53, "sven.o": -50 });
      expect(a!.notes).toEqual(["sven.o's second small blind counts toward their call: a live blind"]);
      // Seat lines with a HUD's statistics after the stack.
      expect(b!.players.map((p) => [p.name, p.stack])).toEqual([
        ["rita.g", 4.8],
        ["Hero", 5.15],
        ["bo_lind", 6],
      ]);
      expect(nets(b!)).toEqual({ "rita.g": -0.02, Hero: 0.16, bo_lind: -0.15 });
      // The Russian client's level, `Blinds-Antes(1 000/2 000 -250)`: a space between thousands.
      expect(c!.stakes).toEqual({ sb: 1000, bb: 2000, ante: 250, currency: null });
      expect(c!.tournament).toMatchObject({ id: "131000222", level: "10", buyIn: [55] });
      expect(nets(c!)).toEqual({ anya_s: -250, "igor.t": -35900, Hero: 38400, dima_v: -2250 });
    },
  },
  {
    file: "ipoker-disconnect-protection.xml",
    hands: 1,
    check: ([a]) => {
      // tom_r disconnected (`sum="DP"`): all in for the $0.20 he had put in, he wins the main pot; the side
      // pot of the two who bet on goes to Hero when lina.p folds.
      expect(player(a!, "tom_r")).toMatchObject({ invested: 0.2, won: 0.62, allIn: true });
      expect(a!.pots).toEqual([
        { amount: 0.65, players: ["Hero", "tom_r"] },
        { amount: 0.4, players: ["Hero"] },
      ]);
      expect(nets(a!)).toEqual({ Hero: -0.01, karl_m: -0.05, "lina.p": -0.4, tom_r: 0.42 });
      expect(a!.rake).toBe(0.04);
    },
  },
  {
    file: "ipoker-italian-chips.xml",
    hands: 1,
    check: ([a]) => {
      // The Italian skins write tournament chips with a point between thousands: `1.500` is 1,500 chips.
      expect(a!.game.format).toBe("tournament");
      expect(a!.players.map((p) => p.stack)).toEqual([1500, 1500, 1500]);
      expect(nets(a!)).toEqual({ Hero: -1500, gina_f: -10, "paolo.c": 1510 });
    },
  },
  {
    file: "ipoker-currency-letters.xml",
    hands: 1,
    check: ([a]) => {
      // The Scandinavian skins write the krona after the amount (`12,400kr`, `9,855.50kr`): a comma between
      // thousands, a point before the öre. A currency the model does not list: the amounts stay, its currency
      // is null.
      expect(a!.game).toMatchObject({ variant: "omaha", holeCards: 4, limit: "pl", format: "cash" });
      expect(a!.stakes).toEqual({ sb: 50, bb: 100, ante: 0, currency: null });
      expect(a!.players.map((p) => p.stack)).toEqual([12400, 9855.5, 20100]);
      expect(a!.uncalled).toEqual([{ player: "kari.b", amount: 600 }]);
      expect(nets(a!)).toEqual({ Hero: -350, ola_n: -100, "kari.b": 430 });
      expect(a!.rake).toBe(20);
    },
  },
  {
    file: "ipoker-level-in-game.xml",
    hands: 2,
    check: ([a, b]) => {
      // Newer clients write each game's level (<smallblind>, <bigblind>, <ante>): nils_v's small blind of 25
      // is all he had left, the level's is 50.
      expect(a!.stakes).toEqual({ sb: 50, bb: 100, ante: 10, currency: null });
      expect(a!.tournament).toMatchObject({ id: "7700100", buyIn: [0.92, 0.08] });
      expect(a!.pots).toEqual([
        { amount: 105, players: ["Hero", "nils_v"] },
        { amount: 150, players: ["Hero"] },
      ]);
      expect(nets(a!)).toEqual({ Hero: 145, nils_v: -35, "edda.k": -110 });
      // Nobody posts the small blind (its player was knocked out): the game still says 75.
      expect(b!.stakes).toEqual({ sb: 75, bb: 150, ante: 15, currency: null });
      expect(b!.players.map((p) => p.stack)).toEqual([1000, 1625, 2375]);
      expect(nets(b!)).toEqual({ mara_s: -15, Hero: -15, "edda.k": 30 });
    },
  },
];

describe("real-world formats read from the hand's own lines", () => {
  it.each(CASES)("$file: $hands hand(s)", ({ file, hands: count, check }) => {
    const { hands, errors } = parseHandHistories(read(file));
    expect(errors).toEqual([]);
    expect(hands).toHaveLength(count);
    for (const hand of hands) expectChipsConserved(hand);
    check(hands);
  });
  it.each(CASES)("$file: every hand written in PokerStars' format reads back the same", ({ file }) => {
    for (const hand of parseHandHistories(read(file)).hands) {
      const again = parseHandHistories(writeHandHistory(hand));
      expect(again.errors).toEqual([]);
      // PokerStars' format drops a partypoker cash out: what each put in and won stays.
      const chips = (h: Hand) => h.players.map((p) => [p.name, p.invested, p.won]);
      expect(chips(again.hands[0]!)).toEqual(chips(hand));
      expect(again.hands[0]!.pots).toEqual(hand.pots);
    }
  });
});

const CASH_OUT = read("partypoker-game-table-cash-out.txt").split("\n\n\n")[0]!;
const TOURNEY = read("partypoker-game-table-cash-out.txt").split("\n\n\n")[1]!;
const LIMIT = read("partypoker-live-blind-and-levels.txt").split("\n\n\n")[0]!;
const DP = read("ipoker-disconnect-protection.xml");
const CURRENCY_XML = read("ipoker-currency-letters.xml").replace(
  "<startdate>2026-02-07 21:14:09</startdate>\n",
  "<startdate>2026-02-07 21:14:09</startdate>\n   <smallblind>50kr</smallblind>\n",
);
const LEVEL = read("ipoker-level-in-game.xml");
/** The level's tags taken out of every game of the tournament file. */
const NO_LEVEL = LEVEL.replace(/ *<(smallblind|bigblind|ante)>[^<]*<\/\1>\n/g, "");
/** Its first game only, the antes and the blinds taken out too (a shoot-out's last hand: all in for the ante). */
const ANTES_ONLY = NO_LEVEL.split(' <game gamecode="8600002">')[0]!
  .replace(/ *<action no="[45]" player="[^"]*" sum="[^"]*" type="[12]"\/>\n/g, "")
  .concat("</session>\n");

const MUST_FAIL: Array<{ name: string; text: string; at: string; message: RegExp }> = [
  {
    name: "partypoker: a cash out the summary does not pay",
    text: swap(CASH_OUT, "collected $21.37, net +$2.97", "collected $35.10, net +$16.70"),
    at: "olek77 Cashed out",
    message: /^olek77 cashed out for 21\.37, but the summary does not say they were paid that$/,
  },
  {
    name: "partypoker: a tournament all-in two chips short of the stack (more than rounding)",
    text: swap(TOURNEY, "raises 610332 to 650332", "raises 610331 to 650331"),
    at: "jonas.p balance",
    message:
      /^the summary says jonas\.p put in 655333, but the hand's lines put in 655331: 2 of their chips are in no line/,
  },
  {
    name: "partypoker: a history without a player's own actions (the summary has them put in 655333)",
    text: swap(swap(TOURNEY, "Hero raises 100000 to 120000\n", ""), "Hero calls (530333)\n", ""),
    at: "Hero balance",
    message:
      /^the summary says Hero put in 655333, but the hand's lines put in 25000: 630333 of their chips are in no line \(an action left out, or an amount the client rounded down\), so the hand cannot be replayed$/,
  },
  {
    name: "partypoker: Double Hold'em (three cards and a point card)",
    text: swap(LIMIT, "$10/$20 USD Texas Hold'em", "$10/$20 USD NL Double Hold'em"),
    at: "Double Hold'em",
    message: /^"NL Double Hold'em" is not hold'em or Omaha, the games read here$/,
  },
  {
    name: "partypoker: a name spelt two ways (the seat line has only its first word)",
    text: swap(CASH_OUT, "Hero raises 0.85 to 0.85", "Hero Name raises 0.85 to 0.85"),
    at: "Hero Name raises",
    message: /^"Hero Name" plays this hand but has no seat line/,
  },
  {
    name: "iPoker: a tournament hand where nobody posts a blind and the file writes no level",
    text: ANTES_ONLY,
    at: '<game gamecode="8600001">',
    message:
      /^nobody posts a blind in this tournament hand and the file does not write the level's blinds, so its stakes are unknown$/,
  },
  {
    name: "iPoker: Omaha cards in a hold'em game (a test file edited by hand)",
    text: swap(
      LEVEL.split(' <game gamecode="8600002">')[0]!.concat("</session>\n"),
      '"Pocket">SQ HQ<',
      '"Pocket">SQ HQ D3 C4<',
    ),
    at: "SQ HQ D3 C4",
    message:
      /^4 hole cards dealt to Hero, but this hand's game deals 2: its cards and its game type disagree$/,
  },
  {
    name: "iPoker: a level that is no amount",
    text: swap(
      CURRENCY_XML,
      "<smallblind>50kr</smallblind>\n   <players>",
      "<smallblind>fifty</smallblind>\n   <players>",
    ),
    at: "<smallblind>fifty",
    message: /^unrecognised smallblind "fifty"$/,
  },
  {
    name: "iPoker: an all-in of an unknown amount",
    text: swap(DP, 'sum="DP" type="7"', 'sum="??" type="7"'),
    at: 'sum="??"',
    message: /^unrecognised action/,
  },
];

describe("real-world formats near those: inputs that must still fail", () => {
  it.each(MUST_FAIL)("$name", ({ text, at, message }) => {
    const { hands, errors } = parseHandHistories(text);
    expect(hands).toEqual([]);
    expect(errors, JSON.stringify(errors)).toHaveLength(1);
    expect(errors[0]!.message).toMatch(message);
    expect(errors[0]!.line).toBe(text.split("\n").findIndex((l) => l.includes(at)) + 1);
  });
});

describe("iPoker: levels, currencies and files without hands", () => {
  it("reads the level from the posts when the game does not write it, as before", () => {
    const { hands, errors } = parseHandHistories(NO_LEVEL);
    expect(errors).toEqual([]);
    // Without the tags the short small blind of 25 is all the file says of the level.
    expect(hands.map((h) => h.stakes.sb)).toEqual([25, 75]);
    expect(hands.map((h) => h.stakes.ante)).toEqual([10, 15]);
  });
  it("reads a currency written in letters before the amount (RSD45.70) as after it", () => {
    const text = read("ipoker-currency-letters.xml")
      .replace(/"([\d.,]+)kr"/g, '"RSD$1"')
      .replace("50kr/100kr", "RSD50/RSD100");
    const { hands, errors } = parseHandHistories(text);
    expect(errors).toEqual([]);
    expect(hands[0]!.stakes).toEqual({ sb: 50, bb: 100, ante: 0, currency: null });
    expect(nets(hands[0]!)).toEqual({ Hero: -350, ola_n: -100, "kari.b": 430 });
  });
  it("says an XML file that is no iPoker session holds no hand of any site", () => {
    const text =
      '<?xml version="1.0" encoding="UTF-8"?>\n<ROOT>\n<HISTORY ID="12" TABLE="Birch 2">\n</HISTORY>\n</ROOT>\n';
    const { hands, errors } = parseHandHistories(text);
    expect(hands).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ site: null, handId: null, line: 1 });
    expect(errors[0]!.message).toMatch(/^no hand found: this XML file is not an iPoker hand history/);
  });
  it("says an iPoker session without a game holds no hand", () => {
    const text = LEVEL.split(" <game ")[0]!.concat("</session>\n");
    const { hands, errors } = parseHandHistories(text);
    expect(hands).toEqual([]);
    expect(errors).toEqual([
      expect.objectContaining({
        site: "ipoker",
        message: "this iPoker file holds no hand: its <session> has no <game>",
      }),
    ]);
  });
});
