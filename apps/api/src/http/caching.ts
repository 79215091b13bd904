/** Caching headers and conditional answers (ETag, If-None-Match, 304). */

import { type Ctx, JSON_TYPE } from "../services.js";

/** Node, range, spots and config bodies never change for a URL (spec: cacheable by URL). */
export const CACHE_DATA = "public, max-age=86400, immutable";
/** Catalog and discovery list live stacks, which change when packs are added: cache briefly. */
export const CACHE_META = "public, max-age=300";

export const quoteEtag = (etag: string): string =>
  etag.startsWith('"') || etag.startsWith('W/"') ? etag : `"${etag}"`;

/** `If-None-Match` matching with weak comparison (RFC 9110 13.1.2), including `*`. */
export function etagMatches(header: string, etag: string): boolean {
  if (header === etag || header === "*") return true;
  const bare = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const part of header.split(",")) {
    const t = part.trim();
    if (t === "*" || (t.startsWith("W/") ? t.slice(2) : t) === bare) return true;
  }
  return false;
}

/**
 * Sends a cached body (the store keeps bodies as Buffers, which Node writes much faster than long strings)
 * with its ETag and `cacheControl`, or 304 when `If-None-Match` matches.
 */
export function sendCached(ctx: Ctx, result: { bytes: Buffer; etag: string }, cacheControl: string): void {
  const etag = quoteEtag(result.etag);
  ctx.set("ETag", etag);
  ctx.set("Cache-Control", cacheControl);
  const inm = ctx.get("if-none-match");
  if (inm && etagMatches(inm, etag)) {
    ctx.status = 304;
    return;
  }
  ctx.set("Content-Type", JSON_TYPE);
  ctx.body = result.bytes;
}

/** A JSON answer that is never stored by caches. */
export function sendPrivate(ctx: Ctx, body: unknown, status = 200): void {
  ctx.status = status;
  ctx.set("Cache-Control", "no-store");
  ctx.body = body;
}
