/**
 * The versioned schema of the account database, the same on SQLite and PostgreSQL, applied in order by
 * Kysely's `Migrator` (its own `kysely_migration` table records what ran). Append new migrations; never edit
 * one that has shipped.
 *
 * 2026-11-01 keys and meters: `api_keys`, `usage` (created only if absent: databases made before
 *            migrations existed already have them, with the same columns)
 * 2026-11-23 requests: `feature_requests`, the feature requests of key holders
 */

import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Migration, MigrationProvider } from "kysely/migration";

/** Which SQL dialect a migration runs on, for the few types that differ. */
export type Backend = "sqlite" | "postgres";

function migrations(backend: Backend): Record<string, Migration> {
  const bytes = backend === "sqlite" ? "blob" : "bytea";
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
  };
}

/** The migration list for `Migrator`. */
export function migrationProvider(backend: Backend): MigrationProvider {
  return { getMigrations: async () => migrations(backend) };
}
