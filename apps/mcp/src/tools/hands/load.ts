/**
 * Reading a caller's stored hands for the hand tools: the hand services (or not_found when uploads are off),
 * the bounded, paged loads of the newest matching hands, and their comparison with the equilibrium.
 */

import type { HandQuery, StoredHand } from "@ranges/access";
import { RangesError } from "@ranges/core";
import {
  compareHand,
  equilibriumTotals,
  type HandSummary,
  type Loaded,
  NodeCache,
} from "@ranges/hand-analysis";
import type { HandDeps, ToolContext } from "../../context.js";

export function needHands(ctx: ToolContext): HandDeps {
  if (!ctx.hands) throw new RangesError("not_found", "Hand-history uploads are not enabled on this server.");
  return ctx.hands;
}

/** The most hands an aggregate compares with the equilibrium in one call (the newest). */
export const MAX_COMPARED = 5000;

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
export const PAGE = 1_000;

export function maxAnalysed(ctx: ToolContext): number {
  return needHands(ctx).maxAnalysedHands ?? MAX_ANALYSED_HANDS;
}

/** The warning of a call that read only the newest `read` of `matching` hands. */
export function cappedWarning(read: number, matching: number, what: string): string {
  return `This answer ${what} only the newest ${read} of the ${matching} hands that match (at most ${read} per call, to bound the server's memory): narrow with from and to (a month at a time), site, game, format, stakes or uploadId to cover the others.`;
}

export function loadedOf(rows: StoredHand[]): Loaded[] {
  // The summary text is dropped once parsed: only the objects are kept.
  return rows.map((r) => ({ ...r, summary: "", s: JSON.parse(r.summary) as HandSummary }));
}

/**
 * The newest matching hands, at most `max`, read `PAGE` at a time with `fields` and each page turned into
 * rows by `rowsOf`; `matching` counts all that match, `capped` says some were left out.
 */
async function readPages<T>(
  ctx: ToolContext,
  keyId: string,
  query: HandQuery,
  fields: "columns" | "summary",
  max: number,
  rowsOf: (page: StoredHand[]) => Iterable<T>,
): Promise<{ rows: T[]; capped: boolean; matching: number }> {
  const { uploads } = needHands(ctx);
  const matching = await uploads.hands.count(keyId, query);
  const want = Math.min(matching, max);
  const rows: T[] = [];
  while (rows.length < want) {
    const page = await uploads.hands.list(keyId, query, {
      offset: rows.length,
      limit: Math.min(PAGE, want - rows.length),
      fields,
    });
    if (page.length === 0) break;
    for (const r of rowsOf(page)) rows.push(r);
  }
  return { rows, capped: matching > rows.length, matching };
}

/**
 * The newest matching hands, at most `max` (MAX_ANALYSED_HANDS unless given), read in pages; `matching`
 * counts all that match, `capped` says some were left out.
 */
export const allRows = (
  ctx: ToolContext,
  keyId: string,
  query: HandQuery,
  fields: "columns" | "summary",
  max = maxAnalysed(ctx),
) => readPages(ctx, keyId, query, fields, max, (page) => page);

/** allRows with the summaries parsed page by page (the text of one page at a time). */
export const allLoaded = (ctx: ToolContext, keyId: string, query: HandQuery, max = maxAnalysed(ctx)) =>
  readPages(ctx, keyId, query, "summary", max, loadedOf);

export function equilibriumOf(ctx: ToolContext, rows: Loaded[], warnings: string[], of = rows.length) {
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

export const EQUILIBRIUM_NOTE =
  "Against the equilibrium: only hands whose game, table size, forced bets and effective stack match a published pack, and only along lines the pack's tree holds (raise sizes within 25%); EVs in sb as the packs store them, losses in bb.";
