/**
 * This package's own hand histories (test/fixtures), written by hand in each site's format: one file per
 * case the parsers must handle. Every amount in them was worked out by hand; the tests check them.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Hand, parseHandHistories, writeHandHistory } from "../src/index.js";
import { expectChipsConserved, FIXTURES, nets, player, positions, textFiles } from "./helpers.js";

const read = (file: string): string => readFileSync(join(FIXTURES, file), "utf8");
const parse = (file: string): Hand[] => {
  const { hands, errors } = parseHandHistories(read(file));
  expect(errors).toEqual([]);
  return hands;
};

const CASES: Array<{ file: string; site: Hand["site"]; hands: number; check: (hands: Hand[]) => void }> = [
  {
    file: "pokerstars/cash-eur-6max-sidepots.txt",
    site: "pokerstars",
    hands: 3,
    check: ([a, b, c]) => {
      // Euros; the time is given in CEST and ET: both say 19:14:05 UTC.
      expect(a!.stakes).toEqual({ sb: 0.02, bb: 0.05, ante: 0, currency: "EUR" });
      expect(a!.date).toBe("2021-07-10T19:14:05.000Z");
      expect(a!.timeZone).toBe("CEST");
      expect(a!.hero).toBe("kj_dealer");
      expect(a!.heroCards).toEqual(["Qd", "Qs"]);
      expect(player(a!, "kj_dealer").cards).toEqual(["Qd", "Qs"]);
      expect(nets(a!)).toEqual({
        "mila.v": 0,
        Ostkreuz77: -0.15,
        kj_dealer: 1.32,
        "Banjo Bill": -0.05,
        tr1cky: 0,
        Ziegenpeter: -1.25,
      });
      expect(a!.uncalled).toEqual([{ player: "kj_dealer", amount: 1.4 }]);
      // A walk: the big blind gets $0.03 back; a chat line with ": " in it is no action.
      expect(b!.collected).toEqual([{ player: "tr1cky", amount: 0.04, pot: 0, board: 0 }]);
      expect(nets(b!)).toMatchObject({ tr1cky: 0.02, "Banjo Bill": -0.02 });
      // Side pots: tr1cky all-in for 2.12 wins the main pot; kj_dealer the side pot.
      expect(c!.pots).toEqual([
        { amount: 6.41, players: ["kj_dealer", "Banjo Bill", "tr1cky"] },
        { amount: 8.4, players: ["kj_dealer", "Banjo Bill"] },
      ]);
      expect(c!.collected).toEqual([
        { player: "kj_dealer", amount: 8.1, pot: 1, board: 0 },
        { player: "tr1cky", amount: 6.11, pot: 0, board: 0 },
      ]);
      expect(c!.uncalled).toEqual([{ player: "Banjo Bill", amount: 0.94 }]);
      expect(nets(c!)).toEqual({
        "mila.v": 0,
        Ostkreuz77: 0,
        kj_dealer: 1.78,
        "Banjo Bill": -6.32,
        tr1cky: 3.99,
        Ziegenpeter: -0.05,
      });
      expect(c!.players.filter((p) => p.allIn).map((p) => p.name)).toEqual([
        "kj_dealer",
        "Banjo Bill",
        "tr1cky",
      ]);
      expect(c!.rake).toBe(0.6);
    },
  },
  {
    file: "pokerstars/tournament-bounty.txt",
    site: "pokerstars",
    hands: 3,
    check: ([a, b, c]) => {
      expect(a!.game.format).toBe("tournament");
      expect(a!.tournament).toEqual({
        id: "3100000001",
        name: null,
        buyIn: [10, 10, 2],
        currency: "USD",
        freeroll: false,
        level: "VIII",
        finishes: [
          { player: "quietmouse", place: 41, prize: 14.2 },
          { player: "ace_of_base", place: 42, prize: 14.2 },
        ],
        // $10+$10+$2 and "$10 bounty" on the seats: a bounty tournament.
        knockout: true,
      });
      // Tournament chips: no currency; the ante comes from the posts.
      expect(a!.stakes).toEqual({ sb: 100, bb: 200, ante: 25, currency: null });
      expect(a!.date).toBe("2022-11-20T19:05:11.000Z");
      expect(player(a!, "hh_hero").bounty).toBe(12.5);
      // Sitting out in a tournament still posts and folds: dealt in.
      expect(player(a!, "Mr Grinder")).toMatchObject({ dealtIn: true, position: "BB", net: -225 });
      expect(positions(a!)).toEqual({
        Rosso_Nero: "UTG1",
        quietmouse: "LJ",
        "Dr. Fold": "HJ",
        hh_hero: "CO",
        Pipistrello: "BTN",
        ace_of_base: "SB",
        "Mr Grinder": "BB",
        lucky7even: "UTG",
      });
      // Four all in for different amounts: a main pot and two side pots.
      expect(a!.pots).toEqual([
        { amount: 7860, players: ["quietmouse", "hh_hero", "Pipistrello", "ace_of_base"] },
        { amount: 3705, players: ["quietmouse", "hh_hero", "Pipistrello"] },
        { amount: 7150, players: ["hh_hero", "Pipistrello"] },
      ]);
      expect(a!.collected.map((x) => [x.pot, x.amount])).toEqual([
        [2, 7150],
        [1, 3705],
        [0, 7860],
      ]);
      expect(nets(a!)).toMatchObject({
        hh_hero: 12015,
        quietmouse: -3125,
        Pipistrello: -6700,
        ace_of_base: -1890,
      });
      // A player moved in "out of hand" on the button seat: a dead button, Pipistrello acts last.
      expect(player(b!, "Kaktus_Jack")).toMatchObject({ dealtIn: false, position: null, net: 0 });
      expect(positions(b!)).toMatchObject({
        Pipistrello: "BTN",
        "Mr Grinder": "SB",
        lucky7even: "BB",
        hh_hero: "CO",
      });
      expect(b!.buttonSeat).toBe(6);
      expect(nets(b!)).toMatchObject({ hh_hero: 675, lucky7even: -475, "Mr Grinder": -125 });
      // A freeroll's final hand, heads-up, with the winner's line.
      expect(c!.tournament).toMatchObject({
        freeroll: true,
        buyIn: null,
        currency: null,
        level: "XV",
        knockout: false,
      });
      expect(c!.tournament!.finishes).toEqual([
        { player: "hh_hero", place: 2, prize: null },
        { player: "sun_tzu_88", place: 1, prize: 2 },
      ]);
      expect(positions(c!)).toEqual({ sun_tzu_88: "SB", hh_hero: "BB" });
      expect(c!.uncalled).toEqual([{ player: "sun_tzu_88", amount: 9000 }]);
      expect(nets(c!)).toEqual({ sun_tzu_88: 18000, hh_hero: -18000 });
      expect(c!.date).toBe("2022-11-21T06:44:09.000Z");
    },
  },
  {
    file: "pokerstars/plo-cash-gbp-crlf.txt",
    site: "pokerstars",
    hands: 2,
    check: ([a, b]) => {
      expect(a!.game).toEqual({
        variant: "omaha",
        holeCards: 4,
        hiLo: false,
        limit: "pl",
        format: "cash",
        label: "Omaha Pot Limit",
      });
      expect(a!.stakes.currency).toBe("GBP");
      expect(a!.date).toBe("2023-02-04T18:22:31.000Z");
      expect(a!.heroCards).toEqual(["Ah", "As", "Td", "9c"]);
      expect(player(a!, "tillie_b")).toMatchObject({
        cards: ["9s", "Ts", "Js", "6d"],
        allIn: true,
        net: -21.75,
      });
      expect(nets(a!)).toMatchObject({ Hero77: 27.25, Fenwick: -7.5, "wobbly.j": -0.5 });
      // "is sitting out" on the seat line; a newcomer posts small & big blinds (the small one dead).
      expect(player(b!, "pl0_nut")).toMatchObject({ dealtIn: false, position: null });
      expect(b!.posts[2]).toEqual({ player: "newbie_nl", type: "sb+bb", amount: 0.75, allIn: false });
      expect(positions(b!)).toMatchObject({
        newbie_nl: "CO",
        Hero77: "BTN",
        "wobbly.j": "SB",
        Fenwick: "BB",
      });
      expect(nets(b!)).toMatchObject({ newbie_nl: 2.73, Hero77: -2.25 });
    },
  },
  {
    file: "pokerstars/cash-run-it-twice.txt",
    site: "pokerstars",
    hands: 2,
    check: ([a, b]) => {
      // All in preflop, run twice: two whole boards, one collection on each.
      expect(a!.boards).toEqual([
        ["Kh", "7d", "2s", "9c", "3h"],
        ["Qd", "Jh", "4c", "Qs", "5d"],
      ]);
      expect(a!.collected).toEqual([
        { player: "hero_rit", amount: 250.5, pot: 0, board: 0 },
        { player: "MarianneK", amount: 250.5, pot: 0, board: 1 },
      ]);
      expect(nets(a!)).toMatchObject({ hero_rit: 0.5, MarianneK: 0.5, C0ldCall: -1, b_lackwood: -2 });
      expect(a!.date).toBe("2024-04-13T03:05:47.000Z"); // EDT, UTC-4
      // All in on the flop: the boards share the flop.
      expect(b!.boards).toEqual([
        ["8s", "Td", "Jd", "2c", "Kh"],
        ["8s", "Td", "Jd", "Jc", "4s"],
      ]);
      expect(b!.actions.flop.map((x) => x.type)).toEqual(["check", "bet", "raise", "fold", "call"]);
      expect(b!.actions.turn).toEqual([]);
      expect(nets(b!)).toMatchObject({ C0ldCall: 2, hero_rit: 2, dk_rivers: -6, b_lackwood: -1 });
    },
  },
  {
    file: "pokerstars/cash-cap-ante-quirks.txt",
    site: "pokerstars",
    hands: 3,
    check: ([a, b, c]) => {
      // A capped no-limit table; "CET" in August is Paris summer time, UTC+2, as the bracketed ET agrees.
      expect(a!.game).toMatchObject({ variant: "holdem", limit: "nl", label: "Hold'em No Limit" });
      expect(a!.stakes).toEqual({ sb: 1, bb: 2, ante: 0, currency: "USD" });
      expect(a!.date).toBe("2023-08-05T20:10:03.000Z");
      // No "Uncalled bet" line: the $22 nobody called went back to the hero all the same.
      expect(a!.uncalled).toEqual([{ player: "Hero", amount: 22 }]);
      expect(a!.totalPot).toBe(38);
      expect(nets(a!)).toEqual({ capt_ahab: -18, Hero: 19, mobydick: -2 });
      expect(a!.notes).toEqual([
        'no "Uncalled bet" line: the 22 that Hero bet and nobody called is counted as returned',
      ]);
      // An ante table whose total pot line leaves out the four $0.02 antes: the collections and the rake
      // add up to everything put in ($0.73), which is the pot.
      expect(b!.totalPot).toBe(0.73);
      expect(b!.rake).toBe(0.03);
      expect(nets(b!)).toEqual({ Hero: 0.38, oak_tree: -0.02, lynx_eye: -0.07, fernweh: -0.32 });
      expect(b!.notes).toHaveLength(1);
      expect(b!.notes[0]).toMatch(
        /total pot of 0.65 is not what was put in \(0.73\): it is off by 0.08 of antes/,
      );
      // PokerStars' "Ante" tables also wrote hands whose total and collection leave out antes and the small
      // blind ($0.35 of the $0.85 put in): the results are the history's, the rest is counted as withheld.
      expect(c!.totalPot).toBe(0.85);
      expect(c!.fees).toEqual([
        { kind: "rake", amount: 0 },
        { kind: "unaccounted", amount: 0.35 },
      ]);
      expect(c!.rake).toBe(0.35);
      expect(nets(c!)).toEqual({ Hero: -0.3, oak_tree: 0.2, lynx_eye: -0.05, fernweh: -0.05, quokka: -0.15 });
      expect(c!.notes).toEqual([
        "the summary's total pot of 0.5 leaves out 0.35 of the antes and blinds that were put in (0.85); the winnings are as the history gives them, and the 0.35 is counted as withheld",
      ]);
    },
  },
  {
    file: "pokerstars/cash-straddle-sitouts.txt",
    site: "pokerstars",
    hands: 2,
    check: ([a, b]) => {
      expect(a!.posts[2]).toEqual({ player: "strad_king", type: "straddle", amount: 1, allIn: false });
      expect(player(a!, "away_team")).toMatchObject({ dealtIn: false, position: null });
      expect(positions(a!)).toMatchObject({ strad_king: "HJ", Hero_9: "CO", dealer_dan: "BTN" });
      expect(player(a!, "strad_king").invested).toBe(23.5);
      // The winner shows after winning without a showdown.
      expect(a!.wentToShowdown).toBe(false);
      expect(a!.shows).toEqual([
        { player: "Hero_9", cards: ["Td", "Tc"], description: "a full house, Tens full of Sixes" },
      ]);
      expect(nets(a!)).toMatchObject({ Hero_9: 24.75, strad_king: -23.5, BigB: -3.5, Sb_guy: -0.25 });
      // "dealer_dan: sits out" before the cards: not dealt in; four players left.
      expect(player(b!, "dealer_dan")).toMatchObject({ dealtIn: false, position: null });
      expect(positions(b!)).toMatchObject({ Sb_guy: "BTN", BigB: "SB", strad_king: "BB", Hero_9: "CO" });
      expect(nets(b!)).toMatchObject({ Sb_guy: 0.75, BigB: -0.25, strad_king: -0.5 });
    },
  },
  {
    file: "ggpoker/rush-cash-holdem.txt",
    site: "ggpoker",
    hands: 2,
    check: ([a, b]) => {
      expect(a!.id).toBe("RC2000000001");
      // GGPoker writes "*** SHOWDOWN ***" in every hand; here everybody but the winner folded: no showdown.
      expect(a!.wentToShowdown).toBe(false);
      // No time zone in GGPoker's header: the local time as written.
      expect(a!.date).toBe("2024-05-18T21:42:03");
      expect(a!.timeZone).toBeNull();
      expect(a!.stakes).toEqual({ sb: 0.05, bb: 0.1, ante: 0, currency: "USD" });
      // "Dealt to" for everyone, cards for the hero only.
      expect(a!.hero).toBe("Hero");
      expect(a!.heroCards).toEqual(["Ks", "Jh"]);
      expect(a!.players.filter((p) => p.cards !== null).map((p) => p.name)).toEqual(["Hero"]);
      expect(a!.fees).toEqual([
        { kind: "rake", amount: 0.3 },
        { kind: "jackpot", amount: 0.05 },
        { kind: "bingo", amount: 0 },
        { kind: "fortune", amount: 0 },
        { kind: "tax", amount: 0 },
      ]);
      expect(a!.rake).toBe(0.35);
      // GGPoker writes *** SHOWDOWN *** even when nobody shows.
      expect(nets(a!)).toMatchObject({ "0e0e5f5a": 3.12, Hero: -3.37, "77d0e1f2": -0.1 });
      // A bare "straddle $0.2" (GGPoker), cards shown before the board, two pots.
      expect(b!.posts[2]).toEqual({ player: "a1b2c3d4", type: "straddle", amount: 0.2, allIn: false });
      expect(b!.shows.map((s) => s.player)).toEqual(["Hero", "deadbeef", "5e6f7a8b"]);
      expect(b!.pots).toEqual([
        { amount: 9.85, players: ["5e6f7a8b", "Hero", "deadbeef"] },
        { amount: 6.86, players: ["Hero", "deadbeef"] },
      ]);
      expect(nets(b!)).toMatchObject({ Hero: 9.48, "5e6f7a8b": -3.2, deadbeef: -6.63, a1b2c3d4: -0.2 });
      expect(b!.rake).toBe(0.6);
    },
  },
  {
    file: "ggpoker/tournament-holdem.txt",
    site: "ggpoker",
    hands: 2,
    check: ([a, b]) => {
      expect(a!.tournament).toEqual({
        id: "180000001",
        name: "Bounty Hunters Special",
        buyIn: [10.8],
        currency: "USD",
        freeroll: false,
        level: "9",
        finishes: [],
        // "Bounty Hunters" in the name.
        knockout: true,
      });
      expect(a!.stakes).toEqual({ sb: 250, bb: 500, ante: 60, currency: null });
      expect(a!.maxSeats).toBe(8);
      expect(positions(a!)).toEqual({
        "3e4f5a6b": "CO",
        "8c9d0e1f": "BTN",
        Hero: "SB",
        "2a2b2c2d": "BB",
        "6f6e6d6c": "UTG",
        "1a9b8c7d": "UTG1",
        f0e1d2c3: "LJ",
        "5b5b5b5b": "HJ",
      });
      // Thousands separators in chips.
      expect(a!.actions.preflop.find((x) => x.player === "Hero")).toEqual({
        player: "Hero",
        type: "raise",
        amount: 8715,
        to: 9815,
        allIn: true,
      });
      expect(a!.pots).toEqual([
        { amount: 13700, players: ["8c9d0e1f", "Hero", "2a2b2c2d"] },
        { amount: 11550, players: ["8c9d0e1f", "Hero"] },
      ]);
      expect(nets(a!)).toMatchObject({
        Hero: 15375,
        "8c9d0e1f": -9875,
        "2a2b2c2d": -4100,
        "1a9b8c7d": -1160,
      });
      expect(b!.players).toHaveLength(7);
      expect(nets(b!)).toMatchObject({ Hero: 1110, "6f6e6d6c": -310, "1a9b8c7d": -560 });
    },
  },
  {
    file: "ggpoker/plo-cash-run-it-twice.txt",
    site: "ggpoker",
    hands: 1,
    check: ([a]) => {
      expect(a!.game).toEqual({
        variant: "omaha",
        holeCards: 4,
        hiLo: false,
        limit: "pl",
        format: "cash",
        label: "PLO",
      });
      expect(a!.id).toBe("OM4000000001");
      expect(a!.boards).toEqual([
        ["2c", "7d", "Kd", "3h", "5c"],
        ["Js", "9h", "4c", "Tc", "6d"],
      ]);
      expect(a!.collected).toEqual([
        { player: "Hero", amount: 18.2, pot: 0, board: 0 },
        { player: "9b8a7c6d", amount: 18.2, pot: 0, board: 1 },
      ]);
      expect(a!.wentToShowdown).toBe(true);
      expect(nets(a!)).toEqual({ Hero: -0.55, "1d2e3f4a": 0, "9b8a7c6d": -0.55, e5e5a1a1: -0.1 });
      expect(a!.rake).toBe(1.2);
    },
  },
];

describe("fixtures", () => {
  it("lists every PokerStars and GGPoker fixture file in this table (the other sites: sites.test.ts)", () => {
    expect(textFiles(FIXTURES).filter((f) => /^(pokerstars|ggpoker)\//.test(f))).toEqual(
      CASES.map((c) => c.file).sort(),
    );
  });

  it.each(CASES)(
    "$file: $hands hand(s) of $site, the facts of the file",
    ({ file, site, hands: count, check }) => {
      const hands = parse(file);
      expect(hands).toHaveLength(count);
      for (const hand of hands) expect(hand.site).toBe(site);
      check(hands);
    },
  );

  it.each(CASES)("$file: chips add up in every hand", ({ file }) => {
    for (const hand of parse(file)) expectChipsConserved(hand);
  });

  it.each(CASES)("$file: line endings, byte order marks and spacing do not matter", ({ file }) => {
    const text = read(file)
      .replace(/^\uFEFF/, "")
      .replaceAll("\r\n", "\n");
    const expected = parseHandHistories(text);
    expect(expected.errors).toEqual([]);
    for (const variant of [
      `\uFEFF${text}`,
      text.replaceAll("\n", "\r\n"),
      `\uFEFF${text.replaceAll("\n", "\r\n")}\r\n`,
      text.replaceAll("\n", "\r"),
      text.replaceAll("\n", "  \n"),
      `\n\n${text}\n\n\n`.replaceAll(/\n(?=Poker)/g, "\n\n\uFEFF"),
    ]) {
      const got = parseHandHistories(variant);
      expect(got.errors).toEqual([]);
      expect(got.hands.map((h) => ({ ...h, line: 0 }))).toEqual(
        expected.hands.map((h) => ({ ...h, line: 0 })),
      );
    }
  });

  it.each(CASES)("$file: written in PokerStars format and read back, the same hands", ({ file }) => {
    for (const hand of parse(file)) {
      const { hands, errors } = parseHandHistories(writeHandHistory(hand));
      expect(errors).toEqual([]);
      // What PokerStars' format cannot say: the site, GGPoker's game label and its fee columns.
      const expected =
        hand.site === "ggpoker"
          ? {
              ...hand,
              site: "pokerstars",
              game: {
                ...hand.game,
                label: hand.game.variant === "omaha" ? "Omaha Pot Limit" : hand.game.label,
              },
              fees: [{ kind: "rake", amount: hand.rake }],
            }
          : // Several fees (an "unaccounted" part) are written as one rake, as GGPoker's are.
            { ...hand, fees: hand.fees.length > 1 ? [{ kind: "rake", amount: hand.rake }] : hand.fees };
      // What the parser worked out is written out plainly: read back, nothing is left to work out.
      expect(hands[0]).toEqual({ ...expected, line: 1, notes: [] });
    }
  });

  it("reads every fixture file at once, with the right first line for each hand", () => {
    const texts = CASES.map((c) =>
      read(c.file)
        .replace(/^\uFEFF/, "")
        .replaceAll("\r\n", "\n"),
    );
    const all = texts.join("\n");
    const { hands, errors } = parseHandHistories(all);
    expect(errors).toEqual([]);
    expect(hands).toHaveLength(CASES.reduce((n, c) => n + c.hands, 0));
    const lines = all.split("\n");
    for (const hand of hands) expect(lines[hand.line - 1]).toContain(`#${hand.id}:`);
    expect(parseHandHistories(all, { site: "pokerstars" }).hands.every((h) => h.site === "pokerstars")).toBe(
      true,
    );
    expect(parseHandHistories(all, { site: "ggpoker" }).hands.every((h) => h.site === "ggpoker")).toBe(true);
  });
});
