/**
 * The middleware around every route: (1) request id, client address, security headers, error mapping and
 * the one log line per request; (3) the request's shape (URL length, Host, no body on GET/HEAD); and (5)
 * the fallback, 405 with `Allow` when the path exists for another method, else 404.
 */

import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { GAME_IDS, RangesError } from "@ranges/core";
import type Koa from "koa";
import { clientAddress, type compileTrustProxy } from "../client-ip.js";
import { clip, ECHO_LIMIT, mapError, type Redaction } from "../errors.js";
import { SECURITY_HEADERS, URL_LIMIT } from "../http-server.js";
import { type Ctx, JSON_TYPE, type LogLine, type RequestState } from "../services.js";
import { hasBody } from "./bodies.js";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Generated request ids: a random per-process prefix and a counter (unique, and cheaper than a UUID).
const ID_PREFIX = randomBytes(6).toString("hex");
let idCounter = 0;
const nextRequestId = (): string => `${ID_PREFIX}-${(++idCounter).toString(36)}`;

export const sanitizeRequestId = (incoming: string | undefined): string =>
  incoming && REQUEST_ID.test(incoming) ? incoming : nextRequestId();

// Log timestamps, formatted once per millisecond.
let isoMs = -1;
let isoText = "";
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

export function decodeSafe(s: string): string {
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
  // Most paths hold no upload segment: skip the regular expression for them (the hot path logs every call).
  if (!/uploads/i.test(path)) return path;
  return path.replace(/(\/uploads\/)[^/]+/gi, "$1[token]");
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

/** Each connection's normalized peer address, parsed once (a kept-alive connection sends many requests). */
const peers = new WeakMap<object, string>();

/** The client address of a request: the connection's peer, or X-Forwarded-For through trusted proxies. */
export function clientOf(req: IncomingMessage, trust: ReturnType<typeof compileTrustProxy>): string {
  const forwarded = req.headers["x-forwarded-for"];
  if (trust !== null && forwarded !== undefined) {
    return clientAddress(req.socket.remoteAddress, forwarded, trust);
  }
  const socket = req.socket;
  let ip = peers.get(socket);
  if (ip === undefined) {
    ip = clientAddress(socket.remoteAddress, undefined, null);
    peers.set(socket, ip);
  }
  return ip;
}

export interface OuterOptions {
  readonly trust: ReturnType<typeof compileTrustProxy>;
  /** Directories error messages name files relative to (never by absolute path). */
  readonly roots: readonly string[];
  readonly log: (line: LogLine) => void;
  /** Extra headers on every answer (HSTS with an https public URL). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** 1. Request id, client address, security headers, errors, closing after an unread body, logging. */
export function outermost(o: OuterOptions): Koa.Middleware<RequestState> {
  const headers = { ...SECURITY_HEADERS, ...o.headers };
  return async (ctx, next) => {
    const start = performance.now();
    const req = ctx.req;
    const requestId = sanitizeRequestId(ctx.get("x-request-id"));
    ctx.set("X-Request-Id", requestId);
    for (const name in headers) ctx.set(name, headers[name]!);
    ctx.request.ip = clientOf(req, o.trust);
    const body = hasBody(req);
    let errText: string | undefined;
    try {
      await next();
    } catch (err) {
      const redaction: Redaction = { roots: [...o.roots], inputs: longInputs(ctx.path, ctx.querystring) };
      const mapped = mapError(err, redaction);
      if (mapped.internal) errText = err instanceof Error ? (err.stack ?? err.message) : String(err);
      ctx.state.code = mapped.code;
      // A handler that took over the response (MCP) and failed before writing: answer for it.
      if (ctx.respond === false && !ctx.res.headersSent) ctx.respond = true;
      ctx.status = mapped.status;
      if (mapped.status === 429 || mapped.status === 503) limitHeaders(ctx, err);
      if (mapped.retryAfterSeconds !== undefined) ctx.set("Retry-After", String(mapped.retryAfterSeconds));
      ctx.remove("ETag");
      ctx.set("Cache-Control", "no-store");
      ctx.set("Content-Type", JSON_TYPE);
      ctx.body = mapped.body;
    }
    // A body that was not (or not wholly) read is not read on: the answer closes the connection, and Node
    // destroys the socket once the answer is written.
    if (body && !req.complete && ctx.respond !== false) ctx.set("Connection", "close");
    const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
    o.log({
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
  };
}

/**
 * 3. The shape of the request, before any route: URL length, Host, and no body on GET or HEAD (refused
 *    before a byte of it is read).
 */
export const requestShape: Koa.Middleware<RequestState> = (ctx, next) => {
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
};

/** 5. Nothing matched this method: 405 with `Allow` when the path exists for another one, else 404. */
export function fallback(allowedAt: (path: string, method: string) => Set<string>) {
  return (ctx: Ctx) => {
    if (ctx.method === "TRACE" || ctx.method === "TRACK") {
      // Never echoed back (cross-site tracing): 405 wherever it is sent, with what the path does allow.
      const get = allowedAt(ctx.path, "GET");
      const allow = get.size > 0 ? [...get].join(", ") : "GET, HEAD, OPTIONS";
      ctx.set("Allow", allow);
      throw new RangesError(
        "method_not_allowed",
        `${ctx.method} is not supported by this API; use ${allow}.`,
        { allow: allow.split(", ") },
      );
    }
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
        { allow: [...allowed] },
      );
    }
    throw routeNotFound(ctx.path);
  };
}

function routeNotFound(path: string): RangesError {
  const m = /^\/api\/v1\/ranges\/(.+)\/([^/]+)\/?$/.exec(path);
  if (m && (GAME_IDS as readonly string[]).includes(decodeSafe(m[1]!))) {
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
