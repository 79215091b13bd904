/** Preflop retrieval: get_config, list_spots, get_node, get_range. Inputs mirror the API's GET parameters. */

import { createHash } from "node:crypto";
import { GAMES, type GameId, isKeyless, ploClassIndex, RangesError } from "@ranges/core";
import { readWithUndealtFolds, undealtSeats } from "@ranges/queue";
import type { SpotsRow } from "@ranges/schema";
import { ConfigSchema, ToolEnvelopeSchema } from "@ranges/schema";
import {
  type PackHeader,
  packClassToBucket,
  parseGameParam,
  parseMinFreqParam,
  parseStackParam,
  type RangeStore,
} from "@ranges/store";
import { z } from "zod";
import { COMPACT_FLOOR, compactNode, compactRange, type PloBucketView } from "../compact.js";
import {
  comboField,
  detailField,
  gameField,
  handField,
  minFreqField,
  pathArg,
  pathField,
  resolveHand,
  type ScopeArgs,
  scopeFields,
  stackField,
  type ToolContext,
} from "../context.js";
import { invalidParameter } from "../errors.js";
import { reachWarnings } from "../reach.js";
import {
  CompactNodeSchema,
  CompactRangeSchema,
  CompactSpotsSchema,
  FullNodeSchema,
  FullRangeSchema,
  FullSpotsSchema,
} from "../schemas.js";
import { checkScope, publishedOf, unsupportedEnvelope } from "../scope.js";
import { defineTool, type Outcome } from "../tool.js";

const solutionField = z
  .string()
  .max(20)
  .regex(/^sol_[0-9a-f]{16}$/, { error: "a solution id is sol_ and 16 hex characters" })
  .optional()
  .describe("A finished solve's id, instead of game and stack.");

/** Arguments of a retrieval tool: a library game and stack, or a solution. */
type SourceArgs = Omit<ScopeArgs, "game"> &
  Record<string, unknown> & { game?: string; stack?: unknown; solution?: string };

/** Runs the scope check; returns the game, or the unsupported outcome to answer with. */
export function scoped(
  tool: string,
  args: ScopeArgs & Record<string, unknown>,
  ctx: ToolContext,
): { game: ReturnType<typeof parseGameParam> } | { outcome: Outcome } {
  const verdict = checkScope(args, parseGameParam);
  if (verdict.kind === "ok") return { game: verdict.game };
  return {
    outcome: {
      schema: ToolEnvelopeSchema,
      value: unsupportedEnvelope(tool, args, verdict.gaps, publishedOf(ctx.store), args.objective),
    },
  };
}

const free = (ctx: ToolContext, game: Parameters<typeof isKeyless>[0]) =>
  ctx.authorize(isKeyless(game, "node"));

export const getConfig = defineTool({
  name: "get_config",
  title: "nlmtt8 table config",
  description:
    "Use before reading nlmtt8: one stack's seats, stacks, blinds, ante, sizes, rake; `unverified` names unknowns.",
  input: { game: gameField, stack: stackField, ...scopeFields },
  variants: [ConfigSchema, ToolEnvelopeSchema],
  async run(args, ctx) {
    const s = scoped("get_config", args, ctx);
    if ("outcome" in s) return s.outcome;
    await ctx.authorize(isKeyless(s.game, "config") || isKeyless(s.game, "node"));
    const stack = parseStackParam(s.game, args.stack);
    await ctx.store.prepare(s.game, stack);
    return { schema: ConfigSchema, value: ctx.store.config(s.game, stack) };
  },
});

// ---------------------------------------------------------------------------------------------------------
// list_spots: search and pagination.

export const SPOTS_DEFAULT_LIMIT = 50;
export const SPOTS_MAX_LIMIT = 200;

/**
 * Query filter over spot rows. Whitespace-separated terms, all must match (case-insensitive): `depth:N`,
 * `actor:SEAT`, `action:TOKEN` (offered at the node), or a plain term found in the history, the actor or
 * one of the action tokens.
 */
export function spotMatcher(query: string | undefined): (row: SpotsRow) => boolean {
  const terms = (query ?? "").trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return () => true;
  return (row) =>
    terms.every((term) => {
      const [key, value] = term.includes(":") ? (term.split(":", 2) as [string, string]) : [null, term];
      const actions = row.actions.map((a) => a.toLowerCase());
      if (key === "depth") return String(row.depth) === value;
      if (key === "actor") return row.actor.toLowerCase() === value;
      if (key === "action") return actions.includes(value);
      return (
        row.history.toLowerCase().includes(term) || row.actor.toLowerCase() === term || actions.includes(term)
      );
    });
}

const fingerprint = (game: string, stack: number, query: string): string =>
  createHash("sha256").update(`${game}|${stack}|${query}`).digest("base64url").slice(0, 10);

/** Opaque cursor: the offset of the next page, bound to the game, stack and query it came from. */
export function encodeCursor(offset: number, game: string, stack: number, query: string): string {
  return Buffer.from(`${offset}.${fingerprint(game, stack, query)}`).toString("base64url");
}

export function decodeCursor(cursor: string, game: string, stack: number, query: string): number {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const m = /^(\d{1,9})\.([A-Za-z0-9_-]{10})$/.exec(text);
  if (!m || m[2] !== fingerprint(game, stack, query)) {
    throw invalidParameter(
      "cursor is not a cursor of this listing: pass the nextCursor of the previous page unchanged, with the same game, stack and query (or leave cursor out to start again).",
      { parameter: "cursor" },
    );
  }
  return Number(m[1]);
}

export const listSpots = defineTool({
  name: "list_spots",
  title: "Decision nodes",
  description:
    "Use to find a node's exact history: a stack's decision nodes (history, actor, depth, tokens), paged; query e.g. \"depth:2 actor:BTN\". nl/v2 free.",
  input: {
    game: gameField.optional(),
    stack: stackField.optional(),
    solution: solutionField,
    query: z.string().max(200).optional().describe('Terms that must all match, e.g. "depth:2 actor:SB".'),
    cursor: z.string().max(64).optional().describe("nextCursor of the previous page."),
    limit: z
      .number()
      .int()
      .min(1, { error: `limit must be 1 to ${SPOTS_MAX_LIMIT} rows per page` })
      .max(SPOTS_MAX_LIMIT, { error: `limit must be 1 to ${SPOTS_MAX_LIMIT} rows per page` })
      .optional()
      .describe(`Rows per page; default ${SPOTS_DEFAULT_LIMIT}.`),
    detail: detailField.describe("compact (default) or full."),
    ...scopeFields,
  },
  variants: [CompactSpotsSchema, FullSpotsSchema, ToolEnvelopeSchema],
  async run(args, ctx): Promise<Outcome> {
    const source = await sourceOf("list_spots", args, ctx);
    if ("outcome" in source) return source.outcome;
    const { game, stack, store } = source;
    const limit = args.limit ?? SPOTS_DEFAULT_LIMIT;
    const query = args.query?.trim() ?? "";
    const offset = args.cursor ? decodeCursor(args.cursor, game, stack, query) : 0;
    // A finished solve is the caller's own pack: its spots are listed whatever the game.
    const spots = store.spots(game, stack, { anyGame: source.solution !== undefined });
    const rows = spots.spots.filter(spotMatcher(query));
    const page = rows.slice(offset, offset + limit);
    const paging = {
      query: query || null,
      total: rows.length,
      count: page.length,
      spots: page,
      ...(offset + limit < rows.length
        ? { nextCursor: encodeCursor(offset + limit, game, stack, query) }
        : {}),
    };
    if (args.detail === "full") {
      // The API's Spots object, one page of it: a whole tree is hundreds of KB (914 KB measured on nlmtt8).
      return { schema: FullSpotsSchema, value: { ...spots, ...paging } };
    }
    const value = { schemaVersion: 1, detail: "compact", game, stack, ...paging };
    return { schema: CompactSpotsSchema, value };
  },
});

// ---------------------------------------------------------------------------------------------------------
// get_node and get_range.

const threshold = (minFreq: number | undefined): number => Math.max(minFreq ?? 0, COMPACT_FLOOR);

const bucketViews = new WeakMap<object, PloBucketView>();

/** The buckets of a PLO pack stored per bucket (undefined otherwise), built once per pack header. */
export function ploBucketView(header: PackHeader): PloBucketView | undefined {
  const buckets = header.buckets;
  if (!buckets) return undefined;
  let view = bucketViews.get(buckets);
  if (view) return view;
  const map = packClassToBucket(header)!;
  const sizes = new Uint32Array(buckets.count);
  for (const b of map) sizes[b]!++;
  view = {
    count: buckets.count,
    bucketOf: (name) => {
      const c = ploClassIndex(name);
      return c === undefined ? undefined : map[c];
    },
    names: buckets.names,
    representatives: buckets.representatives,
    sizes,
  };
  bucketViews.set(buckets, view);
  return view;
}

/** The bucket view of the pack a PLO query reads (its header is in memory once the query has run). */
const bucketsOf = (store: RangeStore, game: GameId, stack: number): PloBucketView | undefined =>
  GAMES[game].variant === "omaha" ? ploBucketView(store.packMeta(game, stack).header) : undefined;

/**
 * A full PLO answer without minFreq or hand is the whole 16,432-class range per action (about 1 MB of JSON
 * for a 3-action node): refused with the fix rather than flooding the caller's context.
 */
function requireBound(game: GameId, hasHand: boolean, minFreq: number | undefined): void {
  if (GAMES[game].variant !== "omaha" || hasHand || (minFreq !== undefined && minFreq > 0)) return;
  throw invalidParameter(
    `detail "full" on ${game} needs minFreq (e.g. 0.05) or hand: the whole 16,432-class range is about 1 MB of JSON. Use detail "compact" for a summary.`,
    { parameter: "minFreq", suggested: 0.05 },
  );
}

function requirePath(name: "history" | "spot", raw: string): string {
  const path = pathArg(raw);
  if (path === "") {
    throw new RangesError(
      "missing_parameter",
      `The ${name} argument is required: an action path ${name === "history" ? "ending in the seat to act, e.g. UTG" : "ending in an action, e.g. UTG_Fold"}.`,
      { parameter: name },
    );
  }
  return path;
}

/** What get_node and get_range both need from their arguments, after scope, access and validation. */
interface LineRequest {
  /** The library, or a finished solve's own store. */
  readonly store: RangeStore;
  readonly game: GameId;
  readonly stack: number;
  /** Reads the path: on a solve that left seats out, with their folds in front (errors as written). */
  readonly read: <T>(query: (path: string) => T) => T;
  readonly minFreq: number | undefined;
  readonly hand: ReturnType<typeof resolveHand>;
  /** Store options for detail "full" (hand and minFreq as given). */
  readonly fullOptions: { hand?: string; minFreq?: number };
}

async function lineRequest(
  tool: "get_node" | "get_range",
  pathName: "history" | "spot",
  args: SourceArgs & {
    stack?: unknown;
    minFreq?: unknown;
    hand?: string;
    combo?: string;
    history?: string;
    spot?: string;
  },
  ctx: ToolContext,
): Promise<LineRequest | { outcome: Outcome }> {
  const source = await sourceOf(tool, args, ctx);
  if ("outcome" in source) return source;
  const { game, stack, store } = source;
  const minFreq = parseMinFreqParam(args.minFreq);
  const hand = resolveHand(game, args.hand, args.combo);
  const written = requirePath(pathName, args[pathName] ?? "");
  const read = <T>(query: (path: string) => T): T => readWithUndealtFolds(written, source.undealt, query);
  if (args.detail === "full") requireBound(game, hand !== undefined, minFreq);
  const fullOptions = { ...(hand ? { hand: hand.name } : {}), ...(minFreq !== undefined ? { minFreq } : {}) };
  return { store, game, stack, read, minFreq, hand, fullOptions };
}

/** Where a retrieval tool reads, and for a solve, its id and the seats it was not dealt. */
interface Source {
  readonly store: RangeStore;
  readonly game: GameId;
  readonly stack: number;
  readonly solution?: string;
  /** The seats a solve's `dealtIn` left out, in acting order: they fold first in. */
  readonly undealt?: readonly string[];
}

/**
 * Where a retrieval tool reads: a finished solve (`solution`, the key that queued it, counted) or the
 * library (`game` and `stack`, with the scope check and the free/keyed access of the game).
 */
async function sourceOf(
  tool: string,
  args: SourceArgs,
  ctx: ToolContext,
): Promise<Source | { outcome: Outcome }> {
  if (args.solution !== undefined) {
    if (args.game !== undefined || args.stack !== undefined) {
      throw invalidParameter(
        `Give either solution or game and stack, not both: a solution has its own game and stack.`,
      );
    }
    if (!ctx.solves) throw new RangesError("not_found", "The solve queue is not enabled on this server.");
    const { keyId } = await ctx.keyed(`${tool} of a solve`);
    const job = await ctx.solves.queue.require(keyId, args.solution);
    if (job.status === "cancelled" || job.status === "failed") {
      throw new RangesError(
        "invalid_parameter",
        job.status === "cancelled"
          ? `Solve ${job.id} was cancelled, so it has no strategies to read; enqueue_solve it again to solve it.`
          : `Solve ${job.id} failed (${job.error ?? "no reason recorded"}), so it has no strategies to read; enqueue_solve a smaller tree to try again.`,
        { parameter: "solution" },
      );
    }
    const open = await ctx.solves.solutions.get(keyId, args.solution);
    await open.store.prepare(open.game, open.stack);
    return {
      store: open.store,
      game: open.game,
      stack: open.stack,
      solution: args.solution,
      undealt: undealtSeats(open.game, open.job.request),
    };
  }
  if (args.game === undefined || args.stack === undefined) {
    throw new RangesError(
      "missing_parameter",
      `${tool} needs game and stack (a library pack), or solution (a finished solve from enqueue_solve).`,
      { parameter: args.game === undefined ? "game" : "stack" },
    );
  }
  const s = scoped(tool, args as SourceArgs & ScopeArgs, ctx);
  if ("outcome" in s) return s;
  await free(ctx, s.game);
  const stack = parseStackParam(s.game, args.stack);
  // The queries that follow are synchronous: a pack not in memory is read off the event loop first.
  await ctx.store.prepare(s.game, stack);
  return { store: ctx.store, game: s.game, stack };
}

export const getNode = defineTool({
  name: "get_node",
  title: "Strategy at a decision node",
  description:
    'Use for "what does the solver do here?": each action at `history` (folds written out) with size, range, frequency and EV per class, e.g. {"game": "nl/v2", "stack": 100, "history": "UTG_Fold_HJ"}. nl, nl/v2 free.',
  input: {
    game: gameField.optional(),
    stack: stackField.optional(),
    solution: solutionField,
    history: pathField('Path ending in the seat to act, e.g. "UTG_Fold_HJ", "UTG_Open_UTG1".'),
    hand: handField,
    combo: comboField,
    minFreq: minFreqField,
    detail: detailField,
    ...scopeFields,
  },
  variants: [CompactNodeSchema, FullNodeSchema, ToolEnvelopeSchema],
  async run(args, ctx): Promise<Outcome> {
    const r = await lineRequest("get_node", "history", args, ctx);
    if ("outcome" in r) return r.outcome;
    const { game, stack, minFreq, hand, store } = r;
    if (args.detail === "full") {
      const node = r.read((path) => store.node(game, stack, path, r.fullOptions));
      return { schema: FullNodeSchema, value: { ...node, warnings: reachWarnings(node.reach) } };
    }
    const node = r.read((path) => store.node(game, stack, path, hand ? { hand: hand.name } : {}));
    const value = compactNode(node, {
      threshold: threshold(minFreq),
      hand: hand?.name,
      combo: hand?.combo,
      buckets: bucketsOf(store, game, stack),
    });
    return { schema: CompactNodeSchema, value };
  },
});

export const getRange = defineTool({
  name: "get_range",
  title: "Range of one action",
  description:
    'Use for "which hands take this action?": one action\'s range at `spot`, e.g. {"game": "nl/v2", "stack": 100, "spot": "UTG_60%"}. nl, nl/v2 free.',
  input: {
    game: gameField.optional(),
    stack: stackField.optional(),
    solution: solutionField,
    spot: pathField('A node history plus an action token, e.g. "UTG_60%".'),
    hand: handField,
    combo: comboField,
    minFreq: minFreqField,
    detail: detailField,
    ...scopeFields,
  },
  variants: [CompactRangeSchema, FullRangeSchema, ToolEnvelopeSchema],
  async run(args, ctx): Promise<Outcome> {
    const r = await lineRequest("get_range", "spot", args, ctx);
    if ("outcome" in r) return r.outcome;
    const { game, stack, minFreq, hand, store } = r;
    if (args.detail === "full") {
      const range = r.read((path) => store.range(game, stack, path, r.fullOptions));
      return { schema: FullRangeSchema, value: { ...range, warnings: reachWarnings(range.reach) } };
    }
    const range = r.read((path) => store.range(game, stack, path, hand ? { hand: hand.name } : {}));
    const value = compactRange(range, {
      threshold: threshold(minFreq),
      hand: hand?.name,
      combo: hand?.combo,
      buckets: bucketsOf(store, game, stack),
    });
    return { schema: CompactRangeSchema, value };
  },
});
