/**
 * Uploaded hand histories: get_upload_link, upload_hand_history, find_hands, get_hand_results,
 * list_my_sessions, get_session_summary, get_tournament_results, list_my_opponents, get_opponent_notes,
 * get_opponent_limp_range.
 *
 * Every tool needs the caller's key (not counted on its meter) and reads only the hands stored under that
 * key. The analysis is @ranges/hand-analysis's; this file checks arguments, pages, and shapes answers. The
 * analysis tools answer in the envelope `{ schemaVersion "1.0", coverage, context, result, warnings }`.
 */

import { createHash } from "node:crypto";
import type { HandQuery, StoredHand } from "@ranges/access";
import { RangesError } from "@ranges/core";
import {
  byPosition,
  type Comparison,
  compareHand,
  DEFAULT_SESSION_GAP_MINUTES,
  equilibriumProfile,
  equilibriumTotals,
  type HandFilters,
  type HandSummary,
  handQueryOf,
  handResults,
  handsOf,
  heroName,
  INLINE_UPLOAD_MAX_CHARS,
  LINK_UPLOAD_MAX_BYTES,
  type Loaded,
  limpRange,
  MAX_SESSION_ID_LENGTH,
  NodeCache,
  opponentStats,
  PREFLOP_LINES,
  parseSessionId,
  SITES,
  type Site,
  sessionHands,
  shownHands,
  timeOf,
  tournamentResults,
  tournamentTotals,
  unitOf,
} from "@ranges/hand-analysis";
import { HandUploadSchema } from "@ranges/schema";
import { z } from "zod";
import type { HandDeps, ToolContext } from "../context.js";
import { invalidParameter } from "../errors.js";
import { defineTool, type Outcome } from "../tool.js";

// ---------------------------------------------------------------------------------------------------------
// Shared parts.

function needHands(ctx: ToolContext): HandDeps {
  if (!ctx.hands) throw new RangesError("not_found", "Hand-history uploads are not enabled on this server.");
  return ctx.hands;
}

const POSITIONS = ["UTG", "UTG1", "UTG2", "UTG3", "LJ", "HJ", "CO", "BTN", "SB", "BB"] as const;

/** The filters every hand tool takes (all optional; every given one must match). */
const filterFields = {
  from: z
    .string()
    .max(32)
    .optional()
    .describe("First day (2024-05-01) or time (2024-05-01T18:00), inclusive."),
  to: z.string().max(32).optional().describe("Last day (2024-05-31, inclusive) or a time (exclusive)."),
  site: z.enum(SITES).optional().describe("Only hands of this site."),
  game: z.string().max(16).optional().describe("Game key: nlhe, plhe, flhe, plo, plo5, ..."),
  format: z.enum(["cash", "tournament"]).optional().describe("Cash games or tournaments."),
  stakes: z.string().max(40).optional().describe("Blinds ($0.50/$1) or a buy-in ($10+$1, freeroll)."),
  position: z.array(z.enum(POSITIONS)).min(1).max(10).optional().describe("Your positions, any of them."),
  holeCards: z.string().max(20).optional().describe("Your cards in any order, e.g. AhKd."),
  handClass: z.string().max(200).optional().describe("Your classes, comma-separated: AKs, TT+, A2s-A5s, KQ."),
  line: z
    .array(z.enum(PREFLOP_LINES as unknown as [string, ...string[]]))
    .min(1)
    .max(5)
    .optional()
    .describe("Preflop lines, any of them."),
  showdown: z.boolean().optional().describe("Whether you saw the showdown."),
  result: z.enum(["won", "lost", "even"]).optional().describe("The hero's result in the hand."),
  table: z.string().max(100).optional().describe("Only hands at this table (its name as written)."),
  tournamentId: z.string().max(40).optional().describe("Only hands of this tournament."),
  uploadId: z
    .string()
    .max(40)
    .optional()
    .describe("Only hands of this upload (up_..., as the upload answered)."),
};

/**
 * The filters as the other hand tools publish them: the same fields and bounds, described once (in
 * find_hands), so the tool list an agent loads stays small.
 */
const sharedFilterFields = Object.fromEntries(
  Object.entries(filterFields).map(([name, field]) => [name, field.describe("Filter.")]),
) as typeof filterFields;

type FilterArgs = {
  from?: string | undefined;
  to?: string | undefined;
  site?: Site | undefined;
  game?: string | undefined;
  format?: "cash" | "tournament" | undefined;
  stakes?: string | undefined;
  position?: string[] | undefined;
  holeCards?: string | undefined;
  handClass?: string | undefined;
  line?: string[] | undefined;
  showdown?: boolean | undefined;
  result?: "won" | "lost" | "even" | undefined;
  table?: string | undefined;
  tournamentId?: string | undefined;
  uploadId?: string | undefined;
};

function filtersOf(a: FilterArgs): HandFilters {
  return {
    from: a.from,
    to: a.to,
    site: a.site,
    game: a.game,
    format: a.format,
    stakes: a.stakes,
    positions: a.position,
    holeCards: a.holeCards,
    handClass: a.handClass,
    lines: a.line as HandFilters["lines"],
    showdown: a.showdown,
    result: a.result,
    table: a.table,
    tournamentId: a.tournamentId,
    uploadId: a.uploadId,
  };
}

/** The filters as given, for the answer's context (undefined ones left out). */
function givenFilters(a: FilterArgs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(filterFields)) {
    const v = (a as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

const limitField = (max: number, fallback: number) =>
  z
    .number()
    .int()
    .min(1, { error: `limit must be 1 to ${max}` })
    .max(max, { error: `limit must be 1 to ${max}` })
    .optional()
    .describe(`Rows per page; default ${fallback}.`);

const cursorField = z.string().max(64).optional().describe("nextCursor of the previous page.");

const fingerprint = (what: string, args: unknown): string =>
  createHash("sha256")
    .update(`${what}|${JSON.stringify(args)}`)
    .digest("base64url")
    .slice(0, 10);

/** Opaque cursor: the offset of the next page, bound to the tool and its other arguments. */
function encodeCursor(offset: number, what: string, args: unknown): string {
  return Buffer.from(`${offset}.${fingerprint(what, args)}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined, what: string, args: unknown): number {
  if (cursor === undefined) return 0;
  const m = /^(\d{1,9})\.([A-Za-z0-9_-]{10})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m || m[2] !== fingerprint(what, args)) {
    throw invalidParameter(
      "cursor is not a cursor of this listing: pass the nextCursor of the previous page unchanged, with the same other arguments (or leave cursor out to start again).",
      { parameter: "cursor" },
    );
  }
  return Number(m[1]);
}

/** The arguments a cursor is bound to: all but the cursor itself. */
const pageKey = (args: Record<string, unknown>): Record<string, unknown> => {
  const { cursor: _cursor, ...rest } = args;
  return rest;
};

const CoverageSchema = z.object({
  status: z.enum(["exact", "aggregated_report"]),
  dataClass: z.literal("uploaded_hands"),
  objective: z.literal("observed_results"),
});

const coverage = (status: "exact" | "aggregated_report") => ({
  status,
  dataClass: "uploaded_hands" as const,
  objective: "observed_results" as const,
});

const envelope = <R extends z.ZodRawShape, C extends z.ZodRawShape>(context: C, result: R) =>
  z.object({
    schemaVersion: z.literal("1.0"),
    coverage: CoverageSchema,
    context: z.object({ filters: z.record(z.string(), z.unknown()), ...context }),
    result: z.object(result),
    warnings: z.array(z.string()),
  });

const MoneySchema = z.object({
  unit: z.string().describe("USD, EUR, GBP, chips (tournaments) or play money."),
  amount: z.number(),
});

const RateSchema = z.object({
  n: z.number().int().describe("Chances."),
  k: z.number().int().describe("Times taken."),
  freq: z.number().nullable().describe("k / n; null without chances."),
});

const ResultLineSchema = z.object({
  key: z.string(),
  hands: z.number().int(),
  net: z.array(MoneySchema).describe("Net per unit (never added across units)."),
  netBb: z.number(),
  bbPer100: z.number(),
  adjustedBb: z.number().describe("Net with every all-in hand replaced by its expectation at the all-in."),
  adjustedBbPer100: z.number(),
  allInHands: z.number().int(),
  allInLuckBb: z.number().describe("netBb less adjustedBb over the all-in hands: what the run-outs gave."),
  won: z.number().int(),
  showdowns: z.number().int(),
});

const EquilibriumTotalsSchema = z.object({
  comparableHands: z.number().int(),
  notComparableHands: z.number().int(),
  notComparableReasons: z.array(z.object({ reason: z.string(), hands: z.number().int() })),
  decisions: z.number().int(),
  neverPlayed: z.number().int().describe("Decisions whose action the strategy never takes with that class."),
  rarelyPlayed: z.number().int().describe("Decisions whose action the strategy takes under 10% of the time."),
  meanFreq: z.number().nullable(),
  evLossBb: z.number().describe("EV given up against the best action, bb, over decisions with EVs."),
  evLossBbPerDecision: z.number().nullable(),
  costliest: z.array(
    z.object({
      site: z.string(),
      handId: z.string(),
      game: z.string(),
      stack: z.number(),
      history: z.string(),
      handClass: z.string().nullable(),
      action: z.string(),
      freq: z.number().nullable(),
      bestAction: z.string().nullable(),
      evLossBb: z.number(),
    }),
  ),
});

/** The most hands an aggregate compares with the equilibrium in one call (the newest). */
const MAX_COMPARED = 5000;

/**
 * The most hands one analysis call reads: the newest that match its filters. The API runs with a 256 MiB
 * heap (HEAP_MB) shared by every request, and a key may keep 100,000 hands. Measured (node --expose-gc,
 * PokerStars 6- to 9-max hold'em histories): a stored summary is 2.4 to 3.7 KB of JSON text (3.1 KB on
 * average), and a loaded row (its columns and the parsed summary, the text dropped) takes about 6.6 KB of
 * heap: 100,000 rows would be about 650 MiB and crash the server, 20,000 about 130 MiB (half the heap for
 * one call). 10,000 take about 65 MiB, so two or three such calls at once still fit beside the rest of the
 * server. Rows are read in pages of PAGE, each page's text dropped once parsed, so the peak stays close to
 * that. Calls over more hands answer for the newest 10,000 and say so, with how to narrow by filters.
 */
export const MAX_ANALYSED_HANDS = 10_000;
/** Rows per read while loading (one page of text in memory at a time). */
const PAGE = 1_000;

function maxAnalysed(ctx: ToolContext): number {
  return needHands(ctx).maxAnalysedHands ?? MAX_ANALYSED_HANDS;
}

/** The warning of a call that read only the newest `read` of `matching` hands. */
function cappedWarning(read: number, matching: number, what: string): string {
  return `This answer ${what} only the newest ${read} of the ${matching} hands that match (at most ${read} per call, to bound the server's memory): narrow with from and to (a month at a time), site, game, format, stakes or uploadId to cover the others.`;
}

function loadedOf(rows: StoredHand[]): Loaded[] {
  // The summary text is dropped once parsed: only the objects are kept.
  return rows.map((r) => ({ ...r, summary: "", s: JSON.parse(r.summary) as HandSummary }));
}

/**
 * The newest matching hands, at most `max` (MAX_ANALYSED_HANDS unless given), read in pages; `matching`
 * counts all that match, `capped` says some were left out.
 */
async function allRows(
  ctx: ToolContext,
  keyId: string,
  query: HandQuery,
  fields: "columns" | "summary",
  max = maxAnalysed(ctx),
): Promise<{ rows: StoredHand[]; capped: boolean; matching: number }> {
  const { uploads } = needHands(ctx);
  const matching = await uploads.hands.count(keyId, query);
  const want = Math.min(matching, max);
  const rows: StoredHand[] = [];
  while (rows.length < want) {
    const page = await uploads.hands.list(keyId, query, {
      offset: rows.length,
      limit: Math.min(PAGE, want - rows.length),
      fields,
    });
    if (page.length === 0) break;
    for (const r of page) rows.push(r);
  }
  return { rows, capped: matching > rows.length, matching };
}

/** allRows with the summaries parsed page by page (the text of one page at a time). */
async function allLoaded(
  ctx: ToolContext,
  keyId: string,
  query: HandQuery,
  max = maxAnalysed(ctx),
): Promise<{ rows: Loaded[]; capped: boolean; matching: number }> {
  const { uploads } = needHands(ctx);
  const matching = await uploads.hands.count(keyId, query);
  const want = Math.min(matching, max);
  const rows: Loaded[] = [];
  while (rows.length < want) {
    const page = await uploads.hands.list(keyId, query, {
      offset: rows.length,
      limit: Math.min(PAGE, want - rows.length),
      fields: "summary",
    });
    if (page.length === 0) break;
    for (const r of loadedOf(page)) rows.push(r);
  }
  return { rows, capped: matching > rows.length, matching };
}

function equilibriumOf(ctx: ToolContext, rows: Loaded[], warnings: string[], of = rows.length) {
  const cache = new NodeCache(ctx.store);
  const compared = rows.slice(0, MAX_COMPARED);
  if (of > compared.length) {
    warnings.push(`The equilibrium comparison covers the newest ${compared.length} of ${of} hands.`);
  }
  return equilibriumTotals(
    compared.map((r) => ({
      site: r.site,
      handId: r.handId,
      hero: r.s.hero,
      comparison: compareHand(r.s, cache),
    })),
  );
}

const EQUILIBRIUM_NOTE =
  "Against the equilibrium: only hands whose game, table size, forced bets and effective stack match a published pack, and only along lines the pack's tree holds (raise sizes within 25%); EVs in sb as the packs store them, losses in bb.";

// ---------------------------------------------------------------------------------------------------------
// Uploads.

const UploadLinkSchema = z.object({
  schemaVersion: z.literal(1),
  link: z.object({
    url: z.string().describe("POST the file here, once, before expiresAt."),
    method: z.literal("POST"),
    expiresAt: z.string(),
    maxBytes: z.number().int(),
    contentType: z.string().describe("Send the file as the raw body with this Content-Type."),
    hero: z.string().nullable().describe("The screen name named for histories without a `Dealt to` line."),
    example: z.string().describe("A curl command that uploads a file."),
  }),
  next: z.string(),
});

export const getUploadLink = defineTool({
  name: "get_upload_link",
  title: "Upload link",
  description:
    "Use to upload a hand-history file (up to 8 MiB): a single-use URL for one POST of the file, valid 15 minutes. Key; free.",
  input: {
    hero: z
      .string()
      .max(50)
      .optional()
      .describe("Your screen name as the histories write it, for histories that do not say who you are."),
  },
  variants: [UploadLinkSchema],
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, ctx): Promise<Outcome> {
    const hands = needHands(ctx);
    const keyId = await ctx.keyHolder("get_upload_link");
    const hero = heroName(args.hero);
    const base = hands.linkBase === "request" ? (ctx.caller.origin ?? null) : hands.linkBase;
    if (base === null) {
      throw new RangesError(
        "not_found",
        "This MCP server has no upload endpoint (it runs without the API): use upload_hand_history with the text inline, or the MCP endpoint of the API (/api/mcp).",
      );
    }
    const link = await hands.uploads.hands.createLink(keyId, hands.uploads.linkTtlSeconds, hero);
    const url = `${base.replace(/\/+$/, "")}/api/v1/uploads/${link.token}`;
    return {
      schema: UploadLinkSchema,
      value: {
        schemaVersion: 1,
        link: {
          url,
          method: "POST",
          expiresAt: link.expiresAt,
          maxBytes: LINK_UPLOAD_MAX_BYTES,
          contentType: "text/plain",
          hero,
          example: `curl --data-binary @HH.txt -H 'Content-Type: text/plain' '${url}'`,
        },
        next: "After the upload, its answer has an uploadId; find_hands with uploadId lists those hands.",
      },
    };
  },
});

export const uploadHandHistory = defineTool({
  name: "upload_hand_history",
  title: "Upload hands as text",
  description:
    "Use to upload a few hands as text (up to 400,000 characters; files via get_upload_link), stored under your key. Key; free.",
  input: {
    text: z
      .string()
      .min(1)
      .max(INLINE_UPLOAD_MAX_CHARS, {
        error: `text is over ${INLINE_UPLOAD_MAX_CHARS} characters: upload larger files with get_upload_link`,
      })
      .describe("The hand histories as the sites export them."),
    hero: z
      .string()
      .max(50)
      .optional()
      .describe("Your screen name, for histories without a `Dealt to` line."),
  },
  variants: [HandUploadSchema],
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, ctx): Promise<Outcome> {
    const hands = needHands(ctx);
    const keyId = await ctx.keyHolder("upload_hand_history");
    if (args.text.includes("\u0000")) {
      throw invalidParameter("text holds a NUL character: send the text of hand-history files.", {
        parameter: "text",
      });
    }
    const upload = await hands.uploads.ingest(keyId, args.text, heroName(args.hero), "inline");
    return { schema: HandUploadSchema, value: { schemaVersion: 1, upload } };
  },
});

// ---------------------------------------------------------------------------------------------------------
// find_hands.

const DecisionSchema = z.object({
  position: z.string(),
  history: z.string().describe("The node: the action path before the decision."),
  situation: z.string(),
  action: z.string().describe("The tree's action the hand's action maps to."),
  actualToBb: z.number().nullable(),
  treeSizeBb: z.number().nullable(),
  freq: z.number().nullable().describe("Frequency the strategy gives the hero's class for this action."),
  evSb: z.number().nullable(),
  bestAction: z.string().nullable(),
  bestEvSb: z.number().nullable(),
  evLossBb: z.number().nullable(),
  rangeShare: z.object({ fold: z.number(), call: z.number(), raise: z.number() }),
});

const VsEquilibriumSchema = z.object({
  status: z.enum(["compared", "not_comparable"]),
  reason: z.string().optional(),
  game: z.string().optional(),
  stack: z.number().optional(),
  effectiveBb: z.number().optional(),
  heroDecisions: z.number().int().optional(),
  lowestFreq: z.number().nullable().optional().describe("The lowest frequency among the hero's decisions."),
  evLossBb: z.number().nullable().optional(),
  stoppedAt: z.string().nullable().optional().describe("Where the hand left the tree, when it did."),
  decisions: z.array(DecisionSchema).optional().describe("detail full: every decision of the hero."),
});

const HandRowSchema = z.object({
  site: z.string(),
  handId: z.string(),
  playedAt: z.string(),
  game: z.string(),
  format: z.string(),
  stakes: z.string(),
  table: z.string(),
  position: z.string().nullable(),
  cards: z.array(z.string()).nullable(),
  handClass: z.string().nullable(),
  line: z.string(),
  showdown: z.boolean(),
  net: MoneySchema,
  netBb: z.number(),
  adjustedBb: z
    .number()
    .nullable()
    .describe("All-in adjusted net in bb; null when the hand had no all-in to adjust."),
  vsEquilibrium: VsEquilibriumSchema,
  detail: z
    .object({
      players: z.array(
        z.object({
          name: z.string(),
          position: z.string().nullable(),
          stackBb: z.number(),
          cards: z.array(z.string()).nullable(),
          netBb: z.number(),
        }),
      ),
      preflop: z.array(z.string()).describe("Preflop actions in order, e.g. `BTN raise 2.5bb`."),
      boards: z.array(z.array(z.string())),
      allIn: z
        .object({
          street: z.string(),
          players: z.number().int(),
          equity: z.number(),
          adjustedNet: z.number(),
          adjustedBb: z.number(),
          method: z.string(),
          standardError: z.number(),
          runouts: z.number().int(),
        })
        .nullable(),
      allInNote: z.string().nullable(),
      tournament: z
        .object({ id: z.string(), name: z.string().nullable(), level: z.string().nullable() })
        .nullable(),
      rake: z.number(),
    })
    .optional()
    .describe("detail full only."),
});

const FindHandsSchema = envelope(
  {
    total: z.number().int(),
    count: z.number().int(),
    limit: z.number().int(),
    nextCursor: z.string().optional(),
    detail: z.enum(["compact", "full"]),
  },
  { hands: z.array(HandRowSchema) },
);

const r2 = (x: number): number => Math.round(x * 100) / 100;

function vsEquilibrium(
  c: Comparison,
  hero: number | null,
  full: boolean,
): z.infer<typeof VsEquilibriumSchema> {
  if (c.status !== "compared") return { status: "not_comparable", reason: c.reason };
  const mine = c.decisions.filter((d) => d.player === hero);
  const freqs = mine.map((d) => d.freq).filter((f): f is number => f !== null);
  const losses = mine.map((d) => d.evLossBb).filter((x): x is number => x !== null);
  return {
    status: "compared",
    game: c.game,
    stack: c.stack,
    effectiveBb: c.effectiveBb,
    heroDecisions: mine.length,
    lowestFreq: freqs.length > 0 ? Math.min(...freqs) : null,
    evLossBb: losses.length > 0 ? Math.round(losses.reduce((s, x) => s + x, 0) * 1e4) / 1e4 : null,
    stoppedAt: c.stoppedAt,
    ...(full
      ? {
          decisions: mine.map((d) => ({
            position: d.position,
            history: d.history,
            situation: d.situation,
            action: d.action,
            actualToBb: d.actualToBb,
            treeSizeBb: d.treeSizeBb,
            freq: d.freq,
            evSb: d.evSb,
            bestAction: d.bestAction,
            bestEvSb: d.bestEvSb,
            evLossBb: d.evLossBb,
            rangeShare: d.rangeShare,
          })),
        }
      : {}),
  };
}

export const findHands = defineTool({
  name: "find_hands",
  title: "Find your uploaded hands",
  description:
    "Use to list your uploaded hands, newest first, filtered (date, site, game, stakes, position, cards, line, result...), with your preflop decisions against our equilibrium. Paged. Key; free.",
  input: {
    ...filterFields,
    handId: z
      .string()
      .max(40)
      .optional()
      .describe("One hand by its number (with site when two sites share it)."),
    detail: z.enum(["compact", "full"]).optional().describe("compact (default) or full."),
    limit: limitField(100, 20),
    cursor: cursorField,
  },
  variants: [FindHandsSchema],
  async run(args, ctx): Promise<Outcome> {
    const { uploads } = needHands(ctx);
    const keyId = await ctx.keyHolder("find_hands");
    const query = handQueryOf(filtersOf(args), false);
    const limit = args.limit ?? 20;
    const full = args.detail === "full";
    const offset = decodeCursor(args.cursor, "find_hands", pageKey(args));
    let rows: StoredHand[];
    let total: number;
    if (args.handId !== undefined) {
      // One hand by its number: the other filters do not apply.
      const sites = args.site ? [args.site] : SITES;
      const found = await Promise.all(sites.map((site) => uploads.hands.get(keyId, site, args.handId!)));
      rows = found.filter((h): h is StoredHand => h !== null).slice(offset, offset + limit);
      total = found.filter((h) => h !== null).length;
    } else {
      total = await uploads.hands.count(keyId, query);
      rows = await uploads.hands.list(keyId, query, { offset, limit, fields: full ? "hand" : "summary" });
    }
    const cache = new NodeCache(ctx.store);
    const hands = rows.map((r) => {
      const s = JSON.parse(r.summary) as HandSummary;
      const hero = s.hero === null ? null : s.players[s.hero]!;
      const row: z.infer<typeof HandRowSchema> = {
        site: r.site,
        handId: r.handId,
        playedAt: r.playedAt,
        game: r.game,
        format: r.format,
        stakes: r.stakes,
        table: r.tableName,
        position: r.position,
        cards: hero?.cards ?? null,
        handClass: r.handClass,
        line: r.line,
        showdown: r.showdown,
        net: { unit: unitOf(r), amount: r2(r.net) },
        netBb: r2(r.netBb),
        adjustedBb: r.adjustedBb === null ? null : r2(r.adjustedBb),
        vsEquilibrium: vsEquilibrium(compareHand(s, cache), s.hero, full),
      };
      if (full) {
        const hand = JSON.parse(r.hand) as { boards: string[][] };
        row.detail = {
          players: s.players.map((p) => ({
            name: p.name,
            position: p.position,
            stackBb: p.stackBb,
            cards: p.cards,
            netBb: r2(p.net / s.bb),
          })),
          preflop: s.preflop.map((p) => {
            const who = s.players[p.i]!;
            const size = p.toBb !== null ? ` ${r2(p.toBb)}bb` : "";
            return `${who.position ?? who.name} ${p.a}${size}${p.allIn ? " all-in" : ""}`;
          }),
          boards: hand.boards,
          allIn: s.allIn,
          allInNote: s.allInNote,
          tournament: s.tournament
            ? { id: s.tournament.id, name: s.tournament.name, level: s.tournament.level }
            : null,
          rake: s.rake,
        };
      }
      return row;
    });
    const warnings: string[] = [];
    if (total === 0) {
      warnings.push(
        (await uploads.hands.countAll(keyId)) === 0
          ? "You have no uploaded hands yet: use get_upload_link or upload_hand_history."
          : "No hand matches these filters.",
      );
    }
    const value = {
      schemaVersion: "1.0",
      coverage: coverage("exact"),
      context: {
        filters: givenFilters(args),
        total,
        count: hands.length,
        limit,
        detail: full ? "full" : "compact",
        ...(offset + limit < total
          ? { nextCursor: encodeCursor(offset + limit, "find_hands", pageKey(args)) }
          : {}),
      },
      result: { hands },
      warnings,
    };
    return { schema: FindHandsSchema, value };
  },
});

// ---------------------------------------------------------------------------------------------------------
// get_hand_results.

const HandResultsSchema = envelope(
  { hands: z.number().int(), capped: z.boolean() },
  {
    total: ResultLineSchema,
    byFormat: z.array(ResultLineSchema),
    byPosition: z.array(ResultLineSchema),
    byGame: z.array(ResultLineSchema),
    vsEquilibrium: EquilibriumTotalsSchema.nullable(),
  },
);

export const getHandResults = defineTool({
  name: "get_hand_results",
  title: "Your results",
  description:
    "Use for your results (filters as find_hands): net, bb/100, all-in adjusted, by format, position and game, and decisions against our equilibrium. Key; free.",
  input: {
    ...sharedFilterFields,
    equilibrium: z.boolean().optional().describe("Compare with the equilibrium (default true)."),
  },
  variants: [HandResultsSchema],
  async run(args, ctx): Promise<Outcome> {
    needHands(ctx);
    const keyId = await ctx.keyHolder("get_hand_results");
    const query = handQueryOf(filtersOf(args), true);
    const withEq = args.equilibrium !== false;
    // The totals read the columns only; the summaries (larger) only for the hands compared.
    const { rows, capped, matching } = await allRows(ctx, keyId, query, "columns");
    const warnings: string[] = [];
    if (capped) warnings.push(cappedWarning(rows.length, matching, "counts"));
    const compared = withEq ? (await allLoaded(ctx, keyId, query, MAX_COMPARED)).rows : [];
    if (rows.length === 0)
      warnings.push("No hand with a known hero matches: results need hands whose hero is known.");
    const r = handResults(rows);
    const value = {
      schemaVersion: "1.0",
      coverage: coverage("aggregated_report"),
      context: { filters: givenFilters(args), hands: rows.length, capped },
      result: {
        total: r.total,
        byFormat: r.byFormat,
        byPosition: r.byPosition,
        byGame: r.byGame,
        vsEquilibrium: withEq ? equilibriumOf(ctx, compared, warnings, rows.length) : null,
      },
      warnings: withEq ? [...warnings, EQUILIBRIUM_NOTE] : warnings,
    };
    return { schema: HandResultsSchema, value };
  },
});

// ---------------------------------------------------------------------------------------------------------
// Sessions.

const SessionTableSchema = z.object({
  table: z.string(),
  game: z.string(),
  format: z.string(),
  stakes: z.string(),
  hands: z.number().int(),
  net: z.array(MoneySchema),
  netBb: z.number(),
});

const SessionSchema = z.object({
  id: z.string().describe("ses_...: get_session_summary takes it."),
  start: z.string(),
  end: z.string(),
  minutes: z.number().int(),
  hands: z.number().int(),
  tables: z.array(SessionTableSchema),
  net: z.array(MoneySchema),
  netBb: z.number(),
  bbPer100: z.number(),
  adjustedBbPer100: z.number(),
  allInHands: z.number().int(),
});

const gapField = z
  .number()
  .int()
  .min(5, { error: "gapMinutes must be 5 to 720" })
  .max(720, { error: "gapMinutes must be 5 to 720" })
  .optional()
  .describe(
    `A pause longer than this many minutes starts a new session (default ${DEFAULT_SESSION_GAP_MINUTES}).`,
  );

const SessionListSchema = envelope(
  {
    gapMinutes: z.number().int(),
    total: z.number().int(),
    count: z.number().int(),
    limit: z.number().int(),
    nextCursor: z.string().optional(),
  },
  { sessions: z.array(SessionSchema) },
);

const sessionView = (s: ReturnType<typeof sessionHands>[number]["session"]) => {
  const { first: _first, ...rest } = s;
  return rest;
};

export const listMySessions = defineTool({
  name: "list_my_sessions",
  title: "Your sessions",
  description:
    "Use to list your sessions (split at pauses over gapMinutes) with tables, net and bb/100. Filters as find_hands. Key; free.",
  input: { ...sharedFilterFields, gapMinutes: gapField, limit: limitField(100, 20), cursor: cursorField },
  variants: [SessionListSchema],
  async run(args, ctx): Promise<Outcome> {
    needHands(ctx);
    const keyId = await ctx.keyHolder("list_my_sessions");
    const gap = args.gapMinutes ?? DEFAULT_SESSION_GAP_MINUTES;
    const limit = args.limit ?? 20;
    const offset = decodeCursor(args.cursor, "list_my_sessions", pageKey(args));
    const { rows, capped, matching } = await allRows(
      ctx,
      keyId,
      handQueryOf(filtersOf(args), true),
      "columns",
    );
    // The ids carry the filters: get_session_summary groups the same hands again.
    const given = givenFilters(args);
    const sessions = sessionHands(rows, gap, Object.keys(given).length > 0 ? JSON.stringify(given) : null)
      .map((x) => x.session)
      .reverse();
    const page = sessions.slice(offset, offset + limit);
    const warnings = capped ? [cappedWarning(rows.length, matching, "groups")] : [];
    const value = {
      schemaVersion: "1.0",
      coverage: coverage("aggregated_report"),
      context: {
        filters: givenFilters(args),
        gapMinutes: gap,
        total: sessions.length,
        count: page.length,
        limit,
        ...(offset + limit < sessions.length
          ? { nextCursor: encodeCursor(offset + limit, "list_my_sessions", pageKey(args)) }
          : {}),
      },
      result: { sessions: page.map(sessionView) },
      warnings,
    };
    return { schema: SessionListSchema, value };
  },
});

const BigHandSchema = z.object({
  site: z.string(),
  handId: z.string(),
  playedAt: z.string(),
  position: z.string().nullable(),
  handClass: z.string().nullable(),
  line: z.string(),
  netBb: z.number(),
  adjustedBb: z.number().nullable(),
});

const SessionSummarySchema = envelope(
  { sessionId: z.string(), gapMinutes: z.number().int() },
  {
    session: SessionSchema,
    byPosition: z.array(ResultLineSchema),
    biggestWins: z.array(BigHandSchema),
    biggestLosses: z.array(BigHandSchema),
    vsEquilibrium: EquilibriumTotalsSchema,
  },
);

export const getSessionSummary = defineTool({
  name: "get_session_summary",
  title: "One session in depth",
  description:
    "Use after list_my_sessions: one session's tables, results by position, luck, biggest pots, decisions. Key; free.",
  input: {
    sessionId: z
      .string()
      .max(MAX_SESSION_ID_LENGTH)
      .describe("A session id from list_my_sessions (ses_...), unchanged."),
  },
  variants: [SessionSummarySchema],
  async run(args, ctx): Promise<Outcome> {
    needHands(ctx);
    const keyId = await ctx.keyHolder("get_session_summary");
    const { uploads } = needHands(ctx);
    const { gapMinutes, site, handId, filters } = parseSessionId(args.sessionId);
    const parsed = z
      .object(filterFields)
      .strict()
      .safeParse(filters ?? {});
    if (!parsed.success) {
      throw invalidParameter(
        "sessionId is not a session id: use an id list_my_sessions returned (ses_...).",
        {
          parameter: "sessionId",
        },
      );
    }
    const given = parsed.data as FilterArgs;
    const query = handQueryOf(filtersOf(given), true);
    const gone = () =>
      new RangesError(
        "not_found",
        "No session of yours starts with that hand now (hands uploaded since may have joined it to an earlier one): list_my_sessions gives the current ids.",
      );
    // Only the session's own hands are read: from its first hand on, oldest first, in pages, until a pause
    // longer than the gap (at most maxAnalysed of them).
    const first = await uploads.hands.get(keyId, site, handId);
    if (!first) throw gone();
    const firstT = timeOf(first.playedAt);
    const before = await uploads.hands.list(
      keyId,
      { ...query, to: first.playedAt },
      { limit: 1, order: "desc", fields: "columns" },
    );
    if (before.length > 0 && firstT - timeOf(before[0]!.playedAt) <= gapMinutes * 60_000) throw gone();
    const from = query.from !== undefined && query.from > first.playedAt ? query.from : first.playedAt;
    const max = maxAnalysed(ctx);
    const hands: Loaded[] = [];
    let offset = 0;
    let last = firstT;
    let capped = false;
    reading: for (;;) {
      const page = await uploads.hands.list(
        keyId,
        { ...query, from },
        { offset, limit: PAGE, order: "asc", fields: "summary" },
      );
      offset += page.length;
      for (const r of loadedOf(page)) {
        const t = timeOf(r.playedAt);
        if (hands.length === 0) {
          // A hand at the same time that sorts first would begin the session: then this hand does not.
          if (r.site !== site || r.handId !== handId) throw gone();
        } else if (t - last > gapMinutes * 60_000) break reading;
        if (hands.length === max) {
          capped = true;
          break reading;
        }
        hands.push(r);
        last = t;
      }
      if (page.length < PAGE) break;
    }
    if (hands.length === 0) throw gone();
    const found = sessionHands(hands, gapMinutes, filters === undefined ? null : JSON.stringify(filters))[0]!;
    const loaded = found.hands;
    const big = (sorted: Loaded[]) =>
      sorted.slice(0, 3).map((h) => ({
        site: h.site,
        handId: h.handId,
        playedAt: h.playedAt,
        position: h.position,
        handClass: h.handClass,
        line: h.line,
        netBb: r2(h.netBb),
        adjustedBb: h.adjustedBb === null ? null : r2(h.adjustedBb),
      }));
    const warnings: string[] = capped
      ? [
          `This session has more than ${max} hands: the summary covers its first ${max} (at most ${max} per call, to bound the server's memory).`,
        ]
      : [];
    const vs = equilibriumOf(ctx, loaded, warnings);
    const value = {
      schemaVersion: "1.0",
      coverage: coverage("aggregated_report"),
      context: { filters: givenFilters(given), sessionId: args.sessionId, gapMinutes },
      result: {
        session: sessionView(found.session),
        byPosition: handResults(found.hands).byPosition,
        biggestWins: big([...loaded].filter((h) => h.netBb > 0).sort((a, b) => b.netBb - a.netBb)),
        biggestLosses: big([...loaded].filter((h) => h.netBb < 0).sort((a, b) => a.netBb - b.netBb)),
        vsEquilibrium: vs,
      },
      warnings: [...warnings, EQUILIBRIUM_NOTE],
    };
    return { schema: SessionSummarySchema, value };
  },
});

// ---------------------------------------------------------------------------------------------------------
// Tournaments.

const TournamentSchema = z.object({
  site: z.string(),
  id: z.string(),
  name: z.string().nullable(),
  buyIn: z.array(z.number()).nullable().describe("Buy-in parts as written ($10+$1 is [10, 1])."),
  buyInTotal: z.number().nullable(),
  currency: z.string().nullable(),
  freeroll: z.boolean(),
  hands: z.number().int(),
  first: z.string(),
  last: z.string(),
  levels: z.object({ first: z.string().nullable(), last: z.string().nullable() }),
  chipsNet: z.number(),
  finish: z.object({ place: z.number().int(), prize: z.number().nullable() }).nullable(),
  profit: z.number().nullable(),
  roi: z.number().nullable().describe("profit / buy-in; null unless both are known."),
  unknown: z.array(z.string()).describe("What the histories do not show (never filled in)."),
});

const TournamentListSchema = envelope(
  {
    total: z.number().int(),
    count: z.number().int(),
    limit: z.number().int(),
    nextCursor: z.string().optional(),
  },
  {
    tournaments: z.array(TournamentSchema),
    totals: z.object({
      tournaments: z.number().int(),
      finished: z.number().int(),
      byCurrency: z.array(
        z.object({
          currency: z.string(),
          buyIns: z.number(),
          prizes: z.number(),
          profit: z.number(),
          roi: z.number().nullable(),
        }),
      ),
    }),
  },
);

export const getTournamentResults = defineTool({
  name: "get_tournament_results",
  title: "Your tournament results",
  description:
    "Use for your tournaments: buy-in, finish, prize, profit, ROI where known; `unknown` says what is not. Filters as find_hands. Key; free.",
  input: { ...sharedFilterFields, limit: limitField(100, 20), cursor: cursorField },
  variants: [TournamentListSchema],
  async run(args, ctx): Promise<Outcome> {
    needHands(ctx);
    const keyId = await ctx.keyHolder("get_tournament_results");
    if (args.format === "cash")
      throw invalidParameter("get_tournament_results reads tournaments: leave format out.");
    const limit = args.limit ?? 20;
    const offset = decodeCursor(args.cursor, "get_tournament_results", pageKey(args));
    const query = { ...handQueryOf(filtersOf(args), true), formats: ["tournament"] };
    const { rows, capped, matching } = await allLoaded(ctx, keyId, query);
    const all = tournamentResults(rows);
    const page = all.slice(offset, offset + limit);
    const warnings = capped ? [cappedWarning(rows.length, matching, "counts")] : [];
    if (all.length === 0) warnings.push("No tournament hand with a known hero matches.");
    const value = {
      schemaVersion: "1.0",
      coverage: coverage("aggregated_report"),
      context: {
        filters: givenFilters(args),
        total: all.length,
        count: page.length,
        limit,
        ...(offset + limit < all.length
          ? { nextCursor: encodeCursor(offset + limit, "get_tournament_results", pageKey(args)) }
          : {}),
      },
      result: { tournaments: page, totals: tournamentTotals(all) },
      warnings,
    };
    return { schema: TournamentListSchema, value };
  },
});

// ---------------------------------------------------------------------------------------------------------
// Opponents.

const ActionShareSchema = z.object({ fold: z.number(), call: z.number(), raise: z.number() });

const GapSchema = z
  .object({
    situation: z.string(),
    position: z.string().nullable(),
    action: z.string(),
    observed: z.number(),
    equilibrium: z.number(),
    decisions: z.number().int(),
  })
  .nullable();

const OpponentRowSchema = z.object({
  site: z.string(),
  player: z.string(),
  hands: z.number().int(),
  handsWithHero: z.number().int(),
  vpip: RateSchema,
  pfr: RateSchema,
  rfi: RateSchema,
  limp: RateSchema,
  threeBet: RateSchema,
  foldToThreeBet: RateSchema,
  showdowns: z.number().int(),
  netBb: z.number(),
  lastSeen: z.string(),
  vsEquilibrium: z.object({
    decisions: z.number().int(),
    largestGap: GapSchema.describe(
      "Where their choices differ most from the equilibrium's range in the same spots (at least 5 decisions).",
    ),
  }),
});

const OpponentListSchema = envelope(
  {
    total: z.number().int(),
    count: z.number().int(),
    limit: z.number().int(),
    minHands: z.number().int(),
    nextCursor: z.string().optional(),
  },
  { opponents: z.array(OpponentRowSchema) },
);

const OPPONENT_NOTE =
  "Rates: vpip and pfr per hand they acted in; rfi per first-in chance; limp per chance in an unraised pot (not the big blind); threeBet facing one raise; foldToThreeBet after opening and facing a re-raise. vsEquilibrium compares the share of folds, calls and raises they chose with the share the equilibrium's range reaching the same nodes takes, over hands that map onto a published pack.";

export const listMyOpponents = defineTool({
  name: "list_my_opponents",
  title: "Your opponents",
  description:
    "Use to list your opponents, most hands first: VPIP, PFR, 3-bet, fold to 3-bet, departures from our equilibrium. Filters as find_hands. Key; free.",
  input: {
    ...sharedFilterFields,
    minHands: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe("Only players with at least this many hands (default 1)."),
    limit: limitField(50, 20),
    cursor: cursorField,
  },
  variants: [OpponentListSchema],
  async run(args, ctx): Promise<Outcome> {
    needHands(ctx);
    const keyId = await ctx.keyHolder("list_my_opponents");
    const limit = args.limit ?? 20;
    const minHands = args.minHands ?? 1;
    const offset = decodeCursor(args.cursor, "list_my_opponents", pageKey(args));
    const {
      rows: loaded,
      capped,
      matching,
    } = await allLoaded(ctx, keyId, handQueryOf(filtersOf(args), false));
    const all = opponentStats(loaded).filter((o) => o.hands >= minHands);
    const page = all.slice(offset, offset + limit);
    const cache = new NodeCache(ctx.store);
    const opponents = page.map((o) => {
      const p = equilibriumProfile(handsOf(loaded, o.site, o.player), cache);
      return { ...o, vsEquilibrium: { decisions: p.decisions, largestGap: p.largestGap } };
    });
    const warnings = capped ? [cappedWarning(loaded.length, matching, "reads")] : [];
    if (all.length === 0) warnings.push("No opponent in the hands that match.");
    const value = {
      schemaVersion: "1.0",
      coverage: coverage("aggregated_report"),
      context: {
        filters: givenFilters(args),
        total: all.length,
        count: opponents.length,
        limit,
        minHands,
        ...(offset + limit < all.length
          ? { nextCursor: encodeCursor(offset + limit, "list_my_opponents", pageKey(args)) }
          : {}),
      },
      result: { opponents },
      warnings: [...warnings, OPPONENT_NOTE],
    };
    return { schema: OpponentListSchema, value };
  },
});

const playerFields = {
  player: z.string().min(1).max(60).describe("The player's screen name exactly as the histories write it."),
  site: z.enum(SITES).optional().describe("The player's site, when names repeat across sites."),
};

const ShownHandSchema = z.object({
  site: z.string(),
  handId: z.string(),
  playedAt: z.string(),
  position: z.string().nullable(),
  cards: z.array(z.string()),
  handClass: z.string().nullable(),
  line: z.string(),
  preflop: z.array(z.string()),
  netBb: z.number(),
});

async function playerHands(
  ctx: ToolContext,
  keyId: string,
  args: FilterArgs & { player: string; site?: string | undefined },
) {
  const { rows: loaded, capped, matching } = await allLoaded(ctx, keyId, handQueryOf(filtersOf(args), false));
  const hands = handsOf(loaded, args.site ?? null, args.player);
  if (hands.length === 0) {
    throw new RangesError(
      "not_found",
      `No hands with a player "${args.player.slice(0, 40)}" among your uploaded hands${args.site ? ` on ${args.site}` : ""}${capped ? ` (the newest ${loaded.length} of the ${matching} that match were read: narrow with from and to)` : ""} (the hero of a hand is not an opponent). list_my_opponents lists the names.`,
    );
  }
  const sites = new Set(hands.map((h) => h.r.site));
  if (sites.size > 1) {
    throw invalidParameter(`"${args.player.slice(0, 40)}" plays on ${[...sites].join(" and ")}: give site.`, {
      parameter: "site",
    });
  }
  const warnings = capped ? [cappedWarning(loaded.length, matching, "reads")] : [];
  return { hands, site: [...sites][0]!, warnings };
}

const OpponentNotesSchema = envelope(
  { player: z.string(), site: z.string() },
  {
    stats: OpponentRowSchema.omit({ vsEquilibrium: true }),
    byPosition: z.array(
      z.object({
        position: z.string(),
        hands: z.number().int(),
        vpip: RateSchema,
        pfr: RateSchema,
        rfi: RateSchema,
      }),
    ),
    vsEquilibrium: z.object({
      comparableHands: z.number().int(),
      notComparableHands: z.number().int(),
      decisions: z.number().int(),
      situations: z.array(
        z.object({
          situation: z.string(),
          position: z.string().nullable(),
          decisions: z.number().int(),
          observed: ActionShareSchema,
          equilibrium: ActionShareSchema,
        }),
      ),
      largestGap: GapSchema,
    }),
    shownHands: z.array(ShownHandSchema),
  },
);

export const getOpponentNotes = defineTool({
  name: "get_opponent_notes",
  title: "Notes on one opponent",
  description:
    "Use to study one opponent: stats by position, preflop play against our equilibrium, shown hands. Filters as find_hands. Key; free.",
  input: { ...sharedFilterFields, ...playerFields },
  variants: [OpponentNotesSchema],
  async run(args, ctx): Promise<Outcome> {
    needHands(ctx);
    const keyId = await ctx.keyHolder("get_opponent_notes");
    const { hands, site, warnings } = await playerHands(ctx, keyId, args);
    const stats = opponentStats(hands.map((h) => h.r)).find(
      (o) => o.player === args.player && o.site === site,
    )!;
    const cache = new NodeCache(ctx.store);
    const value = {
      schemaVersion: "1.0",
      coverage: coverage("aggregated_report"),
      context: { filters: givenFilters(args), player: args.player, site },
      result: {
        stats,
        byPosition: byPosition(hands),
        vsEquilibrium: equilibriumProfile(hands, cache),
        shownHands: shownHands(hands, 10),
      },
      warnings: [...warnings, OPPONENT_NOTE],
    };
    return { schema: OpponentNotesSchema, value };
  },
});

const LimpRangeSchema = envelope(
  { player: z.string(), site: z.string() },
  {
    byPosition: z.array(
      z.object({
        position: z.string(),
        chances: z.number().int(),
        limps: z.number().int(),
        freq: z.number().nullable(),
        equilibrium: z
          .number()
          .nullable()
          .describe("The equilibrium range's call (limp) share at the same nodes, over comparedChances."),
        comparedChances: z.number().int(),
      }),
    ),
    shownClasses: z.array(
      z.object({ handClass: z.string(), times: z.number().int(), positions: z.array(z.string()) }),
    ),
    shown: z.array(ShownHandSchema),
  },
);

export const getOpponentLimpRange = defineTool({
  name: "get_opponent_limp_range",
  title: "An opponent's limps",
  description:
    "Use to see how one opponent limps per position beside the equilibrium, and hands shown after limping. Filters as find_hands. Key; free.",
  input: { ...sharedFilterFields, ...playerFields },
  variants: [LimpRangeSchema],
  async run(args, ctx): Promise<Outcome> {
    needHands(ctx);
    const keyId = await ctx.keyHolder("get_opponent_limp_range");
    const { hands, site, warnings } = await playerHands(ctx, keyId, args);
    const limps = limpRange(hands, new NodeCache(ctx.store), 10);
    if (limps.byPosition.every((p) => p.limps === 0))
      warnings.push(`${args.player} never limped in these hands.`);
    else if (limps.shownClasses.length === 0) warnings.push("No limping hand of theirs was shown.");
    const value = {
      schemaVersion: "1.0",
      coverage: coverage("aggregated_report"),
      context: { filters: givenFilters(args), player: args.player, site },
      result: limps,
      warnings,
    };
    return { schema: LimpRangeSchema, value };
  },
});

export const HAND_TOOLS = [
  getUploadLink,
  uploadHandHistory,
  findHands,
  getHandResults,
  listMySessions,
  getSessionSummary,
  getTournamentResults,
  listMyOpponents,
  getOpponentNotes,
  getOpponentLimpRange,
] as const;
