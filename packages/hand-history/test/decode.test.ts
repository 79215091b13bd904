/**
 * Files as the sites and Windows save them: UTF-8 with and without a byte order mark, UTF-16 with and
 * without one, and the Windows code page 1252 of older clients, decoded to the same text and hands.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeHandHistory, parseHandHistories } from "../src/index.js";
import { FIXTURES } from "./helpers.js";

/** A Winamax hand with accented names and euro amounts. */
const TEXT = readFileSync(join(FIXTURES, "winamax/cash-and-knockout.txt"), "utf8").replaceAll(
  "Jean-Mi",
  "Jérôme_ü",
);

/** Windows-1252 by hand: Latin-1 for U+0000-U+00FF, 0x80 for the euro sign. */
function cp1252(text: string): Uint8Array {
  return Uint8Array.from(
    [...text].map((c) => (c === "€" ? 0x80 : c.charCodeAt(0) <= 0xff ? c.charCodeAt(0) : 0x3f)),
  );
}

function utf16(text: string, order: "le" | "be", bom: boolean): Uint8Array {
  const le = Buffer.from(`${bom ? "\uFEFF" : ""}${text}`, "utf16le");
  if (order === "be") for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
}

describe("decodeHandHistory", () => {
  it.each([
    ["UTF-8", Buffer.from(TEXT, "utf8"), "utf-8"],
    ["UTF-8 with a byte order mark", Buffer.from(`\uFEFF${TEXT}`, "utf8"), "utf-8"],
    ["Windows-1252", cp1252(TEXT), "windows-1252"],
    ["UTF-16 LE with a byte order mark", utf16(TEXT, "le", true), "utf-16le"],
    ["UTF-16 BE with a byte order mark", utf16(TEXT, "be", true), "utf-16be"],
    ["UTF-16 LE without a byte order mark", utf16(TEXT, "le", false), "utf-16le"],
  ] as const)("%s: the same text, the same hands", (_, bytes, encoding) => {
    const decoded = decodeHandHistory(bytes);
    expect(decoded.encoding).toBe(encoding);
    expect(decoded.text).toBe(TEXT);
    const { hands, errors } = parseHandHistories(decoded.text);
    expect(errors).toEqual([]);
    expect(hands[0]!.players.map((p) => p.name)).toContain("Jérôme_ü");
    expect(hands[0]!.stakes.currency).toBe("EUR");
  });

  it("Windows-1252 read as UTF-8 would not parse: the decoding is what makes the hand readable", () => {
    const wrong = new TextDecoder("utf-8").decode(cp1252(TEXT));
    const { errors } = parseHandHistories(wrong);
    expect(errors.length).toBeGreaterThan(0);
  });

  it("broken UTF-16 says so", () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0x00, 0xd8, 0x41])]);
    expect(() => decodeHandHistory(broken)).toThrow(/UTF-16 \(little-endian\) text but is broken/);
  });
});
