/**
 * The versioned schema of the account database, the same on SQLite and PostgreSQL, applied in order by
 * Kysely's `Migrator` (its own `kysely_migration` table records what ran). Append new migrations; never edit
 * one that has shipped.
 *
 * 2026-11-01 keys and meters: `api_keys`, `usage` (created only if absent: databases made before
 *            migrations existed already have them, with the same columns)
 * 2026-11-23 requests: `feature_requests`, the feature requests of key holders
 * 2026-11-23 solves: `solve_jobs` (the solve queue: spec, status, progress) and `solve_results` (the
 *            finished pack of a job, as bytes, so workers on any machine can deliver it)
 * 2026-11-24 hands: `hands` (uploaded hands per key holder, deduplicated by site and hand number, with the
 *            columns the hand tools filter on) and `upload_links` (single-use, expiring upload links)
 * 2026-11-24 accounts: `accounts` (sign-in by email and an argon2id password hash), `sessions` (the web
 *            site's sign-in cookies, stored as SHA-256 hashes, with their CSRF tokens), and
 *            `api_keys.account_id`, the account that owns a key (null for keys made with the CLI)
 * 2026-11-24 oauth: `oauth_records` (everything the OAuth authorization server keeps: registered clients,
 *            grants, codes, tokens, interactions, its signing keys; see `oauth-records.ts`) and
 *            `api_keys.oauth_grant_id`, the OAuth grant a key stands for (an MCP client's sign-in)
 */

import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Migration, MigrationProvider } from "kysely/migration";

/** Which SQL dialect a migration runs on, for the few types that differ. */
export type Backend = "sqlite" | "postgres";

function migrations(backend: Backend): Record<string, Migration> {
  const bytes = backend === "sqlite" ? "blob" : "bytea";
  // PostgreSQL's `real` is single precision; amounts need double (SQLite's REAL already is).
  const double = sql.raw(backend === "sqlite" ? "real" : "double precision");
  return {
    "2026-11-01-keys-and-meters": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("api_keys")
          .ifNotExists()
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("plan", "text", (c) => c.notNull())
          .addColumn("daily_quota", "bigint")
          .addColumn("key_hash", sql.raw(bytes), (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("revoked_at", "text")
          .execute();
        await db.schema
          .createTable("usage")
          .ifNotExists()
          .addColumn("subject", "text", (c) => c.notNull())
          .addColumn("day", "text", (c) => c.notNull())
          .addColumn("count", "bigint", (c) => c.notNull())
          .addPrimaryKeyConstraint("usage_pk", ["subject", "day"])
          .execute();
      },
    },
    "2026-11-23-requests": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("feature_requests")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("key_id", "text", (c) => c.notNull())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("text", "text", (c) => c.notNull())
          .addColumn("game", "text")
          .addColumn("stack", "real")
          .addColumn("spot", "text")
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("feature_requests_by_key")
          .on("feature_requests")
          .columns(["key_id", "created_at"])
          .execute();
      },
    },
    "2026-11-23-solves": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("solve_jobs")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("key_id", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("spec", "text", (c) => c.notNull())
          .addColumn("game", "text", (c) => c.notNull())
          .addColumn("stack", "real", (c) => c.notNull())
          .addColumn("decisions", "integer", (c) => c.notNull())
          .addColumn("estimate_seconds", "real", (c) => c.notNull())
          .addColumn("max_seconds", "real", (c) => c.notNull())
          .addColumn("progress", "text")
          .addColumn("summary", "text")
          .addColumn("error", "text")
          .addColumn("attempts", "integer", (c) => c.notNull())
          .addColumn("worker", "text")
          .addColumn("cancel_requested", "integer", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("started_at", "text")
          .addColumn("heartbeat_at", "text")
          .addColumn("finished_at", "text")
          .execute();
        await db.schema
          .createIndex("solve_jobs_by_key")
          .on("solve_jobs")
          .columns(["key_id", "created_at"])
          .execute();
        await db.schema
          .createIndex("solve_jobs_by_status")
          .on("solve_jobs")
          .columns(["status", "created_at"])
          .execute();
        await db.schema
          .createTable("solve_results")
          .addColumn("job_id", "text", (c) => c.primaryKey())
          .addColumn("pack", sql.raw(bytes), (c) => c.notNull())
          .execute();
      },
    },
    "2026-11-24-hands": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("hands")
          .addColumn("key_id", "text", (c) => c.notNull())
          .addColumn("site", "text", (c) => c.notNull())
          .addColumn("hand_id", "text", (c) => c.notNull())
          .addColumn("upload_id", "text", (c) => c.notNull())
          .addColumn("played_at", "text", (c) => c.notNull())
          .addColumn("game", "text", (c) => c.notNull())
          .addColumn("format", "text", (c) => c.notNull())
          .addColumn("stakes", "text", (c) => c.notNull())
          .addColumn("bb", double, (c) => c.notNull())
          .addColumn("currency", "text")
          .addColumn("table_name", "text", (c) => c.notNull())
          .addColumn("tournament_id", "text")
          .addColumn("hero", "text")
          .addColumn("position", "text")
          .addColumn("hole_cards", "text")
          .addColumn("hand_class", "text")
          .addColumn("line", "text", (c) => c.notNull())
          .addColumn("showdown", "integer", (c) => c.notNull())
          .addColumn("net", double, (c) => c.notNull())
          .addColumn("net_bb", double, (c) => c.notNull())
          .addColumn("adjusted_bb", double)
          .addColumn("summary", "text", (c) => c.notNull())
          .addColumn("hand", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("hands_pk", ["key_id", "site", "hand_id"])
          .execute();
        await db.schema.createIndex("hands_by_time").on("hands").columns(["key_id", "played_at"]).execute();
        await db.schema
          .createTable("upload_links")
          .addColumn("token_hash", "text", (c) => c.primaryKey())
          .addColumn("key_id", "text", (c) => c.notNull())
          .addColumn("hero", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("expires_at", "text", (c) => c.notNull())
          .addColumn("used_at", "text")
          .execute();
      },
    },
    "2026-11-24-accounts": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("accounts")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("email", "text", (c) => c.notNull().unique())
          .addColumn("password_hash", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("sessions")
          .addColumn("token_hash", "text", (c) => c.primaryKey())
          .addColumn("account_id", "text", (c) => c.notNull())
          .addColumn("csrf_token", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("expires_at", "text", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("sessions_by_account").on("sessions").column("account_id").execute();
        await db.schema.alterTable("api_keys").addColumn("account_id", "text").execute();
        await db.schema.createIndex("api_keys_by_account").on("api_keys").column("account_id").execute();
      },
    },
    "2026-11-24-oauth": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("oauth_records")
          .addColumn("model", "text", (c) => c.notNull())
          .addColumn("id", "text", (c) => c.notNull())
          .addColumn("payload", "text", (c) => c.notNull())
          .addColumn("grant_id", "text")
          .addColumn("uid", "text")
          .addColumn("user_code", "text")
          .addColumn("expires_at", "text")
          .addColumn("consumed_at", "text")
          .addPrimaryKeyConstraint("oauth_records_pk", ["model", "id"])
          .execute();
        await db.schema
          .createIndex("oauth_records_by_grant")
          .on("oauth_records")
          .column("grant_id")
          .execute();
        await db.schema.createIndex("oauth_records_by_uid").on("oauth_records").column("uid").execute();
        await db.schema
          .createIndex("oauth_records_by_expiry")
          .on("oauth_records")
          .column("expires_at")
          .execute();
        await db.schema.alterTable("api_keys").addColumn("oauth_grant_id", "text").execute();
        await db.schema.createIndex("api_keys_by_grant").on("api_keys").column("oauth_grant_id").execute();
      },
    },
  };
}

/** The migration list for `Migrator`. */
export function migrationProvider(backend: Backend): MigrationProvider {
  return { getMigrations: async () => migrations(backend) };
}
