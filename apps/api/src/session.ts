/**
 * The site's session: its cookie (HTTP-only, SameSite=Lax, Secure and `__Host-` over https), reading the
 * signed-in session, and the CSRF checks of state-changing calls. Used by the account area and the OAuth
 * sign-in pages.
 */

import type { AccountStore, SessionInfo } from "@ranges/access";
import { sameSecret } from "@ranges/access";
import { RangesError } from "@ranges/core";
import type Koa from "koa";

/** Live keys one account may hold at a time. */
export const MAX_KEYS_PER_ACCOUNT = 25;

export interface SessionCookie {
  name: string;
  secure: boolean;
}

/** The session cookie's name and flags for a public URL: `__Host-` and Secure over https. */
export function sessionCookie(publicUrl: string | undefined): SessionCookie {
  const secure = publicUrl?.startsWith("https://") === true;
  return { name: secure ? "__Host-ranges_session" : "ranges_session", secure };
}

/** The value of one cookie of the request, or undefined. */
export function readCookie(ctx: Koa.Context, name: string): string | undefined {
  const header = ctx.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function setSessionCookie(
  ctx: Koa.Context,
  c: SessionCookie,
  value: string,
  maxAgeSeconds: number,
): void {
  const parts = [
    `${c.name}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
  ];
  if (c.secure) parts.push("Secure");
  ctx.append("Set-Cookie", parts.join("; "));
}

/** The signed-in session of a request, or null. */
export async function sessionOf(
  ctx: Koa.Context,
  accounts: AccountStore,
  cookie: SessionCookie,
): Promise<SessionInfo | null> {
  return accounts.session(readCookie(ctx, cookie.name));
}

/**
 * Refuses a state-changing request that a cross-site page could send: 400 `bad_request` for a POST that is
 * not JSON (a form post), 403 `forbidden` for an `Origin` other than this site's.
 */
export function checkSameOrigin(ctx: Koa.Context, publicUrl: string | undefined): void {
  // A POST must be JSON; a DELETE has no body (and, like JSON, no cross-site form can send one).
  if (ctx.method === "POST" && !ctx.is("application/json")) {
    throw new RangesError(
      "bad_request",
      'Send the body as JSON with "Content-Type: application/json" (the account area refuses form posts).',
    );
  }
  const origin = ctx.get("origin");
  if (origin) {
    const own = publicUrl ? new URL(publicUrl).origin : `${ctx.protocol}://${ctx.host}`;
    if (origin !== own) {
      throw new RangesError(
        "forbidden",
        "This request comes from another site (its Origin is not this site's): account changes are made from this site's own pages only.",
      );
    }
  }
}

/** 403 `forbidden` unless the request carries the session's CSRF token in `X-CSRF-Token`. */
export function checkCsrf(
  ctx: Koa.Context,
  session: SessionInfo,
  retry = "reload the account page and try again",
): void {
  const token = ctx.get("x-csrf-token");
  if (!token || !sameSecret(token, session.csrfToken)) {
    throw new RangesError("forbidden", `The X-CSRF-Token header is missing or not this session's: ${retry}.`);
  }
}
