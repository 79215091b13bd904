export type {
  PackAction,
  PackConfig,
  PackData,
  PackHeader,
  PackNode,
  PackProvenance,
  SeatExploitability,
} from "./pack-types.js";
export { gameDir, PACK_FORMAT, PACK_FORMAT_VERSION } from "./pack-types.js";
