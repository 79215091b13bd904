import { isRangesError } from "@ranges/core";
import { afterEach, describe, expect, it } from "vitest";
import { AccessStore, AccountStore, type AccountStoreOptions } from "../src/index.js";
import { dropSchemas, freshSchema, POSTGRES_AVAILABLE, TEST_DATABASE_URL } from "./backends.js";

const open: AccessStore[] = [];
const schemas: string[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await dropSchemas(schemas);
});

async function stores(
  backend: "sqlite" | "postgres",
  o: AccountStoreOptions = {},
): Promise<{ access: AccessStore; accounts: AccountStore }> {
  let access: AccessStore;
  if (backend === "sqlite") {
    access = await AccessStore.open(":memory:", o.clock ? { clock: o.clock } : {});
  } else {
    const schema = freshSchema();
    schemas.push(schema);
    access = await AccessStore.open(TEST_DATABASE_URL, { schema, ...(o.clock ? { clock: o.clock } : {}) });
  }
  open.push(access);
  return { access, accounts: new AccountStore(access.database, o) };
}

async function rejection(
  p: Promise<unknown>,
): Promise<{ status: number; code: string; message: string; hint?: Record<string, unknown> }> {
  try {
    await p;
  } catch (error) {
    if (isRangesError(error)) {
      return { status: error.status, code: error.code, message: error.message, hint: error.hint };
    }
    throw error;
  }
  throw new Error("expected a rejection");
}

const PASSWORD = "correct horse battery staple";

describe.each([
  { backend: "sqlite" as const, available: true },
  { backend: "postgres" as const, available: POSTGRES_AVAILABLE },
])("$backend", ({ backend, available }) => {
  describe.skipIf(!available)("accounts", () => {
    it("signs up with an email and a password stored as an argon2id hash", async () => {
      const { access, accounts } = await stores(backend);
      const a = await accounts.signUp("  Alice@Example.COM ", PASSWORD);
      expect(a.id).toMatch(/^acc_[0-9a-f]{16}$/);
      expect(a.email).toBe("alice@example.com");
      const row = await access.database.db
        .selectFrom("accounts")
        .selectAll()
        .where("id", "=", a.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
      expect(await accounts.account(a.id)).toEqual(a);
    });

    it("refuses a second account for an email, bad emails and weak passwords with 400s", async () => {
      const { accounts } = await stores(backend);
      await accounts.signUp("bob@example.com", PASSWORD);
      const dup = await rejection(accounts.signUp("BOB@example.com", "another long password"));
      expect(dup).toMatchObject({ status: 400, code: "invalid_parameter" });
      expect(dup.message).toContain("exists already");
      for (const email of ["", "bob", "bob@", "@example.com", "bob@example", "a b@example.com", 42, null]) {
        expect((await rejection(accounts.signUp(email, PASSWORD))).status, String(email)).toBe(400);
      }
      for (const pw of ["short", "", "x".repeat(257), 1234567890123, undefined]) {
        const r = await rejection(accounts.signUp("carol@example.com", pw));
        expect(r.status).toBe(400);
        expect(r.message).toMatch(/password/);
      }
    });

    it("signs in with the right password only, and refuses an email after too many failures", async () => {
      const { accounts } = await stores(backend, { maxFailedSignIns: 3 });
      const a = await accounts.signUp("dan@example.com", PASSWORD);
      expect(await accounts.signIn("Dan@example.com ", PASSWORD)).toEqual(a);
      const wrong = await rejection(accounts.signIn("dan@example.com", "not the password"));
      expect(wrong).toMatchObject({ status: 401, code: "unauthorized" });
      // An unknown email reads the same as a wrong password.
      expect((await rejection(accounts.signIn("nobody@example.com", PASSWORD))).message).toBe(wrong.message);
      expect((await rejection(accounts.signIn("dan@example.com", ""))).status).toBe(401);
      expect((await rejection(accounts.signIn("dan@example.com", { not: "a string" }))).status).toBe(401);
      // Three failures: even the right password is refused for the rest of the UTC day.
      const limited = await rejection(accounts.signIn("dan@example.com", PASSWORD));
      expect(limited).toMatchObject({ status: 429, code: "rate_limited" });
    });

    it("claims a sign-in attempt before verifying: parallel failures cannot pass the email limit", async () => {
      const { access, accounts } = await stores(backend, { maxFailedSignIns: 3 });
      await accounts.signUp("erin@example.com", PASSWORD);
      const raced = await Promise.allSettled(
        Array.from({ length: 8 }, () => accounts.signIn("erin@example.com", "wrong password!")),
      );
      const statuses = raced.map((r) =>
        r.status === "rejected" ? (r.reason as { status: number }).status : 200,
      );
      expect(statuses.filter((s) => s === 401)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      const row = await access.database.db
        .selectFrom("usage")
        .select("count")
        .where("subject", "=", "signin:erin@example.com")
        .executeTakeFirstOrThrow();
      expect(Number(row.count)).toBe(3);
      expect((await rejection(accounts.signIn("erin@example.com", PASSWORD))).status).toBe(429);
    });

    it("limits failed sign-ins per client address across emails; a right password is not counted", async () => {
      const { accounts } = await stores(backend, { maxFailedSignIns: 50, maxFailedSignInsPerIp: 4 });
      const a = await accounts.signUp("fay@example.com", PASSWORD);
      const ip = "198.51.100.9";
      // Right passwords give their claimed attempt back.
      for (let i = 0; i < 6; i++)
        expect(await accounts.signIn("fay@example.com", PASSWORD, { ip })).toEqual(a);
      // Guessing over many emails at once from one address: exactly four get to try.
      const raced = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => accounts.signIn(`u${i}@example.com`, "guess guess!", { ip })),
      );
      const statuses = raced.map((r) =>
        r.status === "rejected" ? (r.reason as { status: number }).status : 200,
      );
      expect(statuses.filter((s) => s === 401)).toHaveLength(4);
      expect(statuses.filter((s) => s === 429)).toHaveLength(6);
      const limited = await rejection(accounts.signIn("fay@example.com", PASSWORD, { ip: `::ffff:${ip}` }));
      expect(limited).toMatchObject({
        status: 429,
        code: "rate_limited",
        hint: { limit: 4, meter: "signin" },
      });
      expect(limited.message).toContain("network address");
      // A refused address does not count against the email; another address (an IPv6 /64 is one) still may.
      expect(await accounts.signIn("fay@example.com", PASSWORD, { ip: "2001:db8::1" })).toEqual(a);
      for (let i = 0; i < 4; i++)
        await rejection(accounts.signIn("fay@example.com", "nope nope!", { ip: `2001:db8::${i + 2}` }));
      expect(
        (await rejection(accounts.signIn("fay@example.com", PASSWORD, { ip: "2001:db8::ff" }))).status,
      ).toBe(429);
      expect(await accounts.signIn("fay@example.com", PASSWORD, { ip: "2001:db8:0:1::1" })).toEqual(a);
    });

    it("failures from other addresses never lock the owner out of an address they used (finding 5)", async () => {
      const { accounts } = await stores(backend);
      const owner = await accounts.signUp("gus@example.com", PASSWORD, { ip: "198.51.100.1" });
      const attempt = (ip: string, pw = "wrong password!") => accounts.signIn("gus@example.com", pw, { ip });
      const statuses = async (ps: Promise<unknown>[]) =>
        (await Promise.allSettled(ps)).map((r) =>
          r.status === "rejected" ? (r.reason as { status: number }).status : 200,
        );
      // 30 wrong passwords from one address, at once: 10 are tried, then that address is refused.
      const one = await statuses(Array.from({ length: 30 }, () => attempt("203.0.113.5")));
      expect(one.filter((s) => s === 401)).toHaveLength(10);
      expect(one.filter((s) => s === 429)).toHaveLength(20);
      const pair = await rejection(attempt("203.0.113.5", PASSWORD));
      expect(pair).toMatchObject({ status: 429, hint: { limit: 10, meter: "signin" } });
      expect(pair.message).toMatch(/to this account from your network address today/);
      // The owner signs in where they signed up, and from an address they never used.
      expect(await attempt("198.51.100.1", PASSWORD)).toEqual(owner);
      expect(await attempt("192.0.2.77", PASSWORD)).toEqual(owner);
      // Guessing from 100 addresses, one try each: the account takes 50 failures a day from addresses it has
      // not used (10 were spent above), then refuses such addresses.
      const many = await statuses(Array.from({ length: 100 }, (_, i) => attempt(`10.9.${i}.1`)));
      expect(many.filter((s) => s === 401)).toHaveLength(40);
      expect(many.filter((s) => s === 429)).toHaveLength(60);
      const fresh = await rejection(attempt("192.0.2.200", PASSWORD));
      expect(fresh).toMatchObject({ status: 429, hint: { limit: 50, meter: "signin" } });
      expect(fresh.message).toMatch(
        /sign in from a network you signed in from in the last 30 days, or try again after 00:00 UTC/,
      );
      // Every address the owner used still works, and its right password costs nothing.
      for (let i = 0; i < 3; i++) {
        expect(await attempt("198.51.100.1", PASSWORD)).toEqual(owner);
        expect(await attempt("192.0.2.77", PASSWORD)).toEqual(owner);
      }
      // A known address is still held to its own 10 failures a day.
      const known = await statuses(Array.from({ length: 12 }, () => attempt("192.0.2.77")));
      expect(known.filter((s) => s === 401)).toHaveLength(10);
      expect(known.filter((s) => s === 429)).toHaveLength(2);
      expect(await attempt("198.51.100.1", PASSWORD)).toEqual(owner);
    });

    it("limits sign-ups per client address and UTC day, taken emails included", async () => {
      let now = new Date("2026-03-10T23:00:00.000Z");
      const { access, accounts } = await stores(backend, { clock: () => now, maxSignUpsPerIp: 3 });
      expect(accounts.signUpsPerIp).toBe(3);
      const ip = "203.0.113.7";
      await accounts.signUp("s1@example.com", PASSWORD, { ip });
      // Malformed input is not counted; asking for a taken email is (its 400 tells the email has an account).
      expect((await rejection(accounts.signUp("s2@example.com", "short", { ip }))).status).toBe(400);
      const taken = await rejection(accounts.signUp("S1@example.com", PASSWORD, { ip }));
      expect(taken).toMatchObject({ status: 400 });
      expect(taken.message).toContain("exists already");
      // Racing sign-ups: exactly the remaining one gets through.
      const raced = await Promise.allSettled(
        ["r1", "r2", "r3", "r4"].map((n) =>
          accounts.signUp(`${n}@example.com`, PASSWORD, { ip: `::ffff:${ip}` }),
        ),
      );
      expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const limited = await rejection(accounts.signUp("s3@example.com", PASSWORD, { ip }));
      expect(limited).toMatchObject({ status: 429, code: "rate_limited" });
      expect(limited.message).toContain("3 sign-ups today");
      // Past the limit a taken email is refused with the 429 too: whether it has an account is not told.
      expect((await rejection(accounts.signUp("s1@example.com", PASSWORD, { ip }))).status).toBe(429);
      expect(limited.hint).toEqual({
        limit: 3,
        meter: "signup",
        retryAfterSeconds: 3600,
        resetsAt: "2026-03-11T00:00:00.000Z",
      });
      // Another address has its own count; an IPv6 /64 counts as one address; no address, no limit.
      await accounts.signUp("s4@example.com", PASSWORD, { ip: "203.0.113.8" });
      for (const n of [1, 2, 3])
        await accounts.signUp(`v${n}@example.com`, PASSWORD, { ip: `2001:db8::${n}` });
      expect(
        (await rejection(accounts.signUp("v4@example.com", PASSWORD, { ip: "2001:db8::ff" }))).status,
      ).toBe(429);
      await accounts.signUp("v5@example.com", PASSWORD, { ip: "2001:db8:0:1::1" });
      await accounts.signUp("cli@example.com", PASSWORD);
      // The next UTC day starts a new count.
      now = new Date("2026-03-11T00:00:01.000Z");
      await accounts.signUp("s5@example.com", PASSWORD, { ip });
      expect(() => new AccountStore(access.database, { maxSignUpsPerIp: 0 })).toThrow(RangeError);
    });

    it("keeps sessions as hashes with a CSRF token, expires and ends them", async () => {
      let now = new Date("2026-03-10T12:00:00.000Z");
      const { access, accounts } = await stores(backend, { clock: () => now, sessionSeconds: 3600 });
      const a = await accounts.signUp("erin@example.com", PASSWORD);
      const s = await accounts.createSession(a);
      expect(s.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(s.csrfToken.length).toBeGreaterThanOrEqual(32);
      expect(s.expiresAt).toBe("2026-03-10T13:00:00.000Z");
      const rows = await access.database.db.selectFrom("sessions").selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).not.toContain(s.token);
      expect(await accounts.session(s.token)).toEqual({
        account: a,
        csrfToken: s.csrfToken,
        expiresAt: s.expiresAt,
      });
      // The token with its last character changed (to one it is not: a token ends in "A" one time in 64).
      const altered = `${s.token.slice(0, -1)}${s.token.endsWith("A") ? "B" : "A"}`;
      for (const bad of [undefined, null, "", "x", altered, `${s.token}x`]) {
        expect(await accounts.session(bad)).toBeNull();
      }
      now = new Date("2026-03-10T13:00:00.000Z");
      expect(await accounts.session(s.token)).toBeNull();
      now = new Date("2026-03-10T12:30:00.000Z");
      const other = await accounts.createSession(a);
      await accounts.endSession(other.token);
      expect(await accounts.session(other.token)).toBeNull();
      expect(await accounts.session(s.token)).not.toBeNull();
    });

    it("gives keys an owning account: listed, revoked and metered per account", async () => {
      const { access, accounts } = await stores(backend);
      const a = await accounts.signUp("fay@example.com", PASSWORD);
      const b = await accounts.signUp("gus@example.com", PASSWORD);
      const ka = await access.createKey({ name: "laptop", accountId: a.id, dailyQuota: 100 });
      const kb = await access.createKey({ name: "other", accountId: b.id });
      const cli = await access.createKey({ name: "cli" });
      expect((await access.listKeys({ accountId: a.id })).map((k) => [k.id, k.accountId])).toEqual([
        [ka.id, a.id],
      ]);
      expect((await access.listKeys()).map((k) => k.id).sort()).toEqual([ka.id, kb.id, cli.id].sort());
      for (let i = 0; i < 3; i++) {
        const d = await access.authorize({
          authorization: `Bearer ${ka.key}`,
          ip: "203.0.113.9",
          keyless: false,
        });
        expect(d.ok).toBe(true);
      }
      expect((await access.listKeys({ accountId: a.id }))[0]!.usedToday).toBe(3);
      const usage = await access.keyUsage([ka.id, kb.id]);
      expect(usage).toEqual([{ keyId: ka.id, day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), count: 3 }]);
      // Another account cannot revoke the key; its owner can, once.
      expect(await access.revokeKey(ka.id, { accountId: b.id })).toBe(false);
      expect(await access.revokeKey(ka.id, { accountId: a.id })).toBe(true);
      expect(await access.revokeKey(ka.id, { accountId: a.id })).toBe(false);
      const d = await access.authorize({
        authorization: `Bearer ${ka.key}`,
        ip: "203.0.113.9",
        keyless: false,
      });
      expect(d.ok).toBe(false);
    });
  });
});
