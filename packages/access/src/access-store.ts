/**
 * API keys and daily meters in SQLite (node:sqlite, WAL). Keys are stored only as SHA-256 hashes; the
 * secret is shown once by `createKey`.
 *
 * Counting: a call is checked and counted in memory at once; the counts are written together, at most
 * `flushIntervalMs` (100 ms) later, in one transaction of single-statement upserts (`count = count + n`,
 * RETURNING the stored total). A synchronous SQLite commit per request would block the event loop for
 * tens of microseconds of I/O; batching keeps the hot path at a Map update. `close()` writes what is
 * pending, so a restart loses nothing; a crash loses at most the last interval's counts.
 * Several processes may share the file: each upsert adds to the stored total, so no increment is lost.
 * Once per event-loop turn the store checks whether another connection has committed (PRAGMA
 * data_version) and then re-reads keys and idle meters, so a revocation by the CLI applies from the next
 * turn on, and other processes' counts are seen within one flush interval.
 *
 * Meters (all per UTC day):
 *   with a valid key   the key's meter; `dailyQuota` null means unmetered (still counted)
 *   without a key      the caller's IP (IPv6: its /64), `keylessDailyLimit` calls, keyless operations only
 */

import { DatabaseSync, type StatementSync } from "node:sqlite";
import { RangesError } from "@ranges/core";
import { secondsToUtcMidnight, utcDay } from "./clock.js";
import { ipSubject } from "./ip.js";
import { API_KEY_PREFIX, hashKey, keyMatches, newApiKey, parseApiKey } from "./keys.js";

export const DEFAULT_KEYLESS_DAILY_LIMIT = 200;
export const DEFAULT_PLAN = "standard";
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
}

export interface CreateKeyInput {
  name: string;
  /** Plan label (default "standard"). */
  plan?: string;
  /** Calls per UTC day; null or omitted means unmetered (calls are still counted). */
  dailyQuota?: number | null;
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
}

export interface AuthorizeInput {
  /** The raw `Authorization` header, if any. */
  authorization?: string | undefined;
  /** Client address (already resolved through trusted proxies by the caller). */
  ip: string;
  /** Whether the operation accepts a missing key (then the IP allowance counts the call). */
  keyless: boolean;
  /** Human name of the operation, used only in messages (e.g. "node on nlmtt8"). */
  operation?: string | undefined;
}

export type AccessDecision =
  | { ok: true; via: "key" | "ip"; keyId?: string; headers: Record<string, string> }
  | { ok: false; error: RangesError; headers: Record<string, string> };

interface KeyRow {
  key_hash: Uint8Array;
  daily_quota: number | null;
  plan: string;
  revoked_at: string | null;
}

/** One subject's count for one UTC day: `stored` as of the last write or read, plus `pending` unwritten. */
interface Meter {
  readonly subject: string;
  readonly day: string;
  stored: number;
  pending: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS api_keys (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  plan        TEXT NOT NULL,
  daily_quota INTEGER,
  key_hash    BLOB NOT NULL,
  created_at  TEXT NOT NULL,
  revoked_at  TEXT
) STRICT;
CREATE TABLE IF NOT EXISTS usage (
  subject TEXT NOT NULL,
  day     TEXT NOT NULL,
  count   INTEGER NOT NULL,
  PRIMARY KEY (subject, day)
) STRICT, WITHOUT ROWID;
`;

/** Usage rows older than this many days are dropped when the store opens. */
const RETENTION_DAYS = 35;
/** Idle in-memory meters are dropped beyond this many (they are re-read from the database when needed). */
const MAX_IDLE_METERS = 50_000;
const MAX_VERIFIED_KEYS = 10_000;

const PLAN_SHAPE = /^[A-Za-z0-9_.-]{1,32}$/;

export class AccessStore {
  readonly keylessDailyLimit: number;
  private readonly db: DatabaseSync;
  private readonly clock: () => Date;
  private readonly addStmt: StatementSync;
  private readonly keyStmt: StatementSync;
  private readonly usageStmt: StatementSync;
  private readonly versionStmt: StatementSync;
  private readonly meters = new Map<string, Meter>();
  private dirty: Meter[] = [];
  private readonly keys = new Map<string, KeyRow>();
  /**
   * Presented keys already verified (SHA-256 + timingSafeEqual) against a live key, to their id: repeat
   * calls skip the hash. Cleared whenever keys may have changed, so a hit is always a live key.
   */
  private readonly verified = new Map<string, string>();
  private dataVersion: number;
  private readonly flushIntervalMs: number;
  /** True while a write of pending counts is scheduled. */
  private flushScheduled = false;
  /** True once this event-loop turn has checked for other connections' commits. */
  private turnChecked = false;
  private readonly endTurn = (): void => {
    this.turnChecked = false;
  };
  private flushError: unknown = null;
  private closed = false;

  private constructor(db: DatabaseSync, o: AccessOptions) {
    this.db = db;
    this.clock = o.clock ?? (() => new Date());
    this.keylessDailyLimit = o.keylessDailyLimit ?? DEFAULT_KEYLESS_DAILY_LIMIT;
    if (!Number.isInteger(this.keylessDailyLimit) || this.keylessDailyLimit < 0) {
      throw new RangeError(`keylessDailyLimit must be a non-negative integer, got ${o.keylessDailyLimit}`);
    }
    this.flushIntervalMs = o.flushIntervalMs ?? 100;
    if (!(this.flushIntervalMs >= 0))
      throw new RangeError(`flushIntervalMs must be >= 0, got ${o.flushIntervalMs}`);
    this.addStmt = db.prepare(
      `INSERT INTO usage (subject, day, count) VALUES (?, ?, ?)
       ON CONFLICT (subject, day) DO UPDATE SET count = count + excluded.count
       RETURNING count`,
    );
    this.keyStmt = db.prepare("SELECT key_hash, daily_quota, plan, revoked_at FROM api_keys WHERE id = ?");
    this.usageStmt = db.prepare("SELECT count FROM usage WHERE subject = ? AND day = ?");
    this.versionStmt = db.prepare("PRAGMA data_version");
    this.dataVersion = this.readDataVersion();
  }

  /** Opens (creating if needed) the database at `path`, or an in-memory one for `":memory:"`. */
  static open(path: string, o: AccessOptions = {}): AccessStore {
    const db = new DatabaseSync(path);
    try {
      db.exec("PRAGMA busy_timeout = 5000");
      if (path !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
      // WAL + NORMAL: a commit survives a process crash; only a power loss can drop the last few.
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec(SCHEMA);
      const store = new AccessStore(db, o);
      store.prune();
      return store;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  createKey(input: CreateKeyInput): CreatedKey {
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
    this.db
      .prepare(
        "INSERT INTO api_keys (id, name, plan, daily_quota, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(id, name, plan, quota, hashKey(key), this.clock().toISOString());
    this.forgetKeys();
    return { id, key, prefix: `${API_KEY_PREFIX}${id}` };
  }

  listKeys(): ApiKeyInfo[] {
    this.flush();
    const rows = this.db
      .prepare(
        `SELECT k.id, k.name, k.plan, k.daily_quota, k.created_at, k.revoked_at, COALESCE(u.count, 0) AS used
         FROM api_keys k LEFT JOIN usage u ON u.subject = 'key:' || k.id AND u.day = ?
         ORDER BY k.created_at, k.id`,
      )
      .all(utcDay(this.clock()));
    return rows.map((r) => ({
      id: String(r.id),
      prefix: `${API_KEY_PREFIX}${String(r.id)}`,
      name: String(r.name),
      plan: String(r.plan),
      dailyQuota: r.daily_quota === null ? null : Number(r.daily_quota),
      createdAt: String(r.created_at),
      revokedAt: r.revoked_at === null ? null : String(r.revoked_at),
      usedToday: Number(r.used),
    }));
  }

  /** Revokes a key by id (or by its `pr_<id>` prefix). True when a live key was revoked now. */
  revokeKey(id: string): boolean {
    const bare = id.startsWith(API_KEY_PREFIX) ? id.slice(API_KEY_PREFIX.length) : id;
    const result = this.db
      .prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
      .run(this.clock().toISOString(), bare);
    this.forgetKeys();
    return Number(result.changes) > 0;
  }

  /** Calls counted today for a key id or an IP (as the keyless meter groups it). */
  usedToday(who: { keyId: string } | { ip: string }): number {
    const subject = "keyId" in who ? `key:${who.keyId}` : `ip:${ipSubject(who.ip)}`;
    this.flush();
    const row = this.usageStmt.get(subject, utcDay(this.clock()));
    return row ? Number(row.count) : 0;
  }

  /**
   * Decides whether a call may proceed and counts it on the right meter. Never throws for bad input; throws
   * only when the store is closed.
   */
  authorize(input: AuthorizeInput): AccessDecision {
    if (this.closed) throw new Error("AccessStore is closed");
    // Once per event-loop turn: notice commits of other connections (revoked keys, their counts).
    if (!this.turnChecked) {
      this.turnChecked = true;
      setImmediate(this.endTurn);
      this.revalidate();
    }
    const now = this.clock();
    const header = input.authorization?.trim();
    if (!header) {
      if (!input.keyless) {
        const what = input.operation ? ` (${input.operation})` : "";
        return this.unauthorized(
          `This operation${what} needs an API key: send the header "Authorization: Bearer <API key>". Keys start with "${API_KEY_PREFIX}".`,
          false,
        );
      }
      return this.meter(`ip:${ipSubject(input.ip)}`, this.keylessDailyLimit, now, "ip");
    }
    const bearer = /^Bearer +(\S+)$/i.exec(header);
    const badKeyTail = input.keyless
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
      const known = this.keys.get(knownId)!;
      const decision = this.meter(`key:${knownId}`, known.daily_quota, now, "key", known.plan);
      return decision.ok ? { ...decision, keyId: knownId } : decision;
    }
    const parsed = parseApiKey(token);
    const row = parsed ? this.keyRow(parsed.id) : undefined;
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
      return this.unauthorized(
        `The API key ${API_KEY_PREFIX}${parsed.id} was revoked on ${row.revoked_at}; create a new key.${badKeyTail}`,
        true,
      );
    }
    if (this.verified.size >= MAX_VERIFIED_KEYS) this.verified.clear();
    this.verified.set(token, parsed.id);
    const decision = this.meter(`key:${parsed.id}`, row.daily_quota, now, "key", row.plan);
    return decision.ok ? { ...decision, keyId: parsed.id } : decision;
  }

  /** True when the database answers a query and pending counts can be written (readiness checks). */
  ping(): boolean {
    if (this.closed) return false;
    try {
      this.flush();
      this.db.prepare("SELECT count(*) AS n FROM api_keys").get();
      return this.flushError === null;
    } catch {
      return false;
    }
  }

  /**
   * Writes pending counts now (otherwise done within `flushIntervalMs`). A failed write keeps the counts
   * pending for the next attempt and makes `ping()` report false until one succeeds.
   */
  flush(): void {
    this.flushScheduled = false;
    if (this.closed || this.dirty.length === 0) return;
    const batch = this.dirty;
    this.dirty = [];
    try {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        for (const m of batch) {
          const row = this.addStmt.get(m.subject, m.day, m.pending);
          m.stored = Number(row!.count);
          m.pending = 0;
        }
        this.db.exec("COMMIT");
      } catch (err) {
        this.db.exec("ROLLBACK");
        throw err;
      }
      this.flushError = null;
    } catch (err) {
      // Stored totals may be half-updated in memory; pending counts stay and are retried.
      this.flushError = err;
      for (const m of batch) if (m.pending > 0) this.dirty.push(m);
    }
    if (this.meters.size > MAX_IDLE_METERS) this.dropIdleMeters();
  }

  /** Writes pending counts and closes the database. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.db.close();
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  private meter(
    subject: string,
    limit: number | null,
    now: Date,
    via: "key" | "ip",
    plan?: string,
  ): AccessDecision {
    const day = utcDay(now);
    let m = this.meters.get(subject);
    if (m === undefined || m.day !== day) {
      // First sight of the subject today (or since another connection wrote): read the stored total.
      const row = this.usageStmt.get(subject, day);
      m = { subject, day, stored: row ? Number(row.count) : 0, pending: 0 };
      this.meters.set(subject, m);
    }
    const count = m.stored + m.pending + 1;
    if (limit === null || count <= limit) {
      // Counted only when allowed: a refused call does not use up tomorrow's allowance or inflate meters.
      if (m.pending === 0) this.dirty.push(m);
      m.pending += 1;
      this.scheduleFlush();
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
    if (this.flushIntervalMs === 0) setImmediate(() => this.flush());
    // Unref'd: pending counts never keep a process alive; close() writes them.
    else setTimeout(() => this.flush(), this.flushIntervalMs).unref();
  }

  /** A key's row, cached by id until another connection commits (see `revalidate`). */
  private keyRow(id: string): KeyRow | undefined {
    let row = this.keys.get(id);
    if (row === undefined) {
      row = this.keyStmt.get(id) as KeyRow | undefined;
      // Unknown ids are not cached, so random ids cannot grow the map.
      if (row !== undefined) this.keys.set(id, row);
    }
    return row;
  }

  private readDataVersion(): number {
    return Number(this.versionStmt.get()!.data_version);
  }

  /** Drops cached keys and idle meters when another connection has committed since the last check. */
  private revalidate(): void {
    if (this.closed) return;
    const version = this.readDataVersion();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.forgetKeys();
    this.dropIdleMeters();
  }

  private forgetKeys(): void {
    this.keys.clear();
    this.verified.clear();
  }

  private dropIdleMeters(): void {
    for (const [subject, m] of this.meters) if (m.pending === 0) this.meters.delete(subject);
  }

  private unauthorized(message: string, badKey: boolean): AccessDecision {
    const challenge = badKey
      ? `Bearer realm="${AUTH_REALM}", error="invalid_token"`
      : `Bearer realm="${AUTH_REALM}"`;
    return {
      ok: false,
      error: new RangesError("unauthorized", message),
      headers: { "WWW-Authenticate": challenge },
    };
  }

  private prune(): void {
    const cutoff = new Date(this.clock().getTime() - RETENTION_DAYS * 86_400_000);
    this.db.prepare("DELETE FROM usage WHERE day < ?").run(utcDay(cutoff));
  }
}
