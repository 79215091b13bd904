export { BossDispatch, SOLVE_QUEUE_NAME } from "./dispatch.js";
export type { ClaimedJob, JobProgress, JobStatus, JobSummary, SolveJob, SolveQueueOptions } from "./queue.js";
export { JOB_STATUSES, MAX_ATTEMPTS, SolveQueue, STALE_SECONDS } from "./queue.js";
export type { SpecSizerOptions } from "./sizer.js";
export { SpecSizer } from "./sizer.js";
export type { OpenSolution } from "./solutions.js";
export { SolutionPacks } from "./solutions.js";
export type { PlanLimits, SolveRequest, ValidSpec } from "./spec.js";
export {
  CHANGE_LIMITS,
  checkPlan,
  limitsOf,
  PLAN_LIMITS,
  RAISE_CODE_FIELDS,
  SIZING_BUDGET,
  SOLVABLE_GAMES,
  validateSolveRequest,
} from "./spec.js";
export { readWithUndealtFolds, undealtSeats, withUndealtFolds } from "./undealt.js";
export type { SolveWorkerOptions } from "./worker.js";
export { SolveWorker } from "./worker.js";
