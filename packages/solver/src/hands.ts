/**
 * `@ranges/solver/hands`: the hold'em hand evaluator and the combo numbering alone, without the rest of the
 * solver. A postflop engine's worker threads import only this (a few KB of code and, until the first
 * evaluation, no tables), where the package's main entry would load the whole preflop solver.
 *
 *   import { COMBO_OF_CARDS, evaluateWith2, partialHand } from "@ranges/solver/hands";
 */

export {
  COMBO_CLASS,
  COMBO_COUNT,
  COMBO_HIGH_CARD,
  COMBO_LOW_CARD,
  COMBO_OF_CARDS,
} from "./equity/combos.js";
export * from "./eval/index.js";
