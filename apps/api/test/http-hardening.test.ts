/**
 * HTTP hardening, on real sockets: unwanted request bodies are refused and their connections closed (item
 * 2); what Node's HTTP parser rejects, timeouts and CONNECT get the right status with the error body and the
 * usual headers (item 3); X-Forwarded-For is believed only from listed proxies (item 5); security headers on
 * every response, short echoes of bad input, no server paths in messages (item 7).
 */

import { mkdirSync, symlinkSync, unlinkSync } from "node:fs";
import type { Server, Socket } from "node:net";
import { connect } from "node:net";
import { join } from "node:path";
import { ErrorBodySchema } from "@ranges/schema";
import { packPath } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddress, compileTrustProxy, normalizeAddress } from "../src/client-ip.js";
import { clip } from "../src/errors.js";
import type { McpHandler } from "../src/index.js";
import { fixturePacksDir, getJson, start, type TestServer } from "./helpers.js";

const R = "/api/v1/ranges";
let t: TestServer;
let removePacks: () => void;
const forwardedToMcp: (string | undefined)[] = [];

const echoMcp: McpHandler = async (req, res) => {
  forwardedToMcp.push(req.headers["x-forwarded-for"] as string | undefined);
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
};

beforeAll(async () => {
  const p = await fixturePacksDir();
  removePacks = p.remove;
  t = await start({ packsDir: p.dir, keylessDailyLimit: 100_000, mcpHandler: echoMcp });
});
afterAll(async () => {
  await t.close();
  removePacks();
});

const portOf = (s: TestServer) => Number(new URL(s.base).port);

interface RawReply {
  /** Status of the last response on the connection (a 100 Continue before it is skipped). */
  status: number;
  headers: Record<string, string>;
  /** Bytes after the last response head. */
  body: string;
  raw: string;
  /** Whether the server closed the connection within the wait, and when. */
  closedAfterMs: number | null;
}

/**
 * Sends `head` on a new connection; with `stream`, then writes `stream` over and over (a body that never
 * ends) until the server closes or `waitMs` passes. Resolves with what came back.
 */
function exchange(
  port: number,
  head: string | Buffer,
  o: { stream?: Buffer; waitMs?: number; after?: (sock: Socket) => void } = {},
): Promise<RawReply> {
  const waitMs = o.waitMs ?? 3000;
  return new Promise((resolve) => {
    const sock = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const t0 = performance.now();
    let closedAfterMs: number | null = null;
    let done = false;
    const pump = () => {
      while (o.stream && !done && !sock.destroyed && sock.write(o.stream));
    };
    sock.on("connect", () => {
      sock.write(head);
      o.after?.(sock);
      pump();
    });
    sock.on("drain", pump);
    sock.on("data", (d: Buffer) => {
      if (chunks.reduce((n, c) => n + c.length, 0) < 1 << 20) chunks.push(d);
    });
    sock.on("error", () => {});
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      const raw = Buffer.concat(chunks).toString("latin1");
      // The last response on the connection (skipping interim 100 Continue responses).
      let at = 0;
      for (;;) {
        const next = raw.indexOf("HTTP/1.1 ", at + 1);
        if (!raw.startsWith("HTTP/1.1 1", at) || next < 0) break;
        at = next;
      }
      const end = raw.indexOf("\r\n\r\n", at);
      const headText = end < 0 ? raw.slice(at) : raw.slice(at, end);
      const [statusLine, ...lines] = headText.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? "")?.[1] ?? 0),
        headers,
        body: end < 0 ? "" : Buffer.from(raw.slice(end + 4), "latin1").toString("utf8"),
        raw,
        closedAfterMs,
      });
    };
    sock.on("close", () => {
      closedAfterMs = performance.now() - t0;
      finish();
    });
    const timer = setTimeout(finish, waitMs);
  });
}

/** Bytes the server read from the connections opened while `fn` runs. */
async function serverBytesRead<T>(
  server: Server,
  fn: () => Promise<T>,
): Promise<{ result: T; bytes: number }> {
  const sockets: Socket[] = [];
  const track = (s: Socket) => sockets.push(s);
  server.on("connection", track);
  try {
    const result = await fn();
    await new Promise((r) => setTimeout(r, 20));
    return { result, bytes: sockets.reduce((n, s) => n + s.bytesRead, 0) };
  } finally {
    server.off("connection", track);
  }
}

function expectErrorReply(r: RawReply, status: number, code: string, message?: RegExp) {
  expect(r.status, r.raw.slice(0, 300)).toBe(status);
  const body = ErrorBodySchema.parse(JSON.parse(r.body));
  expect(body.error.status).toBe(status);
  expect(body.error.code).toBe(code);
  if (message) expect(body.error.message).toMatch(message);
  expectCommonHeaders(r.headers);
  expect(r.headers["cache-control"]).toBe("no-store");
  return body.error;
}

/**
 * The headers every response carries, errors included; CORS when the request had an Origin (the answers
 * written outside Koa, which cannot see the request's headers, always carry it).
 */
function expectCommonHeaders(h: Record<string, string> | Headers, cors = true) {
  const get = (n: string) => (h instanceof Headers ? h.get(n) : h[n]);
  expect(get("x-content-type-options")).toBe("nosniff");
  expect(get("referrer-policy")).toBe("no-referrer");
  if (cors) expect(get("access-control-allow-origin")).toBe("*");
  expect(get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
}

const ORIGIN = "Origin: https://app.example\r\n";

const MB = 1024 * 1024;
const RAW_CHUNK = Buffer.alloc(64 * 1024, "x");
const CHUNKED = Buffer.concat([Buffer.from("10000\r\n"), RAW_CHUNK, Buffer.from("\r\n")]);

describe("item 2: request bodies the server does not want", () => {
  it("after a 413 on /api/mcp the connection is closed, not drained (chunked body)", async () => {
    const { result: r, bytes } = await serverBytesRead(t.server, () =>
      exchange(
        portOf(t),
        `POST /api/mcp HTTP/1.1\r\nHost: x\r\n${ORIGIN}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        { stream: CHUNKED, waitMs: 3000 },
      ),
    );
    expectErrorReply(r, 413, "payload_too_large");
    expect(r.headers.connection).toBe("close");
    expect(r.closedAfterMs, "the server closes the connection").not.toBeNull();
    // The 1 MB limit, and what was in flight when the answer went out; not the ~1 GB/s of a drain.
    expect(bytes).toBeLessThan(16 * MB);
  });

  it("a declared Content-Length over the limit is refused before any byte of the body", async () => {
    const { result: r, bytes } = await serverBytesRead(t.server, () =>
      exchange(
        portOf(t),
        `POST /api/mcp HTTP/1.1\r\nHost: x\r\n${ORIGIN}Content-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n`,
        { stream: RAW_CHUNK, waitMs: 3000 },
      ),
    );
    expectErrorReply(r, 413, "payload_too_large");
    expect(r.closedAfterMs).not.toBeNull();
    expect(bytes).toBeLessThan(16 * MB);
  });

  it.each([
    ["GET", "/", "Content-Length: 10000000000"],
    ["GET", `${R}/games`, "Transfer-Encoding: chunked"],
    ["GET", `${R}/nl/node?stack=100&history=UTG`, "Content-Length: 10000000000"],
    ["HEAD", `${R}/games`, "Content-Length: 10000000000"],
  ])("%s %s with a body (%s) is a 400 and the connection is closed", async (method, path, framing) => {
    const { result: r, bytes } = await serverBytesRead(t.server, () =>
      exchange(portOf(t), `${method} ${path} HTTP/1.1\r\nHost: x\r\n${ORIGIN}${framing}\r\n\r\n`, {
        stream: framing.startsWith("Transfer") ? CHUNKED : RAW_CHUNK,
        waitMs: 3000,
      }),
    );
    expect(r.status).toBe(400);
    expectCommonHeaders(r.headers);
    if (method === "HEAD") {
      expect(r.body).toBe("");
    } else {
      expectErrorReply(r, 400, "bad_request", new RegExp(`${method} requests take no body`));
    }
    expect(r.closedAfterMs).not.toBeNull();
    expect(bytes).toBeLessThan(16 * MB);
  });

  it.each([
    ["PUT", "/nope", 404],
    ["POST", `${R}/games`, 405],
    ["DELETE", "/api/mcp", 405],
  ])("%s %s with an endless body is answered %d and the connection closed", async (method, path, status) => {
    const { result: r, bytes } = await serverBytesRead(t.server, () =>
      exchange(portOf(t), `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n`, {
        stream: RAW_CHUNK,
        waitMs: 3000,
      }),
    );
    expect(r.status).toBe(status);
    expect(r.headers.connection).toBe("close");
    expect(r.closedAfterMs).not.toBeNull();
    expect(bytes).toBeLessThan(16 * MB);
  });

  it("GET with Content-Length: 0 is no body: served, and the connection stays open", async () => {
    const r = await exchange(
      portOf(t),
      `GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\nGET ${R}/games HTTP/1.1\r\nHost: x\r\n\r\n`,
      // Long enough for two answers on a loaded machine (CI runs every package's tests at once).
      { waitMs: 2000 },
    );
    expect(r.raw.match(/HTTP\/1\.1 200 OK/g)?.length).toBe(2);
    expect(r.closedAfterMs).toBeNull();
  });

  it("a small body read in full keeps the connection (answered, no close)", async () => {
    const r = await exchange(
      portOf(t),
      "POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
      { waitMs: 400 },
    );
    expect(r.status).toBe(200);
    expect(r.closedAfterMs).toBeNull();
  });

  it("Expect: 100-continue is answered only when the body will be read", async () => {
    const big = await exchange(
      portOf(t),
      `POST /api/mcp HTTP/1.1\r\nHost: x\r\n${ORIGIN}Content-Type: application/json\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n`,
      { waitMs: 1500 },
    );
    expect(big.raw).not.toContain("100 Continue");
    expectErrorReply(big, 413, "payload_too_large");
    expect(big.closedAfterMs).not.toBeNull();

    const small = await exchange(
      portOf(t),
      "POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n",
      { waitMs: 600, after: (sock) => setTimeout(() => sock.write("{}"), 200) },
    );
    expect(small.raw.startsWith("HTTP/1.1 100 Continue")).toBe(true);
    expect(small.status).toBe(200);
  });
});

describe("item 3: requests that never reach the app", () => {
  it("the server has explicit limits and timeouts", () => {
    const s = t.server as Server & {
      headersTimeout: number;
      requestTimeout: number;
      maxHeaderSize?: number;
      keepAliveTimeout: number;
    };
    expect(s.headersTimeout).toBe(10_000);
    expect(s.requestTimeout).toBe(30_000);
    expect(s.keepAliveTimeout).toBe(5_000);
    expect(s.maxHeaderSize).toBe(16 * 1024);
  });

  it("a raw byte in the URL is a 400 with the error body, CORS, X-Request-Id and nosniff", async () => {
    const r = await exchange(
      portOf(t),
      Buffer.from(`GET ${R}/games\xff HTTP/1.1\r\nHost: x\r\n\r\n`, "latin1"),
    );
    expectErrorReply(r, 400, "invalid_parameter", /percent-encode every byte/);
    expect(r.closedAfterMs).not.toBeNull();
  });

  it("HEAD rejected by the parser gets the headers and no body", async () => {
    const r = await exchange(
      portOf(t),
      Buffer.from(`HEAD ${R}/games\xff HTTP/1.1\r\nHost: x\r\n\r\n`, "latin1"),
    );
    expect(r.status).toBe(400);
    expectCommonHeaders(r.headers);
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    expect(r.body).toBe("");
    expect(r.closedAfterMs).not.toBeNull();
  });

  it("a URL over the limit is a 414, whether Node's parser or the app sees it first", async () => {
    const viaParser = await exchange(portOf(t), `GET /${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectErrorReply(viaParser, 414, "uri_too_long");
    const viaApp = await exchange(
      portOf(t),
      `GET ${R}/games?${"a".repeat(10_000)} HTTP/1.1\r\nHost: x\r\n${ORIGIN}\r\n`,
      { waitMs: 500 },
    );
    expectErrorReply(viaApp, 414, "uri_too_long");
    const head = await exchange(portOf(t), `HEAD /${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(head.status).toBe(414);
    expect(head.body).toBe("");
  });

  it("headers over the limit are a 431", async () => {
    const one = await exchange(
      portOf(t),
      `GET ${R}/games HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`,
    );
    expectErrorReply(one, 431, "headers_too_large");
    const many = Array.from({ length: 1500 }, (_, i) => `X-H${i}: 0123456789`).join("\r\n");
    expectErrorReply(
      await exchange(portOf(t), `GET ${R}/games HTTP/1.1\r\nHost: x\r\n${many}\r\n\r\n`),
      431,
      "headers_too_large",
    );
  });

  it("an unknown method is a 405 with Allow; garbage is a 400", async () => {
    const r = await exchange(portOf(t), `FOO ${R}/games HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectErrorReply(r, 405, "method_not_allowed", /FOO is not a method this API answers/);
    expect(r.headers.allow).toMatch(/GET/);
    expectErrorReply(await exchange(portOf(t), "hello\r\n\r\n"), 400, "bad_request");
  });

  it("CONNECT is answered (405), not dropped", async () => {
    const r = await exchange(portOf(t), "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expectErrorReply(r, 405, "method_not_allowed", /CONNECT is not supported/);
    expect(r.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(r.closedAfterMs).not.toBeNull();
  });

  it("a missing Host on HTTP/1.1 is a 400 with the error body", async () => {
    const r = await exchange(portOf(t), `GET ${R}/games HTTP/1.1\r\n${ORIGIN}\r\n`, { waitMs: 500 });
    expectErrorReply(r, 400, "bad_request", /Host/);
  });

  it("logs one line per refused request", async () => {
    const n = t.logs.length;
    await exchange(portOf(t), Buffer.from("GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n", "latin1"));
    expect(t.logs.length).toBe(n + 1);
    expect(t.logs.at(-1)).toMatchObject({
      level: "warn",
      status: 400,
      code: "invalid_parameter",
      ip: "127.0.0.1",
    });
  });

  describe("timeouts", () => {
    let slow: TestServer;
    beforeAll(async () => {
      slow = await start({
        packsDir: t.store.packsDir,
        mcpHandler: echoMcp,
        http: { headersTimeoutMs: 400, requestTimeoutMs: 800, timeoutCheckMs: 100 },
      });
    });
    afterAll(() => slow.close());

    it("headers that never end are a 408 with the error body, and the connection closed", async () => {
      const r = await exchange(portOf(slow), `GET ${R}/games HTTP/1.1\r\nHost: x\r\n`, { waitMs: 3000 });
      expectErrorReply(r, 408, "request_timeout");
      expect(r.closedAfterMs).not.toBeNull();
      expect(r.closedAfterMs!).toBeLessThan(2500);
    });

    it("a body that never ends is a 408 too", async () => {
      const r = await exchange(
        portOf(slow),
        `POST /api/mcp HTTP/1.1\r\nHost: x\r\n${ORIGIN}Content-Type: application/json\r\nContent-Length: 100\r\nX-Request-Id: slow-body-1\r\n\r\n{"a":`,
        { waitMs: 3000 },
      );
      expectErrorReply(r, 408, "request_timeout");
      expect(r.headers["x-request-id"]).toBe("slow-body-1");
      expect(r.closedAfterMs).not.toBeNull();
    });
  });
});

describe("item 5: X-Forwarded-For only from listed proxies", () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  async function server(trustProxy?: string) {
    const s = await start({
      packsDir: t.store.packsDir,
      keylessDailyLimit: 5,
      mcpHandler: echoMcp,
      ...(trustProxy ? { trustProxy } : {}),
    });
    servers.push(s);
    return s;
  }
  const from = (xff: string) => ({ headers: { "X-Forwarded-For": xff } });

  it("a peer that is not a listed proxy is the client, whatever X-Forwarded-For says", async () => {
    const s = await server("10.0.0.0/8, 192.168.1.1");
    let ok = 0;
    for (let i = 0; i < 30; i++) {
      if ((await fetch(`${s.base}${R}/games`, from(`198.51.100.${i}`))).status === 200) ok++;
    }
    expect(ok).toBe(5);
    expect(await s.access.usedToday({ ip: "127.0.0.1" })).toBe(5);
    expect(await s.access.usedToday({ ip: "198.51.100.1" })).toBe(0);
    expect(s.logs.at(-1)!.ip).toBe("127.0.0.1");
  });

  it("behind a listed proxy: the rightmost address that is not a listed proxy", async () => {
    const s = await server("loopback, 203.0.113.0/24");
    await fetch(`${s.base}${R}/games`, from("192.0.2.1, 198.51.100.7"));
    expect(s.logs.at(-1)!.ip).toBe("198.51.100.7");
    // Hops that are listed proxies are walked past.
    await fetch(`${s.base}${R}/games`, from("192.0.2.1, 198.51.100.8, 203.0.113.5, 203.0.113.6"));
    expect(s.logs.at(-1)!.ip).toBe("198.51.100.8");
    // A hop that is not an address ends the walk at the last listed proxy.
    await fetch(`${s.base}${R}/games`, from("198.51.100.9, unknown"));
    expect(s.logs.at(-1)!.ip).toBe("127.0.0.1");
  });

  it("ports are stripped and IPv4-mapped and IPv6 spellings meet in one meter", async () => {
    const s = await server("loopback");
    for (const xff of [
      "198.51.100.1:5678",
      "198.51.100.1:80",
      "::ffff:198.51.100.1",
      "[::ffff:198.51.100.1]:443",
    ]) {
      expect((await fetch(`${s.base}${R}/games`, from(xff))).status).toBe(200);
      expect(s.logs.at(-1)!.ip).toBe("198.51.100.1");
    }
    expect(await s.access.usedToday({ ip: "198.51.100.1" })).toBe(4);
    for (const xff of ["[2001:DB8::1]:443", "2001:db8:0:0:0:0:0:1"]) {
      await fetch(`${s.base}${R}/games`, from(xff));
      expect(s.logs.at(-1)!.ip).toBe("2001:db8::1");
    }
    expect(await s.access.usedToday({ ip: "2001:db8::1" })).toBe(2);
  });

  it("the mounted MCP handler meters the same client address", async () => {
    const post = (base: string, xff: string) =>
      fetch(`${base}/api/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": xff },
        body: "{}",
      });
    const trusted = await server("loopback");
    await post(trusted.base, "192.0.2.1, 198.51.100.7:1234");
    expect(forwardedToMcp.at(-1)).toBe("198.51.100.7");
    const direct = await server();
    await post(direct.base, "198.51.100.7");
    expect(forwardedToMcp.at(-1)).toBe("127.0.0.1");
  });

  it("TRUST_PROXY values: lists, names, ranges; no blanket trust", () => {
    expect(compileTrustProxy(undefined)).toBeNull();
    expect(compileTrustProxy("")).toBeNull();
    expect(compileTrustProxy("false")).toBeNull();
    expect(() => compileTrustProxy("1")).toThrow(/any peer/);
    expect(() => compileTrustProxy("true")).toThrow(/any peer/);
    expect(() => compileTrustProxy("10.0.0.0/33")).toThrow(/TRUST_PROXY/);
    expect(() => compileTrustProxy("proxy.example")).toThrow(/TRUST_PROXY/);
    const trust = compileTrustProxy(" 10.0.0.0/8 ,fd00::/8, loopback ")!;
    for (const a of ["10.1.2.3", "fd00::1", "127.0.0.1", "::1", "::ffff:10.0.0.1"])
      expect(trust(a), a).toBe(true);
    for (const a of ["11.0.0.1", "2001:db8::1", "192.168.0.1"]) expect(trust(a), a).toBe(false);
  });

  it("address normalization", () => {
    expect(normalizeAddress("1.2.3.4")).toBe("1.2.3.4");
    expect(normalizeAddress(" 1.2.3.4:5678 ")).toBe("1.2.3.4");
    expect(normalizeAddress("[::1]:80")).toBe("::1");
    expect(normalizeAddress("[::1]")).toBe("::1");
    expect(normalizeAddress("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
    for (const bad of [
      "unknown",
      "",
      "_hidden",
      "1.2.3",
      "0x7f.1",
      "[::1]x",
      "1.2.3.4:port",
      "example.com",
    ]) {
      expect(normalizeAddress(bad), bad).toBeNull();
    }
    expect(clientAddress("::ffff:127.0.0.1", "9.9.9.9", null)).toBe("127.0.0.1");
    expect(clientAddress(undefined, "9.9.9.9", null)).toBe("unknown");
  });
});

describe("item 7: headers and messages", () => {
  it("every response carries nosniff and Referrer-Policy, errors included", async () => {
    const url = `${t.base}${R}/nl/node?stack=100&history=UTG`;
    const ok = await fetch(url);
    const etag = ok.headers.get("etag")!;
    const responses = [
      ok,
      await fetch(url, { headers: { "If-None-Match": etag } }),
      await fetch(`${t.base}/nope`),
      await fetch(`${t.base}${R}/games`, { method: "DELETE" }),
      await fetch(`${t.base}${R}/nl/node?stack=abc&history=UTG`),
      await fetch(`${t.base}${R}/games`, { method: "OPTIONS" }),
      await fetch(`${t.base}/api/mcp`, { method: "POST", body: "{}" }),
      await fetch(`${t.base}/healthz`),
      await fetch(`${t.base}/api/v1/openapi.json`),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 304, 404, 405, 400, 204, 200, 200, 200]);
    for (const r of responses) {
      await r.arrayBuffer();
      expectCommonHeaders(r.headers, false);
    }
  });

  const long = (c: string) => c.repeat(300);
  it.each([
    ["unknown game", `${R}/${long("z")}`],
    ["unknown operation", `${R}/nl/${long("z")}`],
    ["unknown route", `/${long("z")}`],
    ["stack", `${R}/nl/node?stack=${long("z")}&history=UTG`],
    ["history token", `${R}/nl/node?stack=100&history=UTG_${long("z")}`],
    ["history seat", `${R}/nl/node?stack=100&history=${long("z")}`],
    ["hand", `${R}/nl/node?stack=100&history=UTG&hand=${long("z")}`],
    ["PLO hand", `${R}/plo/node?stack=100&history=UTG&hand=${long("z")}`],
    ["parameter name", `${R}/nl/node?${long("z")}=1`],
    ["minFreq", `${R}/nl/node?stack=100&history=UTG&minFreq=${long("z")}`],
    ["full", `${R}/nl/node?stack=100&history=UTG&full=${long("z")}`],
    ["quotes inside the input", `${R}/nl/node?stack=100&history=UTG_a%22${long("z")}%22b`],
    ["percent-encoded", `${R}/nl/node?stack=100&history=UTG_${long("%7A")}`],
  ])("bad input is echoed as at most 40 characters (%s)", async (_, path) => {
    const key = (await t.access.createKey({ name: "echo" })).key;
    const r = await getJson(`${t.base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.text).not.toMatch(/z{41}/);
    // Cut at 40 characters: the z's alone, or with the input's first characters (`a"` of the quoted case).
    expect(r.text).toMatch(/z{38,40}…/);
  });

  it("clip keeps short text and never splits a surrogate pair", () => {
    expect(clip("abc")).toBe("abc");
    expect(clip("a".repeat(41))).toBe(`${"a".repeat(40)}…`);
    expect(clip(`${"a".repeat(39)}😀tail`)).toBe(`${"a".repeat(39)}…`);
  });

  describe("no server file paths in messages", () => {
    let s: TestServer;
    let dir: string;
    let remove: () => void;
    beforeAll(async () => {
      const p = await fixturePacksDir();
      dir = p.dir;
      remove = p.remove;
      // A pack that is a dangling link, and one deleted after the store opened it.
      mkdirSync(join(dir, "nlmtt8"), { recursive: true });
      symlinkSync("/nonexistent/elsewhere/25.pack", packPath(dir, "nlmtt8", 25));
      s = await start({ packsDir: dir, keylessDailyLimit: 100_000 });
      unlinkSync(packPath(dir, "nlmtt8", 10));
    });
    afterAll(async () => {
      await s.close();
      remove();
    });

    it.each([
      ["a dangling pack link", `${R}/nlmtt8/config?stack=25`],
      ["a pack deleted after start", `${R}/nlmtt8/config?stack=10`],
      ["a corrupt pack", `${R}/nlmtt8/config?stack=20`],
      ["a file that is not a pack", `${R}/nlmtt8/config?stack=30`],
    ])("%s", async (_, path) => {
      const r = await getJson(`${s.base}${path}`);
      expect(r.status === 503 || r.status === 404, r.text).toBe(true);
      expect(r.text).not.toContain(dir);
      expect(r.text).not.toMatch(/'\/[^']*'/);
      expect(r.text).not.toContain("/nonexistent");
      expect(r.text).not.toMatch(/\/(tmp|root|home|work)\//);
    });
  });
});
