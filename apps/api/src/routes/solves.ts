/**
 * The solve queue (`/api/v1/solves`): queue a spot (sized on the queue's sizing thread, never on this event
 * loop; refused over the plan with the estimate, or over the plan's active solves with 429), list, follow,
 * cancel, and read a finished solve's node, range and spots. Owners only: another key's solve is a 404.
 */

import type Router from "@koa/router";
import { RangesError } from "@ranges/core";
import { checkPlan, limitsOf, undealtSeats } from "@ranges/queue";
import { clip, ECHO_LIMIT } from "../errors.js";
import type { Auth } from "../http/auth.js";
import { jsonBody } from "../http/bodies.js";
import { sendPrivate } from "../http/caching.js";
import { parseQuery } from "../query.js";
import type { RequestState, SolveService } from "../services.js";
import type { ServeData } from "./ranges.js";

const SOLVE_EXAMPLE = '{"game": "nl/v2", "stack": 85}';
const SOLVE_ID = /^sol_[0-9a-f]{16}$/;

const solveId = (raw: string | undefined): string => {
  if (!raw || !SOLVE_ID.test(raw)) {
    throw new RangesError(
      "not_found",
      `No solve "${clip(raw ?? "", ECHO_LIMIT)}": solve ids look like sol_ and 16 hex characters.`,
    );
  }
  return raw;
};

export function registerSolveRoutes(
  router: Router<RequestState>,
  { solves, auth, serveData }: { solves: SolveService | undefined; auth: Auth; serveData: ServeData },
): void {
  const service = (): SolveService => {
    if (!solves) throw new RangesError("not_found", "The solve queue is not enabled on this server.");
    return solves;
  };

  router.post("/api/v1/solves", async (ctx) => {
    const { queue, worker } = service();
    const { keyId, plan } = await auth.keyHolder(ctx, "queuing a solve", false);
    const spec = await queue.size(keyId, await jsonBody(ctx, SOLVE_EXAMPLE));
    checkPlan(spec, plan);
    const job = await queue.enqueue(keyId, spec, limitsOf(plan));
    worker?.wake();
    ctx.set("Location", `/api/v1/solves/${job.id}`);
    sendPrivate(ctx, { schemaVersion: 1, solve: job }, 202);
  });

  router.get("/api/v1/solves", async (ctx) => {
    const { queue } = service();
    const { keyId } = await auth.keyHolder(ctx, "listing your solves");
    parseQuery(ctx.querystring, []);
    sendPrivate(ctx, { schemaVersion: 1, solves: await queue.list(keyId, 100) });
  });

  router.get("/api/v1/solves/:id", async (ctx) => {
    const { queue } = service();
    const { keyId } = await auth.keyHolder(ctx, "reading a solve");
    parseQuery(ctx.querystring, []);
    sendPrivate(ctx, { schemaVersion: 1, solve: await queue.require(keyId, solveId(ctx.params.id)) });
  });

  router.delete("/api/v1/solves/:id", async (ctx) => {
    const { queue } = service();
    const { keyId } = await auth.keyHolder(ctx, "cancelling a solve");
    parseQuery(ctx.querystring, []);
    sendPrivate(ctx, { schemaVersion: 1, solve: await queue.cancel(keyId, solveId(ctx.params.id)) });
  });

  for (const op of ["node", "range", "spots"] as const) {
    router.get(`/api/v1/solves/:id/${op}`, async (ctx) => {
      const { solutions } = service();
      const { keyId } = await auth.keyHolder(ctx, `/${op} of a solve`, false);
      const solution = await solutions.get(keyId, solveId(ctx.params.id));
      // A solve of fewer players is read with only the seats that play: the others' folds are added.
      const undealt = undealtSeats(solution.game, solution.job.request);
      await serveData(ctx, solution.game, op, { store: solution.store, stack: solution.stack, undealt });
    });
  }
}
