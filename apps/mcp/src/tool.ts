/** The tool definition type and the wrapper that validates output and turns every failure into a result. */

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { READ_ONLY, type ToolContext } from "./context.js";
import { errorBody } from "./errors.js";
import { advertisedSchema } from "./schemas.js";

/** A successful answer: the value and the one schema it must satisfy. */
export interface Outcome {
  readonly schema: z.ZodType;
  readonly value: unknown;
}

export interface ToolSpec<S extends z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: S;
  /** Every shape a successful answer can take (the error body is added automatically). */
  readonly variants: readonly z.ZodObject<z.ZodRawShape>[];
  readonly outputDescription: string;
  readonly run: (args: z.infer<z.ZodObject<S>>, ctx: ToolContext) => Outcome;
}

/** Helper that keeps the input type of a spec. */
export const defineTool = <S extends z.ZodRawShape>(spec: ToolSpec<S>): ToolSpec<S> => spec;

const advertisedCache = new Map<string, z.ZodObject<z.ZodRawShape>>();

function advertisedFor(spec: ToolSpec<z.ZodRawShape>): z.ZodObject<z.ZodRawShape> {
  let schema = advertisedCache.get(spec.name);
  if (!schema) {
    schema = advertisedSchema(spec.variants, spec.outputDescription);
    advertisedCache.set(spec.name, schema);
  }
  return schema;
}

/** Runs a tool and builds its result; never throws. */
export function runTool(spec: ToolSpec<z.ZodRawShape>, args: unknown, ctx: ToolContext): CallToolResult {
  let outcome: Outcome;
  try {
    outcome = spec.run(args as never, ctx);
  } catch (error) {
    return errorResult(errorBody(error));
  }
  const parsed = outcome.schema.safeParse(outcome.value);
  if (!parsed.success) {
    return errorResult({
      schemaVersion: 1,
      error: {
        status: 500,
        code: "internal_error",
        message: `The ${spec.name} answer failed its own output schema; this is a server bug. Please report it.`,
      },
    });
  }
  const value = parsed.data as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

export function errorResult(body: ReturnType<typeof errorBody>): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body as unknown as Record<string, unknown>,
    isError: true,
  };
}

/** Registers a spec on a server with the shared annotations and the advertised output schema. */
export function register(server: McpServer, spec: ToolSpec<z.ZodRawShape>, ctx: ToolContext): void {
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      outputSchema: advertisedFor(spec),
      annotations: { title: spec.title, ...READ_ONLY },
    },
    async (args: unknown) => runTool(spec, args, ctx),
  );
}
