/** The tool definition type and the wrapper that validates output and turns every failure into a result. */

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { READ_ONLY, type ToolContext } from "./context.js";
import { errorBody } from "./errors.js";
import { clip, redactor, requestInputs } from "./redact.js";

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
  readonly run: (args: z.infer<z.ZodObject<S>>, ctx: ToolContext) => Outcome | Promise<Outcome>;
  /** MCP tool annotations beyond the title; default read-only and closed-world (READ_ONLY). */
  readonly annotations?: {
    readonly readOnlyHint: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint: boolean;
  };
}

/** Helper that keeps the input type of a spec. */
export const defineTool = <S extends z.ZodRawShape>(spec: ToolSpec<S>): ToolSpec<S> => spec;

/** Edit distance, for "did you mean" on a mistyped argument name. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known name an unknown argument most likely meant: same letters in another case, or one or two edits away. */
export function suggestArgument(unknown: string, known: readonly string[]): string | undefined {
  const lower = unknown.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    const d = distance(lower, name.toLowerCase());
    if (d <= Math.min(2, Math.floor(name.length / 3)) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/** The message for arguments an input object does not take: each with its likely spelling, then the list. */
export function unknownArgumentsMessage(
  where: string,
  keys: readonly string[],
  known: readonly string[],
): string {
  const named = keys.map((key) => {
    const guess = suggestArgument(key, known);
    return guess ? `"${clip(key)}" (did you mean "${guess}"?)` : `"${clip(key)}"`;
  });
  const takes = known.length > 0 ? `${where} takes ${known.join(", ")}` : `${where} takes no arguments`;
  return `Unknown argument${keys.length > 1 ? "s" : ""} ${named.join(", ")}: ${takes}.`;
}

/** A closed input object: an unknown key is an error naming the likely spelling, never silently dropped. */
export function closedObject<S extends z.ZodRawShape>(
  where: string,
  shape: S,
): z.ZodObject<S, z.core.$strict> {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? unknownArgumentsMessage(where, issue.keys, known) : undefined,
  });
}

const inputCache = new Map<string, z.ZodObject<z.ZodRawShape>>();

/** The input schema of a tool as the SDK validates it and clients see it: its fields in a closed object. */
export function inputSchemaOf(spec: ToolSpec<z.ZodRawShape>): z.ZodObject<z.ZodRawShape> {
  let schema = inputCache.get(spec.name);
  if (!schema) {
    schema = closedObject(spec.name, spec.input) as unknown as z.ZodObject<z.ZodRawShape>;
    inputCache.set(spec.name, schema);
  }
  return schema;
}

/** Runs a tool and builds its result; never throws. */
export async function runTool(
  spec: ToolSpec<z.ZodRawShape>,
  args: unknown,
  ctx: ToolContext,
): Promise<CallToolResult> {
  let outcome: Outcome;
  try {
    outcome = await spec.run(args as never, ctx);
  } catch (error) {
    // Messages may quote the arguments and name pack files: cut the one, make the other relative.
    return errorResult(
      errorBody(error, redactor({ inputs: requestInputs(args), roots: [ctx.store.packsDir] })),
    );
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

/**
 * Registers a spec on a server with the shared annotations. No output schema is registered: `runTool` checks
 * every answer against its own zod schema, and the published listing (listing.ts) is set apart.
 */
export function register(server: McpServer, spec: ToolSpec<z.ZodRawShape>, ctx: ToolContext): void {
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: inputSchemaOf(spec),
      annotations: { title: spec.title, ...(spec.annotations ?? READ_ONLY) },
    },
    async (args: unknown) => runTool(spec, args, ctx),
  );
}
