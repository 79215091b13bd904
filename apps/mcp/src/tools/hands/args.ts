/**
 * The arguments the hand tools share: the hand filters (in full for find_hands, briefly described for the
 * others), and the page size and opaque cursor of the paged listings.
 */

import { createHash } from "node:crypto";
import { type HandFilters, PREFLOP_LINES, SITES, type Site } from "@ranges/hand-analysis";
import { z } from "zod";
import { invalidParameter } from "../../errors.js";

const POSITIONS = ["UTG", "UTG1", "UTG2", "UTG3", "LJ", "HJ", "CO", "BTN", "SB", "BB"] as const;

/** The filters every hand tool takes (all optional; every given one must match). */
export const filterFields = {
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
export const sharedFilterFields = Object.fromEntries(
  Object.entries(filterFields).map(([name, field]) => [name, field.describe("Filter.")]),
) as typeof filterFields;

export type FilterArgs = {
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

export function filtersOf(a: FilterArgs): HandFilters {
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
export function givenFilters(a: FilterArgs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(filterFields)) {
    const v = (a as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

export const limitField = (max: number, fallback: number) =>
  z
    .number()
    .int()
    .min(1, { error: `limit must be 1 to ${max}` })
    .max(max, { error: `limit must be 1 to ${max}` })
    .optional()
    .describe(`Rows per page; default ${fallback}.`);

export const cursorField = z.string().max(64).optional().describe("nextCursor of the previous page.");

const fingerprint = (what: string, args: unknown): string =>
  createHash("sha256")
    .update(`${what}|${JSON.stringify(args)}`)
    .digest("base64url")
    .slice(0, 10);

/** Opaque cursor: the offset of the next page, bound to the tool and its other arguments. */
export function encodeCursor(offset: number, what: string, args: unknown): string {
  return Buffer.from(`${offset}.${fingerprint(what, args)}`).toString("base64url");
}

export function decodeCursor(cursor: string | undefined, what: string, args: unknown): number {
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

/** `{ nextCursor }` for the page after `offset + limit` when `total` rows go past it, else nothing. */
export const nextPage = (
  offset: number,
  limit: number,
  total: number,
  what: string,
  args: Record<string, unknown>,
): { nextCursor?: string } =>
  offset + limit < total ? { nextCursor: encodeCursor(offset + limit, what, pageKey(args)) } : {};

/** The arguments a cursor is bound to: all but the cursor itself. */
export const pageKey = (args: Record<string, unknown>): Record<string, unknown> => {
  const { cursor: _cursor, ...rest } = args;
  return rest;
};
