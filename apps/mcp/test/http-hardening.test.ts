/**
 * The standalone server's HTTP surface on real sockets, held to the API's hardening rules: X-Forwarded-For is
 * believed only from the proxies TRUST_PROXY lists, walked from the right, ports stripped (item 5); error
 * bodies repeat at most 40 characters of any input and no server paths, and every response carries
 * nosniff and Referrer-Policy (item 7).
 */

import { symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { connect as connectSocket } from "node:net";
import { AccessStore, type AuthorizeInput } from "@ranges/access";
import { packPath, RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import { writeFixturePacks } from "./fixtures.js";

let store: RangeStore;
const started: { running: RunningMcpServer; access: AccessStore }[] = [];

beforeAll(async () => {
  store = RangeStore.open({ packsDir: (await writeFixturePacks()).dir });
});
afterAll(async () => {
  for (const s of started) {
    await s.running.close();
    await s.access.close();
  }
});

interface Started {
  readonly running: RunningMcpServer;
  /** The client address of every access check, in order. */
  readonly seen: string[];
}

async function server(trustProxy?: string | readonly string[], packs = store): Promise<Started> {
  const access = await AccessStore.open(":memory:", { keylessDailyLimit: 100_000 });
  const seen: string[] = [];
  const authorize = access.authorize.bind(access);
  access.authorize = (input: AuthorizeInput) => {
    seen.push(input.ip);
    return authorize(input);
  };
  const running = await startMcpServer({
    port: 0,
    host: "127.0.0.1",
    store: packs,
    access,
    ...(trustProxy === undefined ? {} : { trustProxy }),
  });
  started.push({ running, access });
  return { running, seen };
}

const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

/** A tools/call by plain POST; the whole response text. */
async function callTool(
  url: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** The client address the server metered a keyless call under, for an X-Forwarded-For value. */
async function meteredAs(s: Started, xff?: string): Promise<string> {
  const before = s.seen.length;
  const r = await callTool(
    s.running.url,
    "list_games",
    {},
    xff === undefined ? {} : { "X-Forwarded-For": xff },
  );
  expect(r.status).toBe(200);
  expect(s.seen.length).toBe(before + 1);
  return s.seen.at(-1)!;
}

/** Writes a raw request and resolves with everything the server sent before it closed. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connectSocket(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    sock.on("connect", () => sock.write(request));
    sock.on("data", (d: Buffer) => chunks.push(d));
    sock.on("error", reject);
    sock.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    setTimeout(() => sock.destroy(), 5000).unref();
  });
}

describe("item 5: X-Forwarded-For only from listed proxies", () => {
  it("TRUST_PROXY=1 or true, which trusted every peer, is refused at start", async () => {
    const access = await AccessStore.open(":memory:");
    try {
      for (const value of ["1", "true", "TRUE", "loopback, yes"]) {
        await expect(startMcpServer({ port: 0, store, access, trustProxy: value }), value).rejects.toThrow(
          /would trust X-Forwarded-For from any peer.*comma-separated/,
        );
      }
      // The boolean of the old option, from a caller without types.
      await expect(startMcpServer({ port: 0, store, access, trustProxy: true as never })).rejects.toThrow(
        /any peer/,
      );
      await expect(startMcpServer({ port: 0, store, access, trustProxy: "2" })).rejects.toThrow(
        /count of hops is not supported/,
      );
      await expect(startMcpServer({ port: 0, store, access, trustProxy: "proxy.example" })).rejects.toThrow(
        /^TRUST_PROXY: /,
      );
    } finally {
      await access.close();
    }
  });

  it("without TRUST_PROXY the peer is the client, whatever X-Forwarded-For says", async () => {
    for (const off of [undefined, "", "0", "false"]) {
      const s = await server(off);
      expect(await meteredAs(s, "198.51.100.7")).toBe("127.0.0.1");
      expect(await meteredAs(s)).toBe("127.0.0.1");
    }
  });

  it("a peer that is not a listed proxy is the client", async () => {
    const s = await server("10.0.0.0/8, 192.168.1.1");
    expect(await meteredAs(s, "198.51.100.7")).toBe("127.0.0.1");
    expect(await meteredAs(s, "198.51.100.7, 10.0.0.1")).toBe("127.0.0.1");
  });

  it("behind a listed proxy: the rightmost address that is not a listed proxy, never the client-written first", async () => {
    const s = await server("loopback, 203.0.113.0/24");
    expect(await meteredAs(s, "198.51.100.7")).toBe("198.51.100.7");
    expect(await meteredAs(s, "6.6.6.6, 198.51.100.7")).toBe("198.51.100.7");
    expect(await meteredAs(s, "6.6.6.6, 198.51.100.8, 203.0.113.5, 203.0.113.6")).toBe("198.51.100.8");
    // A hop that is not an address ends the walk at the last listed proxy.
    expect(await meteredAs(s, "198.51.100.9, unknown")).toBe("127.0.0.1");
    expect(await meteredAs(s)).toBe("127.0.0.1");
    // The list may also be given as an array.
    const listed = await server(["127.0.0.1"]);
    expect(await meteredAs(listed, "6.6.6.6, 198.51.100.10")).toBe("198.51.100.10");
  });

  it("ports are stripped and IPv4-mapped and IPv6 spellings meet in one address", async () => {
    const s = await server("loopback");
    for (const xff of ["198.51.100.1:5678", "::ffff:198.51.100.1", "[::ffff:198.51.100.1]:443"]) {
      expect(await meteredAs(s, xff), xff).toBe("198.51.100.1");
    }
    for (const xff of ["[2001:DB8::1]:443", "2001:db8:0:0:0:0:0:1"]) {
      expect(await meteredAs(s, xff), xff).toBe("2001:db8::1");
    }
  });

  it("several X-Forwarded-For lines are one list (raw socket)", async () => {
    const s = await server("loopback");
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "list_games", arguments: {} },
    });
    const reply = await raw(
      s.running.port,
      [
        "POST /mcp HTTP/1.1",
        "Host: localhost",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        "X-Forwarded-For: 6.6.6.6",
        "X-Forwarded-For: 198.51.100.77:31337",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
        "",
        body,
      ].join("\r\n"),
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(s.seen.at(-1)).toBe("198.51.100.77");
  });
});

describe("item 7: headers and messages", () => {
  let s: Started;
  beforeAll(async () => {
    s = await server();
  });
  const base = () => `http://127.0.0.1:${s.running.port}`;
  const z = (n = 300) => "z".repeat(n);

  function expectSecurityHeaders(headers: Headers): void {
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
  }

  it("every response carries nosniff and Referrer-Policy, errors included", async () => {
    const post = (body: string, path = "/mcp") =>
      fetch(`${base()}${path}`, { method: "POST", headers: JSON_HEADERS, body });
    const responses = [
      await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })),
      await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), "/api/mcp"),
      await post("{not json"),
      await post(JSON.stringify({ pad: z(1_100_000) })),
      await fetch(`${base()}/mcp`, { method: "GET" }),
      await fetch(`${base()}/nope`),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 400, 413, 405, 404]);
    for (const r of responses) {
      await r.arrayBuffer();
      expectSecurityHeaders(r.headers);
    }
    const toolError = await callTool(s.running.url, "get_node", { game: "nl/v2", stack: 100, history: "XX" });
    expect(toolError.text).toContain('"isError":true');
    expectSecurityHeaders(toolError.headers);
  });

  it("an unknown path is echoed as at most 40 characters", async () => {
    const res = await fetch(`${base()}/${z()}?${z()}=${z()}`);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toMatch(/z{41}/);
    expect(text).toMatch(/z{39}…/);
  });

  const spot = (history: string) => ({ game: "nl/v2", stack: 100, history });
  const side = (history: string) => ({ game: "nl/v2", stack: 100, history });
  it.each<[string, string, Record<string, unknown>]>([
    ["history token", "get_node", spot(`UTG_${z()}`)],
    ["history seat", "get_node", spot(z())],
    ["quotes inside the input", "get_node", spot(`UTG_a"${z()}"b`)],
    ["percent-encoded, decoded by the tool", "get_node", spot(`UTG_${z(60)}%25${z(60)}`)],
    ["range spot", "get_range", { game: "nl/v2", stack: 100, spot: `UTG_Fold_${z()}` }],
    ["hand", "get_node", { ...spot("UTG"), hand: z(24), combo: "AhKh" }],
    [
      "compare side",
      "compare_strategies",
      { domain: "preflop", baseline: side(`UTG_${z()}`), comparison: side("UTG") },
    ],
    ["unknown game (input schema)", "get_node", { game: z(), stack: 100, history: "UTG" }],
    ["unknown argument (input schema)", "get_node", { ...spot("UTG"), [z()]: 1 }],
    ["unknown nested argument", "compare_strategies", { domain: "preflop", baseline: { [z()]: 1 } }],
    ["unknown tool (SDK)", z(), {}],
  ])("bad input is echoed as at most 40 characters (%s)", async (label, name, args) => {
    const r = await callTool(s.running.url, name, args);
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/"isError":true/);
    expect(r.text).not.toMatch(/z{41}/);
    // A hand is at most 24 characters by the input schema: repeated whole.
    expect(r.text).toMatch(label === "hand" ? /z{24}/ : /z{30,40}…/);
  });

  it("messages that quote several short inputs are kept whole", async () => {
    const r = await callTool(s.running.url, "compare_strategies", {
      domain: "preflop",
      baseline: { ...side("UTG"), spot: "UTG" },
      comparison: { ...side("UTG"), spot: "UTG" },
    });
    expect(r.text).not.toContain("…");
    expect(r.text).toMatch(
      /Unknown argument \\"spot\\": compare_strategies baseline takes game, stack, history,/,
    );
    expect(r.text).toMatch(/Unknown argument \\"spot\\": compare_strategies comparison takes game, stack,/);
  });

  it("percent-encoded input the tool does not decode is cut too", async () => {
    const r = await callTool(s.running.url, "get_node", spot(`UTG_${"%7A".repeat(100)}`));
    expect(r.text).toMatch(/"isError":true/);
    expect(r.text).not.toMatch(/(%7A){14}/);
    expect(r.text).toMatch(/(%7A){13}%…/);
  });

  describe("no server file paths in messages", () => {
    let dir: string;
    let broken: Started;
    beforeAll(async () => {
      dir = (await writeFixturePacks()).dir;
      // A pack that is a dangling link, a file that is not a pack, and one deleted after the store opened it.
      symlinkSync("/nonexistent/elsewhere/25.pack", packPath(dir, "nl/v2", 25));
      writeFileSync(packPath(dir, "nl/v2", 30), "x".repeat(200));
      broken = await server(undefined, RangeStore.open({ packsDir: dir }));
      unlinkSync(packPath(dir, "nl/v2", 50));
    });

    it.each<[string, string, Record<string, unknown>]>([
      ["a dangling pack link", "get_node", { game: "nl/v2", stack: 25, history: "UTG" }],
      ["a dangling pack link (metadata)", "get_range_metadata", { game: "nl/v2", stack: 25 }],
      ["a file that is not a pack", "get_tree_docs", { game: "nl/v2", stack: 30 }],
      ["a pack deleted after start", "get_node", { game: "nl/v2", stack: 50, history: "UTG" }],
    ])("%s", async (_, name, args) => {
      const r = await callTool(broken.running.url, name, args);
      expect(r.text).toContain('"pack_unavailable"');
      expect(r.text).not.toContain(dir);
      expect(r.text).not.toMatch(/'\/[^']*'/);
      expect(r.text).not.toContain("/nonexistent");
      expect(r.text).not.toMatch(/\/(tmp|root|home|work)\//);
    });
  });
});
