/** The options, inputs and decisions of `AccessStore.authorize`, and the answers it builds. */

import { RangesError } from "@ranges/core";
import { secondsToUtcMidnight } from "./clock.js";

export const DEFAULT_KEYLESS_DAILY_LIMIT = 200;
/** Live keys one account may hold unless `maxLiveKeysPerAccount` says otherwise. */
export const MAX_LIVE_KEYS_PER_ACCOUNT = 25;
export const AUTH_REALM = "preflop-ranges";

export interface AccessOptions {
  /** Calls per UTC day per IP without a key (default 200). */
  keylessDailyLimit?: number;
  /** Injected clock for tests; defaults to the system time. */
  clock?: () => Date;
  /**
   * Longest time counts wait in memory before they are written (default 100 ms; 0 writes at the end of
   * the event-loop turn). Larger batches mean fewer commits; a crash loses at most this window (and the write
   * in flight).
   */
  flushIntervalMs?: number;
  /**
   * A server that meters calls: on SQLite, take the file's lock so that no other process meters it at the
   * same time (limits stay exact); refused with a message while another live process holds it. No effect on
   * PostgreSQL (exact across processes) or ":memory:".
   */
  exclusive?: boolean;
  /** PostgreSQL only: the schema to use (created if missing). */
  schema?: string;
  /**
   * Live keys one account may hold (default 25): `createKey` with an `accountId` refuses one more with a 400
   * (`invalid_parameter`), atomically on both back ends (`db/key-rows.ts`). Keys without an account (the
   * CLI's) are not limited.
   */
  maxLiveKeysPerAccount?: number;
}

export interface AuthorizeInput {
  /** The raw `Authorization` header, if any. */
  authorization?: string | undefined;
  /**
   * A key the caller has already been authenticated as (an OAuth access token that stands for the key; see
   * `keyIdForGrant`): used instead of `authorization`, checked to be live and metered like a presented key.
   */
  keyId?: string | undefined;
  /** Client address (already resolved through trusted proxies by the caller). */
  ip: string;
  /** Whether the operation accepts a missing key (then the IP allowance counts the call). */
  keyless: boolean;
  /** Human name of the operation, used only in messages (e.g. "node on nlmtt8"). */
  operation?: string | undefined;
  /**
   * A free operation (feature requests): it needs a valid key but is not counted on the key's meter and
   * is allowed even when the quota is spent. Implies a key is required.
   */
  free?: boolean;
}

export type AccessDecision =
  | { ok: true; via: "key" | "ip"; keyId?: string; plan?: string; headers: Record<string, string> }
  | { ok: false; error: RangesError; headers: Record<string, string> };

/**
 * The answer for a call on a meter once counted: `count` is the meter's total with this call. Allowed calls
 * on a limited meter carry the RateLimit headers; a spent meter is 429 with Retry-After to 00:00 UTC.
 */
export function limitDecision(
  limit: number | null,
  count: number,
  now: Date,
  via: "key" | "ip",
  plan?: string,
): AccessDecision {
  if (limit === null) return { ok: true, via, headers: {} };
  const reset = secondsToUtcMidnight(now);
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": String(Math.max(0, limit - count)),
    "RateLimit-Reset": String(reset),
  };
  if (count <= limit) return { ok: true, via, headers };
  headers["Retry-After"] = String(reset);
  const resetsAt = new Date(now.getTime() + reset * 1000).toISOString();
  const message =
    via === "ip"
      ? `The keyless allowance of ${limit} calls per day for your IP address is spent. It resets at 00:00 UTC (in ${reset} s); send an API key ("Authorization: Bearer <API key>") to keep going.`
      : `The daily quota of ${limit} calls for this key (plan ${plan}) is spent. It resets at 00:00 UTC (in ${reset} s).`;
  return {
    ok: false,
    error: new RangesError("rate_limited", message, {
      limit,
      meter: via,
      retryAfterSeconds: reset,
      resetsAt,
    }),
    headers,
  };
}

/** A refused call: 401 with a Bearer challenge (`invalid_token` when a key was sent but is bad). */
export function unauthorizedDecision(message: string, badKey: boolean): AccessDecision {
  const challenge = badKey
    ? `Bearer realm="${AUTH_REALM}", error="invalid_token"`
    : `Bearer realm="${AUTH_REALM}"`;
  return {
    ok: false,
    error: new RangesError("unauthorized", message),
    headers: { "WWW-Authenticate": challenge },
  };
}
