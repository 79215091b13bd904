/** Liveness (`/healthz`), readiness (`/readyz`: packs and the account database) and the OpenAPI document. */

import type Router from "@koa/router";
import type { AccessStore } from "@ranges/access";
import { buildOpenApiDocument } from "@ranges/schema";
import type { RangeStore } from "@ranges/store";
import { JSON_TYPE, type RequestState } from "../services.js";

export function registerHealthRoutes(
  router: Router<RequestState>,
  { store, access }: { store: RangeStore; access: AccessStore },
): void {
  const openapi = JSON.stringify(buildOpenApiDocument("/"));
  router.get("/healthz", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "ok" };
  });
  router.get("/readyz", async (ctx) => {
    const packs = store.packStatus();
    const live = packs.filter((p) => p.ok).length;
    const accessOk = await access.ping();
    ctx.set("Cache-Control", "no-store");
    ctx.status = accessOk ? 200 : 503;
    ctx.body = {
      status: accessOk ? "ready" : "not_ready",
      access: accessOk ? "ok" : "unavailable",
      packs: { live, failed: packs.length - live },
    };
  });
  router.get("/api/v1/openapi.json", (ctx) => {
    ctx.set("Cache-Control", "public, max-age=3600");
    ctx.set("Content-Type", JSON_TYPE);
    ctx.body = openapi;
  });
}
