/**
 * API keys, daily meters and feature requests, kept in the account database (`db/database.ts`): SQLite by
 * default, PostgreSQL when a `postgres://` URL is given. Keys are stored only as SHA-256 hashes; the secret
 * is shown once by `createKey`.
 *
 * Counting, exact on both back ends:
 * - PostgreSQL: every call on a limited meter is one atomic statement (`INSERT ... ON CONFLICT DO UPDATE
 *   SET count = count + 1 WHERE count < limit RETURNING count`), so any number of API processes share
 *   exact limits. Unmetered keys are counted in memory and written in batches.
 * - SQLite: a call is checked and counted in memory at once, and the counts are written together, at most
 *   `flushIntervalMs` (100 ms) later, in one transaction (`count = count + n`). A server opens the store
 *   `exclusive`, which takes the file's lock (`lock.ts`): one metering process per file, so the in-memory
 *   check is exact; a second server is refused with a message. `close()` writes what is pending; a crash
 *   loses at most the last interval's counts. Once per event-loop turn the store checks whether another
 *   connection has committed (PRAGMA data_version) and then re-reads keys and idle meters, so a revocation
 *   by the CLI applies from the next turn on.
 * - Revocation. SQLite: from the next event-loop turn (PRAGMA data_version, above). PostgreSQL: the process
 *   that revokes refuses the key at once; every other process reads a key's row again once it is
 *   KEY_TTL_MS (1 s) old, counted from before the query, and a revoked row is never served from the
 *   verified-key fast path: a revocation applies on every instance within 1 s (plus a call's own time).
 * - Counts written in batches never lose a call made while a write is in flight (`meter-book.ts`): such a
 *   meter goes back on the dirty list and the next flush writes it. `close()` (SIGTERM) waits for the write
 *   in progress and writes the rest; a kill -9 loses what was counted in the last `flushIntervalMs` plus the
 *   write in flight.
 *
 * Meters (all per UTC day):
 *   with a valid key   the key's meter; `dailyQuota` null means unmetered (still counted)
 *   without a key      the caller's IP (IPv6: its /64), `keylessDailyLimit` calls, keyless operations only
 */

import { randomBytes } from "node:crypto";
import type { StatementSync } from "node:sqlite";
import { RangesError } from "@ranges/core";
import { sql } from "kysely";
import { secondsToUtcMidnight, utcDay } from "./clock.js";
import {
  type AccountDatabase,
  type Backend,
  type DatabaseTarget,
  openAccountDatabase,
} from "./db/database.js";
import { insertKeyWithin } from "./db/key-rows.js";
import { claimUsage } from "./db/usage.js";
import { ipSubject } from "./ip.js";
import { API_KEY_PREFIX, hashKey, keyMatches, newApiKey, parseApiKey } from "./keys.js";
import { type FileLock, lockDatabaseFile } from "./lock.js";
import { type BatchEntry, MeterBook } from "./meter-book.js";

export const DEFAULT_KEYLESS_DAILY_LIMIT = 200;
export const DEFAULT_PLAN = "standard";
/** Live keys one account may hold unless `maxLiveKeysPerAccount` says otherwise. */
export const MAX_LIVE_KEYS_PER_ACCOUNT = 25;
export const AUTH_REALM = "preflop-ranges";

export interface AccessOptions {
  /** Calls per UTC day per IP without a key (default 200). */
  keylessDailyLimit?: number;
  /** Injected clock for tests; defaults to the system time. */
  clock?: () => Date;
  /**
   * Longest time counts wait in memory before they are written (default 100 ms; 0 writes at the end of
   * the event-loop turn). Larger batches mean fewer commits; a crash loses at most this window.
   */
  flushIntervalMs?: number;
  /**
   * A server that meters calls: on SQLite, take the file's lock so that no other process meters it at the
   * same time (limits stay exact); refused with a message while another live process holds it. No effect on
   * PostgreSQL (exact across processes) or ":memory:".
   */
  exclusive?: boolean;
  /** PostgreSQL only: the schema to use (created if missing). */
  schema?: string;
  /**
   * Live keys one account may hold (default 25): `createKey` with an `accountId` refuses one more with a 400
   * (`invalid_parameter`), atomically on both back ends (`db/key-rows.ts`). Keys without an account (the
   * CLI's) are not limited.
   */
  maxLiveKeysPerAccount?: number;
}

export interface CreateKeyInput {
  name: string;
  /** Plan label (default "standard"). */
  plan?: string;
  /** Calls per UTC day; null or omitted means unmetered (calls are still counted). */
  dailyQuota?: number | null;
  /** The account that owns the key (keys made in the account area); omitted for CLI keys. */
  accountId?: string | null;
  /** The OAuth grant the key stands for (an MCP client's sign-in); its secret is then never shown. */
  oauthGrantId?: string | null;
}

export interface CreatedKey {
  id: string;
  /** The full key. Shown once: only its hash is stored. */
  key: string;
  /** `pr_<id>`, the public part that identifies the key in listings. */
  prefix: string;
}

export interface ApiKeyInfo {
  id: string;
  prefix: string;
  name: string;
  plan: string;
  dailyQuota: number | null;
  createdAt: string;
  revokedAt: string | null;
  /** Calls counted on the key's meter in the current UTC day. */
  usedToday: number;
  /** The owning account, or null (a CLI key). */
  accountId: string | null;
}

/** Calls counted on one key's meter on one UTC day. */
export interface KeyUsageDay {
  keyId: string;
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  count: number;
}

export interface AuthorizeInput {
  /** The raw `Authorization` header, if any. */
  authorization?: string | undefined;
  /**
   * A key the caller has already been authenticated as (an OAuth access token that stands for the key; see
   * `keyIdForGrant`): used instead of `authorization`, checked to be live and metered like a presented key.
   */
  keyId?: string | undefined;
  /** Client address (already resolved through trusted proxies by the caller). */
  ip: string;
  /** Whether the operation accepts a missing key (then the IP allowance counts the call). */
  keyless: boolean;
  /** Human name of the operation, used only in messages (e.g. "node on nlmtt8"). */
  operation?: string | undefined;
  /**
   * A free operation (feature requests): it needs a valid key but is not counted on the key's meter and
   * is allowed even when the quota is spent. Implies a key is required.
   */
  free?: boolean;
}

export type AccessDecision =
  | { ok: true; via: "key" | "ip"; keyId?: string; plan?: string; headers: Record<string, string> }
  | { ok: false; error: RangesError; headers: Record<string, string> };

/** Kinds of feature request: new features, missing data (a game, stack or spot), a bug, anything else. */
export const REQUEST_KINDS = ["feature", "data", "bug", "other"] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/**
 * A feature or data request, as `POST /api/v1/requests` and the MCP tool `submit_request` take it.
 * e.g. `{ "kind": "data", "text": "nl 6-max at 60bb please", "game": "nl", "stack": 60 }`
 */
export interface RequestInput {
  kind: RequestKind;
  /** 1 to 4000 characters. */
  text: string;
  game?: string | undefined;
  stack?: number | undefined;
  spot?: string | undefined;
}

export interface StoredRequest {
  /** `req_` and 16 hex characters. */
  id: string;
  kind: RequestKind;
  text: string;
  game: string | null;
  stack: number | null;
  spot: string | null;
  /** Always "open" for now: requests are read by the team. */
  status: "open";
  createdAt: string;
}

interface KeyRow {
  key_hash: Uint8Array;
  daily_quota: number | null;
  plan: string;
  revoked_at: string | null;
  /** When the row was read (PostgreSQL rows expire after KEY_TTL_MS). */
  readAt: number;
}

/** Usage rows older than this many days are dropped when the store opens. */
const RETENTION_DAYS = 35;
/** Idle in-memory meters are dropped beyond this many (they are re-read from the database when needed). */
const MAX_IDLE_METERS = 50_000;
const MAX_VERIFIED_KEYS = 10_000;
/** PostgreSQL: how long a key row is trusted before it is read again (a revocation applies within it). */
const KEY_TTL_MS = 1000;
const MAX_REQUEST_TEXT = 4000;
const MAX_REQUESTS_LISTED = 100;

const PLAN_SHAPE = /^[A-Za-z0-9_.-]{1,32}$/;

/** Synchronous statements of the SQLite hot path (metering is checked and counted in memory). */
interface SqliteStatements {
  readonly add: StatementSync;
  readonly usage: StatementSync;
  readonly version: StatementSync;
}

export class AccessStore {
  readonly keylessDailyLimit: number;
  /** Live keys one account may hold. */
  readonly maxLiveKeys: number;
  /** "sqlite" or "postgres". */
  readonly backend: Backend;
  /** Where the data lives, safe to print (no password). */
  readonly where: string;
  private readonly account: AccountDatabase;
  private readonly lite: SqliteStatements | null;
  private readonly lock: FileLock | null;
  private readonly clock: () => Date;
  private readonly meters = new MeterBook();
  private readonly keys = new Map<string, KeyRow>();
  /** Key rows being read (PostgreSQL), so that concurrent calls with one key share one query. */
  private readonly keyReads = new Map<string, Promise<KeyRow | undefined>>();
  /** Bumped whenever this process changes keys: reads begun before are not cached. */
  private keyGeneration = 0;
  /**
   * Presented keys already verified (SHA-256 + timingSafeEqual) against a live key, to their id: repeat
   * calls skip the hash. Cleared whenever keys may have changed, so a hit is always a live key.
   */
  private readonly verified = new Map<string, string>();
  private dataVersion = 0;
  private readonly flushIntervalMs: number;
  /** True while a write of pending counts is scheduled. */
  private flushScheduled = false;
  /** The write in progress (PostgreSQL), awaited by the next flush. */
  private flushing: Promise<void> | null = null;
  /** True once this event-loop turn has checked for other connections' commits. */
  private turnChecked = false;
  private readonly endTurn = (): void => {
    this.turnChecked = false;
  };
  private flushError: unknown = null;
  private closed = false;

  private constructor(database: AccountDatabase, lock: FileLock | null, o: AccessOptions) {
    this.account = database;
    this.backend = database.backend;
    this.where = database.where;
    this.lock = lock;
    this.clock = o.clock ?? (() => new Date());
    this.keylessDailyLimit = o.keylessDailyLimit ?? DEFAULT_KEYLESS_DAILY_LIMIT;
    this.maxLiveKeys = o.maxLiveKeysPerAccount ?? MAX_LIVE_KEYS_PER_ACCOUNT;
    this.flushIntervalMs = o.flushIntervalMs ?? 100;
    const sqlite = database.sqlite;
    this.lite =
      sqlite === null
        ? null
        : {
            add: sqlite.prepare(
              `INSERT INTO usage (subject, day, count) VALUES (?, ?, ?)
               ON CONFLICT (subject, day) DO UPDATE SET count = count + excluded.count
               RETURNING count`,
            ),
            usage: sqlite.prepare("SELECT count FROM usage WHERE subject = ? AND day = ?"),
            version: sqlite.prepare("PRAGMA data_version"),
          };
    if (this.lite) this.dataVersion = Number(this.lite.version.get()!.data_version);
  }

  /**
   * Opens (creating and migrating if needed) the account database: a `postgres://` URL, a SQLite file, or
   * ":memory:". Rejects with a readable message when the database cannot be used.
   */
  static async open(target: string | DatabaseTarget, o: AccessOptions = {}): Promise<AccessStore> {
    const keyless = o.keylessDailyLimit ?? DEFAULT_KEYLESS_DAILY_LIMIT;
    if (!Number.isInteger(keyless) || keyless < 0) {
      throw new RangeError(`keylessDailyLimit must be a non-negative integer, got ${o.keylessDailyLimit}`);
    }
    const maxKeys = o.maxLiveKeysPerAccount ?? MAX_LIVE_KEYS_PER_ACCOUNT;
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
      throw new RangeError(
        `maxLiveKeysPerAccount must be a positive integer, got ${o.maxLiveKeysPerAccount}`,
      );
    }
    const flush = o.flushIntervalMs ?? 100;
    if (!(flush >= 0)) throw new RangeError(`flushIntervalMs must be >= 0, got ${o.flushIntervalMs}`);
    const spec: DatabaseTarget =
      typeof target === "string"
        ? /^postgres(ql)?:\/\//i.test(target)
          ? { databaseUrl: target, schema: o.schema }
          : { sqlitePath: target }
        : { ...target, schema: target.schema ?? o.schema };
    const sqlitePath = spec.databaseUrl ? null : (spec.sqlitePath ?? ":memory:");
    const lock =
      o.exclusive && sqlitePath !== null && sqlitePath !== ":memory:" ? lockDatabaseFile(sqlitePath) : null;
    let database: AccountDatabase;
    try {
      database = await openAccountDatabase(spec);
    } catch (error) {
      lock?.release();
      throw error;
    }
    const store = new AccessStore(database, lock, o);
    try {
      await store.prune();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async createKey(input: CreateKeyInput): Promise<CreatedKey> {
    const name = typeof input.name === "string" ? input.name.trim() : "";
    if (name.length === 0 || name.length > 100) {
      throw new RangesError("invalid_parameter", "A key needs a name of 1 to 100 characters.");
    }
    const plan = input.plan ?? DEFAULT_PLAN;
    if (!PLAN_SHAPE.test(plan)) {
      throw new RangesError(
        "invalid_parameter",
        `Plan "${plan}" is not valid: use 1 to 32 letters, digits, ".", "_" or "-".`,
      );
    }
    const quota = input.dailyQuota ?? null;
    if (quota !== null && (!Number.isSafeInteger(quota) || quota < 0)) {
      throw new RangesError(
        "invalid_parameter",
        `The daily quota must be a non-negative integer or null (unmetered), got ${quota}.`,
      );
    }
    const { id, key } = newApiKey();
    const row = {
      id,
      name,
      plan,
      daily_quota: quota,
      key_hash: hashKey(key),
      created_at: this.clock().toISOString(),
      revoked_at: null,
      account_id: input.accountId ?? null,
      oauth_grant_id: input.oauthGrantId ?? null,
    };
    if (!(await insertKeyWithin(this.account, row, this.maxLiveKeys))) {
      throw new RangesError(
        "invalid_parameter",
        `An account holds at most ${this.maxLiveKeys} live keys: revoke one you no longer use first.`,
      );
    }
    this.forgetKeys();
    return { id, key, prefix: `${API_KEY_PREFIX}${id}` };
  }

  /** Every key (the CLI), or the keys of one account (`{ accountId }`), oldest first. */
  async listKeys(filter: { accountId?: string } = {}): Promise<ApiKeyInfo[]> {
    await this.flush();
    let query = this.account.db
      .selectFrom("api_keys as k")
      .leftJoin("usage as u", (join) =>
        join.on("u.subject", "=", sql<string>`${"key:"} || k.id`).on("u.day", "=", utcDay(this.clock())),
      )
      .select([
        "k.id",
        "k.name",
        "k.plan",
        "k.daily_quota",
        "k.created_at",
        "k.revoked_at",
        "k.account_id",
        "u.count",
      ]);
    if (filter.accountId !== undefined) query = query.where("k.account_id", "=", filter.accountId);
    const rows = await query.orderBy("k.created_at").orderBy("k.id").execute();
    return rows.map((r) => ({
      id: r.id,
      prefix: `${API_KEY_PREFIX}${r.id}`,
      name: r.name,
      plan: r.plan,
      dailyQuota: r.daily_quota === null ? null : Number(r.daily_quota),
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
      usedToday: r.count === null ? 0 : Number(r.count),
      accountId: r.account_id ?? null,
    }));
  }

  /**
   * Revokes a key by id (or by its `pr_<id>` prefix); with `accountId`, only a key of that account. True when a
   * live key was revoked now.
   */
  async revokeKey(id: string, owner: { accountId?: string } = {}): Promise<boolean> {
    const bare = id.startsWith(API_KEY_PREFIX) ? id.slice(API_KEY_PREFIX.length) : id;
    let update = this.account.db
      .updateTable("api_keys")
      .set({ revoked_at: this.clock().toISOString() })
      .where("id", "=", bare)
      .where("revoked_at", "is", null);
    if (owner.accountId !== undefined) update = update.where("account_id", "=", owner.accountId);
    const result = await update.executeTakeFirst();
    this.forgetKeys();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Calls per UTC day on these keys' meters over the last `days` days (today included), oldest first. */
  async keyUsage(keyIds: readonly string[], days = 30): Promise<KeyUsageDay[]> {
    if (keyIds.length === 0) return [];
    await this.flush();
    const since = utcDay(new Date(this.clock().getTime() - (Math.max(1, Math.floor(days)) - 1) * 86_400_000));
    const rows = await this.account.db
      .selectFrom("usage")
      .select(["subject", "day", "count"])
      .where(
        "subject",
        "in",
        keyIds.map((id) => `key:${id}`),
      )
      .where("day", ">=", since)
      .orderBy("day")
      .orderBy("subject")
      .execute();
    return rows.map((r) => ({ keyId: r.subject.slice(4), day: r.day, count: Number(r.count) }));
  }

  /** The live key that stands for an OAuth grant, or null (none, or revoked). */
  async keyIdForGrant(grantId: string): Promise<string | null> {
    const row = await this.account.db
      .selectFrom("api_keys")
      .select("id")
      .where("oauth_grant_id", "=", grantId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** The live keys of an account that stand for OAuth grants (MCP clients' sign-ins), oldest first. */
  async grantKeysOf(accountId: string): Promise<{ keyId: string; grantId: string }[]> {
    const rows = await this.account.db
      .selectFrom("api_keys")
      .select(["id", "oauth_grant_id"])
      .where("account_id", "=", accountId)
      .where("oauth_grant_id", "is not", null)
      .where("revoked_at", "is", null)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map((r) => ({ keyId: r.id, grantId: r.oauth_grant_id as string }));
  }

  /** The OAuth grant a key stands for, or null (a key made in the account area or with the CLI). */
  async grantIdOfKey(keyId: string): Promise<string | null> {
    const row = await this.account.db
      .selectFrom("api_keys")
      .select("oauth_grant_id")
      .where("id", "=", keyId)
      .executeTakeFirst();
    return row?.oauth_grant_id ?? null;
  }

  /** Calls counted today for a key id or an IP (as the keyless meter groups it). */
  async usedToday(who: { keyId: string } | { ip: string }): Promise<number> {
    const subject = "keyId" in who ? `key:${who.keyId}` : `ip:${ipSubject(who.ip)}`;
    await this.flush();
    return this.storedCount(subject, utcDay(this.clock()));
  }

  /**
   * Decides whether a call may proceed and counts it on the right meter. Never rejects for bad input;
   * rejects only when the store is closed or the database fails.
   */
  async authorize(input: AuthorizeInput): Promise<AccessDecision> {
    if (this.closed) throw new Error("AccessStore is closed");
    // Once per event-loop turn: notice commits of other connections (revoked keys, their counts).
    if (!this.turnChecked) {
      this.turnChecked = true;
      setImmediate(this.endTurn);
      this.revalidate();
    }
    const now = this.clock();
    const header = input.authorization?.trim();
    const keyless = input.keyless && input.free !== true;
    if (input.keyId !== undefined) {
      const row = await this.keyRow(input.keyId);
      if (!row || row.revoked_at !== null) {
        return this.unauthorized(
          "The sign-in this call was made with no longer has a live key (it was revoked in the account area): sign in again.",
          true,
        );
      }
      return this.keyDecision(input.keyId, row, now, input);
    }
    if (!header) {
      if (!keyless) {
        const what = input.operation ? ` (${input.operation})` : "";
        return this.unauthorized(
          `This operation${what} needs an API key: send the header "Authorization: Bearer <API key>". Keys start with "${API_KEY_PREFIX}".`,
          false,
        );
      }
      return this.meter(`ip:${ipSubject(input.ip)}`, this.keylessDailyLimit, now, "ip");
    }
    const bearer = /^Bearer +(\S+)$/i.exec(header);
    const badKeyTail = keyless
      ? " A bad key is an error even on keyless operations: fix it, or send no Authorization header to use the keyless allowance."
      : "";
    if (!bearer) {
      return this.unauthorized(
        `The Authorization header must be "Bearer <API key>" (keys start with "${API_KEY_PREFIX}").${badKeyTail}`,
        true,
      );
    }
    const token = bearer[1]!;
    const knownId = this.verified.get(token);
    if (knownId !== undefined) {
      const known = this.keys.get(knownId);
      // Only a live row read within KEY_TTL_MS (PostgreSQL) skips the checks; a revoked or stale one is
      // looked at again below (and refused once revoked).
      if (known !== undefined && known.revoked_at === null && this.fresh(known)) {
        return this.keyDecision(knownId, known, now, input);
      }
    }
    const parsed = parseApiKey(token);
    const row = parsed ? await this.keyRow(parsed.id) : undefined;
    // Always hash and compare, so a malformed or unknown key takes as long as a wrong secret.
    const matches = keyMatches(token, row ? row.key_hash : null);
    if (!parsed || !row || !matches) {
      return this.unauthorized(
        parsed
          ? `The API key ${API_KEY_PREFIX}${parsed.id}... is not valid: check that it was copied whole.${badKeyTail}`
          : `The bearer token is not an API key of this service: keys look like "${API_KEY_PREFIX}<12 hex>_<secret>".${badKeyTail}`,
        true,
      );
    }
    if (row.revoked_at !== null) {
      this.verified.delete(token);
      return this.unauthorized(
        `The API key ${API_KEY_PREFIX}${parsed.id} was revoked on ${row.revoked_at}; create a new key.${badKeyTail}`,
        true,
      );
    }
    if (this.verified.size >= MAX_VERIFIED_KEYS) this.verified.clear();
    this.verified.set(token, parsed.id);
    return this.keyDecision(parsed.id, row, now, input);
  }

  /** Files a feature or data request for a key holder. Throws `invalid_parameter` for bad input. */
  async submitRequest(keyId: string, input: RequestInput): Promise<StoredRequest> {
    const kind = input.kind;
    if (!REQUEST_KINDS.includes(kind)) {
      throw new RangesError(
        "invalid_parameter",
        `"kind" must be one of ${REQUEST_KINDS.join(", ")}; got ${JSON.stringify(String(kind)).slice(0, 40)}.`,
      );
    }
    const text = typeof input.text === "string" ? input.text.trim() : "";
    if (text.length === 0 || text.length > MAX_REQUEST_TEXT) {
      throw new RangesError(
        "invalid_parameter",
        `"text" must hold 1 to ${MAX_REQUEST_TEXT} characters (got ${text.length}).`,
      );
    }
    const optional = (name: string, v: string | undefined, max: number): string | null => {
      if (v === undefined || v === null) return null;
      if (typeof v !== "string" || v.length === 0 || v.length > max) {
        throw new RangesError("invalid_parameter", `"${name}" must be a string of 1 to ${max} characters.`);
      }
      return v;
    };
    const game = optional("game", input.game, 32);
    const spot = optional("spot", input.spot, 500);
    const stack = input.stack ?? null;
    if (
      stack !== null &&
      !(typeof stack === "number" && Number.isFinite(stack) && stack > 0 && stack <= 10_000)
    ) {
      throw new RangesError(
        "invalid_parameter",
        `"stack" must be a number of big blinds above 0 (at most 10000).`,
      );
    }
    const stored: StoredRequest = {
      id: `req_${randomBytes(8).toString("hex")}`,
      kind,
      text,
      game,
      stack,
      spot,
      status: "open",
      createdAt: this.clock().toISOString(),
    };
    await this.account.db
      .insertInto("feature_requests")
      .values({
        id: stored.id,
        key_id: keyId,
        kind,
        text,
        game,
        stack,
        spot,
        status: stored.status,
        created_at: stored.createdAt,
      })
      .execute();
    return stored;
  }

  /** A key holder's own requests, newest first (at most 100). */
  async listRequests(keyId: string, limit = MAX_REQUESTS_LISTED): Promise<StoredRequest[]> {
    const rows = await this.account.db
      .selectFrom("feature_requests")
      .selectAll()
      .where("key_id", "=", keyId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(Math.max(1, Math.min(MAX_REQUESTS_LISTED, Math.floor(limit))))
      .execute();
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind as RequestKind,
      text: r.text,
      game: r.game,
      stack: r.stack === null ? null : Number(r.stack),
      spot: r.spot,
      status: "open",
      createdAt: r.created_at,
    }));
  }

  /** True when the database answers a query and pending counts can be written (readiness checks). */
  async ping(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.flush();
      await this.account.db
        .selectFrom("api_keys")
        .select((eb) => eb.fn.countAll().as("n"))
        .execute();
      return this.flushError === null;
    } catch {
      return false;
    }
  }

  /**
   * Writes pending counts now (otherwise done within `flushIntervalMs`). A failed write keeps the counts
   * pending for the next attempt and makes `ping()` report false until one succeeds.
   */
  async flush(): Promise<void> {
    this.flushScheduled = false;
    // One write at a time: a flush that finds one in progress waits for it, then writes what came since.
    while (this.flushing) await this.flushing;
    if (this.closed || !this.meters.hasPending) return;
    const batch = this.meters.take();
    if (this.lite) {
      this.flushSqlite(batch);
    } else {
      const write = this.flushPostgres(batch);
      this.flushing = write;
      try {
        await write;
      } finally {
        this.flushing = null;
      }
    }
    if (this.meters.size > MAX_IDLE_METERS) this.meters.dropIdle();
  }

  /** Writes pending counts, closes the database and releases the file lock. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      this.lock?.release();
      await this.account.close();
    }
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** The account database itself, for the other stores that keep their tables in it (the solve queue). */
  get database(): AccountDatabase {
    return this.account;
  }

  private flushSqlite(batch: readonly BatchEntry[]): void {
    const sqlite = this.account.sqlite!;
    try {
      const totals: number[] = [];
      sqlite.exec("BEGIN IMMEDIATE");
      try {
        for (const { meter, amount } of batch) {
          totals.push(Number(this.lite!.add.get(meter.subject, meter.day, amount)!.count));
        }
        sqlite.exec("COMMIT");
      } catch (err) {
        sqlite.exec("ROLLBACK");
        throw err;
      }
      this.meters.committed(batch, totals);
      this.flushError = null;
    } catch (err) {
      // Nothing was written: the counts wait for the next attempt.
      this.flushError = err;
      this.meters.failed(batch);
    }
  }

  /**
   * Writes a batch in one transaction. Calls counted while it is in flight go to the meters' `pending` and
   * the dirty list (see `meter-book.ts`), so the next flush writes them.
   */
  private async flushPostgres(batch: readonly BatchEntry[]): Promise<void> {
    try {
      await this.account.db.transaction().execute(async (tx) => {
        for (const { meter, amount } of batch) {
          await tx
            .insertInto("usage")
            .values({ subject: meter.subject, day: meter.day, count: amount })
            .onConflict((oc) =>
              oc.columns(["subject", "day"]).doUpdateSet({ count: sql`usage.count + ${amount}` }),
            )
            .execute();
        }
      });
      this.meters.committed(batch);
      this.flushError = null;
    } catch (err) {
      this.flushError = err;
      this.meters.failed(batch);
    }
  }

  private keyDecision(id: string, row: KeyRow, now: Date, input: AuthorizeInput): Promise<AccessDecision> {
    if (input.free === true) {
      return Promise.resolve({ ok: true, via: "key", keyId: id, plan: row.plan, headers: {} });
    }
    const decision = this.meter(`key:${id}`, row.daily_quota, now, "key", row.plan);
    return decision.then((d) => (d.ok ? { ...d, keyId: id, plan: row.plan } : d));
  }

  private async storedCount(subject: string, day: string): Promise<number> {
    if (this.lite) {
      const row = this.lite.usage.get(subject, day);
      return row ? Number(row.count) : 0;
    }
    const row = await this.account.db
      .selectFrom("usage")
      .select("count")
      .where("subject", "=", subject)
      .where("day", "=", day)
      .executeTakeFirst();
    return row ? Number(row.count) : 0;
  }

  private async meter(
    subject: string,
    limit: number | null,
    now: Date,
    via: "key" | "ip",
    plan?: string,
  ): Promise<AccessDecision> {
    const day = utcDay(now);
    let count: number;
    if (limit !== null && this.lite === null) {
      // PostgreSQL: one atomic conditional increment; no row back means the limit was already reached.
      count = limit + 1;
      if (limit > 0) {
        count = (await claimUsage(this.account.db, subject, day, limit)) ?? count;
      }
    } else {
      // First sight of the subject today (or since another connection wrote): read the stored total.
      const m =
        this.meters.get(subject, day) ??
        this.meters.adopt(subject, day, await this.storedCount(subject, day));
      count = MeterBook.total(m) + 1;
      if (limit === null || count <= limit) {
        // Counted only when allowed: a refused call does not use up tomorrow's allowance or inflate meters.
        this.meters.add(m);
        this.scheduleFlush();
      }
    }
    if (limit === null) return { ok: true, via, headers: {} };
    const reset = secondsToUtcMidnight(now);
    const headers: Record<string, string> = {
      "RateLimit-Limit": String(limit),
      "RateLimit-Remaining": String(Math.max(0, limit - count)),
      "RateLimit-Reset": String(reset),
    };
    if (count <= limit) return { ok: true, via, headers };
    headers["Retry-After"] = String(reset);
    const resetsAt = new Date(now.getTime() + reset * 1000).toISOString();
    const message =
      via === "ip"
        ? `The keyless allowance of ${limit} calls per day for your IP address is spent. It resets at 00:00 UTC (in ${reset} s); send an API key ("Authorization: Bearer <API key>") to keep going.`
        : `The daily quota of ${limit} calls for this key (plan ${plan}) is spent. It resets at 00:00 UTC (in ${reset} s).`;
    return {
      ok: false,
      error: new RangesError("rate_limited", message, {
        limit,
        meter: via,
        retryAfterSeconds: reset,
        resetsAt,
      }),
      headers,
    };
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const run = () => {
      this.flush().catch(() => {});
    };
    if (this.flushIntervalMs === 0) setImmediate(run);
    // Unref'd: pending counts never keep a process alive; close() writes them.
    else setTimeout(run, this.flushIntervalMs).unref();
  }

  private fresh(row: KeyRow): boolean {
    return this.lite !== null || Date.now() - row.readAt < KEY_TTL_MS;
  }

  /** A key's row, cached by id until another connection commits (SQLite) or for a second (PostgreSQL). */
  private keyRow(id: string): Promise<KeyRow | undefined> {
    const cached = this.keys.get(id);
    if (cached !== undefined && this.fresh(cached)) return Promise.resolve(cached);
    let read = this.keyReads.get(id);
    if (read === undefined) {
      const reading = this.readKeyRow(id).finally(() => {
        if (this.keyReads.get(id) === reading) this.keyReads.delete(id);
      });
      read = reading;
      this.keyReads.set(id, read);
    }
    return read;
  }

  private async readKeyRow(id: string): Promise<KeyRow | undefined> {
    // The row's age counts from before the query, and a read that started before this process changed a
    // key is not cached: the revoking process refuses the key at once, the others within KEY_TTL_MS.
    const asked = Date.now();
    const generation = this.keyGeneration;
    const found = await this.account.db
      .selectFrom("api_keys")
      .select(["key_hash", "daily_quota", "plan", "revoked_at"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (found === undefined) {
      this.keys.delete(id);
      return undefined;
    }
    const row: KeyRow = {
      key_hash: found.key_hash,
      daily_quota: found.daily_quota === null ? null : Number(found.daily_quota),
      plan: found.plan,
      revoked_at: found.revoked_at,
      readAt: asked,
    };
    // Unknown ids are not cached, so random ids cannot grow the map.
    if (generation === this.keyGeneration) this.keys.set(id, row);
    return row;
  }

  /** SQLite: drops cached keys and idle meters when another connection has committed since the last check. */
  private revalidate(): void {
    if (this.closed || this.lite === null) return;
    const version = Number(this.lite.version.get()!.data_version);
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.forgetKeys();
    this.meters.dropIdle();
  }

  private forgetKeys(): void {
    this.keyGeneration += 1;
    this.keys.clear();
    this.keyReads.clear();
    this.verified.clear();
  }

  private unauthorized(message: string, badKey: boolean): Promise<AccessDecision> {
    const challenge = badKey
      ? `Bearer realm="${AUTH_REALM}", error="invalid_token"`
      : `Bearer realm="${AUTH_REALM}"`;
    return Promise.resolve({
      ok: false,
      error: new RangesError("unauthorized", message),
      headers: { "WWW-Authenticate": challenge },
    });
  }

  private async prune(): Promise<void> {
    const cutoff = new Date(this.clock().getTime() - RETENTION_DAYS * 86_400_000);
    await this.account.db.deleteFrom("usage").where("day", "<", utcDay(cutoff)).execute();
  }
}
