/**
 * The `tools/list` answer: what an agent host loads into every conversation, so it is kept small (issue 28:
 * at most 40,000 characters for all 32 tools).
 *
 * - Input schemas are the JSON Schemas of the zod inputs the SDK validates with (draft-07, input side) in their
 *   portable form (json-schema.ts), made smaller without changing what they accept: no `$schema` line, no
 *   descriptions on the branches of an `anyOf` whose parent describes the value, and a property schema that
 *   two properties share (compare_strategies' baseline and comparison) written once under `definitions`.
 * - Output schemas are published only where a client gains from them: the analysis tools, whose every
 *   answer is the shared envelope, get one small shared schema saying what `coverage.status` can be
 *   (exact, an aggregate, or unsupported). The other tools publish none: their answers are documented by the
 *   tool descriptions and, in full, by the zod schemas in schemas.ts, which the server checks every answer
 *   against before sending it.
 */

import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { ToolEnvelopeSchema } from "@ranges/schema";
import { z } from "zod";
import { READ_ONLY } from "./context.js";
import { portableJsonSchema } from "./json-schema.js";
import { inputSchemaOf, type ToolSpec } from "./tool.js";

type Json = Record<string, unknown>;

const isRecord = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * The output schema of the tools that answer the analysis envelope: what a client acts on, `coverage.status`
 * (exact, aggregated_report, or unsupported: nothing substituted). It also accepts the error body a failed
 * call carries (no `coverage`), which the SDK's client validates too.
 */
export const ENVELOPE_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    coverage: {
      type: "object",
      properties: { status: { enum: ["exact", "aggregated_report", "unsupported"] } },
      required: ["status"],
    },
  },
} as const;

/** Whether a tool's every answer is the analysis envelope. */
const answersEnvelope = (spec: ToolSpec<z.ZodRawShape>): boolean =>
  spec.variants.length === 1 && spec.variants[0] === (ToolEnvelopeSchema as unknown);

/** Drops the descriptions of `anyOf` branches under a described node, recursively. */
function trimBranches(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(trimBranches);
  if (!isRecord(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = trimBranches(value);
  if (typeof out.description === "string" && Array.isArray(out.anyOf)) {
    out.anyOf = out.anyOf.map((branch) => {
      if (!isRecord(branch)) return branch;
      const { description: _, ...rest } = branch;
      return rest;
    });
  }
  return out;
}

/** Root properties with the same schema apart from their description, written once under `definitions`. */
function shareProperties(schema: Json): Json {
  const properties = schema.properties;
  if (!isRecord(properties)) return schema;
  const groups = new Map<string, string[]>();
  for (const [name, value] of Object.entries(properties)) {
    if (!isRecord(value)) continue;
    const { description: _, ...rest } = value;
    const key = JSON.stringify(rest);
    if (key.length < 400) continue;
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  const definitions: Json = {};
  const shared: Json = { ...properties };
  for (const [key, names] of groups) {
    if (names.length < 2) continue;
    const id = names.join("_");
    definitions[id] = JSON.parse(key);
    for (const name of names) {
      const description = (properties[name] as Json).description;
      shared[name] = {
        ...(description === undefined ? {} : { description }),
        allOf: [{ $ref: `#/definitions/${id}` }],
      };
    }
  }
  if (Object.keys(definitions).length === 0) return schema;
  return { ...schema, properties: shared, definitions };
}

/** The published input schema of a tool. */
export function publishedInputSchema(spec: ToolSpec<z.ZodRawShape>): Json {
  const json = z.toJSONSchema(inputSchemaOf(spec), { target: "draft-7", io: "input" }) as Json;
  const { $schema: _, ...rest } = portableJsonSchema(json);
  return shareProperties(trimBranches(rest) as Json);
}

const listingCache = new Map<string, Tool>();

/** The `tools/list` entry of a spec (see the module comment). */
export function toolListing(spec: ToolSpec<z.ZodRawShape>): Tool {
  let tool = listingCache.get(spec.name);
  if (!tool) {
    tool = {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: publishedInputSchema(spec) as Tool["inputSchema"],
      ...(answersEnvelope(spec)
        ? { outputSchema: ENVELOPE_OUTPUT_SCHEMA as unknown as Tool["outputSchema"] }
        : {}),
      // The title once, at the top (MCP's `title`; `annotations.title` is its older place).
      annotations: { ...(spec.annotations ?? READ_ONLY) },
    };
    listingCache.set(spec.name, tool);
  }
  return tool;
}
