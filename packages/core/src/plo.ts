/**
 * The 16,432 four-card PLO classes (hands equal up to a renaming of suits).
 *
 * Canonical name: cards are grouped by suit; inside a group ranks run high to low; a group of two or more
 * cards is parenthesised; groups are ordered by size (largest first), then by ranks (highest first); bare
 * ranks are singletons, each of a suit no other group uses. Examples: `(AK)(AK)` double-suited, `(AK)QJ`
 * single-suited, `(AKQ)J`, `(AKQJ)` monotone, `AKQJ` rainbow, `AAKK` rainbow aces and kings.
 * In query strings the parentheses arrive as `%28` and `%29` and are decoded before parsing.
 */

import { type Card, cardRank, cardSuit, parseCards, RANK_CHARS } from "./cards.js";

export const PLO_CLASS_COUNT = 16_432;
export const PLO_HAND_COUNT = 270_725;

/** Groups of ranks (0..12, high to low inside a group), one group per suit used. */
type SuitGroups = number[][];

function compareGroups(a: number[], b: number[]): number {
  if (a.length !== b.length) return b.length - a.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i]! - a[i]!;
  return 0;
}

function nameOfGroups(groups: SuitGroups): string {
  const sorted = groups.map((g) => [...g].sort((x, y) => y - x)).sort(compareGroups);
  return sorted
    .map((g) => {
      const ranks = g.map((r) => RANK_CHARS[r]!).join("");
      return g.length > 1 ? `(${ranks})` : ranks;
    })
    .join("");
}

/** The canonical class name of four concrete cards. */
export function ploClassNameOfCards(cards: readonly Card[]): string {
  const bySuit: SuitGroups = [[], [], [], []];
  for (const c of cards) bySuit[cardSuit(c)]!.push(cardRank(c));
  return nameOfGroups(bySuit.filter((g) => g.length > 0));
}

/** Number of concrete hands in a class: ways to give the groups distinct suits, over identical groups. */
function combosOfGroups(groups: SuitGroups): number {
  let ways = 1;
  for (let k = 0; k < groups.length; k++) ways *= 4 - k;
  const seen = new Map<string, number>();
  for (const g of groups) {
    const key = g.join(",");
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const m of seen.values()) for (let f = 2; f <= m; f++) ways /= f;
  return ways;
}

/**
 * Parses a class name in suit-group notation (groups in any order, ranks in any order and case) to its
 * groups; null when it is not four cards that some suit assignment can produce.
 */
function parseGroups(text: string): SuitGroups | null {
  const groups: SuitGroups = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "(") {
      const close = text.indexOf(")", i);
      if (close < 0) return null;
      const inner = text.slice(i + 1, close);
      if (inner.length < 2) return null;
      const ranks = [...inner].map((r) => RANK_CHARS.indexOf(r.toUpperCase()));
      if (ranks.some((r) => r < 0) || new Set(ranks).size !== ranks.length) return null;
      groups.push(ranks);
      i = close + 1;
    } else {
      const rank = RANK_CHARS.indexOf(ch.toUpperCase());
      if (rank < 0) return null;
      groups.push([rank]);
      i += 1;
    }
  }
  const cards = groups.reduce((n, g) => n + g.length, 0);
  return cards === 4 && groups.length <= 4 ? groups : null;
}

interface PloTable {
  names: string[];
  combos: Uint16Array;
  index: Map<string, number>;
}

let table: PloTable | undefined;

/** Builds the class table once by enumerating all 270,725 hands (about 100 ms). */
function ploTable(): PloTable {
  if (table) return table;
  const counts = new Map<string, number>();
  const hand: Card[] = [0, 0, 0, 0];
  for (let a = 0; a < 52; a++)
    for (let b = a + 1; b < 52; b++)
      for (let c = b + 1; c < 52; c++)
        for (let d = c + 1; d < 52; d++) {
          hand[0] = a;
          hand[1] = b;
          hand[2] = c;
          hand[3] = d;
          const name = ploClassNameOfCards(hand);
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
  const names = [...counts.keys()].sort(comparePloNames);
  table = {
    names,
    combos: Uint16Array.from(names.map((n) => counts.get(n)!)),
    index: new Map(names.map((n, i) => [n, i])),
  };
  return table;
}

/** Orders classes strongest-looking first: by rank multiset high to low, then by suit structure. */
function comparePloNames(a: string, b: string): number {
  const ra = sortedRanks(a);
  const rb = sortedRanks(b);
  for (let i = 0; i < 4; i++) if (ra[i] !== rb[i]) return rb[i]! - ra[i]!;
  return a < b ? -1 : a > b ? 1 : 0;
}

const sortedRanks = (name: string): number[] =>
  [...name.replace(/[()]/g, "")].map((r) => RANK_CHARS.indexOf(r)).sort((x, y) => y - x);

/** All class names in table order (index = position). */
export function ploClasses(): readonly string[] {
  return ploTable().names;
}

export function ploClassIndex(name: string): number | undefined {
  return ploTable().index.get(name);
}

export function ploClassCombos(index: number): number {
  return ploTable().combos[index] ?? 0;
}

/** Combo counts of every class in table order (sums to 270,725). */
export function ploClassComboCounts(): Uint16Array {
  return ploTable().combos;
}

/** Combo count of a class given by name, computed from its suit groups. */
export function ploCombosOfName(name: string): number | null {
  const groups = parseGroups(name);
  return groups ? combosOfGroups(groups) : null;
}

/**
 * Resolves a PLO hand to its canonical class name: a class name in suit-group notation (any group order)
 * or four concrete cards (`AsKsQdJc`). Null when it is neither.
 */
export function parsePloHand(text: string): string | null {
  const cards = parseCards(text, 4);
  if (cards) return ploClassNameOfCards(cards);
  const groups = parseGroups(text);
  return groups ? nameOfGroups(groups) : null;
}
