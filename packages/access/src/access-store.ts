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

import type { StatementSync } from "node:sqlite";
import { RangesError } from "@ranges/core";
import {
  type AccessDecision,
  type AccessOptions,
  type AuthorizeInput,
  DEFAULT_KEYLESS_DAILY_LIMIT,
  limitDecision,
  MAX_LIVE_KEYS_PER_ACCOUNT,
  unauthorizedDecision,
} from "./access-types.js";
import { utcDay } from "./clock.js";
import {
  type AccountDatabase,
  type Backend,
  type DatabaseTarget,
  openAccountDatabase,
} from "./db/database.js";
import { insertKeyWithin } from "./db/key-rows.js";
import { addUsage, claimUsage } from "./db/usage.js";
import { ipSubject } from "./ip.js";
import {
  type ApiKeyInfo,
  type CreatedKey,
  type CreateKeyInput,
  grantIdOfKey,
  grantKeysOf,
  type KeyUsageDay,
  keyIdForGrant,
  keyUsageRows,
  listKeyInfos,
  newKeyRow,
  revokeKeyRow,
} from "./key-admin.js";
import { KeyCache, type KeyRow } from "./key-cache.js";
import { API_KEY_PREFIX, keyMatches, parseApiKey } from "./keys.js";
import { type FileLock, lockDatabaseFile } from "./lock.js";
import { type BatchEntry, MeterBook } from "./meter-book.js";
import {
  insertRequest,
  MAX_REQUESTS_LISTED,
  type RequestInput,
  readRequests,
  type StoredRequest,
} from "./requests.js";

/** Usage rows older than this many days are dropped when the store opens. */
const RETENTION_DAYS = 35;
/** Idle in-memory meters are dropped beyond this many (they are re-read from the database when needed). */
const MAX_IDLE_METERS = 50_000;
/** PostgreSQL: how long a key row is trusted before it is read again (a revocation applies within it). */
const KEY_TTL_MS = 1000;

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
  private readonly keys: KeyCache;
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
    this.keys = new KeyCache(database, database.sqlite === null ? KEY_TTL_MS : null);
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
    const { key, row } = newKeyRow(input, this.clock());
    if (!(await insertKeyWithin(this.account, row, this.maxLiveKeys))) {
      throw new RangesError(
        "invalid_parameter",
        `An account holds at most ${this.maxLiveKeys} live keys: revoke one you no longer use first.`,
      );
    }
    this.keys.forget();
    return { id: row.id, key, prefix: `${API_KEY_PREFIX}${row.id}` };
  }

  /** Every key (the CLI), or the keys of one account (`{ accountId }`), oldest first. */
  async listKeys(filter: { accountId?: string } = {}): Promise<ApiKeyInfo[]> {
    await this.flush();
    return listKeyInfos(this.account.db, filter, utcDay(this.clock()));
  }

  /**
   * Revokes a key by id (or by its `pr_<id>` prefix); with `accountId`, only a key of that account. True when a
   * live key was revoked now.
   */
  async revokeKey(id: string, owner: { accountId?: string } = {}): Promise<boolean> {
    const revoked = await revokeKeyRow(this.account.db, id, owner, this.clock());
    this.keys.forget();
    return revoked;
  }

  /** Calls per UTC day on these keys' meters over the last `days` days (today included), oldest first. */
  async keyUsage(keyIds: readonly string[], days = 30): Promise<KeyUsageDay[]> {
    if (keyIds.length === 0) return [];
    await this.flush();
    const since = utcDay(new Date(this.clock().getTime() - (Math.max(1, Math.floor(days)) - 1) * 86_400_000));
    return keyUsageRows(this.account.db, keyIds, since);
  }

  /** The live key that stands for an OAuth grant, or null (none, or revoked). */
  keyIdForGrant(grantId: string): Promise<string | null> {
    return keyIdForGrant(this.account.db, grantId);
  }

  /** The live keys of an account that stand for OAuth grants (MCP clients' sign-ins), oldest first. */
  grantKeysOf(accountId: string): Promise<{ keyId: string; grantId: string }[]> {
    return grantKeysOf(this.account.db, accountId);
  }

  /** The OAuth grant a key stands for, or null (a key made in the account area or with the CLI). */
  grantIdOfKey(keyId: string): Promise<string | null> {
    return grantIdOfKey(this.account.db, keyId);
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
      const row = await this.keys.row(input.keyId);
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
    // Only a live row read within KEY_TTL_MS (PostgreSQL) skips the checks; a revoked or stale one is
    // looked at again below (and refused once revoked).
    const known = this.keys.verifiedLive(token);
    if (known !== undefined) return this.keyDecision(known.id, known.row, now, input);
    const parsed = parseApiKey(token);
    const row = parsed ? await this.keys.row(parsed.id) : undefined;
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
      this.keys.unmarkVerified(token);
      return this.unauthorized(
        `The API key ${API_KEY_PREFIX}${parsed.id} was revoked on ${row.revoked_at}; create a new key.${badKeyTail}`,
        true,
      );
    }
    this.keys.markVerified(token, parsed.id);
    return this.keyDecision(parsed.id, row, now, input);
  }

  /** Files a feature or data request for a key holder. Throws `invalid_parameter` for bad input. */
  submitRequest(keyId: string, input: RequestInput): Promise<StoredRequest> {
    return insertRequest(this.account, keyId, input, this.clock());
  }

  /** A key holder's own requests, newest first (at most 100). */
  listRequests(keyId: string, limit = MAX_REQUESTS_LISTED): Promise<StoredRequest[]> {
    return readRequests(this.account.db, keyId, limit);
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
      await addUsage(this.account.db, batch);
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
    return limitDecision(limit, count, now, via, plan);
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

  /** SQLite: drops cached keys and idle meters when another connection has committed since the last check. */
  private revalidate(): void {
    if (this.closed || this.lite === null) return;
    const version = Number(this.lite.version.get()!.data_version);
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.keys.forget();
    this.meters.dropIdle();
  }

  private unauthorized(message: string, badKey: boolean): Promise<AccessDecision> {
    return Promise.resolve(unauthorizedDecision(message, badKey));
  }

  private async prune(): Promise<void> {
    const cutoff = new Date(this.clock().getTime() - RETENTION_DAYS * 86_400_000);
    await this.account.db.deleteFrom("usage").where("day", "<", utcDay(cutoff)).execute();
  }
}
