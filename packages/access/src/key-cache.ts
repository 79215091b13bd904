/**
 * The key rows `AccessStore.authorize` checks calls against, cached so that a call costs no query:
 * - rows by key id: on SQLite until the store sees another connection commit (it then calls `forget`); on
 *   PostgreSQL for `ttlMs` (1 s), counted from before the query, so a revocation made by another process
 *   applies here within that time;
 * - presented keys already verified (SHA-256 + timingSafeEqual) to their id, so repeat calls skip the hash.
 *   A verified key is served from here only while its cached row is live and fresh.
 * `forget` (this process changed a key, or another connection committed) drops everything, and a read begun
 * before it is not cached: the process that revokes a key refuses it at once. Concurrent calls with one key
 * share one read.
 */

import type { AccountDatabase } from "./db/database.js";

export interface KeyRow {
  key_hash: Uint8Array;
  daily_quota: number | null;
  plan: string;
  revoked_at: string | null;
  /** When the row was read (before the query was sent). */
  readAt: number;
}

const MAX_VERIFIED_KEYS = 10_000;

export class KeyCache {
  private readonly rows = new Map<string, KeyRow>();
  private readonly reads = new Map<string, Promise<KeyRow | undefined>>();
  private readonly verified = new Map<string, string>();
  /** Bumped by `forget`: reads begun before are not cached. */
  private generation = 0;

  constructor(
    private readonly account: AccountDatabase,
    /** How long a row is trusted; null: until `forget` (SQLite). */
    private readonly ttlMs: number | null,
  ) {}

  /** The live, fresh row of a presented key verified before, with its id; undefined otherwise. */
  verifiedLive(token: string): { id: string; row: KeyRow } | undefined {
    const id = this.verified.get(token);
    if (id === undefined) return undefined;
    const row = this.rows.get(id);
    return row !== undefined && row.revoked_at === null && this.fresh(row) ? { id, row } : undefined;
  }

  /** Records a presented key as verified against the live key `id`. */
  markVerified(token: string, id: string): void {
    if (this.verified.size >= MAX_VERIFIED_KEYS) this.verified.clear();
    this.verified.set(token, id);
  }

  unmarkVerified(token: string): void {
    this.verified.delete(token);
  }

  /** A key's row (cached, or read now); undefined for an unknown id. */
  row(id: string): Promise<KeyRow | undefined> {
    const cached = this.rows.get(id);
    if (cached !== undefined && this.fresh(cached)) return Promise.resolve(cached);
    let read = this.reads.get(id);
    if (read === undefined) {
      const reading = this.read(id).finally(() => {
        if (this.reads.get(id) === reading) this.reads.delete(id);
      });
      read = reading;
      this.reads.set(id, read);
    }
    return read;
  }

  /** Drops every cached row and verified key. */
  forget(): void {
    this.generation += 1;
    this.rows.clear();
    this.reads.clear();
    this.verified.clear();
  }

  private fresh(row: KeyRow): boolean {
    return this.ttlMs === null || Date.now() - row.readAt < this.ttlMs;
  }

  private async read(id: string): Promise<KeyRow | undefined> {
    const asked = Date.now();
    const generation = this.generation;
    const found = await this.account.db
      .selectFrom("api_keys")
      .select(["key_hash", "daily_quota", "plan", "revoked_at"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (found === undefined) {
      this.rows.delete(id);
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
    if (generation === this.generation) this.rows.set(id, row);
    return row;
  }
}
