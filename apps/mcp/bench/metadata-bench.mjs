/**
 * How long the metadata tools take on the committed packs, and how long they hold the event loop:
 * list_datasets and list_library_solutions through the SDK client, the first call (which reads each pack's
 * head once) and warm calls, with the longest event-loop stall seen during each (the server runs in this
 * process). Run after a build: `node apps/mcp/bench/metadata-bench.mjs` from the repository root.
 */

import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { RangeStore } from "@ranges/store";
import { startMcpServer } from "../dist/index.js";

const packsDir = fileURLToPath(new URL("../../../data/packs", import.meta.url));
const store = RangeStore.open({ packsDir, refreshMs: 0 });
const server = await startMcpServer({ port: 0, host: "127.0.0.1", store, accessDb: ":memory:" });
const client = new Client({ name: "metadata-bench", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));

const rows = [];
for (const [name, label] of [
  ["list_datasets", "first"],
  ["list_datasets", "warm"],
  ["list_datasets", "warm"],
  ["list_datasets", "warm"],
  ["list_library_solutions", "warm"],
  ["list_library_solutions", "warm"],
]) {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const started = performance.now();
  const result = await client.callTool({ name, arguments: {} });
  const ms = performance.now() - started;
  loop.disable();
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
  rows.push({ tool: name, call: label, ms: Math.round(ms), maxLoopStallMs: Math.round(loop.max / 1e6) });
}
console.table(rows);
await client.close();
await server.close();
store.close();
