/**
 * Feature and data requests of key holders (`POST /api/v1/requests`, the MCP tools `submit_request` and
 * `list_my_requests`), kept in the `feature_requests` table.
 */

import { randomBytes } from "node:crypto";
import { RangesError } from "@ranges/core";
import type { Kysely } from "kysely";
import type { AccountTables } from "./db/database.js";

type Db = Kysely<AccountTables>;

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

/** Files a feature or data request for a key holder. Throws `invalid_parameter` for bad input. */
export async function insertRequest(
  db: Db,
  keyId: string,
  input: RequestInput,
  now: Date,
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
  await db
    .insertInto("feature_requests")
    .values({
      id: stored.id,
      key_id: keyId,
      kind,
      text,
      game,
      stack,
      spot,
      status: stored.status,
      created_at: stored.createdAt,
    })
    .execute();
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
