export type { CfrParams, SeatResult } from "./engine/cfr.js";
export { CfrSolver, DCFR_PARAMS } from "./engine/cfr.js";
export type {
  ActionInfo,
  DecisionNode,
  EngineGame,
  FoldNode,
  ShowdownNode,
  TreeNode,
} from "./engine/game.js";
export { countNodes, forEachNode } from "./engine/game.js";
export * from "./equity/index.js";
export * from "./eval/index.js";
export type { ShareMatrices } from "./model/realization.js";
export { buildShareMatrices, classMultiplier, SPR_BUCKETS } from "./model/realization.js";
export { defaultPacksDir, repoRoot, SOLVED_GAMES, treeConfigPath } from "./solve/files.js";
export type {
  PackExportOptions,
  SeatExploitabilityResult,
  SolveOptions,
  SolveProgress,
  SolveResult,
} from "./solve/preflop.js";
export {
  algorithmName,
  buildEngineGame,
  exploitabilityOf,
  solvePreflop,
  toPackData,
} from "./solve/preflop.js";
export { kuhnGame } from "./toy/kuhn.js";
export type { BuiltTree, ShowdownKind } from "./tree/build.js";
export { buildPreflopTree } from "./tree/build.js";
export type { RealizationModel, StackProfile, TreeConfig } from "./tree/config.js";
export { configStacks, loadTreeConfig, profileFor, validateTreeConfig } from "./tree/config.js";
