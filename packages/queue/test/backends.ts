/**
 * The back ends every account test runs against: SQLite (in memory and in a file) and PostgreSQL
 * (`TEST_DATABASE_URL`, default postgres://postgres@127.0.0.1:5432/test), each PostgreSQL store in a schema
 * of its own that is dropped afterwards. When PostgreSQL cannot be reached the PostgreSQL half is skipped
 * and the run says so on stderr; with REQUIRE_POSTGRES=1 (CI) it fails instead.
 */

import { randomBytes } from "node:crypto";
import pg from "pg";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

async function probe(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

const problem = await probe();
if (problem !== null) {
  const line = `PostgreSQL at ${TEST_DATABASE_URL} is not reachable (${problem}): the PostgreSQL half of the account tests is SKIPPED.`;
  if (process.env.REQUIRE_POSTGRES === "1")
    throw new Error(`${line} REQUIRE_POSTGRES=1 makes that an error.`);
  process.stderr.write(`\n*** ${line}\n\n`);
}
export const POSTGRES_AVAILABLE = problem === null;

/** A fresh schema name for one store (or for several that must share data). */
export const freshSchema = (): string => `t_${randomBytes(6).toString("hex")}`;

/** Drops the schemas tests created. */
export async function dropSchemas(schemas: string[]): Promise<void> {
  if (schemas.length === 0 || !POSTGRES_AVAILABLE) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    for (const s of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  } finally {
    await client.end();
  }
}
