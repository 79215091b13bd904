/**
 * Uploaded files are untrusted: a line longer than any site writes (`MAX_LINE`) makes its hand an error before
 * a pattern runs on it, a hand may not seat more than ten players, and errors quote at most 200 characters of
 * a line. Before these bounds, a 2,000-character `<gametype>` took 9 s to read, a partypoker line of 20,000
 * run-together parts overflowed the stack, and thousands of seat lines made every line's lookup slow.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseHandHistories } from "../src/index.js";
import { MAX_LINE } from "../src/line-limits.js";
import { FIXTURES } from "./helpers.js";

const read = (file: string): string => readFileSync(join(FIXTURES, "real-formats", file), "utf8");

/** The text with line `k` (0-based) replaced by `to(line)`. */
const withLine = (text: string, k: number, to: (line: string) => string): string => {
  const lines = text.split("\n");
  lines[k] = to(lines[k]!);
  return lines.join("\n");
};

const TEXT_FILES: Array<[string, string, number]> = [
  // site, fixture, a line of its first hand to lengthen (0-based)
  ["PokerStars", "pokerstars-old-and-mixed.txt", 3],
  ["GGPoker", "ggpoker-named-and-missed-blind.txt", 2],
  ["888poker", "888poker-local-clients.txt", 6],
  ["partypoker Game Table", "partypoker-game-table.txt", 4],
  ["partypoker (Mac client)", "partypoker-mac-and-old-seats.txt", 11],
  ["Winamax", "winamax-old-and-hilo.txt", 2],
];

describe("a line longer than MAX_LINE", () => {
  it.each(TEXT_FILES)(
    "%s: makes its hand an error quoting 200 characters; the other hands parse",
    (_, file, k) => {
      const text = read(file);
      const before = parseHandHistories(text);
      expect(before.errors).toEqual([]);
      const long = withLine(text, k, (line) => `${line} ${"/. ".repeat(MAX_LINE)}`);
      const after = parseHandHistories(long);
      expect(after.hands.map((h) => h.id)).toEqual(before.hands.slice(1).map((h) => h.id));
      expect(after.errors).toHaveLength(1);
      expect(after.errors[0]).toMatchObject({ line: k + 1, handLine: 1 });
      expect(after.errors[0]!.message).toMatch(
        /^this line is \d+ characters long; no site writes a hand-history line over 2000/,
      );
      expect(after.errors[0]!.text.length).toBeLessThanOrEqual(201);
    },
  );

  it("in an iPoker session's header: one error for the file", () => {
    const xml = read("ipoker-tournament-no-code.xml");
    const long = xml.replace("<gametype>Holdem NL</gametype>", `<gametype>${"/".repeat(100_000)}</gametype>`);
    const { hands, errors } = parseHandHistories(long);
    expect(hands).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(
      /characters long.*the session's header, so no hand of the file is read/,
    );
    expect(errors[0]!.text.length).toBeLessThanOrEqual(201);
  });

  it("in an iPoker game: that game is an error, the other is read", () => {
    const xml = read("ipoker-tournament-no-code.xml");
    const before = parseHandHistories(xml);
    expect(before.hands).toHaveLength(2);
    const k = xml.split("\n").findIndex((l, i) => i > 11 && l.includes("<action "));
    const { hands, errors } = parseHandHistories(withLine(xml, k, (l) => `${l}${" ".repeat(MAX_LINE)}x`));
    expect(hands.map((h) => h.id)).toEqual([before.hands[1]!.id]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: k + 1, handId: before.hands[0]!.id });
  });

  it("of text that is no hand: quoted at 200 characters", () => {
    const { hands, errors } = parseHandHistories(`${"x".repeat(1_000_000)}\n`);
    expect(hands).toEqual([]);
    expect(errors[0]!.text.length).toBeLessThanOrEqual(201);
  });
});

describe("seat lines", () => {
  const extraSeats = (format: (n: number) => string): string =>
    Array.from({ length: 10 }, (_, i) => format(i)).join("\n");

  it.each([
    [
      "PokerStars",
      "pokerstars-old-and-mixed.txt",
      4,
      (n: number) => `Seat ${11 + n}: extra_${n} (500 in chips)`,
    ],
    ["888poker", "888poker-local-clients.txt", 9, (n: number) => `Seat ${11 + n}: extra_${n} ( 1 $ )`],
    [
      "partypoker Game Table",
      "partypoker-game-table.txt",
      7,
      (n: number) => `Seat ${11 + n}: extra_${n} ($10)`,
    ],
  ] as const)("%s: more than ten make the hand an error", (_, file, k, format) => {
    const text = withLine(read(file), k, (line) => `${line}\n${extraSeats(format)}`);
    const { errors } = parseHandHistories(text);
    expect(errors[0]!.message).toBe("more than 10 seat lines: no table seats more");
    expect(errors[0]!.handLine).toBe(1);
  });
});

describe("partypoker Game Table", () => {
  it("refuses a 'Dealt to' line without cards in brackets", () => {
    const text = read("partypoker-game-table.txt").replace(
      "Dealt to Hero [ 7s, Tc, 5c, Jh ]",
      "Dealt to Hero",
    );
    const { errors } = parseHandHistories(text);
    expect(errors[0]).toMatchObject({
      message: "no cards in brackets after 'Dealt to'",
      text: "Dealt to Hero",
    });
  });
});

describe("partypoker's run-together lines", () => {
  it("splits a line of many parts without recursion (up to the line limit)", () => {
    const text = read("partypoker-mac-and-old-seats.txt");
    const line = "maud_t is sitting outlena_w posts big blind [$0,25 USD].";
    expect(text).toContain(line);
    // 12 notices run together before the post: each is split off and read as a sitting-out notice.
    const many = `${"maud_t is sitting out".repeat(12)}lena_w posts big blind [$0,25 USD].`;
    const { hands, errors } = parseHandHistories(text.replace(line, many));
    expect(errors).toEqual([]);
    expect(hands).toHaveLength(2);
  });
});
