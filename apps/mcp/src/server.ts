/** One McpServer with the tools of this service, for one caller (a fresh one per HTTP request). */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { RangeStore } from "@ranges/store";
import type { z } from "zod";
import { type Caller, type McpDeps, toolContext } from "./context.js";
import { toolListing } from "./listing.js";
import { gamesWithoutPacks } from "./scope.js";
import { register, type ToolSpec } from "./tool.js";
import { compareStrategies } from "./tools/compare.js";
import { getExploitability, getRangeMetadata, getTreeDocs, listDatasets } from "./tools/datasets.js";
import { getStarted, listGames } from "./tools/guide.js";
import { HAND_TOOLS } from "./tools/hands/index.js";
import { POSTFLOP_TOOLS } from "./tools/postflop/index.js";
import { enqueueSolve, getQueuedSolve, listLibrarySolutions, listQueuedSolves } from "./tools/queue.js";
import { listMyRequests, submitRequest } from "./tools/requests.js";
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
  submitRequest,
  listMyRequests,
  enqueueSolve,
  getQueuedSolve,
  listQueuedSolves,
  listLibrarySolutions,
  ...HAND_TOOLS,
  ...POSTFLOP_TOOLS,
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
  "submit_request",
  "list_my_requests",
  "enqueue_solve",
  "get_queued_solve",
  "list_queued_solves",
  "list_library_solutions",
  "get_upload_link",
  "upload_hand_history",
  "find_hands",
  "get_hand_results",
  "list_my_sessions",
  "get_session_summary",
  "get_tournament_results",
  "list_my_opponents",
  "get_opponent_notes",
  "get_opponent_limp_range",
  "list_postflop_packs",
  "get_postflop_node",
  "get_postflop_range",
  "explain_combo",
  "get_board_report",
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

/** The server's instructions; which games have data is read from the store, never assumed. */
export function instructions(store: RangeStore): string {
  const missing = gamesWithoutPacks(store);
  const live = (ids: readonly string[]) => ids.filter((g) => !missing.includes(g as never));
  const cash = live(["nl", "nl/v2", "nl9"]);
  const plo = live(["plo", "plo9", "plo5", "plo6hu"]);
  const sets = [
    ...(cash.length > 0 ? [`NLHE cash (${cash.join(", ")})`] : []),
    ...(live(["nlmtt8"]).length > 0 ? ["an 8-max tournament chip-EV set (nlmtt8)"] : []),
    ...(plo.length > 0 ? [`PLO (${plo.join(", ")})`] : []),
  ];
  const data =
    sets.length === 0
      ? "no game yet (no packs are installed)"
      : sets.length === 1
        ? sets[0]!
        : `${sets.slice(0, -1).join(", ")} and ${sets[sets.length - 1]}`;
  const none =
    missing.length > 0
      ? ` Games with no packs yet: ${missing.join(", ")} (they answer 404 until packs are installed).`
      : "";
  return `Solver-derived preflop poker strategies (frequency and EV per hand class) for ${data}.${none} Start with get_started. Spots are action paths such as UTG_Fold_HJ (every fold written out). EVs are in small blinds relative to folding. nl and nl/v2 retrieval is free; other games need \`Authorization: Bearer <key>\`. Heads-up cash postflop (flop decisions of solved boards) is read with list_postflop_packs, get_postflop_node, get_postflop_range, explain_combo and get_board_report (a key). ICM, PKO, satellites, other antes, 9-max tournaments, tournament postflop, multiway postflop and turn or river postflop nodes are not published: such requests answer coverage.status "unsupported".`;
}

/** Builds a server whose tools answer for `caller` (access is checked and counted per tool call). */
export function createMcpServer(deps: McpDeps, caller: Caller): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: "Preflop ranges" },
    { instructions: instructions(deps.store) },
  );
  const ctx = toolContext(deps, caller);
  for (const spec of TOOL_SPECS) register(server, spec, ctx);
  // The published schemas in their portable form (the SDK would publish zod's `type` arrays and `{}`); the
  // SDK keeps validating arguments and results with the same zod schemas.
  const listing = { tools: TOOL_SPECS.map(toolListing) };
  server.server.setRequestHandler(ListToolsRequestSchema, () => listing);
  // The SDK declares `tools.listChanged: true` when the first tool is registered. A stateless server answers
  // each POST with a fresh server and has no session to notify, and its tool list never changes.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}
