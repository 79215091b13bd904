/** The handler mounted the way apps/api mounts it: its own server parses the body and calls the handler. */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AccessStore } from "@ranges/access";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpHttpHandler, TOOL_NAMES } from "../src/index.js";
import { CompactNodeSchema } from "../src/schemas.js";
import { writeFixturePacks } from "./fixtures.js";
import { connect, fails, ok } from "./helpers.js";

let server: Server;
let base: string;
let access: AccessStore;

beforeAll(async () => {
  const packs = await writeFixturePacks();
  const store = RangeStore.open({ packsDir: packs.dir });
  access = await AccessStore.open(":memory:", { keylessDailyLimit: 3 });
  const handle = createMcpHttpHandler({ store, access, trustProxy: true });
  server = createServer((req, res) => {
    if (req.url !== "/api/mcp") {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // As apps/api does: undefined when the body is empty or not JSON.
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = undefined;
      }
      void handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await access.close();
});

describe("handler mounted at /api/mcp", () => {
  it("serves the SDK client", async () => {
    const client = await connect(`${base}/api/mcp`);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    const node = CompactNodeSchema.parse(
      await ok(client, "get_node", { game: "nl/v2", stack: 100, history: "UTG" }),
    );
    expect(node.actor).toBe("UTG");
    await client.close();
  });

  it("answers a JSON-RPC parse error when the body is empty or not JSON", async () => {
    for (const body of ["", "{not json"]) {
      const res = await fetch(`${base}/api/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
    }
  });

  it("answers 405 with Allow: POST to other methods", async () => {
    const res = await fetch(`${base}/api/mcp`, { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("mounted with trustProxy: true, meters keyless calls per the address the server in front wrote last", async () => {
    // The server in front (apps/api) resolves the client and writes it as the last X-Forwarded-For entry;
    // what a client wrote before it is not believed.
    const viaProxy = async (ip: string) => {
      const res = await fetch(`${base}/api/mcp`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "X-Forwarded-For": `10.0.0.1, ${ip}`,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "list_games", arguments: {} },
        }),
      });
      const body = (await res.json()) as {
        result: { isError?: boolean; structuredContent: { error?: { status: number } } };
      };
      return body.result;
    };
    for (let i = 0; i < 3; i++) expect((await viaProxy("203.0.113.7")).isError).toBeFalsy();
    const spent = await viaProxy("203.0.113.7");
    expect(spent.isError).toBe(true);
    expect(spent.structuredContent.error?.status).toBe(429);
    expect((await viaProxy("198.51.100.9")).isError).toBeFalsy();
  });

  it("passes the Authorization header through to the tools", async () => {
    const { key } = await access.createKey({ name: "mount" });
    const anon = await connect(`${base}/api/mcp`);
    expect(await fails(anon, "get_node", { game: "nlmtt8", stack: 40, history: "UTG" })).toMatchObject({
      status: 401,
    });
    const keyed = await connect(`${base}/api/mcp`, key);
    await ok(keyed, "get_node", { game: "nlmtt8", stack: 40, history: "UTG" });
    await anon.close();
    await keyed.close();
  });
});
