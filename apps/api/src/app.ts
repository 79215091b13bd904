/**
 * The Koa app. Middleware, outermost first:
 *   1. request id, client address, security headers, error mapping and the one log line per request
 *   2. CORS (every origin; preflight answered here)
 *   3. request shape: URL length (414), Host, no body on GET/HEAD (400)
 *   4. routes: a string-matching fast path for the data routes, then @koa/router for everything
 *   5. fallback: 405 with `Allow` when the path exists for another method, else 404
 * The server `listen` creates (http-server.ts) answers what never reaches Koa.
 *
 * Per data request: resolve the game (404 unknown_game), check the game serves the operation (404),
 * authorize and meter (401/429, headers set either way), validate the query (400), ask the store for the
 * cached body and ETag, answer 304 when `If-None-Match` matches. A 304 is metered like a 200: the caller
 * still asked, and counting it keeps the allowance independent of client caches.
 */

import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import cors from "@koa/cors";
import Router from "@koa/router";
import { type AccessStore, AccountStore } from "@ranges/access";
import { GAME_IDS, GAMES, type GameId, isKeyless, type Operation, RangesError } from "@ranges/core";
import type { HandUploads } from "@ranges/hand-analysis";
import {
  boardReport,
  comparePostflop,
  explainCombo,
  listPostflopPacks,
  type PostflopSource,
  postflopNode,
  postflopRange,
} from "@ranges/mcp";
import { parseBoard, parseCombo, subgameCaller } from "@ranges/postflop";
import { checkPlan, limitsOf, type SolutionPacks, type SolveQueue, type SolveWorker } from "@ranges/queue";
import { buildOpenApiDocument, FeatureRequestBodySchema } from "@ranges/schema";
import {
  parseFullParam,
  parseGameParam,
  parseMinFreqParam,
  parsePathParam,
  parseStackParam,
  type RangeStore,
} from "@ranges/store";
import Koa from "koa";
import { registerAccountRoutes } from "./account.js";
import { clientAddress, compileTrustProxy } from "./client-ip.js";
import { clip, ECHO_LIMIT, errorBody, mapError, type Redaction } from "./errors.js";
import {
  createHttpServer,
  EXPOSED_HEADERS,
  type HttpLimits,
  SECURITY_HEADERS,
  URL_LIMIT,
} from "./http-server.js";
import { createStdoutLogger } from "./logger.js";
import { readJsonBody } from "./mcp-body.js";
import { challengeKeylessPaidCalls } from "./mcp-challenge.js";
import type { OAuthServer } from "./oauth.js";
import { parseQuery } from "./query.js";
import { readsUploadBody, registerUploadRoutes } from "./uploads.js";
import { serveWeb } from "./web.js";

export type McpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  signedIn?: { keyId: string },
) => Promise<void>;

/** One structured line per request (and one per internal error). */
export interface LogLine {
  time: string;
  level: "info" | "warn" | "error";
  requestId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  ip: string;
  via?: string | undefined;
  code?: string | undefined;
  err?: string | undefined;
}

export interface AppOptions {
  store: RangeStore;
  access: AccessStore;
  /**
   * The reverse proxies whose `X-Forwarded-For` is believed (TRUST_PROXY): addresses, CIDR ranges and the
   * names loopback, linklocal, uniquelocal, as a list or one comma-separated string. Only a request whose
   * direct peer is listed has its client address taken from the header, walking it from the right past
   * listed hops. Unset: the peer address is the client. Invalid entries throw.
   */
  trustProxy?: string | readonly string[];
  /** Header and request timeouts and the header size limit of the server `listen` creates. */
  http?: HttpLimits;
  /** Receives one object per request; defaults to JSON lines on stdout. */
  logger?: (line: LogLine) => void;
  /** Mounted at POST /api/mcp with the parsed JSON body (undefined when absent or not JSON). */
  mcpHandler?: McpHandler;
  /** The solve queue (`/api/v1/solves`); absent, those routes answer 404. */
  solves?: SolveService;
  /** Hand-history uploads (`POST /api/v1/uploads/{token}`, links made by get_upload_link); absent: 404. */
  hands?: HandUploads;
  /** The heads-up postflop packs (`/api/v1/postflop/...`); absent: no postflop pack is listed. */
  postflop?: PostflopSource;
  /** The built web site (apps/web's dist/) served at `/`; absent, only the API answers. */
  webRoot?: string;
  /**
   * The site's public URL (PUBLIC_URL, e.g. https://ranges.example): the one origin the account area takes
   * changes from, and https makes its session cookie Secure. Unset: the request's own origin, plain http.
   */
  publicUrl?: string;
  /**
   * OAuth for MCP clients (`createOAuthServer`): the authorization server under /oauth/, the metadata
   * documents, access tokens on POST /api/mcp, and a 401 challenge when a paid tool is called keyless.
   */
  oauth?: OAuthServer;
  /**
   * Accounts one client address (IPv6: one /64) may create per UTC day (SIGNUP_DAILY_LIMIT; default 10):
   * the next sign-up is a 429 with Retry-After until 00:00 UTC.
   */
  signUpDailyLimit?: number;
}

/** The solve queue as the API serves it: the records, the finished packs, and the in-process worker. */
export interface SolveService {
  readonly queue: SolveQueue;
  readonly solutions: SolutionPacks;
  /** Woken after an enqueue so a queued job starts at once. */
  readonly worker?: SolveWorker | undefined;
}

interface RequestState {
  via?: string;
  code?: string;
  /** Who the call is counted to: `key:<id>` or `ip:<address>` (the turn and river solver's per-caller share). */
  caller?: string;
}

type DataOp = "node" | "range" | "spots" | "config";

const PARAMS: Record<DataOp, readonly string[]> = {
  node: ["stack", "history", "hand", "minFreq", "full"],
  range: ["stack", "spot", "hand", "minFreq"],
  spots: ["stack"],
  config: ["stack"],
};
const DATA_OPS = Object.keys(PARAMS) as DataOp[];

/** Node, range, spots and config bodies never change for a URL (spec: cacheable by URL). */
const CACHE_DATA = "public, max-age=86400, immutable";
/** Catalog and discovery list live stacks, which change when packs are added: cache briefly. */
const CACHE_META = "public, max-age=300";
const JSON_TYPE = "application/json; charset=utf-8";
const MCP_BODY_LIMIT = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * UTF-8 bytes of a store result: the store caches bodies as Buffers (counted in its memory budget), and
 * writing a Buffer is much cheaper for Node than writing a long string.
 */
const bodyBytes = (result: { bytes: Buffer }): Buffer => result.bytes;

// Generated request ids: a random per-process prefix and a counter (unique, and cheaper than a UUID).
const ID_PREFIX = randomBytes(6).toString("hex");
let idCounter = 0;
const nextRequestId = (): string => `${ID_PREFIX}-${(++idCounter).toString(36)}`;

// Log timestamps, formatted once per millisecond.
let isoMs = -1;
let isoText = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

const quoteEtag = (etag: string): string =>
  etag.startsWith('"') || etag.startsWith('W/"') ? etag : `"${etag}"`;

/** `If-None-Match` matching with weak comparison (RFC 9110 13.1.2), including `*`. */
function etagMatches(header: string, etag: string): boolean {
  if (header === etag || header === "*") return true;
  const bare = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const part of header.split(",")) {
    const t = part.trim();
    if (t === "*" || (t.startsWith("W/") ? t.slice(2) : t) === bare) return true;
  }
  return false;
}

function notServed(game: GameId, op: Operation): RangesError {
  const servedBy = GAME_IDS.filter((g) => GAMES[g].serves.includes(op));
  return new RangesError(
    "not_found",
    `/${op} is not served for ${game}; it is served for ${servedBy.join(", ")}. ${game} serves ${GAMES[
      game
    ].serves
      .filter((o) => o !== "discovery")
      .map((o) => `/${o}`)
      .join(", ")}.`,
    { servedBy },
  );
}

const sanitizeRequestId = (incoming: string | undefined): string =>
  incoming && REQUEST_ID.test(incoming) ? incoming : nextRequestId();

/** Whether a request carries a body: a non-zero Content-Length or any Transfer-Encoding. */
const hasBody = (req: IncomingMessage): boolean =>
  req.headers["transfer-encoding"] !== undefined ||
  (req.headers["content-length"] !== undefined && Number(req.headers["content-length"]) !== 0);

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The request's own strings longer than the echo limit (path, its segments, query names and values, raw
 * and decoded, and the `_`-separated parts of each): error messages cut them wherever they appear.
 */
function longInputs(path: string, querystring: string): string[] {
  const out: string[] = [];
  const add = (raw: string) => {
    if (raw.length <= ECHO_LIMIT) return;
    for (const s of raw.includes("%") ? [raw, decodeSafe(raw)] : [raw]) {
      out.push(s);
      for (const part of s.split(/[/_]/)) if (part.length > ECHO_LIMIT) out.push(part);
    }
  };
  add(path);
  for (const segment of path.split("/")) add(segment);
  for (const pair of querystring.split("&")) {
    const eq = pair.indexOf("=");
    add(eq < 0 ? pair : pair.slice(0, eq));
    if (eq >= 0) add(pair.slice(eq + 1));
  }
  return out;
}

/**
 * The path as the access log writes it: the secret segment of an upload link (`/api/v1/uploads/hul_...`,
 * a bearer credential until used) is replaced by `[token]`, whatever its shape or case.
 */
export function loggedPath(path: string): string {
  return path.replace(/(\/uploads\/)[^/]+/gi, "$1[token]");
}

export function createApp(o: AppOptions): Koa<RequestState> {
  const { store, access } = o;
  const log = o.logger ?? createStdoutLogger<LogLine>().log;
  const trust = compileTrustProxy(o.trustProxy);
  const app = new Koa<RequestState>();
  // X-Forwarded-For is read by clientAddress alone, and only from listed proxies; Koa's own reading stays off.
  app.proxy = false;
  app.silent = true;

  const openapi = JSON.stringify(buildOpenApiDocument("/"));
  // Pack errors name the pack relative to the packs directory, never by its absolute path.
  const roots = [store.packsDir];

  // 1. Request id, client address, security headers, errors, closing after an unread body, logging.
  app.use(async (ctx, next) => {
    const start = performance.now();
    const req = ctx.req;
    const requestId = sanitizeRequestId(ctx.get("x-request-id"));
    ctx.set("X-Request-Id", requestId);
    for (const name in SECURITY_HEADERS) ctx.set(name, SECURITY_HEADERS[name]!);
    ctx.request.ip = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trust);
    const body = hasBody(req);
    let errText: string | undefined;
    try {
      await next();
    } catch (err) {
      const redaction: Redaction = { roots, inputs: longInputs(ctx.path, ctx.querystring) };
      const mapped = mapError(err, redaction);
      if (mapped.internal) errText = err instanceof Error ? (err.stack ?? err.message) : String(err);
      ctx.state.code = mapped.code;
      // A handler that took over the response (MCP) and failed before writing: answer for it.
      if (ctx.respond === false && !ctx.res.headersSent) ctx.respond = true;
      ctx.status = mapped.status;
      if (mapped.status === 429) limitHeaders(ctx, err);
      ctx.remove("ETag");
      ctx.set("Cache-Control", "no-store");
      ctx.set("Content-Type", JSON_TYPE);
      ctx.body = mapped.body;
    }
    // A body that was not (or not wholly) read is not read on: the answer closes the connection, and Node
    // destroys the socket once the answer is written.
    if (body && !req.complete && ctx.respond !== false) ctx.set("Connection", "close");
    const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
    log({
      time: isoNow(),
      level: status >= 500 ? "error" : status >= 400 ? "warn" : "info",
      requestId,
      method: ctx.method,
      path: loggedPath(ctx.path),
      status,
      ms: Math.round((performance.now() - start) * 100) / 100,
      ip: ctx.ip,
      via: ctx.state.via,
      code: ctx.state.code,
      err: errText,
    });
  });

  // 2. CORS for every origin; Authorization may be sent cross-origin (bearer keys, no cookies).
  app.use(
    cors({
      origin: "*",
      allowMethods: ["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
      allowHeaders: ["Authorization", "Content-Type", "If-None-Match", "X-Request-Id", "Mcp-Session-Id"],
      exposeHeaders: [...EXPOSED_HEADERS],
      maxAge: 86400,
    }),
  );

  // 3. The shape of the request, before any route: URL length, Host, and no body on GET or HEAD (refused
  //    before a byte of it is read).
  app.use((ctx, next) => {
    const req = ctx.req;
    if (req.url !== undefined && req.url.length > URL_LIMIT) {
      throw new RangesError(
        "uri_too_long",
        `The URL is longer than ${URL_LIMIT} bytes; no request to this API needs that much.`,
        { limit: URL_LIMIT },
      );
    }
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      throw new RangesError("bad_request", "An HTTP/1.1 request needs a Host header.");
    }
    if ((ctx.method === "GET" || ctx.method === "HEAD") && hasBody(req)) {
      throw new RangesError(
        "bad_request",
        `${ctx.method} requests take no body: send the parameters in the query string.`,
      );
    }
    return next();
  });

  /** Authorizes and meters the call; its headers go on the response whatever the outcome. */
  async function authorize(
    ctx: Koa.ParameterizedContext<RequestState>,
    keyless: boolean,
    operation: string,
  ): Promise<void> {
    const decision = await access.authorize({
      authorization: ctx.get("authorization"),
      ip: ctx.ip,
      keyless,
      operation,
    });
    for (const name in decision.headers) ctx.set(name, decision.headers[name]!);
    if (!decision.ok) throw decision.error;
    ctx.state.via = decision.via;
    ctx.state.caller = decision.keyId ? `key:${decision.keyId}` : `ip:${ctx.ip}`;
  }

  function send(
    ctx: Koa.ParameterizedContext<RequestState>,
    result: { bytes: Buffer; etag: string },
    cacheControl: string,
  ) {
    const etag = quoteEtag(result.etag);
    ctx.set("ETag", etag);
    ctx.set("Cache-Control", cacheControl);
    const inm = ctx.get("if-none-match");
    if (inm && etagMatches(inm, etag)) {
      ctx.status = 304;
      return;
    }
    ctx.set("Content-Type", JSON_TYPE);
    ctx.body = bodyBytes(result);
  }

  /**
   * Data queries go through `jsonAsync`: a pack not in memory is read off the event loop. `solution`: a
   * finished solve's own store and stack (no `stack` parameter then).
   */
  async function serveData(
    ctx: Koa.ParameterizedContext<RequestState>,
    game: GameId,
    op: DataOp,
    solution?: { store: RangeStore; stack: number },
  ) {
    if (!solution) {
      if (!GAMES[game].serves.includes(op)) throw notServed(game, op);
      await authorize(ctx, isKeyless(game, op), `/${op} on ${game}`);
    }
    const source = solution?.store ?? store;
    const q = parseQuery(ctx.querystring, solution ? PARAMS[op].filter((p) => p !== "stack") : PARAMS[op]);
    const stack = solution ? solution.stack : parseStackParam(game, q.stack);
    let result: { bytes: Buffer; etag: string };
    if (op === "node") {
      result = await source.jsonAsync({
        kind: "node",
        game,
        stack,
        history: parsePathParam("history", q.history, game),
        hand: q.hand,
        minFreq: parseMinFreqParam(q.minFreq),
        full: parseFullParam(q.full),
      });
    } else if (op === "range") {
      result = await source.jsonAsync({
        kind: "range",
        game,
        stack,
        spot: parsePathParam("spot", q.spot, game),
        hand: q.hand,
        minFreq: parseMinFreqParam(q.minFreq),
      });
    } else {
      result = await source.jsonAsync({ kind: op, game, stack });
    }
    send(ctx, result, solution ? "private, no-cache" : CACHE_DATA);
  }

  async function serveDiscovery(ctx: Koa.ParameterizedContext<RequestState>, game: GameId) {
    await authorize(ctx, isKeyless(game, "discovery"), `discovery of ${game}`);
    parseQuery(ctx.querystring, []);
    send(ctx, store.json({ kind: "discovery", game }), CACHE_META);
  }

  const router = new Router<RequestState>();

  router.get("/healthz", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "ok" };
  });
  router.get("/readyz", async (ctx) => {
    const packs = store.packStatus();
    const live = packs.filter((p) => p.ok).length;
    const accessOk = await access.ping();
    ctx.set("Cache-Control", "no-store");
    ctx.status = accessOk ? 200 : 503;
    ctx.body = {
      status: accessOk ? "ready" : "not_ready",
      access: accessOk ? "ok" : "unavailable",
      packs: { live, failed: packs.length - live },
    };
  });
  router.get("/api/v1/openapi.json", (ctx) => {
    ctx.set("Cache-Control", "public, max-age=3600");
    ctx.set("Content-Type", JSON_TYPE);
    ctx.body = openapi;
  });

  async function serveCatalog(ctx: Koa.ParameterizedContext<RequestState>) {
    await authorize(ctx, true, "the game catalog");
    parseQuery(ctx.querystring, []);
    send(ctx, store.json({ kind: "catalog" }), CACHE_META);
  }

  router.get("/api/v1/ranges/games", serveCatalog);
  // nl/v2 spans two segments: its routes come before the one-segment `:game` routes.
  router.get("/api/v1/ranges/nl/v2", (ctx) => serveDiscovery(ctx, "nl/v2"));
  for (const op of DATA_OPS) {
    router.get(`/api/v1/ranges/nl/v2/${op}`, (ctx) => serveData(ctx, "nl/v2", op));
  }
  router.get("/api/v1/ranges/:game", (ctx) => serveDiscovery(ctx, parseGameParam(ctx.params.game!)));
  for (const op of DATA_OPS) {
    router.get(`/api/v1/ranges/:game/${op}`, (ctx) => serveData(ctx, parseGameParam(ctx.params.game!), op));
  }

  /**
   * The caller's own records (requests, solves): a valid key is needed; `free` calls are not counted on its
   * meter. Returns the key id and plan.
   */
  async function keyHolder(
    ctx: Koa.ParameterizedContext<RequestState>,
    operation: string,
    free = true,
  ): Promise<{ keyId: string; plan: string }> {
    const decision = await access.authorize({
      authorization: ctx.get("authorization"),
      ip: ctx.ip,
      keyless: false,
      free,
      operation,
    });
    for (const name in decision.headers) ctx.set(name, decision.headers[name]!);
    if (!decision.ok) throw decision.error;
    ctx.state.via = decision.via;
    return { keyId: decision.keyId!, plan: decision.plan ?? "standard" };
  }

  /** The JSON object body of a POST, or a 400 that shows the shape expected. */
  async function jsonBody(ctx: Koa.ParameterizedContext<RequestState>, example: string): Promise<unknown> {
    if (!ctx.is("application/json")) {
      throw new RangesError(
        "bad_request",
        `Send the body as JSON with "Content-Type: application/json", e.g. ${example}.`,
      );
    }
    const body = await readJsonBody(ctx.req, MCP_BODY_LIMIT);
    if (body === undefined || typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new RangesError("invalid_parameter", `The body must be a JSON object, e.g. ${example}.`);
    }
    return body;
  }

  const solves = o.solves;
  const solveRoutes = (): SolveService => {
    if (!solves) throw new RangesError("not_found", "The solve queue is not enabled on this server.");
    return solves;
  };
  const SOLVE_EXAMPLE = '{"game": "nl/v2", "stack": 85}';

  router.post("/api/v1/solves", async (ctx) => {
    const { queue, worker } = solveRoutes();
    const { keyId, plan } = await keyHolder(ctx, "queuing a solve", false);
    // Sized on the queue's sizing thread: building a tree never blocks this event loop.
    const spec = await queue.size(keyId, await jsonBody(ctx, SOLVE_EXAMPLE));
    checkPlan(spec, plan);
    const job = await queue.enqueue(keyId, spec, limitsOf(plan));
    worker?.wake();
    ctx.status = 202;
    ctx.set("Cache-Control", "no-store");
    ctx.set("Location", `/api/v1/solves/${job.id}`);
    ctx.body = { schemaVersion: 1, solve: job };
  });

  router.get("/api/v1/solves", async (ctx) => {
    const { queue } = solveRoutes();
    const { keyId } = await keyHolder(ctx, "listing your solves");
    parseQuery(ctx.querystring, []);
    ctx.set("Cache-Control", "no-store");
    ctx.body = { schemaVersion: 1, solves: await queue.list(keyId, 100) };
  });

  const SOLVE_ID = /^sol_[0-9a-f]{16}$/;
  const solveId = (raw: string | undefined): string => {
    if (!raw || !SOLVE_ID.test(raw)) {
      throw new RangesError(
        "not_found",
        `No solve "${clip(raw ?? "", ECHO_LIMIT)}": solve ids look like sol_ and 16 hex characters.`,
      );
    }
    return raw;
  };

  router.get("/api/v1/solves/:id", async (ctx) => {
    const { queue } = solveRoutes();
    const { keyId } = await keyHolder(ctx, "reading a solve");
    parseQuery(ctx.querystring, []);
    ctx.set("Cache-Control", "no-store");
    ctx.body = { schemaVersion: 1, solve: await queue.require(keyId, solveId(ctx.params.id)) };
  });

  router.delete("/api/v1/solves/:id", async (ctx) => {
    const { queue } = solveRoutes();
    const { keyId } = await keyHolder(ctx, "cancelling a solve");
    parseQuery(ctx.querystring, []);
    ctx.set("Cache-Control", "no-store");
    ctx.body = { schemaVersion: 1, solve: await queue.cancel(keyId, solveId(ctx.params.id)) };
  });

  for (const op of ["node", "range", "spots"] as const) {
    router.get(`/api/v1/solves/:id/${op}`, async (ctx) => {
      const { solutions } = solveRoutes();
      const { keyId } = await keyHolder(ctx, `/${op} of a solve`, false);
      const solution = await solutions.get(keyId, solveId(ctx.params.id));
      await serveData(ctx, solution.game, op, solution);
    });
  }

  // Heads-up postflop: the same reads as the MCP postflop tools, in the same analysis envelope. Listing the
  // packs is keyless; the reads need a key and are counted on its meter.
  const postflop = o.postflop;
  const POSTFLOP_PACK = /^[a-z0-9][a-z0-9-]{0,79}$/;
  const postflopPack = (raw: string | undefined): string => {
    const id = (raw ?? "").toLowerCase();
    if (!POSTFLOP_PACK.test(id)) {
      throw new RangesError(
        "not_found",
        `No postflop pack "${clip(raw ?? "", ECHO_LIMIT)}": pack ids are lower-case letters, digits and hyphens; GET /api/v1/postflop/packs lists them.`,
      );
    }
    return id;
  };
  const sendEnvelope = (ctx: Koa.ParameterizedContext<RequestState>, value: unknown) => {
    ctx.set("Cache-Control", CACHE_META);
    ctx.set("Content-Type", JSON_TYPE);
    ctx.body = JSON.stringify(value);
  };
  const required = (q: Record<string, string>, name: string, example: string): string => {
    const v = q[name];
    if (v === undefined || v.trim() === "") {
      throw new RangesError(
        "missing_parameter",
        `The ${name} parameter is required, e.g. ${name}=${example}.`,
      );
    }
    return v;
  };
  const fraction = (q: Record<string, string>, name: string): number | undefined => {
    const v = q[name];
    if (v === undefined) return undefined;
    const x = Number(v);
    if (v.trim() === "" || !Number.isFinite(x) || x < 0 || x > 1) {
      throw new RangesError(
        "invalid_parameter",
        `The ${name} parameter must be a number from 0 to 1, e.g. ${name}=0.05.`,
      );
    }
    return x;
  };
  /** Runs a read as its caller, so the turn and river solver holds each caller to its share of the slots. */
  const asCaller = <T>(ctx: Koa.ParameterizedContext<RequestState>, read: () => Promise<T>): Promise<T> =>
    subgameCaller.run(ctx.state.caller ?? `ip:${ctx.ip}`, read);
  /** A combo that cannot be a hand on this board is refused before any turn or river is solved. */
  const checkCombo = (combo: string, board: string) => {
    parseCombo(combo, parseBoard(board) ?? []);
  };
  router.get("/api/v1/postflop/packs", async (ctx) => {
    await authorize(ctx, true, "the postflop pack list");
    parseQuery(ctx.querystring, []);
    sendEnvelope(ctx, listPostflopPacks(postflop));
  });
  router.get("/api/v1/postflop/compare", async (ctx) => {
    await authorize(ctx, false, "postflop compare");
    const q = parseQuery(ctx.querystring, [
      "baselinePack",
      "baselineBoard",
      "baselinePath",
      "comparisonPack",
      "comparisonBoard",
      "comparisonPath",
      "combo",
      "limit",
    ]);
    const limit = q.limit === undefined ? 10 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 50) {
      throw new RangesError("invalid_parameter", "The limit parameter must be a whole number from 1 to 50.");
    }
    const side = (name: "baseline" | "comparison") => ({
      pack: postflopPack(required(q, `${name}Pack`, "srp-btn-bb-100bb")),
      board: required(q, `${name}Board`, "QsJh2h"),
      path: q[`${name}Path`] ?? "",
      ...(q.combo === undefined ? {} : { combo: q.combo }),
    });
    if (q.combo !== undefined) {
      checkCombo(q.combo, side("baseline").board);
      checkCombo(q.combo, side("comparison").board);
    }
    sendEnvelope(
      ctx,
      await asCaller(ctx, () => comparePostflop(postflop, side("baseline"), side("comparison"), limit)),
    );
  });
  router.get("/api/v1/postflop/:pack/node", async (ctx) => {
    await authorize(ctx, false, "postflop node");
    const q = parseQuery(ctx.querystring, ["board", "path", "combo"]);
    const pack = postflopPack(ctx.params.pack);
    const board = required(q, "board", "QsJh2h");
    if (q.combo !== undefined) checkCombo(q.combo, board);
    sendEnvelope(
      ctx,
      await asCaller(ctx, () => postflopNode(postflop, { pack, board, path: q.path ?? "", combo: q.combo })),
    );
  });
  router.get("/api/v1/postflop/:pack/range", async (ctx) => {
    await authorize(ctx, false, "postflop range");
    const q = parseQuery(ctx.querystring, ["board", "path", "action", "minReach"]);
    const pack = postflopPack(ctx.params.pack);
    sendEnvelope(
      ctx,
      await asCaller(ctx, () =>
        postflopRange(postflop, {
          pack,
          board: required(q, "board", "QsJh2h"),
          path: q.path ?? "",
          action: q.action,
          minReach: fraction(q, "minReach"),
        }),
      ),
    );
  });
  router.get("/api/v1/postflop/:pack/explain", async (ctx) => {
    await authorize(ctx, false, "postflop explain");
    const q = parseQuery(ctx.querystring, ["board", "path", "combo"]);
    const pack = postflopPack(ctx.params.pack);
    const board = required(q, "board", "QsJh2h");
    const combo = required(q, "combo", "AhKh");
    checkCombo(combo, board);
    sendEnvelope(
      ctx,
      await asCaller(ctx, () => explainCombo(postflop, { pack, board, path: q.path ?? "", combo })),
    );
  });
  router.get("/api/v1/postflop/:pack/report", async (ctx) => {
    await authorize(ctx, false, "postflop board report");
    const q = parseQuery(ctx.querystring, [
      "path",
      "pairedness",
      "suitTexture",
      "connectivity",
      "highCardClass",
    ]);
    const pack = postflopPack(ctx.params.pack);
    const filters = {
      pairedness: q.pairedness,
      suitTexture: q.suitTexture,
      connectivity: q.connectivity,
      highCardClass: q.highCardClass,
    };
    sendEnvelope(ctx, boardReport(postflop, { pack, path: q.path ?? "", filters }));
  });

  router.post("/api/v1/requests", async (ctx) => {
    const { keyId } = await keyHolder(ctx, "filing a request");
    if (!ctx.is("application/json")) {
      throw new RangesError(
        "bad_request",
        'Send the request as a JSON object with "Content-Type: application/json", e.g. {"kind":"data","text":"nl at 60bb"}.',
      );
    }
    const body = await readJsonBody(ctx.req, MCP_BODY_LIMIT);
    const parsed = FeatureRequestBodySchema.safeParse(body);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .slice(0, 3)
        .map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message));
      throw new RangesError(
        "invalid_parameter",
        body === undefined || typeof body !== "object" || body === null || Array.isArray(body)
          ? 'The body must be a JSON object: {"kind": "feature" | "data" | "bug" | "other", "text": "...", "game"?, "stack"?, "spot"?}.'
          : `The request body is not valid: ${problems.join("; ")}.`,
      );
    }
    const stored = await access.submitRequest(keyId, parsed.data);
    ctx.status = 201;
    ctx.set("Cache-Control", "no-store");
    ctx.body = { schemaVersion: 1, request: stored };
  });

  router.get("/api/v1/requests", async (ctx) => {
    const { keyId } = await keyHolder(ctx, "listing your requests");
    parseQuery(ctx.querystring, []);
    ctx.set("Cache-Control", "no-store");
    ctx.body = { schemaVersion: 1, requests: await access.listRequests(keyId) };
  });

  // The account area (sign-up, sign-in, keys, meters, the caller's requests and solves).
  registerAccountRoutes(router as unknown as Router, {
    access,
    accounts: new AccountStore(
      access.database,
      o.signUpDailyLimit === undefined ? {} : { maxSignUpsPerIp: o.signUpDailyLimit },
    ),
    solves: o.solves,
    publicUrl: o.publicUrl,
    onKeyRevoked: o.oauth ? (keyId) => o.oauth!.revokeKey(keyId) : undefined,
  });

  const oauth = o.oauth;
  oauth?.registerRoutes(router as unknown as Router);

  registerUploadRoutes(router, o.hands);

  const mcpHandler = o.mcpHandler;
  router.post("/api/mcp", async (ctx) => {
    if (!mcpHandler) throw new RangesError("not_found", "The MCP endpoint is not enabled on this server.");
    // An OAuth access token (any bearer token that is not a pr_ key) stands for its account's key.
    const bearer = /^Bearer +(\S+)$/i.exec(ctx.get("authorization").trim())?.[1];
    let signedIn: { keyId: string } | undefined;
    if (oauth && bearer !== undefined && !bearer.startsWith("pr_")) {
      signedIn = { keyId: (await oauth.verify(ctx, bearer)).keyId };
    }
    const body = await readJsonBody(ctx.req, MCP_BODY_LIMIT);
    ctx.state.via = "mcp";
    // Without any credentials, a tool that needs a key answers 401 with the challenge that starts sign-in.
    if (oauth && !ctx.get("authorization")) challengeKeylessPaidCalls(ctx.res, oauth.challenge(ctx));
    // The handler meters by X-Forwarded-For (it is created with trustProxy): it gets the one address
    // resolved here, so both doors meter the same client.
    ctx.req.headers["x-forwarded-for"] = ctx.ip;
    // The MCP transport writes the response itself.
    ctx.respond = false;
    // The turn and river solver's share: per key (an OAuth token stands for its key), else per address.
    const caller = signedIn
      ? `key:${signedIn.keyId}`
      : bearer !== undefined
        ? `token:${createHash("sha256").update(bearer).digest("hex").slice(0, 24)}`
        : `ip:${ctx.ip}`;
    await subgameCaller.run(caller, () => mcpHandler(ctx.req, ctx.res, body, signedIn));
  });

  // The data routes again, matched by plain string operations: these are the hot paths, and @koa/router
  // costs several microseconds and a composed middleware chain per request. Only exact, unencoded paths
  // take this way; anything else (percent-encoded segments, other methods) goes through the router, which
  // holds the same routes with the same handlers, so the answers are identical.
  app.use((ctx, next) => {
    const method = ctx.method;
    if ((method === "GET" || method === "HEAD") && ctx.path.startsWith(RANGES_PREFIX)) {
      const route = fastRoute(ctx.path);
      if (route !== null) {
        if (route.op === "catalog") return serveCatalog(ctx);
        const game = parseGameParam(route.game);
        return route.op === "discovery" ? serveDiscovery(ctx, game) : serveData(ctx, game, route.op);
      }
    }
    return next();
  });
  // OAuth: the authorization server's endpoints and the metadata documents.
  if (oauth) app.use(oauth.middleware);
  app.use(router.routes());
  // The web site: its files and pages (GET and HEAD of paths outside /api/ and /.well-known/).
  if (o.webRoot) app.use(serveWeb(o.webRoot));

  /** The methods served at a path (empty when there is no such path). */
  function allowedAt(path: string, method: string): Set<string> {
    const allowed = new Set<string>();
    for (const layer of router.match(path, method).path) {
      for (const m of layer.methods) allowed.add(m);
    }
    return allowed;
  }

  // 5. Nothing matched this method: 405 when the path exists for another one, else 404.
  app.use((ctx) => {
    const allowed = allowedAt(ctx.path, ctx.method);
    if (allowed.size > 0) {
      const allow = [...allowed].join(", ");
      ctx.set("Allow", allow);
      if (ctx.method === "OPTIONS") {
        ctx.status = 204;
        return;
      }
      throw new RangesError(
        "method_not_allowed",
        `${ctx.method} is not allowed on ${clip(ctx.path)}; use ${allow}.`,
        {
          allow: [...allowed],
        },
      );
    }
    throw routeNotFound(ctx.path);
  });

  // The server: explicit limits and timeouts, and the error body also for what Node's HTTP parser rejects,
  // for timeouts and for CONNECT, which never reach Koa (see http-server.ts).
  app.listen = ((...args: Parameters<Server["listen"]>) => {
    const server = createHttpServer(
      app.callback(),
      {
        readsBody: (req) => {
          if (readsUploadBody(req)) return true;
          if (req.method !== "POST" || mcpHandler === undefined) return false;
          if ((req.url ?? "").split("?")[0] !== "/api/mcp") return false;
          const declared = Number(req.headers["content-length"]);
          return !(Number.isFinite(declared) && declared > MCP_BODY_LIMIT);
        },
        requestId: sanitizeRequestId,
        allowAt: (target) => {
          const allowed = allowedAt(target.split("?")[0] ?? "", "GET");
          return allowed.size > 0 ? [...allowed].join(", ") : "GET, HEAD, OPTIONS";
        },
        clientIp: (peer, headers) => clientAddress(peer, headers?.["x-forwarded-for"], trust),
        body: (error) => errorBody(error, { roots }),
        log: (r) =>
          log({
            time: isoNow(),
            level: "warn",
            requestId: r.requestId,
            method: r.method,
            path: r.path,
            status: r.status,
            ms: 0,
            ip: r.ip,
            code: r.code,
            err: r.err,
          }),
      },
      o.http,
    );
    return server.listen(...args);
  }) as typeof app.listen;

  return app;
}

/**
 * The headers of a 429 whose limit set none itself (the account area's sign-up and sign-in limits): from
 * the error's hint, `Retry-After` and `RateLimit-Reset` (seconds to the reset), `RateLimit-Limit`, and
 * `RateLimit-Remaining: 0`.
 */
function limitHeaders(ctx: Koa.Context, err: unknown): void {
  if (ctx.response.get("Retry-After")) return;
  const hint = (err as { hint?: Record<string, unknown> } | null)?.hint;
  const retry = hint?.retryAfterSeconds;
  if (typeof retry !== "number" || !Number.isFinite(retry)) return;
  ctx.set("Retry-After", String(Math.max(0, Math.ceil(retry))));
  if (typeof hint?.limit === "number") {
    ctx.set("RateLimit-Limit", String(hint.limit));
    ctx.set("RateLimit-Remaining", "0");
    ctx.set("RateLimit-Reset", String(Math.max(0, Math.ceil(retry))));
  }
}

const RANGES_PREFIX = "/api/v1/ranges/";
type FastRoute = { op: "catalog" } | { op: "discovery" | DataOp; game: string };

/** `/api/v1/ranges/...` split into game and operation, or null to let the router decide. */
function fastRoute(path: string): FastRoute | null {
  let rest = path.slice(RANGES_PREFIX.length);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  if (rest.length === 0 || rest.includes("%")) return null;
  const parts = rest.split("/");
  if (parts[0] === "nl" && parts[1] === "v2") parts.splice(0, 2, "nl/v2");
  const [game, op] = parts;
  if (parts.length === 1) return game === "games" ? { op: "catalog" } : { op: "discovery", game: game! };
  if (parts.length === 2 && (op === "node" || op === "range" || op === "spots" || op === "config")) {
    return { op, game: game! };
  }
  return null;
}

function routeNotFound(path: string): RangesError {
  const m = /^\/api\/v1\/ranges\/(.+)\/([^/]+)\/?$/.exec(path);
  if (m && (GAME_IDS as readonly string[]).includes(decodeURIComponentSafe(m[1]!))) {
    return new RangesError(
      "not_found",
      `Unknown operation "${clip(m[2]!)}" for ${m[1]}: the operations are node, range, spots and config.`,
    );
  }
  return new RangesError(
    "not_found",
    `No endpoint at ${clip(path)}. Endpoints: /api/v1/ranges/games, /api/v1/ranges/{game}, /api/v1/ranges/{game}/node|range|spots|config (nl/v2 as two segments), /api/v1/postflop/packs, /api/v1/postflop/{pack}/node|range|explain|report, /api/v1/postflop/compare, /api/v1/openapi.json, POST /api/mcp.`,
  );
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
