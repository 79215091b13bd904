export type { Card } from "./cards.js";
export {
  cardRank,
  cardSuit,
  formatCard,
  makeCard,
  parseCard,
  parseCards,
  RANK_CHARS,
  SUIT_CHARS,
} from "./cards.js";
export type { RangesErrorCode, RangesErrorHint } from "./errors.js";
export { isRangesError, RANGES_ERROR_CODES, RangesError, statusOf } from "./errors.js";
export type { ClassSetId, GameId, GameInfo, Operation, TokenStyle, Variant } from "./games.js";
export { GAME_IDS, GAMES, gameInfo, isGameId, isKeyless } from "./games.js";
export type { HandClassRef } from "./hands.js";
export { parseHand } from "./hands.js";
export type { HoldemClassKind } from "./holdem.js";
export {
  HOLDEM_CLASS_COMBOS,
  HOLDEM_CLASS_COUNT,
  HOLDEM_CLASSES,
  HOLDEM_COMBO_COUNT,
  holdemClassCombos,
  holdemClassIndex,
  holdemClassKind,
  holdemClassOfCards,
  holdemComboCards,
  parseHoldemHand,
} from "./holdem.js";
export type { ActionToken, ParsedPath, PathStep, StepKind } from "./path.js";
export {
  assertPercentEncoded,
  BettingOrder,
  bettingDepth,
  formatPath,
  parseActionToken,
  parsePath,
} from "./path.js";
export {
  PLO_CLASS_COUNT,
  PLO_HAND_COUNT,
  parsePloHand,
  ploClassComboCounts,
  ploClassCombos,
  ploClasses,
  ploClassIndex,
  ploClassNameOfCards,
  ploCombosOfName,
} from "./plo.js";
export type { CodeKind, DecodedAction, PotSetup, RaiseToInput } from "./pot.js";
export {
  CODE_ALLIN,
  CODE_CALL,
  CODE_FOLD,
  CODE_MIN_RAISE,
  CODE_RAISE_TO_3SB,
  isKnownCode,
  PCT_CODE_BASE,
  PotState,
  pctCode,
  raiseTo,
  roundBb,
} from "./pot.js";
export { seededRandom } from "./random.js";
