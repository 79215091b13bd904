export type {
  ClassRow,
  LineRealization,
  ModelPrediction,
  PlayerRealization,
  StoredBoard,
} from "./aggregate.js";
export { aggregate, compareSeries, grossOfRake, readBoardSets, readBoards } from "./aggregate.js";
export type { BatchJob, BatchPlan, RunOptions } from "./batch.js";
export {
  blendPlan,
  finished,
  jobFileName,
  planBatch,
  planFromJson,
  planLines,
  planToJson,
  runBatch,
} from "./batch.js";
export { CLASS_GROUPS, CLASS_NEIGHBOURS, GROUPS } from "./class-groups.js";
export type { Estimate, EstimatorBoard, LinePopulation, PopulationSet } from "./estimator.js";
export {
  CURVE_DEGREE,
  liveCombos,
  POPULATION_DEGREE,
  populationKey,
  readPopulations,
  regressionEstimate,
  solvedReach,
} from "./estimator.js";
export type { ClassEffectBasis, ClassWeighting, EquityTable, FitLine, FittedModel } from "./fit.js";
export { aggressorOfKind, equityVsRandom, fitLineOf, RealizationFit, spotOf } from "./fit.js";
export {
  BALANCED_FLOPS_SEED,
  balancedFlops,
  type FlopSet,
  flopsOf,
  lineFlopSeed,
  rankCounts,
  type WeightedFlop,
} from "./flops.js";
export type { LineEffects } from "./line-effects.js";
export {
  DEFAULT_LINE_RIDGE,
  fitLineEffects,
  groundedLine,
  predictWithLineEffects,
  raisesOfKind,
} from "./line-effects.js";
export type { FlopLine, LineKind, LineSpec, LineStep } from "./lines.js";
export {
  EARLY_LINES,
  LineError,
  lineClasses,
  rangeText,
  readLine,
  STANDARD_LINES,
  solverWeight,
} from "./lines.js";
export { treeModelPrediction } from "./model.js";
export type {
  PloLineRealization,
  PloSampleJob,
  PloSampleRecord,
  PloSampleSettings,
} from "./plo-sample.js";
export {
  DEFAULT_PLO_SAMPLE_SETTINGS,
  planPloSamples,
  ploCategory,
  ploLineCombos,
  ploSampleDone,
  ploSampleFile,
  poolPloSamples,
  readPloSamples,
  runPloSample,
} from "./plo-sample.js";
export type { LineRanges, PopulationMoments } from "./population.js";
export { comboReach, flopEquities, populationMoments, rangesKey } from "./population.js";
export { writePopulations } from "./population-files.js";
export type { FitSummary, ReportLine, ReportPlayer, SeriesStats } from "./report.js";
export { DEFAULT_CLASS_RIDGE, FIT_BAR, fitReport, rangeCombos } from "./report.js";
export type { LineMovement, RoundMovement } from "./rounds.js";
export { MOVEMENT_BAR, roundMovement } from "./rounds.js";
export type { BoardRealization, ClassSums, RealizationTree, SolveSettings } from "./solve.js";
export {
  DEFAULT_SETTINGS,
  EARLIER_DCFR,
  inputsHash,
  lineConfig,
  parseTree,
  REALIZATION_DCFR,
  REALIZATION_TREE,
  released,
  solveBoard,
  solveConfig,
  solvedRanges,
  TreeSpecError,
  withFloor,
} from "./solve.js";
export type {
  FlopValues,
  ToyDecision,
  ToyEvaluation,
  ToyGame,
  ToyNode,
  ToyParams,
  ToySolution,
  ToySolverState,
  ToyStrategies,
} from "./toy/game.js";
export { evaluateToy, flopPotValues, showdownSign, solveToy, toyGame } from "./toy/game.js";
export type { GroundedOptions, GroundedResult, GroundedRound, OracleRow } from "./toy/grounded.js";
export { checkedDownValues, flopRanges, groundedToy, ORACLE_TOY, oracleReport } from "./toy/grounded.js";
