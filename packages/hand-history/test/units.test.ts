/** Amounts, times, positions and first lines, table-driven. */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  formatAmount,
  formatHandTime,
  parseAmount,
  parseHandHistories,
  parseHandTime,
  positionsOf,
  writeHandHistory,
} from "../src/index.js";
import { EXPECTED_POSITIONS } from "./generate.js";
import { expectChipsConserved, FIXTURES, nets } from "./helpers.js";

describe("amounts", () => {
  it.each([
    ["$0.05", 0.05],
    ["€1,234.50", 1234.5],
    ["£3", 3],
    ["12,144", 12144],
    ["1500", 1500],
    ["$.5", 0.5],
    ["0", 0],
  ])("parseAmount(%j) is %d", (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  it("agrees with Number() on every cent and on long fractions", () => {
    for (let cents = 0; cents < 100_000; cents++) {
      const text = (cents / 100).toFixed(2);
      expect(parseAmount(`$${text}`)).toBe(Number(text));
    }
    for (const text of ["0.125", "123456.789", "0.000001", "9007199254740993", "1234567890123456.5"]) {
      expect(parseAmount(text)).toBe(Number(text));
    }
  });

  it.each(["", "$", "abc", "-1", "$-1", "0x10", "1e3", "Infinity", " 5", "1.2.3", "€", "."])(
    "parseAmount(%j) is NaN",
    (text) => {
      expect(parseAmount(text)).toBeNaN();
    },
  );

  it.each([
    [1, "USD", "$1"],
    [0.1, "USD", "$0.10"],
    [23.57, "EUR", "€23.57"],
    [0.3 + 0.6, "GBP", "£0.90"],
    [1500, null, "1500"],
    [0.125, "USD", "$0.125"],
  ] as const)("formatAmount(%d, %s) is %j", (value, currency, text) => {
    expect(formatAmount(value, currency)).toBe(text);
  });
});

describe("hand times", () => {
  it.each([
    // US Eastern: EST (UTC-5) in winter, EDT (UTC-4) in summer; daylight from the 2nd Sunday of March 02:00.
    ["2014/01/06 7:21:05 ET", "2014-01-06T12:21:05.000Z", "ET"],
    ["2024/03/10 1:59:59 ET", "2024-03-10T06:59:59.000Z", "ET"],
    ["2024/03/10 3:00:00 ET", "2024-03-10T07:00:00.000Z", "ET"],
    ["2024/11/03 0:59:59 ET", "2024-11-03T04:59:59.000Z", "ET"],
    // 01:00-01:59 on the first Sunday of November happens twice: read as daylight time.
    ["2024/11/03 1:30:00 ET", "2024-11-03T05:30:00.000Z", "ET"],
    ["2024/11/03 2:00:00 ET", "2024-11-03T07:00:00.000Z", "ET"],
    // Before 2007: first Sunday of April to last Sunday of October.
    ["2006/04/02 3:00:00 ET", "2006-04-02T07:00:00.000Z", "ET"],
    ["2006/10/29 2:00:00 ET", "2006-10-29T07:00:00.000Z", "ET"],
    ["2020/06/01 12:00:00 PT", "2020-06-01T19:00:00.000Z", "PT"],
    ["2019/12/01 20:00:00 CET [2019/12/01 14:00:00 ET]", "2019-12-01T19:00:00.000Z", "CET"],
    ["2019/07/01 20:00:00 CEST [2019/07/01 14:00:00 ET]", "2019-07-01T18:00:00.000Z", "CEST"],
    // PokerStars writes "CET" in summer too: Paris is on CEST (UTC+2) then, as the bracketed ET agrees.
    ["2021/07/10 21:14:05 CET [2021/07/10 15:14:05 ET]", "2021-07-10T19:14:05.000Z", "CET"],
    // EU summer time: from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October.
    ["2024/03/31 1:59:59 CET", "2024-03-31T00:59:59.000Z", "CET"],
    ["2024/03/31 3:00:00 CET", "2024-03-31T01:00:00.000Z", "CET"],
    ["2024/10/27 2:30:00 CET", "2024-10-27T00:30:00.000Z", "CET"],
    ["2024/10/27 3:00:00 CET", "2024-10-27T02:00:00.000Z", "CET"],
    ["2024/08/01 12:00:00 EET", "2024-08-01T09:00:00.000Z", "EET"],
    ["2024/01/15 12:00:00 WET", "2024-01-15T12:00:00.000Z", "WET"],
    ["2023/02/04 18:22:31 GMT", "2023-02-04T18:22:31.000Z", "GMT"],
    // An unknown zone: the bracketed ET time is used.
    ["2019/12/01 20:00:00 XYZ [2019/12/01 14:00:00 ET]", "2019-12-01T19:00:00.000Z", "ET"],
    // No zone (GGPoker): the local time as written.
    ["2024/05/18 21:42:03", "2024-05-18T21:42:03", null],
    ["2019/12/01 20:00:00 XYZ", "2019-12-01T20:00:00", null],
  ])("%s is %s", (text, date, timeZone) => {
    expect(parseHandTime(text)).toEqual({ date, timeZone });
  });

  it.each(["", "2019/12/01", "2019/13/01 10:00:00 ET", "2019/12/01 24:00:00", "2019/12/01 10:61:00"])(
    "%j is no time",
    (text) => {
      expect(parseHandTime(text)).toBeNull();
    },
  );

  it.each([
    ["2014-01-06T12:21:05.000Z", "ET", "2014/01/06 7:21:05 ET"],
    ["2024-07-01T12:00:00.000Z", "ET", "2024/07/01 8:00:00 ET"],
    ["2019-12-01T19:00:00.000Z", "CET", "2019/12/01 20:00:00 CET"],
    ["2021-07-10T19:14:05.000Z", "CET", "2021/07/10 21:14:05 CET"],
    ["2024-05-18T21:42:03", null, "2024/05/18 21:42:03"],
  ])("formatHandTime(%s, %s) is %s", (date, zone, text) => {
    expect(formatHandTime(date, zone)).toBe(text);
    expect(parseHandTime(text)).toEqual({ date, timeZone: zone });
  });
});

describe("positions", () => {
  it.each(Object.entries(EXPECTED_POSITIONS))("%s players dealt in", (count, labels) => {
    const n = Number(count);
    // Seats 1..n, button on seat n: the small blind is seat 1, the big blind seat 2 (heads-up: seat 1).
    const got = positionsOf(
      Array.from({ length: n }, (_, i) => i + 1),
      n,
    );
    const acting = n === 2 ? [n, 1] : [...Array.from({ length: n - 2 }, (_, i) => i + 3), 1, 2];
    expect(acting.map((seat) => got.get(seat))).toEqual(labels);
  });

  it("skips empty seats and puts a dead button on the player before it", () => {
    expect(Object.fromEntries(positionsOf([1, 2, 4, 5], 4))).toEqual({ 5: "SB", 1: "BB", 2: "CO", 4: "BTN" });
    expect(Object.fromEntries(positionsOf([1, 2, 5, 7], 4))).toEqual({ 5: "SB", 7: "BB", 1: "CO", 2: "BTN" });
    expect(Object.fromEntries(positionsOf([3, 6], 1))).toEqual({ 6: "SB", 3: "BB" });
    expect(positionsOf([1], 1).size).toBe(0);
    expect(positionsOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 1).size).toBe(0);
  });
});

/** A minimal heads-up hand with a given first line; the rest is fixed. */
const handWith = (header: string, { cards = ["Ah", "Kd"], tournament = false } = {}): string =>
  [
    header,
    "Table 'T' 2-max Seat #1 is the button",
    `Seat 1: p1 (${tournament ? "" : "$"}100 in chips)`,
    `Seat 2: p2 (${tournament ? "" : "$"}100 in chips)`,
    `p1: posts small blind ${tournament ? "" : "$"}1`,
    `p2: posts big blind ${tournament ? "" : "$"}2`,
    "*** HOLE CARDS ***",
    `Dealt to p1 [${cards.join(" ")}]`,
    "p1: folds",
    `Uncalled bet (${tournament ? "" : "$"}1) returned to p2`,
    `p2 collected ${tournament ? "" : "$"}2 from pot`,
    "*** SUMMARY ***",
    `Total pot ${tournament ? "" : "$"}2 | Rake ${tournament ? "" : "$"}0`,
  ].join("\n");

describe("first lines", () => {
  it.each([
    {
      header: "PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD) - 2020/01/01 12:00:00 ET",
      expect: { site: "pokerstars", id: "1", game: { variant: "holdem", limit: "nl", holeCards: 2 } },
    },
    {
      header: "PokerStars Zoom Hand #2:  Hold'em No Limit ($1/$2) - 2020/01/01 12:00:00 ET",
      expect: { site: "pokerstars", id: "2", stakes: { sb: 1, bb: 2, ante: 0, currency: "USD" } },
    },
    {
      header: "PokerStars Hand #3:  Hold'em Limit ($1/$2 USD) - 2020/01/01 12:00:00 ET",
      expect: { game: { limit: "fl", label: "Hold'em Limit" } },
    },
    {
      header: "PokerStars Hand #4:  Hold'em No Limit (1/2) - 2020/01/01 12:00:00 ET",
      tournament: true,
      expect: { game: { format: "cash" }, stakes: { sb: 1, bb: 2, ante: 0, currency: null } },
    },
    {
      header: "PokerStars Hand #5:  5 Card Omaha Hi/Lo Pot Limit ($1/$2 USD) - 2020/01/01 12:00:00 ET",
      cards: ["Ah", "Kd", "Qs", "Jc", "Th"],
      expect: { game: { variant: "omaha", holeCards: 5, hiLo: true, limit: "pl" } },
    },
    {
      header: "Poker Hand #HD6: Omaha Pot Limit ($1/$2) - 2020/01/01 12:00:00",
      cards: ["Ah", "Kd", "Qs", "Jc"],
      expect: { site: "ggpoker", id: "HD6", game: { variant: "omaha", holeCards: 4, limit: "pl" } },
    },
    {
      header: "Poker Hand #OM7: PLO-5 ($1/$2) - 2020/01/01 12:00:00",
      cards: ["Ah", "Kd", "Qs", "Jc", "Th"],
      expect: { game: { variant: "omaha", holeCards: 5, limit: "pl", label: "PLO-5" } },
    },
    {
      header:
        "PokerStars Hand #8: Tournament #9, €4.60+€0.40 EUR Hold'em No Limit - Match Round I, Level II (15/30) - 2020/01/01 12:00:00 CET",
      tournament: true,
      expect: {
        tournament: { id: "9", buyIn: [4.6, 0.4], currency: "EUR", level: "II", freeroll: false, name: null },
        stakes: { sb: 15, bb: 30, ante: 0, currency: null },
        date: "2020-01-01T11:00:00.000Z",
      },
    },
    {
      header:
        "Poker Hand #TM10: Tournament #11, Daily Deepstack Hold'em No Limit - Level3(50/100(15)) - 2020/01/01 12:00:00",
      tournament: true,
      expect: {
        tournament: { id: "11", name: "Daily Deepstack", buyIn: null, currency: null, level: "3" },
        stakes: { sb: 50, bb: 100, ante: 15, currency: null },
      },
    },
    {
      header:
        "PokerStars Hand #12: Tournament #13, 100+10 Hold'em No Limit - Level I (10/20) - 2020/01/01 12:00:00 ET",
      tournament: true,
      expect: { tournament: { buyIn: [100, 10], currency: null } },
    },
  ])("$header", ({ header, cards, tournament, expect: expected }) => {
    const { hands, errors } = parseHandHistories(handWith(header, { cards, tournament }));
    expect(errors).toEqual([]);
    expect(hands[0]).toMatchObject(expected);
    expectChipsConserved(hands[0]!);
  });
});

describe("GGPoker EV cashout", () => {
  it("counts the cashout in the players' nets, outside the pot", () => {
    const text = [
      "Poker Hand #HD1: Hold'em No Limit ($0.25/$0.5) - 2026/02/17 06:24:30",
      "Table 'NLHPurple11' 6-max Seat #1 is the button",
      "Seat 1: Hero ($50 in chips)",
      "Seat 2: abcd1234 ($50 in chips)",
      "Hero: posts small blind $0.25",
      "abcd1234: posts big blind $0.5",
      "*** HOLE CARDS ***",
      "Dealt to Hero [As Ah]",
      "Dealt to abcd1234 ",
      "Hero: raises $49.5 to $50 and is all-in",
      "abcd1234: calls $49.5 and is all-in",
      "Hero: shows [As Ah]",
      "abcd1234: shows [Kc Kd]",
      "Hero: Chooses to EV Cashout",
      "*** FLOP *** [2c 7d 9h]",
      "*** TURN *** [2c 7d 9h] [Jc]",
      "*** RIVER *** [2c 7d 9h Jc] [3s]",
      "*** SHOWDOWN ***",
      "Hero: Pays Cashout Risk ($18.2)",
      "Hero collected $97.5 from pot",
      "*** SUMMARY ***",
      "Total pot $100 | Rake $2 | Jackpot $0.5 | Bingo $0 | Fortune $0 | Tax $0",
      "Board [2c 7d 9h Jc 3s]",
      "Seat 1: Hero (button) (small blind) showed [As Ah] and won ($97.5) with a pair of Aces",
      "Seat 2: abcd1234 (big blind) showed [Kc Kd] and lost with a pair of Kings",
    ].join("\n");
    const { hands, errors } = parseHandHistories(text);
    expect(errors).toEqual([]);
    const hand = hands[0]!;
    expect(hand.cashouts).toEqual([{ player: "Hero", amount: -18.2 }]);
    expect(nets(hand)).toEqual({ Hero: 29.3, abcd1234: -50 });
    expect(hand.rake).toBe(2.5);
    expectChipsConserved(hand);
  });
});

describe("run three times", () => {
  it("keeps three boards and the collections of each run", () => {
    const twice = readFileSync(join(FIXTURES, "ggpoker/plo-cash-run-it-twice.txt"), "utf8");
    const thrice = twice
      .replace(
        "*** FIRST SHOWDOWN ***",
        "*** THIRD FLOP *** [8c 6h Ks]\n*** THIRD TURN *** [8c 6h Ks] [2d]\n*** THIRD RIVER *** [8c 6h Ks 2d] [7c]\n*** FIRST SHOWDOWN ***",
      )
      .replace("Hero collected $18.2 from pot", "Hero collected $12.14 from pot")
      .replace("9b8a7c6d collected $18.2 from pot", "9b8a7c6d collected $12.13 from pot")
      .replace("*** SUMMARY ***", "*** THIRD SHOWDOWN ***\nHero collected $12.13 from pot\n*** SUMMARY ***")
      .replace("Hand was run two times", "Hand was run three times");
    const { hands, errors } = parseHandHistories(thrice);
    expect(errors).toEqual([]);
    const hand = hands[0]!;
    expect(hand.boards).toHaveLength(3);
    expect(hand.boards[2]).toEqual(["8c", "6h", "Ks", "2d", "7c"]);
    expect(hand.collected.map((c) => [c.player, c.amount, c.board])).toEqual([
      ["Hero", 12.14, 0],
      ["9b8a7c6d", 12.13, 1],
      ["Hero", 12.13, 2],
    ]);
    expect(nets(hand)).toMatchObject({ Hero: 5.52, "9b8a7c6d": -6.62 });
    expectChipsConserved(hand);
    const again = parseHandHistories(writeHandHistory(hand));
    expect(again.errors).toEqual([]);
    expect(again.hands[0]!.boards).toEqual(hand.boards);
    expect(again.hands[0]!.collected).toEqual(hand.collected);
  });
});

describe("writer", () => {
  it("writes the time zone's local time, and an all-in and side pots the PokerStars way", () => {
    const text = handWith("PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD) - 2020/07/01 12:00:00 ET");
    const [hand] = parseHandHistories(text).hands;
    const written = writeHandHistory(hand!);
    expect(written.split("\n")[0]).toBe(
      "PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD) - 2020/07/01 12:00:00 ET",
    );
    expect(written).toContain("Dealt to p1 [Ah Kd]");
    expect(written).toContain("Uncalled bet ($1) returned to p2");
    expect(written).toContain("Seat 2: p2 (big blind) collected ($2)");
  });
});
