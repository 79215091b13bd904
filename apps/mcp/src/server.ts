/** One McpServer with the tools of this service, for one caller (a fresh one per HTTP request). */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import { type Caller, type McpDeps, toolContext } from "./context.js";
import { register, type ToolSpec } from "./tool.js";
import { compareStrategies } from "./tools/compare.js";
import { getExploitability, getRangeMetadata, getTreeDocs, listDatasets } from "./tools/datasets.js";
import { getStarted, listGames } from "./tools/guide.js";
import { getConfig, getNode, getRange, listSpots } from "./tools/retrieval.js";

export const SERVER_NAME = "preflop-ranges";
export const SERVER_VERSION = "0.1.0";

/** The tool specs, in registration order (exported for tests). */
export const TOOL_SPECS = [
  getStarted,
  listGames,
  getConfig,
  listSpots,
  getNode,
  getRange,
  listDatasets,
  getTreeDocs,
  getRangeMetadata,
  getExploitability,
  compareStrategies,
] as unknown as readonly ToolSpec<z.ZodRawShape>[];

/** The registered tool names, in registration order. */
export const TOOL_NAMES = [
  "get_started",
  "list_games",
  "get_config",
  "list_spots",
  "get_node",
  "get_range",
  "list_datasets",
  "get_tree_docs",
  "get_range_metadata",
  "get_exploitability",
  "compare_strategies",
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

const INSTRUCTIONS =
  'Solver-derived preflop poker strategies (frequency and EV per hand class) for NLHE cash (nl, nl/v2, nl9), an 8-max tournament chip-EV set (nlmtt8) and PLO. Start with get_started. Spots are action paths such as UTG_Fold_HJ (every fold written out). EVs are in small blinds relative to folding. nl and nl/v2 retrieval is free; other games need `Authorization: Bearer <key>`. ICM, PKO, satellites, other antes, 9-max tournaments and postflop are not published: such requests answer coverage.status "unsupported".';

/** Builds a server whose tools answer for `caller` (access is checked and counted per tool call). */
export function createMcpServer(deps: McpDeps, caller: Caller): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: "Preflop ranges" },
    { instructions: INSTRUCTIONS },
  );
  const ctx = toolContext(deps, caller);
  for (const spec of TOOL_SPECS) register(server, spec, ctx);
  return server;
}
