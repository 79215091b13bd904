/** The one scope of the MCP resource: use the tools with the account's plan. */
export const MCP_SCOPE = "mcp";
/** The MCP endpoint, the protected resource. */
export const MCP_PATH = "/api/mcp";
