/** find_hands: the caller's hands, filtered and paged, each with its preflop decisions against the equilibrium. */

import type { StoredHand } from "@ranges/access";
import {
  type Comparison,
  compareHand,
  type HandSummary,
  handQueryOf,
  NodeCache,
  SITES,
  unitOf,
} from "@ranges/hand-analysis";
import { z } from "zod";
import { r2 } from "../../round.js";
import { defineTool, type Outcome } from "../../tool.js";
import {
  cursorField,
  decodeCursor,
  filterFields,
  filtersOf,
  givenFilters,
  limitField,
  nextPage,
  pageKey,
} from "./args.js";
import { needHands } from "./load.js";
import { coverage, envelope, MoneySchema } from "./schemas.js";

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
        ...nextPage(offset, limit, total, "find_hands", args),
      },
      result: { hands },
      warnings,
    };
    return { schema: FindHandsSchema, value };
  },
});
