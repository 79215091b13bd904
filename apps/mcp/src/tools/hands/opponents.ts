/** The caller's opponents: list_my_opponents, get_opponent_notes and get_opponent_limp_range. */

import { RangesError } from "@ranges/core";
import {
  byPosition,
  equilibriumProfile,
  handQueryOf,
  handsOf,
  limpRange,
  NodeCache,
  opponentStats,
  SITES,
  shownHands,
} from "@ranges/hand-analysis";
import { z } from "zod";
import type { ToolContext } from "../../context.js";
import { invalidParameter } from "../../errors.js";
import { defineTool, type Outcome } from "../../tool.js";
import {
  cursorField,
  decodeCursor,
  type FilterArgs,
  filtersOf,
  givenFilters,
  limitField,
  nextPage,
  pageKey,
  sharedFilterFields,
} from "./args.js";
import { allLoaded, cappedWarning, needHands } from "./load.js";
import { coverage, envelope, RateSchema } from "./schemas.js";

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
        ...nextPage(offset, limit, all.length, "list_my_opponents", args),
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
