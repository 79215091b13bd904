export { formatAmount, parseAmount } from "./amounts.js";
export { formatHandTime, parseHandTime } from "./dates.js";
export { type DecodedHandHistory, decodeHandHistory, type HandHistoryEncoding } from "./decode.js";
export {
  HandHistoryError,
  parseHandHistories,
  parseHandHistory,
  SITE_NAMES,
  splitLines,
} from "./parse.js";
export { POSITIONS_BY_COUNT, positionsOf } from "./positions.js";
export type {
  Action,
  Cashout,
  Collection,
  Currency,
  Fee,
  Finish,
  Game,
  Hand,
  HandParseError,
  ParseOptions,
  ParseResult,
  Player,
  Position,
  Post,
  Pot,
  Show,
  Site,
  SiteOption,
  Stakes,
  Street,
  Tournament,
  Uncalled,
} from "./types.js";
export { SITES, STREETS } from "./types.js";
export { writeHandHistory } from "./write.js";
