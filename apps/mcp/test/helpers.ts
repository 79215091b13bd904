import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorBodySchema } from "@ranges/schema";
import { expect } from "vitest";
import { TOOL_SPECS } from "../src/server.js";

/** A connected SDK client; with `key` every request carries `Authorization: Bearer <key>`. */
export async function connect(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: "mcp-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    key === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${key}` } } },
  );
  await client.connect(transport);
  // Caches the published output schemas (the analysis tools'), so callTool validates against them; `call`
  // checks every answer against the tool's full zod schemas.
  await client.listTools();
  return client;
}

/**
 * A tool call through the SDK client. Structured content must be one of the tool's answer shapes (its zod
 * `variants`), or the error body on an error result; the SDK's text-only errors (input validation) carry none.
 */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const content = result.structuredContent;
  const spec = TOOL_SPECS.find((s) => s.name === name);
  if (content !== undefined && spec !== undefined) {
    if (result.isError) {
      ErrorBodySchema.parse(content);
    } else {
      const fits = spec.variants.some((variant) => variant.safeParse(content).success);
      expect(
        fits,
        `${name} answered a shape outside its schemas: ${JSON.stringify(content).slice(0, 300)}`,
      ).toBe(true);
    }
  }
  return result;
}

/** The structured content of a successful call, checked to match the text content. */
export async function ok(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  const text = result.content[0];
  expect(text?.type).toBe("text");
  expect(JSON.parse((text as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

/** The error body of a failed call. */
export async function fails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ status: number; code: string; message: string; [k: string]: unknown }> {
  const result = await call(client, name, args);
  expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
  const body = ErrorBodySchema.parse(result.structuredContent);
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(body);
  return body.error;
}
