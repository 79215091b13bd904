/**
 * Feature requests (`/api/v1/requests`): a key holder files one and lists theirs. Filing is free (not
 * counted on the key's meter, so it works with a spent quota), and therefore bounded on its own: a body of at
 * most 16 KiB, and `REQUESTS_PER_DAY` per key and UTC day (429 with Retry-After until 00:00 UTC), counted and
 * filed one at a time per key in this process.
 */

import type Router from "@koa/router";
import { type AccessStore, secondsToUtcMidnight } from "@ranges/access";
import { RangesError } from "@ranges/core";
import { FeatureRequestBodySchema } from "@ranges/schema";
import type { Auth } from "../http/auth.js";
import { sendPrivate } from "../http/caching.js";
import { readJsonBody } from "../mcp-body.js";
import { parseQuery } from "../query.js";
import type { RequestState } from "../services.js";

/** A feature request's JSON is a few fields and at most 4,000 characters of text. */
const REQUEST_BODY_LIMIT = 16 * 1024;
/** Requests one key may file per UTC day. */
export const REQUESTS_PER_DAY = 20;

export function registerRequestRoutes(
  router: Router<RequestState>,
  { access, auth }: { access: AccessStore; auth: Auth },
): void {
  // One filing at a time per key, so the day's count and the insert cannot interleave.
  const filing = new Map<string, Promise<unknown>>();
  const oneAtATime = <T>(keyId: string, run: () => Promise<T>): Promise<T> => {
    const next = (filing.get(keyId) ?? Promise.resolve()).then(run, run);
    const settled = next.catch(() => {});
    filing.set(keyId, settled);
    void settled.then(() => {
      if (filing.get(keyId) === settled) filing.delete(keyId);
    });
    return next;
  };
  const fileToday = async (keyId: string, input: Parameters<AccessStore["submitRequest"]>[1]) => {
    const now = new Date();
    const midnight = `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;
    const today = (await access.listRequests(keyId, REQUESTS_PER_DAY)).filter((r) => r.createdAt >= midnight);
    if (today.length >= REQUESTS_PER_DAY) {
      const reset = secondsToUtcMidnight(now);
      throw new RangesError(
        "rate_limited",
        `This key has filed ${REQUESTS_PER_DAY} requests today, the most one key may file per day; it resets at 00:00 UTC (in ${reset} s). Put more in one request's text (up to 4,000 characters).`,
        { limit: REQUESTS_PER_DAY, retryAfterSeconds: reset },
      );
    }
    return access.submitRequest(keyId, input);
  };

  router.post("/api/v1/requests", async (ctx) => {
    const { keyId } = await auth.keyHolder(ctx, "filing a request");
    if (!ctx.is("application/json")) {
      throw new RangesError(
        "bad_request",
        'Send the request as a JSON object with "Content-Type: application/json", e.g. {"kind":"data","text":"nl at 60bb"}.',
      );
    }
    const body = await readJsonBody(ctx.req, REQUEST_BODY_LIMIT);
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
    const stored = await oneAtATime(keyId, () => fileToday(keyId, parsed.data));
    sendPrivate(ctx, { schemaVersion: 1, request: stored }, 201);
  });

  router.get("/api/v1/requests", async (ctx) => {
    const { keyId } = await auth.keyHolder(ctx, "listing your requests");
    parseQuery(ctx.querystring, []);
    sendPrivate(ctx, { schemaVersion: 1, requests: await access.listRequests(keyId) });
  });
}
