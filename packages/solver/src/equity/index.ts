export { BoardSweep } from "./board-sweep.js";
export {
  CLASS_COUNT,
  CLASS_PAIR_COUNT,
  COMBO_CLASS,
  COMBO_COUNT,
  COMBO_HIGH_CARD,
  COMBO_LOW_CARD,
  COMBO_OF_CARDS,
  headsUpPairWeights,
} from "./combos.js";
export type {
  HeadsUpEquityTable,
  HeadsUpJob,
  HeadsUpMethod,
  HeadsUpPartial,
  MatchupResult,
} from "./heads-up.js";
export {
  ALL_BOARDS,
  BOARDS_PER_MATCHUP,
  canonicalBoards,
  combineHeadsUpParts,
  computeHeadsUpEquity,
  computeHeadsUpPart,
  exactHeadsUpEquity,
} from "./heads-up.js";
export type { MultiwayJob, MultiwayPartial, MultiwayTable } from "./multiway.js";
export {
  combineMultiwayParts,
  computeMultiwayPart,
  defaultMultiwayTablePath,
  loadMultiwayTable,
  MULTIWAY_EQUITY_FILE,
  multiwayBucketEdges,
  parseMultiwayTable,
  serializeMultiwayTable,
} from "./multiway.js";
export {
  defaultHeadsUpEquityPath,
  HEADS_UP_EQUITY_FILE,
  loadHeadsUpEquity,
  parseHeadsUpEquity,
  serializeHeadsUpEquity,
} from "./table-file.js";
