/**
 * Output schemas of the tools.
 *
 * A tool can answer with several shapes (its `variants`): `get_node` gives a compact node, the API's full Node
 * object or an `unsupported` envelope, and any tool an error body (`isError: true`). Before returning, the
 * server validates the value strictly against the one variant it built (`runTool` in tool.ts). These schemas
 * are not published in `tools/list` (listing.ts says why); tests check every answer against them.
 */

import {
  ActionKindSchema,
  CatalogSchema,
  EvBaselineSchema,
  EvUnitSchema,
  GameIdSchema,
  NodeSchema,
  PloGameDocSchema,
  RakeSchema,
  RangeSchema,
  ReachSchema,
  SpotsRowSchema,
  SpotsSchema,
} from "@ranges/schema";
import { z } from "zod";
import { RaiseCodesSchema } from "./raise-codes.js";

// ---------------------------------------------------------------------------------------------------------
// Compact retrieval shapes.

const Frequency = z.number().min(0).max(1);

/** Warnings about the result; a node (or range) whose reach is 0 carries one saying so. */
export const ResultWarningsSchema = z
  .array(z.string())
  .describe(
    "Warnings about this result, e.g. that the line is never reached when every seat follows the published strategies (reach 0). Empty when there is nothing to warn about.",
  );

/** The classes with the highest EV for an action, as an ordered list (an object's key order is not a ranking). */
export const TopEvsSchema = z
  .array(
    z.object({
      hand: z.string().describe("Hand class."),
      evSb: z.number().describe("Its EV for the action in sb, relative to folding, rounded to 0.01."),
    }),
  )
  .max(5)
  .describe(
    "Up to 5 classes with the highest EV for this action (among classes above the threshold), highest first.",
  );

export const CompactActionSchema = z.object({
  action: z.string().describe("Token to append to the history (e.g. Fold, Call, Open, 60%)."),
  kind: ActionKindSchema,
  sizeBb: z.number().nullable().describe("Raise-to in bb; null when the action has no size."),
  sizePctPot: z.number().nullable().describe("Raise size in percent of the pot after calling."),
  sizeReason: z.string().optional(),
  share: Frequency.optional().describe(
    "Share of all 1,326 combos (not weighted by reach) that take this action: weighted combos / total.",
  ),
  combos: z.number().min(0).optional().describe("Weighted concrete-combo count of the action."),
  range: z
    .string()
    .optional()
    .describe(
      "Hold'em: classes grouped by frequency, `22+,A2s+,KTo+:1; A5s,76s:0.45` (see rangeFormat). Omitted for PLO and when a hand is requested.",
    ),
  counts: z
    .object({
      classes: z.number().int(),
      pure: z.number().int(),
      mixed: z.number().int(),
      buckets: z
        .object({ pure: z.number().int(), mixed: z.number().int() })
        .optional()
        .describe("A pack stored per bucket: buckets above the threshold at frequency 1, and mixed."),
    })
    .optional()
    .describe("PLO: classes above the threshold, how many at frequency 1, how many mixed."),
  representative: z
    .object({
      pure: z.array(z.string()).max(8),
      mixed: z.array(z.string()).max(8),
    })
    .optional()
    .describe(
      "PLO: up to 8 pure classes and 8 mixed ones (`class:freq`), spread over the action's range from the highest EV to the lowest; one per bucket (its representative class) when the pack stores buckets.",
    ),
  avgEvSb: z
    .number()
    .nullable()
    .optional()
    .describe("Combo- and frequency-weighted mean EV of the classes taking the action, in sb."),
  topEvsSb: TopEvsSchema.optional(),
  freq: Frequency.optional().describe("With `hand`: that class's frequency for the action."),
  evSb: z.number().nullable().optional().describe("With `hand`: that class's EV for the action in sb."),
});

/** With `hand` on a PLO pack stored per bucket: the bucket whose strategy the class plays. */
export const HandBucketSchema = z
  .object({
    name: z.string().describe("The bucket's name in the pack."),
    representative: z.string().describe("The class the pack names as the bucket's representative."),
    classes: z.number().int().describe("Classes in the bucket: each plays this same strategy."),
  })
  .describe(
    "PLO packs stored per bucket: the class's bucket; every class of it has the same frequencies and EVs.",
  );

export const CompactNodeSchema = z.object({
  schemaVersion: z.literal(1),
  detail: z.literal("compact"),
  game: GameIdSchema,
  stack: z.number(),
  history: z.string(),
  actor: z.string().describe("Seat to act."),
  depth: z.number().int().min(1).max(4).describe("1 RFI, 2 facing a raise, 3 3-bet pot, 4 deeper."),
  evUnit: EvUnitSchema,
  evBaseline: EvBaselineSchema,
  reach: ReachSchema,
  hand: z.string().optional().describe("The class the result is restricted to."),
  combo: z.string().optional().describe("The concrete combo asked for, when given."),
  bucket: HandBucketSchema.optional(),
  threshold: z.number().describe("Classes at or below this frequency are left out of `range`."),
  rangeFormat: z.string().optional(),
  actions: z.array(CompactActionSchema),
  next: z.string().describe("How to go on from here."),
  warnings: ResultWarningsSchema,
});

/** The compact range keeps the Range's identifying fields and replaces its per-class maps with a summary. */
export const CompactRangeSchema = RangeSchema.pick({
  schemaVersion: true,
  game: true,
  stack: true,
  spot: true,
  actor: true,
  action: true,
  kind: true,
  sizeBb: true,
  sizePctPot: true,
  sizeReason: true,
  evUnit: true,
  evBaseline: true,
  reach: true,
}).extend({
  detail: z.literal("compact"),
  threshold: z.number(),
  rangeFormat: z.string().optional(),
  share: Frequency.optional(),
  combos: z.number().min(0).optional(),
  range: z.string().optional(),
  counts: CompactActionSchema.shape.counts,
  representative: CompactActionSchema.shape.representative,
  avgEvSb: z.number().nullable().optional(),
  topEvsSb: TopEvsSchema.optional(),
  hand: z.string().optional(),
  combo: z.string().optional(),
  bucket: HandBucketSchema.optional(),
  freq: Frequency.optional(),
  evSb: z.number().nullable().optional(),
  warnings: ResultWarningsSchema,
});

/** get_node with detail "full": the API's Node object, plus the result's warnings. */
export const FullNodeSchema = NodeSchema.extend({ warnings: ResultWarningsSchema });

/** get_range with detail "full": the API's Range object, plus the result's warnings. */
export const FullRangeSchema = RangeSchema.extend({ warnings: ResultWarningsSchema });

export const CompactSpotsSchema = z.object({
  schemaVersion: z.literal(1),
  detail: z.literal("compact"),
  game: GameIdSchema,
  stack: z.number(),
  query: z.string().nullable(),
  total: z.number().int().describe("Rows matching the query (all pages)."),
  count: z.number().int().describe("Rows in this page."),
  spots: z.array(SpotsRowSchema),
  nextCursor: z.string().optional().describe("Pass as `cursor` for the next page; absent on the last page."),
});

/** list_spots with detail "full": one page of the API's Spots object (`count` rows of `total`). */
export const FullSpotsSchema = SpotsSchema.extend({
  query: z.string().nullable(),
  total: z.number().int().describe("Rows matching the query (all pages)."),
  count: z.number().int().describe("Rows in this page."),
  nextCursor: z.string().optional().describe("Pass as `cursor` for the next page; absent on the last page."),
});

// ---------------------------------------------------------------------------------------------------------
// Guidance and dataset documentation.

export const GetStartedSchema = z.object({
  schemaVersion: z.literal(1),
  service: z.string(),
  workflow: z.array(z.object({ step: z.number().int(), tool: z.string(), purpose: z.string() })),
  games: z.array(
    z.object({
      game: GameIdSchema,
      title: z.string(),
      stacks: z.array(z.number()).describe("Live stacks (packs present)."),
      keyless: z.boolean().describe("get_node / get_range / list_spots work without a key."),
    }),
  ),
  pathGrammar: z.array(z.string()),
  units: z.array(z.string()),
  access: z.array(z.string()),
  coverage: z.object({ published: z.array(z.string()), notPublished: z.array(z.string()) }),
  comingTools: z.array(z.string()),
});

export const ListGamesSchema = CatalogSchema.extend({
  toolAccess: z.object({
    keylessGames: z.array(GameIdSchema).describe("Games whose node/range/spots tools need no key."),
    note: z.string(),
  }),
});

export const ExploitabilitySummarySchema = z.object({
  measured: z.boolean(),
  seats: z.number().int(),
  maxMbbPerHand: z.number().nullable(),
  maxPctPot: z.number().nullable(),
  measuredIn: z
    .string()
    .optional()
    .describe(
      "PLO: the game the figures were measured in: the solved (bucketed) game for a pack stored per bucket.",
    ),
});

/** How a PLO pack stores its strategies. */
export const PackAbstractionSchema = z
  .object({
    classes: z.number().int().describe("Hand classes served: 16,432."),
    storedPer: z
      .enum(["bucket", "class"])
      .describe("bucket: one strategy per bucket of classes, shared by its classes; class: one per class."),
    buckets: z.number().int().nullable().describe("Number of buckets; null when stored per class."),
    description: z
      .string()
      .nullable()
      .describe("How the buckets were made, as the pack records it; null when stored per class."),
    doc: z.string().describe("Where the abstraction is documented (repository path)."),
  })
  .describe("PLO packs: how the strategies are stored (per bucket of classes, or per class).");

export const DatasetRowSchema = z.object({
  game: GameIdSchema,
  stack: z.number(),
  status: z.enum(["ok", "unavailable"]),
  source: z.enum(["solver", "import"]).nullable(),
  algorithm: z.string().nullable(),
  iterations: z.number().nullable(),
  solveSeconds: z.number().nullable(),
  createdAt: z.string().nullable(),
  exploitability: ExploitabilitySummarySchema.nullable(),
  nodeCount: z.number().int().nullable(),
  abstraction: PackAbstractionSchema.optional(),
  error: z.string().optional(),
});

export const ListDatasetsSchema = z.object({
  schemaVersion: z.literal(1),
  count: z.number().int(),
  datasets: z.array(DatasetRowSchema),
});

export const SpotExampleSchema = z.object({
  history: z.string(),
  actor: z.string(),
  depth: z.number().int().min(1).max(4),
  actions: z.array(z.string()),
  note: z.string(),
});

/** The pack's rake as `/config` serves it; null is no rake, or unknown (then `rakeNote` starts "Unknown:"). */
const PackRakeSchema = RakeSchema.nullable().describe(
  'Rake the pack was solved with, as get_config serves it: `percent` of every pot that sees a flop, at most `capBb` bb, none when the hand ends preflop. null is no rake, or unknown when `rakeNote` starts with "Unknown:".',
);
const RakeNoteSchema = z
  .string()
  .describe(
    'The rake in words: how much and when it is taken, "No rake: ..." or "Unknown: <why>" (a pack that does not record its rake: null then does not mean no rake).',
  );

export const TreeDocsSchema = z.object({
  schemaVersion: z.literal(1),
  game: GameIdSchema,
  title: z.string(),
  format: z.enum(["cash", "mtt"]),
  seats: z.array(z.string()).describe("Acting order preflop."),
  stacks: z.array(z.number()).describe("Live stacks."),
  stack: z.number().nullable().describe("The stack the examples and sizes come from."),
  tokens: z.object({
    style: z.enum(["percent", "depth"]),
    allowed: z.array(z.string()),
    grammar: z.string(),
  }),
  treeSizes: z.array(z.string()).nullable(),
  rake: PackRakeSchema,
  rakeNote: RakeNoteSchema,
  depths: z.record(z.string(), z.string()),
  pathRules: z.array(z.string()),
  examples: z.array(SpotExampleSchema),
  rangeExample: z.string().nullable(),
  raiseCodes: RaiseCodesSchema.describe(
    "Raise-size codes: how they read, and the library tree's at this stack (enqueue_solve changes take them).",
  ),
  plo: PloGameDocSchema.optional(),
  warnings: z.array(z.string()),
});

const SeatExploitabilitySchema = z.object({
  seat: z.string(),
  mbbPerHand: z.number(),
  pctPot: z.number(),
});

export const RangeMetadataSchema = z.object({
  schemaVersion: z.literal(1),
  game: GameIdSchema,
  stack: z.number(),
  source: z.enum(["solver", "import"]),
  algorithm: z.string().nullable(),
  iterations: z.number().nullable(),
  seed: z.number().nullable(),
  model: z.string().nullable(),
  solveSeconds: z.number().nullable(),
  createdAt: z.string().describe("Solve (or import) timestamp, ISO 8601."),
  importedAt: z.string().nullable(),
  treeConfig: z.string().nullable(),
  notes: z.array(z.string()),
  exploitability: z.array(SeatExploitabilitySchema).nullable(),
  checksum: z.string(),
  nodeCount: z.number().int(),
  fileBytes: z.number().int(),
  classSet: z.enum(["holdem169", "plo16432"]),
  classCount: z.number().int(),
  evUnit: EvUnitSchema,
  evBaseline: EvBaselineSchema,
  treeSizes: z.array(z.string()).nullable(),
  rake: PackRakeSchema,
  rakeNote: RakeNoteSchema,
  abstraction: PackAbstractionSchema.optional(),
  formatVersion: z.number().int(),
});

export const ExploitabilitySchema = z.object({
  schemaVersion: z.literal(1),
  game: GameIdSchema,
  stack: z.number(),
  measured: z.boolean(),
  perSeat: z.array(SeatExploitabilitySchema),
  summary: z
    .object({
      maxMbbPerHand: z.number(),
      meanMbbPerHand: z.number(),
      maxPctPot: z.number(),
      meanPctPot: z.number(),
    })
    .nullable(),
  units: z.object({ mbbPerHand: z.string(), pctPot: z.string() }),
  method: z.string(),
  caveat: z.string(),
  algorithm: z.string().nullable(),
  iterations: z.number().nullable(),
  createdAt: z.string(),
});

export type CompactAction = z.infer<typeof CompactActionSchema>;
export type CompactNode = z.infer<typeof CompactNodeSchema>;
export type CompactRange = z.infer<typeof CompactRangeSchema>;
export type DatasetRow = z.infer<typeof DatasetRowSchema>;
export type PackAbstraction = z.infer<typeof PackAbstractionSchema>;
export type SpotExample = z.infer<typeof SpotExampleSchema>;
