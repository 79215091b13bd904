/** The caller's sessions: list_my_sessions (hands split at pauses) and get_session_summary (one in depth). */

import { RangesError } from "@ranges/core";
import {
  DEFAULT_SESSION_GAP_MINUTES,
  handQueryOf,
  handResults,
  type Loaded,
  MAX_SESSION_ID_LENGTH,
  parseSessionId,
  sessionHands,
  timeOf,
} from "@ranges/hand-analysis";
import { z } from "zod";
import { invalidParameter } from "../../errors.js";
import { r2 } from "../../round.js";
import { defineTool, type Outcome } from "../../tool.js";
import {
  cursorField,
  decodeCursor,
  type FilterArgs,
  filterFields,
  filtersOf,
  givenFilters,
  limitField,
  nextPage,
  pageKey,
  sharedFilterFields,
} from "./args.js";
import {
  allRows,
  cappedWarning,
  EQUILIBRIUM_NOTE,
  equilibriumOf,
  loadedOf,
  maxAnalysed,
  needHands,
  PAGE,
} from "./load.js";
import { coverage, EquilibriumTotalsSchema, envelope, MoneySchema, ResultLineSchema } from "./schemas.js";

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
        ...nextPage(offset, limit, sessions.length, "list_my_sessions", args),
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
