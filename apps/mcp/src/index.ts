export { PostflopPacks } from "@ranges/postflop";
export type { CompactOptions } from "./compact.js";
export { bucketOf, compactNode, compactRange, holdemRangeNotation, holdemRangeString } from "./compact.js";
export type { Caller, McpDeps, SolveDeps } from "./context.js";
export type { RunningMcpServer, StartOptions, TrustProxyOption } from "./http.js";
export {
  clientIp,
  clientIpResolver,
  createMcpHttpHandler,
  MAX_BATCH_MESSAGES,
  MCP_PATHS,
  SECURITY_HEADERS,
  startMcpServer,
} from "./http.js";
export { clip, ECHO_LIMIT } from "./redact.js";
export type { Gap, ScopeRequest, ScopeVerdict } from "./scope.js";
export { checkScope, unsupportedEnvelope } from "./scope.js";
export type { ToolName } from "./server.js";
export { createMcpServer, SERVER_NAME, SERVER_VERSION, TOOL_NAMES } from "./server.js";
export { COMING_TOOLS } from "./tools/guide.js";
export type { PostflopSource } from "./tools/postflop/common.js";
export { POSTFLOP_UNITS } from "./tools/postflop/common.js";
export type { CompareSide } from "./tools/postflop/compare.js";
export { comparePostflop } from "./tools/postflop/compare.js";
export { explainCombo } from "./tools/postflop/explain.js";
export type { NodeArgs } from "./tools/postflop/node.js";
export { postflopNode, postflopRange } from "./tools/postflop/node.js";
export { listPostflopPacks } from "./tools/postflop/packs.js";
export type { ReportArgs } from "./tools/postflop/report.js";
export { boardReport } from "./tools/postflop/report.js";
