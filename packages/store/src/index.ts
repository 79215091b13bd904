export { Doorkeeper } from "./doorkeeper.js";
export { countIndexNodes, packPath, readPackFile, readPackHead, writePack } from "./files.js";
export {
  decodePack,
  encodePack,
  expandToClasses,
  FREQ_MAX_ERROR,
  FREQ_SCALE,
  PACK_MAGIC,
  PackFormatError,
  packChecksum,
  packClassToBucket,
  RAKE_NOT_RECORDED,
  storedValueCount,
} from "./format.js";
export type { ImportOptions } from "./importer.js";
export { importMonker } from "./importer.js";
export type { LineAction } from "./line.js";
export { finalTokens, LineReplay, potSetupFor } from "./line.js";
export type {
  PackAction,
  PackBuckets,
  PackConfig,
  PackData,
  PackHeader,
  PackNode,
  PackProvenance,
  PackRake,
  SeatExploitability,
} from "./pack-types.js";
export { gameDir, PACK_FORMAT, PACK_FORMAT_VERSION } from "./pack-types.js";
export {
  parseFullParam,
  parseGameParam,
  parseHandParam,
  parseMinFreqParam,
  parsePathParam,
  parseStackParam,
} from "./params.js";
export { PLO_ABSTRACTION_DOC, PLO_SIZING, ploGameDoc, ploPackFacts } from "./plo-doc.js";
export type { ReachPack } from "./reach.js";
export { nodeReach } from "./reach.js";
export { SOURCE_EXEC_ARGV, siblingScript } from "./sibling-script.js";
export { RangeStore } from "./store.js";
export type {
  CacheStats,
  JsonResult,
  NodeQueryOptions,
  PackMeta,
  PackStatus,
  PackSummary,
  RangeQueryOptions,
  RangeStoreOptions,
  StoreQuery,
} from "./store-types.js";
