/**
 * The OpenAPI document against the service: every route, the games each route serves, which operations need
 * a key, the response headers, 304 and 405, the error codes as an enum, and the account area (cookie
 * sessions, CSRF header, 403) with the OAuth metadata documents. (`pnpm lint:openapi` runs Redocly's linter
 * on the same document.)
 */

import {
  GAME_IDS,
  GAMES,
  type GameId,
  type Operation,
  RANGES_ERROR_CODES,
  type RangesErrorCode,
  statusOf,
} from "@ranges/core";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, responseJsonSchemas } from "../src/index.js";

type Json = Record<string, unknown>;
interface Op {
  operationId: string;
  parameters?: Json[];
  security?: Json[];
  responses: Record<string, Json>;
  requestBody?: Json;
}

const doc = buildOpenApiDocument("/") as {
  security: Json[];
  paths: Record<string, Record<string, Op>>;
  components: {
    schemas: Record<string, Json>;
    responses: Record<string, Json>;
    headers: Record<string, Json>;
    parameters: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
};

/** Follows a local `$ref` (one level is all the document uses). */
function deref<T = Json>(node: unknown): T {
  const ref = (node as { $ref?: string }).$ref;
  if (!ref) return node as T;
  const [, , kind, name] = ref.split("/");
  return (doc.components as unknown as Record<string, Record<string, T>>)[kind!]![name!]!;
}

const operations = (): Array<{ method: string; path: string; op: Op }> =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op })),
  );

const headersOf = (response: unknown): string[] =>
  Object.keys((deref(response) as { headers?: Json }).headers ?? {});

/** The games a documented GET path serves: its `{game}` enum, or the game written in it. */
function gamesOf(path: string, op: Op): GameId[] {
  const param = op.parameters?.map((p) => deref<{ name: string; schema: { enum?: string[] } }>(p));
  const game = param?.find((p) => p.name === "game");
  if (game) return game.schema.enum as GameId[];
  const m = /^\/api\/v1\/ranges\/(.+?)(?:\/(node|range|spots|config))?$/.exec(path);
  return m ? [m[1] as GameId] : [];
}

const operationOf = (path: string): Operation | "catalog" | null => {
  if (path === "/api/v1/ranges/games") return "catalog";
  const m = /^\/api\/v1\/ranges\/.+?\/(node|range|spots|config)$/.exec(path);
  if (m) return m[1] as Operation;
  return path.startsWith("/api/v1/ranges/") ? "discovery" : null;
};

describe("OpenAPI routes", () => {
  it("lists every route of the API, including health, readiness, the document and /api/mcp", () => {
    const routes = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        "GET /api/v1/ranges/games",
        "GET /api/v1/ranges/{game}",
        "GET /api/v1/ranges/nl/v2",
        "GET /api/v1/ranges/{game}/node",
        "GET /api/v1/ranges/{game}/range",
        "GET /api/v1/ranges/{game}/spots",
        "GET /api/v1/ranges/nl/node",
        "GET /api/v1/ranges/nl/range",
        "GET /api/v1/ranges/nl/v2/node",
        "GET /api/v1/ranges/nl/v2/range",
        "GET /api/v1/ranges/nl/v2/spots",
        "GET /api/v1/ranges/nlmtt8/config",
        "GET /healthz",
        "GET /readyz",
        "GET /api/v1/openapi.json",
        "POST /api/mcp",
      ]),
    );
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("lists each game under exactly the operations it serves, once each", () => {
    const seen = new Map<string, number>();
    for (const { path, op } of operations()) {
      const operation = operationOf(path);
      if (operation === null || operation === "catalog") continue;
      for (const game of gamesOf(path, op)) {
        expect(GAME_IDS, path).toContain(game);
        expect(GAMES[game].serves, `${path} lists ${game}`).toContain(operation);
        const key = `${game} ${operation}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    }
    for (const game of GAME_IDS) {
      for (const operation of GAMES[game].serves) {
        expect(seen.get(`${game} ${operation}`), `${game} ${operation}`).toBe(1);
      }
    }
    // Examples: /spots only for the games that have it, /config for nlmtt8 alone.
    const spots = gamesOf("/api/v1/ranges/{game}/spots", doc.paths["/api/v1/ranges/{game}/spots"]!.get!);
    expect(spots.sort()).toEqual(["nlmtt8", "plo", "plo9"]);
    expect(Object.keys(doc.paths).filter((p) => p.endsWith("/config"))).toEqual([
      "/api/v1/ranges/nlmtt8/config",
    ]);
  });

  it("says which operations need a key, as the game registry does", () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    for (const { path, op } of operations()) {
      expect(op.security, path).toBeDefined();
      const operation = operationOf(path);
      if (operation === null) continue;
      const optional = op.security!.some((s) => Object.keys(s).length === 0);
      const keyless =
        operation === "catalog" || gamesOf(path, op).every((g) => GAMES[g].keyless.includes(operation));
      expect(optional, path).toBe(keyless);
      expect(
        op.security!.some((s) => "bearer" in s),
        path,
      ).toBe(true);
    }
    expect(doc.paths["/api/v1/ranges/{game}/node"]!.get!.security).toEqual([{ bearer: [] }]);
    expect(doc.paths["/api/v1/ranges/nl/v2/node"]!.get!.security).toEqual([{}, { bearer: [] }]);
    expect(doc.paths["/api/v1/ranges/nlmtt8/config"]!.get!.security).toEqual([{}, { bearer: [] }]);
    for (const path of ["/healthz", "/readyz", "/api/v1/openapi.json"]) {
      expect(doc.paths[path]!.get!.security, path).toEqual([]);
    }
    expect(doc.paths["/api/mcp"]!.post!.security).toEqual([{}, { bearer: [] }]);
  });
});

describe("OpenAPI responses", () => {
  it("describes the headers: ETag, Cache-Control and RateLimit-* on data, X-Request-Id everywhere", () => {
    for (const { path, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(headersOf(response), `${path} ${status}`).toContain("X-Request-Id");
      }
      if (operationOf(path) === null) continue;
      for (const status of ["200", "304"]) {
        expect(headersOf(op.responses[status]), `${path} ${status}`).toEqual(
          expect.arrayContaining([
            "ETag",
            "Cache-Control",
            "RateLimit-Limit",
            "RateLimit-Remaining",
            "RateLimit-Reset",
          ]),
        );
      }
    }
    const cache = (path: string) =>
      deref<{ schema: { enum: string[] } }>(
        (deref(doc.paths[path]!.get!.responses["200"]) as { headers: Json }).headers["Cache-Control"],
      ).schema.enum;
    expect(cache("/api/v1/ranges/{game}/node")).toEqual(["public, max-age=86400, immutable"]);
    expect(cache("/api/v1/ranges/games")).toEqual(["public, max-age=300"]);
    expect(cache("/healthz")).toEqual(["no-store"]);
  });

  it("describes WWW-Authenticate on 401, Retry-After and RateLimit-* on 429, Allow on 405", () => {
    const node = doc.paths["/api/v1/ranges/{game}/node"]!.get!;
    expect(headersOf(node.responses["401"])).toContain("WWW-Authenticate");
    expect(headersOf(node.responses["429"])).toEqual(
      expect.arrayContaining(["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
    );
    for (const { path, method, op } of operations()) {
      expect(op.responses["405"], `${method} ${path}`).toBeDefined();
      expect(headersOf(op.responses["405"]), path).toContain("Allow");
    }
    for (const name of ["ETag", "RateLimitLimit", "RetryAfter", "WWWAuthenticate", "XRequestId", "Allow"]) {
      expect(doc.components.headers[name], name).toBeDefined();
    }
  });

  it("has a 304 and the If-None-Match parameter on every cacheable GET", () => {
    for (const { path, op } of operations()) {
      if (operationOf(path) === null) continue;
      expect(op.responses["304"], path).toBeDefined();
      const names = (op.parameters ?? []).map((p) => deref<{ name: string; in: string }>(p));
      expect(names, path).toContainEqual(expect.objectContaining({ name: "If-None-Match", in: "header" }));
    }
  });

  it("lists the statuses of the HTTP layer: 405, 408, 414 and 431, with 413 on /api/mcp; never 501", () => {
    for (const { path, op } of operations()) {
      for (const status of ["400", "405", "408", "414", "431", "500"]) {
        expect(op.responses[status], `${path} ${status}`).toBeDefined();
      }
      // Unknown methods and CONNECT are answered 405 (apps/api/src/http-server.ts): no 5xx for bad input.
      expect(op.responses["501"], `${path} 501`).toBeUndefined();
    }
    expect(Object.keys(doc.components.responses)).not.toContain("NotImplemented");
    expect(JSON.stringify(doc)).not.toMatch(/"501"|Not ?Implemented/i);
    expect(doc.paths["/api/mcp"]!.post!.responses["413"]).toBeDefined();
    expect(doc.paths["/api/v1/ranges/{game}/node"]!.get!.responses["503"]).toBeDefined();
  });

  it("gives the error codes as an enum, each error response naming its codes", () => {
    const error = doc.components.schemas.Error as {
      properties: { error: { properties: { code: { enum: string[] } } } };
    };
    expect(error.properties.error.properties.code.enum).toEqual([...RANGES_ERROR_CODES]);
    expect(RANGES_ERROR_CODES).toEqual(
      expect.arrayContaining(["unknown_game", "malformed_path", "rate_limited"]),
    );
    const json = responseJsonSchemas().Error as typeof error;
    expect(json.properties.error.properties.code.enum).toEqual([...RANGES_ERROR_CODES]);
    const codesNamed = (response: unknown): RangesErrorCode[] =>
      RANGES_ERROR_CODES.filter((c) =>
        String((deref(response) as { description?: string }).description).includes(`\`${c}\``),
      );
    for (const code of RANGES_ERROR_CODES) {
      const status = String(statusOf(code));
      // One generic response per status names all its codes; the account area's own may name some again.
      const named = Object.values(doc.components.responses).filter((r) => codesNamed(r).includes(code));
      expect(named.length, code).toBeGreaterThanOrEqual(1);
      const answered = operations().some(({ op }) => op.responses[status] !== undefined);
      expect(answered, `${code} ${status}`).toBe(true);
    }
    // A response given for a status names only codes of that status.
    for (const { method, path, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const code of codesNamed(response)) {
          expect(String(statusOf(code)), `${method} ${path} ${status} names ${code}`).toBe(status);
        }
      }
    }
  });
});

describe("OpenAPI: the account area and OAuth", () => {
  const account = operations().filter(({ path }) => path.startsWith("/api/v1/account"));
  const changes = account.filter(({ method, path }) => method !== "get" && !/signup|signin/.test(path));

  it("lists every account route and the OAuth metadata documents", () => {
    const routes = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        "GET /api/v1/account",
        "POST /api/v1/account/signup",
        "POST /api/v1/account/signin",
        "POST /api/v1/account/signout",
        "GET /api/v1/account/keys",
        "POST /api/v1/account/keys",
        "DELETE /api/v1/account/keys/{id}",
        "GET /api/v1/account/requests",
        "GET /api/v1/account/solves",
        "GET /.well-known/oauth-protected-resource",
        "GET /.well-known/oauth-protected-resource/api/mcp",
        "GET /.well-known/oauth-authorization-server",
        "GET /.well-known/openid-configuration",
      ]),
    );
    expect(account).toHaveLength(9);
    const oauth = doc as unknown as {
      tags: Array<{ name: string; description: string; externalDocs?: Json }>;
    };
    const tag = oauth.tags.find((t) => t.name === "oauth")!;
    expect(tag.description).toMatch(/oidc-provider's standard endpoints/);
    expect(tag.description).toContain("/oauth/token");
    expect(tag.externalDocs).toMatchObject({ url: expect.stringContaining("node-oidc-provider") });
  });

  it("secures the account routes with the session cookie, and changes with X-CSRF-Token and a 403", () => {
    expect(doc.components.securitySchemes.session).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "ranges_session",
    });
    for (const { method, path, op } of account) {
      const what = `${method} ${path}`;
      const open = /signup|signin/.test(path);
      expect(op.security, what).toEqual(open ? [] : [{ session: [] }]);
      expect(op.responses["401"] !== undefined, what).toBe(!/signup/.test(path));
      if (!open) expect(deref(op.responses["401"]!), what).not.toHaveProperty("headers.WWW-Authenticate");
    }
    for (const { method, path, op } of changes) {
      const names = (op.parameters ?? []).map((p) =>
        deref<{ name: string; in: string; required: boolean }>(p),
      );
      expect(names, `${method} ${path}`).toContainEqual({
        ...deref(doc.components.parameters.csrfToken),
        name: "X-CSRF-Token",
        in: "header",
        required: true,
      });
      expect(op.responses["403"], `${method} ${path}`).toEqual({ $ref: "#/components/responses/Forbidden" });
    }
    for (const path of ["/api/v1/account/signup", "/api/v1/account/signin"]) {
      expect(doc.paths[path]!.post!.responses["403"], path).toBeDefined();
      expect(headersOf(doc.paths[path]!.post!.responses["429"]), path).toEqual(
        expect.arrayContaining(["Retry-After", "RateLimit-Limit"]),
      );
    }
    expect(JSON.stringify(deref(doc.components.responses.Forbidden))).toContain("`forbidden`");
    expect(statusOf("forbidden")).toBe(403);
  });

  it("gives the bodies and answers as the zod schemas, the session cookie on sign-up, sign-in and sign-out", () => {
    const body = (path: string, method = "post") =>
      (doc.paths[path]![method]!.requestBody as { content: Record<string, { schema: Json }> }).content[
        "application/json"
      ]!.schema;
    expect(body("/api/v1/account/signup")).toEqual({ $ref: "#/components/schemas/SignUpBody" });
    expect(body("/api/v1/account/signin")).toEqual({ $ref: "#/components/schemas/SignInBody" });
    expect(body("/api/v1/account/signout")).toEqual({ $ref: "#/components/schemas/SignOutBody" });
    expect(body("/api/v1/account/keys")).toEqual({ $ref: "#/components/schemas/CreateKeyBody" });
    expect(doc.components.schemas.SignUpBody).toMatchObject({
      type: "object",
      required: ["email", "password"],
      additionalProperties: false,
      properties: { password: { minLength: 10, maxLength: 256 }, email: { maxLength: 254 } },
    });
    expect(doc.components.schemas.CreateKeyBody).toMatchObject({
      required: ["name"],
      properties: { name: { minLength: 1, maxLength: 100 } },
    });
    const answer = (path: string, method: string, status: string) =>
      (deref(doc.paths[path]![method]!.responses[status]) as { content: Record<string, { schema: Json }> })
        .content["application/json"]!.schema;
    expect(answer("/api/v1/account", "get", "200")).toEqual({ $ref: "#/components/schemas/AccountSession" });
    expect(answer("/api/v1/account/keys", "get", "200")).toEqual({
      $ref: "#/components/schemas/AccountKeyList",
    });
    expect(answer("/api/v1/account/keys", "post", "201")).toEqual({
      $ref: "#/components/schemas/AccountKeyCreated",
    });
    expect(answer("/api/v1/account/solves", "get", "200")).toEqual({
      $ref: "#/components/schemas/AccountSolveList",
    });
    expect(answer("/.well-known/oauth-protected-resource", "get", "200")).toEqual({
      $ref: "#/components/schemas/ProtectedResourceMetadata",
    });
    expect(answer("/.well-known/oauth-authorization-server", "get", "200")).toEqual({
      $ref: "#/components/schemas/AuthorizationServerMetadata",
    });
    expect(headersOf(doc.paths["/api/v1/account/signup"]!.post!.responses["201"])).toContain("Set-Cookie");
    expect(headersOf(doc.paths["/api/v1/account/signin"]!.post!.responses["200"])).toContain("Set-Cookie");
    expect(headersOf(doc.paths["/api/v1/account/signout"]!.post!.responses["204"])).toContain("Set-Cookie");
    for (const { method, path, op } of account) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith("2")) {
          const cache = (deref(response) as { headers: Json }).headers["Cache-Control"];
          expect(deref<{ schema: { enum: string[] } }>(cache).schema.enum, `${method} ${path}`).toEqual([
            "no-store",
          ]);
        }
      }
      // Bodies over 16 KiB are 413 where a body is read.
      expect(op.responses["413"] !== undefined, `${method} ${path}`).toBe(method === "post");
    }
  });
});
