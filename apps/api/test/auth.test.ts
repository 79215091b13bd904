import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CatalogSchema, NodeSchema } from "@ranges/schema";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bearer, expectError, fixturePacksDir, getJson, start, type TestServer } from "./helpers.js";

const R = "/api/v1/ranges";
let packsDir: string;
let removePacks: () => void;
const servers: TestServer[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  const p = await fixturePacksDir();
  packsDir = p.dir;
  removePacks = p.remove;
});
afterAll(() => removePacks());
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function server(o: Partial<Parameters<typeof start>[0]> = {}): Promise<TestServer> {
  const s = await start({ packsDir, ...o });
  servers.push(s);
  return s;
}

/** A clock the test moves by hand. */
function manualClock(iso: string) {
  let now = new Date(iso);
  return { clock: () => now, set: (next: string) => (now = new Date(next)) };
}

describe("auth tiers", () => {
  it.each([
    ["catalog", `${R}/games`],
    ["discovery of a keyed game", `${R}/plo`],
    ["nl node", `${R}/nl/node?stack=100&history=UTG`],
    ["nl range", `${R}/nl/range?stack=100&spot=UTG_Fold`],
    ["nl/v2 node", `${R}/nl/v2/node?stack=100&history=UTG`],
    ["nl/v2 spots (keyless like its node and range)", `${R}/nl/v2/spots?stack=100`],
    ["nlmtt8 config", `${R}/nlmtt8/config?stack=40`],
  ])("keyless: %s works without a key and counts on the IP", async (_name, path) => {
    const s = await server();
    const r = await getJson(`${s.base}${path}`);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("ratelimit-limit")).toBe("200");
    expect(r.headers.get("ratelimit-remaining")).toBe("199");
    expect(Number(r.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    expect(await s.access.usedToday({ ip: "127.0.0.1" })).toBe(1);
    expect(s.logs.at(-1)).toMatchObject({ via: "ip", status: 200 });
  });

  it.each([
    ["nlmtt8 node", `${R}/nlmtt8/node?stack=40&history=UTG`, "/node on nlmtt8"],
    ["nlmtt8 range", `${R}/nlmtt8/range?stack=40&spot=UTG_Open`, "/range on nlmtt8"],
    ["nlmtt8 spots", `${R}/nlmtt8/spots?stack=40`, "/spots on nlmtt8"],
    ["plo node", `${R}/plo/node?stack=100&history=UTG`, "/node on plo"],
    ["plo spots", `${R}/plo/spots?stack=100`, "/spots on plo"],
  ])("keyed: %s without a key is 401 with a Bearer challenge", async (_name, path, op) => {
    const s = await server();
    const r = await getJson(`${s.base}${path}`);
    const e = expectError(r, 401, "unauthorized", /needs an API key/);
    expect(e.message).toContain(op);
    expect(r.headers.get("www-authenticate")).toBe('Bearer realm="preflop-ranges"');
    expect(await s.access.usedToday({ ip: "127.0.0.1" })).toBe(0);
  });

  it("a good key is served and metered on the key's plan", async () => {
    const s = await server();
    const k = await s.access.createKey({ name: "pro", plan: "pro", dailyQuota: 1000 });
    const r = await getJson(`${s.base}${R}/nlmtt8/node?stack=40&history=UTG`, bearer(k.key));
    expect(r.status, r.text).toBe(200);
    NodeSchema.parse(r.body);
    expect(r.headers.get("ratelimit-limit")).toBe("1000");
    expect(r.headers.get("ratelimit-remaining")).toBe("999");
    // On a keyless operation the key's meter counts, not the IP's.
    await getJson(`${s.base}${R}/nl/node?stack=100&history=UTG`, bearer(k.key));
    expect(await s.access.usedToday({ keyId: k.id })).toBe(2);
    expect(await s.access.usedToday({ ip: "127.0.0.1" })).toBe(0);
    expect(s.logs.at(-1)).toMatchObject({ via: "key" });
  });

  it("an unmetered key is counted but sends no RateLimit headers", async () => {
    const s = await server();
    const k = await s.access.createKey({ name: "internal" });
    const r = await getJson(`${s.base}${R}/plo/node?stack=100&history=UTG&minFreq=0.9`, bearer(k.key));
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit-limit")).toBeNull();
    expect(await s.access.usedToday({ keyId: k.id })).toBe(1);
  });

  it("a revoked key is 401, also on keyless operations", async () => {
    const s = await server();
    const k = await s.access.createKey({ name: "gone" });
    await s.access.revokeKey(k.id);
    for (const path of [`${R}/nlmtt8/node?stack=40&history=UTG`, `${R}/nl/node?stack=100&history=UTG`]) {
      const r = await getJson(`${s.base}${path}`, bearer(k.key));
      expectError(r, 401, "unauthorized", /revoked/);
      expect(r.headers.get("www-authenticate")).toContain('error="invalid_token"');
    }
  });

  it("a malformed or unknown key is 401 even where no key is needed", async () => {
    const s = await server();
    const r1 = await getJson(`${s.base}${R}/games`, bearer("not-a-key"));
    expectError(r1, 401, "unauthorized", /not an API key.*even on keyless operations/);
    const r2 = await getJson(`${s.base}${R}/games`, { headers: { Authorization: "Basic dXNlcjpwdw==" } });
    expectError(r2, 401, "unauthorized", /must be "Bearer <API key>"/);
    const r3 = await getJson(`${s.base}${R}/games`, bearer(`pr_0123456789ab_${"x".repeat(43)}`));
    expectError(r3, 401, "unauthorized", /is not valid/);
  });

  it("a spent plan quota is 429 with Retry-After", async () => {
    const c = manualClock("2026-05-01T22:00:00.000Z");
    const s = await server({ clock: c.clock });
    const k = await s.access.createKey({ name: "small", dailyQuota: 2 });
    for (let i = 0; i < 2; i++) {
      expect((await getJson(`${s.base}${R}/games`, bearer(k.key))).status).toBe(200);
    }
    const r = await getJson(`${s.base}${R}/games`, bearer(k.key));
    expectError(r, 429, "rate_limited", /daily quota of 2 calls/);
    expect(r.headers.get("retry-after")).toBe("7200");
    expect(r.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("the 201st keyless call of a UTC day is 429 with Retry-After to midnight", async () => {
    const c = manualClock("2026-05-01T23:00:00.000Z");
    const s = await server({ clock: c.clock });
    const url = `${s.base}${R}/games`;
    for (let batch = 0; batch < 10; batch++) {
      const rs = await Promise.all(Array.from({ length: 20 }, () => fetch(url).then((r) => r.status)));
      expect(rs.every((st) => st === 200)).toBe(true);
    }
    const r = await getJson(url);
    const e = expectError(r, 429, "rate_limited", /keyless allowance of 200 calls per day/);
    expect(e.hint).toMatchObject({ limit: 200, retryAfterSeconds: 3600 });
    expect(r.headers.get("retry-after")).toBe("3600");
    expect(r.headers.get("ratelimit-limit")).toBe("200");
    expect(r.headers.get("ratelimit-remaining")).toBe("0");
    expect(r.headers.get("ratelimit-reset")).toBe("3600");
    // The CORS headers are on the refusal too, so browsers can read it.
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    // A key still works; the next UTC day the allowance is back.
    const k = await s.access.createKey({ name: "k" });
    expect((await getJson(url, bearer(k.key))).status).toBe(200);
    c.set("2026-05-02T00:00:00.000Z");
    const next = await getJson(url);
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit-remaining")).toBe("199");
  });

  it("a call that passes auth is counted even when its query is then rejected", async () => {
    const s = await server();
    expect((await getJson(`${s.base}${R}/nl/node?stack=abc&history=UTG`)).status).toBe(400);
    expect(await s.access.usedToday({ ip: "127.0.0.1" })).toBe(1);
  });

  it("counts survive a restart (same SQLite file)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "api-access-"));
    dirs.push(dir);
    const accessPath = join(dir, "access.sqlite");
    const a = await server({ accessPath, keylessDailyLimit: 3 });
    for (let i = 0; i < 2; i++) expect((await getJson(`${a.base}${R}/games`)).status).toBe(200);
    await a.close();
    servers.splice(servers.indexOf(a), 1);
    const b = await server({ accessPath, keylessDailyLimit: 3 });
    const third = await getJson(`${b.base}${R}/games`);
    expect(third.status).toBe(200);
    expect(third.headers.get("ratelimit-remaining")).toBe("0");
    expectError(await getJson(`${b.base}${R}/games`), 429, "rate_limited");
  });

  it("behind a trusted proxy the allowance is per forwarded client", async () => {
    const s = await server({ trustProxy: "loopback", keylessDailyLimit: 1 });
    const from = (ip: string) => ({ headers: { "X-Forwarded-For": ip } });
    expect((await getJson(`${s.base}${R}/games`, from("198.51.100.1"))).status).toBe(200);
    expect((await getJson(`${s.base}${R}/games`, from("198.51.100.1"))).status).toBe(429);
    expect((await getJson(`${s.base}${R}/games`, from("198.51.100.2"))).status).toBe(200);
    // Only the hop the proxy appended counts: a client-written first entry changes nothing.
    expect((await getJson(`${s.base}${R}/games`, from("203.0.113.7, 198.51.100.2"))).status).toBe(429);
  });

  it("without trustProxy, X-Forwarded-For is ignored", async () => {
    const s = await server({ keylessDailyLimit: 1 });
    const from = (ip: string) => ({ headers: { "X-Forwarded-For": ip } });
    expect((await getJson(`${s.base}${R}/games`, from("198.51.100.1"))).status).toBe(200);
    const r = await getJson(`${s.base}${R}/games`, from("198.51.100.2"));
    expect(r.status).toBe(429);
    CatalogSchema.safeParse(r.body);
  });
});
