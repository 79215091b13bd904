/**
 * The data GETs answered before Koa. A `/api/v1/ranges/{game}/node|range|spots|config` URL that was answered
 * 200 twice is remembered with its store cache key (`remember`; a URL asked once is not, as the store keeps a
 * body from its second miss on: `Doorkeeper`); the next GET or HEAD of exactly that URL whose
 * body the store still holds is authorized, metered, logged and answered here. A data URL that is not
 * remembered (or whose body the store dropped) is planned by the ranges routes (`plan`): authorized and
 * metered here, its body read from the store (built on a miss), then answered and remembered the same way.
 * Either way the answer carries the headers Koa sends (request id, security headers, CORS, RateLimit, ETag,
 * Cache-Control, 304 on a matching `If-None-Match`, and a compressed body when the compression cache already
 * holds one for the encoding asked).
 *
 * Anything else goes to Koa unchanged: a URL no plan covers, a request with a body, an HTTP/1.1 request
 * without Host, an encoding whose compressed body is not cached yet, and every refused or failed call. A
 * call decided here and handed on has its decision given to Koa (`predecided`), which answers it through the
 * one error mapping (a failed read is read again there, and fails again with the same error) without
 * metering the call a second time.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { AccessDecision, AccessStore } from "@ranges/access";
import { Doorkeeper, type JsonResult, type RangeStore } from "@ranges/store";
import { LRUCache } from "lru-cache";
import type { compileTrustProxy } from "../client-ip.js";
import { EXPOSED_HEADERS } from "../http-server.js";
import { JSON_TYPE, type LogLine } from "../services.js";
import { hasBody } from "./bodies.js";
import { etagMatches } from "./caching.js";
import { type CompressedCache, chooseEncoding, etagKey, MIN_BYTES } from "./compress.js";
import { clientOf, isoNow, loggedPath, sanitizeRequestId } from "./pipeline.js";

/** How a data URL is authorized and cached: what a remembered URL keeps besides its store key. */
export interface DataControl {
  /** Whether the operation may be called without a key. */
  readonly keyless: boolean;
  /** The operation as refusals name it (`/node on nl/v2`). */
  readonly operation: string;
  readonly cacheControl: string;
}

/** What a remembered URL answers with: the store's key and the URL's authorization and caching. */
export interface FastEntry extends DataControl {
  /** The store cache key of the URL's body (`JsonResult.key`). */
  readonly key: string;
}

/**
 * A data URL the fast path may answer although it is not remembered: its control, and the read of its body
 * (the query's parameters checked, the body from the store's cache or built), called once the call is
 * authorized. A read that throws is handed to Koa, which reads again and maps the error.
 */
export interface DataPlan extends DataControl {
  readonly read: () => Promise<JsonResult>;
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
  /** The plan of a data URL that is not remembered, or null to leave it to Koa (the ranges routes'). */
  readonly plan?: (url: string) => DataPlan | null;
  /** URLs remembered at most (least recently used out first; default 16,384). */
  readonly maxUrls?: number;
}

type Next = (req: IncomingMessage, res: ServerResponse) => void;
type Granted = Extract<AccessDecision, { ok: true }>;

const EXPOSE = EXPOSED_HEADERS.join(",");
const RANGES_PREFIX = "/api/v1/ranges/";
const MAX_URL = 1024;

/** A body as it goes out: 304 or not, and its bytes in the encoding asked (null: not cached yet). */
interface Outgoing {
  readonly notModified: boolean;
  readonly body: Buffer;
  readonly encoding: string | null;
}

export class FastGets {
  private readonly urls: LRUCache<string, FastEntry>;
  /** URLs answered once: a URL is remembered at its second answer. */
  private readonly door = new Doorkeeper();
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
   * Remembers that `url` answers the store's body under `entry.key` (after it was answered 200), from its
   * second answer on: a URL asked once would only be kept until evicted, and die in V8's old generation.
   * URLs longer than 1 KiB are not remembered (no data URL needs that much; it bounds the memory an attacker
   * can fill).
   */
  remember(url: string, entry: FastEntry): void {
    if (url.length > MAX_URL || !url.startsWith(RANGES_PREFIX) || this.urls.has(url)) return;
    if (!this.door.seen(url)) return;
    // Least recently used out first. A Map evicting its first key would skip every deleted entry before
    // it on each call: thousands when every request is a new URL.
    this.urls.set(url, entry);
  }

  /** The node:http handler: the fast path where it applies, else `next` (Koa). */
  handler(next: Next) {
    return (req: IncomingMessage, res: ServerResponse): void => {
      if (!this.serve(req, res, next)) next(req, res);
    };
  }

  private serve(req: IncomingMessage, res: ServerResponse, next: Next): boolean {
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return false;
    const url = req.url!;
    if (url.length > MAX_URL || !url.startsWith(RANGES_PREFIX)) return false;
    if (hasBody(req)) return false;
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1)
      return false;
    const entry = this.urls.get(url);
    if (entry !== undefined) {
      const result = this.o.store.peek(entry.key);
      if (result !== undefined) {
        const out = this.outgoing(req, result);
        if (out === null) return false;
        this.answer(req, res, next, entry, result, out);
        return true;
      }
      this.urls.delete(url);
    }
    const plan = this.o.plan?.(url) ?? null;
    if (plan === null) return false;
    this.answer(req, res, next, plan, plan.read, null);
    return true;
  }

  /** 304 or the body in the encoding asked; null when that encoding's body is not cached yet. */
  private outgoing(req: IncomingMessage, result: JsonResult): Outgoing | null {
    const headers = req.headers;
    const inm = headers["if-none-match"];
    const notModified = inm !== undefined && etagMatches(inm, result.etag);
    if (notModified || result.bytes.length < MIN_BYTES)
      return { notModified, body: result.bytes, encoding: null };
    const accept = headers["accept-encoding"];
    const chosen = accept === undefined ? null : chooseEncoding(accept);
    if (chosen === null) return { notModified, body: result.bytes, encoding: null };
    const packed = this.o.compressed.get(etagKey(chosen, result.etag, result.bytes.length));
    return packed === undefined ? null : { notModified, body: packed, encoding: chosen };
  }

  /**
   * Authorizes and meters the call, takes its body (`body`: the cached one, or its read; `known`: the cached
   * body as it goes out), and answers; a refused call, a failed read or an encoding not cached yet goes to Koa.
   */
  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    next: Next,
    control: DataControl,
    body: JsonResult | (() => Promise<JsonResult>),
    known: Outgoing | null,
  ): void {
    const start = performance.now();
    const headers = req.headers;
    const url = req.url!;
    const ip = clientOf(req, this.o.trust);
    const requestId = sanitizeRequestId(headers["x-request-id"] as string | undefined);
    const toKoa = (decision: AccessDecision) => {
      predecisions.set(req, decision);
      next(req, res);
    };
    const send = (decision: Granted, result: JsonResult, out: Outgoing) => {
      this.write(res, requestId, control, decision, result, out, req.method === "HEAD");
      this.o.log({
        time: isoNow(),
        level: "info",
        requestId,
        method: req.method!,
        path: loggedPath(url.split("?", 1)[0]!),
        status: out.notModified ? 304 : 200,
        ms: Math.round((performance.now() - start) * 100) / 100,
        ip,
        via: decision.via,
      });
    };
    this.o.access
      .authorize({
        authorization: headers.authorization,
        ip,
        keyless: control.keyless,
        operation: control.operation,
      })
      .then(
        (decision): void | Promise<void> => {
          if (!decision.ok) return toKoa(decision);
          if (typeof body !== "function") return send(decision, body, known!);
          return body().then(
            (result) => {
              this.remember(url, { key: result.key, ...control });
              const out = this.outgoing(req, result);
              if (out === null) toKoa(decision);
              else send(decision, result, out);
            },
            () => toKoa(decision),
          );
        },
        // The access store failed (a database outage): Koa asks again and maps the error.
        () => next(req, res),
      )
      // Nothing above should throw; if it does, Koa answers while it still can (never an unhandled rejection).
      .catch((error: unknown) => {
        if (!res.headersSent) next(req, res);
        else res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
  }

  /** The answer's headers, in the order Koa's middleware sets them, and its body. */
  private write(
    res: ServerResponse,
    requestId: string,
    control: DataControl,
    decision: Granted,
    result: JsonResult,
    out: Outgoing,
    head: boolean,
  ): void {
    const { notModified, body, encoding } = out;
    const h: string[] = ["X-Request-Id", requestId, ...this.fixed];
    h.push(
      "Vary",
      notModified || result.bytes.length < MIN_BYTES ? "Origin" : "Origin, Accept-Encoding",
      "Access-Control-Allow-Origin",
      "*",
      "Access-Control-Expose-Headers",
      EXPOSE,
    );
    for (const name in decision.headers) h.push(name, decision.headers[name]!);
    h.push("ETag", result.etag, "Cache-Control", control.cacheControl);
    if (!notModified) {
      h.push("Content-Type", JSON_TYPE, "Content-Length", String(body.length));
      if (encoding !== null) h.push("Content-Encoding", encoding);
    }
    res.writeHead(notModified ? 304 : 200, h);
    res.end(notModified || head ? undefined : body);
  }
}
