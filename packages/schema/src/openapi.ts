/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the zod schemas and the game registry of
 * @ranges/core so neither can drift. The API serves it at `/api/v1/openapi.json`.
 *
 * Routes: a data operation (node, range, spots, config) is listed for exactly the games that serve it, and
 * games whose access differs get different paths, so each path carries one security requirement: the
 * `{game}` template holds the largest group of one-segment games with the same access (its enum lists them),
 * the other games get concrete paths (`/api/v1/ranges/nl/node`, keyless, next to the keyed
 * `/api/v1/ranges/{game}/node`; concrete paths match before templates). `nl/v2` spans two path segments, so
 * it always has concrete paths. Besides: the catalog, `/healthz`, `/readyz`, this document,
 * `POST /api/mcp`, the feature requests, uploads and solve queue, the account area (`/api/v1/account/...`,
 * cookie sessions with a CSRF header; its bodies are the zod schemas of `account.ts`, which the API
 * validates with) and the OAuth metadata documents (the `/oauth/` endpoints are oidc-provider's and only
 * named).
 *
 * Every response lists its headers (`X-Request-Id` everywhere; `ETag`, `Cache-Control` and `RateLimit-*` on
 * data; `WWW-Authenticate` on 401; `Retry-After` on 429; `Allow` on 405), and errors reference one `Error`
 * body whose `code` is the enum of @ranges/core's error codes.
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
import { z } from "zod";
import {
  AccountKeyAnswerSchema,
  AccountKeyCreatedSchema,
  AccountKeyListSchema,
  AccountRequestListSchema,
  AccountSessionSchema,
  AccountSolveListSchema,
  AuthorizationServerMetadataSchema,
  CreateKeyBodySchema,
  ProtectedResourceMetadataSchema,
  SignInBodySchema,
  SignOutBodySchema,
  SignUpBodySchema,
} from "./account.js";
import {
  CatalogSchema,
  ConfigSchema,
  DiscoverySchema,
  ErrorBodySchema,
  FeatureRequestBodySchema,
  FeatureRequestCreatedSchema,
  FeatureRequestListSchema,
  HandUploadSchema,
  NodeSchema,
  RangeSchema,
  SolveJobAnswerSchema,
  SolveJobListSchema,
  SpotsSchema,
  ToolEnvelopeSchema,
} from "./responses.js";

type JsonObject = Record<string, unknown>;

const COMPONENTS = {
  Catalog: CatalogSchema,
  Discovery: DiscoverySchema,
  Node: NodeSchema,
  Range: RangeSchema,
  Spots: SpotsSchema,
  Config: ConfigSchema,
  Error: ErrorBodySchema,
  FeatureRequestBody: FeatureRequestBodySchema,
  FeatureRequestCreated: FeatureRequestCreatedSchema,
  FeatureRequestList: FeatureRequestListSchema,
  SolveJob: SolveJobAnswerSchema,
  SolveJobList: SolveJobListSchema,
  HandUpload: HandUploadSchema,
  SignUpBody: SignUpBodySchema,
  SignInBody: SignInBodySchema,
  SignOutBody: SignOutBodySchema,
  CreateKeyBody: CreateKeyBodySchema,
  AccountSession: AccountSessionSchema,
  AccountKeyList: AccountKeyListSchema,
  AccountKeyCreated: AccountKeyCreatedSchema,
  AccountKeyAnswer: AccountKeyAnswerSchema,
  AccountRequestList: AccountRequestListSchema,
  AccountSolveList: AccountSolveListSchema,
  ProtectedResourceMetadata: ProtectedResourceMetadataSchema,
  AuthorizationServerMetadata: AuthorizationServerMetadataSchema,
  ToolEnvelope: ToolEnvelopeSchema,
} as const;

const errorCodeSchema = (): JsonObject => ({
  type: "string",
  enum: [...RANGES_ERROR_CODES],
  description: `Stable machine name of the error; the HTTP status follows from it: ${RANGES_ERROR_CODES.map(
    (c) => `${c} ${statusOf(c)}`,
  ).join(", ")}.`,
});

/**
 * JSON Schema (draft 2020-12) of each response body, by component name. The `Error` body's `code` is the
 * enum of error codes (`RANGES_ERROR_CODES` of @ranges/core).
 */
export function responseJsonSchemas(): Record<keyof typeof COMPONENTS, JsonObject> {
  const out = {} as Record<keyof typeof COMPONENTS, JsonObject>;
  for (const [name, schema] of Object.entries(COMPONENTS)) {
    const json = z.toJSONSchema(schema, { target: "draft-2020-12" }) as JsonObject;
    delete json.$schema;
    out[name as keyof typeof COMPONENTS] = json;
  }
  const error = out.Error as { properties: { error: { properties: Record<string, JsonObject> } } };
  error.properties.error.properties.code = errorCodeSchema();
  return out;
}

/* ---------- Building blocks ---------- */

const API_KEY_OPTIONAL = [{}, { bearer: [] }];
const API_KEY_REQUIRED = [{ bearer: [] }];
const NO_KEY: unknown[] = [];
const SESSION = [{ session: [] }];

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** Cache-Control values the API sends. */
const CACHE = {
  data: "public, max-age=86400, immutable",
  meta: "public, max-age=300",
  document: "public, max-age=3600",
  none: "no-store",
} as const;

const cacheControl = (value: string, why: string) => ({
  description: `\`${value}\`: ${why}`,
  schema: { type: "string", enum: [value] },
});

const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": headerRef("RateLimitLimit"),
  "RateLimit-Remaining": headerRef("RateLimitRemaining"),
  "RateLimit-Reset": headerRef("RateLimitReset"),
};

const HEADERS: JsonObject = {
  XRequestId: {
    description:
      "Identifies the request in the service's logs: the caller's `X-Request-Id` when it is 1 to 128 characters of `[A-Za-z0-9._:-]`, else one the service generates. On every response.",
    schema: { type: "string", pattern: "^[A-Za-z0-9._:-]{1,128}$" },
  },
  ETag: {
    description:
      "Strong entity tag of the body (from the pack checksum and the normalized query). Send it back in `If-None-Match` to get a 304.",
    schema: { type: "string" },
  },
  RateLimitLimit: {
    description:
      "Calls allowed per UTC day on the meter that counted this call: the keyless allowance of the caller's IP (200) or the key's daily quota. Absent for a key without a quota.",
    schema: { type: "integer", minimum: 0 },
  },
  RateLimitRemaining: {
    description: "Calls left today on that meter. Absent for a key without a quota.",
    schema: { type: "integer", minimum: 0 },
  },
  RateLimitReset: {
    description: "Seconds until the meter resets (00:00 UTC). Absent for a key without a quota.",
    schema: { type: "integer", minimum: 0 },
  },
  RetryAfter: {
    description: "Seconds until the spent allowance or quota resets (00:00 UTC).",
    schema: { type: "integer", minimum: 0 },
  },
  WWWAuthenticate: {
    description:
      'The bearer challenge: `Bearer realm="preflop-ranges"`, with `error="invalid_token"` when a key was sent but is malformed, unknown or revoked.',
    schema: { type: "string" },
  },
  Allow: {
    description: "The methods the path accepts, e.g. `GET, HEAD` or `POST`.",
    schema: { type: "string" },
  },
  SetSessionCookie: {
    description:
      "The session cookie: `ranges_session=<token>; Path=/; HttpOnly; SameSite=Lax; Max-Age=<seconds>` (30 days), named `__Host-ranges_session` and marked `Secure` when the site's public URL is https. The token is 43 base64url characters; only its SHA-256 is stored.",
    schema: { type: "string" },
  },
  ClearSessionCookie: {
    description:
      "The session cookie emptied with `Max-Age=0`, so the browser drops it (`ranges_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`, or the `__Host-` name with `Secure` over https).",
    schema: { type: "string" },
  },
  CacheControlData: cacheControl(
    CACHE.data,
    "node, range, spots and config answers never change for a URL (a new pack is a new ETag).",
  ),
  CacheControlMeta: cacheControl(
    CACHE.meta,
    "the catalog and discovery list the live stacks, which change when packs are added.",
  ),
  CacheControlNoStore: cacheControl(CACHE.none, "errors and health answers are not cached."),
  CacheControlDocument: cacheControl(CACHE.document, "the OpenAPI document."),
  CacheControlMetadata: cacheControl(
    CACHE.meta,
    "the protected resource metadata changes only with the server's configuration.",
  ),
  CacheControlAccount: cacheControl(CACHE.none, "the account area's answers are private and never cached."),
};

/** Error statuses, each with the codes @ranges/core gives it and what it means here. */
const ERROR_STATUSES: Record<string, { name: string; text: string; headers?: JsonObject }> = {
  "400": {
    name: "BadRequest",
    text: "The request cannot be valid: a malformed path (an unencoded `%`, a token the grammar does not allow), a bad or missing parameter, an unknown or repeated query parameter, or bytes Node's HTTP parser refuses. The message says how to fix it.",
  },
  "401": {
    name: "Unauthorized",
    text: "A key is required for this operation and none was sent, or the key sent is malformed, unknown or revoked (also on operations that need no key).",
    headers: { "WWW-Authenticate": headerRef("WWWAuthenticate") },
  },
  "403": {
    name: "Forbidden",
    text: "A state-changing request of the account area (or of the OAuth sign-in page) that a cross-site page could have sent: its `Origin` is not this site's, or, signed in, it lacks the session's `X-CSRF-Token` or carries another one. Nothing was changed; send it from the site's own pages with the token `GET /api/v1/account` gives.",
  },
  "404": {
    name: "NotFound",
    text: "A well-formed request for something the data does not hold: an unknown game, stack or route, an operation the game does not serve, missing fold-arounds, a wrong raise token, or a line not in this stack's tree. `validPrefix` and `validActions` say where the path left the tree.",
  },
  "405": {
    name: "MethodNotAllowed",
    text: "The path exists but not for this method (any method other than the ones documented for the path; `HEAD` works wherever `GET` does), or the method is one the server answers nowhere: an unknown method and `CONNECT` are 405 too, never 501 (no 5xx for bad input).",
    headers: { Allow: headerRef("Allow") },
  },
  "408": { name: "RequestTimeout", text: "The request was not received in time." },
  "413": {
    name: "PayloadTooLarge",
    text: "The request body is larger than the operation takes: 1 MiB, 8 MiB for an upload, 16 KiB in the account area. A declared length over the limit is refused before any byte is read, and the connection is closed after the answer.",
  },
  "414": { name: "UriTooLong", text: "The request URL is too long." },
  "415": {
    name: "UnsupportedMediaType",
    text: "The body is not of a type the operation takes: an upload that is not text (invalid UTF-8, a NUL byte, a Content-Type other than text/plain or application/octet-stream).",
  },
  "429": {
    name: "TooManyRequests",
    text: "A daily limit is spent until 00:00 UTC: the keyless allowance of the caller's IP (200 calls), the key's daily quota, and in the account area the sign-ups of one client address (10 by default, SIGNUP_DAILY_LIMIT) or the failed sign-ins of one email (20) or of one client address (100, across emails), and the OAuth client registrations of one client address (20, OAUTH_REGISTRATION_DAILY_LIMIT). Refused calls are not counted. `hint` has `limit`, `meter` (`ip`, `key`, `signup`, `signin` or `oauth-register`), `retryAfterSeconds` and `resetsAt`.",
    headers: { "Retry-After": headerRef("RetryAfter"), ...RATE_LIMIT_HEADERS },
  },
  "431": { name: "HeadersTooLarge", text: "The request's header fields are too large." },
  "500": {
    name: "InternalError",
    text: "A fault of the service, never of the input; report the X-Request-Id.",
  },
  "503": {
    name: "PackUnavailable",
    text: "The pack of this game and stack exists but cannot be read (corrupt or missing data); other packs keep serving.",
  },
};

const codesOf = (status: number): RangesErrorCode[] =>
  RANGES_ERROR_CODES.filter((c) => statusOf(c) === status);

function errorResponses(): JsonObject {
  const out: JsonObject = {};
  for (const [status, e] of Object.entries(ERROR_STATUSES)) {
    const codes = codesOf(Number(status));
    out[e.name] = {
      description: `${e.text}${codes.length > 0 ? ` Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.` : ""}`,
      headers: {
        "X-Request-Id": headerRef("XRequestId"),
        "Cache-Control": headerRef("CacheControlNoStore"),
        ...e.headers,
      },
      content: { "application/json": { schema: schemaRef("Error") } },
    };
  }
  return out;
}

/** Error responses of the account area whose meaning there differs from the data routes', by status. */
const ACCOUNT_ERRORS: Record<string, { name: string; text: string; codes: RangesErrorCode[] }> = {
  "400": {
    name: "AccountBadRequest",
    text: "The body is not what the operation takes: empty, not JSON, not an object, a field missing, of the wrong type or unknown, an email that does not look like one, a password of the wrong length, an email that has an account already, a key name of the wrong length, or a 26th live key (`invalid_parameter`; `hint.field` names the field when there is one). Or the HTTP message itself: a POST whose `Content-Type` is not `application/json` (no cross-site form can send JSON), a body on a GET (`bad_request`).",
    codes: ["invalid_parameter", "bad_request"],
  },
  "401": {
    name: "AccountUnauthorized",
    text: "Not signed in: no session cookie, or its session ended or expired; sign in again. On sign-in: the email or the password is not right (the same answer for an unknown email). No `WWW-Authenticate`: the account area uses the session cookie, not bearer keys.",
    codes: ["unauthorized"],
  },
  "404": {
    name: "AccountNotFound",
    text: "No such key in the signed-in account (another account's key is not found either), or the solve queue is not enabled on this server.",
    codes: ["not_found"],
  },
};

function accountErrorResponses(): JsonObject {
  const out: JsonObject = {};
  for (const e of Object.values(ACCOUNT_ERRORS)) {
    out[e.name] = {
      description: `${e.text} Codes: ${e.codes.map((c) => `\`${c}\``).join(", ")}.`,
      headers: {
        "X-Request-Id": headerRef("XRequestId"),
        "Cache-Control": headerRef("CacheControlNoStore"),
      },
      content: { "application/json": { schema: schemaRef("Error") } },
    };
  }
  return out;
}

/** The error responses of an operation, by status. */
const errors = (...statuses: string[]): JsonObject =>
  Object.fromEntries(statuses.map((s) => [s, responseRef(ERROR_STATUSES[s]!.name)]));

/** The error responses of an account operation, by status: the account area's own where it has one. */
const accountErrors = (...statuses: string[]): JsonObject =>
  Object.fromEntries(
    [...new Set([...TRANSPORT, ...statuses])]
      .sort()
      .map((s) => [s, responseRef((ACCOUNT_ERRORS[s] ?? ERROR_STATUSES[s]!).name)]),
  );

/** Statuses any request can get from the HTTP layer, whatever the route. */
const TRANSPORT = ["400", "405", "408", "414", "431", "500"];
const DATA_ERRORS = [...new Set([...TRANSPORT, "401", "404", "429", "503"])].sort();
const META_ERRORS = [...new Set([...TRANSPORT, "401", "404", "429"])].sort();

/** A 200 with a JSON body and the headers of a metered, cacheable answer. */
const okJson = (schema: string, description: string, cache: "CacheControlData" | "CacheControlMeta") => ({
  description,
  headers: {
    ETag: headerRef("ETag"),
    "Cache-Control": headerRef(cache),
    ...RATE_LIMIT_HEADERS,
    "X-Request-Id": headerRef("XRequestId"),
  },
  content: { "application/json": { schema: schemaRef(schema) } },
});

const PARAMETERS: JsonObject = {
  stack: {
    name: "stack",
    in: "query",
    required: true,
    description:
      "Stack depth in big blinds, a plain decimal number (the game's live stacks are listed by discovery).",
    schema: { type: "number", exclusiveMinimum: 0 },
  },
  stackInteger: {
    name: "stack",
    in: "query",
    required: true,
    description: "Stack depth in big blinds, an integer.",
    schema: { type: "integer", minimum: 1 },
  },
  history: {
    name: "history",
    in: "query",
    required: true,
    description:
      "Action path ending in the seat to act, every fold written out, e.g. UTG_Fold_HJ_Fold_CO. Send `%` as `%25`.",
    schema: { type: "string", maxLength: 512 },
  },
  spot: {
    name: "spot",
    in: "query",
    required: true,
    description:
      "Action path ending in an action, e.g. UTG_Fold_HJ_60% (sent as UTG_Fold_HJ_60%25) or UTG_Fold_UTG1_Open.",
    schema: { type: "string", maxLength: 512 },
  },
  hand: {
    name: "hand",
    in: "query",
    required: false,
    description:
      "One hand class to restrict the result to: AKs, AKo, AA or two cards (AhKh); PLO: (AK)QJ sent as %28AK%29QJ, or four cards.",
    schema: { type: "string" },
  },
  minFreq: {
    name: "minFreq",
    in: "query",
    required: false,
    description: "Drop weights at or below this frequency; does not remove hands when full=1.",
    schema: { type: "number", minimum: 0, maximum: 1 },
  },
  full: {
    name: "full",
    in: "query",
    required: false,
    description: "Hold'em only: write all 169 classes with explicit 0 weights (adds no EVs).",
    schema: { type: "string", enum: ["1"] },
  },
  ifNoneMatch: {
    name: "If-None-Match",
    in: "header",
    required: false,
    description:
      "An ETag from an earlier answer (weak comparison; lists and `*` allowed): a match is a 304 without body.",
    schema: { type: "string" },
  },
  csrfToken: {
    name: "X-CSRF-Token",
    in: "header",
    required: true,
    description:
      "The session's CSRF token (`csrfToken` of `GET /api/v1/account`, sign-up and sign-in). Missing or another session's: 403 `forbidden`. CORS does not let another origin send it.",
    schema: { type: "string" },
  },
  requestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description: "An id for this request, echoed in the response's X-Request-Id and the service's log line.",
    schema: { type: "string", pattern: "^[A-Za-z0-9._:-]{1,128}$" },
  },
};

/* ---------- Routes ---------- */

type DataOp = Extract<Operation, "node" | "range" | "spots" | "config">;

const OPERATION: Record<Operation, { summary: string; schema: string; description: string }> = {
  discovery: {
    summary: "Live stacks and positions of a game",
    schema: "Discovery",
    description: "The stacks that have a pack, and the seats in acting order.",
  },
  node: {
    summary: "Every action at a decision node, with per-class frequencies and EVs",
    schema: "Node",
    description: "A Node listing every action at the decision `history` names.",
  },
  range: {
    summary: "One action's range: weights, raise-to and EVs",
    schema: "Range",
    description: "One action's weights, its raise-to when stored, and EVs where scored.",
  },
  spots: {
    summary: "Every decision node of a stack with its betting depth",
    schema: "Spots",
    description: "Every valid decision node (history) at the stack, each tagged with its depth (1 to 4).",
  },
  config: {
    summary: "Table facts of a stack: seats, stacks, blinds, ante, open sizes, rake",
    schema: "Config",
    description:
      "Seats, stacks, blinds, ante, open sizes, rake, import time; unknown values are null and listed in `unverified`.",
  },
};

const pascal = (game: GameId): string =>
  game
    .split(/[^a-z0-9]+/i)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");

const keyNote = (keyless: boolean): string =>
  keyless
    ? "No key needed: without one the call counts toward the caller's IP allowance (200 calls per UTC day); with a Bearer key, toward the key's meter."
    : "Needs a Bearer key (`Authorization: Bearer <key>`); the call counts toward the key's meter.";

const gameList = (games: readonly GameId[]) => games.map((g) => `\`${g}\``).join(", ");

/** The GET operation of `op` for `games` (one path): parameters, security, responses. */
function operation(
  op: Operation,
  games: readonly GameId[],
  keyless: boolean,
  operationId: string,
  gameParam: JsonObject | null,
): JsonObject {
  const parameters: unknown[] = gameParam ? [gameParam] : [];
  if (op !== "discovery") {
    parameters.push(parameterRef(games.every((g) => GAMES[g].integerStack) ? "stackInteger" : "stack"));
  }
  if (op === "node") parameters.push(parameterRef("history"));
  if (op === "range") parameters.push(parameterRef("spot"));
  if (op === "node" || op === "range") parameters.push(parameterRef("hand"), parameterRef("minFreq"));
  if (op === "node" && games.some((g) => GAMES[g].variant === "holdem"))
    parameters.push(parameterRef("full"));
  parameters.push(parameterRef("ifNoneMatch"), parameterRef("requestId"));
  const { summary, schema, description } = OPERATION[op];
  const data = op !== "discovery";
  return {
    get: {
      operationId,
      tags: ["ranges"],
      summary: `${summary} (${games.join(", ")})`,
      description: `${description} Games: ${gameList(games)}. ${keyNote(keyless)}`,
      parameters,
      security: keyless ? API_KEY_OPTIONAL : API_KEY_REQUIRED,
      responses: {
        "200": okJson(schema, schema, data ? "CacheControlData" : "CacheControlMeta"),
        "304": responseRef("NotModified"),
        ...errors(...(data ? DATA_ERRORS : META_ERRORS)),
      },
    },
  };
}

/**
 * The paths of one operation. The games serving it are grouped by access (keyless or keyed); the largest
 * group of one-segment games (two or more) takes the `{game}` template, every other game a concrete path.
 */
function operationPaths(op: Operation): JsonObject {
  const serving = GAME_IDS.filter((g) => GAMES[g].serves.includes(op));
  const keylessOf = (g: GameId) => GAMES[g].keyless.includes(op);
  const oneSegment = serving.filter((g) => !g.includes("/"));
  const groups = [oneSegment.filter((g) => !keylessOf(g)), oneSegment.filter(keylessOf)];
  const template = groups.reduce((a, b) => (b.length > a.length ? b : a));
  const templated = template.length >= 2 ? template : [];
  const concrete = serving.filter((g) => !templated.includes(g));
  const single = concrete.length + (templated.length > 0 ? 1 : 0) === 1;
  const suffix = op === "discovery" ? "" : `/${op}`;
  const paths: JsonObject = {};
  if (templated.length > 0) {
    const gameParam = {
      name: "game",
      in: "path",
      required: true,
      description: `Game value: one of the games this operation serves on this path${
        concrete.length > 0 ? ` (${gameList(concrete)} have their own paths)` : ""
      }.`,
      schema: { type: "string", enum: [...templated] },
    };
    paths[`/api/v1/ranges/{game}${suffix}`] = operation(
      op,
      templated,
      keylessOf(templated[0]!),
      op,
      gameParam,
    );
  }
  for (const game of concrete) {
    const id = single ? op : `${op}${pascal(game)}`;
    paths[`/api/v1/ranges/${game}${suffix}`] = operation(op, [game], keylessOf(game), id, null);
  }
  return paths;
}

const DATA_OPS: readonly DataOp[] = ["node", "range", "spots", "config"];

/* ---------- Service and MCP routes ---------- */

const JSON_RPC: JsonObject = {
  JsonRpcMessage: {
    type: "object",
    description:
      "A JSON-RPC 2.0 request or notification of the Model Context Protocol (initialize, tools/list, tools/call, ...).",
    required: ["jsonrpc", "method"],
    properties: {
      jsonrpc: { const: "2.0" },
      id: { anyOf: [{ type: "string" }, { type: "integer" }] },
      method: { type: "string" },
      params: { type: "object" },
    },
  },
  JsonRpcResponse: {
    type: "object",
    description: "A JSON-RPC 2.0 response: `result` on success, `error` (code, message) otherwise.",
    required: ["jsonrpc"],
    properties: {
      jsonrpc: { const: "2.0" },
      id: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] },
      result: { type: "object" },
      error: {
        type: "object",
        required: ["code", "message"],
        properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
      },
    },
  },
  Health: {
    type: "object",
    required: ["status"],
    properties: { status: { const: "ok" } },
  },
  Readiness: {
    type: "object",
    required: ["status", "access", "packs"],
    properties: {
      status: { enum: ["ready", "not_ready"] },
      access: { enum: ["ok", "unavailable"], description: "Whether the key and meter database answers." },
      packs: {
        type: "object",
        required: ["live", "failed"],
        properties: {
          live: { type: "integer", minimum: 0, description: "Packs that read and verified." },
          failed: {
            type: "integer",
            minimum: 0,
            description: "Packs that exist but cannot be read (503 on use).",
          },
        },
      },
    },
  },
};

const noStoreJson = (schema: string, description: string) => ({
  description,
  headers: { "Cache-Control": headerRef("CacheControlNoStore"), "X-Request-Id": headerRef("XRequestId") },
  content: { "application/json": { schema: schemaRef(schema) } },
});

const jsonRpcResponse = (description: string) => ({
  description,
  headers: { "X-Request-Id": headerRef("XRequestId") },
  content: { "application/json": { schema: schemaRef("JsonRpcResponse") } },
});

function servicePaths(): JsonObject {
  return {
    "/healthz": {
      get: {
        operationId: "health",
        tags: ["service"],
        summary: "Liveness: 200 whenever the process serves",
        description: "Not metered; no key.",
        parameters: [parameterRef("requestId")],
        security: NO_KEY,
        responses: { "200": noStoreJson("Health", "The process serves."), ...errors(...TRANSPORT) },
      },
    },
    "/readyz": {
      get: {
        operationId: "readiness",
        tags: ["service"],
        summary: "Readiness: the key database answers; pack counts",
        description:
          "200 when the key and meter database answers (zero packs is still ready: the catalog and discovery serve without them), 503 when it does not. Not metered; no key.",
        parameters: [parameterRef("requestId")],
        security: NO_KEY,
        responses: {
          "200": noStoreJson("Readiness", "Ready."),
          ...errors(...TRANSPORT),
          "503": noStoreJson("Readiness", "Not ready: the key and meter database does not answer."),
        },
      },
    },
    "/api/v1/openapi.json": {
      get: {
        operationId: "openapi",
        tags: ["service"],
        summary: "This OpenAPI 3.1 document",
        description: "Not metered; no key.",
        parameters: [parameterRef("requestId")],
        security: NO_KEY,
        responses: {
          "200": {
            description: "The OpenAPI document.",
            headers: {
              "Cache-Control": headerRef("CacheControlDocument"),
              "X-Request-Id": headerRef("XRequestId"),
            },
            content: { "application/json": { schema: { type: "object" } } },
          },
          ...errors(...TRANSPORT),
        },
      },
    },
    "/api/v1/requests": {
      post: {
        operationId: "submitRequest",
        tags: ["requests"],
        summary: "File a feature or data request (same as the MCP tool submit_request)",
        description:
          "Needs a key; free (not counted on the key's meter, allowed when its quota is spent). The body is a JSON object (`Content-Type: application/json`, at most 1 MiB); unknown fields are refused with 400.",
        parameters: [parameterRef("requestId")],
        security: API_KEY_REQUIRED,
        requestBody: {
          required: true,
          content: { "application/json": { schema: schemaRef("FeatureRequestBody") } },
        },
        responses: {
          "201": noStoreJson("FeatureRequestCreated", "The stored request."),
          ...errors(...TRANSPORT, "401", "413"),
        },
      },
      get: {
        operationId: "listRequests",
        tags: ["requests"],
        summary: "The caller's own requests, newest first (at most 100; same as list_my_requests)",
        description:
          "Needs a key; free (not counted on the key's meter). Nobody sees another key's requests.",
        parameters: [parameterRef("requestId")],
        security: API_KEY_REQUIRED,
        responses: {
          "200": noStoreJson("FeatureRequestList", "The caller's requests."),
          ...errors(...TRANSPORT, "401"),
        },
      },
    },
    "/api/v1/uploads/{token}": {
      post: {
        operationId: "uploadHandHistories",
        tags: ["hands"],
        summary:
          "Upload a hand-history file through a single-use link (the MCP tool get_upload_link makes one)",
        description:
          "The link is the credential: no Authorization header. It takes one upload and expires (15 minutes unless the server says otherwise); a used, expired or unknown link is a 404 that says which. The body is the file itself, PokerStars or GGPoker hand histories as text (`Content-Type: text/plain` or `application/octet-stream`; UTF-8, or UTF-16 with a byte order mark), at most 8 MiB (413 beyond it, read no further). The hands are parsed off the request thread, deduplicated by site and hand number, and stored under the key that made the link: nobody else ever sees them. `curl --data-binary @HH20240518.txt -H 'Content-Type: text/plain' <url>`.",
        parameters: [
          {
            name: "token",
            in: "path",
            required: true,
            description: "The link's token (hul_ and 43 base64url characters).",
            schema: { type: "string", pattern: "^hul_[A-Za-z0-9_-]{43}$" },
          },
          parameterRef("requestId"),
        ],
        security: NO_KEY,
        requestBody: {
          required: true,
          content: {
            "text/plain": { schema: { type: "string" } },
            "application/octet-stream": { schema: { type: "string", format: "binary" } },
          },
        },
        responses: {
          "201": noStoreJson("HandUpload", "What the upload read and stored."),
          ...errors(...TRANSPORT, "404", "413", "415"),
        },
      },
    },
    "/api/v1/solves": {
      post: {
        operationId: "enqueueSolve",
        tags: ["solves"],
        summary: "Queue a custom preflop solve (same as the MCP tool enqueue_solve)",
        description:
          'Body: a library game and stack with optional changes, `{"game": "nl/v2", "stack": 85, "changes": {"maxRaises": 3}}`, or a whole tree config, `{"config": {...}, "stack": 30}`. The tree is built and sized first; a tree the solver cannot build, or one over the plan (decisions or estimated seconds), is a 400 whose hint carries the estimate. Needs a key; counted on its meter. 202 with the job and its `Location`.',
        parameters: [parameterRef("requestId")],
        security: API_KEY_REQUIRED,
        requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
        responses: {
          "202": noStoreJson("SolveJob", "The queued job."),
          ...errors(...TRANSPORT, "401", "404", "413", "429"),
        },
      },
      get: {
        operationId: "listSolves",
        tags: ["solves"],
        summary: "The caller's solves, newest first (at most 100)",
        description: "Needs a key; free.",
        parameters: [parameterRef("requestId")],
        security: API_KEY_REQUIRED,
        responses: {
          "200": noStoreJson("SolveJobList", "The caller's solves."),
          ...errors(...TRANSPORT, "401", "404"),
        },
      },
    },
    "/api/v1/solves/{id}": {
      get: {
        operationId: "getSolve",
        tags: ["solves"],
        summary: "Status, progress and result summary of one of the caller's solves",
        description: "Needs the key that queued it; free. Another key's solve is a 404.",
        parameters: [
          {
            name: "id",
            in: "path",
            required: true,
            schema: { type: "string", pattern: "^sol_[0-9a-f]{16}$" },
          },
          parameterRef("requestId"),
        ],
        security: API_KEY_REQUIRED,
        responses: { "200": noStoreJson("SolveJob", "The job."), ...errors(...TRANSPORT, "401", "404") },
      },
      delete: {
        operationId: "cancelSolve",
        tags: ["solves"],
        summary: "Cancel a solve (queued: at once; running: within seconds)",
        description: "Needs the key that queued it; free.",
        parameters: [
          {
            name: "id",
            in: "path",
            required: true,
            schema: { type: "string", pattern: "^sol_[0-9a-f]{16}$" },
          },
          parameterRef("requestId"),
        ],
        security: API_KEY_REQUIRED,
        responses: {
          "200": noStoreJson("SolveJob", "The job after the request."),
          ...errors(...TRANSPORT, "401", "404"),
        },
      },
    },
    ...Object.fromEntries(
      (["node", "range", "spots"] as const).map((op) => [
        `/api/v1/solves/{id}/${op}`,
        {
          get: {
            operationId: `solve${op[0]!.toUpperCase()}${op.slice(1)}`,
            tags: ["solves"],
            summary: `The ${op} of a finished solve, exactly like the library's (no stack parameter)`,
            description:
              "Needs the key that queued it; counted on its meter. A solve that is not done is a 400 saying its status.",
            parameters: [
              {
                name: "id",
                in: "path",
                required: true,
                schema: { type: "string", pattern: "^sol_[0-9a-f]{16}$" },
              },
              ...(op === "node"
                ? ["history", "hand", "minFreq", "full"]
                : op === "range"
                  ? ["spot", "hand", "minFreq"]
                  : []
              ).map((p) => parameterRef(p)),
              parameterRef("requestId"),
            ],
            security: API_KEY_REQUIRED,
            responses: {
              "200": noStoreJson(
                op === "node" ? "Node" : op === "range" ? "Range" : "Spots",
                `The solve's ${op}.`,
              ),
              ...errors(...TRANSPORT, "401", "404", "429", "503"),
            },
          },
        },
      ]),
    ),
    "/api/mcp": {
      post: {
        operationId: "mcp",
        tags: ["mcp"],
        summary: "Model Context Protocol tool server (stateless streamable HTTP, JSON responses)",
        description:
          'JSON-RPC 2.0 messages by POST; no sessions and no SSE stream (GET and DELETE are 405). Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`. Without a key the free 6-max NL cash preflop tools work; other tools need a Bearer key (an API key `pr_...`, or an OAuth access token from this server\'s authorization server, which stands for the account\'s key), and tools refuse in their result (`isError`). One exception starts OAuth sign-in: a call made without any `Authorization` header that a tool refuses for want of a key is answered 401 with `WWW-Authenticate: Bearer resource_metadata="<origin>/.well-known/oauth-protected-resource/api/mcp", scope="mcp"` (the JSON-RPC answer stays in the body). An OAuth token that is unknown, expired, for another resource or whose key was revoked is a 401 with `error="invalid_token"`.',
        parameters: [parameterRef("requestId")],
        security: API_KEY_OPTIONAL,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                anyOf: [schemaRef("JsonRpcMessage"), { type: "array", items: schemaRef("JsonRpcMessage") }],
              },
            },
          },
        },
        responses: {
          "200": jsonRpcResponse("The JSON-RPC response (an array for a batch)."),
          "202": {
            description: "Accepted: the body held only notifications or responses; no body.",
            headers: { "X-Request-Id": headerRef("XRequestId") },
          },
          "400": jsonRpcResponse(
            "JSON-RPC parse error (-32700: the body is empty or not JSON) or invalid request (-32600).",
          ),
          "401": {
            description:
              "Sign-in needed: a keyless call of a tool that needs a key (the JSON-RPC answer, with the tool's 401 error result, is the body), or an OAuth access token that is not valid (the error body). `WWW-Authenticate` points at the protected resource metadata.",
            headers: {
              "WWW-Authenticate": headerRef("WWWAuthenticate"),
              "X-Request-Id": headerRef("XRequestId"),
            },
            content: {
              "application/json": {
                schema: { anyOf: [schemaRef("JsonRpcResponse"), schemaRef("Error")] },
              },
            },
          },
          "404": responseRef("NotFound"),
          "405": responseRef("MethodNotAllowed"),
          "406": jsonRpcResponse("`Accept` lacks application/json or text/event-stream (-32000)."),
          "408": responseRef("RequestTimeout"),
          "413": responseRef("PayloadTooLarge"),
          "414": responseRef("UriTooLong"),
          "415": jsonRpcResponse("`Content-Type` is not application/json (-32000)."),
          "431": responseRef("HeadersTooLarge"),
          "500": jsonRpcResponse("Internal error handling the MCP request (-32603)."),
        },
      },
    },
  };
}

/* ---------- The account area and OAuth ---------- */

/** A no-store JSON answer of the account area. */
const accountJson = (schema: string, description: string, headers: JsonObject = {}) => ({
  description,
  headers: {
    "Cache-Control": headerRef("CacheControlAccount"),
    ...headers,
    "X-Request-Id": headerRef("XRequestId"),
  },
  content: { "application/json": { schema: schemaRef(schema) } },
});

const jsonBody = (schema: string, required = true) => ({
  required,
  content: { "application/json": { schema: schemaRef(schema) } },
});

const SESSION_NOTE =
  "Needs the session cookie (sign up or sign in first); answers are `Cache-Control: no-store`.";
const CHANGE_NOTE =
  "A change: needs the session cookie and its `X-CSRF-Token`, a JSON body (`Content-Type: application/json`, at most 16 KiB), and an `Origin`, when sent, that is this site's.";

function accountPaths(): JsonObject {
  const account = { tags: ["account"], parameters: [parameterRef("requestId")] };
  const change = { tags: ["account"], parameters: [parameterRef("csrfToken"), parameterRef("requestId")] };
  return {
    "/api/v1/account": {
      get: {
        ...account,
        operationId: "getAccount",
        summary: "The signed-in account and its session's CSRF token",
        description: `${SESSION_NOTE} The site's /account page calls it first: 401 means signed out.`,
        security: SESSION,
        responses: {
          "200": accountJson("AccountSession", "The account, the session's CSRF token and its end."),
          ...accountErrors("401"),
        },
      },
    },
    "/api/v1/account/signup": {
      post: {
        ...account,
        operationId: "signUp",
        summary: "Create an account and sign in",
        description:
          "No session needed. The body is JSON (`Content-Type: application/json`, at most 16 KiB; a form post is refused), from this site (an `Origin` that is not this site's is a 403). The password is stored only as an argon2id hash. Each client address (IPv6: each /64) may make 10 accounts per UTC day (the server's SIGNUP_DAILY_LIMIT); the next is a 429 with `Retry-After` until 00:00 UTC. Refused sign-ups are not counted.",
        security: NO_KEY,
        requestBody: jsonBody("SignUpBody"),
        responses: {
          "201": accountJson("AccountSession", "The account was made and is signed in.", {
            "Set-Cookie": headerRef("SetSessionCookie"),
          }),
          ...accountErrors("403", "413", "429"),
        },
      },
    },
    "/api/v1/account/signin": {
      post: {
        ...account,
        operationId: "signIn",
        summary: "Sign in with an email and a password",
        description:
          "No session needed; JSON from this site, as for sign-up. A wrong password and an unknown email get the same 401. After 20 failed sign-ins for one email in a UTC day, that email's sign-ins are refused (429) until 00:00 UTC.",
        security: NO_KEY,
        requestBody: jsonBody("SignInBody"),
        responses: {
          "200": accountJson("AccountSession", "Signed in: a new session.", {
            "Set-Cookie": headerRef("SetSessionCookie"),
          }),
          ...accountErrors("401", "403", "413", "429"),
        },
      },
    },
    "/api/v1/account/signout": {
      post: {
        ...change,
        operationId: "signOut",
        summary: "End the session",
        description: `${CHANGE_NOTE} The body is \`{}\` (or empty). The session ends on the server and the cookie is cleared.`,
        security: SESSION,
        requestBody: jsonBody("SignOutBody", false),
        responses: {
          "204": {
            description: "Signed out; no body.",
            headers: {
              "Set-Cookie": headerRef("ClearSessionCookie"),
              "Cache-Control": headerRef("CacheControlAccount"),
              "X-Request-Id": headerRef("XRequestId"),
            },
          },
          ...accountErrors("401", "403", "413"),
        },
      },
    },
    "/api/v1/account/keys": {
      get: {
        ...account,
        operationId: "listAccountKeys",
        summary: "The account's API keys with their meters (today and the last 30 days)",
        description: `${SESSION_NOTE} Revoked keys are listed too (with \`revokedAt\`); secrets never are. Keys an MCP client's OAuth sign-in made are named \`MCP: <client>\`.`,
        security: SESSION,
        responses: {
          "200": accountJson("AccountKeyList", "The keys, oldest first."),
          ...accountErrors("401"),
        },
      },
      post: {
        ...change,
        operationId: "createAccountKey",
        summary: "Create an API key; its secret is in this answer only",
        description: `${CHANGE_NOTE} An account holds at most 25 live keys (a 26th is a 400: revoke one first).`,
        security: SESSION,
        requestBody: jsonBody("CreateKeyBody"),
        responses: {
          "201": accountJson("AccountKeyCreated", "The key and its secret (shown once)."),
          ...accountErrors("401", "403", "413"),
        },
      },
    },
    "/api/v1/account/keys/{id}": {
      delete: {
        ...change,
        parameters: [
          {
            name: "id",
            in: "path",
            required: true,
            description:
              "The key's id, 12 hex characters, or its prefix `pr_<id>`. Anything else, or another account's key, is a 404.",
            schema: { type: "string", maxLength: 512 },
          },
          ...change.parameters,
        ],
        operationId: "revokeAccountKey",
        summary: "Revoke one of the account's keys (and end the OAuth sign-in it stands for)",
        description:
          "Needs the session cookie and its `X-CSRF-Token`, and an `Origin`, when sent, that is this site's; no body. Revoking a revoked key changes nothing and answers the same. Calls with the key are refused (401) from then on; a key an MCP client's sign-in made also ends that sign-in's tokens.",
        security: SESSION,
        responses: {
          "200": accountJson("AccountKeyAnswer", "The key after revocation."),
          ...accountErrors("401", "403", "404"),
        },
      },
    },
    "/api/v1/account/requests": {
      get: {
        ...account,
        operationId: "listAccountRequests",
        summary: "The feature requests filed with the account's keys, newest first (at most 100)",
        description: SESSION_NOTE,
        security: SESSION,
        responses: {
          "200": accountJson("AccountRequestList", "The requests, each with the prefix of its key."),
          ...accountErrors("401"),
        },
      },
    },
    "/api/v1/account/solves": {
      get: {
        ...account,
        operationId: "listAccountSolves",
        summary: "The solves queued with the account's keys, newest first (at most 100)",
        description: `${SESSION_NOTE} 404 when the server runs no solve queue.`,
        security: SESSION,
        responses: {
          "200": accountJson("AccountSolveList", "The solves, each with the prefix of its key."),
          ...accountErrors("401", "404"),
        },
      },
    },
  };
}

const OAUTH_NOTE =
  "Served when the server runs its OAuth authorization server (`pnpm start` does; 404 otherwise). No key; not metered.";

function oauthPaths(): JsonObject {
  const metadata = (operationId: string, summary: string, description: string) => ({
    get: {
      operationId,
      tags: ["oauth"],
      summary,
      description: `${description} ${OAUTH_NOTE}`,
      parameters: [parameterRef("requestId")],
      security: NO_KEY,
      responses: {
        "200": {
          description: "The metadata document.",
          headers: {
            "Cache-Control": headerRef("CacheControlMetadata"),
            "X-Request-Id": headerRef("XRequestId"),
          },
          content: { "application/json": { schema: schemaRef("ProtectedResourceMetadata") } },
        },
        ...errors(...TRANSPORT, "404"),
      },
    },
  });
  const server = (operationId: string, summary: string, description: string) => ({
    get: {
      operationId,
      tags: ["oauth"],
      summary,
      description: `${description} Written by oidc-provider (no \`Cache-Control\`). ${OAUTH_NOTE}`,
      parameters: [parameterRef("requestId")],
      security: NO_KEY,
      responses: {
        "200": {
          description: "The authorization server metadata.",
          headers: { "X-Request-Id": headerRef("XRequestId") },
          content: { "application/json": { schema: schemaRef("AuthorizationServerMetadata") } },
        },
        ...errors(...TRANSPORT, "404"),
      },
    },
  });
  return {
    "/.well-known/oauth-protected-resource": metadata(
      "getProtectedResourceMetadata",
      "OAuth protected resource metadata of the MCP endpoint (RFC 9728)",
      "Names the MCP endpoint as the resource, this server's authorization server, and the `mcp` scope. The 401 of `POST /api/mcp` points here.",
    ),
    "/.well-known/oauth-protected-resource/api/mcp": metadata(
      "getMcpProtectedResourceMetadata",
      "The same metadata at the path RFC 9728 derives from the resource `<origin>/api/mcp`",
      "The `resource_metadata` URL of the `WWW-Authenticate` challenge on `POST /api/mcp`.",
    ),
    "/.well-known/oauth-authorization-server": server(
      "getAuthorizationServerMetadata",
      "OAuth authorization server metadata (RFC 8414)",
      "The endpoints under `/oauth/` (authorize, token, register, revoke, jwks), PKCE with S256 only, the `mcp` scope.",
    ),
    "/.well-known/openid-configuration": server(
      "getOpenIdConfiguration",
      "The same document as OpenID Connect Discovery",
      "Identical to `/.well-known/oauth-authorization-server`.",
    ),
  };
}

/**
 * Heads-up postflop: the MCP postflop tools' reads over HTTP, each answering the analysis envelope
 * (`ToolEnvelope`: coverage.status exact, aggregated_report or unsupported).
 */
function postflopPaths(): JsonObject {
  const query = (
    name: string,
    description: string,
    required = false,
    schema: JsonObject = { type: "string" },
  ) => ({
    name,
    in: "query",
    required,
    description,
    schema,
  });
  const packParam = {
    name: "pack",
    in: "path",
    required: true,
    description:
      "Pack id from /api/v1/postflop/packs: <pack> is the 75% pot tree, <pack>-flop33 the 33% pot flop bet.",
    schema: { type: "string", pattern: "^[a-z0-9][a-z0-9-]{0,79}$" },
  };
  const board = query(
    "board",
    "The flop, e.g. QsJh2h (suit-isomorphic boards map onto the solved one).",
    true,
  );
  const path = query(
    "path",
    "Actions from the start of the flop, comma-separated (labels such as check, bet 4.13, or a unique kind such as bet); empty is the first decision. After the action that ends the flop's betting, the turn card and the turn's actions, then the river card and its actions (check,check,7c,bet,call,2d): those streets are solved on demand from the flop solve's ranges (context.solve gives the solve and its exploitability).",
  );
  const combo = (required: boolean) => query("combo", "Two concrete cards, e.g. AhKh.", required);
  const ok = (what: string) => ({
    description: what,
    headers: {
      "Cache-Control": headerRef("CacheControlMeta"),
      ...RATE_LIMIT_HEADERS,
      "X-Request-Id": headerRef("XRequestId"),
    },
    content: { "application/json": { schema: schemaRef("ToolEnvelope") } },
  });
  const op = (id: string, summary: string, description: string, params: unknown[], keyed = true) => ({
    get: {
      operationId: id,
      tags: ["postflop"],
      summary,
      description: `${description} ${keyed ? "Needs a key; counted on its meter." : "Keyless (the per-IP allowance counts it) or with a key."}`,
      parameters: [...params, parameterRef("requestId")],
      security: keyed ? API_KEY_REQUIRED : API_KEY_OPTIONAL,
      responses: { "200": ok("The analysis envelope."), ...errors(...DATA_ERRORS) },
    },
  });
  return {
    "/api/v1/postflop/packs": op(
      "postflopPacks",
      "The postflop packs (same as the MCP tool list_postflop_packs)",
      "Ids, preflop line, stacks, pot, rake, tree, solved boards and exploitability summary.",
      [],
      false,
    ),
    "/api/v1/postflop/{pack}/node": op(
      "postflopNode",
      "A decision of a solved board: flop, or turn and river solved on demand (get_postflop_node)",
      "Per action its chip addition, compare key, frequency and EV in bb; per hand class the frequencies; with combo that combo's strategy. Unsolved boards answer coverage.status unsupported naming the nearest solved boards. A turn or river node takes a few seconds the first time (its street is solved then, and kept).",
      [packParam, board, path, combo(false)],
    ),
    "/api/v1/postflop/{pack}/range": op(
      "postflopRange",
      "Every combo at a decision, or one action's range (get_postflop_range)",
      "Per combo reach, frequencies, evBb and equity; with action, that action's range.",
      [
        packParam,
        board,
        path,
        query("action", "One action at the node: answer that action's range."),
        query("minReach", "Drop combos at or below this reach (0 to 1).", false, {
          type: "number",
          minimum: 0,
          maximum: 1,
        }),
      ],
    ),
    "/api/v1/postflop/{pack}/explain": op(
      "postflopExplain",
      "One combo explained (explain_combo)",
      "Strategy and EV per action, equity, hand category, range position and a plain explanation.",
      [packParam, board, path, combo(true)],
    ),
    "/api/v1/postflop/{pack}/report": op(
      "postflopReport",
      "A flop decision across the solved boards (get_board_report)",
      "Every matched board weighs equally; counts of matched, analyzed and unavailable boards.",
      [
        packParam,
        path,
        query("pairedness", "unpaired, paired or trips."),
        query("suitTexture", "rainbow, two-tone or monotone."),
        query("connectivity", "connected, semi-connected or disconnected."),
        query("highCardClass", "ace-high, king-high, broadway, middle or low."),
      ],
    ),
    "/api/v1/postflop/compare": op(
      "postflopCompare",
      "Two flop decisions compared (compare_strategies, domain postflop)",
      "The largest per-combo frequency changes, or one combo side by side.",
      [
        query("baselinePack", "Baseline pack id.", true),
        query("baselineBoard", "Baseline flop.", true),
        query("baselinePath", "Baseline actions, comma-separated."),
        query("comparisonPack", "Comparison pack id.", true),
        query("comparisonBoard", "Comparison flop.", true),
        query("comparisonPath", "Comparison actions, comma-separated."),
        combo(false),
        query("limit", "Largest changes to list, 1 to 50 (default 10).", false, {
          type: "integer",
          minimum: 1,
          maximum: 50,
        }),
      ],
    ),
  };
}

/** Builds the OpenAPI 3.1 document. `serverUrl` is the service's base URL. */
export function buildOpenApiDocument(serverUrl = "/"): JsonObject {
  const paths: JsonObject = {
    "/api/v1/ranges/games": {
      get: {
        operationId: "catalog",
        tags: ["ranges"],
        summary: "Catalog of public games with stacks and positions",
        description: keyNote(true),
        parameters: [parameterRef("ifNoneMatch"), parameterRef("requestId")],
        security: API_KEY_OPTIONAL,
        responses: {
          "200": okJson("Catalog", "Catalog", "CacheControlMeta"),
          "304": responseRef("NotModified"),
          ...errors(...META_ERRORS.filter((s) => s !== "404")),
        },
      },
    },
    ...operationPaths("discovery"),
    ...Object.assign({}, ...DATA_OPS.map(operationPaths)),
    ...servicePaths(),
    ...postflopPaths(),
    ...accountPaths(),
    ...oauthPaths(),
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Preflop ranges API",
      version: "1.0.0",
      description:
        "Read-only solver-derived preflop strategies: per hand class, action frequencies and EVs (sb, relative to fold). Every GET also answers HEAD. Errors share one body, `{ schemaVersion: 1, error: { status, code, message, hint? } }`, with `Cache-Control: no-store`. Responses are immutable per URL: revalidate with `If-None-Match` for a 304. The account area (`/api/v1/account/...`, tag `account`) is what the site's /account page uses, with a session cookie; the OAuth metadata (tag `oauth`) is for MCP clients that sign in.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: serverUrl }],
    tags: [
      { name: "ranges", description: "Preflop strategies: catalog, discovery, node, range, spots, config." },
      { name: "mcp", description: "The hosted Model Context Protocol tool endpoint." },
      {
        name: "postflop",
        description:
          "Heads-up cash postflop: flop decisions of the solved boards of each postflop pack, in the analysis envelope of the MCP tools.",
      },
      { name: "requests", description: "Feature and data requests of key holders." },
      {
        name: "solves",
        description: "The solve queue: custom preflop spots solved on this project's solver.",
      },
      {
        name: "hands",
        description:
          "Hand-history uploads through single-use links; the hands are read with the MCP hand tools.",
      },
      {
        name: "account",
        description:
          "The account area the site's /account page uses: sign-up, sign-in and sign-out, API keys with their meters, and the requests and solves of the account's keys. Sessions are an HTTP-only, SameSite=Lax cookie (`session`); every change also needs the session's `X-CSRF-Token` and, when the browser sends `Origin`, this site's origin (403 `forbidden` otherwise). Errors use the same error body as the rest of the API.",
      },
      {
        name: "oauth",
        description:
          "OAuth 2.0 for MCP clients: the metadata documents here, and the authorization server under `/oauth/`, which is oidc-provider's standard endpoints and is not described in this document: `/oauth/register` (dynamic client registration, RFC 7591), `/oauth/authorize` (authorization code with PKCE S256; resource indicators, RFC 8707, for `<origin>/api/mcp`), `/oauth/token`, `/oauth/revoke` (RFC 7009), `/oauth/jwks`, `/oauth/userinfo` and `/oauth/session/end`, with oidc-provider's own error bodies (`{ error, error_description }`). `/oauth/interaction/{uid}` is the site's sign-in page and its own JSON calls. An access token acts as the account key its sign-in made on `POST /api/mcp`.",
        externalDocs: {
          description: "oidc-provider's documentation (the endpoints under /oauth/)",
          url: "https://github.com/panva/node-oidc-provider/tree/main/docs",
        },
      },
      { name: "service", description: "Health, readiness and this document." },
    ],
    security: API_KEY_OPTIONAL,
    paths,
    components: {
      schemas: { ...responseJsonSchemas(), ...JSON_RPC },
      responses: {
        NotModified: {
          description:
            "The `If-None-Match` ETag matches: no body. Metered like a 200 (the caller still asked).",
          headers: {
            ETag: headerRef("ETag"),
            "Cache-Control": { description: "As on the 200.", schema: { type: "string" } },
            ...RATE_LIMIT_HEADERS,
            "X-Request-Id": headerRef("XRequestId"),
          },
        },
        ...errorResponses(),
        ...accountErrorResponses(),
      },
      parameters: PARAMETERS,
      headers: HEADERS,
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "API key (`pr_<id>_<secret>`), sent as `Authorization: Bearer <key>`. Optional on keyless operations (then the per-IP allowance counts the call); a key that is sent must be valid everywhere.",
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "ranges_session",
          description:
            "The account area's session cookie, set by sign-up and sign-in: HTTP-only, SameSite=Lax, 30 days. Named `__Host-ranges_session` (and `Secure`) when the site's public URL is https. Changes (POST, DELETE) also need the session's `X-CSRF-Token` header. Only the account area reads it; the data routes and `/api/mcp` take bearer keys.",
        },
      },
    },
  };
}
