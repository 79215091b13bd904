/**
 * What a site other than PokerStars and GGPoker provides: where its hands start, and a translation of each
 * hand into the reader's layout (PokerStars', see `reader.ts`), line for line, so that every error names
 * the line of the file it is about.
 */

import type { Header } from "../header.js";
import { LineError } from "../reader.js";
import type { Site } from "../types.js";

/** A hand translated: its header, and one reader line per line of the hand (`""` for lines that say nothing). */
export interface Translation {
  header: Header;
  /** `lines[k]` stands for the hand's k-th line (0 = its first line). */
  lines: string[];
  /** The hand number, as soon as it is known (for errors in the rest of the translation). */
  id: string | null;
}

export interface Dialect {
  site: Site;
  /** Whether a hand of this site starts on `lines[i]` (the line is trimmed of its line ending only). */
  startsAt(lines: readonly string[], i: number): boolean;
  /** The hand number from the hand's first lines, when readable (for error reports). */
  idOf(lines: readonly string[], start: number, end: number): string | null;
  /** Translates lines [start, end); throws `LineError` with an index relative to `start`. */
  translate(lines: readonly string[], start: number, end: number): Translation;
}

/** Throws a `LineError` for the hand's k-th line. */
export function lineError(message: string, k: number): never {
  throw new LineError(message, k);
}

const MONTHS: Record<string, number> = {
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  may: 5,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
};

/** The number of a month by its English name (`January`, `jan`), or 0. */
export function monthOf(name: string): number {
  const lower = name.toLowerCase();
  for (const [full, n] of Object.entries(MONTHS)) if (full.startsWith(lower) && lower.length >= 3) return n;
  return 0;
}

/** `monthOf` for a line being read: a name that is no month makes line `k` an error. */
export function monthAt(name: string, k: number): number {
  const month = monthOf(name);
  if (month === 0) lineError(`"${name}" is not a month`, k);
  return month;
}

/** 888poker clients in other languages: German suits (`9Pik`, `QHerz`), Swedish and Dutch ranks (`Knh`, `Hc`). */
const SUITS: Record<string, string> = { Pik: "s", Herz: "h", Karo: "d", Kreuz: "c" };
const RANKS: Record<string, string> = { Kn: "J", D: "Q", E: "A", B: "J", V: "Q", H: "K" };
const LOCAL_CARD = /^(10|[2-9TJQKA]|Kn|[DEBVH])(Pik|Herz|Karo|Kreuz|[cdhs])$/;

/**
 * Cards as `[ 7d, 2h, Qs ]` or `[7d 2h Qs]`, as the reader's `7d 2h Qs`; `10h` becomes `Th`, and the suits and
 * ranks some clients write in their language become English (`10Pik` is `Ts`, `Knh` is `Jh`).
 */
export function cardList(text: string): string {
  return text
    .split(/[\s,]+/)
    .filter((c) => c.length > 0)
    .map((c) => {
      const m = LOCAL_CARD.exec(c);
      if (!m) return c;
      return `${m[1] === "10" ? "T" : (RANKS[m[1]!] ?? m[1])}${SUITS[m[2]!] ?? m[2]}`;
    })
    .join(" ");
}

/**
 * A `** Dealing Flop|Turn|River ** [ cards ]` line (888poker, partypoker) as the reader's street marker, and
 * the board after it: `("Turn", "[ 5h ]", ["Qs", "7d", "2c"])` is `*** TURN *** [Qs 7d 2c] [5h]`.
 */
export function streetLine(
  street: string,
  cardsText: string,
  board: readonly string[],
): { line: string; board: string[] } {
  const cards = cardList(cardsText).split(" ").filter(Boolean);
  const name = street.toUpperCase();
  if (name === "FLOP") return { line: `*** FLOP *** [${cards.join(" ")}]`, board: cards };
  return { line: `*** ${name} *** [${board.join(" ")}] [${cards.join(" ")}]`, board: [...board, ...cards] };
}

/** A `Dealt to name [ cards ]` line in the reader's form (`Dealt to Hero [Qd Jh]`); null without cards in brackets. */
export function dealtLine(line: string): string | null {
  const open = line.indexOf("[");
  const close = line.lastIndexOf("]");
  if (open < 0 || close < open) return null;
  return `${line.slice(0, open).trim()} [${cardList(line.slice(open + 1, close))}]`;
}

/** The seated player a line starts with (`name verb ...`): the longest seated name followed by a space. */
export function playerAt(line: string, names: readonly string[]): string | null {
  let best: string | null = null;
  for (const name of names) {
    if (line.startsWith(name) && line.charCodeAt(name.length) === 32) {
      if (best === null || name.length > best.length) best = name;
    }
  }
  return best;
}
