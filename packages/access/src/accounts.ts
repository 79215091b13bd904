/**
 * Accounts of the web site: sign-up and sign-in by email and password, and sign-in sessions. Kept in the
 * account database beside the keys (`accounts`, `sessions`; migration 2026-11-24-accounts).
 *
 * - Passwords are hashed with argon2id (`@node-rs/argon2`: 19 MiB, 2 passes, 1 lane, the OWASP baseline),
 *   off the event loop. An unknown email costs a hash verification too, so timing does not tell which
 *   emails have accounts.
 * - A session is a random 256-bit token (the cookie's value, `base64url`) whose SHA-256 alone is stored, with
 *   a CSRF token of its own and a fixed lifetime (30 days by default).
 * - Failed sign-ins (the rule; "address" is the client address, IPv6 per /64, as the keyless allowance
 *   groups it; every count is per UTC day, in the `usage` table):
 *   1. per account and address (`signin-pair:<email>|<address>`): past `maxFailedSignInsPerAddress`
 *      (default 10) that address may not sign in to that account until 00:00 UTC (429);
 *   2. per address, across accounts (`signin-ip:<address>`): past `maxFailedSignInsPerIp` (default 100),
 *      that address may not sign in at all until 00:00 UTC;
 *   3. per account, from addresses it has not signed in from lately (`signin:<email>`): past
 *      `maxFailedSignIns` (default 50), sign-ins from such addresses are refused until 00:00 UTC. An address
 *      the account signed up or signed in from in the last 30 days (`signin-known:<email>|<address>`) is not
 *      held by this count.
 *   So failures from other addresses never lock the owner out of an address they used before: an attacker
 *   spends counts 1 and 3, never the owner's count 1. Online guessing of one account is bounded by
 *   `maxFailedSignIns` a day from new addresses plus `maxFailedSignInsPerAddress` from each address the
 *   owner used (in practice the owner's own networks). What remains: an owner on a network they have not
 *   used in 30 days can be kept out until 00:00 UTC by failures from 50 or more attempts of others that day.
 *   Each attempt is claimed by atomic conditional upserts before the password is verified (and given back
 *   when it is right), so parallel attempts cannot exceed the limits, across processes too.
 * - Sign-ups are counted per client address and UTC day, grouped as the keyless allowance groups them (IPv4
 *   per address, IPv6 per /64; subject `signup:<address>`), when the caller passes the address: past
 *   `maxSignUpsPerIp` (default 10) a sign-up is refused until the next UTC day (429). Every sign-up with a
 *   well-formed email and password counts, one for an email that has an account too (its 400 still says
 *   the email is taken, so asking which emails have accounts is limited like making them); a malformed
 *   email or a weak password is not counted. One atomic conditional increment on both back ends, so the
 *   limit is exact across processes.
 */

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { RangesError } from "@ranges/core";
import { secondsToUtcMidnight, utcDay } from "./clock.js";
import type { AccountDatabase } from "./db/database.js";
import { claimUsage } from "./db/usage.js";
import { ipSubject } from "./ip.js";
import { SignInLimits } from "./signin-limits.js";

export interface Account {
  /** `acc_` and 16 hex characters. */
  id: string;
  email: string;
  createdAt: string;
}

export interface SessionInfo {
  account: Account;
  /** Sent back by the site in `X-CSRF-Token` on every state-changing call. */
  csrfToken: string;
  expiresAt: string;
}

export interface NewSession extends SessionInfo {
  /** The cookie's value. Only its SHA-256 is stored. */
  token: string;
}

export interface AccountStoreOptions {
  clock?: () => Date;
  /** Session lifetime in seconds (default 30 days). */
  sessionSeconds?: number;
  /**
   * Failed sign-ins per account and UTC day from addresses it has not signed in from in the last 30 days,
   * before sign-ins from such addresses are refused for the day (default 50).
   */
  maxFailedSignIns?: number;
  /** Failed sign-ins per account, client address (IPv6: per /64) and UTC day (default 10). */
  maxFailedSignInsPerAddress?: number;
  /**
   * Failed sign-ins per client address (IPv6: per /64) and UTC day, across all emails, before sign-in from
   * that address is refused for the day (default 100); counted when `signIn` is given the address.
   */
  maxFailedSignInsPerIp?: number;
  /** Sign-ups per client address (IPv6: per /64) and UTC day (default 10); a positive integer. */
  maxSignUpsPerIp?: number;
}

/** Sign-ups per client address and UTC day unless configured (`maxSignUpsPerIp`, SIGNUP_DAILY_LIMIT). */
export const DEFAULT_SIGNUPS_PER_IP = 10;

/** Failed sign-ins per client address and UTC day, across emails, unless configured. */
export const DEFAULT_FAILED_SIGNINS_PER_IP = 100;
/** Failed sign-ins per account and client address and UTC day unless configured. */
export const DEFAULT_FAILED_SIGNINS_PER_ADDRESS = 10;
/** Failed sign-ins per account and UTC day from addresses it has not used lately, unless configured. */
export const DEFAULT_FAILED_SIGNINS_PER_ACCOUNT = 50;

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;
export const DEFAULT_SESSION_SECONDS = 30 * 86_400;

/** argon2id with the OWASP baseline parameters (m = 19 MiB, t = 2, p = 1). */
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// A shape check, not RFC 5322: one @, a dot in the domain, no spaces or control characters.
const EMAIL = /^[^\s@\p{Cc}]{1,64}@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]{2,}$/u;
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** Compares two strings in constant time (for equal lengths). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class AccountStore {
  private readonly clock: () => Date;
  private readonly sessionSeconds: number;
  private readonly signInLimits: SignInLimits;
  private readonly maxSignUps: number;
  /** Verified against for unknown emails, so a miss costs as much as a wrong password. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly database: AccountDatabase,
    o: AccountStoreOptions = {},
  ) {
    this.clock = o.clock ?? (() => new Date());
    this.sessionSeconds = o.sessionSeconds ?? DEFAULT_SESSION_SECONDS;
    this.signInLimits = new SignInLimits(database.db, {
      perPair: o.maxFailedSignInsPerAddress ?? DEFAULT_FAILED_SIGNINS_PER_ADDRESS,
      perAddress: o.maxFailedSignInsPerIp ?? DEFAULT_FAILED_SIGNINS_PER_IP,
      perAccount: o.maxFailedSignIns ?? DEFAULT_FAILED_SIGNINS_PER_ACCOUNT,
    });
    this.maxSignUps = o.maxSignUpsPerIp ?? DEFAULT_SIGNUPS_PER_IP;
    if (!Number.isSafeInteger(this.maxSignUps) || this.maxSignUps < 1) {
      throw new RangeError(`maxSignUpsPerIp must be a positive integer, got ${o.maxSignUpsPerIp}`);
    }
  }

  /** The sign-ups one client address may make per UTC day. */
  get signUpsPerIp(): number {
    return this.maxSignUps;
  }

  private get db() {
    return this.database.db;
  }

  /**
   * Creates an account. 400 for a malformed email or a weak password, or when the email has an account;
   * with `from.ip` (the client address), 429 once that address has made `maxSignUpsPerIp` sign-ups today
   * (a taken email counts, so the 400 that tells it cannot be asked without limit).
   */
  async signUp(emailInput: unknown, password: unknown, from: { ip?: string } = {}): Promise<Account> {
    const email = normalizeEmail(emailInput);
    checkPassword(password);
    // Counted before the email is looked up: the answer for a taken email ("exists already") tells whether
    // an email has an account, so asking it is rate limited like making an account.
    if (from.ip !== undefined) await this.countSignUp(from.ip);
    const existing = await this.db
      .selectFrom("accounts")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirst();
    if (existing) throw emailTaken();
    const account: Account = {
      id: `acc_${randomBytes(8).toString("hex")}`,
      email,
      createdAt: this.clock().toISOString(),
    };
    const passwordHash = await hash(password as string, ARGON2);
    try {
      await this.db
        .insertInto("accounts")
        .values({ id: account.id, email, password_hash: passwordHash, created_at: account.createdAt })
        .execute();
    } catch (error) {
      // Two sign-ups with one email at once: the unique index decides.
      const again = await this.db
        .selectFrom("accounts")
        .select("id")
        .where("email", "=", email)
        .executeTakeFirst();
      if (again) throw emailTaken();
      throw error;
    }
    // The address an account is made from is its owner's: failures from elsewhere do not hold it.
    if (from.ip !== undefined) {
      await this.signInLimits.remember(email, ipSubject(from.ip), account.createdAt);
    }
    return account;
  }

  /**
   * The account for an email and password; 401 when they do not match, 429 after too many failures today
   * (the rule is in this file's header): of this account from this address, of this address, or of this
   * account from addresses it has not used lately. Each attempt is claimed (counted as a failure) by one
   * atomic conditional upsert per counter before the password is verified, and given back when the password
   * is right, so attempts in parallel cannot pass a limit.
   */
  async signIn(emailInput: unknown, password: unknown, from: { ip?: string } = {}): Promise<Account> {
    const email = (typeof emailInput === "string" ? emailInput.trim().toLowerCase() : "").slice(0, 254);
    const pw = typeof password === "string" ? password : "";
    const address = from.ip === undefined ? null : ipSubject(from.ip);
    const attempt = await this.signInLimits.claim(email, address, this.clock());
    const row =
      email.length > 0 && pw.length <= MAX_PASSWORD_LENGTH
        ? await this.db
            .selectFrom("accounts")
            .select(["id", "email", "password_hash", "created_at"])
            .where("email", "=", email)
            .executeTakeFirst()
        : undefined;
    const stored = row?.password_hash ?? (await this.dummy());
    let ok = false;
    try {
      ok = await verify(stored, pw.length > 0 ? pw : "\u0000");
    } catch {
      ok = false;
    }
    if (!row || !ok) throw new RangesError("unauthorized", "The email or the password is not right.");
    // The right password: the claimed attempt was no failure, and the address is the owner's.
    await attempt.succeeded();
    return { id: row.id, email: row.email, createdAt: row.created_at };
  }

  /**
   * Counts one sign-up of a client address, or throws 429 when the address made its `maxSignUpsPerIp` today
   * (a refused sign-up is not counted). One conditional upsert: exact with any number of processes.
   */
  private async countSignUp(ip: string): Promise<void> {
    const now = this.clock();
    const day = utcDay(now);
    const limit = this.maxSignUps;
    if ((await claimUsage(this.db, `signup:${ipSubject(ip)}`, day, limit)) !== undefined) return;
    const reset = secondsToUtcMidnight(now);
    throw new RangesError(
      "rate_limited",
      `This network address has tried ${limit} sign-ups today, the most one address may try per day. It resets at 00:00 UTC (in ${reset} s); sign in to an account you made instead.`,
      {
        limit,
        meter: "signup",
        retryAfterSeconds: reset,
        resetsAt: new Date(now.getTime() + reset * 1000).toISOString(),
      },
    );
  }

  async account(id: string): Promise<Account | null> {
    const row = await this.db
      .selectFrom("accounts")
      .select(["id", "email", "created_at"])
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? { id: row.id, email: row.email, createdAt: row.created_at } : null;
  }

  /** Starts a session for an account: the cookie value and the session's CSRF token. */
  async createSession(account: Account): Promise<NewSession> {
    const token = randomBytes(32).toString("base64url");
    const csrfToken = randomBytes(24).toString("base64url");
    const now = this.clock();
    const expiresAt = new Date(now.getTime() + this.sessionSeconds * 1000).toISOString();
    await this.db
      .insertInto("sessions")
      .values({
        token_hash: sha256(token),
        account_id: account.id,
        csrf_token: csrfToken,
        created_at: now.toISOString(),
        expires_at: expiresAt,
      })
      .execute();
    return { token, account, csrfToken, expiresAt };
  }

  /** The live session of a cookie value, or null (unknown, malformed or expired). */
  async session(token: string | undefined | null): Promise<SessionInfo | null> {
    if (!token || !SESSION_TOKEN.test(token)) return null;
    const row = await this.db
      .selectFrom("sessions as s")
      .innerJoin("accounts as a", "a.id", "s.account_id")
      .select(["a.id", "a.email", "a.created_at", "s.csrf_token", "s.expires_at"])
      .where("s.token_hash", "=", sha256(token))
      .executeTakeFirst();
    if (!row || row.expires_at <= this.clock().toISOString()) return null;
    return {
      account: { id: row.id, email: row.email, createdAt: row.created_at },
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
    };
  }

  /** Ends a session (sign-out). Expired sessions of everyone are removed on the way. */
  async endSession(token: string | undefined | null): Promise<void> {
    if (token && SESSION_TOKEN.test(token)) {
      await this.db.deleteFrom("sessions").where("token_hash", "=", sha256(token)).execute();
    }
    await this.db.deleteFrom("sessions").where("expires_at", "<=", this.clock().toISOString()).execute();
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hash(randomBytes(16).toString("hex"), ARGON2);
    return this.dummyHash;
  }
}

function emailTaken(): RangesError {
  return new RangesError("invalid_parameter", "An account with this email exists already: sign in instead.", {
    field: "email",
  });
}

/** The email as stored: trimmed, lower case; 400 when it does not look like an email address. */
export function normalizeEmail(input: unknown): string {
  const email = typeof input === "string" ? input.trim().toLowerCase() : "";
  if (email.length === 0 || email.length > 254 || !EMAIL.test(email)) {
    throw new RangesError("invalid_parameter", "Give an email address such as you@example.com.", {
      field: "email",
    });
  }
  return email;
}

/** 400 unless the password has MIN..MAX characters. */
export function checkPassword(password: unknown): void {
  if (typeof password !== "string" || password.length < MIN_PASSWORD_LENGTH) {
    throw new RangesError(
      "invalid_parameter",
      `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters (a few words make a good one).`,
      { field: "password" },
    );
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new RangesError(
      "invalid_parameter",
      `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`,
      { field: "password" },
    );
  }
}
