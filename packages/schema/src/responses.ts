/**
 * zod 4 schemas for every body the service returns. The API validates its responses against these in tests,
 * the MCP server uses them as tool output schemas, and the OpenAPI document is generated from them.
 */

import { GAME_IDS } from "@ranges/core";
import { z } from "zod";

export const SCHEMA_VERSION = 1 as const;

export const GameIdSchema = z.enum(GAME_IDS).describe("Game value of the `{game}` path segment(s).");

/** Units of every number in a response. Two small blinds are one big blind; EVs stay in sb. */
export const UnitsSchema = z
  .object({
    stack: z.literal("bb"),
    sizeBb: z.literal("bb"),
    sizePctPot: z.literal("percent_of_pot_after_call"),
    evs: z.enum(["sb", "none"]),
    stacks: z.literal("bb").optional(),
    blinds: z.literal("bb").optional(),
    ante: z.literal("bb").optional(),
    openSizes: z.literal("bb").optional(),
  })
  .describe("Units of the numbers in this response.");

const Frequency = z.number().min(0).max(1);
export const WeightsSchema = z
  .record(z.string(), Frequency)
  .describe("Hand class to frequency in [0,1]; an omitted class has weight 0 (unless full=1).");
export const EvsSchema = z
  .record(z.string(), z.number())
  .describe("Hand class to EV in small blinds relative to folding; only classes the data scored.");

const REACH_DEFINITION =
  "the probability that the line is played when every seat follows the published strategies: the product over the seats that acted of the combo-weighted share of the seat's hands (hold'em 6/4/12 combos of 1,326; PLO the class's hands of 270,725) that take all of its actions on the path. Card removal between seats is ignored. 1 at the root; exactly 0 when some seat's range on the path is empty, and then the node's strategy is what the solve left there with every action trembled, not an equilibrium frequency, and a class may play below its best EV (compare the EVs). Computed from the stored frequencies, rounded to 4 significant digits (a tiny reach stays non-zero).";

/** Reach of a decision node, in [0,1]; see `nodeReach` in @ranges/store. */
export const ReachSchema = z.number().min(0).max(1).describe(`Reach of this node: ${REACH_DEFINITION}`);

export const ActionKindSchema = z.enum(["fold", "call", "raise", "allin", "other"]);
export const EvUnitSchema = z.enum(["sb", "bb"]).nullable();
export const EvBaselineSchema = z.literal("fold").nullable();

export const ActionSchema = z.object({
  action: z.string().describe("Action token to append to the history, e.g. Fold, Call, Open, 60%."),
  kind: ActionKindSchema,
  sizeBb: z.number().nullable().describe("Raise-to in bb; null when the action has no size."),
  sizePctPot: z.number().nullable().describe("Raise size in percent of the pot after calling."),
  sizeReason: z.string().optional().describe("Why sizeBb or sizePctPot is null."),
  combos: z.number().min(0).describe("Weighted concrete-combo count of the action (over all 1326 combos)."),
  weights: WeightsSchema,
  evs: EvsSchema,
});

export const NodeSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  units: UnitsSchema,
  game: GameIdSchema,
  stack: z.number(),
  history: z.string(),
  actor: z.string().describe("Seat to act."),
  depth: z
    .number()
    .int()
    .min(1)
    .max(4)
    .describe("Betting depth: 1 RFI, 2 facing a raise, 3 3-bet pot, 4 deeper."),
  evUnit: EvUnitSchema,
  evBaseline: EvBaselineSchema,
  reach: ReachSchema,
  actions: z.array(ActionSchema),
});

export const RangeSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  units: UnitsSchema,
  game: GameIdSchema,
  stack: z.number(),
  spot: z.string(),
  actor: z.string(),
  action: z.string(),
  kind: ActionKindSchema,
  sizeBb: z.number().nullable(),
  sizePctPot: z.number().nullable(),
  sizeReason: z.string().optional(),
  combos: z.number().min(0),
  weights: WeightsSchema,
  evs: EvsSchema,
  evUnit: EvUnitSchema,
  evBaseline: EvBaselineSchema,
  reach: ReachSchema.describe(
    `Reach of the decision node where this action is chosen (the spot without its last action), not of the line after it: ${REACH_DEFINITION}`,
  ),
  hand: z.string().optional(),
  freq: Frequency.optional(),
  ev: z.number().nullable().optional().describe("EV of `hand` in sb; null when the data has no EV for it."),
});

/** Cash-game rake of a tree: a share of every pot that sees a flop, capped, none when the hand ends preflop. */
export const RakeSchema = z
  .object({
    percent: z
      .number()
      .min(0)
      .lt(100)
      .describe("Percent of the pot taken as rake from every pot that sees a flop (all-in or not)."),
    capBb: z.number().min(0).describe("Most rake taken from one pot, in bb."),
    noFlopNoDrop: z
      .literal(true)
      .describe("No flop, no drop: a hand that ends preflop (every other seat folds) pays no rake."),
  })
  .describe(
    "Rake the strategies were solved with: `percent` of the pot from every pot that sees a flop, at most `capBb` bb; none when the hand ends preflop.",
  );

/** One live PLO pack as the PLO description lists it: its tree, rake, abstraction and measured exploitability. */
export const PloPackFactsSchema = z.object({
  stack: z.number().describe("Stack depth in bb."),
  storedPer: z
    .enum(["bucket", "class"])
    .describe(
      "bucket: the pack stores one strategy per bucket of classes and every class of a bucket plays it; class: one strategy per class.",
    ),
  buckets: z.number().int().nullable().describe("Number of buckets; null when stored per class."),
  treeSizes: z
    .array(z.string())
    .nullable()
    .describe("Raise sizes of the tree by betting depth, as the pack lists them; null when not listed."),
  rake: RakeSchema.nullable().describe("Rake the pack was solved with; null when the pack records none."),
  exploitability: z
    .object({
      maxMbbPerHand: z.number().describe("Largest per-seat best-response gain, milli-big-blinds per hand."),
      maxPctPot: z.number().describe("The same in percent of the starting pot."),
    })
    .nullable()
    .describe(
      "Exploitability measured in the solved game (the description's `exploitability` says what that is); null when none was measured.",
    ),
});

/**
 * How the PLO games are built, present on PLO discovery and catalog entries once the game has a live pack:
 * pot-limit trees, the hand abstraction, and what the measured exploitability means.
 */
export const PloGameDocSchema = z
  .object({
    betting: z.literal("pot-limit"),
    sizing: z
      .string()
      .describe("How raises are sized and named: percent of the pot, at most the pot, size-id suffixes."),
    classes: z.number().int().describe("Hand classes served per action: 16,432 four-card classes."),
    abstraction: z.string().describe("How the strategies are stored: per bucket of classes or per class."),
    abstractionDoc: z
      .string()
      .describe("Where the abstraction (features, clustering, the class-to-bucket map) is documented."),
    exploitability: z
      .string()
      .describe("What the exploitability of a PLO pack measures: the solved (bucketed) game, not more."),
    packs: z.array(PloPackFactsSchema).describe("The live packs, by stack."),
  })
  .describe(
    "PLO only, once the game has a live pack: pot-limit tree, abstraction and exploitability of its packs.",
  );

export const DiscoverySchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  units: UnitsSchema,
  game: GameIdSchema,
  stacks: z.array(z.number()).describe("Live stack depths in bb."),
  positions: z.array(z.string()).describe("Seats in acting order."),
  plo: PloGameDocSchema.optional(),
});

export const GameCatalogEntrySchema = z.object({
  game: GameIdSchema,
  title: z.string(),
  variant: z.enum(["holdem", "omaha"]),
  format: z.enum(["cash", "mtt"]),
  stacks: z.array(z.number()),
  positions: z.array(z.string()),
  classCount: z.number().int(),
  tokens: z.enum(["percent", "depth"]),
  evUnit: EvUnitSchema,
  keyless: z.array(z.string()).describe("Operations callable without a key."),
  operations: z.array(z.string()).describe("Operations this game serves."),
  plo: PloGameDocSchema.optional(),
});

export const CatalogSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  units: UnitsSchema,
  games: z.array(GameCatalogEntrySchema),
});

export const OpenSizeSchema = z.object({
  label: z.string().describe("Pack listing label such as 2.2x or all-in; may round the node value."),
  sizeBb: z.number().nullable().describe("Raise-to in bb."),
});

export const UnverifiedSchema = z.object({ field: z.string(), reason: z.string() });

export const ConfigSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  units: UnitsSchema,
  game: GameIdSchema,
  stack: z.number(),
  seats: z.array(z.string()).nullable(),
  stacks: z.array(z.number()).nullable(),
  blinds: z.object({ sb: z.number(), bb: z.number() }).nullable(),
  ante: z.number().nullable(),
  antePostedBy: z.enum(["BB", "SB"]).nullable(),
  stackIncludesAnte: z.boolean().nullable(),
  treeSizes: z.array(z.string()).nullable(),
  openSizes: z.object({ open: OpenSizeSchema, sb: OpenSizeSchema, note: z.string().nullable() }).nullable(),
  rake: RakeSchema.nullable().describe(
    "Rake the strategies were solved with: `percent` of the pot from every pot that sees a flop, at most `capBb` bb, none when the hand ends preflop (no flop, no drop). null means no rake, or unknown when `unverified` lists `rake` (a pack written before the rake was recorded, or an import).",
  ),
  evUnit: EvUnitSchema,
  evBaseline: EvBaselineSchema,
  importedAt: z.string().nullable(),
  availableStacks: z.array(z.number()),
  unverified: z
    .array(UnverifiedSchema)
    .describe(
      "Every field that is null because it is unknown, with the reason. `rake` is listed only when it is unknown; a null rake that is not listed means no rake.",
    ),
});

export const SpotsRowSchema = z.object({
  history: z.string(),
  actor: z.string(),
  depth: z.number().int().min(1).max(4),
  actions: z.array(z.string()).describe("Tokens available at the node."),
});

export const SpotsSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  units: UnitsSchema,
  game: GameIdSchema,
  stack: z.number(),
  count: z.number().int(),
  spots: z.array(SpotsRowSchema),
});

export const ErrorBodySchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  error: z.object({
    status: z.number().int(),
    code: z.string(),
    message: z.string(),
    hint: z.record(z.string(), z.unknown()).optional(),
    validPrefix: z.string().optional(),
    validActions: z.array(z.string()).optional(),
    stacks: z.array(z.number()).optional(),
  }),
});

/** The envelope every MCP analysis tool returns. */
export const ToolEnvelopeSchema = z.object({
  schemaVersion: z.literal("1.0"),
  coverage: z.object({
    status: z.enum(["exact", "aggregated_report", "unsupported"]),
    dataClass: z.string(),
    objective: z.string(),
  }),
  context: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()),
  warnings: z.array(z.string()),
});

/** Kinds of feature request (`POST /api/v1/requests`, MCP `submit_request`). */
export const REQUEST_KIND_VALUES = ["feature", "data", "bug", "other"] as const;

/** The body of `POST /api/v1/requests`. */
export const FeatureRequestBodySchema = z
  .strictObject({
    kind: z
      .enum(REQUEST_KIND_VALUES)
      .describe("feature (a new capability), data (a game, stack or spot we lack), bug, or other."),
    text: z.string().min(1).max(4000).describe("What you would like, in your words (1 to 4000 characters)."),
    game: z.string().min(1).max(32).optional().describe("Optional: the game it concerns, e.g. nl or nlmtt8."),
    stack: z.number().gt(0).max(10_000).optional().describe("Optional: the stack depth in bb."),
    spot: z.string().min(1).max(500).optional().describe("Optional: an action path, e.g. UTG_2.5_HJ."),
  })
  .describe("A feature or data request.");

/** A stored feature request, as the caller sees it. */
export const FeatureRequestSchema = z.object({
  id: z.string().describe("`req_` and 16 hex characters."),
  kind: z.enum(REQUEST_KIND_VALUES),
  text: z.string(),
  game: z.string().nullable(),
  stack: z.number().nullable(),
  spot: z.string().nullable(),
  status: z.literal("open").describe("Requests are read by the team; all are open for now."),
  createdAt: z.string().describe("ISO 8601 UTC time of filing."),
});

/** The answer of `POST /api/v1/requests` (201). */
export const FeatureRequestCreatedSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  request: FeatureRequestSchema,
});

/** The answer of `GET /api/v1/requests`: the caller's own requests, newest first (at most 100). */
export const FeatureRequestListSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  requests: z.array(FeatureRequestSchema),
});

/** What an upload of hand histories did (`POST /api/v1/uploads/{token}`, MCP `upload_hand_history`). */
export const HandUploadReportSchema = z.object({
  uploadId: z.string().describe("`up_` and 16 hex characters; find_hands takes it as uploadId."),
  via: z.enum(["link", "inline"]).describe("An upload link (a file) or upload_hand_history (inline text)."),
  bytes: z.number().int().describe("Size of the text in UTF-8 bytes."),
  hands: z.number().int().describe("Hands read from the text."),
  stored: z.number().int().describe("Hands stored now."),
  duplicates: z.number().int().describe("Hands already stored under this key (same site and hand number)."),
  refused: z.number().int().describe("Hands not stored: the key keeps at most maxHands."),
  withHero: z
    .number()
    .int()
    .describe("Hands whose hero is known (a `Dealt to` line, or the hero named with the upload)."),
  warnings: z
    .array(z.string())
    .describe(
      "What to know: a hero named with the upload found in no hand, bounty tournaments not compared.",
    ),
  errors: z.number().int().describe("Hands that could not be read."),
  errorSamples: z
    .array(
      z.object({
        handId: z.string().nullable(),
        line: z.number().int().describe("1-based line of the problem in the text."),
        message: z.string(),
        text: z.string().describe("The offending line, cut to 80 characters."),
      }),
    )
    .describe("The first unreadable hands (at most 20)."),
  sites: z.record(z.string(), z.number().int()).describe("Hands read per site."),
  from: z.string().nullable().describe("Time of the earliest hand read."),
  to: z.string().nullable().describe("Time of the latest hand read."),
  totalHands: z.number().int().describe("Hands this key keeps now."),
  maxHands: z.number().int().describe("Most hands a key may keep."),
  parseMs: z.number().int().describe("Milliseconds the parse thread took to read the hands."),
  equityMs: z.number().int().describe("Milliseconds it took for the all-in equities."),
});

/** The answer of an upload (201). */
export const HandUploadSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  upload: HandUploadReportSchema,
});

/** A job of the solve queue, as its owner sees it (`/api/v1/solves`, MCP `get_queued_solve`). */
export const SolveJobSchema = z.object({
  id: z.string().describe("`sol_` and 16 hex characters; also the solution's id once done."),
  status: z.enum(["queued", "running", "done", "failed", "cancelled"]),
  request: z.record(z.string(), z.unknown()).describe("The request as queued."),
  game: z.string(),
  stack: z.number(),
  decisions: z.number().int().describe("Decision nodes of the tree."),
  estimateSeconds: z.number().describe("Estimated solve time on one core."),
  maxSeconds: z.number().describe("The plan's time limit for this solve."),
  progress: z
    .object({
      iteration: z.number(),
      worstPctPot: z.number(),
      elapsedSeconds: z.number(),
      etaSeconds: z.number(),
    })
    .nullable()
    .describe(
      "While running: iteration, worst seat's exploitability (% of the pot), seconds elapsed and left.",
    ),
  summary: z
    .object({
      iterations: z.number(),
      seconds: z.number(),
      decisions: z.number(),
      worstPctPot: z.number(),
      seats: z.array(z.object({ seat: z.string(), pctPot: z.number(), mbbPerHand: z.number() })),
    })
    .nullable()
    .describe("When done: iterations, seconds and per-seat exploitability."),
  error: z.string().nullable(),
  attempts: z.number().int(),
  cancelRequested: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});

export const SolveJobAnswerSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  solve: SolveJobSchema,
});
export const SolveJobListSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  solves: z.array(SolveJobSchema),
});

export type FeatureRequestBody = z.infer<typeof FeatureRequestBodySchema>;
export type FeatureRequest = z.infer<typeof FeatureRequestSchema>;

export type Units = z.infer<typeof UnitsSchema>;
export type Action = z.infer<typeof ActionSchema>;
export type ActionKind = z.infer<typeof ActionKindSchema>;
export type Node = z.infer<typeof NodeSchema>;
export type Range = z.infer<typeof RangeSchema>;
export type Discovery = z.infer<typeof DiscoverySchema>;
export type GameCatalogEntry = z.infer<typeof GameCatalogEntrySchema>;
export type PloGameDoc = z.infer<typeof PloGameDocSchema>;
export type PloPackFacts = z.infer<typeof PloPackFactsSchema>;
export type Catalog = z.infer<typeof CatalogSchema>;
export type OpenSize = z.infer<typeof OpenSizeSchema>;
export type Unverified = z.infer<typeof UnverifiedSchema>;
export type Rake = z.infer<typeof RakeSchema>;
export type Config = z.infer<typeof ConfigSchema>;
export type SpotsRow = z.infer<typeof SpotsRowSchema>;
export type Spots = z.infer<typeof SpotsSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
export type ToolEnvelope = z.infer<typeof ToolEnvelopeSchema>;
export type HandUploadReport = z.infer<typeof HandUploadReportSchema>;

/** The units object for a response; `config` adds the config-only fields. */
export function unitsFor(hasEvs: boolean, config = false): Units {
  const base: Units = {
    stack: "bb",
    sizeBb: "bb",
    sizePctPot: "percent_of_pot_after_call",
    evs: hasEvs ? "sb" : "none",
  };
  return config ? { ...base, stacks: "bb", blinds: "bb", ante: "bb", openSizes: "bb", evs: "sb" } : base;
}
