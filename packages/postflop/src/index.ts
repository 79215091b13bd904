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
export type { DcfrParams, Discount, Mode } from "./engine.js";
export { DEFAULT_DCFR, discountAt, Engine, MODE_BR, MODE_CFR, MODE_EVAL } from "./engine.js";
export type { Deal, GameOptions, Unit } from "./game.js";
export { PostflopGame } from "./game.js";
export { ThreadRunner } from "./parallel.js";
export type { NodeQuery } from "./query.js";
export { queryNode } from "./query.js";
export { comboName, parseRange, RangeParseError, rangeSize } from "./range.js";
export type { PostflopNode, PostflopProgress, PostflopResult, PostflopSolveOptions } from "./solve.js";
export { createPostflopSolver, describe, equities, opponentTotals, solvePostflop } from "./solve.js";
export type { SolverBuffers, UnitRunner } from "./solver.js";
export { allocateBuffers, PostflopSolver, SerialRunner } from "./solver.js";
export type { ActionInfo, ActionKind, NodeKind, TreeNode } from "./tree.js";
export { ActionTree, CHANCE, DECISION, FOLD, SHOWDOWN } from "./tree.js";
