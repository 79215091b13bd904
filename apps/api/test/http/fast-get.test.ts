/**
 * The data GETs' fast path (src/http/fast-get.ts), through real HTTP: a URL answered twice is answered before
 * Koa from then on, a data URL not seen before is read and answered there too (a miss), and nothing a client
 * sees tells them from Koa's answers: the same headers in the same order, the same bodies (plain, brotli,
 * gzip, HEAD, 304), one log line and one metered call per request, and refusals (spent allowance, revoked
 * key, a body on a GET) and bad queries answered as Koa answers them. Koa's own answers come from the same
 * URLs with a percent-encoded game segment, which only the router matches.
 */

import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, expectError, fixturePacksDir, getJson, start, type TestServer } from "../helpers.js";

const R = "/api/v1/ranges";
let dir: string;
let removePacks: () => void;
const servers: TestServer[] = [];

beforeAll(async () => {
  const p = await fixturePacksDir(false);
  dir = p.dir;
  removePacks = p.remove;
});
afterAll(async () => {
  for (const s of servers) await s.close();
  removePacks();
});

async function server(keylessDailyLimit = 100_000): Promise<TestServer> {
  const s = await start({ packsDir: dir, keylessDailyLimit });
  servers.push(s);
  return s;
}

interface Raw {
  status: number;
  /** Header names and values in the order sent, without those that differ per request. */
  headers: string[];
  body: Buffer;
}

/** Headers whose values differ from one request to the next whichever path answers. */
const PER_REQUEST = new Set(["date", "x-request-id", "ratelimit-remaining", "ratelimit-reset"]);

function raw(
  base: string,
  path: string,
  method = "GET",
  headers: Record<string, string> = {},
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const out: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          out.push(PER_REQUEST.has(name.toLowerCase()) ? `${name}: *` : `${name}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode!, headers: out, body: Buffer.concat(chunks) });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the cached GETs' fast path", () => {
  it("answers a remembered URL exactly as Koa answered it: headers in order, bodies, HEAD, encodings, 304", async () => {
    const s = await server();
    const path = `${R}/nl/node?stack=100&history=UTG`;
    const first = await raw(s.base, path);
    expect(first.status).toBe(200);
    const etag = first.headers.find((h) => h.startsWith("ETag: "))!.slice(6);
    const variants: [string, string, Record<string, string>][] = [
      ["plain", "GET", {}],
      ["origin", "GET", { Origin: "https://example.org" }],
      ["brotli", "GET", { "Accept-Encoding": "br" }],
      ["gzip", "GET", { "Accept-Encoding": "gzip, deflate" }],
      ["identity only", "GET", { "Accept-Encoding": "identity" }],
      ["HEAD", "HEAD", {}],
      ["HEAD brotli", "HEAD", { "Accept-Encoding": "br" }],
      ["304", "GET", { "If-None-Match": etag }],
      ["304 in a list, brotli", "GET", { "If-None-Match": `"other", ${etag}`, "Accept-Encoding": "br" }],
      ["stale tag", "GET", { "If-None-Match": '"other"' }],
    ];
    // Each variant: the first answer may come from Koa (a compressed body not cached yet), the next three
    // from the fast path; all four alike.
    for (const [name, method, headers] of variants) {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await raw(s.base, path, method, headers));
      for (const a of answers.slice(1)) {
        expect(a.status, name).toBe(answers[0]!.status);
        expect(a.headers, name).toEqual(answers[0]!.headers);
        expect(a.body.equals(answers[0]!.body), name).toBe(true);
      }
    }
    const plain = await raw(s.base, path);
    expect(plain.headers).toEqual(first.headers);
    expect(plain.body.equals(first.body)).toBe(true);
    // Distinct request ids, one log line per request, each with the caller's meter.
    const lines = s.logs.filter((l) => l.path === `${R}/nl/node`);
    expect(lines).toHaveLength(2 + variants.length * 4);
    expect(new Set(lines.map((l) => l.requestId)).size).toBe(lines.length);
    for (const l of lines) expect(l).toMatchObject({ level: "info", ip: "127.0.0.1", via: "ip" });
    expect(lines.filter((l) => l.method === "HEAD")).toHaveLength(8);
    expect(lines.filter((l) => l.status === 304)).toHaveLength(8);
  });

  it("answers a URL it has not seen (its body built on a miss) exactly as Koa answers it", async () => {
    const s = await server();
    // Each query twice: first the fast path's miss (the body is built there), then Koa through the router
    // (a percent-encoded game segment; the store now holds the body under the same key).
    const queries: [game: string, routed: string, query: string][] = [
      ["nl", "n%6C", "node?stack=100&history=UTG"],
      ["nl", "n%6C", "node?stack=100&history=UTG&minFreq=0.05"],
      ["nl", "n%6C", "node?stack=100&history=UTG&hand=AKs"],
      ["nl", "n%6C", "node?stack=100&history=UTG&full=1"],
      ["nl", "n%6C", "node?stack=100&history=UTG_60%25_HJ&minFreq=0.000000001"],
      ["nl", "n%6C", "range?stack=100&spot=UTG_Fold"],
      ["nl", "n%6C", "range?stack=100&spot=UTG_60%25&hand=AA&minFreq=0.2"],
      ["nl/v2", "nl%2Fv2", "spots?stack=100"],
      ["nlmtt8", "nlmtt%38", "config?stack=40"],
    ];
    const variants: [string, string, Record<string, string>][] = [
      ["plain", "GET", {}],
      ["origin", "GET", { Origin: "https://example.org" }],
      ["brotli", "GET", { "Accept-Encoding": "br" }],
      ["HEAD", "HEAD", {}],
      ["304", "GET", { "If-None-Match": "*" }],
    ];
    let n = 0;
    for (const [game, routed, q] of queries) {
      for (const [name, method, headers] of variants) {
        // A distinct URL per variant (a trailing `&`, which the query parser ignores), so each is a miss.
        const query = `${q}${"&".repeat(n++)}`;
        const fast = await raw(s.base, `${R}/${game}/${query}`, method, headers);
        const koa = await raw(s.base, `${R}/${routed}/${query}`, method, headers);
        const what = `${name} ${game} ${query}`;
        expect(fast.status, what).toBe(koa.status);
        expect(fast.status, what).toBe(name === "304" ? 304 : 200);
        expect(fast.headers, what).toEqual(koa.headers);
        expect(fast.body.equals(koa.body), what).toBe(true);
      }
    }
    // One log line per request, alike whichever path answered.
    const lines = s.logs.filter((l) => l.path.startsWith(R));
    expect(lines).toHaveLength(2 * queries.length * variants.length);
    for (const l of lines) expect(l).toMatchObject({ level: "info", ip: "127.0.0.1", via: "ip" });
  });

  it("a bad query or an unknown line on a miss is Koa's error answer, metered once", async () => {
    const s = await server(1000);
    const bad = [
      ["node?stack=100&history=UTG&minFreq=2", 400, "invalid_parameter"],
      ["node?stack=100&history=UTG&minfreq=0.1", 400, "invalid_parameter"],
      ["node?stack=100&history=UTG_60%25", 400, "malformed_path"],
      ["node?stack=100&history=UTG_Open_HJ", 400, "invalid_token"],
      ["node?stack=100&history=UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_Fold_BB", 404, "node_not_found"],
      ["range?stack=100&spot=UTG_70%25", 404, "action_not_available"],
      ["node?stack=7&history=UTG", 404, "unknown_stack"],
    ] as const;
    const before = await s.access.usedToday({ ip: "127.0.0.1" });
    for (const [query, status, code] of bad) {
      const fast = await raw(s.base, `${R}/nl/${query}`);
      const koa = await raw(s.base, `${R}/n%6C/${query}`);
      expect(fast.status, query).toBe(status);
      expect(JSON.parse(fast.body.toString()).error.code, query).toBe(code);
      expect(fast.headers, query).toEqual(koa.headers);
      expect(fast.body.toString(), query).toBe(koa.body.toString());
    }
    // Every call counted once (a bad query after its authorization is counted, as Koa counts it).
    expect(await s.access.usedToday({ ip: "127.0.0.1" })).toBe(before + 2 * bad.length);
    const lines = s.logs.filter((l) => l.path === `${R}/nl/node` || l.path === `${R}/nl/range`);
    expect(lines).toHaveLength(bad.length);
    for (const [i, l] of lines.entries()) expect(l).toMatchObject({ status: bad[i]![1], code: bad[i]![2] });
  });

  it("a keyed game's miss without a key is Koa's 401", async () => {
    const s = await server();
    const r = await getJson(`${s.base}${R}/nlmtt8/node?stack=40&history=UTG&minFreq=0.01`);
    expectError(r, 401, "unauthorized", /needs an API key/);
  });

  it("echoes a sane X-Request-Id and counts every call once", async () => {
    const s = await server(1000);
    const path = `${R}/nl/range?stack=100&spot=UTG_Fold`;
    const before = await s.access.usedToday({ ip: "127.0.0.1" });
    const remaining: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await getJson(`${s.base}${path}`, { headers: { "X-Request-Id": `mine-${i}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get("x-request-id")).toBe(`mine-${i}`);
      remaining.push(Number(r.headers.get("ratelimit-remaining")));
    }
    expect(remaining).toEqual([999, 998, 997, 996, 995, 994].map((n) => n - before));
    expect(await s.access.usedToday({ ip: "127.0.0.1" })).toBe(before + 6);
  });

  it("a spent keyless allowance on a remembered URL is a 429 (refusals are not counted)", async () => {
    const s = await server(3);
    const path = `${R}/nl/node?stack=100&history=UTG`;
    for (let i = 0; i < 3; i++) expect((await getJson(`${s.base}${path}`)).status).toBe(200);
    const r = await getJson(`${s.base}${path}`);
    expectError(r, 429, "rate_limited");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("etag")).toBeNull();
    expect(await s.access.usedToday({ ip: "127.0.0.1" })).toBe(3);
    expect(s.logs.at(-1)).toMatchObject({ status: 429, code: "rate_limited" });
  });

  it("a key revoked after its URL was remembered is refused on the next call", async () => {
    const s = await server();
    const k = await s.access.createKey({ name: "soon gone" });
    const path = `${R}/nlmtt8/node?stack=40&history=UTG`;
    for (let i = 0; i < 2; i++) expect((await getJson(`${s.base}${path}`, bearer(k.key))).status).toBe(200);
    await s.access.revokeKey(k.id);
    const r = await getJson(`${s.base}${path}`, bearer(k.key));
    expectError(r, 401, "unauthorized", /revoked/);
    // Keyed: without a key the remembered URL is still a 401.
    expectError(await getJson(`${s.base}${path}`), 401, "unauthorized", /needs an API key/);
  });

  it("a body on a remembered GET is still refused before it is read", async () => {
    const s = await server();
    const path = `${R}/nl/node?stack=100&history=UTG`;
    expect((await getJson(`${s.base}${path}`)).status).toBe(200);
    const r = await raw(s.base, path, "GET", { "Content-Length": "0" });
    expect(r.status).toBe(200);
    const withBody = (await raw(s.base, path, "GET", { "Content-Length": "5" }, "hello")).status;
    expect(withBody).toBe(400);
  });
});
