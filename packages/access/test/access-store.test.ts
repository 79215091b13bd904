import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AccessOptions,
  AccessStore,
  ipSubject,
  parseApiKey,
  REQUESTS_PER_DAY,
  secondsToUtcMidnight,
  utcDay,
} from "../src/index.js";
import { dropSchemas, freshSchema, POSTGRES_AVAILABLE, TEST_DATABASE_URL } from "./backends.js";

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
const schemas: string[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await dropSchemas(schemas);
});

const tempFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "access-"));
  dirs.push(dir);
  return join(dir, "access.sqlite");
};

type Backend = "sqlite" | "postgres";

/** Where two stores of one test share their data: a SQLite file, or one PostgreSQL schema. */
function sharedTarget(backend: Backend): (o?: AccessOptions) => Promise<AccessStore> {
  const target = backend === "sqlite" ? tempFile() : TEST_DATABASE_URL;
  const schema = backend === "postgres" ? freshSchema() : undefined;
  if (schema) schemas.push(schema);
  return async (o = {}) => {
    const s = await AccessStore.open(target, { ...o, ...(schema ? { schema } : {}) });
    open.push(s);
    return s;
  };
}

/** A store of its own: SQLite in memory, or a fresh PostgreSQL schema. */
const fresh = (backend: Backend, o: AccessOptions = {}): Promise<AccessStore> =>
  backend === "sqlite"
    ? AccessStore.open(":memory:", o).then((s) => {
        open.push(s);
        return s;
      })
    : sharedTarget(backend)(o);

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe.each([
  { backend: "sqlite" as const, available: true },
  { backend: "postgres" as const, available: POSTGRES_AVAILABLE },
])("$backend", ({ backend, available }) => {
  const mem = (o: AccessOptions = {}) => fresh(backend, o);

  describe.skipIf(!available)("keys", () => {
    it("creates pr_ keys shown once, stored as hashes, listed without secrets", async () => {
      const s = await mem();
      expect(s.backend).toBe(backend);
      const k = await s.createKey({ name: "alice", plan: "pro", dailyQuota: 1000 });
      expect(k.key).toMatch(/^pr_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
      expect(k.prefix).toBe(`pr_${k.id}`);
      expect(parseApiKey(k.key)).toEqual({ id: k.id, key: k.key });
      const [info] = await s.listKeys();
      expect(info).toMatchObject({ id: k.id, name: "alice", plan: "pro", dailyQuota: 1000, revokedAt: null });
      expect(JSON.stringify(await s.listKeys())).not.toContain(k.key.slice(16));
    });

    it("defaults to an unmetered standard plan and rejects bad input", async () => {
      const s = await mem();
      await s.createKey({ name: "bob" });
      expect((await s.listKeys())[0]).toMatchObject({ plan: "standard", dailyQuota: null });
      await expect(s.createKey({ name: " " })).rejects.toThrow(/name/);
      await expect(s.createKey({ name: "x", plan: "has space" })).rejects.toThrow(/Plan/);
      await expect(s.createKey({ name: "x", dailyQuota: -1 })).rejects.toThrow(/quota/);
      await expect(s.createKey({ name: "x", dailyQuota: 1.5 })).rejects.toThrow(/quota/);
      expect(await s.listKeys()).toHaveLength(1);
    });

    it("revokes by id or prefix, once", async () => {
      const s = await mem();
      const a = await s.createKey({ name: "a" });
      const b = await s.createKey({ name: "b" });
      expect(await s.revokeKey(a.id)).toBe(true);
      expect(await s.revokeKey(a.id)).toBe(false);
      expect(await s.revokeKey(b.prefix)).toBe(true);
      expect(await s.revokeKey("nope")).toBe(false);
      expect((await s.listKeys()).every((k) => k.revokedAt !== null)).toBe(true);
    });
  });

  describe.skipIf(!available)("the live-key limit of an account", () => {
    it("40 keys made at once on two connections leave exactly 25 live; revoking one frees a place", async () => {
      const opener = sharedTarget(backend);
      const a = await opener();
      const b = await opener();
      const made = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? a : b).createKey({ name: `k${i}`, accountId: "acc_1" }),
        ),
      );
      const refused = made
        .filter((r) => r.status === "rejected")
        .map((r) => (r as PromiseRejectedResult).reason);
      expect(made.filter((r) => r.status === "fulfilled")).toHaveLength(25);
      expect(refused).toHaveLength(15);
      for (const e of refused) {
        expect(e.status).toBe(400);
        expect(e.message).toMatch(/at most 25 live keys: revoke one/);
      }
      const live = (await a.listKeys({ accountId: "acc_1" })).filter((k) => k.revokedAt === null);
      expect(live).toHaveLength(25);
      await expect(b.createKey({ name: "one more", accountId: "acc_1" })).rejects.toThrow(/at most 25/);
      // Another account, and keys without one (the CLI's), are not held by this account's limit.
      await a.createKey({ name: "other", accountId: "acc_2" });
      for (let i = 0; i < 3; i++) await a.createKey({ name: `cli${i}` });
      await b.revokeKey(live[0]!.id);
      await a.createKey({ name: "replacement", accountId: "acc_1" });
      await expect(a.createKey({ name: "again", accountId: "acc_1" })).rejects.toThrow(/at most 25/);
    });

    it("takes its limit from the options", async () => {
      const s = await mem({ maxLiveKeysPerAccount: 2 });
      await s.createKey({ name: "1", accountId: "acc_x" });
      await s.createKey({ name: "2", accountId: "acc_x" });
      await expect(s.createKey({ name: "3", accountId: "acc_x" })).rejects.toThrow(/at most 2 live keys/);
      await expect(mem({ maxLiveKeysPerAccount: 0 })).rejects.toThrow(/positive integer/);
    });
  });

  describe.skipIf(!available)("authorize", () => {
    it("a valid key passes and counts on its meter, keyless or not", async () => {
      const s = await mem();
      const k = await s.createKey({ name: "a", dailyQuota: 5 });
      const d = await s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.2.3.4", keyless: false });
      expect(d).toMatchObject({ ok: true, via: "key", keyId: k.id });
      expect(d.headers).toMatchObject({ "RateLimit-Limit": "5", "RateLimit-Remaining": "4" });
      await s.authorize({ authorization: `bearer ${k.key}`, ip: "1.2.3.4", keyless: true });
      expect(await s.usedToday({ keyId: k.id })).toBe(2);
      expect(await s.usedToday({ ip: "1.2.3.4" })).toBe(0);
      expect((await s.listKeys())[0]!.usedToday).toBe(2);
    });

    it("an unmetered key is counted but never limited and sends no RateLimit headers", async () => {
      const s = await mem();
      const k = await s.createKey({ name: "a", dailyQuota: null });
      for (let i = 0; i < 50; i++) {
        const d = await s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.2.3.4", keyless: false });
        expect(d.ok).toBe(true);
        expect(d.headers).toEqual({});
      }
      expect(await s.usedToday({ keyId: k.id })).toBe(50);
    });

    it("a plan quota refuses with 429 once spent and does not count refused calls", async () => {
      const c = fixedClock();
      const s = await mem({ clock: c.clock });
      const k = await s.createKey({ name: "a", dailyQuota: 2 });
      const auth = () => s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.1.1.1", keyless: false });
      expect((await auth()).ok).toBe(true);
      expect((await auth()).ok).toBe(true);
      const d = await auth();
      expect(d.ok).toBe(false);
      if (d.ok) return;
      expect(d.error.status).toBe(429);
      expect(d.error.code).toBe("rate_limited");
      expect(d.error.message).toMatch(/quota of 2 calls/);
      expect(d.headers["Retry-After"]).toBe(String(12 * 3600));
      expect(d.headers["RateLimit-Remaining"]).toBe("0");
      expect(await s.usedToday({ keyId: k.id })).toBe(2);
      c.set(new Date("2026-03-11T00:00:01.000Z"));
      expect((await auth()).ok).toBe(true);
    });

    it("a zero quota refuses every call", async () => {
      const s = await mem();
      const k = await s.createKey({ name: "a", dailyQuota: 0 });
      const d = await s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.1.1.1", keyless: true });
      expect(d.ok).toBe(false);
      expect(await s.usedToday({ keyId: k.id })).toBe(0);
    });

    it("a free operation needs a valid key but is neither counted nor refused for a spent quota", async () => {
      const s = await mem();
      const k = await s.createKey({ name: "a", dailyQuota: 0 });
      const free = await s.authorize({
        authorization: `Bearer ${k.key}`,
        ip: "1.1.1.1",
        keyless: false,
        free: true,
      });
      expect(free).toMatchObject({ ok: true, keyId: k.id });
      expect(await s.usedToday({ keyId: k.id })).toBe(0);
      const none = await s.authorize({
        ip: "1.1.1.1",
        keyless: true,
        free: true,
        operation: "submit_request",
      });
      expect(none.ok).toBe(false);
      if (!none.ok) expect(none.error.status).toBe(401);
    });

    it("no key on a keyed operation is a 401 with a Bearer challenge", async () => {
      const s = await mem();
      const d = await s.authorize({ ip: "1.2.3.4", keyless: false, operation: "node on nlmtt8" });
      expect(d.ok).toBe(false);
      if (d.ok) return;
      expect(d.error.status).toBe(401);
      expect(d.error.code).toBe("unauthorized");
      expect(d.error.message).toMatch(/node on nlmtt8.*needs an API key/);
      expect(d.headers["WWW-Authenticate"]).toBe('Bearer realm="preflop-ranges"');
      expect(await s.usedToday({ ip: "1.2.3.4" })).toBe(0);
    });

    it.each([
      ["Basic abc", /must be "Bearer <API key>"/],
      ["Bearer", /must be "Bearer <API key>"/],
      ["Bearer sk-something", /not an API key of this service/],
      [`Bearer pr_0123456789ab_${"a".repeat(43)}`, /pr_0123456789ab\.\.\. is not valid/],
    ])(
      "a bad Authorization header (%s) is a 401 even on keyless operations",
      async (authorization, message) => {
        const s = await mem();
        const d = await s.authorize({ authorization, ip: "1.2.3.4", keyless: true });
        expect(d.ok).toBe(false);
        if (d.ok) return;
        expect(d.error.status).toBe(401);
        expect(d.error.message).toMatch(message);
        expect(d.error.message).toMatch(/even on keyless operations/);
        expect(d.headers["WWW-Authenticate"]).toContain('error="invalid_token"');
      },
    );

    it("a key with the right id and a wrong secret is refused", async () => {
      const s = await mem();
      const k = await s.createKey({ name: "a" });
      const forged = `${k.key.slice(0, 16)}${"A".repeat(43)}`;
      const d = await s.authorize({ authorization: `Bearer ${forged}`, ip: "1.2.3.4", keyless: false });
      expect(d.ok).toBe(false);
    });

    it("a key verified before is refused right after its revocation in this process", async () => {
      const s = await mem();
      const k = await s.createKey({ name: "a" });
      const call = () => s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.2.3.4", keyless: false });
      expect((await call()).ok).toBe(true);
      expect((await call()).ok).toBe(true);
      await s.revokeKey(k.id);
      expect((await call()).ok).toBe(false);
    });

    it("a revoked key is a 401 that says so", async () => {
      const s = await mem();
      const k = await s.createKey({ name: "a" });
      await s.revokeKey(k.id);
      const d = await s.authorize({ authorization: `Bearer ${k.key}`, ip: "1.2.3.4", keyless: true });
      expect(d.ok).toBe(false);
      if (d.ok) return;
      expect(d.error.status).toBe(401);
      expect(d.error.message).toMatch(/revoked/);
    });

    it("the keyless allowance is 200 per IP per UTC day, then 429 with Retry-After to midnight", async () => {
      const c = fixedClock(new Date("2026-03-10T23:59:00.000Z"));
      const s = await mem({ clock: c.clock });
      for (let i = 1; i <= 200; i++) {
        const d = await s.authorize({ ip: "203.0.113.9", keyless: true });
        expect(d.ok).toBe(true);
        expect(d.headers["RateLimit-Remaining"]).toBe(String(200 - i));
      }
      const d = await s.authorize({ ip: "203.0.113.9", keyless: true });
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
      expect((await s.authorize({ ip: "203.0.113.10", keyless: true })).ok).toBe(true);
      c.set(new Date("2026-03-11T00:00:00.000Z"));
      expect((await s.authorize({ ip: "203.0.113.9", keyless: true })).ok).toBe(true);
    });

    it("counts survive closing and reopening the database", async () => {
      const c = fixedClock();
      const opener = sharedTarget(backend);
      const a = await opener({ clock: c.clock, keylessDailyLimit: 3 });
      const k = await a.createKey({ name: "a", dailyQuota: 10 });
      await a.authorize({ ip: "10.0.0.1", keyless: true });
      await a.authorize({ ip: "10.0.0.1", keyless: true });
      await a.authorize({ authorization: `Bearer ${k.key}`, ip: "10.0.0.1", keyless: false });
      await a.close();
      const b = await opener({ clock: c.clock, keylessDailyLimit: 3 });
      expect(await b.usedToday({ ip: "10.0.0.1" })).toBe(2);
      expect(await b.usedToday({ keyId: k.id })).toBe(1);
      expect((await b.authorize({ ip: "10.0.0.1", keyless: true })).ok).toBe(true);
      expect((await b.authorize({ ip: "10.0.0.1", keyless: true })).ok).toBe(false);
      expect((await b.authorize({ authorization: `Bearer ${k.key}`, ip: "x", keyless: false })).ok).toBe(
        true,
      );
    });

    it("a revocation by another connection applies within a second", async () => {
      const opener = sharedTarget(backend);
      const server = await opener();
      const admin = await opener();
      const k = await admin.createKey({ name: "a" });
      const call = () =>
        server.authorize({ authorization: `Bearer ${k.key}`, ip: "1.1.1.1", keyless: false });
      expect((await call()).ok).toBe(true);
      await admin.revokeKey(k.id);
      // SQLite: from the next event-loop turn; PostgreSQL: once the cached key row is a second old.
      await new Promise((resolve) => setTimeout(resolve, backend === "sqlite" ? 0 : 1100));
      await turn();
      expect((await call()).ok).toBe(false);
    });

    it("a revoked key stays refused on another connection, call after call (none served from a cache)", async () => {
      const opener = sharedTarget(backend);
      const server = await opener();
      const admin = await opener();
      const k = await admin.createKey({ name: "a" });
      const call = () =>
        server.authorize({ authorization: `Bearer ${k.key}`, ip: "1.1.1.1", keyless: false });
      // Verified once, then served from the verified-key cache.
      for (let i = 0; i < 5; i++) expect((await call()).ok).toBe(true);
      await admin.revokeKey(k.id);
      await new Promise((resolve) => setTimeout(resolve, backend === "sqlite" ? 0 : 1100));
      await turn();
      const after: boolean[] = [];
      for (let i = 0; i < 20; i++) {
        after.push((await call()).ok);
        if (i % 5 === 4) await turn();
      }
      expect(after).toEqual(Array(20).fill(false));
      // At once, too, after the cached row expires again.
      await new Promise((resolve) => setTimeout(resolve, backend === "sqlite" ? 0 : 1100));
      const burst = await Promise.all(Array.from({ length: 20 }, call));
      expect(burst.filter((d) => d.ok)).toHaveLength(0);
    });

    it("calls counted while a write is in flight are written by the next flush and by close", async () => {
      const opener = sharedTarget(backend);
      const a = await opener({ flushIntervalMs: 5 });
      const k = await a.createKey({ name: "unmetered" });
      const call = () => a.authorize({ authorization: `Bearer ${k.key}`, ip: "1.1.1.1", keyless: false });
      expect((await call()).ok).toBe(true);
      let made = 1;
      // Rounds of calls made while a flush is writing the ones before.
      for (let round = 0; round < 5; round++) {
        const writing = a.flush();
        const during = await Promise.all(Array.from({ length: 40 }, call));
        made += during.filter((d) => d.ok).length;
        await writing;
      }
      // And a burst with the timer's flushes running under it.
      const burst = await Promise.all(Array.from({ length: 300 }, call));
      made += burst.filter((d) => d.ok).length;
      expect(made).toBe(501);
      await a.close();
      const b = await opener();
      expect(await b.usedToday({ keyId: k.id })).toBe(made);
    });

    it("ping reports a usable database; close is idempotent", async () => {
      const s = await mem();
      expect(await s.ping()).toBe(true);
      await s.close();
      await s.close();
      expect(await s.ping()).toBe(false);
    });

    it("never throws on arbitrary header text", async () => {
      const s = await mem({ keylessDailyLimit: 1_000_000 });
      await fc.assert(
        fc.asyncProperty(
          fc.option(fc.string({ unit: "binary" })),
          fc.string(),
          fc.boolean(),
          async (auth, ip, keyless) => {
            const d = await s.authorize({ authorization: auth ?? undefined, ip, keyless });
            if (!d.ok) expect([401, 429]).toContain(d.error.status);
          },
        ),
        { numRuns: backend === "sqlite" ? 300 : 60 },
      );
    });
  });

  describe.skipIf(!available)("feature requests", () => {
    it("stores a key holder's requests and lists only their own, newest first", async () => {
      const c = fixedClock();
      const s = await mem({ clock: c.clock });
      const first = await s.submitRequest("aaaaaaaaaaaa", {
        kind: "data",
        text: " nl at 60bb ",
        game: "nl",
        stack: 60,
      });
      expect(first).toMatchObject({
        kind: "data",
        text: "nl at 60bb",
        game: "nl",
        stack: 60,
        spot: null,
        status: "open",
      });
      expect(first.id).toMatch(/^req_[0-9a-f]{16}$/);
      c.set(new Date(NOON.getTime() + 1000));
      const second = await s.submitRequest("aaaaaaaaaaaa", { kind: "feature", text: "PKO", spot: "UTG_2.5" });
      await s.submitRequest("bbbbbbbbbbbb", { kind: "bug", text: "someone else's" });
      expect((await s.listRequests("aaaaaaaaaaaa")).map((r) => r.id)).toEqual([second.id, first.id]);
      expect(await s.listRequests("bbbbbbbbbbbb")).toHaveLength(1);
      expect(await s.listRequests("cccccccccccc")).toEqual([]);
    });

    it("files at most REQUESTS_PER_DAY per key and UTC day, also when filed at once", async () => {
      const c = fixedClock();
      const s = await mem({ clock: c.clock });
      const results = await Promise.allSettled(
        Array.from({ length: REQUESTS_PER_DAY + 6 }, (_, i) =>
          s.submitRequest("aaaaaaaaaaaa", { kind: "other", text: `request ${i}` }),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(REQUESTS_PER_DAY);
      const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: "rate_limited" });
      expect(refused.reason.hint.retryAfterSeconds).toBeGreaterThan(0);
      // Another key is not held up; the next UTC day the key files again.
      await s.submitRequest("bbbbbbbbbbbb", { kind: "other", text: "mine" });
      c.set(new Date(NOON.getTime() + 86_400_000));
      await s.submitRequest("aaaaaaaaaaaa", { kind: "other", text: "tomorrow" });
    });

    it.each([
      [{ kind: "wish", text: "x" }, /"kind" must be one of feature, data, bug, other/],
      [{ kind: "data", text: "   " }, /"text" must hold 1 to 4000/],
      [{ kind: "data", text: "x".repeat(4001) }, /"text" must hold 1 to 4000/],
      [{ kind: "data", text: "x", stack: -5 }, /"stack"/],
      [{ kind: "data", text: "x", stack: Number.NaN }, /"stack"/],
      [{ kind: "data", text: "x", game: "" }, /"game"/],
      [{ kind: "data", text: "x", spot: "s".repeat(501) }, /"spot"/],
    ])("refuses bad input %#", async (input, message) => {
      const s = await mem();
      // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
      await expect(s.submitRequest("aaaaaaaaaaaa", input as any)).rejects.toThrow(message);
      expect(await s.listRequests("aaaaaaaaaaaa")).toEqual([]);
    });
  });
});

describe("SQLite", () => {
  it("two stores on one file share the meters (no lost increments)", async () => {
    const file = tempFile();
    const a = await AccessStore.open(file, { keylessDailyLimit: 30, flushIntervalMs: 0 });
    const b = await AccessStore.open(file, { keylessDailyLimit: 30, flushIntervalMs: 0 });
    open.push(a, b);
    for (let t = 0; t < 4; t++) {
      for (let i = 0; i < 5; i++) await (i % 2 ? a : b).authorize({ ip: "10.0.0.2", keyless: true });
      // Counts are written at the end of each event-loop turn.
      await turn();
    }
    expect(await a.usedToday({ ip: "10.0.0.2" })).toBe(20);
    expect(await b.usedToday({ ip: "10.0.0.2" })).toBe(20);
  });

  it("pending counts are written within the flush interval", async () => {
    const file = tempFile();
    const a = await AccessStore.open(file);
    const reader = await AccessStore.open(file);
    open.push(a, reader);
    await a.authorize({ ip: "10.0.0.4", keyless: true });
    expect(await reader.usedToday({ ip: "10.0.0.4" })).toBe(0);
    // The default interval is 100 ms; a later 150 ms timer fires after it whatever the machine's speed.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await reader.usedToday({ ip: "10.0.0.4" })).toBe(1);
  });

  it("pending counts are written at the end of the turn (interval 0), by flush() and by close()", async () => {
    const file = tempFile();
    const a = await AccessStore.open(file, { flushIntervalMs: 0 });
    const reader = await AccessStore.open(file);
    open.push(reader);
    await a.authorize({ ip: "10.0.0.3", keyless: true });
    expect(await reader.usedToday({ ip: "10.0.0.3" })).toBe(0);
    await turn();
    expect(await reader.usedToday({ ip: "10.0.0.3" })).toBe(1);
    await a.authorize({ ip: "10.0.0.3", keyless: true });
    await a.flush();
    expect(await reader.usedToday({ ip: "10.0.0.3" })).toBe(2);
    await a.authorize({ ip: "10.0.0.3", keyless: true });
    await a.close();
    expect(await reader.usedToday({ ip: "10.0.0.3" })).toBe(3);
  });

  it("one metering store per file: a second exclusive store is refused, the lock is freed by close", async () => {
    const file = tempFile();
    const server = await AccessStore.open(file, { exclusive: true });
    // The CLI and readers do not take the lock.
    const admin = await AccessStore.open(file);
    open.push(admin);
    await expect(AccessStore.open(file, { exclusive: true })).rejects.toThrow(
      new RegExp(`Another server process \\(pid ${process.pid}\\)`),
    );
    await server.close();
    open.push(await AccessStore.open(file, { exclusive: true }));
  });

  it("refuses a second exclusive store while a live process holds the lock, takes over a dead one's", async () => {
    const file = tempFile();
    // A lock held by another live process (this test's parent, which outlives it).
    writeFileSync(`${file}.lock`, `${process.ppid} ${(await import("node:os")).hostname()}\n`);
    await expect(AccessStore.open(file, { exclusive: true })).rejects.toThrow(
      new RegExp(`Another server process \\(pid ${process.ppid}\\) is metering calls on .*DATABASE_URL`),
    );
    // A lock whose process is gone is taken over.
    writeFileSync(`${file}.lock`, `2147483646 ${(await import("node:os")).hostname()}\n`);
    const s = await AccessStore.open(file, { exclusive: true });
    await expect(AccessStore.open(file, { exclusive: true })).rejects.toThrow(/Another server process/);
    await s.close();
    const again = await AccessStore.open(file, { exclusive: true });
    open.push(again);
  });

  it("migrates a database made before migrations existed, keeping its keys and meters", async () => {
    const file = tempFile();
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE api_keys (id TEXT PRIMARY KEY, name TEXT NOT NULL, plan TEXT NOT NULL,
      daily_quota INTEGER, key_hash BLOB NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT) STRICT;
      CREATE TABLE usage (subject TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL,
      PRIMARY KEY (subject, day)) STRICT, WITHOUT ROWID;`);
    old.close();
    const a = await AccessStore.open(file);
    const k = await a.createKey({ name: "kept", dailyQuota: 3 });
    await a.authorize({ authorization: `Bearer ${k.key}`, ip: "1.1.1.1", keyless: false });
    await a.close();
    const b = await AccessStore.open(file);
    open.push(b);
    expect((await b.listKeys()).map((x) => [x.name, x.usedToday])).toEqual([["kept", 1]]);
    expect(await b.submitRequest(k.id, { kind: "other", text: "hello" })).toMatchObject({ text: "hello" });
  });
});

describe.skipIf(!POSTGRES_AVAILABLE)("PostgreSQL", () => {
  it("limits are exact across stores: 300 concurrent calls against 200 let exactly 200 through", async () => {
    const opener = sharedTarget("postgres");
    const a = await opener();
    const b = await opener();
    const k = await a.createKey({ name: "k", dailyQuota: 5 });
    const calls = Array.from({ length: 300 }, (_, i) =>
      (i % 2 ? a : b).authorize({ ip: "198.51.100.7", keyless: true }),
    );
    const keyed = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? a : b).authorize({ authorization: `Bearer ${k.key}`, ip: "x", keyless: false }),
    );
    const results = await Promise.all(calls);
    const keyedResults = await Promise.all(keyed);
    expect(results.filter((d) => d.ok)).toHaveLength(200);
    expect(keyedResults.filter((d) => d.ok)).toHaveLength(5);
    expect(await a.usedToday({ ip: "198.51.100.7" })).toBe(200);
    expect(await b.usedToday({ keyId: k.id })).toBe(5);
  });

  it("says where it failed to connect, without the password", async () => {
    await expect(
      AccessStore.open("postgres://someone:secret@127.0.0.1:1/none", { schema: freshSchema() }),
    ).rejects.toThrow(
      /Cannot reach the PostgreSQL database postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/none/,
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
