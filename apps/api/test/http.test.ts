import { request } from "node:http";
import { CatalogSchema, NodeSchema } from "@ranges/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpHandler } from "../src/index.js";
import { bearer, expectError, fixturePacksDir, getJson, start, type TestServer } from "./helpers.js";

const R = "/api/v1/ranges";
let t: TestServer;
let bare: TestServer;
let removePacks: () => void;
const mcpCalls: unknown[] = [];

const echoMcp: McpHandler = async (_req, res, body) => {
  mcpCalls.push(body);
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { echoed: body ?? null } }));
};

beforeAll(async () => {
  const p = await fixturePacksDir();
  removePacks = p.remove;
  t = await start({ packsDir: p.dir, keylessDailyLimit: 100_000, mcpHandler: echoMcp });
  bare = await start({ packsDir: p.dir, keylessDailyLimit: 100_000 });
});
afterAll(async () => {
  await t.close();
  await bare.close();
  removePacks();
});

describe("CORS", () => {
  it("answers a preflight for any origin and allows Authorization", async () => {
    const res = await fetch(`${t.base}${R}/nlmtt8/node?stack=40&history=UTG`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://example.org",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization,if-none-match",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    expect(res.headers.get("access-control-max-age")).toBe("86400");
  });

  it("exposes ETag, RateLimit-*, Retry-After and X-Request-Id on actual requests", async () => {
    const res = await fetch(`${t.base}${R}/games`, { headers: { Origin: "https://example.org" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = res.headers.get("access-control-expose-headers") ?? "";
    for (const h of ["ETag", "RateLimit-Remaining", "Retry-After", "X-Request-Id"])
      expect(exposed).toContain(h);
  });

  it("a plain OPTIONS (no preflight) lists the allowed methods", async () => {
    const res = await fetch(`${t.base}${R}/games`, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toContain("GET");
  });
});

describe("caching", () => {
  it("data responses are immutable with an ETag; If-None-Match gives 304 (still metered)", async () => {
    const url = `${t.base}${R}/nl/node?stack=100&history=UTG`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=86400, immutable");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^(W\/)?".+"$/);
    const before = await t.access.usedToday({ ip: "127.0.0.1" });
    for (const inm of [etag, `"nope", ${etag}`, etag.startsWith("W/") ? etag.slice(2) : `W/${etag}`, "*"]) {
      const again = await fetch(url, { headers: { "If-None-Match": inm } });
      expect(again.status, inm).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("ratelimit-remaining")).not.toBeNull();
    }
    expect(await t.access.usedToday({ ip: "127.0.0.1" })).toBe(before + 4);
    const stale = await fetch(url, { headers: { "If-None-Match": '"other"' } });
    expect(stale.status).toBe(200);
  });

  it("different queries have different ETags; the same query the same one", async () => {
    const a = await fetch(`${t.base}${R}/nl/node?stack=100&history=UTG`);
    const b = await fetch(`${t.base}${R}/nl/node?stack=100&history=UTG&hand=AKs`);
    const c = await fetch(`${t.base}${R}/nl/node?stack=100&history=UTG`);
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    expect(a.headers.get("etag")).toBe(c.headers.get("etag"));
  });

  it("catalog and discovery are cached briefly; errors are no-store", async () => {
    const c = await fetch(`${t.base}${R}/games`);
    expect(c.headers.get("cache-control")).toBe("public, max-age=300");
    const e = await fetch(`${t.base}${R}/nl/node?stack=100`);
    expect(e.headers.get("cache-control")).toBe("no-store");
    expect(e.headers.get("etag")).toBeNull();
  });
});

describe("methods and routes", () => {
  it.each([
    ["POST", `${R}/games`],
    ["PUT", `${R}/nl/node?stack=100&history=UTG`],
    ["DELETE", `${R}/nl/v2/range`],
    ["PATCH", `${R}/nlmtt8`],
  ])("%s %s is 405 with Allow", async (method, path) => {
    const r = await getJson(`${t.base}${path}`, { method });
    expectError(r, 405, "method_not_allowed", new RegExp(`${method} is not allowed`));
    expect(r.headers.get("allow")).toMatch(/GET/);
  });

  it("GET and DELETE on /api/mcp are 405 with Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const r = await getJson(`${t.base}/api/mcp`, { method });
      expectError(r, 405, "method_not_allowed");
      expect(r.headers.get("allow")).toBe("POST");
    }
  });

  it("HEAD works like GET without a body", async () => {
    const res = await fetch(`${t.base}${R}/games`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("unknown routes are 404 with the error body", async () => {
    expectError(await getJson(`${t.base}/nope`), 404, "not_found", /No endpoint at \/nope/);
    expectError(await getJson(`${t.base}/api/v1/ranges/nl/v3/node`), 404, "not_found");
    expectError(await getJson(`${t.base}/api/v2/ranges/games`), 404, "not_found");
  });

  it("the string fast path and the router give identical answers", async () => {
    // Percent-encoded game segments skip the fast path and go through @koa/router.
    const pairs = [
      [`${R}/nl/v2/node?stack=100&history=UTG`, `${R}/nl%2Fv2/node?stack=100&history=UTG`],
      [`${R}/nl/range?stack=100&spot=UTG_Fold`, `${R}/n%6C/range?stack=100&spot=UTG_Fold`],
      [`${R}/nl/v2/spots?stack=30`, `${R}/nl%2fv2/spots?stack=30`],
      [`${R}/poker/node`, `${R}/pok%65r/node`],
      [`${R}/plo`, `${R}/pl%6F`],
    ];
    for (const [fast, routed] of pairs) {
      const a = await getJson(`${t.base}${fast}`);
      const b = await getJson(`${t.base}${routed}`);
      expect(b.status, routed).toBe(a.status);
      expect(b.text, routed).toBe(a.text);
      expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
    }
  });

  it("a percent-encoded slash in the game segment still names nl/v2", async () => {
    const r = await getJson(`${t.base}${R}/nl%2Fv2/node?stack=100&history=UTG`);
    expect(r.status).toBe(200);
    expect(NodeSchema.parse(r.body).game).toBe("nl/v2");
  });
});

describe("service endpoints", () => {
  it("/healthz is 200", async () => {
    const r = await getJson(`${t.base}/healthz`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ok" });
  });

  it("/readyz reports pack counts, and 503 when the access database is gone", async () => {
    const r = await getJson(`${t.base}/readyz`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "ready", access: "ok" });
    const packs = (r.body as { packs: { live: number; failed: number } }).packs;
    expect(packs.live).toBeGreaterThanOrEqual(6);
    expect(packs.live + packs.failed).toBe(t.store.packStatus().length);
    const s = await start({ packsDir: t.store.packsDir });
    await s.access.close();
    const down = await getJson(`${s.base}/readyz`);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: "not_ready", access: "unavailable" });
    await s.close();
  });

  it("/api/v1/openapi.json is the schema package's document", async () => {
    const r = await getJson(`${t.base}/api/v1/openapi.json`);
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe("3.1.0");
    expect(Object.keys(r.body.paths as object)).toContain("/api/v1/ranges/nl/v2/node");
  });

  it("X-Request-Id: a sane incoming id is echoed, anything else replaced", async () => {
    const mine = await fetch(`${t.base}/healthz`, { headers: { "X-Request-Id": "abc-123.x:y" } });
    expect(mine.headers.get("x-request-id")).toBe("abc-123.x:y");
    const junk = await fetch(`${t.base}/healthz`, { headers: { "X-Request-Id": "a b<script>" } });
    expect(junk.headers.get("x-request-id")).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    const none = await fetch(`${t.base}/healthz`);
    expect(none.headers.get("x-request-id")).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    expect(none.headers.get("x-request-id")).not.toBe(junk.headers.get("x-request-id"));
  });

  it("logs one structured line per request", async () => {
    const n = t.logs.length;
    await fetch(`${t.base}${R}/nl/node?stack=abc&history=UTG`, { headers: { "X-Request-Id": "log-test-1" } });
    expect(t.logs.length).toBe(n + 1);
    expect(t.logs.at(-1)).toMatchObject({
      level: "warn",
      requestId: "log-test-1",
      method: "GET",
      path: `${R}/nl/node`,
      status: 400,
      ip: "127.0.0.1",
      via: "ip",
      code: "invalid_parameter",
    });
    expect(typeof t.logs.at(-1)!.ms).toBe("number");
    expect(t.logs.at(-1)!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe("POST /api/mcp", () => {
  const post = (base: string, body: string, headers: Record<string, string> = {}) =>
    getJson(`${base}/api/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body,
    });

  it("hands the parsed body to the MCP handler, which writes the response", async () => {
    const msg = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const r = await post(t.base, JSON.stringify(msg), { Origin: "https://x.example" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ jsonrpc: "2.0", id: 1, result: { echoed: msg } });
    expect(mcpCalls.at(-1)).toEqual(msg);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("x-request-id")).toBeTruthy();
    expect(t.logs.at(-1)).toMatchObject({ path: "/api/mcp", status: 200, via: "mcp" });
  });

  it("passes bad JSON and an empty body on as undefined", async () => {
    await post(t.base, "{not json");
    expect(mcpCalls.at(-1)).toBeUndefined();
    await post(t.base, "");
    expect(mcpCalls.at(-1)).toBeUndefined();
  });

  it("refuses bodies over 1 MB with 413", async () => {
    const big = JSON.stringify({ pad: "x".repeat(1024 * 1024) });
    expectError(await post(t.base, big), 413, "payload_too_large");
    // Also when the size is not declared up front (chunked upload).
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${t.base}/api/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      for (let i = 0; i < 20; i++) req.write("x".repeat(64 * 1024));
      req.end();
    });
    expect(status).toBe(413);
  });

  it("a handler that fails before writing gets the 500 error body, not a hung request", async () => {
    const failing = await start({
      packsDir: t.store.packsDir,
      mcpHandler: async () => {
        throw new Error("boom");
      },
    });
    const r = await post(failing.base, "{}");
    expectError(r, 500, "internal_error", /X-Request-Id/);
    expect(failing.logs.at(-1)).toMatchObject({ level: "error", status: 500, code: "internal_error" });
    expect(failing.logs.at(-1)!.err).toMatch(/boom/);
    await failing.close();
  });

  it("is 404 when no MCP handler is mounted", async () => {
    expectError(await post(bare.base, "{}"), 404, "not_found", /MCP endpoint is not enabled/);
  });
});

describe("raw bytes the URL parser would normalize", () => {
  /** Sends a request line as given (latin-1 bytes, '#', quotes) and returns the status. */
  function raw(path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(`${t.base}/`, { path, method: "GET" });
      req.on("response", (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it.each([
    `${R}/nl/node?stack=100&history=UTG#frag`,
    `${R}/nl/node?stack=100&history=UTG_\u00ff_HJ`,
    `${R}/nl/node?stack=100&history="UTG"`,
    `${R}/nl/node?stack=100&history=UTG&hand=(AK)`,
    `${R}/nl/node?stack=100&history=%`,
    `${R}/nl/node?=&=&stack=100&history=UTG`,
    `${R}/nl%/node`,
    `${R}/%E0%A4%A/node`,
    `${R}/games?%`,
  ])("%s is answered without a 5xx", async (path) => {
    const r = await raw(path);
    expect(r.status).toBeLessThan(500);
    if (r.status >= 400) expect(() => JSON.parse(r.body)).not.toThrow();
  });

  it("the catalog validates after all of the above", async () => {
    CatalogSchema.parse(
      (await getJson(`${t.base}${R}/games`, bearer((await t.access.createKey({ name: "x" })).key))).body,
    );
  });
});
