/**
 * Issue 27 finding 11 (MCP part): a request whose params do not fit its method answers JSON-RPC -32602 with a
 * readable message naming the parameter, not -32603 with zod's issue list.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AccessStore } from "@ranges/access";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import { writeFixturePacks } from "./fixtures.js";
import { connect } from "./helpers.js";

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

/** The JSON-RPC error a raw request gets through the SDK client. */
async function rpcError(method: string, params: unknown): Promise<McpError> {
  try {
    await client.request({ method, params } as never, z.unknown());
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error(`${method} succeeded`);
}

describe("malformed params", () => {
  it.each([
    [
      "tools/call",
      { name: "get_node", arguments: "UTG" },
      "params.arguments must be an object, not a string",
    ],
    ["tools/call", { name: "get_node", arguments: [] }, "params.arguments must be an object, not an array"],
    ["tools/call", { arguments: {} }, "params.name is required (a string)"],
    ["tools/call", { name: 7, arguments: {} }, "params.name must be a string, not a number"],
    ["tools/list", { cursor: 5 }, "params.cursor must be a string, not a number"],
  ])("%s %j answers -32602 naming the parameter", async (method, params, words) => {
    const error = await rpcError(method, params);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain(`Invalid params for ${method}: ${words}`);
    expect(error.message).not.toMatch(/"code"|invalid_type|\[\s*\{/);
  });

  it("a tools/call with a bad argument value names the argument", async () => {
    const result = (await client.callTool({
      name: "get_node",
      arguments: { game: "nl", stack: "deep", history: "UTG" },
    })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/-32602.*stack must be a positive number/);
  });
});
