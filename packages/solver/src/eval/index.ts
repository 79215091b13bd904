export type { HandCategoryName, PartialHand } from "./evaluator.js";
export {
  CATEGORY_SHIFT,
  DISTINCT_HAND_VALUES,
  EVALUATOR_RANK_KEYS,
  evaluate5,
  evaluate7,
  evaluateCards,
  evaluateWith2,
  HAND_CATEGORY,
  HAND_CATEGORY_NAMES,
  handCategory,
  handCategoryName,
  partialHand,
} from "./evaluator.js";
