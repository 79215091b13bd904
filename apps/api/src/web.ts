/**
 * The web site (apps/web, built by Vite to its dist/) served at `/`: files by path, and the pages of the
 * site (the viewer at `/`, the postflop board browser at `/postflop`, the account area under `/account`,
 * the OAuth sign-in pages under `/oauth/`) as its index.html. Hashed assets are cached for a year; HTML is revalidated on every load. Everything under
 * `/api/` and `/.well-known/` is left to the API's own routes.
 */

import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { RangesError } from "@ranges/core";
import type Koa from "koa";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
};

/** The site's pages: each is served as index.html, and the script shows the right one. */
const PAGES = /^\/(account(\/[a-z-]*)?|postflop|oauth\/interaction\/[A-Za-z0-9_-]{1,128})?$/;

/**
 * Content-Security-Policy of the HTML: scripts, styles and requests only from this origin (inline style
 * attributes are allowed: the grid colours each cell with one), no framing.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** Koa middleware serving `root` (a Vite build directory); anything it does not serve goes to `next`. */
export function serveWeb(root: string): Koa.Middleware {
  const base = normalize(root.endsWith(sep) ? root : root + sep);
  return async (ctx, next) => {
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return next();
    const path = ctx.path;
    if (path.startsWith("/api/") || path.startsWith("/.well-known/")) return next();
    let file: string | null = null;
    let page = false;
    if (PAGES.test(path) || path === "/index.html") {
      file = join(base, "index.html");
      page = true;
    } else if (/^\/[A-Za-z0-9._/-]{1,200}$/.test(path) && !path.includes("..")) {
      const candidate = normalize(join(base, path));
      if (candidate.startsWith(base)) file = candidate;
    }
    if (file === null) return next();
    let body: Buffer;
    try {
      const info = await stat(file);
      if (!info.isFile()) return next();
      body = await readFile(file);
    } catch {
      if (!page) return next();
      throw new RangesError(
        "not_found",
        "The web site is not built on this server: run `pnpm build` (or `pnpm start`, which builds first).",
      );
    }
    ctx.type = TYPES[extname(file)] ?? "application/octet-stream";
    if (page || extname(file) === ".html") {
      ctx.set("Cache-Control", "no-cache");
      ctx.set("Content-Security-Policy", PAGE_CSP);
      ctx.set("X-Frame-Options", "DENY");
    } else {
      ctx.set(
        "Cache-Control",
        path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
      );
    }
    ctx.body = body;
  };
}
