/**
 * Issue 28 item 3: the tool list an agent host loads fits its context (at most 40,000 characters through the
 * SDK client), descriptions are short, and every published schema, and every answer shape, passes Ajv in
 * strict mode including strictRequired.
 */

import { createRequire } from "node:module";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import { ErrorBodySchema } from "@ranges/schema";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type RunningMcpServer, startMcpServer, TOOL_NAMES } from "../src/index.js";
import { TOOL_SPECS } from "../src/server.js";
import { writeFixturePacks } from "./fixtures.js";
import { connect } from "./helpers.js";

/** The budget of issue 28 (design.md section 10). */
const MAX_LIST_CHARS = 40_000;
const MAX_DESCRIPTION_CHARS = 350;

let store: RangeStore;
let access: AccessStore;
let running: RunningMcpServer;
let client: Client;

beforeAll(async () => {
  store = RangeStore.open({ packsDir: (await writeFixturePacks()).dir, refreshMs: 0 });
  access = await AccessStore.open(":memory:");
  running = await startMcpServer({ port: 0, host: "127.0.0.1", store, access });
  client = await connect(running.url);
});

afterAll(async () => {
  await client?.close();
  await running?.close();
  await access?.close();
  store?.close();
});

interface StrictAjv {
  compile(schema: unknown): unknown;
}

/** Ajv (the SDK client's own copy) with every strict rule on and throwing, strictRequired included. */
function strictAjv(): StrictAjv {
  const require = createRequire(import.meta.resolve("@modelcontextprotocol/sdk/validation/ajv"));
  const mod = require("ajv") as { default?: new (o: object) => StrictAjv } & (new (o: object) => StrictAjv);
  const Ajv = mod.default ?? mod;
  return new Ajv({
    strict: true,
    strictSchema: true,
    strictNumbers: true,
    strictTypes: true,
    strictTuples: true,
    strictRequired: true,
    allowUnionTypes: false,
    logger: false,
  });
}

/** The Ajv strict-mode error for a schema, or null. */
function strictError(schema: unknown): string | null {
  try {
    strictAjv().compile(schema);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describe("tools/list", () => {
  it(`fits in ${MAX_LIST_CHARS} characters with every tool, each described in at most ${MAX_DESCRIPTION_CHARS}`, async () => {
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    const size = JSON.stringify(listed).length;
    expect(size, `tools/list is ${size} characters`).toBeLessThanOrEqual(MAX_LIST_CHARS);
    for (const tool of listed.tools) {
      expect(tool.description!.length, tool.name).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
      expect(tool.description, tool.name).toMatch(/^(Use|Call) /);
    }
  });

  it("publishes the shared envelope output schema on the analysis tools only", async () => {
    const { tools } = await client.listTools();
    const withOutput = tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name);
    expect(withOutput.sort()).toEqual(
      [
        "compare_strategies",
        "explain_combo",
        "get_board_report",
        "get_postflop_node",
        "get_postflop_range",
        "list_postflop_packs",
      ].sort(),
    );
  });
});

describe("Ajv strict mode, strictRequired included", () => {
  it("compiles every published input and output schema", async () => {
    const { tools } = await client.listTools();
    const errors = tools.flatMap((t) =>
      (["inputSchema", "outputSchema"] as const)
        .filter((k) => t[k] !== undefined)
        .map((k) => [`${t.name} ${k}`, strictError(t[k])] as const)
        .filter(([, e]) => e !== null),
    );
    expect(errors).toEqual([]);
  });

  it("compiles the JSON Schema of every answer shape of every tool, and of the error body", () => {
    const shapes = TOOL_SPECS.flatMap((spec) =>
      spec.variants.map((variant, i) => [`${spec.name} variant ${i}`, variant] as const),
    );
    const errors = [...shapes, ["error body", ErrorBodySchema] as const]
      .map(([what, schema]) => {
        const { $schema: _, ...json } = z.toJSONSchema(schema as z.ZodType, {
          target: "draft-7",
          io: "output",
        }) as Record<string, unknown>;
        return [what, strictError(json)] as const;
      })
      .filter(([, e]) => e !== null);
    expect(errors).toEqual([]);
  });
});
