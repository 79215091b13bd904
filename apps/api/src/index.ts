export type { AppOptions, LogLine, McpHandler, SolveService } from "./app.js";
export { createApp } from "./app.js";
export type { ErrorPayload } from "./errors.js";
export { errorBody, errorPayload } from "./errors.js";
export type { OAuthOptions, OAuthServer } from "./oauth.js";
export { createOAuthServer, MCP_SCOPE } from "./oauth.js";
export { parseQuery } from "./query.js";
