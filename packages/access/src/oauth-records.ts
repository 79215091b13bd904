/**
 * The storage of the OAuth authorization server (`oidc-provider`, mounted by apps/api) in the account
 * database, so that sign-ins of MCP clients survive restarts and are shared by every API process on one
 * PostgreSQL database. One table, `oauth_records` (migration 2026-11-24-oauth), one row per (model, id):
 *
 *   Client           dynamically registered clients (RFC 7591)
 *   Grant            what an account allowed a client (scopes, resource)
 *   Session, Interaction, AuthorizationCode, AccessToken, RefreshToken, ...   as oidc-provider names them
 *   ServerSecret     the server's own secrets: cookie signing keys and the token signing key (JWK)
 *
 * `adapterFor(model)` is the adapter interface oidc-provider documents (upsert, find, findByUid,
 * findByUserCode, consume, destroy, revokeByGrantId). Expired rows are never returned and are deleted by
 * `pruneExpired()`.
 *
 * A dynamically registered client that never receives a grant is pruned after `unusedClientDays` (default
 * 30): its record is stored with that expiry, which the first grant of the client clears. Registrations
 * are counted per client address and UTC day in the `usage` table (`countRegistration`, subject
 * `oauth-register:<address>`, IPv6 per /64) by one atomic conditional upsert.
 */

import { sql } from "kysely";
import { utcDay } from "./clock.js";
import type { AccountDatabase } from "./db/database.js";
import { claimUsage } from "./db/usage.js";
import { ipSubject } from "./ip.js";

/** Days a registered client that never received a grant is kept, unless configured. */
export const DEFAULT_UNUSED_CLIENT_DAYS = 30;

export interface OAuthRecordsOptions {
  /** Days a registered client that never received a grant is kept before it is pruned (default 30). */
  unusedClientDays?: number;
}

/** A record as oidc-provider stores it: a JSON object with a few members the adapter indexes. */
export interface OAuthPayload {
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
  [key: string]: unknown;
}

/** The adapter interface of oidc-provider (one instance per model). */
export interface OAuthAdapter {
  upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<OAuthPayload | undefined>;
  findByUid(uid: string): Promise<OAuthPayload | undefined>;
  findByUserCode(userCode: string): Promise<OAuthPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** Models whose records belong to a grant and go when it is revoked (as in oidc-provider's own adapter). */
const GRANTABLE = [
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
  "PreAuthorizedCode",
];

const SECRET_MODEL = "ServerSecret";

export class OAuthRecords {
  private readonly unusedClientSeconds: number;

  constructor(
    private readonly database: AccountDatabase,
    private readonly clock: () => Date = () => new Date(),
    o: OAuthRecordsOptions = {},
  ) {
    const days = o.unusedClientDays ?? DEFAULT_UNUSED_CLIENT_DAYS;
    if (!(days > 0)) throw new RangeError(`unusedClientDays must be positive, got ${o.unusedClientDays}`);
    this.unusedClientSeconds = Math.round(days * 86_400);
  }

  /**
   * Counts one registration of a client address today, unless it made `limit` already: false then (not
   * counted). One conditional upsert: exact with any number of processes.
   */
  async countRegistration(ip: string, limit: number): Promise<boolean> {
    const subject = `oauth-register:${ipSubject(ip)}`;
    return (await claimUsage(this.db, subject, utcDay(this.clock()), limit)) !== undefined;
  }

  private get db() {
    return this.database.db;
  }

  private nowIso(): string {
    return this.clock().toISOString();
  }

  /** The adapter of one model (`adapter` option of oidc-provider: `(model) => records.adapterFor(model)`). */
  adapterFor(model: string): OAuthAdapter {
    const self = this;
    const live = (payload: string, consumedAt: string | null): OAuthPayload => {
      const parsed = JSON.parse(payload) as OAuthPayload;
      if (consumedAt !== null) parsed.consumed = Math.floor(Date.parse(consumedAt) / 1000);
      return parsed;
    };
    const findWhere = async (column: "id" | "uid" | "user_code", value: string) => {
      const row = await self.db
        .selectFrom("oauth_records")
        .select(["payload", "consumed_at", "expires_at"])
        .where("model", "=", model)
        .where(column, "=", value)
        .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", self.nowIso())]))
        .executeTakeFirst();
      return row ? live(row.payload, row.consumed_at) : undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        // A client is kept for unusedClientDays until its first grant (below) makes it permanent.
        const seconds =
          typeof expiresIn === "number" ? expiresIn : model === "Client" ? self.unusedClientSeconds : null;
        const expires =
          seconds === null ? null : new Date(self.clock().getTime() + seconds * 1000).toISOString();
        const values = {
          model,
          id,
          payload: JSON.stringify(payload),
          grant_id: typeof payload.grantId === "string" ? payload.grantId : null,
          uid: typeof payload.uid === "string" ? payload.uid : null,
          user_code: typeof payload.userCode === "string" ? payload.userCode : null,
          expires_at: expires,
          consumed_at: null,
        };
        await self.db
          .insertInto("oauth_records")
          .values(values)
          .onConflict((oc) =>
            oc.columns(["model", "id"]).doUpdateSet({
              payload: values.payload,
              grant_id: values.grant_id,
              uid: values.uid,
              user_code: values.user_code,
              // A client's expiry is set once, when registered, and cleared by its first grant only.
              ...(model === "Client" ? {} : { expires_at: values.expires_at }),
            }),
          )
          .execute();
        if (model === "Grant" && typeof payload.clientId === "string") {
          await self.db
            .updateTable("oauth_records")
            .set({ expires_at: null })
            .where("model", "=", "Client")
            .where("id", "=", payload.clientId)
            .where("expires_at", "is not", null)
            .execute();
        }
      },
      find: (id) => findWhere("id", id),
      findByUid: (uid) => findWhere("uid", uid),
      findByUserCode: (userCode) => findWhere("user_code", userCode),
      async consume(id) {
        await self.db
          .updateTable("oauth_records")
          .set({ consumed_at: self.nowIso() })
          .where("model", "=", model)
          .where("id", "=", id)
          .execute();
      },
      async destroy(id) {
        await self.db.deleteFrom("oauth_records").where("model", "=", model).where("id", "=", id).execute();
      },
      async revokeByGrantId(grantId) {
        await self.db
          .deleteFrom("oauth_records")
          .where("grant_id", "=", grantId)
          .where("model", "in", GRANTABLE)
          .execute();
      },
    };
  }

  /**
   * A secret of the server by name, made by `make` the first time and kept in the database, so every process
   * and every restart uses the same one (the first process to store it wins a race).
   */
  async serverSecret(name: string, make: () => string): Promise<string> {
    const found = await this.db
      .selectFrom("oauth_records")
      .select("payload")
      .where("model", "=", SECRET_MODEL)
      .where("id", "=", name)
      .executeTakeFirst();
    if (found) return (JSON.parse(found.payload) as { value: string }).value;
    await this.db
      .insertInto("oauth_records")
      .values({
        model: SECRET_MODEL,
        id: name,
        payload: JSON.stringify({ value: make() }),
        grant_id: null,
        uid: null,
        user_code: null,
        expires_at: null,
        consumed_at: null,
      })
      .onConflict((oc) => oc.columns(["model", "id"]).doNothing())
      .execute();
    const stored = await this.db
      .selectFrom("oauth_records")
      .select("payload")
      .where("model", "=", SECRET_MODEL)
      .where("id", "=", name)
      .executeTakeFirstOrThrow();
    return (JSON.parse(stored.payload) as { value: string }).value;
  }

  /** Deletes expired records; returns how many. */
  async pruneExpired(): Promise<number> {
    const result = await this.db
      .deleteFrom("oauth_records")
      .where("expires_at", "is not", null)
      .where("expires_at", "<=", this.nowIso())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** How many live records of a model there are (tests, diagnostics). */
  async count(model: string): Promise<number> {
    const row = await this.db
      .selectFrom("oauth_records")
      .select(sql<number>`count(*)`.as("n"))
      .where("model", "=", model)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", this.nowIso())]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
