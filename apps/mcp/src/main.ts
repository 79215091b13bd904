/**
 * Standalone MCP server: POST /mcp and POST /api/mcp on MCP_PORT (default 3001).
 *
 *   MCP_PORT      port (default 3001)
 *   MCP_HOST      interface to bind (default: all)
 *   PACKS_DIR     packs directory (default <repo>/data/packs)
 *   POSTFLOP_DIR  postflop packs directory (default <repo>/data/postflop; missing or empty: no postflop pack)
 *   DATABASE_URL  PostgreSQL URL of the account database (shared with the API, exact limits)
 *   ACCESS_DB     otherwise, its SQLite file (default <repo>/var/access.sqlite), metered by one server
 *                 process at a time: a standalone MCP server beside an API on the same file is refused
 *   TRUST_PROXY   the reverse proxies to believe X-Forwarded-For from, as for the API: comma-separated
 *                 addresses, CIDR ranges and the names loopback, linklocal, uniquelocal (unset: none; the
 *                 peer is the client). 1/true, which trusted any peer, is refused.
 *   UPLOAD_BASE_URL  the API that takes hand-history uploads (e.g. https://ranges.example), for the links
 *                 get_upload_link makes (unset: this server makes none; upload_hand_history still works)
 */

import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AccessStore, HandStore } from "@ranges/access";
import { HandParser, HandUploads } from "@ranges/hand-analysis";
import { PostflopPacks } from "@ranges/postflop";
import { startMcpServer } from "./http.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const port = Number(process.env.MCP_PORT ?? 3001);
const packsDir = process.env.PACKS_DIR ?? resolve(repoRoot, "data/packs");
const postflopDir = process.env.POSTFLOP_DIR ?? resolve(repoRoot, "data/postflop");
const databaseUrl = process.env.DATABASE_URL?.trim() ?? "";
const accessDb = databaseUrl || (process.env.ACCESS_DB ?? resolve(repoRoot, "var/access.sqlite"));
if (!databaseUrl && accessDb !== ":memory:") mkdirSync(dirname(accessDb), { recursive: true });

let running: Awaited<ReturnType<typeof startMcpServer>>;
let access: AccessStore;
const parser = new HandParser();
try {
  access = await AccessStore.open(accessDb, { exclusive: true });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const linkBase = process.env.UPLOAD_BASE_URL?.trim().replace(/\/+$/, "") || null;
try {
  running = await startMcpServer({
    port,
    packsDir,
    access,
    hands: { uploads: new HandUploads(new HandStore(access.database), parser), linkBase },
    postflop: PostflopPacks.open({ dir: postflopDir }),
    trustProxy: process.env.TRUST_PROXY ?? "",
    ...(process.env.MCP_HOST ? { host: process.env.MCP_HOST } : {}),
  });
} catch (error) {
  // A bad TRUST_PROXY, a port in use or a database that cannot be used: the reason, no stack.
  console.error((error as Error).message);
  await access.close();
  process.exit(1);
}
console.log(
  `MCP server listening on http://localhost:${running.port}/mcp (also /api/mcp); packs: ${packsDir}`,
);
// Builds the resident pack index (node counts) in the background, so the first list_datasets is warm too.
void running.deps.store.packSummaries();

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing the MCP server`);
  running
    .close()
    .then(() => parser.close())
    .then(() => access.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
