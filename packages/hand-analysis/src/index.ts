export { SITE_NAMES, SITES, type Site } from "@ranges/hand-history";
export { canonicalCards, classOfCards, expandClassFilter, parseHoleCards } from "./cards.js";
export type { ActionKind, Comparison, Decision, Situation } from "./equilibrium.js";
export {
  compareHand,
  effectiveStackBb,
  gameFor,
  NodeCache,
  SITUATIONS,
  STACK_TOLERANCE,
  stackFor,
} from "./equilibrium.js";
export type { HandFilters } from "./filters.js";
export { handQueryOf } from "./filters.js";
export type {
  EquilibriumProfile,
  LimpRange,
  Loaded,
  OpponentStats,
  PositionLine,
  Rate,
  ShownHand,
  SituationGap,
} from "./opponents.js";
export {
  byPosition,
  equilibriumProfile,
  handsOf,
  limpRange,
  opponentStats,
  shownHands,
} from "./opponents.js";
export type { HandParserOptions, ParsedUpload } from "./parser.js";
export { HandParser } from "./parser.js";
export type { EquilibriumTotals, Money, ResultLine, Results } from "./results.js";
export { equilibriumTotals, handResults, unitOf } from "./results.js";
export type { Session, SessionTable } from "./sessions.js";
export {
  DEFAULT_SESSION_GAP_MINUTES,
  MAX_SESSION_ID_LENGTH,
  parseSessionId,
  sessionHands,
  sessionId,
  sessionsOf,
  timeOf,
} from "./sessions.js";
export { gameKeyOf, heroOf, preflopLine, rowOf, stakesOf, summarizeHand } from "./summarize.js";
export type { TournamentResult, TournamentTotals } from "./tournaments.js";
export { tournamentResults, tournamentTotals } from "./tournaments.js";
export type {
  AllInAdjustment,
  GameKey,
  HandSummary,
  PlayerPreflop,
  PlayerSummary,
  PreflopLine,
  PreflopStep,
  TournamentSummary,
} from "./types.js";
export { PREFLOP_LINES } from "./types.js";
export type { HandUploadsOptions, UploadReport } from "./uploads.js";
export {
  decodeUploadText,
  HandUploads,
  heroName,
  INLINE_UPLOAD_MAX_CHARS,
  LINK_UPLOAD_MAX_BYTES,
  MAX_HERO_LENGTH,
} from "./uploads.js";
