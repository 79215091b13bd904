import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { AccessStore, ipSubject, parseApiKey, secondsToUtcMidnight, utcDay } from "../src/index.js";

const NOON = new Date("2026-03-10T12:00:00.000Z");
const fixedClock = (start = NOON) => {
  let now = start;
  return {
    clock: () => now,
    set: (d: Date) => {
      now = d;
    },
  };
};

const open: AccessStore[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function mem(o: Parameters<typeof AccessStore.open>[1] = {}): AccessStore {
  const s = AccessStore.open(":memory:", o);
  open.push(s);
  return s;
}

describe("keys", () => {
  it("creates pr_ keys shown once, stored as hashes, listed without secrets", () => {
    const s = mem();
    const k = s.createKey({ name: "alice", plan: "pro", dailyQuota: 1000 });
    expect(k.key).toMatch(/^pr_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(k.prefix).toBe(`pr_${k.id}`);
    expect(parseApiKey(k.key)).toEqual({ id: k.id, key: k.key });
    const [info] = s.listKeys();
    expect(info).toMatchObject({ id: k.id, name: "alice", plan: "pro", dailyQuota: 1000, revokedAt: null });
    expect(JSON.stringify(s.listKeys())).not.toContain(k.key.slice(16));
  });

  it("defaults to an unmetered standard plan and rejects bad input", () => {
    const s = mem();
    s.createKey({ name: "bob" });
    expect(s.listKeys()[0]).toMatchObject({ plan: "standard", dailyQuota: null });
    expect(() => s.createKey({ name: " " })).toThrow(/name/);
    expect(() => s.createKey({ name: "x", plan: "has space" })).toThrow(/Plan/);
    expect(() => s.createKey({ name: "x", dailyQuota: -1 })).toThrow(/quota/);
    expect(() => s.createKey({ name: "x", dailyQuota: 1.5 })).toThrow(/quota/);
  });

  it("revokes by id or prefix, once", () => {
    const s = mem();
    const a = s.createKey({ name: "a" });
    const b = s.createKey({ name: "b" });
    expect(s.revokeKey(a.id)).toBe(true);
    expect(s.revokeKey(a.id)).toBe(false);
    expect(s.revokeKey(b.prefix)).toBe(true);
    expect(s.revokeKey("nope")).toBe(false);
    expect(s.listKeys().every((k) => k.revokedAt !== null)).toBe(true);
  });

  it("parseApiKey rejects anything not shaped like a key", () => {
    fc.assert(
      fc.property(fc.string(), (t) => {
        const p = parseApiKey(t);
        if (p) expect(t).toMatch(/^pr_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
      }),
    );
    expect(parseApiKey("pr_abc")).toBeNull();
    expect(parseApiKey(`sk_0123456789ab_${"a".repeat(43)}`)).toBeNull();
  });
});

describe("authorize", () => {
  it("a valid key passes and counts on its meter, keyless or not", () => {
    const s = mem();
    const k = s.createKey({ name: "a", dailyQuota: 5 });
    const d = s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.2.3.4", keyless: false });
    expect(d).toMatchObject({ ok: true, via: "key", keyId: k.id });
    expect(d.headers).toMatchObject({ "RateLimit-Limit": "5", "RateLimit-Remaining": "4" });
    s.authorize({ authorization: `bearer ${k.key}`, ip: "1.2.3.4", keyless: true });
    expect(s.usedToday({ keyId: k.id })).toBe(2);
    expect(s.usedToday({ ip: "1.2.3.4" })).toBe(0);
    expect(s.listKeys()[0]!.usedToday).toBe(2);
  });

  it("an unmetered key is counted but never limited and sends no RateLimit headers", () => {
    const s = mem();
    const k = s.createKey({ name: "a", dailyQuota: null });
    for (let i = 0; i < 50; i++) {
      const d = s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.2.3.4", keyless: false });
      expect(d.ok).toBe(true);
      expect(d.headers).toEqual({});
    }
    expect(s.usedToday({ keyId: k.id })).toBe(50);
  });

  it("a plan quota refuses with 429 once spent and does not count refused calls", () => {
    const c = fixedClock();
    const s = mem({ clock: c.clock });
    const k = s.createKey({ name: "a", dailyQuota: 2 });
    const auth = () => s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.1.1.1", keyless: false });
    expect(auth().ok).toBe(true);
    expect(auth().ok).toBe(true);
    const d = auth();
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error.status).toBe(429);
    expect(d.error.code).toBe("rate_limited");
    expect(d.error.message).toMatch(/quota of 2 calls/);
    expect(d.headers["Retry-After"]).toBe(String(12 * 3600));
    expect(d.headers["RateLimit-Remaining"]).toBe("0");
    expect(s.usedToday({ keyId: k.id })).toBe(2);
    c.set(new Date("2026-03-11T00:00:01.000Z"));
    expect(auth().ok).toBe(true);
  });

  it("a zero quota refuses every call", () => {
    const s = mem();
    const k = s.createKey({ name: "a", dailyQuota: 0 });
    expect(s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.1.1.1", keyless: true }).ok).toBe(false);
  });

  it("no key on a keyed operation is a 401 with a Bearer challenge", () => {
    const s = mem();
    const d = s.authorize({ ip: "1.2.3.4", keyless: false, operation: "node on nlmtt8" });
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error.status).toBe(401);
    expect(d.error.code).toBe("unauthorized");
    expect(d.error.message).toMatch(/node on nlmtt8.*needs an API key/);
    expect(d.headers["WWW-Authenticate"]).toBe('Bearer realm="preflop-ranges"');
    expect(s.usedToday({ ip: "1.2.3.4" })).toBe(0);
  });

  it.each([
    ["Basic abc", /must be "Bearer <API key>"/],
    ["Bearer", /must be "Bearer <API key>"/],
    ["Bearer sk-something", /not an API key of this service/],
    [`Bearer pr_0123456789ab_${"a".repeat(43)}`, /pr_0123456789ab\.\.\. is not valid/],
  ])("a bad Authorization header (%s) is a 401 even on keyless operations", (authorization, message) => {
    const s = mem();
    const d = s.authorize({ authorization, ip: "1.2.3.4", keyless: true });
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error.status).toBe(401);
    expect(d.error.message).toMatch(message);
    expect(d.error.message).toMatch(/even on keyless operations/);
    expect(d.headers["WWW-Authenticate"]).toContain('error="invalid_token"');
  });

  it("a key with the right id and a wrong secret is refused", () => {
    const s = mem();
    const k = s.createKey({ name: "a" });
    const forged = `${k.key.slice(0, 16)}${"A".repeat(43)}`;
    const d = s.authorize({ authorization: `Bearer ${forged}`, ip: "1.2.3.4", keyless: false });
    expect(d.ok).toBe(false);
  });

  it("a key verified before is refused right after its revocation in this process", () => {
    const s = mem();
    const k = s.createKey({ name: "a" });
    const call = () => s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.2.3.4", keyless: false });
    expect(call().ok).toBe(true);
    expect(call().ok).toBe(true);
    s.revokeKey(k.id);
    expect(call().ok).toBe(false);
  });

  it("a revoked key is a 401 that says so", () => {
    const s = mem();
    const k = s.createKey({ name: "a" });
    s.revokeKey(k.id);
    const d = s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.2.3.4", keyless: true });
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error.status).toBe(401);
    expect(d.error.message).toMatch(/revoked/);
  });

  it("the keyless allowance is 200 per IP per UTC day, then 429 with Retry-After to midnight", () => {
    const c = fixedClock(new Date("2026-03-10T23:59:00.000Z"));
    const s = mem({ clock: c.clock });
    for (let i = 1; i <= 200; i++) {
      const d = s.authorize({ ip: "203.0.113.9", keyless: true });
      expect(d.ok).toBe(true);
      expect(d.headers["RateLimit-Remaining"]).toBe(String(200 - i));
    }
    const d = s.authorize({ ip: "203.0.113.9", keyless: true });
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error.status).toBe(429);
    expect(d.error.message).toMatch(/keyless allowance of 200 calls per day/);
    expect(d.headers).toMatchObject({
      "Retry-After": "60",
      "RateLimit-Limit": "200",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "60",
    });
    // Another address is unaffected; a new UTC day resets the allowance.
    expect(s.authorize({ ip: "203.0.113.10", keyless: true }).ok).toBe(true);
    c.set(new Date("2026-03-11T00:00:00.000Z"));
    expect(s.authorize({ ip: "203.0.113.9", keyless: true }).ok).toBe(true);
  });

  it("counts survive closing and reopening the database file", () => {
    const dir = mkdtempSync(join(tmpdir(), "access-"));
    dirs.push(dir);
    const file = join(dir, "access.sqlite");
    const c = fixedClock();
    const a = AccessStore.open(file, { clock: c.clock, keylessDailyLimit: 3 });
    const k = a.createKey({ name: "a", dailyQuota: 10 });
    a.authorize({ ip: "10.0.0.1", keyless: true });
    a.authorize({ ip: "10.0.0.1", keyless: true });
    a.authorize({ authorization: `Bearer ${k.key}`, ip: "10.0.0.1", keyless: false });
    a.close();
    const b = AccessStore.open(file, { clock: c.clock, keylessDailyLimit: 3 });
    open.push(b);
    expect(b.usedToday({ ip: "10.0.0.1" })).toBe(2);
    expect(b.usedToday({ keyId: k.id })).toBe(1);
    expect(b.authorize({ ip: "10.0.0.1", keyless: true }).ok).toBe(true);
    expect(b.authorize({ ip: "10.0.0.1", keyless: true }).ok).toBe(false);
    expect(b.authorize({ authorization: `Bearer ${k.key}`, ip: "x", keyless: false }).ok).toBe(true);
  });

  it("two stores on one file share the meters (no lost increments)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "access-"));
    dirs.push(dir);
    const file = join(dir, "access.sqlite");
    const a = AccessStore.open(file, { keylessDailyLimit: 30, flushIntervalMs: 0 });
    const b = AccessStore.open(file, { keylessDailyLimit: 30, flushIntervalMs: 0 });
    open.push(a, b);
    for (let turn = 0; turn < 4; turn++) {
      for (let i = 0; i < 5; i++) (i % 2 ? a : b).authorize({ ip: "10.0.0.2", keyless: true });
      // Counts are written at the end of each event-loop turn.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(a.usedToday({ ip: "10.0.0.2" })).toBe(20);
    expect(b.usedToday({ ip: "10.0.0.2" })).toBe(20);
    // Each store sees the other's counts from the next turn on, so the shared limit holds.
    let allowed = 0;
    for (let i = 0; i < 20; i++) {
      if ((i % 2 ? a : b).authorize({ ip: "10.0.0.2", keyless: true }).ok) allowed += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(allowed).toBe(10);
    expect(a.usedToday({ ip: "10.0.0.2" })).toBe(30);
  });

  it("a revocation by another connection applies from the next event-loop turn", async () => {
    const dir = mkdtempSync(join(tmpdir(), "access-"));
    dirs.push(dir);
    const file = join(dir, "access.sqlite");
    const server = AccessStore.open(file);
    const admin = AccessStore.open(file);
    open.push(server, admin);
    const k = admin.createKey({ name: "a" });
    const call = () => server.authorize({ authorization: `Bearer ${k.key}`, ip: "1.1.1.1", keyless: false });
    expect(call().ok).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    admin.revokeKey(k.id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(call().ok).toBe(false);
  });

  it("pending counts are written within the flush interval", async () => {
    const dir = mkdtempSync(join(tmpdir(), "access-"));
    dirs.push(dir);
    const file = join(dir, "access.sqlite");
    const a = AccessStore.open(file);
    const reader = AccessStore.open(file);
    open.push(a, reader);
    a.authorize({ ip: "10.0.0.4", keyless: true });
    expect(reader.usedToday({ ip: "10.0.0.4" })).toBe(0);
    // The default interval is 100 ms; a later 150 ms timer fires after it whatever the machine's speed.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(reader.usedToday({ ip: "10.0.0.4" })).toBe(1);
  });

  it("pending counts are written at the end of the turn (interval 0), by flush() and by close()", async () => {
    const dir = mkdtempSync(join(tmpdir(), "access-"));
    dirs.push(dir);
    const file = join(dir, "access.sqlite");
    const a = AccessStore.open(file, { flushIntervalMs: 0 });
    const reader = AccessStore.open(file);
    open.push(reader);
    a.authorize({ ip: "10.0.0.3", keyless: true });
    expect(reader.usedToday({ ip: "10.0.0.3" })).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reader.usedToday({ ip: "10.0.0.3" })).toBe(1);
    a.authorize({ ip: "10.0.0.3", keyless: true });
    a.flush();
    expect(reader.usedToday({ ip: "10.0.0.3" })).toBe(2);
    a.authorize({ ip: "10.0.0.3", keyless: true });
    a.close();
    expect(reader.usedToday({ ip: "10.0.0.3" })).toBe(3);
  });

  it("ping reports a usable database; close is idempotent", () => {
    const s = AccessStore.open(":memory:");
    expect(s.ping()).toBe(true);
    s.close();
    s.close();
    expect(s.ping()).toBe(false);
  });

  it("never throws on arbitrary header text", () => {
    const s = mem({ keylessDailyLimit: 1_000_000 });
    fc.assert(
      fc.property(
        fc.option(fc.string({ unit: "binary" })),
        fc.string(),
        fc.boolean(),
        (auth, ip, keyless) => {
          const d = s.authorize({ authorization: auth ?? undefined, ip, keyless });
          if (!d.ok) expect([401, 429]).toContain(d.error.status);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("clock and addresses", () => {
  it("utcDay and secondsToUtcMidnight", () => {
    expect(utcDay(new Date("2026-03-10T23:59:59.999Z"))).toBe("2026-03-10");
    expect(secondsToUtcMidnight(new Date("2026-03-10T23:59:59.500Z"))).toBe(1);
    expect(secondsToUtcMidnight(new Date("2026-03-10T00:00:00.000Z"))).toBe(86_400);
  });

  it("groups IPv6 by /64 and unwraps IPv4-mapped addresses", () => {
    expect(ipSubject("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(ipSubject("2001:db8::1")).toBe("2001:0db8:0000:0000::/64");
    expect(ipSubject("2001:db8:0:0:ffff::2")).toBe(ipSubject("2001:db8::1"));
    expect(ipSubject("2001:db8:0:1::1")).not.toBe(ipSubject("2001:db8::1"));
    expect(ipSubject("fe80::1%eth0")).toBe("fe80:0000:0000:0000::/64");
    expect(ipSubject("")).toBe("unknown");
  });
});
