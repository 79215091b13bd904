/**
 * `@ranges/solver/hands`: the hold'em hand evaluator and the combo numbering alone, without the rest of the
 * solver. A postflop engine's worker threads import only this: a few KB of code, and no evaluator tables
 * (16 MB) until the first evaluation, which fills them (src/eval/evaluator-core.ts). The evaluation functions
 * here check that once per call; the package's main entry exports the same functions without the check.
 *
 *   import { COMBO_OF_CARDS, evaluateWith2, partialHand } from "@ranges/solver/hands";
 */

import {
  evaluate5 as evaluate5Filled,
  evaluate7 as evaluate7Filled,
  evaluateCards as evaluateCardsFilled,
  evaluateWith2 as evaluateWith2Filled,
  fillTables,
  type PartialHand,
} from "./eval/evaluator-core.js";

export {
  COMBO_CLASS,
  COMBO_COUNT,
  COMBO_HIGH_CARD,
  COMBO_LOW_CARD,
  COMBO_OF_CARDS,
} from "./equity/combos.js";
export type { HandCategoryName, PartialHand } from "./eval/evaluator-core.js";
export {
  CATEGORY_SHIFT,
  DISTINCT_HAND_VALUES,
  HAND_CATEGORY,
  HAND_CATEGORY_NAMES,
  handCategory,
  handCategoryName,
  partialHand,
} from "./eval/evaluator-core.js";

/** Value of a five-card hand (see the main entry's `evaluate5`). */
export function evaluate5(a: number, b: number, c: number, d: number, e: number): number {
  fillTables();
  return evaluate5Filled(a, b, c, d, e);
}

/** Value of the best five-card hand among seven distinct cards (see the main entry's `evaluate7`). */
export function evaluate7(
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
  g: number,
): number {
  fillTables();
  return evaluate7Filled(a, b, c, d, e, f, g);
}

/** Value of the best five-card hand among 5, 6 or 7 distinct cards (see the main entry's `evaluateCards`). */
export function evaluateCards(cards: ArrayLike<number>): number {
  fillTables();
  return evaluateCardsFilled(cards);
}

/** Value of `partial` (five cards) plus two hole cards (see the main entry's `evaluateWith2`). */
export function evaluateWith2(partial: PartialHand, a: number, b: number): number {
  fillTables();
  return evaluateWith2Filled(partial, a, b);
}
