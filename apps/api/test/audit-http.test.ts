/**
 * Issue 27's HTTP findings 10 and 11, over real HTTP: keyed answers are private to caches, feature requests
 * are bounded, an upload token never reaches the access log (also when the HTTP layer refuses the request),
 * an unmet `Expect` gets the error body, TRACE is a 405, and a database outage is a 503.
 */

import { connect, createServer, type Server, type Socket } from "node:net";
import { AccessStore } from "@ranges/access";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUESTS_PER_DAY } from "../src/routes/requests.js";
import { bearer, fixturePacksDir, start, type TestServer } from "./helpers.js";
import { dropSchemas, POSTGRES_AVAILABLE, TEST_DATABASE_URL } from "./processes.js";

let t: TestServer;
let packs: { dir: string; remove: () => void };
let key: string;

beforeAll(async () => {
  packs = await fixturePacksDir(false);
  t = await start({ packsDir: packs.dir, http: { headersTimeoutMs: 1000, timeoutCheckMs: 200 } });
  key = (await t.access.createKey({ name: "audit" })).key;
});
afterAll(async () => {
  await t.close();
  packs.remove();
});

/** Sends raw bytes on a new connection and resolves with everything the server sent before closing. */
function raw(text: string, waitMs = 5000): Promise<string> {
  const url = new URL(t.base);
  return new Promise((resolve) => {
    const sock: Socket = connect(Number(url.port), "127.0.0.1");
    let got = "";
    sock.on("connect", () => sock.write(text));
    sock.on("data", (d: Buffer) => {
      got += d.toString("latin1");
    });
    sock.on("error", () => {});
    const timer = setTimeout(() => sock.destroy(), waitMs);
    sock.on("close", () => {
      clearTimeout(timer);
      resolve(got);
    });
  });
}

describe("caching of keyed answers (finding 10)", () => {
  it("a keyed game's node is private to the caller's cache; a keyless one stays public", async () => {
    const keyed = await fetch(`${t.base}/api/v1/ranges/nlmtt8/node?stack=40&history=UTG`, bearer(key));
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get("cache-control")).toBe("private, max-age=86400, immutable");
    const keyless = await fetch(`${t.base}/api/v1/ranges/nl/node?stack=100&history=UTG`);
    expect(keyless.headers.get("cache-control")).toBe("public, max-age=86400, immutable");
  });
});

describe("feature requests are bounded (finding 11)", () => {
  const file = (body: string) =>
    fetch(`${t.base}/api/v1/requests`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body,
    });

  it("refuses a body over 16 KiB with 413 before reading it all", async () => {
    const res = await file(JSON.stringify({ kind: "feature", text: "x".repeat(20_000) }));
    expect(res.status).toBe(413);
  });

  it(`takes ${REQUESTS_PER_DAY} per key and day, then 429 with Retry-After, also when sent at once`, async () => {
    const spent = (await t.access.createKey({ name: "spent", dailyQuota: 0 })).key;
    const statuses = await Promise.all(
      Array.from({ length: REQUESTS_PER_DAY + 5 }, (_, i) =>
        fetch(`${t.base}/api/v1/requests`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${spent}` },
          body: JSON.stringify({ kind: "feature", text: `idea ${i}` }),
        }).then(async (r) => ({
          status: r.status,
          retry: r.headers.get("retry-after"),
          body: await r.text(),
        })),
      ),
    );
    expect(statuses.filter((s) => s.status === 201)).toHaveLength(REQUESTS_PER_DAY);
    const refused = statuses.filter((s) => s.status === 429);
    expect(refused).toHaveLength(5);
    expect(Number(refused[0]!.retry)).toBeGreaterThan(0);
    expect(refused[0]!.body).toMatch(/filed 20 requests today/);
  });
});

describe("the access log never holds an upload token (finding 11)", () => {
  const token = `hul_${"Ab1-".repeat(10)}xyz`;
  const secret = token.slice(4, 24);
  it.each([
    ["431", `POST /api/v1/uploads/${token} HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
    ["400", `POST /api/v1/uploads/${token} HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n`, 400],
    ["408", `POST /api/v1/uploads/${token} HTTP/1.1\r\nHost: x\r\n`, 408],
  ])("when the HTTP layer answers %s", async (_, request, status) => {
    const before = t.logs.length;
    const reply = await raw(request);
    expect(reply.startsWith(`HTTP/1.1 ${status} `), reply.slice(0, 80)).toBe(true);
    const lines = t.logs.slice(before);
    const line = lines.find((l) => l.status === status);
    expect(line).toBeDefined();
    // The path when the request line was read (a timed-out request may not have one): never the token.
    if (line!.path !== "") expect(line!.path).toBe("/api/v1/uploads/[token]");
    expect(JSON.stringify(lines)).not.toContain(secret);
  });
});

describe("methods and expectations (finding 11)", () => {
  it("answers Expect: 200-ok with 417 and the error body", async () => {
    const reply = await raw(
      "GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n",
    );
    expect(reply.startsWith("HTTP/1.1 417 ")).toBe(true);
    const body = JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)) as { error: { message: string } };
    expect(body.error.message).toMatch(/no expectation but "100-continue".*"200-ok"/);
  });

  it.each(["/api/v1/ranges/games", "/no/such/path"])("answers TRACE %s with 405 and Allow", async (path) => {
    const res = await fetch(`${t.base}${path}`, { method: "TRACE" }).catch(() => null);
    // fetch refuses TRACE itself; the raw request is what a client sends.
    expect(res).toBeNull();
    const reply = await raw(`TRACE ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(reply.startsWith("HTTP/1.1 405 "), reply.slice(0, 60)).toBe(true);
    expect(reply).toMatch(/\r\nAllow: [^\r]*GET/i);
  });
});

describe.skipIf(!POSTGRES_AVAILABLE)("a database outage (finding 11)", () => {
  const schema = `t_outage_${process.pid}`;
  let proxy: Server;
  const sockets = new Set<Socket>();
  let db: TestServer;
  let dbKey: string;

  beforeAll(async () => {
    // The API reaches PostgreSQL through this proxy; closing it is the outage.
    const target = new URL(TEST_DATABASE_URL);
    proxy = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("close", () => sockets.delete(s));
        s.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    const port = (proxy.address() as { port: number }).port;
    const url = new URL(TEST_DATABASE_URL);
    url.host = `127.0.0.1:${port}`;
    const access = await AccessStore.open(url.toString(), { schema });
    db = await start({ packsDir: packs.dir, accessStore: access });
    dbKey = (await access.createKey({ name: "outage" })).key;
  });
  afterAll(async () => {
    proxy?.close();
    for (const s of sockets) s.destroy();
    await db?.close().catch(() => {});
    await dropSchemas([schema]);
  });

  it("answers 503 with Retry-After (not 500) while the database is unreachable", async () => {
    expect((await fetch(`${db.base}/api/v1/requests`, bearer(dbKey))).status).toBe(200);
    proxy.close();
    for (const s of sockets) s.destroy();
    // A key never seen by this process must be looked up; a known key's records must be read.
    for (const init of [bearer(`pr_0123456789ab_${"b".repeat(43)}`), bearer(dbKey)]) {
      const res = await fetch(`${db.base}/api/v1/requests`, init);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("service_unavailable");
      expect(body.error.message).toMatch(/database is unavailable/);
    }
  });
});
