/**
 * Feature and data requests of key holders (`POST /api/v1/requests`, the MCP tools `submit_request` and
 * `list_my_requests`), kept in the `feature_requests` table.
 */

import { randomBytes } from "node:crypto";
import { RangesError } from "@ranges/core";
import { type Kysely, sql } from "kysely";
import type { AccountDatabase, AccountTables } from "./db/database.js";

type Db = Kysely<AccountTables>;

/**
 * Requests one key may file per UTC day, on every surface (HTTP and MCP) and across processes: filing is free
 * (it works with a spent quota), so this bounds it. The count and the insert are one atomic step (SQLite: one
 * `INSERT ... SELECT ... WHERE count < limit` statement; PostgreSQL: a transaction holding an advisory lock
 * on the key), so requests filed at once cannot pass it.
 */
export const REQUESTS_PER_DAY = 20;

const MAX_REQUEST_TEXT = 4000;
export const MAX_REQUESTS_LISTED = 100;

/** Kinds of feature request: new features, missing data (a game, stack or spot), a bug, anything else. */
export const REQUEST_KINDS = ["feature", "data", "bug", "other"] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/**
 * A feature or data request, as `POST /api/v1/requests` and the MCP tool `submit_request` take it.
 * e.g. `{ "kind": "data", "text": "nl 6-max at 60bb please", "game": "nl", "stack": 60 }`
 */
export interface RequestInput {
  kind: RequestKind;
  /** 1 to 4000 characters. */
  text: string;
  game?: string | undefined;
  stack?: number | undefined;
  spot?: string | undefined;
}

export interface StoredRequest {
  /** `req_` and 16 hex characters. */
  id: string;
  kind: RequestKind;
  text: string;
  game: string | null;
  stack: number | null;
  spot: string | null;
  /** Always "open" for now: requests are read by the team. */
  status: "open";
  createdAt: string;
}

/**
 * Files a feature or data request for a key holder. Throws `invalid_parameter` for bad input and
 * `rate_limited` (with `retryAfterSeconds`) once the key has filed `perDay` requests this UTC day.
 */
export async function insertRequest(
  database: AccountDatabase,
  keyId: string,
  input: RequestInput,
  now: Date,
  perDay: number = REQUESTS_PER_DAY,
): Promise<StoredRequest> {
  const kind = input.kind;
  if (!REQUEST_KINDS.includes(kind)) {
    throw new RangesError(
      "invalid_parameter",
      `"kind" must be one of ${REQUEST_KINDS.join(", ")}; got ${JSON.stringify(String(kind)).slice(0, 40)}.`,
    );
  }
  const text = typeof input.text === "string" ? input.text.trim() : "";
  if (text.length === 0 || text.length > MAX_REQUEST_TEXT) {
    throw new RangesError(
      "invalid_parameter",
      `"text" must hold 1 to ${MAX_REQUEST_TEXT} characters (got ${text.length}).`,
    );
  }
  const optional = (name: string, v: string | undefined, max: number): string | null => {
    if (v === undefined || v === null) return null;
    if (typeof v !== "string" || v.length === 0 || v.length > max) {
      throw new RangesError("invalid_parameter", `"${name}" must be a string of 1 to ${max} characters.`);
    }
    return v;
  };
  const game = optional("game", input.game, 32);
  const spot = optional("spot", input.spot, 500);
  const stack = input.stack ?? null;
  if (
    stack !== null &&
    !(typeof stack === "number" && Number.isFinite(stack) && stack > 0 && stack <= 10_000)
  ) {
    throw new RangesError(
      "invalid_parameter",
      `"stack" must be a number of big blinds above 0 (at most 10000).`,
    );
  }
  const stored: StoredRequest = {
    id: `req_${randomBytes(8).toString("hex")}`,
    kind,
    text,
    game,
    stack,
    spot,
    status: "open",
    createdAt: now.toISOString(),
  };
  const row = {
    id: stored.id,
    key_id: keyId,
    kind,
    text,
    game,
    stack,
    spot,
    status: stored.status,
    created_at: stored.createdAt,
  };
  const midnight = `${stored.createdAt.slice(0, 10)}T00:00:00.000Z`;
  let filed: boolean;
  if (database.backend === "sqlite") {
    const result = await sql`
      insert into feature_requests (id, key_id, kind, text, game, stack, spot, status, created_at)
      select ${row.id}, ${row.key_id}, ${row.kind}, ${row.text}, ${row.game}, ${row.stack}, ${row.spot},
             ${row.status}, ${row.created_at}
      where (select count(*) from feature_requests where key_id = ${keyId} and created_at >= ${midnight}) < ${perDay}`.execute(
      database.db,
    );
    filed = Number(result.numAffectedRows ?? 0n) === 1;
  } else {
    filed = await database.db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`feature_requests:${keyId}`}))`.execute(tx);
      const { n } = await tx
        .selectFrom("feature_requests")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("key_id", "=", keyId)
        .where("created_at", ">=", midnight)
        .executeTakeFirstOrThrow();
      if (Number(n) >= perDay) return false;
      await tx.insertInto("feature_requests").values(row).execute();
      return true;
    });
  }
  if (!filed) {
    const reset = Math.max(1, Math.ceil((Date.parse(midnight) + 86_400_000 - now.getTime()) / 1000));
    throw new RangesError(
      "rate_limited",
      `This key has filed ${perDay} requests today, the most one key may file per day; it resets at 00:00 UTC (in ${reset} s). Put more in one request's text (up to 4,000 characters).`,
      { limit: perDay, retryAfterSeconds: reset },
    );
  }
  return stored;
}

/** A key holder's own requests, newest first (at most 100). */
export async function readRequests(
  db: Db,
  keyId: string,
  limit = MAX_REQUESTS_LISTED,
): Promise<StoredRequest[]> {
  const rows = await db
    .selectFrom("feature_requests")
    .selectAll()
    .where("key_id", "=", keyId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(Math.max(1, Math.min(MAX_REQUESTS_LISTED, Math.floor(limit))))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as RequestKind,
    text: r.text,
    game: r.game,
    stack: r.stack === null ? null : Number(r.stack),
    spot: r.spot,
    status: "open",
    createdAt: r.created_at,
  }));
}
