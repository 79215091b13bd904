/**
 * 888poker, partypoker, Winamax and iPoker: hand histories written here in each site's format
 * (test/fixtures/<site>/), read into the same model as PokerStars' and GGPoker's, then inputs that must fail,
 * each with the line it names and a reason a player can act on.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Hand, parseHandHistories, writeHandHistory } from "../src/index.js";
import { expectChipsConserved, FIXTURES, nets, positions } from "./helpers.js";

const read = (file: string): string => readFileSync(join(FIXTURES, file), "utf8");
const parse = (file: string): Hand[] => {
  const { hands, errors } = parseHandHistories(read(file));
  expect(errors).toEqual([]);
  return hands;
};

const CASES: Array<{ file: string; site: Hand["site"]; hands: number; check: (hands: Hand[]) => void }> = [
  {
    file: "888poker/cash-and-tournament.txt",
    site: "888poker",
    hands: 4,
    check: ([a, b, c, d]) => {
      expect(a!.id).toBe("1047283914");
      expect(a!.game).toMatchObject({ variant: "holdem", limit: "nl", format: "cash" });
      expect(a!.stakes).toEqual({ sb: 0.05, bb: 0.1, ante: 0, currency: "USD" });
      // No zone in 888poker's time: kept as written.
      expect([a!.date, a!.timeZone]).toEqual(["2024-03-14T18:45:12", null]);
      expect([a!.table, a!.maxSeats, a!.buttonSeat]).toEqual(["Sochi", 6, 2]);
      expect(positions(a!)).toEqual({
        Zorro77: "CO",
        hollow_leg: "BTN",
        Hero: "SB",
        MrsPotts: "BB",
        Kalimero: "HJ",
      });
      expect([a!.hero, a!.heroCards]).toEqual(["Hero", ["Ah", "Qd"]]);
      // "raises [$0.95]" adds $0.95 to the small blind's $0.05: a 3-bet to $1.
      expect(a!.actions.preflop[3]).toEqual({
        player: "Hero",
        type: "raise",
        amount: 0.7,
        to: 1,
        allIn: false,
      });
      expect(a!.actions.flop[1]).toEqual({
        player: "Kalimero",
        type: "raise",
        amount: 2.4,
        to: 3.6,
        allIn: false,
      });
      // The river bet nobody called goes back; no "Total pot" line: the rake is what was not collected.
      expect(a!.uncalled).toEqual([{ player: "Hero", amount: 4 }]);
      expect([a!.totalPot, a!.rake, a!.wentToShowdown]).toEqual([9.3, 0.45, false]);
      expect(nets(a!)).toEqual({ Zorro77: 0, hollow_leg: 0, Hero: 4.25, MrsPotts: -0.1, Kalimero: -4.6 });
      // An all-in called, shown down: Zorro77's kings beat the hero's sevens.
      expect(b!.actions.preflop[5]).toMatchObject({
        player: "Zorro77",
        type: "raise",
        to: 10.4,
        allIn: true,
      });
      expect(b!.wentToShowdown).toBe(true);
      expect(b!.shows.map((s) => [s.player, s.cards])).toEqual([
        ["Zorro77", ["Ks", "Kh"]],
        ["Hero", ["7s", "7c"]],
      ]);
      expect(nets(b!)).toMatchObject({ Zorro77: 10.4, Hero: -10.4, hollow_leg: -0.25 });
      // A tournament hand with antes, chips with thousands separators.
      expect(c!.tournament).toMatchObject({
        id: "215483921",
        buyIn: [10, 1],
        currency: "USD",
        knockout: false,
      });
      expect(c!.stakes).toEqual({ sb: 100, bb: 200, ante: 25, currency: null });
      expect(nets(c!)).toEqual({ Lotte_K: -25, Hero: 625, grizzly_b: -125, nemo_fish: -475 });
      // A skin of the network ("LuckyAcePoker.com Hand History"), a dead blind of both parts, and a walk whose
      // collection counts the big blind's own chips.
      expect(d!.posts[2]).toEqual({ player: "hollow_leg", type: "sb+bb", amount: 0.15, allIn: false });
      expect([d!.totalPot, d!.rake, d!.uncalled]).toEqual([0.3, 0, []]);
      expect(nets(d!)).toEqual({ Zorro77: 0.2, hollow_leg: -0.15, Hero: 0, MrsPotts: 0, Kalimero: -0.05 });
    },
  },
  {
    file: "partypoker/cash-holdem.txt",
    site: "partypoker",
    hands: 3,
    check: ([a, b, c]) => {
      expect(a!.stakes).toEqual({ sb: 0.05, bb: 0.1, ante: 0, currency: "USD" });
      // 21:05:47 CET in March is 20:05:47 UTC.
      expect([a!.date, a!.timeZone]).toEqual(["2024-03-16T20:05:47.000Z", "CET"]);
      expect(positions(a!)).toEqual({
        kraken_rider: "BB",
        pinto_bean: "CO",
        Hero: "BTN",
        "velvet.glove": "SB",
      });
      // The hero calls all-in for $8.15 of kraken_rider's $8.40: the other $0.25 goes back.
      expect(a!.uncalled).toEqual([{ player: "kraken_rider", amount: 0.25 }]);
      expect(a!.actions.turn.map((x) => [x.player, x.type, x.allIn])).toEqual([
        ["kraken_rider", "bet", true],
        ["Hero", "call", true],
      ]);
      expect(a!.players.find((p) => p.name === "kraken_rider")!.cards).toEqual(["Ad", "Qd"]);
      expect([a!.totalPot, a!.rake]).toEqual([20.05, 0.75]);
      expect(nets(a!)).toEqual({ kraken_rider: -10, pinto_bean: 0, Hero: 9.3, "velvet.glove": -0.05 });
      expect(b!.wentToShowdown).toBe(false);
      expect(nets(b!)).toEqual({ kraken_rider: -0.05, pinto_bean: -0.1, Hero: 0.15, "velvet.glove": 0 });
      // An older header with the table's buy-in ($20): the blinds come from the posts. "wins $3.33 USD" counts
      // the $1.20 nobody called; time-bank and "Game #... starts." lines say nothing.
      expect(c!.stakes).toEqual({ sb: 0.05, bb: 0.1, ante: 0, currency: "USD" });
      expect(c!.uncalled).toEqual([{ player: "Hero", amount: 1.2 }]);
      expect(c!.collected).toEqual([{ player: "Hero", amount: 2.13, pot: 0, board: 0 }]);
      expect([c!.totalPot, c!.rake]).toEqual([2.25, 0.12]);
      expect(nets(c!)).toEqual({ kraken_rider: 0, pinto_bean: -0.05, Hero: 1.03, "velvet.glove": -1.1 });
    },
  },
  {
    file: "winamax/cash-and-knockout.txt",
    site: "winamax",
    hands: 3,
    check: ([a, x, b]) => {
      expect(a!.id).toBe("21876543-321-1710613512");
      expect(a!.stakes).toEqual({ sb: 0.05, bb: 0.1, ante: 0, currency: "EUR" });
      expect([a!.date, a!.timeZone]).toEqual(["2024-03-16T18:25:12.000Z", "UTC"]);
      expect(a!.boards).toEqual([["7s", "4h", "2d", "Jc", "9h"]]);
      expect([a!.totalPot, a!.rake, a!.wentToShowdown]).toEqual([3.55, 0.11, true]);
      expect(nets(a!)).toEqual({ kiki_la_malice: -1.75, Hero: 1.69, "Jean-Mi": 0, la_truffe: -0.05 });
      // Winamax's total pot is what was collected, a bet nobody called included, and the rake apart.
      expect(x!.uncalled).toEqual([{ player: "Jean-Mi", amount: 0.4 }]);
      expect([x!.totalPot, x!.rake, x!.collected[0]!.amount]).toEqual([0.65, 0.02, 0.63]);
      expect(nets(x!)).toEqual({ kiki_la_malice: -0.05, Hero: -0.3, "Jean-Mi": 0.33, la_truffe: 0 });
      // A knockout tournament: bounties on the seats, a bounty part in the buy-in.
      expect(b!.tournament).toMatchObject({
        id: "712345678",
        name: "Monster KO",
        buyIn: [4.5, 4.5, 1],
        currency: "EUR",
        level: "7",
        knockout: true,
      });
      expect(b!.players.map((p) => p.bounty)).toEqual([4.5, 6.75, 4.5]);
      expect(b!.stakes).toEqual({ sb: 100, bb: 200, ante: 25, currency: null });
      expect(nets(b!)).toEqual({ Bibi_Fricotin: -225, Hero: 4325, poulpe_rouge: -4100 });
    },
  },
  {
    file: "ipoker/cash-holdem.xml",
    site: "ipoker",
    hands: 3,
    check: ([a, b, c]) => {
      expect(a!.id).toBe("8001234567");
      expect([a!.table, a!.maxSeats, a!.buttonSeat, a!.line]).toEqual(["Montmartre", 6, 1, 18]);
      expect(a!.stakes).toEqual({ sb: 0.05, bb: 0.1, ante: 0, currency: "EUR" });
      // "bluff&amp;stuff" in the XML.
      expect(positions(a!)).toEqual({ Hero: "BTN", Sternchen: "SB", "bluff&stuff": "BB" });
      expect([a!.hero, a!.heroCards]).toEqual(["Hero", ["Ks", "Kh"]]);
      // The hero's "win" of €0.45 holds the €0.20 nobody called.
      expect(a!.uncalled).toEqual([{ player: "Hero", amount: 0.2 }]);
      expect(nets(a!)).toEqual({ Hero: 0.15, Sternchen: -0.05, "bluff&stuff": -0.1 });
      // H10 is the ten of hearts; Sternchen's aces are shown.
      expect(b!.boards).toEqual([["Th", "4s", "2c", "Kd", "3h"]]);
      expect(b!.heroCards).toEqual(["Td", "Tc"]);
      expect(b!.shows).toEqual([{ player: "Sternchen", cards: ["As", "Ad"], description: null }]);
      expect([b!.totalPot, b!.rake, b!.wentToShowdown]).toEqual([4.25, 0.2, true]);
      expect(nets(b!)).toEqual({ Hero: 1.95, Sternchen: -2.1, "bluff&stuff": -0.05 });
      // Actions grouped by player in the XML, played in the order of their numbers; type 23 raises to its sum.
      expect(c!.actions.preflop).toEqual([
        { player: "bluff&stuff", type: "fold", amount: 0, to: null, allIn: false },
        { player: "Hero", type: "raise", amount: 0.2, to: 0.3, allIn: false },
        { player: "Sternchen", type: "raise", amount: 0.7, to: 1, allIn: false },
        { player: "Hero", type: "call", amount: 0.7, to: null, allIn: false },
      ]);
      expect(c!.actions.flop.map((x) => `${x.player} ${x.type}`)).toEqual([
        "Hero check",
        "Sternchen bet",
        "Hero fold",
      ]);
      expect([c!.totalPot, c!.rake]).toEqual([2, 0.05]);
      expect(nets(c!)).toEqual({ Hero: -1, Sternchen: 0.95, "bluff&stuff": 0 });
    },
  },
];

describe("other sites", () => {
  it.each(CASES)(
    "$file: $hands hand(s) of $site, the facts of the file",
    ({ file, site, hands: n, check }) => {
      const hands = parse(file);
      expect(hands).toHaveLength(n);
      for (const hand of hands) expect(hand.site).toBe(site);
      check(hands);
    },
  );

  it.each(CASES)("$file: chips add up in every hand", ({ file }) => {
    for (const hand of parse(file)) expectChipsConserved(hand);
  });

  it.each(CASES)("$file: written in PokerStars format and read back, the same hands", ({ file }) => {
    for (const hand of parse(file)) {
      const { hands, errors } = parseHandHistories(writeHandHistory(hand));
      expect(errors).toEqual([]);
      // What PokerStars' format says its own way: the site, the game's label, a level; the fees as one rake
      // (no fee line when the site wrote none: the rake is then what was not collected, as before).
      const { label: _, ...game } = hand.game;
      expect(hands[0]).toMatchObject({
        ...hand,
        site: "pokerstars",
        line: 1,
        game,
        fees: hand.fees.length > 0 ? [{ kind: "rake", amount: hand.rake }] : [],
        notes: [],
        tournament: hand.tournament && { ...hand.tournament, level: hand.tournament.level ?? "I" },
      });
    }
  });

  it("reads the text sites together in one file, each hand by its own first line", () => {
    const files = CASES.filter((c) => !c.file.endsWith(".xml"));
    const all = files.map((c) => read(c.file)).join("\n\n");
    const { hands, errors } = parseHandHistories(all);
    expect(errors).toEqual([]);
    expect(hands.map((h) => h.site)).toEqual(files.flatMap((c) => Array(c.hands).fill(c.site)));
    expect(parseHandHistories(all, { site: "winamax" }).hands.map((h) => h.site)).toEqual([
      "winamax",
      "winamax",
      "winamax",
    ]);
  });
});

const HAND_888 = read("888poker/cash-and-tournament.txt").split("\n\n")[0]!;
const HAND_PARTY = read("partypoker/cash-holdem.txt").split("\n\n")[0]!;
const HAND_WINAMAX = read("winamax/cash-and-knockout.txt").split("\n\n")[0]!;
const XML = read("ipoker/cash-holdem.xml");

const swap = (text: string, from: string, to: string): string => {
  expect(text).toContain(from);
  return text.replace(from, to);
};

/** Inputs that must fail: the line named (by its text) and the reason. */
const MUST_FAIL: Array<{ name: string; text: string; at: string; message: RegExp }> = [
  {
    name: "888poker: a stud hand",
    text: swap(HAND_888, "No Limit Holdem", "Fix Limit Stud"),
    at: "Blinds Fix Limit Stud",
    message: /not hold'em or Omaha/,
  },
  {
    name: "888poker: a game line that is not one",
    text: swap(HAND_888, "$0.05/$0.10 Blinds", "$0.05-$0.10 Blinds"),
    at: "$0.05-$0.10 Blinds",
    message: /unrecognised 888poker game line/,
  },
  {
    name: "888poker: an unknown action",
    text: swap(HAND_888, "Zorro77 folds", "Zorro77 dances"),
    at: "Zorro77 dances",
    message: /unrecognised action "dances"/,
  },
  {
    name: "888poker: an amount that is not one",
    text: swap(HAND_888, "Kalimero calls [$0.70]", "Kalimero calls [$O.70]"),
    at: "Kalimero calls [$O.70]",
    message: /"\$O.70" is not an amount/,
  },
  {
    name: "888poker: more collected than was put in",
    text: swap(HAND_888, "Hero collected [ $8.85 ]", "Hero collected [ $9.85 ]"),
    at: "Hero collected [ $9.85 ]",
    message: /5.85 collected of a 9.3 pot: the 3.45 left would be rake, more than any site takes/,
  },
  {
    name: "888poker: less collected than a rake would leave",
    text: swap(HAND_888, "Hero collected [ $8.85 ]", "Hero collected [ $5.85 ]"),
    at: "Hero collected [ $5.85 ]",
    message: /5.85 collected of a 9.3 pot/,
  },
  {
    name: "partypoker: a tournament hand",
    text: swap(HAND_PARTY, "$0.05/$0.10 USD NL Texas Hold'em", "Tourney Hand NL Texas Hold'em"),
    at: "Tourney Hand",
    message: /tournament hands in this format are not read yet/,
  },
  {
    name: "partypoker: a month that is not one",
    text: swap(HAND_PARTY, "Saturday, March 16,", "Saturday, Marsh 16,"),
    at: "Marsh",
    message: /"Marsh" is not a month/,
  },
  {
    name: "partypoker: a card that is not one",
    text: swap(HAND_PARTY, "** Dealing Turn ** [ Kh ]", "** Dealing Turn ** [ Kx ]"),
    at: "** Dealing Turn ** [ Kx ]",
    message: /"Kx" is not a card/,
  },
  {
    name: "Winamax: a first line without the game",
    text: swap(HAND_WINAMAX, " - Holdem no limit (0.05€/0.10€)", ""),
    at: "Winamax Poker - CashGame",
    message: /unrecognised Winamax first line/,
  },
  {
    name: "Winamax: a player who is not seated",
    text: swap(HAND_WINAMAX, "Jean-Mi folds", "Jean-Pierre folds"),
    at: "Jean-Pierre folds",
    message: /unrecognised line/,
  },
  {
    name: "Winamax: more collected than was put in",
    text: swap(HAND_WINAMAX, "Hero collected 3.44€ from pot", "Hero collected 4.44€ from pot"),
    at: "Total pot 3.44€",
    message:
      /^4.44 collected, more than the 3.55 put in: the history leaves out chips that went in \(a post or a bet it does not write\), or its own figures do not add up$/,
  },
  {
    name: "iPoker: an unknown action type",
    text: swap(XML, 'sum="€0.15" type="3"', 'sum="€0.15" type="42"'),
    at: 'type="42"',
    message: /unknown action type 42/,
  },
  {
    name: "iPoker: a card that is not one",
    text: swap(XML, "D10 C10", "D11 C10"),
    at: "D11 C10",
    message: /"D11 C10" are not cards/,
  },
  {
    name: "iPoker: no dealer",
    text: swap(XML, 'chips="€10" dealer="1"', 'chips="€10" dealer="0"'),
    at: "</players>",
    message: /no dealer/,
  },
];

describe("888poker variants", () => {
  it("European amounts, the symbol after them (`10,40 $`, `0,05 $`), read as the same hand", () => {
    const european = HAND_888.replace(/\$(\d+)\.(\d\d)/g, "$1,$2 $").replace(/\$(\d+)/g, "$1 $");
    expect(european).toContain("Seat 1: Zorro77 ( 10,40 $ )");
    expect(european).toContain("0,05 $/0,10 $ Blinds");
    const { hands, errors } = parseHandHistories(european);
    expect(errors).toEqual([]);
    expect(hands[0]).toEqual(parseHandHistories(HAND_888).hands[0]);
  });
});

describe("iPoker variants", () => {
  it("a session written on one line reads the same hands", () => {
    const oneLine = XML.replace(/>\s*\n\s*</g, "><");
    expect(oneLine.trim().split("\n")).toHaveLength(1);
    const { hands, errors } = parseHandHistories(oneLine);
    expect(errors).toEqual([]);
    const expected = parseHandHistories(XML).hands;
    expect(hands.map((h) => ({ ...h, line: 0 }))).toEqual(expected.map((h) => ({ ...h, line: 0 })));
  });

  it('"Holdem L" is fixed limit', () => {
    const { hands } = parseHandHistories(XML.replace("Holdem NL €0.05/€0.10", "Holdem L €0.05/€0.10"));
    expect(hands.map((h) => h.game.limit)).toEqual(["fl", "fl", "fl"]);
  });
});

describe("inputs that must fail", () => {
  it.each(MUST_FAIL)("$name", ({ text, at, message }) => {
    const { hands, errors } = parseHandHistories(text);
    expect(errors.length, JSON.stringify(hands.map((h) => h.id))).toBeGreaterThanOrEqual(1);
    const error = errors[0]!;
    expect(error.message).toMatch(message);
    const lines = text.split("\n");
    expect(lines[error.line - 1], error.message).toContain(at);
    expect(error.text).toContain(at);
  });

  it("text of no supported site says which first lines are read", () => {
    const { errors } = parseHandHistories("Full Tilt Poker Game #123: Table X - $1/$2 - No Limit Hold'em\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/no hand found: this is not a hand history of a supported site/);
    expect(errors[0]!.message).toMatch(/Winamax Poker/);
  });
});
