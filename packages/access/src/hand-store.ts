/**
 * Uploaded hands and upload links, in the account database (SQLite or PostgreSQL, the same tables through
 * the migration `2026-11-24-hands`).
 *
 * - Hands are stored per key holder: every row carries the key id, every read filters on it, so nobody ever
 *   reads another holder's hands. A hand is one row per (key, site, hand number): uploading it again is a
 *   duplicate, counted and not stored twice (`ON CONFLICT DO NOTHING`, atomic on both back ends).
 * - The per-key maximum is checked and the hands inserted in one transaction that holds the key's lock
 *   (PostgreSQL: a transaction-scoped advisory lock on the key; SQLite: the one connection runs one
 *   transaction at a time), so two uploads at once cannot together go past it.
 * - The columns are what the hand tools filter on (date, site, game, stakes, position, cards, class, line,
 *   showdown, result); `summary` (JSON) holds the rest of what the analysis needs and `hand` the parsed hand.
 *   What the values mean is decided by the analysis library that writes them (`@ranges/hand-analysis`).
 * - Upload links are single-use and expire: only the SHA-256 of the token is kept, and a link is claimed
 *   by one conditional UPDATE (`used_at IS NULL AND expires_at > now`), so two requests racing with one
 *   link cannot both pass.
 */

import { createHash, randomBytes } from "node:crypto";
import { RangesError } from "@ranges/core";
import { sql } from "kysely";
import type { AccountDatabase, AccountTables } from "./db/database.js";

/** Most hands one key holder may keep (uploads beyond it are refused, and say so). */
export const DEFAULT_MAX_HANDS_PER_KEY = 100_000;
/** Default lifetime of an upload link. */
export const DEFAULT_UPLOAD_LINK_SECONDS = 900;
/** Rows per INSERT statement (24 columns: well under SQLite's and PostgreSQL's parameter limits). */
const BATCH = 200;

/** One hand as the analysis library derives it, ready to store. */
export interface HandRow {
  site: string;
  handId: string;
  playedAt: string;
  game: string;
  format: string;
  stakes: string;
  bb: number;
  currency: string | null;
  tableName: string;
  tournamentId: string | null;
  hero: string | null;
  position: string | null;
  holeCards: string | null;
  handClass: string | null;
  line: string;
  showdown: boolean;
  net: number;
  netBb: number;
  adjustedBb: number | null;
  /** JSON text. */
  summary: string;
  /** JSON text. */
  hand: string;
}

/** A stored hand: the row and when and with which upload it came. */
export interface StoredHand extends HandRow {
  uploadId: string;
  createdAt: string;
}

/** What a read returns per row: the filter columns only, plus the summary, plus the parsed hand. */
export type HandFields = "columns" | "summary" | "hand";

/**
 * Filters on the stored columns; every given field must match (lists: any of their values). `from` and `to`
 * compare with `played_at` as text (ISO 8601), `from` inclusive and `to` exclusive.
 */
export interface HandQuery {
  from?: string | undefined;
  to?: string | undefined;
  sites?: readonly string[] | undefined;
  games?: readonly string[] | undefined;
  formats?: readonly string[] | undefined;
  stakes?: readonly string[] | undefined;
  positions?: readonly string[] | undefined;
  holeCards?: readonly string[] | undefined;
  handClasses?: readonly string[] | undefined;
  lines?: readonly string[] | undefined;
  showdown?: boolean | undefined;
  /** won: net > 0, lost: net < 0, even: net = 0 (the hero's). */
  result?: "won" | "lost" | "even" | undefined;
  tables?: readonly string[] | undefined;
  tournamentIds?: readonly string[] | undefined;
  uploadId?: string | undefined;
  /** Only hands with a hero (the player whose results these are). */
  heroOnly?: boolean | undefined;
}

export interface HandListOptions {
  /** Rows to skip and to return (limit at most the per-key maximum). */
  offset?: number;
  limit: number;
  /** Newest first (default) or oldest first; ties by site and hand number. */
  order?: "desc" | "asc";
  fields?: HandFields;
}

export interface InsertResult {
  /** Hands stored now. */
  stored: number;
  /** Hands the key holder already had (same site and hand number). */
  duplicates: number;
  /** Hands not stored because the key holder reached the per-key maximum. */
  refused: number;
  /** Hands the key holder has now. */
  total: number;
}

export interface UploadLink {
  /** The secret part of the URL (`hul_` and 43 base64url characters); shown once. */
  token: string;
  expiresAt: string;
  hero: string | null;
}

export interface HandStoreOptions {
  clock?: () => Date;
  maxHandsPerKey?: number;
}

const TOKEN_SHAPE = /^hul_[A-Za-z0-9_-]{43}$/;
const tokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

type Row = Partial<AccountTables["hands"]>;

const unknownLink = () =>
  new RangesError(
    "not_found",
    "No such upload link: links come from the MCP tool get_upload_link and are used as given, once.",
  );

/** Throws the 404 of a used or expired link; returns for a usable one. */
function refusal(row: { used_at: string | null; expires_at: string }, now: string): void {
  if (row.used_at !== null) {
    throw new RangesError(
      "not_found",
      `This upload link was already used (at ${row.used_at}); a link takes one upload. Ask get_upload_link for a new one.`,
      { reason: "used" },
    );
  }
  if (row.expires_at <= now) {
    throw new RangesError(
      "not_found",
      `This upload link expired at ${row.expires_at}. Ask get_upload_link for a new one.`,
      {
        reason: "expired",
      },
    );
  }
}

function fromRow(r: Row): StoredHand {
  return {
    site: r.site!,
    handId: r.hand_id!,
    playedAt: r.played_at!,
    game: r.game!,
    format: r.format!,
    stakes: r.stakes!,
    bb: Number(r.bb),
    currency: r.currency ?? null,
    tableName: r.table_name!,
    tournamentId: r.tournament_id ?? null,
    hero: r.hero ?? null,
    position: r.position ?? null,
    holeCards: r.hole_cards ?? null,
    handClass: r.hand_class ?? null,
    line: r.line!,
    showdown: Number(r.showdown) === 1,
    net: Number(r.net),
    netBb: Number(r.net_bb),
    adjustedBb: r.adjusted_bb === null || r.adjusted_bb === undefined ? null : Number(r.adjusted_bb),
    summary: r.summary ?? "",
    hand: r.hand ?? "",
    uploadId: r.upload_id!,
    createdAt: r.created_at!,
  };
}

const COLUMNS = [
  "site",
  "hand_id",
  "upload_id",
  "played_at",
  "game",
  "format",
  "stakes",
  "bb",
  "currency",
  "table_name",
  "tournament_id",
  "hero",
  "position",
  "hole_cards",
  "hand_class",
  "line",
  "showdown",
  "net",
  "net_bb",
  "adjusted_bb",
  "created_at",
] as const;

export class HandStore {
  readonly maxHandsPerKey: number;
  private readonly clock: () => Date;

  constructor(
    private readonly account: AccountDatabase,
    o: HandStoreOptions = {},
  ) {
    this.clock = o.clock ?? (() => new Date());
    this.maxHandsPerKey = o.maxHandsPerKey ?? DEFAULT_MAX_HANDS_PER_KEY;
  }

  private get db() {
    return this.account.db;
  }

  /** A new single-use link for a key holder, valid `ttlSeconds`; `hero` names the uploader's screen name. */
  async createLink(keyId: string, ttlSeconds: number, hero: string | null = null): Promise<UploadLink> {
    const now = this.clock();
    const token = `hul_${randomBytes(32).toString("base64url")}`;
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
    await this.db
      .insertInto("upload_links")
      .values({
        token_hash: tokenHash(token),
        key_id: keyId,
        hero,
        created_at: now.toISOString(),
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
    // Links long expired are of no use to anyone: dropped as new ones are made.
    const stale = new Date(now.getTime() - 86_400_000).toISOString();
    await this.db.deleteFrom("upload_links").where("expires_at", "<", stale).execute();
    return { token, expiresAt, hero };
  }

  /**
   * Checks a link without using it up: a 404 that says why when it is unknown, used or expired. (An upload
   * checks first, reads the file, then claims the link: a file refused for its size or type leaves the link
   * usable.)
   */
  async checkLink(token: string): Promise<void> {
    if (!TOKEN_SHAPE.test(token)) throw unknownLink();
    const row = await this.db
      .selectFrom("upload_links")
      .select(["used_at", "expires_at"])
      .where("token_hash", "=", tokenHash(token))
      .executeTakeFirst();
    if (!row) throw unknownLink();
    refusal(row, this.clock().toISOString());
  }

  /**
   * Uses up a link: the key holder it was made for and the hero it names. A link that is unknown, used or
   * expired is a 404 whose message says which. One conditional UPDATE: of two claims at once, one wins.
   */
  async claimLink(token: string): Promise<{ keyId: string; hero: string | null }> {
    if (!TOKEN_SHAPE.test(token)) throw unknownLink();
    const hash = tokenHash(token);
    const now = this.clock().toISOString();
    const claimed = await this.db
      .updateTable("upload_links")
      .set({ used_at: now })
      .where("token_hash", "=", hash)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning(["key_id", "hero"])
      .executeTakeFirst();
    if (claimed) return { keyId: claimed.key_id, hero: claimed.hero };
    const row = await this.db
      .selectFrom("upload_links")
      .select(["used_at", "expires_at"])
      .where("token_hash", "=", hash)
      .executeTakeFirst();
    if (!row) throw unknownLink();
    refusal(row, now);
    throw unknownLink();
  }

  /** Stores hands for a key holder; hands it already has are counted as duplicates, not stored again. */
  async insert(keyId: string, uploadId: string, rows: readonly HandRow[]): Promise<InsertResult> {
    const createdAt = this.clock().toISOString();
    let total = 0;
    let stored = 0;
    let duplicates = 0;
    let refused = 0;
    // One upload may hold the same hand twice: the first counts, the rest are duplicates.
    const seen = new Set<string>();
    const unique: HandRow[] = [];
    for (const r of rows) {
      const k = `${r.site}\u0000${r.handId}`;
      if (seen.has(k)) duplicates++;
      else {
        seen.add(k);
        unique.push(r);
      }
    }
    await this.db.transaction().execute(async (tx) => {
      // The count and the inserts under the key's lock: concurrent uploads of one key take turns.
      if (this.account.backend === "postgres") {
        await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`hands:${keyId}`}, 0))`.execute(tx);
      }
      const counted = await tx
        .selectFrom("hands")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("key_id", "=", keyId)
        .executeTakeFirst();
      total = Number(counted?.n ?? 0);
      let i = 0;
      while (i < unique.length) {
        const room = this.maxHandsPerKey - total;
        if (room <= 0) {
          refused += unique.length - i;
          break;
        }
        const batch = unique.slice(i, i + Math.min(BATCH, room));
        i += batch.length;
        const inserted = await tx
          .insertInto("hands")
          .values(
            batch.map((r) => ({
              key_id: keyId,
              site: r.site,
              hand_id: r.handId,
              upload_id: uploadId,
              played_at: r.playedAt,
              game: r.game,
              format: r.format,
              stakes: r.stakes,
              bb: r.bb,
              currency: r.currency,
              table_name: r.tableName,
              tournament_id: r.tournamentId,
              hero: r.hero,
              position: r.position,
              hole_cards: r.holeCards,
              hand_class: r.handClass,
              line: r.line,
              showdown: r.showdown ? 1 : 0,
              net: r.net,
              net_bb: r.netBb,
              adjusted_bb: r.adjustedBb,
              summary: r.summary,
              hand: r.hand,
              created_at: createdAt,
            })),
          )
          .onConflict((oc) => oc.columns(["key_id", "site", "hand_id"]).doNothing())
          .returning("hand_id")
          .execute();
        stored += inserted.length;
        duplicates += batch.length - inserted.length;
        total += inserted.length;
      }
    });
    return { stored, duplicates, refused, total };
  }

  /** Hands a key holder keeps. */
  async countAll(keyId: string): Promise<number> {
    const row = await this.db
      .selectFrom("hands")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("key_id", "=", keyId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Hands of a key holder that match a query. */
  async count(keyId: string, query: HandQuery = {}): Promise<number> {
    const row = await this.filtered(keyId, query)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** A page of a key holder's hands that match a query, newest first unless `order` says otherwise. */
  async list(keyId: string, query: HandQuery, o: HandListOptions): Promise<StoredHand[]> {
    const order = o.order ?? "desc";
    const fields = o.fields ?? "columns";
    const limit = Math.max(0, Math.min(Math.floor(o.limit), this.maxHandsPerKey));
    if (limit === 0) return [];
    const extra =
      fields === "columns"
        ? []
        : fields === "summary"
          ? (["summary"] as const)
          : (["summary", "hand"] as const);
    const rows = await this.filtered(keyId, query)
      .select([...COLUMNS, ...extra])
      .orderBy("played_at", order)
      .orderBy("site", order)
      .orderBy("hand_id", order)
      .offset(Math.max(0, Math.floor(o.offset ?? 0)))
      .limit(limit)
      .execute();
    return rows.map((r) => fromRow(r as Row));
  }

  /** One hand of a key holder by site and hand number (with its summary and parsed hand); null if absent. */
  async get(keyId: string, site: string, handId: string): Promise<StoredHand | null> {
    const row = await this.db
      .selectFrom("hands")
      .selectAll()
      .where("key_id", "=", keyId)
      .where("site", "=", site)
      .where("hand_id", "=", handId)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  private filtered(keyId: string, q: HandQuery) {
    let s = this.db.selectFrom("hands").where("key_id", "=", keyId);
    const list = (column: keyof AccountTables["hands"], values: readonly string[] | undefined) => {
      if (values !== undefined) s = s.where(column, "in", values.length > 0 ? [...values] : [""]);
    };
    if (q.from !== undefined) s = s.where("played_at", ">=", q.from);
    if (q.to !== undefined) s = s.where("played_at", "<", q.to);
    list("site", q.sites);
    list("game", q.games);
    list("format", q.formats);
    list("stakes", q.stakes);
    list("position", q.positions);
    list("hole_cards", q.holeCards);
    list("hand_class", q.handClasses);
    list("line", q.lines);
    list("table_name", q.tables);
    list("tournament_id", q.tournamentIds);
    if (q.uploadId !== undefined) s = s.where("upload_id", "=", q.uploadId);
    if (q.showdown !== undefined) s = s.where("showdown", "=", q.showdown ? 1 : 0);
    if (q.heroOnly) s = s.where("hero", "is not", null);
    if (q.result === "won") s = s.where("net", ">", 0);
    else if (q.result === "lost") s = s.where("net", "<", 0);
    else if (q.result === "even") s = s.where("net", "=", 0);
    return s;
  }
}
