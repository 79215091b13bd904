/**
 * Formats met in a wide sample of real hand-history files (counted with bench/coverage.ts, files kept outside
 * the repository): each written here by hand, with invented players and amounts, in test/fixtures/real-formats.
 * Every hand is read, its chips add up, and it is written back in PokerStars' format and read again (the
 * inputs the readers refuse: real-formats-errors.test.ts).
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Hand, parseHandHistories, writeHandHistory } from "../src/index.js";
import { expectChipsConserved, FIXTURES, nets, positions } from "./helpers.js";

const read = (file: string): string => readFileSync(join(FIXTURES, "real-formats", file), "utf8");
const parse = (file: string): Hand[] => {
  const { hands, errors } = parseHandHistories(read(file));
  expect(errors).toEqual([]);
  return hands;
};

const CASES: Array<{ file: string; site: Hand["site"]; hands: number; check: (hands: Hand[]) => void }> = [
  {
    file: "pokerstars-old-and-mixed.txt",
    site: "pokerstars",
    hands: 5,
    check: ([a, b, c, d, e]) => {
      // 2007: `Game #`, `2007/10/15 - 05:34:03 (ET)` (daylight time: UTC-4), and no "Uncalled bet" line for
      // the 400 that Ann_K's all-in had over BobbyTables' call for less before the board was dealt.
      expect([a!.date, a!.timeZone]).toEqual(["2007-10-15T09:34:03.000Z", "ET"]);
      expect(a!.tournament).toMatchObject({ id: "50123", buyIn: [5, 0.5], level: "II" });
      expect(a!.uncalled).toEqual([{ player: "Ann_K", amount: 400 }]);
      expect(a!.notes).toEqual([
        'no "Uncalled bet" line: the 400 that Ann_K bet and nobody called is counted as returned',
      ]);
      expect([a!.totalPot, a!.rake]).toEqual([1230, 0]);
      expect(nets(a!)).toEqual({ Ann_K: -600, BobbyTables: 630, cid_the_kid: -30 });
      // A Zoom tournament.
      expect(b!.tournament).toMatchObject({ id: "932000111", buyIn: [3, 0.3], currency: "USD", level: "X" });
      expect(b!.stakes).toEqual({ sb: 100, bb: 200, ante: 0, currency: null });
      // Mixed games name the hand's game in brackets: limit hold'em here, no limit hold'em in a cash game.
      expect(c!.game).toMatchObject({ variant: "holdem", limit: "fl", format: "tournament" });
      expect(c!.stakes).toMatchObject({ sb: 40, bb: 80 }); // as the level gives them (the small and big bet)
      expect(d!.game).toMatchObject({ variant: "holdem", limit: "nl", format: "cash" });
      expect(d!.stakes).toEqual({ sb: 0.1, bb: 0.25, ante: 0, currency: "USD" });
      expect(nets(d!)).toEqual({ Ann_K: 0.35, BobbyTables: -0.1, cid_the_kid: -0.25 });
      // A home game names its club first; an 8-game tournament's hand of limit hold'em.
      expect(e!.game).toMatchObject({ variant: "holdem", limit: "fl", format: "tournament" });
      expect(e!.tournament).toMatchObject({ id: "743000001", buyIn: [100, 9], currency: null, level: "II" });
      expect(nets(e!)).toEqual({ Ann_K: -10, BobbyTables: 10 });
    },
  },
  {
    file: "pokerstars-cash-out-and-dead-blind.txt",
    site: "pokerstars",
    hands: 2,
    check: ([a, b]) => {
      // An all-in cash out (2020 on): Bo_Linde took $88.20 and gave up the pot share of $98.50 the site kept
      // ("pot not awarded as player cashed out"); the empty `Bo_Linde: ` lines say nothing.
      expect(a!.cashouts).toEqual([{ player: "Bo_Linde", amount: -10.3 }]);
      expect(a!.collected).toEqual([{ player: "Bo_Linde", amount: 98.5, pot: 0, board: 0 }]);
      expect(a!.notes).toEqual([
        "Bo_Linde cashed out the hand for 88.2 (a fee of 0.89), giving up a pot share of 98.5",
      ]);
      expect([a!.totalPot, a!.rake]).toEqual([100.5, 2]);
      expect(nets(a!)).toEqual({ Anja77: -50, Bo_Linde: 38.2, "carmen.v": -0.5 });
      // A returning player's small blind out of position is dead: "raises $1 to $1.50" puts in $1.50 more.
      expect(b!.posts[2]).toEqual({ player: "Anja77", type: "dead", amount: 0.25, allIn: false });
      expect(b!.actions.preflop[0]).toEqual({
        player: "Anja77",
        type: "raise",
        amount: 1,
        to: 1.5,
        allIn: false,
      });
      expect(nets(b!)).toEqual({ Anja77: -1.75, Bo_Linde: 2.5, "carmen.v": -0.25, dario_k: -0.5 });
    },
  },
  {
    file: "ggpoker-named-and-missed-blind.txt",
    site: "ggpoker",
    hands: 2,
    check: ([a, b]) => {
      // A missed blind is dead money: 5e1f2a9b's raise to $40 is over the $10 big blind alone.
      expect(a!.posts.slice(2)).toEqual([
        { player: "5e1f2a9b", type: "dead", amount: 5, allIn: false },
        { player: "5e1f2a9b", type: "bb", amount: 10, allIn: false },
      ]);
      expect(a!.actions.preflop[0]).toEqual({
        player: "5e1f2a9b",
        type: "raise",
        amount: 30,
        to: 40,
        allIn: false,
      });
      expect(a!.uncalled).toEqual([{ player: "5e1f2a9b", amount: 30 }]);
      expect([a!.totalPot, a!.rake]).toEqual([30, 1.5]);
      expect(nets(a!)).toEqual({ "5e1f2a9b": 13.5, "77c0ffee": 0, Hero: -5, d00dfeed: -10 });
      // The tournament's name names a game too: the game is the last one named.
      expect(b!.game).toMatchObject({ variant: "holdem", limit: "nl", format: "tournament" });
      expect(b!.tournament).toMatchObject({
        id: "9360001",
        name: "WSOP #12: $1,000 No Limit Hold'em Summer Event [Flight B], $2M GTD",
        level: "10",
      });
      expect(b!.stakes).toMatchObject({ sb: 1000, bb: 2000 });
    },
  },
  {
    file: "888poker-local-clients.txt",
    site: "888poker",
    hands: 3,
    check: ([a, b, c]) => {
      // A German client: `10Pik` is the ten of spades. European amounts without a space before the symbol.
      expect(a!.heroCards).toEqual(["Ts", "Qh"]);
      expect(a!.boards).toEqual([["2d", "9c", "Th"]]);
      expect(a!.stakes).toEqual({ sb: 0.01, bb: 0.02, ante: 0, currency: "USD" });
      // A dead blind of both parts: only the big blind part is the player's bet, so "raises [0,06 $]" is a
      // raise to 0,08 $, and the hero's call of 0,06 $ matches it.
      expect(a!.posts[2]).toEqual({ player: "Lotte.R", type: "sb+bb", amount: 0.03, allIn: false });
      expect(a!.actions.preflop[0]).toMatchObject({ player: "Lotte.R", type: "raise", to: 0.08 });
      expect(a!.actions.preflop[3]).toMatchObject({ player: "Hero", type: "call", amount: 0.06 });
      expect(a!.uncalled).toEqual([{ player: "Lotte.R", amount: 0.1 }]);
      expect([a!.totalPot, a!.rake]).toEqual([0.18, 0]);
      expect(nets(a!)).toEqual({ Frieda_K: 0, Otto77: -0.01, Hero: -0.08, "Lotte.R": 0.09 });
      // Play money ("Practice Play"): chips, no currency.
      expect(b!.stakes).toEqual({ sb: 1, bb: 2, ante: 0, currency: null });
      expect(b!.players.find((p) => p.name === "Hero")!.stack).toBe(1283.5);
      expect(nets(b!)).toEqual({ paco_play: -6, Hero: 7, "ines.v": -1 });
      // A Dutch client: `$ 3.243` is 3,243 dollars, `$ 552,72` 552.72; `Hc` is the king of clubs, `Vd` the
      // queen of diamonds, `Bh` the jack of hearts; a Swedish board (`Knd`, `Eh`). A missed small blind alone
      // (`[$ 10 + $ 0]`) is dead money: Bram_V still calls the whole big blind.
      expect(c!.game).toMatchObject({ variant: "omaha", limit: "pl", holeCards: 4 });
      expect(c!.stakes).toEqual({ sb: 10, bb: 20, ante: 0, currency: "USD" });
      expect(c!.players.map((p) => p.stack)).toEqual([3243, 552.72, 800, 1020.5]);
      expect(c!.heroCards).toEqual(["Kc", "Qd", "Jh", "9s"]);
      expect(c!.boards).toEqual([["Jd", "4c", "Ah"]]);
      expect(c!.posts[2]).toEqual({ player: "Bram_V", type: "dead", amount: 10, allIn: false });
      expect(c!.actions.preflop[0]).toEqual({
        player: "Bram_V",
        type: "call",
        amount: 20,
        to: null,
        allIn: false,
      });
      expect([c!.totalPot, c!.rake]).toEqual([60, 3]);
      expect(nets(c!)).toEqual({ Hero: -20, Bram_V: 27, Joost: 0, Femke: -10 });
    },
  },
  {
    file: "partypoker-variants.txt",
    site: "partypoker",
    hands: 2,
    check: ([a, b]) => {
      // The Mac client's `Sunday,December 9,`, a table's buy-in for stakes, `( Real Money )`, a fastforward
      // table's `Forward Folds`, `folds.`, and `Game #N starts.` before the first hand.
      expect(a!.id).toBe("12000000001");
      expect([a!.date, a!.timeZone]).toEqual(["2012-12-09T14:34:49", null]);
      expect(a!.table).toBe("Algeciras");
      expect(a!.stakes).toEqual({ sb: 0.1, bb: 0.25, ante: 0, currency: "USD" });
      expect(a!.actions.preflop.map((x) => [x.player, x.type])).toEqual([
        ["Hero", "raise"],
        ["tomas.k", "fold"],
        ["rosa_m", "call"],
      ]);
      expect([a!.totalPot, a!.rake]).toEqual([1.6, 0.08]);
      expect(nets(a!)).toEqual({ rosa_m: -0.75, Hero: 0.77, "tomas.k": -0.1 });
      // No betting limit named: a fixed limit game.
      expect(b!.game).toMatchObject({ variant: "holdem", limit: "fl" });
      expect([b!.date, b!.timeZone]).toEqual(["2011-04-25T08:42:13.000Z", "BST"]);
      expect(nets(b!)).toEqual({ rosa_m: 0.22, Hero: -0.25, "tomas.k": 0 });
    },
  },
  {
    file: "partypoker-mac-and-old-seats.txt",
    site: "partypoker",
    hands: 2,
    check: ([a, b]) => {
      // The Mac client runs some lines together: a sit-out and the next player's big blind, and the two
      // halves of a split pot, each read as two lines.
      expect(a!.posts.map((x) => [x.player, x.type, x.amount])).toEqual([
        ["jonas.f", "sb", 0.1],
        ["lena_w", "bb", 0.25],
      ]);
      expect(a!.players.find((p) => p.name === "maud_t")!.dealtIn).toBe(false);
      expect(positions(a!)).toEqual({ lena_w: "BB", Hero: "BTN", "jonas.f": "SB", maud_t: null });
      expect(a!.collected.map((c) => [c.player, c.amount])).toEqual([
        ["lena_w", 3.61],
        ["Hero", 3.61],
      ]);
      expect([a!.totalPot, a!.rake]).toEqual([7.6, 0.38]);
      expect(nets(a!)).toEqual({ lena_w: -0.14, Hero: -0.14, "jonas.f": -0.1, maud_t: 0 });
      // An older client: `seat1:` with no space, `raises[ $35 USD ]` with none before the bracket.
      expect(b!.game).toMatchObject({ variant: "omaha", holeCards: 4, limit: "pl", format: "cash" });
      expect(b!.players.map((p) => [p.seat, p.name, p.stack])).toEqual([
        [1, "ida_s", 480],
        [2, "Hero", 1012.5],
        [5, "bram_v", 300],
      ]);
      expect(b!.actions.preflop[0]).toEqual({
        player: "Hero",
        type: "raise",
        amount: 25,
        to: 35,
        allIn: false,
      });
      expect(b!.uncalled).toEqual([{ player: "Hero", amount: 120 }]);
      expect([b!.totalPot, b!.rake]).toEqual([175, 3]);
      expect(nets(b!)).toEqual({ ida_s: -85, Hero: 87, bram_v: -5 });
    },
  },
  {
    file: "partypoker-tournament.txt",
    site: "partypoker",
    hands: 2,
    check: ([a, b]) => {
      // The game line gives the level before the hand's: the `Blinds-Antes(75/150 -15)` line under the seats
      // is this hand's. The blinds are not written: the seats after the button post them.
      expect(a!.tournament).toMatchObject({ id: "61000001", buyIn: [11], currency: "USD", level: "4" });
      expect(a!.stakes).toEqual({ sb: 75, bb: 150, ante: 15, currency: null });
      expect(a!.posts.filter((p) => p.type !== "ante")).toEqual([
        { player: "ruben77", type: "sb", amount: 75, allIn: false },
        { player: "lena.w", type: "bb", amount: 150, allIn: false },
      ]);
      expect(a!.actions.preflop.map((x) => [x.player, x.type, x.to])).toEqual([
        ["kasia_p", "raise", 450],
        ["Hero", "raise", 2385],
        ["ruben77", "call", null],
        ["lena.w", "fold", null],
        ["kasia_p", "call", null],
      ]);
      // The chips nobody matched come back as "side pot 2".
      expect(a!.uncalled).toEqual([{ player: "Hero", amount: 900 }]);
      expect(a!.pots.map((p) => p.amount)).toEqual([1455, 2140]);
      expect(nets(a!)).toEqual({ kasia_p: -1500, Hero: 2095, ruben77: -430, "lena.w": -165 });
      // No tournament number on the game line: the one under the seats. Nobody posts the small blind; the
      // player the hand never names (piet_sits) is not dealt in.
      expect(b!.tournament).toMatchObject({ id: "75000001", buyIn: [1], currency: "EUR", level: "1" });
      expect(b!.posts).toEqual([{ player: "sofie", type: "bb", amount: 40, allIn: false }]);
      expect(b!.players.find((p) => p.name === "piet_sits")!.dealtIn).toBe(false);
      expect(nets(b!)).toEqual({ marc_o: 0, Hero: 0, sofie: 0, piet_sits: 0 });
    },
  },
  {
    file: "partypoker-game-table.txt",
    site: "partypoker",
    hands: 2,
    check: ([a, b]) => {
      // The client's format since 2019: `raises 2.40 to 2.65` gives the total, `is all-In.` is a line of its
      // own, and the results are the summary's `balance` lines (collections, shown cards, sit-outs).
      expect(a!.id).toBe("1790000000001abcdefghij");
      expect(a!.game).toMatchObject({ variant: "omaha", holeCards: 4, limit: "pl", format: "cash" });
      expect(a!.stakes).toEqual({ sb: 0.1, bb: 0.25, ante: 0, currency: "USD" });
      expect([a!.date, a!.timeZone]).toEqual(["2026-07-20T15:01:17.000Z", "EDT"]);
      expect(a!.actions.preflop.map((x) => [x.player, x.type, x.to])).toEqual([
        ["noor_a", "raise", 0.85],
        ["Hero", "call", null],
        ["lukas.b", "raise", 2.65],
        ["noor_a", "fold", null],
        ["Hero", "call", null],
      ]);
      expect(a!.actions.flop[1]).toEqual({
        player: "lukas.b",
        type: "bet",
        amount: 9.45,
        to: null,
        allIn: true,
      });
      expect(a!.players.find((p) => p.name === "sitter99")!.dealtIn).toBe(false);
      expect(a!.shows.map((x) => [x.player, x.cards.length])).toEqual([
        ["Hero", 4],
        ["lukas.b", 4],
      ]);
      expect([a!.totalPot, a!.rake]).toEqual([25.05, 1.2]);
      expect(nets(a!)).toEqual({ noor_a: -0.85, Hero: 11.75, "lukas.b": -12.1, sitter99: 0 });
      // A tournament: its number and buy-in in brackets, chips.
      expect(b!.tournament).toMatchObject({
        id: "241000001",
        name: "SNG JackPot",
        buyIn: [1, 0.1],
        currency: "USD",
      });
      expect(b!.stakes).toEqual({ sb: 25, bb: 50, ante: 0, currency: null });
      expect(nets(b!)).toEqual({ mira_k: -410, Hero: 410 });
    },
  },
  {
    file: "winamax-old-and-hilo.txt",
    site: "winamax",
    hands: 2,
    check: ([a, b]) => {
      // 2011: `Seat 0000001 is the button`, and a total pot rounded to thousands (`6.03k`): the pot is what
      // the actions put in.
      expect(a!.buttonSeat).toBe(1);
      expect(a!.tournament).toMatchObject({ id: "5142226", freeroll: true, level: "2" });
      expect(a!.uncalled).toEqual([{ player: "Hero", amount: 10 }]);
      expect([a!.totalPot, a!.rake]).toEqual([6030, 0]);
      expect(nets(a!)).toEqual({ lucie_b: -3000, Hero: 3030, gaston: -30 });
      // 5 Card Omaha Hi/Lo, a table line without its colon, collections of the high and the low half.
      expect(b!.game).toMatchObject({ variant: "omaha", holeCards: 5, hiLo: true, limit: "pl" });
      expect(b!.table).toBe("Nagoya");
      expect(b!.collected).toEqual([
        { player: "bastien", amount: 5.7, pot: 0, board: 0 },
        { player: "Hero", amount: 5.7, pot: 0, board: 0 },
      ]);
      expect([b!.totalPot, b!.rake]).toEqual([12, 0.6]);
      expect(nets(b!)).toEqual({ "amelie.p": 0, Hero: -0.3, bastien: -0.3 });
    },
  },
  {
    file: "ipoker-tournament-no-code.xml",
    site: "ipoker",
    hands: 2,
    check: ([a, b]) => {
      // A game type without blinds (`Holdem NL`) and no <tournamentcode>: a tournament, numbered by its
      // table name; day-first dates (`07-Apr-2014`, `16.04.2014`).
      expect(a!.game.format).toBe("tournament");
      expect(a!.tournament).toMatchObject({ id: "611000222", name: null, buyIn: null });
      expect(a!.stakes).toEqual({ sb: 10, bb: 20, ante: 0, currency: null });
      expect([a!.date, a!.timeZone]).toEqual(["2014-04-07T20:00:05", null]);
      // No dealer marked: the button is the seat before the small blind's.
      expect(a!.buttonSeat).toBe(2);
      expect(positions(a!)).toEqual({ Hero: "BTN", oskar_w: "SB", "marta.l": "BB" });
      expect(nets(a!)).toEqual({ Hero: 0, oskar_w: 20, "marta.l": -20 });
      // Nobody posts the small blind: half the big one.
      expect(b!.date).toBe("2014-04-16T20:01:10");
      expect(b!.stakes).toMatchObject({ sb: 10, bb: 20 });
      expect(nets(b!)).toEqual({ Hero: 20, oskar_w: 0, "marta.l": -20 });
    },
  },
  {
    file: "ipoker-cash-unnamed-game.xml",
    site: "ipoker",
    hands: 1,
    check: ([a]) => {
      // `PL €2/€4` names no game: five cards dealt make it 5 card Omaha. The game's first tags run together
      // on one line. A big blind of €6 at a €4 table is a returning player's small and big blind: only the
      // €4 is a bet, so the raise to €12 puts in €8 more.
      expect(a!.game).toMatchObject({ variant: "omaha", holeCards: 5, limit: "pl", format: "cash" });
      expect(a!.stakes).toEqual({ sb: 2, bb: 4, ante: 0, currency: "EUR" });
      expect(a!.heroCards).toEqual(["As", "Ah", "7d", "7c", "2s"]);
      expect(a!.posts[2]).toEqual({ player: "yann_l", type: "sb+bb", amount: 6, allIn: false });
      expect(a!.uncalled).toEqual([{ player: "yann_l", amount: 8 }]);
      expect(nets(a!)).toEqual({ Hero: 0, ines_b: -2, "tobias.r": -4, yann_l: 6 });
    },
  },
];

describe("real-world formats", () => {
  it.each(CASES)("$file: $hands hand(s) of $site", ({ file, site, hands: count, check }) => {
    const hands = parse(file);
    expect(hands).toHaveLength(count);
    for (const hand of hands) {
      expect(hand.site).toBe(site);
      expectChipsConserved(hand);
    }
    check(hands);
  });

  it.each(CASES)("$file: every hand written in PokerStars' format reads back the same", ({ file }) => {
    for (const hand of parse(file)) {
      const { hands, errors } = parseHandHistories(writeHandHistory(hand));
      expect(errors).toEqual([]);
      // PokerStars' format carries no cash out: the hand comes back without it.
      const cashout = (name: string) =>
        hand.cashouts.reduce((t, c) => t + (c.player === name ? c.amount : 0), 0);
      const withoutCashouts = Object.fromEntries(
        hand.players.map((p) => [p.name, Math.round((p.net - cashout(p.name)) * 1e6) / 1e6]),
      );
      expect(nets(hands[0]!)).toEqual(withoutCashouts);
      expect(hands[0]!.posts).toEqual(hand.posts);
      expect(hands[0]!.actions).toEqual(hand.actions);
      expect([hands[0]!.totalPot, hands[0]!.rake]).toEqual([hand.totalPot, hand.rake]);
    }
  });
});
