/**
 * The account database: embedded SQLite by default (a file, or ":memory:"), PostgreSQL when a
 * `postgres://` URL is given (the servers read it from `DATABASE_URL`). Both hold the same tables, created
 * and upgraded by the versioned migrations of `migrations.ts` when the database opens.
 *
 * Queries go through Kysely (a typed query builder); the PostgreSQL driver is `pg`, SQLite is Node's own
 * `node:sqlite` (see `sqlite-driver.ts`).
 */

import { DatabaseSync } from "node:sqlite";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { type Backend, migrationProvider } from "./migrations.js";
import { kyselySqlite } from "./sqlite-driver.js";

export type { Backend } from "./migrations.js";

/** Row types of the account tables (what Kysely sees; PostgreSQL returns `bigint` columns as strings). */
export interface AccountTables {
  api_keys: {
    id: string;
    name: string;
    plan: string;
    daily_quota: number | string | null;
    key_hash: Uint8Array;
    created_at: string;
    revoked_at: string | null;
    /** The account that owns the key; null for keys made with the CLI (`ranges keys create`). */
    account_id: string | null;
    /** The OAuth grant the key stands for (an MCP client's sign-in); null for other keys. */
    oauth_grant_id: string | null;
  };
  usage: { subject: string; day: string; count: number | string };
  feature_requests: {
    id: string;
    key_id: string;
    kind: string;
    text: string;
    game: string | null;
    stack: number | null;
    spot: string | null;
    status: string;
    created_at: string;
  };
  solve_jobs: {
    id: string;
    key_id: string;
    /** queued, running, done, failed, cancelled */
    status: string;
    /** The validated request (JSON). */
    spec: string;
    game: string;
    stack: number;
    decisions: number;
    estimate_seconds: number;
    max_seconds: number;
    /** Latest progress (JSON: iteration, worstPctPot, elapsedSeconds, etaSeconds). */
    progress: string | null;
    /** The finished solve's summary (JSON: iterations, seconds, per-seat exploitability). */
    summary: string | null;
    error: string | null;
    attempts: number;
    worker: string | null;
    /** 1 once the owner asked to cancel. */
    cancel_requested: number;
    created_at: string;
    started_at: string | null;
    heartbeat_at: string | null;
    finished_at: string | null;
  };
  solve_results: { job_id: string; pack: Uint8Array };
  /** Uploaded hands, one row per key holder, site and hand number (see `hand-store.ts`). */
  hands: {
    key_id: string;
    site: string;
    hand_id: string;
    upload_id: string;
    /** ISO 8601: UTC (`...Z`) when the history names its time zone, else the local time as written. */
    played_at: string;
    game: string;
    format: string;
    stakes: string;
    bb: number;
    currency: string | null;
    table_name: string;
    tournament_id: string | null;
    hero: string | null;
    position: string | null;
    /** The hero's cards in a canonical order (rank high to low, then suit c d h s). */
    hole_cards: string | null;
    hand_class: string | null;
    line: string;
    /** 1 when the hero saw the showdown. */
    showdown: number;
    net: number;
    net_bb: number;
    adjusted_bb: number | null;
    /** The derived summary (JSON). */
    summary: string;
    /** The parsed hand (JSON). */
    hand: string;
    created_at: string;
  };
  /** Single-use upload links (only the SHA-256 of the token is kept). */
  upload_links: {
    token_hash: string;
    key_id: string;
    hero: string | null;
    created_at: string;
    expires_at: string;
    used_at: string | null;
  };
}

/** The web site's accounts and their sign-in sessions (see `accounts.ts`). */
export interface AccountTables {
  accounts: { id: string; email: string; password_hash: string; created_at: string };
  sessions: {
    /** SHA-256 (hex) of the session cookie's value; the value itself is never stored. */
    token_hash: string;
    account_id: string;
    csrf_token: string;
    created_at: string;
    expires_at: string;
  };
  /** What the OAuth authorization server keeps, one row per (model, id); see `oauth-records.ts`. */
  oauth_records: {
    model: string;
    id: string;
    /** The record (JSON). */
    payload: string;
    grant_id: string | null;
    uid: string | null;
    user_code: string | null;
    /** ISO 8601; null for records that do not expire. */
    expires_at: string | null;
    consumed_at: string | null;
  };
}

export interface AccountDatabase {
  readonly db: Kysely<AccountTables>;
  readonly backend: Backend;
  /** The SQLite connection (synchronous pragmas); null on PostgreSQL. */
  readonly sqlite: DatabaseSync | null;
  /** Where the data lives, safe to print: the SQLite path, or the PostgreSQL URL without its password. */
  readonly where: string;
  /** PostgreSQL: the URL itself (for other clients of the same database, e.g. the queue engine). */
  readonly url: string | null;
  /** PostgreSQL: the schema the tables live in (`current_schema()`); null on SQLite. */
  readonly schema: string | null;
  close(): Promise<void>;
}

export interface DatabaseTarget {
  /** A `postgres://` or `postgresql://` URL: use PostgreSQL. */
  readonly databaseUrl?: string | undefined;
  /** The SQLite file (or ":memory:") when there is no URL. */
  readonly sqlitePath?: string | undefined;
  /** PostgreSQL only: the schema to use (created if missing); tests give each store its own. */
  readonly schema?: string | undefined;
}

/** A PostgreSQL URL with its password replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparseable URL)";
  }
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Opens the database and applies pending migrations. Throws with a readable message when it cannot. */
export async function openAccountDatabase(target: DatabaseTarget): Promise<AccountDatabase> {
  const url = target.databaseUrl?.trim();
  if (url) return openPostgres(url, target.schema);
  return openSqlite(target.sqlitePath ?? ":memory:");
}

async function migrate(
  db: Kysely<AccountTables>,
  backend: Backend,
  where: string,
  /** PostgreSQL: the schema the tables live in, so the migrator never mistakes another schema's tables for its own. */
  schema?: string,
): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(backend),
    ...(schema ? { migrationTableSchema: schema } : {}),
    // Migrations run in name order, but two written the same day may land in the other order (2026-11-24:
    // hands was applied on databases before accounts existed, and sorts after it). They touch different
    // tables, so a database that ran a later name first still takes the earlier one.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    throw new Error(
      `The account database ${where} could not be migrated${failed ? ` (migration ${failed})` : ""}: ${(error as Error).message ?? String(error)}`,
    );
  }
}

async function openSqlite(path: string): Promise<AccountDatabase> {
  const sqlite = new DatabaseSync(path);
  try {
    sqlite.exec("PRAGMA busy_timeout = 5000");
    if (path !== ":memory:") sqlite.exec("PRAGMA journal_mode = WAL");
    // WAL + NORMAL: a commit survives a process crash; only a power loss can drop the last few.
    sqlite.exec("PRAGMA synchronous = NORMAL");
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const db = new Kysely<AccountTables>({ dialect: new SqliteDialect({ database: kyselySqlite(sqlite) }) });
  try {
    await migrate(db, "sqlite", path);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, backend: "sqlite", sqlite, where: path, url: null, schema: null, close: () => db.destroy() };
}

async function openPostgres(url: string, schema: string | undefined): Promise<AccountDatabase> {
  const where = redactUrl(url);
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`Bad schema name "${schema}".`);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  const db = new Kysely<AccountTables>({ dialect: new PostgresDialect({ pool }) });
  let current: string;
  try {
    // A schema of its own (tests): made on the pool's own connections, then checked to be the current one.
    if (schema !== undefined) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    current = rows[0]?.schema ?? "";
    if (!current) throw new Error("no schema on the search_path can hold tables (current_schema() is null)");
    if (schema !== undefined && current !== schema)
      throw new Error(`the schema is ${current}, not ${schema}`);
  } catch (error) {
    await db.destroy();
    throw new Error(`Cannot reach the PostgreSQL database ${where}: ${(error as Error).message}`);
  }
  try {
    // A schema of its own was seen to vanish while parallel test processes migrated their own schemas in the
    // same database ("schema ... does not exist"; cause not found yet): it is made again and the migration
    // retried, twice at most. Without `schema` (production) a failure is reported at once.
    for (let attempt = 1; ; attempt++) {
      try {
        await migrate(db, "postgres", where, current);
        break;
      } catch (error) {
        const vanished = schema !== undefined && /schema ".*" does not exist/.test((error as Error).message);
        if (!vanished || attempt === 3) throw error;
        await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
      }
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, backend: "postgres", sqlite: null, where, url, schema: current, close: () => db.destroy() };
}
