/** The caller's results: get_hand_results (net, bb/100, all-in adjusted, decisions) and get_tournament_results. */

import { handQueryOf, handResults, tournamentResults, tournamentTotals } from "@ranges/hand-analysis";
import { z } from "zod";
import { invalidParameter } from "../../errors.js";
import { defineTool, type Outcome } from "../../tool.js";
import {
  cursorField,
  decodeCursor,
  filtersOf,
  givenFilters,
  limitField,
  nextPage,
  pageKey,
  sharedFilterFields,
} from "./args.js";
import {
  allLoaded,
  allRows,
  cappedWarning,
  EQUILIBRIUM_NOTE,
  equilibriumOf,
  MAX_COMPARED,
  needHands,
} from "./load.js";
import { coverage, EquilibriumTotalsSchema, envelope, ResultLineSchema } from "./schemas.js";

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
        ...nextPage(offset, limit, all.length, "get_tournament_results", args),
      },
      result: { tournaments: page, totals: tournamentTotals(all) },
      warnings,
    };
    return { schema: TournamentListSchema, value };
  },
});
