/**
 * Heads-up postflop (`/api/v1/postflop/...`): the same reads as the MCP postflop tools, in the same analysis
 * envelope. Listing the packs is keyless; the reads need a key and are counted on its meter. A read that
 * goes on past the stored street solves the turn or river on demand: it runs as its caller
 * (`subgameCaller`), so each caller holds at most its share of that solver, and a combo that cannot be a
 * hand on the board is refused before anything is solved.
 */

import type Router from "@koa/router";
import { RangesError } from "@ranges/core";
import {
  boardReport,
  comparePostflop,
  explainCombo,
  listPostflopPacks,
  type PostflopSource,
  postflopNode,
  postflopRange,
} from "@ranges/mcp";
import { parseBoard, parseCombo, subgameCaller } from "@ranges/postflop";
import { clip, ECHO_LIMIT } from "../errors.js";
import type { Auth } from "../http/auth.js";
import { CACHE_META } from "../http/caching.js";
import { parseQuery } from "../query.js";
import { type Ctx, JSON_TYPE, type RequestState } from "../services.js";

const POSTFLOP_PACK = /^[a-z0-9][a-z0-9-]{0,79}$/;

const postflopPack = (raw: string | undefined): string => {
  const id = (raw ?? "").toLowerCase();
  if (!POSTFLOP_PACK.test(id)) {
    throw new RangesError(
      "not_found",
      `No postflop pack "${clip(raw ?? "", ECHO_LIMIT)}": pack ids are lower-case letters, digits and hyphens; GET /api/v1/postflop/packs lists them.`,
    );
  }
  return id;
};

/** Keyed reads are the caller's: only its own cache may keep them (never a shared one). */
const KEYED = "private, max-age=300";

const sendEnvelope = (ctx: Ctx, value: unknown, cacheControl = KEYED) => {
  ctx.set("Cache-Control", cacheControl);
  ctx.set("Content-Type", JSON_TYPE);
  ctx.body = JSON.stringify(value);
};

const required = (q: Record<string, string>, name: string, example: string): string => {
  const v = q[name];
  if (v === undefined || v.trim() === "") {
    throw new RangesError("missing_parameter", `The ${name} parameter is required, e.g. ${name}=${example}.`);
  }
  return v;
};

const fraction = (q: Record<string, string>, name: string): number | undefined => {
  const v = q[name];
  if (v === undefined) return undefined;
  const x = Number(v);
  if (v.trim() === "" || !Number.isFinite(x) || x < 0 || x > 1) {
    throw new RangesError(
      "invalid_parameter",
      `The ${name} parameter must be a number from 0 to 1, e.g. ${name}=0.05.`,
    );
  }
  return x;
};

/** Runs a read as its caller, so the turn and river solver holds each caller to its share of the slots. */
const asCaller = <T>(ctx: Ctx, read: () => Promise<T>): Promise<T> =>
  subgameCaller.run(ctx.state.caller ?? `ip:${ctx.ip}`, read);

/** A combo that cannot be a hand on this board is refused (400 invalid_hand) before any solve. */
const checkCombo = (combo: string, board: string): void => {
  parseCombo(combo, parseBoard(board) ?? []);
};

export function registerPostflopRoutes(
  router: Router<RequestState>,
  { postflop, auth }: { postflop: PostflopSource | undefined; auth: Auth },
): void {
  router.get("/api/v1/postflop/packs", async (ctx) => {
    await auth.authorize(ctx, true, "the postflop pack list");
    parseQuery(ctx.querystring, []);
    sendEnvelope(ctx, listPostflopPacks(postflop), CACHE_META);
  });

  router.get("/api/v1/postflop/compare", async (ctx) => {
    await auth.authorize(ctx, false, "postflop compare");
    const q = parseQuery(ctx.querystring, [
      "baselinePack",
      "baselineBoard",
      "baselinePath",
      "comparisonPack",
      "comparisonBoard",
      "comparisonPath",
      "combo",
      "limit",
    ]);
    const limit = q.limit === undefined ? 10 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 50) {
      throw new RangesError("invalid_parameter", "The limit parameter must be a whole number from 1 to 50.");
    }
    const side = (name: "baseline" | "comparison") => ({
      pack: postflopPack(required(q, `${name}Pack`, "srp-btn-bb-100bb")),
      board: required(q, `${name}Board`, "QsJh2h"),
      path: q[`${name}Path`] ?? "",
      ...(q.combo === undefined ? {} : { combo: q.combo }),
    });
    const [baseline, comparison] = [side("baseline"), side("comparison")];
    if (q.combo !== undefined) {
      checkCombo(q.combo, baseline.board);
      checkCombo(q.combo, comparison.board);
    }
    sendEnvelope(ctx, await asCaller(ctx, () => comparePostflop(postflop, baseline, comparison, limit)));
  });

  router.get("/api/v1/postflop/:pack/node", async (ctx) => {
    await auth.authorize(ctx, false, "postflop node");
    const q = parseQuery(ctx.querystring, ["board", "path", "combo"]);
    const pack = postflopPack(ctx.params.pack);
    const board = required(q, "board", "QsJh2h");
    if (q.combo !== undefined) checkCombo(q.combo, board);
    sendEnvelope(
      ctx,
      await asCaller(ctx, () => postflopNode(postflop, { pack, board, path: q.path ?? "", combo: q.combo })),
    );
  });

  router.get("/api/v1/postflop/:pack/range", async (ctx) => {
    await auth.authorize(ctx, false, "postflop range");
    const q = parseQuery(ctx.querystring, ["board", "path", "action", "minReach"]);
    const pack = postflopPack(ctx.params.pack);
    const args = {
      pack,
      board: required(q, "board", "QsJh2h"),
      path: q.path ?? "",
      action: q.action,
      minReach: fraction(q, "minReach"),
    };
    sendEnvelope(ctx, await asCaller(ctx, () => postflopRange(postflop, args)));
  });

  router.get("/api/v1/postflop/:pack/explain", async (ctx) => {
    await auth.authorize(ctx, false, "postflop explain");
    const q = parseQuery(ctx.querystring, ["board", "path", "combo"]);
    const pack = postflopPack(ctx.params.pack);
    const board = required(q, "board", "QsJh2h");
    const combo = required(q, "combo", "AhKh");
    checkCombo(combo, board);
    sendEnvelope(
      ctx,
      await asCaller(ctx, () => explainCombo(postflop, { pack, board, path: q.path ?? "", combo })),
    );
  });

  router.get("/api/v1/postflop/:pack/report", async (ctx) => {
    await auth.authorize(ctx, false, "postflop board report");
    const q = parseQuery(ctx.querystring, [
      "path",
      "pairedness",
      "suitTexture",
      "connectivity",
      "highCardClass",
    ]);
    const pack = postflopPack(ctx.params.pack);
    const filters = {
      pairedness: q.pairedness,
      suitTexture: q.suitTexture,
      connectivity: q.connectivity,
      highCardClass: q.highCardClass,
    };
    sendEnvelope(ctx, boardReport(postflop, { pack, path: q.path ?? "", filters }));
  });
}
