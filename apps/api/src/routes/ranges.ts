/**
 * The preflop ranges: `/api/v1/ranges/games` (the catalog), `/api/v1/ranges/{game}` (discovery) and
 * `/api/v1/ranges/{game}/node|range|spots|config` (nl/v2 as two segments).
 *
 * Per data request: resolve the game (404 unknown_game), check the game serves the operation (404),
 * authorize and meter (401/429, headers set either way), validate the query (400), ask the store for the
 * cached body and ETag, answer 304 when `If-None-Match` matches. A 304 is metered like a 200: the caller
 * still asked, and counting it keeps the allowance independent of client caches.
 *
 * The same routes are matched twice: by `fastPath`, plain string operations that the app runs before the
 * router (these are the hot paths, and @koa/router costs several microseconds and a composed middleware
 * chain per request), and by the router for anything else (percent-encoded segments, other methods), with
 * the same handlers, so the answers are identical.
 */

import type Router from "@koa/router";
import { GAME_IDS, GAMES, type GameId, isKeyless, type Operation, RangesError } from "@ranges/core";
import { readWithUndealtFolds } from "@ranges/queue";
import {
  type JsonResult,
  parseFullParam,
  parseGameParam,
  parseMinFreqParam,
  parsePathParam,
  parseStackParam,
  type RangeStore,
} from "@ranges/store";
import type Koa from "koa";
import type { Auth } from "../http/auth.js";
import { CACHE_DATA, CACHE_META, sendCached } from "../http/caching.js";
import type { DataPlan, FastEntry } from "../http/fast-get.js";
import { parseQuery } from "../query.js";
import type { Ctx, RequestState } from "../services.js";

export type DataOp = "node" | "range" | "spots" | "config";

const PARAMS: Record<DataOp, readonly string[]> = {
  node: ["stack", "history", "hand", "minFreq", "full"],
  range: ["stack", "spot", "hand", "minFreq"],
  spots: ["stack"],
  config: ["stack"],
};
const DATA_OPS = Object.keys(PARAMS) as DataOp[];

function notServed(game: GameId, op: Operation): RangesError {
  const servedBy = GAME_IDS.filter((g) => GAMES[g].serves.includes(op));
  return new RangesError(
    "not_found",
    `/${op} is not served for ${game}; it is served for ${servedBy.join(", ")}. ${game} serves ${GAMES[
      game
    ].serves
      .filter((o) => o !== "discovery")
      .map((o) => `/${o}`)
      .join(", ")}.`,
    { servedBy },
  );
}

/** Serves one data query; `solution`: a finished solve's own store and stack (no `stack` parameter then). */
export type ServeData = (
  ctx: Ctx,
  game: GameId,
  op: DataOp,
  solution?: {
    store: RangeStore;
    stack: number;
    /** Seats the solve did not deal in: a path that starts at a dealt seat gets their folds in front. */
    undealt?: readonly string[];
  },
) => Promise<void>;

export interface RangesRoutes {
  /** The string-matching fast path of the GET and HEAD data routes (the app mounts it first). */
  readonly fastPath: Koa.Middleware<RequestState>;
  readonly serveData: ServeData;
  /** The fast path's plan of a data URL it does not remember (null: Koa decides). */
  readonly plan: (url: string) => DataPlan | null;
}

export function registerRangesRoutes(
  router: Router<RequestState>,
  {
    store,
    auth,
    remember,
  }: {
    store: RangeStore;
    auth: Auth;
    /** Called after a data GET of the store answered 200: the fast path may answer that URL from now on. */
    remember?: (url: string, entry: FastEntry) => void;
  },
): RangesRoutes {
  // Data queries go through `jsonAsync`: a pack not in memory is read off the event loop.
  const serveData: ServeData = async (ctx, game, op, solution) => {
    if (!solution) {
      if (!GAMES[game].serves.includes(op)) throw notServed(game, op);
      await auth.authorize(ctx, isKeyless(game, op), `/${op} on ${game}`);
    }
    const result = await readData(solution?.store ?? store, game, op, ctx.querystring, solution);
    const cacheControl = solution ? "private, no-cache" : cacheControlOf(game, op);
    sendCached(ctx, result, cacheControl);
    if (!solution && remember) {
      remember(ctx.url, {
        key: result.key,
        keyless: isKeyless(game, op),
        operation: `/${op} on ${game}`,
        cacheControl,
      });
    }
  };

  const serveDiscovery = async (ctx: Ctx, game: GameId) => {
    await auth.authorize(ctx, isKeyless(game, "discovery"), `discovery of ${game}`);
    parseQuery(ctx.querystring, []);
    sendCached(ctx, store.json({ kind: "discovery", game }), CACHE_META);
  };

  const serveCatalog = async (ctx: Ctx) => {
    await auth.authorize(ctx, true, "the game catalog");
    parseQuery(ctx.querystring, []);
    sendCached(ctx, store.json({ kind: "catalog" }), CACHE_META);
  };

  router.get("/api/v1/ranges/games", serveCatalog);
  // nl/v2 spans two segments: its routes come before the one-segment `:game` routes.
  router.get("/api/v1/ranges/nl/v2", (ctx) => serveDiscovery(ctx, "nl/v2"));
  for (const op of DATA_OPS) {
    router.get(`/api/v1/ranges/nl/v2/${op}`, (ctx) => serveData(ctx, "nl/v2", op));
  }
  router.get("/api/v1/ranges/:game", (ctx) => serveDiscovery(ctx, parseGameParam(ctx.params.game!)));
  for (const op of DATA_OPS) {
    router.get(`/api/v1/ranges/:game/${op}`, (ctx) => serveData(ctx, parseGameParam(ctx.params.game!), op));
  }

  const fastPath: Koa.Middleware<RequestState> = (ctx, next) => {
    const method = ctx.method;
    if ((method === "GET" || method === "HEAD") && ctx.path.startsWith(RANGES_PREFIX)) {
      const route = fastRoute(ctx.path);
      if (route !== null) {
        if (route.op === "catalog") return serveCatalog(ctx);
        const game = parseGameParam(route.game);
        return route.op === "discovery" ? serveDiscovery(ctx, game) : serveData(ctx, game, route.op);
      }
    }
    return next();
  };
  /** The fast path's plan of a data URL it does not remember: what `fastPath` and `serveData` would do. */
  const plan = (url: string): DataPlan | null => {
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const querystring = q < 0 ? "" : url.slice(q + 1);
    // Only plain URLs: anything Koa's URL parsing might read otherwise stays with Koa.
    if (url.includes("#") || querystring.includes("?")) return null;
    const route = fastRoute(path);
    if (route === null || route.op === "catalog" || route.op === "discovery") return null;
    const game = route.game as GameId;
    if (!(GAME_IDS as readonly string[]).includes(game) || !GAMES[game].serves.includes(route.op))
      return null;
    const op = route.op;
    return {
      keyless: isKeyless(game, op),
      operation: `/${op} on ${game}`,
      cacheControl: cacheControlOf(game, op),
      read: () => readData(store, game, op, querystring),
    };
  };

  return { fastPath, serveData, plan };
}

/**
 * The body of a data query, once the call is authorized: its parameters checked (400), the body from the
 * store's cache or built. `solution`: a finished solve's own store and stack (no `stack` parameter then).
 */
async function readData(
  source: RangeStore,
  game: GameId,
  op: DataOp,
  querystring: string,
  solution?: Parameters<ServeData>[3],
): Promise<JsonResult> {
  const q = parseQuery(querystring, solution ? PARAMS[op].filter((p) => p !== "stack") : PARAMS[op]);
  const stack = solution ? solution.stack : parseStackParam(game, q.stack);
  if (op === "node") {
    const written = parsePathParam("history", q.history, game);
    const options = { hand: q.hand, minFreq: parseMinFreqParam(q.minFreq), full: parseFullParam(q.full) };
    // A solve of fewer players is read with only the seats that play; errors speak of the path as written.
    return readWithUndealtFolds(written, solution?.undealt, (history) =>
      source.jsonAsync({ kind: "node", game, stack, history, ...options }),
    );
  }
  if (op === "range") {
    const written = parsePathParam("spot", q.spot, game);
    const options = { hand: q.hand, minFreq: parseMinFreqParam(q.minFreq) };
    return readWithUndealtFolds(written, solution?.undealt, (spot) =>
      source.jsonAsync({ kind: "range", game, stack, spot, ...options }),
    );
  }
  return source.jsonAsync({ kind: op, game, stack });
}

/** The Cache-Control of a data answer: shared caches may keep keyless answers only. */
function cacheControlOf(game: GameId, op: DataOp): string {
  return isKeyless(game, op) ? CACHE_DATA : KEYED_DATA;
}

/**
 * A keyed answer is the caller's: a shared cache must not serve it to callers without a key (and unmetered),
 * so only the caller's own cache may keep it (`private`), as long as the URL's body never changes.
 */
const KEYED_DATA = "private, max-age=86400, immutable";

const RANGES_PREFIX = "/api/v1/ranges/";
type FastRoute = { op: "catalog" } | { op: "discovery" | DataOp; game: string };

/** `/api/v1/ranges/...` split into game and operation, or null to let the router decide. */
function fastRoute(path: string): FastRoute | null {
  let rest = path.slice(RANGES_PREFIX.length);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  if (rest.length === 0 || rest.includes("%")) return null;
  const parts = rest.split("/");
  if (parts[0] === "nl" && parts[1] === "v2") parts.splice(0, 2, "nl/v2");
  const [game, op] = parts;
  if (parts.length === 1) return game === "games" ? { op: "catalog" } : { op: "discovery", game: game! };
  if (parts.length === 2 && (op === "node" || op === "range" || op === "spots" || op === "config")) {
    return { op, game: game! };
  }
  return null;
}
