/**
 * The 1,326 concrete hold'em combos with their class, and the class-pair weights W: for hero class a and
 * villain class b, W[a * 169 + b] counts the ordered combo pairs (one of a, one of b) that share no card.
 */

import { HOLDEM_CLASS_COUNT, HOLDEM_COMBO_COUNT, holdemClassOfCards } from "@ranges/core";

export const CLASS_COUNT = HOLDEM_CLASS_COUNT;
export const CLASS_PAIR_COUNT = CLASS_COUNT * CLASS_COUNT;
export const COMBO_COUNT = HOLDEM_COMBO_COUNT;

/** Lower and higher card of each combo; combos are numbered in (low, high) lexicographic order. */
export const COMBO_LOW_CARD = new Uint8Array(COMBO_COUNT);
export const COMBO_HIGH_CARD = new Uint8Array(COMBO_COUNT);
/** Grid-order class (0..168) of each combo. */
export const COMBO_CLASS = new Uint8Array(COMBO_COUNT);
/** Combo number of two cards, indexed `low * 52 + high` or `high * 52 + low`. */
export const COMBO_OF_CARDS = new Int16Array(52 * 52).fill(-1);

{
  let combo = 0;
  for (let low = 0; low < 52; low++) {
    for (let high = low + 1; high < 52; high++) {
      COMBO_LOW_CARD[combo] = low;
      COMBO_HIGH_CARD[combo] = high;
      COMBO_CLASS[combo] = holdemClassOfCards(high, low);
      COMBO_OF_CARDS[low * 52 + high] = combo;
      COMBO_OF_CARDS[high * 52 + low] = combo;
      combo++;
    }
  }
}

const sharesCard = (x: number, y: number): boolean =>
  COMBO_LOW_CARD[x] === COMBO_LOW_CARD[y] ||
  COMBO_LOW_CARD[x] === COMBO_HIGH_CARD[y] ||
  COMBO_HIGH_CARD[x] === COMBO_LOW_CARD[y] ||
  COMBO_HIGH_CARD[x] === COMBO_HIGH_CARD[y];

/** W: non-conflicting ordered combo pairs per (hero class, villain class), row-major by hero class. */
export function headsUpPairWeights(): Float64Array {
  const weights = new Float64Array(CLASS_PAIR_COUNT);
  for (let x = 0; x < COMBO_COUNT; x++) {
    const row = COMBO_CLASS[x]! * CLASS_COUNT;
    for (let y = 0; y < COMBO_COUNT; y++) {
      if (x !== y && !sharesCard(x, y)) weights[row + COMBO_CLASS[y]!]!++;
    }
  }
  return weights;
}
