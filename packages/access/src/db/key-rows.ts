/**
 * Inserting API keys with the per-account limit of live keys checked in the same atomic step, so that keys
 * made at once (two browser tabs, two API processes, an OAuth sign-in) cannot pass it:
 * - SQLite: one `INSERT ... SELECT ... WHERE (live keys of the account) < limit` statement; SQLite runs a
 *   statement under its write lock, so the count and the insert cannot interleave with another writer.
 * - PostgreSQL: a transaction that first takes an advisory lock on the account (`pg_advisory_xact_lock`,
 *   released at commit), then counts and inserts; key creations of one account queue on the lock across
 *   processes, other accounts are not held up.
 * Keys without an account (the CLI's) have no limit.
 */

import { type Kysely, sql } from "kysely";
import type { AccountDatabase, AccountTables } from "./database.js";

export type NewKeyRow = AccountTables["api_keys"];

/** Inserts a key; false (nothing inserted) when its account already holds `maxLive` live keys. */
export async function insertKeyWithin(
  database: AccountDatabase,
  row: NewKeyRow,
  maxLive: number,
): Promise<boolean> {
  const account = row.account_id;
  if (account === null) {
    await database.db.insertInto("api_keys").values(row).execute();
    return true;
  }
  if (database.backend === "sqlite") {
    const result = await sql`
      insert into api_keys (id, name, plan, daily_quota, key_hash, created_at, revoked_at, account_id, oauth_grant_id)
      select ${row.id}, ${row.name}, ${row.plan}, ${row.daily_quota}, ${row.key_hash}, ${row.created_at},
             ${row.revoked_at}, ${account}, ${row.oauth_grant_id}
      where (select count(*) from api_keys where account_id = ${account} and revoked_at is null) < ${maxLive}`.execute(
      database.db,
    );
    return Number(result.numAffectedRows ?? 0n) === 1;
  }
  return database.db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`api_keys:${account}`}))`.execute(tx);
    if ((await liveKeys(tx, account)) >= maxLive) return false;
    await tx.insertInto("api_keys").values(row).execute();
    return true;
  });
}

async function liveKeys(db: Kysely<AccountTables>, account: string): Promise<number> {
  const { n } = await db
    .selectFrom("api_keys")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("account_id", "=", account)
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
