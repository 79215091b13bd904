/**
 * The hand evaluator (src/eval/evaluator-core.ts) with its lookup tables filled when this module loads: what
 * the package's code and its main entry use. `@ranges/solver/hands` (src/hands.ts) uses the core directly
 * and fills the tables before its first evaluation instead.
 *
 * The evaluation functions are this module's own constants (the core's functions themselves): code that
 * evaluates then imports this module, not only the core, so a bundler that prunes modules without side
 * effects (the package declares `sideEffects: false`) keeps it and the call below.
 */

import {
  evaluate5 as evaluate5Core,
  evaluate7 as evaluate7Core,
  evaluateCards as evaluateCardsCore,
  evaluateWith2 as evaluateWith2Core,
  fillTables,
} from "./evaluator-core.js";

fillTables();

export type { HandCategoryName, PartialHand } from "./evaluator-core.js";
export {
  CATEGORY_SHIFT,
  DISTINCT_HAND_VALUES,
  EVALUATOR_RANK_KEYS,
  HAND_CATEGORY,
  HAND_CATEGORY_NAMES,
  handCategory,
  handCategoryName,
  partialHand,
} from "./evaluator-core.js";

/** Value of a five-card hand. Cards must be distinct. */
export const evaluate5 = evaluate5Core;
/** Value of the best five-card hand among seven distinct cards. */
export const evaluate7 = evaluate7Core;
/** Value of the best five-card hand among 5, 6 or 7 distinct cards. */
export const evaluateCards = evaluateCardsCore;
/** Value of `partial` (five cards) plus two hole cards. */
export const evaluateWith2 = evaluateWith2Core;
