/**
 * The client address a request is metered and logged under: TRUST_PROXY lists, X-Forwarded-For walked from
 * the right past listed proxies, ports stripped, addresses normalized. The code lives in @ranges/access so
 * that the standalone MCP server (apps/mcp) resolves clients by the same rules.
 */

export type { TrustProxy } from "@ranges/access";
export { clientAddress, compileTrustProxy, normalizeAddress } from "@ranges/access";
