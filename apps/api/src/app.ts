/**
 * The Koa app, composed. Middleware, outermost first:
 *   1. request id, client address, security headers, error mapping and the one log line per request
 *   2. CORS (every origin; preflight answered here)
 *   3. request shape: URL length (414), Host, no body on GET/HEAD (400)
 *   4. routes: the string-matching fast path of the data GETs first, then OAuth's own endpoints, then
 *      @koa/router with every resource's routes, then the web site
 *   5. fallback: 405 with `Allow` when the path exists for another method, else 404
 * The server `listen` creates (http-server.ts) answers what never reaches Koa, and the data GETs of /node,
 * /range, /spots and /config are answered before Koa (http/fast-get.ts): from the store's cache, or with the
 * body read on a miss; a refused or failed call goes on to Koa, which answers it.
 */

import type { Server } from "node:http";
import cors from "@koa/cors";
import Router from "@koa/router";
import { AccountStore } from "@ranges/access";
import Koa from "koa";
import { registerAccountRoutes } from "./account.js";
import { clientAddress, compileTrustProxy } from "./client-ip.js";
import { errorBody } from "./errors.js";
import { createAuth } from "./http/auth.js";
import { JSON_BODY_LIMIT } from "./http/bodies.js";
import { CompressedCache, compression } from "./http/compress.js";
import { FastGets } from "./http/fast-get.js";
import { fallback, isoNow, loggedPath, outermost, requestShape, sanitizeRequestId } from "./http/pipeline.js";
import { createHttpServer, EXPOSED_HEADERS, SECURITY_HEADERS } from "./http-server.js";
import { createStdoutLogger } from "./logger.js";
import { registerHealthRoutes } from "./routes/health.js";
import { registerMcpRoute } from "./routes/mcp.js";
import { registerPostflopRoutes } from "./routes/postflop.js";
import { registerRangesRoutes } from "./routes/ranges.js";
import { registerRequestRoutes } from "./routes/requests.js";
import { registerSolveRoutes } from "./routes/solves.js";
import type { AppOptions, LogLine, RequestState } from "./services.js";
import { readsUploadBody, registerUploadRoutes } from "./uploads.js";
import { serveWeb } from "./web.js";

export { loggedPath } from "./http/pipeline.js";
export type { AppOptions, LogLine, McpHandler, SolveService } from "./services.js";

export function createApp(o: AppOptions): Koa<RequestState> {
  const { store, access, oauth } = o;
  const log = o.logger ?? createStdoutLogger<LogLine>().log;
  const trust = compileTrustProxy(o.trustProxy);
  const auth = createAuth(access);
  // Pack errors name the pack relative to the packs directory, never by its absolute path.
  const roots = [store.packsDir];
  const app = new Koa<RequestState>();
  // X-Forwarded-For is read by clientAddress alone, and only from listed proxies; Koa's own reading stays off.
  app.proxy = false;
  app.silent = true;

  // With an https public URL, browsers are told to use https only (HSTS, one year).
  const hsts: Record<string, string> = o.publicUrl?.startsWith("https://")
    ? { "Strict-Transport-Security": "max-age=31536000" }
    : {};
  const compressed = new CompressedCache();
  const router = new Router<RequestState>();
  const ranges = registerRangesRoutes(router, { store, auth, remember: (url, e) => fast.remember(url, e) });
  const fast = new FastGets({
    store,
    access,
    trust,
    log,
    compressed,
    headers: { ...SECURITY_HEADERS, ...hsts },
    plan: ranges.plan,
  });
  registerHealthRoutes(router, { store, access });
  registerSolveRoutes(router, { solves: o.solves, auth, serveData: ranges.serveData });
  registerPostflopRoutes(router, { postflop: o.postflop, auth });
  registerRequestRoutes(router, { access, auth });
  registerAccountRoutes(router as unknown as Router, {
    access,
    accounts: new AccountStore(
      access.database,
      o.signUpDailyLimit === undefined ? {} : { maxSignUpsPerIp: o.signUpDailyLimit },
    ),
    solves: o.solves,
    publicUrl: o.publicUrl,
    onKeyRevoked: oauth ? (keyId) => oauth.revokeKey(keyId) : undefined,
  });
  oauth?.registerRoutes(router as unknown as Router);
  registerUploadRoutes(router, o.hands);
  registerMcpRoute(router, { mcpHandler: o.mcpHandler, oauth });

  app.use(outermost({ trust, roots, log, headers: hsts }));
  app.use(compression({ cache: compressed }));
  app.use(
    cors({
      origin: "*",
      allowMethods: ["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
      allowHeaders: ["Authorization", "Content-Type", "If-None-Match", "X-Request-Id", "Mcp-Session-Id"],
      exposeHeaders: [...EXPOSED_HEADERS],
      maxAge: 86400,
    }),
  );
  app.use(requestShape);
  app.use(ranges.fastPath);
  if (oauth) app.use(oauth.middleware);
  app.use(router.routes());
  if (o.webRoot) {
    // The site's files, but not its source maps (they are for the developers' own builds).
    const web = serveWeb(o.webRoot);
    app.use((ctx, next) => (ctx.path.toLowerCase().endsWith(".map") ? next() : web(ctx, next)));
  }

  /** The methods served at a path (empty when there is no such path). */
  const allowedAt = (path: string, method: string): Set<string> => {
    const allowed = new Set<string>();
    for (const layer of router.match(path, method).path) for (const m of layer.methods) allowed.add(m);
    return allowed;
  };
  app.use(fallback(allowedAt));

  // The server: explicit limits and timeouts, and the error body also for what Node's HTTP parser rejects,
  // for timeouts and for CONNECT, which never reach Koa (see http-server.ts).
  app.listen = ((...args: Parameters<Server["listen"]>) => {
    const server = createHttpServer(
      fast.handler(app.callback()),
      {
        readsBody: (req) => {
          if (readsUploadBody(req)) return true;
          if (req.method !== "POST" || o.mcpHandler === undefined) return false;
          if ((req.url ?? "").split("?")[0] !== "/api/mcp") return false;
          const declared = Number(req.headers["content-length"]);
          return !(Number.isFinite(declared) && declared > JSON_BODY_LIMIT);
        },
        requestId: sanitizeRequestId,
        allowAt: (target) => {
          const allowed = allowedAt(target.split("?")[0] ?? "", "GET");
          return allowed.size > 0 ? [...allowed].join(", ") : "GET, HEAD, OPTIONS";
        },
        clientIp: (peer, headers) => clientAddress(peer, headers?.["x-forwarded-for"], trust),
        body: (error) => errorBody(error, { roots }),
        // An upload link's token is a credential: never logged, also when the HTTP layer refuses the request.
        log: (r) => log({ ...r, path: loggedPath(r.path), time: isoNow(), level: "warn", ms: 0 }),
      },
      o.http,
    );
    return server.listen(...args);
  }) as typeof app.listen;

  return app;
}
