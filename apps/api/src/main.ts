/**
 * Starts the API on the committed packs. Environment:
 *   PORT         listen port (default 3000)
 *   PACKS_DIR    pack directory (default <repo>/data/packs)
 *   POSTFLOP_DIR postflop pack directory (default data/postflop beside PACKS_DIR; missing or empty: none)
 *   POSTFLOP_SUBGAME_THREADS  threads of a turn or river solved on demand (default: every core)
 *   DATABASE_URL PostgreSQL URL of the account database (keys, meters, requests); when set, any number of
 *                API processes share it with exact limits
 *   ACCESS_DB    otherwise, the SQLite file of the account database (default <repo>/var/access.sqlite),
 *                metered by one server process at a time
 *   TRUST_PROXY  the reverse proxies to believe X-Forwarded-For from: comma-separated addresses, CIDR
 *                ranges and the names loopback, linklocal, uniquelocal (unset: none; the peer is the client)
 *   CACHE_MB     memory budget of the store in MiB (default 64): cached response bodies and loaded packs
 *                together, each counted at an estimate of the memory it holds (see BENCHMARKS.md)
 *   SOLVE_WORKERS  solve queue jobs this process runs at a time (default 1; 0: none, leave them to
 *                `ranges worker` processes); SOLVE_THREADS threads per solve (default 1)
 *   PACKS_REFRESH_MS  how often the store looks for new, replaced and removed pack files (default 2000;
 *                0: never, packs are then read as they were at start-up or first use)
 *   SIGNUP_DAILY_LIMIT  accounts one client address (IPv6: one /64) may create per UTC day (default 10; then
 *                429 with Retry-After until 00:00 UTC)
 *   OAUTH_REGISTRATION_DAILY_LIMIT  OAuth client registrations (POST /oauth/register) one client address
 *                (IPv6: one /64) may make per UTC day (default 20; then 429 with Retry-After until 00:00 UTC);
 *                registered clients that never receive a grant are pruned after 30 days
 *   PUBLIC_URL   the URL users reach the site at (e.g. https://ranges.example): the account area's one allowed
 *                origin, https makes its session cookie Secure, and it is the OAuth issuer and the origin of
 *                the MCP resource (unset: the request's own origin, http, and the issuer http://localhost:PORT);
 *                required when TRUST_PROXY is set (the start stops with a message without it)
 * Human-readable start-up lines go to stderr; stdout carries only the JSON request log.
 *
 * `pnpm start` runs it as `node --max-old-space-size=$HEAP_MB` (default 256): without a heap cap V8 lets the
 * garbage of requests in flight grow towards a limit of several GiB before it collects (apps/api/README.md).
 */

import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import { getHeapStatistics } from "node:v8";
import { AccessStore, DEFAULT_SIGNUPS_PER_IP, HandStore } from "@ranges/access";
import { HandParser, HandUploads } from "@ranges/hand-analysis";
import { createMcpHttpHandler, PostflopPacks } from "@ranges/mcp";
import { SolutionPacks, SolveQueue, SolveWorker } from "@ranges/queue";
import { RangeStore } from "@ranges/store";
import { webRoot } from "@ranges/web";
import { createApp, type LogLine } from "./app.js";
import { createStdoutLogger } from "./logger.js";
import { createOAuthServer, DEFAULT_REGISTRATIONS_PER_IP, type OAuthServer } from "./oauth.js";
import { defaultAccessDb, defaultPacksDir } from "./paths.js";

const say = (text: string) => process.stderr.write(`${text}\n`);

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    say(`${name}=${raw} is not a non-negative number.`);
    process.exit(1);
  }
  return n;
}

const port = envNumber("PORT", 3000);
const packsDir = defaultPacksDir();
const accessDb = defaultAccessDb();
const trustProxy = process.env.TRUST_PROXY ?? "";
const cacheMb = envNumber("CACHE_MB", 64);
const refreshMs = envNumber("PACKS_REFRESH_MS", 2000);
const signUpDailyLimit = envNumber("SIGNUP_DAILY_LIMIT", DEFAULT_SIGNUPS_PER_IP);
if (!Number.isSafeInteger(signUpDailyLimit) || signUpDailyLimit < 1) {
  say(
    `SIGNUP_DAILY_LIMIT=${process.env.SIGNUP_DAILY_LIMIT} is not a whole number of sign-ups of at least 1.`,
  );
  process.exit(1);
}
const registrationDailyLimit = envNumber("OAUTH_REGISTRATION_DAILY_LIMIT", DEFAULT_REGISTRATIONS_PER_IP);
if (!Number.isSafeInteger(registrationDailyLimit) || registrationDailyLimit < 1) {
  say(
    `OAUTH_REGISTRATION_DAILY_LIMIT=${process.env.OAUTH_REGISTRATION_DAILY_LIMIT} is not a whole number of registrations of at least 1.`,
  );
  process.exit(1);
}
const publicUrl = process.env.PUBLIC_URL?.trim().replace(/\/+$/, "") || undefined;
if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+$/.test(publicUrl)) {
  say(`PUBLIC_URL=${publicUrl} is not an http(s) origin such as https://ranges.example (no path).`);
  process.exit(1);
}
if (trustProxy.trim() !== "" && publicUrl === undefined) {
  // Behind a (TLS-terminating) proxy the request's own origin is http://<internal host>: the account area's
  // same-origin check would refuse every change (403) and OAuth tokens would name the wrong resource (401).
  say(
    "TRUST_PROXY is set (a reverse proxy is in front) but PUBLIC_URL is not: set PUBLIC_URL to the origin users reach the site at (e.g. https://ranges.example), or the account area and OAuth sign-ins cannot work behind the proxy.",
  );
  process.exit(1);
}

const store = RangeStore.open({ packsDir, cacheBytes: Math.round(cacheMb * 1024 * 1024), refreshMs });
// Heads-up postflop packs (POSTFLOP_DIR, default data/postflop): a missing or empty directory lists none.
const subgameThreads = envNumber("POSTFLOP_SUBGAME_THREADS", availableParallelism());
if (!Number.isSafeInteger(subgameThreads) || subgameThreads < 1) {
  say(
    `POSTFLOP_SUBGAME_THREADS=${process.env.POSTFLOP_SUBGAME_THREADS} is not a whole number of threads of at least 1.`,
  );
  process.exit(1);
}
const postflop = PostflopPacks.open({
  dir: process.env.POSTFLOP_DIR || resolve(dirname(packsDir), "postflop"),
  refreshMs: refreshMs || 0,
  subgames: { threads: subgameThreads },
});
const databaseUrl = process.env.DATABASE_URL?.trim() ?? "";
if (!databaseUrl) mkdirSync(dirname(accessDb), { recursive: true });
let access: AccessStore;
try {
  access = await AccessStore.open(databaseUrl || accessDb, { exclusive: true });
} catch (error) {
  say((error as Error).message);
  store.close();
  process.exit(1);
}
const logger = createStdoutLogger<LogLine>();

// The solve queue: records in the account database, finished packs unpacked under var/solutions, and
// (unless SOLVE_WORKERS=0) one in-process worker that solves in a worker thread.
const queue = await SolveQueue.open(access.database);
// Uploaded hand histories: stored in the account database, parsed in a worker thread (started on the first
// upload, stopped when idle). Links point at PUBLIC_URL, else at the origin the MCP request came to.
const handParser = new HandParser();
const handUploads = new HandUploads(new HandStore(access.database), handParser);
const solutions = new SolutionPacks(queue, resolve(dirname(accessDb), "solutions", String(process.pid)));
const solveWorkers = envNumber("SOLVE_WORKERS", 1);
const workers = Array.from(
  { length: Math.floor(solveWorkers) },
  () => new SolveWorker(queue, { threads: Math.max(1, Math.floor(envNumber("SOLVE_THREADS", 1))), log: say }),
);
for (const w of workers) w.start();

const packs = store.packStatus();
const live = packs.filter((p) => p.ok);
if (packs.length === 0) {
  say(
    `No packs in ${packsDir} yet. Packs come from the solver (pnpm solve --all) or an import (pnpm ranges import monker <folder> --game G --stack S). Serving the catalog, discovery, OpenAPI and health endpoints; data endpoints answer 404 until packs exist.`,
  );
} else {
  const byGame = new Map<string, number[]>();
  for (const p of live) if (p.stack !== null) byGame.set(p.game, [...(byGame.get(p.game) ?? []), p.stack]);
  const list = [...byGame].map(([g, stacks]) => `${g} ${stacks.sort((a, b) => a - b).join("/")}`).join("; ");
  say(`Live packs (${live.length}) from ${packsDir}: ${list || "none"}`);
  for (const p of packs.filter((x) => !x.ok)) {
    say(`Pack unavailable: ${p.file}: ${p.error ?? "unreadable"}`);
  }
}

const heapMb = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
if (heapMb > 1024) {
  say(
    `The V8 heap is not capped (limit ${heapMb} MiB): under load the process can grow far beyond CACHE_MB=${cacheMb}. Start it as pnpm start does, with node --max-old-space-size=256 --max-semi-space-size=2 (HEAP_MB).`,
  );
}

// OAuth for MCP clients: its records and keys live in the account database (see oauth.ts).
let oauth: OAuthServer;
try {
  oauth = await createOAuthServer({
    access,
    issuer: publicUrl ?? `http://localhost:${port}`,
    publicUrl,
    behindProxy: trustProxy.trim() !== "",
    registrationDailyLimit,
  });
} catch (error) {
  say(`The OAuth server could not start: ${(error as Error).message}`);
  await access.close();
  process.exit(1);
}

let app: ReturnType<typeof createApp>;
try {
  app = createApp({
    store,
    access,
    trustProxy,
    logger: logger.log,
    // The API hands the handler the client address it resolved as the one X-Forwarded-For entry
    // (see app.ts), so the handler reads that header whatever TRUST_PROXY says.
    mcpHandler: createMcpHttpHandler({
      store,
      access,
      trustProxy: true,
      solves: { queue, solutions, worker: workers[0] },
      hands: { uploads: handUploads, linkBase: publicUrl ?? "request" },
      postflop,
    }),
    postflop,
    solves: { queue, solutions, worker: workers[0] },
    hands: handUploads,
    webRoot,
    oauth,
    signUpDailyLimit,
    ...(publicUrl ? { publicUrl } : {}),
  });
} catch (error) {
  say((error as Error).message);
  await access.close();
  process.exit(1);
}
const server = app.listen(port, () => {
  const { port: bound } = server.address() as AddressInfo;
  say(`preflop-ranges API on http://localhost:${bound} (accounts: ${access.backend} ${access.where})`);
});
server.on("error", (err) => {
  say(`Cannot listen on port ${port}: ${err.message}`);
  void access.close().finally(() => process.exit(1));
});

let stopping = false;
function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  say(`${signal}: no longer accepting connections, finishing requests in flight...`);
  // Idle keep-alive sockets are closed at once; busy ones after their response.
  server.close(() => {
    logger.flush();
    // A solve in progress goes back to the queue for the next worker (or this server's next start).
    oauth.close();
    postflop.close();
    Promise.all(workers.map((w) => w.stop()))
      .then(() => queue.close())
      .then(() => solutions.close())
      .then(() => handParser.close())
      .then(() => access.close())
      .then(
        () => {
          say("Stopped.");
          process.exit(0);
        },
        (error: Error) => {
          say(`Could not write the last counts: ${error.message}`);
          process.exit(1);
        },
      );
  });
  server.closeIdleConnections();
  setTimeout(() => {
    say("Requests still in flight after 10 s: closing them.");
    server.closeAllConnections();
  }, 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
