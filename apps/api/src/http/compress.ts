/**
 * Response compression with node:zlib: brotli or gzip as the request's `Accept-Encoding` prefers (brotli on
 * a tie), for compressible types (JSON, JavaScript, CSS, HTML, SVG, text) of at least 1 KiB. Compression runs
 * on libuv's thread pool, never on the event loop. Answers that will be sent again (those with an ETag, and
 * any body of 16 KiB or more, keyed by its hash) are compressed once and kept in a bounded cache, so the
 * cached GETs stay cheap. The ETag stays the same for every encoding (If-None-Match is compared weakly, and
 * a 304 cannot know which encoding the client holds), and `Vary: Accept-Encoding` keeps caches apart.
 * A request without `Accept-Encoding` costs one header read.
 */

import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type Koa from "koa";
import { LRUCache } from "lru-cache";
import type { RequestState } from "../services.js";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const COMPRESSIBLE = /^(application\/(json|javascript|manifest\+json)|text\/|image\/svg\+xml)/i;
/** Bodies shorter than this are sent as they are (and without `Vary: Accept-Encoding`). */
export const MIN_BYTES = 1024;
const HASHED_FROM = 16 * 1024;

export type Encoding = "br" | "gzip";

/** The compressed cache's key of a body with an ETag (the cached GETs' fast path reads the same entries). */
export const etagKey = (encoding: Encoding, etag: string, length: number): string =>
  `${encoding}:${etag}:${length}`;

/** The encoding `Accept-Encoding` asks for: brotli, else gzip, else none (q=0 refuses one). */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  let br = -1;
  let gzipQ = -1;
  let star = -1;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    let q = 1;
    for (const p of params) {
      const m = /^\s*q=([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (name === "br") br = q;
    else if (name === "gzip" || name === "x-gzip") gzipQ = q;
    else if (name === "*") star = q;
  }
  if (br < 0) br = star;
  if (gzipQ < 0) gzipQ = star;
  if (br > 0 && br >= gzipQ) return "br";
  if (gzipQ > 0) return "gzip";
  return null;
}

/**
 * Compressed bodies by encoding and identity, least recently used first out, at most `maxBytes` in all (a
 * body over a quarter of that is not kept). `lru-cache` keeps recency in its own lists: re-adding a hot key
 * to a Map on every hit would leave a dead entry in the key's hash chain each time.
 */
export class CompressedCache {
  private readonly entries: LRUCache<string, Buffer>;
  constructor(maxBytes = 16 * 1024 * 1024) {
    // lru-cache needs a positive size: a cache of 0 bytes keeps nothing (no body fits its quarter).
    this.entries = new LRUCache<string, Buffer>({
      maxSize: Math.max(1, maxBytes),
      maxEntrySize: Math.max(1, maxBytes / 4),
      sizeCalculation: (value) => Math.max(1, value.length),
    });
  }
  get(key: string): Buffer | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: Buffer): void {
    this.entries.set(key, value);
  }
}

export function compression(o: { cache?: CompressedCache } = {}): Koa.Middleware<RequestState> {
  const cache = o.cache ?? new CompressedCache();
  return async (ctx, next) => {
    const accept = ctx.req.headers["accept-encoding"];
    await next();
    const body = ctx.body;
    if (ctx.respond === false || body === null || body === undefined) return;
    if (typeof body !== "string" && !Buffer.isBuffer(body)) return;
    if (ctx.status === 204 || ctx.status === 304 || ctx.response.get("Content-Encoding")) return;
    const type = ctx.response.get("Content-Type");
    if (!COMPRESSIBLE.test(type)) return;
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    if (bytes.length < MIN_BYTES) return;
    ctx.vary("Accept-Encoding");
    const encoding = chooseEncoding(typeof accept === "string" ? accept : undefined);
    if (encoding === null || /\bno-transform\b/i.test(ctx.response.get("Cache-Control"))) return;
    const etag = ctx.response.get("ETag");
    const key = etag
      ? etagKey(encoding, etag, bytes.length)
      : bytes.length >= HASHED_FROM
        ? `${encoding}:${createHash("sha256").update(bytes).digest("base64url")}`
        : null;
    let packed = key === null ? undefined : cache.get(key);
    if (!packed) {
      packed =
        encoding === "br"
          ? await brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 5,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            })
          : await gz(bytes, { level: 6 });
      if (key !== null) cache.set(key, packed);
    }
    ctx.set("Content-Encoding", encoding);
    ctx.body = packed;
  };
}
