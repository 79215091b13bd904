/** Daily counters in the `usage` table (meters, allowances, sign-up and sign-in limits, registrations). */

import { type Kysely, sql } from "kysely";
import type { AccountTables } from "./database.js";

/**
 * Counts one on a subject's day unless its count has reached `limit`: the new count, or undefined when the
 * limit was reached (nothing counted). One conditional upsert, so it is exact with any number of processes.
 */
export async function claimUsage(
  db: Kysely<AccountTables>,
  subject: string,
  day: string,
  limit: number,
): Promise<number | undefined> {
  const row = await db
    .insertInto("usage")
    .values({ subject, day, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(["subject", "day"])
        .doUpdateSet({ count: sql`usage.count + 1` })
        .where("usage.count", "<", limit),
    )
    .returning("count")
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.count);
}

/** Adds a batch of counts in one transaction (`count = count + n` upserts). */
export async function addUsage(
  db: Kysely<AccountTables>,
  batch: readonly { meter: { subject: string; day: string }; amount: number }[],
): Promise<void> {
  await db.transaction().execute(async (tx) => {
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
}
