export type { BatchOptions, BoardOutcome, PackJob } from "./batch.js";
export {
  boardConfig,
  inputsHash,
  MIN_CLASS_WEIGHT,
  nlv2PackJobs,
  PACK_DCFR,
  packBoardConfig,
  packFile,
  rangeFromWeights,
  runPackJob,
  SOLVER_ALGORITHM,
  treeConfig,
} from "./batch.js";
export { CheckSchedule } from "./checks.js";
export type {
  BetSize,
  ParsedSize,
  PlayerSizes,
  PlayerStreetSizes,
  PostflopConfig,
  ResolvedConfig,
  SizeList,
  StreetSizes,
} from "./config.js";
export { PostflopConfigError, parseSize, resolveConfig } from "./config.js";
export type { DcfrParams, Discount } from "./dcfr.js";
export { DEFAULT_DCFR, describeDcfr, discountAt } from "./dcfr.js";
export type { Mode } from "./engine.js";
export { Engine, MODE_BR, MODE_CFR, MODE_EVAL } from "./engine.js";
export type { BoardData, NodeData, PackNodeInfo } from "./extract.js";
export { extractBoard, firstStreetNodes } from "./extract.js";
export type { Deal, GameOptions, Showdowns, Unit } from "./game.js";
export { PostflopGame } from "./game.js";
export type { HandCategory } from "./hand-category.js";
export { handCategoryOf } from "./hand-category.js";
export type { OutOfRangeValues } from "./out-of-range.js";
export { outOfRangeValues } from "./out-of-range.js";
export type {
  BoardEntry,
  BoardProvenance,
  PackHeaderBase,
  PostflopPackHeader,
  PreflopLine,
  StoredBoard,
} from "./pack.js";
export {
  decodeBoardBlock,
  encodeBoardBlock,
  encodePostflopPack,
  POSTFLOP_FREQ_MAX_ERROR,
  POSTFLOP_PACK_EXTENSION,
  POSTFLOP_PACK_FORMAT,
  POSTFLOP_PACK_MAGIC,
  POSTFLOP_PACK_VERSION,
  PostflopPackError,
  PostflopPackFile,
  storeBoard,
  writePostflopPack,
} from "./pack.js";
export type { BoardLookup, PackStatus, PathLookup, SubgameSettings } from "./pack-store.js";
export {
  comboOf,
  lookupBoard,
  lookupNodes,
  lookupPath,
  PostflopPacks,
  parseCombo,
  parsePackBoard,
  permutedComboName,
  splitPath,
} from "./pack-store.js";
export { ThreadRunner } from "./parallel.js";
export type { NodeQuery } from "./query.js";
export { queryNode } from "./query.js";
export { comboName, parseRange, RangeParseError, rangeSize } from "./range.js";
export type { PostflopNode, PostflopProgress, PostflopResult, PostflopSolveOptions } from "./solve.js";
export { createPostflopSolver, describe, equities, opponentTotals, solvePostflop } from "./solve.js";
export type { SolverBuffers, UnitRunner } from "./solver.js";
export { allocateBuffers, PostflopSolver, SerialRunner } from "./solver.js";
export type { FollowedPath, StreetLayer } from "./street-path.js";
export { followPath } from "./street-path.js";
export type { Street, SubgameProvenance, SubgameResult, SubgameSolveOptions } from "./subgame.js";
export {
  checkNextStreet,
  NoNextStreetError,
  nextStreetConfig,
  OnDemandSubgames,
  STREET_OF_CARDS,
  solveSubgame,
  subgameCaller,
} from "./subgame.js";
export type {
  BoardTexture,
  Connectivity,
  FlopClass,
  FlopStratum,
  HighCardClass,
  Pairedness,
  RepresentativeFlop,
  SuitTexture,
} from "./textures.js";
export {
  boardDistance,
  boardTexture,
  canonicalBoard,
  canonicalFlops,
  flopStratum,
  formatBoard,
  parseBoard,
  permuteCard,
  representativeFlops,
  SUIT_PERMUTATIONS,
  suitMapping,
  TEXTURE_VALUES,
} from "./textures.js";
export type { ActionInfo, ActionKind, NodeKind, TreeNode } from "./tree.js";
export { ActionTree, CHANCE, DECISION, FOLD, SHOWDOWN } from "./tree.js";
