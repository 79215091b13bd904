/**
 * The 169 hold'em starting-hand classes in grid order: row and column run A, K, ..., 2; the diagonal holds
 * pairs, above it suited hands, below it offsuit hands. Index = row * 13 + col.
 *
 *   AA  AKs AQs ...        (row 0)
 *   AKo KK  KQs ...        (row 1)
 */

import { type Card, cardRank, cardSuit, makeCard, parseCards, RANK_CHARS } from "./cards.js";

export const HOLDEM_CLASS_COUNT = 169;
export const HOLDEM_COMBO_COUNT = 1326;

/** Grid rank character at grid position 0..12 (0 = ace). */
const gridRank = (pos: number): string => RANK_CHARS[12 - pos]!;

function className(row: number, col: number): string {
  if (row === col) return gridRank(row) + gridRank(col);
  return row < col ? `${gridRank(row)}${gridRank(col)}s` : `${gridRank(col)}${gridRank(row)}o`;
}

/** Class names in grid order (`AA`, `AKs`, ..., `AKo`, `KK`, ..., `22`). */
export const HOLDEM_CLASSES: readonly string[] = Array.from({ length: 169 }, (_, i) =>
  className(Math.floor(i / 13), i % 13),
);

const CLASS_INDEX = new Map(HOLDEM_CLASSES.map((name, index) => [name, index]));

export type HoldemClassKind = "pair" | "suited" | "offsuit";

export function holdemClassKind(index: number): HoldemClassKind {
  const row = Math.floor(index / 13);
  const col = index % 13;
  return row === col ? "pair" : row < col ? "suited" : "offsuit";
}

/** Concrete combos per class: pair 6, suited 4, offsuit 12. */
export function holdemClassCombos(index: number): number {
  const kind = holdemClassKind(index);
  return kind === "pair" ? 6 : kind === "suited" ? 4 : 12;
}

/** Combo counts for every class, in grid order (sums to 1326). */
export const HOLDEM_CLASS_COMBOS: readonly number[] = HOLDEM_CLASSES.map((_, i) => holdemClassCombos(i));

/** The class index of two concrete cards. */
export function holdemClassOfCards(a: Card, b: Card): number {
  const hi = Math.max(cardRank(a), cardRank(b));
  const lo = Math.min(cardRank(a), cardRank(b));
  const rowHi = 12 - hi;
  const rowLo = 12 - lo;
  if (hi === lo) return rowHi * 13 + rowHi;
  return cardSuit(a) === cardSuit(b) ? rowHi * 13 + rowLo : rowLo * 13 + rowHi;
}

/** Every concrete two-card combo of a class as [higher card, lower card]. */
export function holdemComboCards(index: number): Array<[Card, Card]> {
  const row = Math.floor(index / 13);
  const col = index % 13;
  const r1 = 12 - Math.min(row, col);
  const r2 = 12 - Math.max(row, col);
  const combos: Array<[Card, Card]> = [];
  for (let s1 = 0; s1 < 4; s1++) {
    for (let s2 = 0; s2 < 4; s2++) {
      if (row === col ? s2 <= s1 : row < col !== (s1 === s2)) continue;
      combos.push([makeCard(r1, s1), makeCard(r2, s2)]);
    }
  }
  return combos;
}

/**
 * Resolves a hold'em hand to its class index: a class name (`AKs`, `ak s` is not accepted; case of the rank
 * letters is free, the `s`/`o` suffix is lower case) or two concrete cards (`AhKh`). Null when neither.
 */
export function parseHoldemHand(text: string): number | null {
  const upper = text.length >= 2 ? text.slice(0, 2).toUpperCase() + text.slice(2) : text;
  const direct = CLASS_INDEX.get(upper);
  if (direct !== undefined) return direct;
  // Lower-rank-first spellings such as `KAs` name the same class.
  if (upper.length >= 2 && upper.length <= 3) {
    const swapped = upper[1]! + upper[0]! + upper.slice(2);
    const alt = CLASS_INDEX.get(swapped);
    if (alt !== undefined) return alt;
  }
  const cards = parseCards(text, 2);
  return cards ? holdemClassOfCards(cards[0]!, cards[1]!) : null;
}

export function holdemClassIndex(name: string): number | undefined {
  return CLASS_INDEX.get(name);
}
