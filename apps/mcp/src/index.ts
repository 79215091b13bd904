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
export type { CompareSide, NodeArgs, PostflopSource, ReportArgs } from "./tools/postflop.js";
export {
  boardReport,
  comparePostflop,
  explainCombo,
  listPostflopPacks,
  POSTFLOP_UNITS,
  postflopNode,
  postflopRange,
} from "./tools/postflop.js";
