/**
 * The cached data GETs, answered before Koa. A `/api/v1/ranges/{game}/node|range|spots|config` URL that Koa
 * has answered 200 once is remembered with its store cache key (`remember`); the next GET or HEAD of exactly
 * that URL whose body the store still holds is authorized, metered, logged and answered here, with the same
 * headers Koa sends (request id, security headers, CORS, RateLimit, ETag, Cache-Control, 304 on a matching
 * `If-None-Match`, and a compressed body when the compression cache already holds one for the encoding asked).
 *
 * Anything else goes to Koa unchanged: a URL not remembered or evicted from the store, a request with a body,
 * an HTTP/1.1 request without Host, an encoding whose compressed body is not cached yet, and every refused
 * call. A refused call's decision is handed to Koa (`predecided`), which answers it through the one error
 * mapping without metering the call a second time.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { AccessDecision, AccessStore } from "@ranges/access";
import type { RangeStore } from "@ranges/store";
import { LRUCache } from "lru-cache";
import type { compileTrustProxy } from "../client-ip.js";
import { EXPOSED_HEADERS } from "../http-server.js";
import { JSON_TYPE, type LogLine } from "../services.js";
import { hasBody } from "./bodies.js";
import { etagMatches } from "./caching.js";
import { type CompressedCache, chooseEncoding, etagKey, MIN_BYTES } from "./compress.js";
import { clientOf, isoNow, loggedPath, sanitizeRequestId } from "./pipeline.js";

/** What a remembered URL answers with: the store's key and the URL's authorization and caching. */
export interface FastEntry {
  /** The store cache key of the URL's body (`JsonResult.key`). */
  readonly key: string;
  /** Whether the operation may be called without a key. */
  readonly keyless: boolean;
  /** The operation as refusals name it (`/node on nl/v2`). */
  readonly operation: string;
  readonly cacheControl: string;
}

/** Decisions made on the fast path for calls it hands to Koa (read once by `Auth`). */
const predecisions = new WeakMap<IncomingMessage, AccessDecision>();

/** The access decision the fast path already made for this request, if any (and forgets it). */
export function takePredecided(req: IncomingMessage): AccessDecision | undefined {
  const decision = predecisions.get(req);
  if (decision !== undefined) predecisions.delete(req);
  return decision;
}

export interface FastGetOptions {
  readonly store: RangeStore;
  readonly access: AccessStore;
  readonly trust: ReturnType<typeof compileTrustProxy>;
  readonly log: (line: LogLine) => void;
  readonly compressed: CompressedCache;
  /** Headers every answer carries besides the request id (security headers, HSTS). */
  readonly headers: Readonly<Record<string, string>>;
  /** URLs remembered at most (least recently used out first; default 16,384). */
  readonly maxUrls?: number;
}

const EXPOSE = EXPOSED_HEADERS.join(",");
const RANGES_PREFIX = "/api/v1/ranges/";
const MAX_URL = 1024;

export class FastGets {
  private readonly urls: LRUCache<string, FastEntry>;
  /** The headers before the request id's value, and after it up to the RateLimit headers. */
  private readonly fixed: readonly string[];
  private readonly o: FastGetOptions;

  constructor(o: FastGetOptions) {
    this.o = o;
    this.urls = new LRUCache<string, FastEntry>({ max: Math.max(1, o.maxUrls ?? 16_384) });
    const fixed: string[] = [];
    for (const name in o.headers) fixed.push(name, o.headers[name]!);
    this.fixed = fixed;
  }

  /**
   * Remembers that `url` answers the store's body under `entry.key` (after Koa answered it 200). URLs longer
   * than 1 KiB are not remembered (no data URL needs that much; it bounds the memory an attacker can fill).
   */
  remember(url: string, entry: FastEntry): void {
    if (url.length > MAX_URL || !url.startsWith(RANGES_PREFIX) || this.urls.has(url)) return;
    // Least recently used out first. A Map evicting its first key would skip every deleted entry before
    // it on each call: thousands when every request is a new URL.
    this.urls.set(url, entry);
  }

  /** The node:http handler: the fast path where it applies, else `next` (Koa). */
  handler(next: (req: IncomingMessage, res: ServerResponse) => void) {
    return (req: IncomingMessage, res: ServerResponse): void => {
      if (!this.serve(req, res, next)) next(req, res);
    };
  }

  private serve(
    req: IncomingMessage,
    res: ServerResponse,
    next: (req: IncomingMessage, res: ServerResponse) => void,
  ): boolean {
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return false;
    const url = req.url!;
    const entry = this.urls.get(url);
    if (entry === undefined) return false;
    const headers = req.headers;
    if (hasBody(req)) return false;
    if (headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) return false;
    const result = this.o.store.peek(entry.key);
    if (result === undefined) {
      this.urls.delete(url);
      return false;
    }
    const etag = result.etag;
    const inm = headers["if-none-match"];
    const notModified = inm !== undefined && etagMatches(inm, etag);
    let body = result.bytes;
    let encoding: string | null = null;
    if (!notModified && body.length >= MIN_BYTES) {
      const accept = headers["accept-encoding"];
      const chosen = accept === undefined ? null : chooseEncoding(accept);
      if (chosen !== null) {
        const packed = this.o.compressed.get(etagKey(chosen, etag, body.length));
        if (packed === undefined) return false;
        body = packed;
        encoding = chosen;
      }
    }
    const start = performance.now();
    const ip = clientOf(req, this.o.trust);
    const requestId = sanitizeRequestId(headers["x-request-id"] as string | undefined);
    this.o.access
      .authorize({
        authorization: headers.authorization,
        ip,
        keyless: entry.keyless,
        operation: entry.operation,
      })
      .then(
        (decision) => {
          if (!decision.ok) {
            predecisions.set(req, decision);
            next(req, res);
            return;
          }
          const out: string[] = ["X-Request-Id", requestId, ...this.fixed];
          out.push(
            "Vary",
            notModified || result.bytes.length < MIN_BYTES ? "Origin" : "Origin, Accept-Encoding",
            "Access-Control-Allow-Origin",
            "*",
            "Access-Control-Expose-Headers",
            EXPOSE,
          );
          for (const name in decision.headers) out.push(name, decision.headers[name]!);
          out.push("ETag", etag, "Cache-Control", entry.cacheControl);
          const status = notModified ? 304 : 200;
          if (!notModified) {
            out.push("Content-Type", JSON_TYPE, "Content-Length", String(body.length));
            if (encoding !== null) out.push("Content-Encoding", encoding);
          }
          res.writeHead(status, out);
          res.end(notModified || method === "HEAD" ? undefined : body);
          this.o.log({
            time: isoNow(),
            level: "info",
            requestId,
            method,
            path: loggedPath(url.split("?", 1)[0]!),
            status,
            ms: Math.round((performance.now() - start) * 100) / 100,
            ip,
            via: decision.via,
          });
        },
        // The access store failed (a database outage): Koa asks again and maps the error.
        () => next(req, res),
      )
      // Nothing above should throw; if it does, Koa answers while it still can (never an unhandled rejection).
      .catch((error: unknown) => {
        if (!res.headersSent) next(req, res);
        else res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    return true;
  }
}
