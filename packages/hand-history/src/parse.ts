/**
 * The parser: splits a file into hands, finds each hand's site from its first line, and reads it with the
 * line reader (`reader.ts`): PokerStars and GGPoker hands as written, 888poker, Winamax and partypoker
 * hands translated line for line first (`sites/`), iPoker XML sessions game by game (`sites/ipoker.ts`).
 */

import { HeaderError, mayStartHand, START } from "./header.js";
import { MAX_LINE, overlong, overlongMessage, quoted } from "./line-limits.js";
import { HandReader, LineError } from "./reader.js";
import { BRACKET_DIALECTS } from "./sites/bracket.js";
import type { Dialect } from "./sites/dialect.js";
import { isIPokerXml, parseIPoker } from "./sites/ipoker.js";
import { WINAMAX } from "./sites/winamax.js";
import type { Hand, HandParseError, ParseOptions, ParseResult, Site } from "./types.js";
import { SITES } from "./types.js";

/** Site names as players know them. */
export const SITE_NAMES: Record<Site, string> = {
  pokerstars: "PokerStars",
  ggpoker: "GGPoker",
  "888poker": "888poker",
  winamax: "Winamax",
  partypoker: "partypoker",
  ipoker: "iPoker",
};

const DIALECTS: readonly Dialect[] = [...BRACKET_DIALECTS, WINAMAX];

const FIRST_LINES =
  "'PokerStars Hand #', 'Poker Hand #' (GGPoker), '#Game No :' (888poker, partypoker), 'Winamax Poker -', or an iPoker XML session";

/** The site of the hand starting on `lines[i]`: "native" for PokerStars and GGPoker, a dialect, or null. */
function startAt(lines: readonly string[], i: number): Dialect | "native" | null {
  const line = lines[i]!;
  if (line.length > MAX_LINE) return null;
  const c = line.charCodeAt(0);
  // P(okerStars, oker Hand), #, *, W: cheap checks first, the file is scanned line by line.
  if (c === 80) return mayStartHand(line) && START.test(line) ? "native" : null;
  if (c !== 35 && c !== 42 && c !== 87) return null;
  for (const d of DIALECTS) if (d.startsAt(lines, i)) return d;
  return null;
}

/**
 * Splits text into lines: LF, CRLF or CR endings; byte order marks dropped (also mid-file, from `cat`), and
 * the NUL characters partypoker's client writes before some lines (`\0Game #N starts.`).
 */
export function splitLines(text: string): string[] {
  const lines = text.includes("\r") ? text.split(/\r\n?|\n/) : text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!.charCodeAt(0);
    if (first === 0xfeff) lines[i] = lines[i]!.slice(1);
    else if (first === 0) lines[i] = lines[i]!.replace(/^\0+/, "");
  }
  return lines;
}

/** partypoker writes `Game #N starts.` before each hand's `#Game No : N`; before the first one it says nothing. */
const GAME_STARTS = /^Game #\d+ starts\.$/;

/**
 * Parses every hand of a hand-history file: one or many hands, of any supported site, mixed with
 * `site: "auto"`. A hand that cannot be read becomes an entry of `errors` naming its hand number and the
 * 1-based line of the problem; the hands around it still parse. Decode files with `decodeHandHistory`
 * first when they may not be UTF-8 (Windows-1252, UTF-16).
 *
 * @example
 * const { hands, errors } = parseHandHistories(readFileSync("HH20140106.txt", "utf8"));
 * hands[0].players.find((p) => p.name === hands[0].hero)?.net;
 */
export function parseHandHistories(text: string, options: ParseOptions = {}): ParseResult {
  const site = options.site ?? "auto";
  if (site !== "auto" && !(SITES as readonly string[]).includes(site)) {
    throw new TypeError(`site must be "auto" or one of ${SITES.join(", ")}, not ${JSON.stringify(site)}`);
  }
  if (isIPokerXml(text)) return parseIPoker(text, site);
  const lines = splitLines(text);
  const hands: Hand[] = [];
  const errors: HandParseError[] = [];
  let start = -1;
  let kind: Dialect | "native" | null = null;
  for (let i = 0; i < lines.length; i++) {
    const found = startAt(lines, i);
    if (found !== null) {
      if (start >= 0) parseOne(lines, start, i, kind!, site, hands, errors);
      start = i;
      kind = found;
    } else if (start < 0 && lines[i]!.trim() !== "" && !GAME_STARTS.test(lines[i]!.trim())) {
      // Text before the first hand: one error for the whole run of it.
      let end = i;
      while (end < lines.length && startAt(lines, end) === null) end++;
      errors.push({
        handId: null,
        site: null,
        line: i + 1,
        handLine: i + 1,
        message:
          end < lines.length
            ? `text before the first hand (a hand starts with ${FIRST_LINES})`
            : `no hand found: this is not a hand history of a supported site (a hand starts with ${FIRST_LINES})`,
        text: quoted(lines[i]),
      });
      i = end - 1;
    }
  }
  if (start >= 0) parseOne(lines, start, lines.length, kind!, site, hands, errors);
  return { hands, errors };
}

/**
 * Parses text holding exactly one hand; throws `HandHistoryError` (with the `HandParseError` fields) when it
 * cannot be read or when the text holds no hand or several.
 */
export function parseHandHistory(text: string, options: ParseOptions = {}): Hand {
  const { hands, errors } = parseHandHistories(text, options);
  if (errors.length > 0) throw new HandHistoryError(errors[0]!);
  if (hands.length !== 1) {
    throw new HandHistoryError({
      handId: null,
      site: null,
      line: 1,
      handLine: 1,
      message: `expected one hand, found ${hands.length}`,
      text: "",
    });
  }
  return hands[0]!;
}

/** The error `parseHandHistory` throws; `details` is the `HandParseError`. */
export class HandHistoryError extends Error {
  readonly details: HandParseError;
  constructor(details: HandParseError) {
    super(
      `${details.handId ? `hand #${details.handId}, ` : ""}line ${details.line}: ${details.message}` +
        (details.text ? ` (${details.text})` : ""),
    );
    this.name = "HandHistoryError";
    this.details = details;
  }
}

function parseOne(
  lines: string[],
  start: number,
  end: number,
  kind: Dialect | "native",
  site: NonNullable<ParseOptions["site"]>,
  hands: Hand[],
  errors: HandParseError[],
): void {
  const long = overlong(lines, start, end);
  let handId: string | null;
  let handSite: Site;
  if (kind === "native") {
    const m = START.exec(lines[start]!.trim());
    handId = m ? m[2]! : null;
    handSite = m?.[1] === "Poker Hand" ? "ggpoker" : "pokerstars";
  } else {
    // A line too long for any pattern: the hand is refused below, before the dialect reads an id.
    handId = long >= 0 ? null : kind.idOf(lines, start, end);
    handSite = kind.site;
  }
  const fail = (message: string, index: number): void => {
    errors.push({
      handId,
      site: handSite,
      line: index + 1,
      handLine: start + 1,
      message,
      text: quoted(lines[index]),
    });
  };
  if (long >= 0) {
    fail(overlongMessage(lines[long]!), long);
    return;
  }
  if (site !== "auto" && handSite !== site) {
    fail(`a ${SITE_NAMES[handSite]} hand, but the site asked for is ${SITE_NAMES[site]}`, start);
    return;
  }
  try {
    if (kind === "native") {
      hands.push(new HandReader(lines, start, end).read());
      return;
    }
    const translated = kind.translate(lines, start, end);
    handId = translated.id ?? handId;
    // A translated line may stand for several reader lines (`a\nb`, lines the site leaves unwritten):
    // the reader reads them one by one, and an error names the line of the file they stand for.
    const readerLines: string[] = [];
    const origin: number[] = [];
    translated.lines.forEach((line, k) => {
      for (const part of line.includes("\n") ? line.split("\n") : [line]) {
        readerLines.push(part);
        origin.push(k);
      }
    });
    let hand: Hand;
    try {
      hand = new HandReader(readerLines, 0, readerLines.length, translated.header).read();
    } catch (error) {
      if (error instanceof LineError) throw new LineError(error.message, origin[error.index] ?? error.index);
      throw error;
    }
    hand.line = start + 1;
    hands.push(hand);
  } catch (error) {
    const base = kind === "native" ? 0 : start;
    if (error instanceof LineError) fail(error.message, error.index + base);
    else if (error instanceof HeaderError) fail(error.message, start);
    else throw error;
  }
}
