export type { PloCombo, PloRangeInput } from "./range.js";
export { comboKey, combosOf, parsePloBoard, parsePloRange } from "./range.js";
export type {
  PloPooledCombo,
  PloRealizationClass,
  PloRealizationOptions,
  PloRealizationResult,
  PloRealizationSubgame,
} from "./realization.js";
export { poolRealization, samplePloRange, samplePloRealization, solvePloSubgame } from "./realization.js";
export { Runouts, riverDeal } from "./runouts.js";
export type { PloComboResult, PloSolveOptions, PloSolveResult } from "./solve.js";
export { comboResults, solvePloSpot, solveResolvedSpot } from "./solve.js";
export type { PloSolverOptions, PloStrategyOf } from "./solver.js";
export { PLO_DCFR, PloSolver } from "./solver.js";
export type { PloSpot, PloSpotConfig } from "./spot.js";
export { DEFAULT_PLO_BETTING, resolvePloSpot } from "./spot.js";
export type { PloClassEstimate, PloSubsampleOptions, PloSubsampleResult } from "./subsample.js";
export { poolClasses, solveBySubsamples } from "./subsample.js";
export type {
  ChanceNode,
  DecisionNode,
  FoldNode,
  PloBetting,
  PloNode,
  PloStreets,
  PloTree,
  ShowdownNode,
} from "./tree.js";
export { buildPloTree } from "./tree.js";
