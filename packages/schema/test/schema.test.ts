import { describe, expect, it } from "vitest";
import {
  buildOpenApiDocument,
  ConfigSchema,
  ErrorBodySchema,
  NodeSchema,
  RakeSchema,
  RangeSchema,
  responseJsonSchemas,
  ToolEnvelopeSchema,
  unitsFor,
} from "../src/index.js";

const node = {
  schemaVersion: 1,
  units: unitsFor(true),
  game: "nlmtt8",
  stack: 40,
  history: "UTG",
  actor: "UTG",
  depth: 1,
  evUnit: "sb",
  evBaseline: "fold",
  reach: 1,
  actions: [
    {
      action: "Fold",
      kind: "fold",
      sizeBb: null,
      sizePctPot: null,
      sizeReason: "fold",
      combos: 1000,
      weights: { "72o": 1 },
      evs: { "72o": 0 },
    },
    {
      action: "Open",
      kind: "raise",
      sizeBb: 2.19,
      sizePctPot: 34,
      combos: 326,
      weights: { AA: 1 },
      evs: { AA: 5.1 },
    },
  ],
};

describe("response schemas", () => {
  it("accept a well-formed node", () => {
    expect(NodeSchema.parse(node)).toEqual(node);
  });

  it.each([
    ["a weight above 1", { ...node, actions: [{ ...node.actions[1]!, weights: { AA: 1.2 } }] }],
    ["a negative weight", { ...node, actions: [{ ...node.actions[1]!, weights: { AA: -0.1 } }] }],
    ["schemaVersion 2", { ...node, schemaVersion: 2 }],
    ["an unknown game", { ...node, game: "nl7" }],
    ["an unknown action kind", { ...node, actions: [{ ...node.actions[1]!, kind: "bet" }] }],
    ["evUnit in chips", { ...node, evUnit: "chips" }],
    ["depth 5", { ...node, depth: 5 }],
    ["no units", { ...node, units: undefined }],
    ["no reach", { ...node, reach: undefined }],
    ["a reach above 1", { ...node, reach: 1.0001 }],
    ["a negative reach", { ...node, reach: -1e-9 }],
  ])("reject a node with %s", (_, bad) => {
    expect(NodeSchema.safeParse(bad).success).toBe(false);
  });

  it("accept a tiny and a zero reach", () => {
    expect(NodeSchema.safeParse({ ...node, reach: 3.2e-7 }).success).toBe(true);
    expect(NodeSchema.safeParse({ ...node, reach: 0 }).success).toBe(true);
  });

  it("make hand, freq and ev optional on a range, ev nullable", () => {
    const range = {
      schemaVersion: 1,
      units: unitsFor(false),
      game: "nl",
      stack: 100,
      spot: "UTG_60%",
      actor: "UTG",
      action: "60%",
      kind: "raise",
      sizeBb: 2.5,
      sizePctPot: 60,
      combos: 200,
      weights: { AA: 1 },
      evs: {},
      evUnit: null,
      evBaseline: null,
      reach: 0.25,
    };
    expect(RangeSchema.safeParse(range).success).toBe(true);
    expect(RangeSchema.safeParse({ ...range, reach: undefined }).success).toBe(false);
    expect(RangeSchema.safeParse({ ...range, hand: "AA", freq: 1, ev: null }).success).toBe(true);
    expect(RangeSchema.safeParse({ ...range, freq: 2 }).success).toBe(false);
  });

  it("require every config field and the unverified list", () => {
    const config = {
      schemaVersion: 1,
      units: unitsFor(true, true),
      game: "nlmtt8",
      stack: 10,
      seats: ["UTG"],
      stacks: null,
      blinds: { sb: 0.5, bb: 1 },
      ante: 1,
      antePostedBy: "BB",
      stackIncludesAnte: true,
      treeSizes: null,
      openSizes: { open: { label: "all-in", sizeBb: 10 }, sb: { label: "all-in", sizeBb: 10 }, note: null },
      rake: null,
      evUnit: "sb",
      evBaseline: "fold",
      importedAt: null,
      availableStacks: [10],
      unverified: [{ field: "stacks", reason: "all-in/fold" }],
    };
    expect(ConfigSchema.safeParse(config).success).toBe(true);
    const { unverified: _, ...missing } = config;
    expect(ConfigSchema.safeParse(missing).success).toBe(false);
    expect(ConfigSchema.safeParse({ ...config, antePostedBy: "UTG" }).success).toBe(false);
  });

  describe("config rake", () => {
    const config = {
      schemaVersion: 1,
      units: unitsFor(true, true),
      game: "nl/v2",
      stack: 100,
      seats: ["UTG", "HJ", "CO", "BTN", "SB", "BB"],
      stacks: [100, 100, 100, 100, 100, 100],
      blinds: { sb: 0.5, bb: 1 },
      ante: 0,
      antePostedBy: null,
      stackIncludesAnte: null,
      treeSizes: null,
      openSizes: null,
      rake: { percent: 5, capBb: 0.6, noFlopNoDrop: true },
      evUnit: "sb",
      evBaseline: "fold",
      importedAt: null,
      availableStacks: [100],
      unverified: [],
    };

    it("accepts a rake, none (null) and any rake a custom spot sets", () => {
      expect(ConfigSchema.parse(config).rake).toEqual({ percent: 5, capBb: 0.6, noFlopNoDrop: true });
      expect(ConfigSchema.parse({ ...config, rake: null }).rake).toBeNull();
      for (const rake of [
        { percent: 0, capBb: 0, noFlopNoDrop: true },
        { percent: 10, capBb: 3, noFlopNoDrop: true },
      ]) {
        expect(RakeSchema.parse(rake)).toEqual(rake);
        expect(ConfigSchema.safeParse({ ...config, rake }).success).toBe(true);
      }
    });

    it.each([
      ["missing", undefined],
      ["a percent of 100", { percent: 100, capBb: 0.6, noFlopNoDrop: true }],
      ["a negative percent", { percent: -5, capBb: 0.6, noFlopNoDrop: true }],
      ["a negative cap", { percent: 5, capBb: -1, noFlopNoDrop: true }],
      ["no cap", { percent: 5, noFlopNoDrop: true }],
      ["noFlopNoDrop false", { percent: 5, capBb: 0.6, noFlopNoDrop: false }],
      ["no noFlopNoDrop", { percent: 5, capBb: 0.6 }],
      ["a string", "5% cap 0.6bb"],
    ])("rejects a rake that is %s", (_, rake) => {
      expect(ConfigSchema.safeParse({ ...config, rake }).success).toBe(false);
    });
  });

  it("describe the error body and the tool envelope", () => {
    const err = {
      schemaVersion: 1,
      error: { status: 404, code: "missing_folds", message: "write out the folds" },
    };
    expect(ErrorBodySchema.safeParse(err).success).toBe(true);
    expect(ErrorBodySchema.safeParse({ error: err.error }).success).toBe(false);
    const envelope = {
      schemaVersion: "1.0",
      coverage: { status: "unsupported", dataClass: "preflop", objective: "icm" },
      context: {},
      result: { reason: "ICM is not published" },
      warnings: ["ICM is not published"],
    };
    expect(ToolEnvelopeSchema.safeParse(envelope).success).toBe(true);
    expect(ToolEnvelopeSchema.safeParse({ ...envelope, schemaVersion: 1 }).success).toBe(false);
    expect(
      ToolEnvelopeSchema.safeParse({ ...envelope, coverage: { ...envelope.coverage, status: "guess" } })
        .success,
    ).toBe(false);
  });
});

interface JsonSchemaNode {
  type?: string;
  required?: string[];
  properties?: Record<string, JsonSchemaNode & { minimum?: number; description?: string }>;
}

describe("OpenAPI document", () => {
  const doc = buildOpenApiDocument("http://localhost:3000") as {
    openapi: string;
    paths: Record<
      string,
      Record<string, { parameters?: Array<{ name: string; schema: { enum?: string[] } }> }>
    >;
    components: { schemas: Record<string, { type?: string }> };
  };

  it("is OpenAPI 3.1 with every route of the specification", () => {
    expect(doc.openapi).toBe("3.1.0");
    for (const path of [
      "/api/v1/ranges/games",
      "/api/v1/ranges/{game}",
      "/api/v1/ranges/{game}/node",
      "/api/v1/ranges/{game}/range",
      "/api/v1/ranges/{game}/spots",
      "/api/v1/ranges/nl/v2/node",
      "/api/v1/ranges/nl/v2/range",
      "/api/v1/ranges/nlmtt8/config",
    ]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
    }
  });

  it("documents reach on Node and Range: in [0,1], required, with its definition", () => {
    for (const name of ["Node", "Range"]) {
      const schema = doc.components.schemas[name] as {
        required?: string[];
        properties?: Record<
          string,
          { type?: string; minimum?: number; maximum?: number; description?: string }
        >;
      };
      expect(schema.required, name).toContain("reach");
      const reach = schema.properties?.reach;
      expect(reach, name).toMatchObject({ type: "number", minimum: 0, maximum: 1 });
      expect(reach?.description, name).toMatch(/published strategies/);
      expect(reach?.description, name).toMatch(/[Cc]ard removal .* ignored/);
      expect(reach?.description, name).toMatch(/exactly 0/);
    }
  });

  it("documents the config's rake: required, an object or null, with its units and what null means", () => {
    const schema = doc.components.schemas.Config as {
      required?: string[];
      properties?: Record<string, { anyOf?: JsonSchemaNode[]; description?: string }>;
    };
    expect(schema.required).toContain("rake");
    const rake = schema.properties!.rake!;
    expect(rake.description).toMatch(/pot that sees a flop/);
    expect(rake.description).toMatch(/no flop, no drop/);
    expect(rake.description).toMatch(/null means no rake, or unknown when `unverified` lists `rake`/);
    const object = rake.anyOf!.find((s) => s.type === "object")!;
    expect(rake.anyOf!.some((s) => s.type === "null")).toBe(true);
    expect(object.required).toEqual(["percent", "capBb", "noFlopNoDrop"]);
    expect(object.properties!.percent).toMatchObject({ type: "number", minimum: 0, exclusiveMaximum: 100 });
    expect(object.properties!.capBb).toMatchObject({ type: "number", minimum: 0 });
    expect(object.properties!.capBb!.description).toMatch(/bb/);
    expect(object.properties!.noFlopNoDrop).toMatchObject({ const: true });
    const route = doc.paths["/api/v1/ranges/nlmtt8/config"]!.get as unknown as { summary: string };
    expect(route.summary).toMatch(/rake/);
  });

  it("keeps the two-segment nl/v2 out of the {game} enum", () => {
    const game = doc.paths["/api/v1/ranges/{game}/node"]!.get!.parameters!.find((p) => p.name === "game")!;
    expect(game.schema.enum).toContain("nlmtt8");
    expect(game.schema.enum).not.toContain("nl/v2");
  });

  it("references a JSON Schema for every response body", () => {
    const schemas = responseJsonSchemas();
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(Object.keys(schemas)));
    for (const s of Object.values(schemas)) expect(s.type).toBe("object");
    const text = JSON.stringify(doc);
    for (const ref of text.match(/#\/components\/schemas\/\w+/g) ?? []) {
      expect(doc.components.schemas[ref.split("/").pop()!]).toBeDefined();
    }
  });
});
