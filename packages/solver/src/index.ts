export type {
  CensusHole,
  CensusOptions,
  CensusResult,
  ClassShortfall,
  UnreachedMisplay,
} from "./census.js";
export { CENSUS_DEFAULTS, packCensus, unreachedMisplays } from "./census.js";
export type { CfrParams, DecisionResult, SeatResult, Solver } from "./engine/cfr.js";
export { CfrSolver, DCFR_PARAMS, PURIFY_BELOW } from "./engine/cfr.js";
export type {
  ActionInfo,
  DecisionNode,
  EngineGame,
  FoldNode,
  ShowdownNode,
  ShowdownPot,
  TreeNode,
} from "./engine/game.js";
export { countNodes, forEachNode } from "./engine/game.js";
export type { ParallelStats, Partition } from "./engine/parallel.js";
export { ParallelCfrSolver, partitionTree } from "./engine/parallel.js";
export * from "./equity/index.js";
export * from "./eval/index.js";
export type { GroundedLine, GroundedParams, PlayerSpot } from "./model/grounded.js";
export {
  buildGroundedMatrices,
  CLASS_EFFECT_FEATURES,
  classEffectFeatures,
  equityVsRandom,
  GAMMA_TERMS,
  GROUNDED_SPR_POINTS,
  gammaFeatures,
  HAND_FEATURES,
  handFeatures,
  LINE_SPR_REACH,
  muOf,
  PLAYER_FEATURES,
  playerFeatures,
} from "./model/grounded.js";
export { ploBucketMultipliers, ploClassMultiplier } from "./model/plo-realization.js";
export type { ContestParams, ShareMatrices } from "./model/realization.js";
export {
  buildContestMatrices,
  buildShareMatrices,
  classMultiplier,
  SPR_BUCKETS,
} from "./model/realization.js";
export type {
  DecodedPloBucketMap,
  PloAbstraction,
  PloAbstractionOptions,
  PloBucket,
  PloBucketMapJson,
  PloClassFeatures,
  PloFeatureWeights,
  PloFocus,
  PloPairing,
  PloPlayWeights,
  PloSuitPattern,
} from "./plo/abstraction.js";
export {
  buildPloAbstraction,
  DEFAULT_PLO_BUCKETS,
  DEFAULT_PLO_FEATURE_WEIGHTS,
  decodePloBucketMap,
  encodePloBucketMap,
  NO_PLO_PLAY_WEIGHTS,
  PLO_FOCUS,
  PLO_MAX_BUCKETS,
  PLO_MIN_BUCKETS,
  PLO_PLAY_ABSTRACTION,
  PLO_STRATA,
  ploClassFeatures,
  ploFocusWeights,
  stratumOf,
} from "./plo/abstraction.js";
export type {
  PloBucketEquityJob,
  PloBucketEquityOptions,
  PloBucketEquityPartial,
  PloBucketEquityTable,
  PloHandGroups,
} from "./plo/bucket-equity.js";
export {
  combinePloBucketEquityParts,
  computePloBucketEquity,
  computePloBucketEquityPart,
  defaultPloBucketEquityPath,
  loadPloBucketEquity,
  PLO_BUCKET_EQUITY_DEFAULTS,
  PLO_BUCKET_EQUITY_FILE,
  PLO_OPP_PER_COMBO,
  parsePloBucketEquity,
  ploBucketCombos,
  ploBucketGroups,
  ploBucketMapCrc32,
  ploBucketPairWeights,
  ploHandGroups,
  serializePloBucketEquity,
} from "./plo/bucket-equity.js";
export type { ExactEquity, OmahaEquityOptions, OmahaEquityResult, OmahaPlayer } from "./plo/equity.js";
export { exactOmahaEquity, omahaEquity, ploHandsOfClass } from "./plo/equity.js";
export { evaluateOmaha, OmahaBoard } from "./plo/evaluator.js";
export type { PloPlayColumn, PloPlayFeaturesOptions, PloPlayFeaturesTable } from "./plo/play-features.js";
export {
  computePloPlayFeatures,
  defaultPloPlayFeaturesPath,
  loadPloPlayFeatures,
  nutValueAgainst,
  PLO_PLAY_COLUMNS,
  PLO_PLAY_FEATURES_DEFAULTS,
  PLO_PLAY_FEATURES_FILE,
  parsePloPlayFeatures,
  serializePloPlayFeatures,
  sortedPairs,
} from "./plo/play-features.js";
export type { PloRandomEquityOptions, PloRandomEquityTable } from "./plo/random-equity.js";
export {
  computePloRandomEquity,
  defaultPloRandomEquityPath,
  loadPloRandomEquity,
  PLO_RANDOM_EQUITY_DEFAULTS,
  PLO_RANDOM_EQUITY_FILE,
  parsePloRandomEquity,
  serializePloRandomEquity,
} from "./plo/random-equity.js";
export { defaultPacksDir, PLO_SOLVED_GAMES, repoRoot, SOLVED_GAMES, treeConfigPath } from "./solve/files.js";
export type { PloEngineGame, PloGameTables, PloSolveOptions, PloSolveResult } from "./solve/plo.js";
export {
  buildPloEngineGame,
  loadPloGameTables,
  packBucketsOf,
  ploIdentityOfTable,
  ploSolveIdentity,
  solvePlo,
  toPloPackData,
} from "./solve/plo.js";
export type {
  EngineSolveOptions,
  PackExportOptions,
  PloSolveIdentity,
  SeatExploitabilityResult,
  SolveOptions,
  SolveProgress,
  SolveResult,
} from "./solve/preflop.js";
export {
  algorithmName,
  algorithmOf,
  buildEngineGame,
  exploitabilityOf,
  PARALLEL_MIN_DECISIONS,
  recordedInputHash,
  SOLVER_MODEL_VERSION,
  solveBuiltGame,
  solveInputHash,
  solvePreflop,
  solverParams,
  solverThreads,
  toPackData,
  trembleOf,
  trembleScopeOf,
} from "./solve/preflop.js";
export { kuhnGame } from "./toy/kuhn.js";
export type { BuiltTree, DuelKind } from "./tree/build.js";
export { buildPreflopTree, postflopRank } from "./tree/build.js";
export type {
  BettingStructure,
  PloPlayability,
  PloRealizationModel,
  PotLimitSize,
  RakeConfig,
  RealizationModel,
  SolverAlgorithm,
  StackProfile,
  TreeConfig,
  TrembleScope,
} from "./tree/config.js";
export {
  configStacks,
  depthToken,
  loadTreeConfig,
  ploModelOf,
  potLimitSizeId,
  potLimitSizeIds,
  profileFor,
  rakeOf,
  validateTreeConfig,
} from "./tree/config.js";
