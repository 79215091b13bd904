/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the zod schemas so the two cannot drift. The API
 * serves it at `/api/v1/openapi.json`. `nl/v2` spans two path segments, so its routes are listed apart from
 * the `{game}` template, whose enum holds the one-segment games.
 */

import { GAME_IDS, GAMES, type GameId } from "@ranges/core";
import { z } from "zod";
import {
  CatalogSchema,
  ConfigSchema,
  DiscoverySchema,
  ErrorBodySchema,
  NodeSchema,
  RangeSchema,
  SpotsSchema,
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
} as const;

/** JSON Schema (draft 2020-12) of each response body, by component name. */
export function responseJsonSchemas(): Record<keyof typeof COMPONENTS, JsonObject> {
  const out = {} as Record<keyof typeof COMPONENTS, JsonObject>;
  for (const [name, schema] of Object.entries(COMPONENTS)) {
    const json = z.toJSONSchema(schema, { target: "draft-2020-12" }) as JsonObject;
    delete json.$schema;
    out[name as keyof typeof COMPONENTS] = json;
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string, description: string) => ({
  description,
  content: { "application/json": { schema: ref(name) } },
});
const errors = {
  "400": json("Error", "Malformed path, token the grammar does not allow, or an invalid parameter."),
  "401": json("Error", "A key is required for this operation, or the key is invalid or revoked."),
  "404": json("Error", "A well-formed path, stack or game that the data does not hold."),
  "429": json("Error", "The daily keyless allowance or the key's plan quota is spent."),
  "503": json(
    "Error",
    "The pack of this game and stack exists but cannot be read (corrupt or missing data).",
  ),
};

const stackParam = (integer: boolean) => ({
  name: "stack",
  in: "query",
  required: true,
  description: "Stack depth in big blinds.",
  schema: integer ? { type: "integer" } : { type: "number" },
});
const handParam = {
  name: "hand",
  in: "query",
  required: false,
  description: "One hand class (AKs, AhKh; PLO: (AK)QJ sent as %28AK%29QJ) to restrict the result to.",
  schema: { type: "string" },
};
const minFreqParam = {
  name: "minFreq",
  in: "query",
  required: false,
  description: "Drop weights at or below this frequency; does not remove hands when full=1.",
  schema: { type: "number", minimum: 0, maximum: 1 },
};
const fullParam = {
  name: "full",
  in: "query",
  required: false,
  description: "Hold'em only: write all 169 classes with explicit 0 weights (adds no EVs).",
  schema: { type: "string", enum: ["1"] },
};

function gameRoutes(prefix: string, games: readonly GameId[], gameParam: JsonObject[]): JsonObject {
  const integer = games.every((g) => GAMES[g].integerStack);
  const security = [{}, { bearer: [] }];
  return {
    [prefix]: {
      get: {
        operationId: `discovery${games.length === 1 ? "NlV2" : ""}`,
        summary: "Live stacks and positions of a game",
        parameters: gameParam,
        security,
        responses: { "200": json("Discovery", "Discovery"), ...errors },
      },
    },
    [`${prefix}/node`]: {
      get: {
        operationId: `node${games.length === 1 ? "NlV2" : ""}`,
        summary: "Every action at a decision node, with per-class frequencies and EVs",
        parameters: [
          ...gameParam,
          stackParam(integer),
          {
            name: "history",
            in: "query",
            required: true,
            description: "Action path ending in the seat to act, e.g. UTG_Fold_HJ_Fold_CO (send % as %25).",
            schema: { type: "string" },
          },
          handParam,
          minFreqParam,
          fullParam,
        ],
        security,
        responses: { "200": json("Node", "Node"), ...errors },
      },
    },
    [`${prefix}/range`]: {
      get: {
        operationId: `range${games.length === 1 ? "NlV2" : ""}`,
        summary: "One action's range: weights, raise-to and EVs",
        parameters: [
          ...gameParam,
          stackParam(integer),
          {
            name: "spot",
            in: "query",
            required: true,
            description: "Action path ending in an action, e.g. UTG_Fold_HJ_Open.",
            schema: { type: "string" },
          },
          handParam,
          minFreqParam,
        ],
        security,
        responses: { "200": json("Range", "Range"), ...errors },
      },
    },
    [`${prefix}/spots`]: {
      get: {
        operationId: `spots${games.length === 1 ? "NlV2" : ""}`,
        summary: "Every decision node of a stack with its betting depth (nlmtt8, nl/v2, plo, plo9)",
        parameters: [...gameParam, stackParam(integer)],
        security,
        responses: { "200": json("Spots", "Spots"), ...errors },
      },
    },
  };
}

/** Builds the OpenAPI 3.1 document. `serverUrl` is the service's base URL. */
export function buildOpenApiDocument(serverUrl = "/"): JsonObject {
  const oneSegment = GAME_IDS.filter((g) => !g.includes("/"));
  const gameParam = [
    {
      name: "game",
      in: "path",
      required: true,
      description: "Game value. nl/v2 has its own routes under /api/v1/ranges/nl/v2.",
      schema: { type: "string", enum: oneSegment },
    },
  ];
  return {
    openapi: "3.1.0",
    info: {
      title: "Preflop ranges API",
      version: "1.0.0",
      description:
        "Read-only solver-derived preflop strategies: per hand class, action frequencies and EVs (sb, relative to fold).",
    },
    servers: [{ url: serverUrl }],
    paths: {
      "/api/v1/ranges/games": {
        get: {
          operationId: "catalog",
          summary: "Catalog of public games with stacks and positions",
          responses: { "200": json("Catalog", "Catalog"), "429": errors["429"] },
        },
      },
      ...gameRoutes("/api/v1/ranges/{game}", oneSegment, gameParam),
      ...gameRoutes("/api/v1/ranges/nl/v2", ["nl/v2"], []),
      "/api/v1/ranges/nlmtt8/config": {
        get: {
          operationId: "config",
          summary: "Table facts of an nlmtt8 stack: seats, stacks, blinds, ante, open sizes, rake",
          parameters: [stackParam(true)],
          responses: { "200": json("Config", "Config"), ...errors },
        },
      },
    },
    components: {
      schemas: responseJsonSchemas(),
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "API key, prefix `pr_`." } },
    },
  };
}
