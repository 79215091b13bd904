/**
 * The key administration queries of `AccessStore` (the CLI's and the account area's): new key rows, listings
 * with today's use, revocation, usage per day, and the keys that stand for OAuth grants.
 */

import { RangesError } from "@ranges/core";
import { type Kysely, sql } from "kysely";
import type { AccountTables } from "./db/database.js";
import { API_KEY_PREFIX, hashKey, newApiKey } from "./keys.js";

export const DEFAULT_PLAN = "standard";

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

type Db = Kysely<AccountTables>;

const PLAN_SHAPE = /^[A-Za-z0-9_.-]{1,32}$/;

/** A new key and its row, from checked input; `invalid_parameter` for a bad name, plan or quota. */
export function newKeyRow(input: CreateKeyInput, now: Date): { key: string; row: AccountTables["api_keys"] } {
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
    created_at: now.toISOString(),
    revoked_at: null,
    account_id: input.accountId ?? null,
    oauth_grant_id: input.oauthGrantId ?? null,
  };
  return { key, row };
}

/** Every key, or the keys of one account, oldest first, with the calls counted on `day`. */
export async function listKeyInfos(
  db: Db,
  filter: { accountId?: string },
  day: string,
): Promise<ApiKeyInfo[]> {
  let query = db
    .selectFrom("api_keys as k")
    .leftJoin("usage as u", (join) =>
      join.on("u.subject", "=", sql<string>`${"key:"} || k.id`).on("u.day", "=", day),
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

/** Marks a live key (by id or `pr_<id>`; of `owner.accountId` only, when given) revoked: true when it was. */
export async function revokeKeyRow(
  db: Db,
  id: string,
  owner: { accountId?: string },
  now: Date,
): Promise<boolean> {
  const bare = id.startsWith(API_KEY_PREFIX) ? id.slice(API_KEY_PREFIX.length) : id;
  let update = db
    .updateTable("api_keys")
    .set({ revoked_at: now.toISOString() })
    .where("id", "=", bare)
    .where("revoked_at", "is", null);
  if (owner.accountId !== undefined) update = update.where("account_id", "=", owner.accountId);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Calls per UTC day on these keys' meters from `since` on, oldest first. */
export async function keyUsageRows(db: Db, keyIds: readonly string[], since: string): Promise<KeyUsageDay[]> {
  if (keyIds.length === 0) return [];
  const rows = await db
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
export async function keyIdForGrant(db: Db, grantId: string): Promise<string | null> {
  const row = await db
    .selectFrom("api_keys")
    .select("id")
    .where("oauth_grant_id", "=", grantId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The live keys of an account that stand for OAuth grants (MCP clients' sign-ins), oldest first. */
export async function grantKeysOf(db: Db, accountId: string): Promise<{ keyId: string; grantId: string }[]> {
  const rows = await db
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
export async function grantIdOfKey(db: Db, keyId: string): Promise<string | null> {
  const row = await db
    .selectFrom("api_keys")
    .select("oauth_grant_id")
    .where("id", "=", keyId)
    .executeTakeFirst();
  return row?.oauth_grant_id ?? null;
}
