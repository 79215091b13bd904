/**
 * Feature requests (`/api/v1/requests`): a key holder files one and lists theirs. Filing is free (not
 * counted on the key's meter, so it works with a spent quota), and therefore bounded on its own: a body of at
 * most 16 KiB, and `REQUESTS_PER_DAY` per key and UTC day (429 with Retry-After until 00:00 UTC), which the
 * access store counts and enforces atomically with the insert, for MCP's `submit_request` and every process.
 */

import type Router from "@koa/router";
import type { AccessStore } from "@ranges/access";
import { RangesError } from "@ranges/core";
import { FeatureRequestBodySchema } from "@ranges/schema";
import type { Auth } from "../http/auth.js";
import { sendPrivate } from "../http/caching.js";
import { readJsonBody } from "../mcp-body.js";
import { parseQuery } from "../query.js";
import type { RequestState } from "../services.js";

/** A feature request's JSON is a few fields and at most 4,000 characters of text. */
const REQUEST_BODY_LIMIT = 16 * 1024;

export { REQUESTS_PER_DAY } from "@ranges/access";

export function registerRequestRoutes(
  router: Router<RequestState>,
  { access, auth }: { access: AccessStore; auth: Auth },
): void {
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
    const stored = await access.submitRequest(keyId, parsed.data);
    sendPrivate(ctx, { schemaVersion: 1, request: stored }, 201);
  });

  router.get("/api/v1/requests", async (ctx) => {
    const { keyId } = await auth.keyHolder(ctx, "listing your requests");
    parseQuery(ctx.querystring, []);
    sendPrivate(ctx, { schemaVersion: 1, requests: await access.listRequests(keyId) });
  });
}
