/**
 * Sessions: the hero's hands in time order, split where no hand was played for longer than a gap (30
 * minutes unless asked otherwise), whatever the table; each session lists its tables with their own hands
 * and results. Times are compared as the histories write them: UTC where the site names its time zone, the
 * local time as written otherwise (GGPoker), so a session mixing both is ordered by those values.
 *
 * A session's id names the gap, its first hand and the filters the sessions were listed with (JSON text,
 * when there were any): sessions of filtered hands are other groupings than those of all hands, so the id
 * carries what is needed to find the same session again, as long as no hand uploaded later joins it to an
 * earlier one.
 */

import type { StoredHand } from "@ranges/access";
import { RangesError } from "@ranges/core";
import { type Money, unitOf } from "./results.js";

export const DEFAULT_SESSION_GAP_MINUTES = 30;

export interface SessionTable {
  table: string;
  game: string;
  format: string;
  stakes: string;
  hands: number;
  net: Money[];
  netBb: number;
}

export interface Session {
  id: string;
  start: string;
  end: string;
  minutes: number;
  hands: number;
  tables: SessionTable[];
  net: Money[];
  netBb: number;
  bbPer100: number;
  adjustedBbPer100: number;
  allInHands: number;
  first: { site: string; handId: string };
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

/** Milliseconds of a history time; times without a zone are read as written (as if UTC). */
export function timeOf(playedAt: string): number {
  const zoned = /(Z|[+-]\d\d:?\d\d)$/.test(playedAt) ? playedAt : `${playedAt}Z`;
  const t = Date.parse(zoned);
  return Number.isNaN(t) ? 0 : t;
}

/** The longest session id (the filters it may carry are bounded by the tools' own argument limits). */
export const MAX_SESSION_ID_LENGTH = 2400;

/** A session's id: the gap, the first hand, and the filters (JSON text) it was listed with, if any. */
export function sessionId(
  gapMinutes: number,
  first: { site: string; handId: string },
  filters: string | null = null,
): string {
  const text = `${gapMinutes}|${first.site}|${first.handId}${filters === null ? "" : `|${filters}`}`;
  return `ses_${Buffer.from(text).toString("base64url")}`;
}

/** What a session id names (`filters` only when it carries some); a 400 when it is not a session id. */
export function parseSessionId(id: string): {
  gapMinutes: number;
  site: string;
  handId: string;
  filters?: Record<string, unknown>;
} {
  const m = /^ses_([A-Za-z0-9_-]{4,2396})$/.exec(id);
  const text = m ? Buffer.from(m[1]!, "base64url").toString("utf8") : "";
  const parts = text.split("|");
  const gap = Number(parts[0]);
  let filters: Record<string, unknown> | undefined;
  if (parts.length > 3) {
    try {
      const f = JSON.parse(parts.slice(3).join("|")) as unknown;
      if (f !== null && typeof f === "object" && !Array.isArray(f)) filters = f as Record<string, unknown>;
    } catch {
      filters = undefined;
    }
  }
  if (
    parts.length < 3 ||
    (parts.length > 3 && filters === undefined) ||
    !Number.isInteger(gap) ||
    gap < 1 ||
    gap > 1440 ||
    !parts[1] ||
    !parts[2]
  ) {
    throw new RangesError(
      "invalid_parameter",
      "sessionId is not a session id: use an id list_my_sessions returned (ses_...).",
      { parameter: "sessionId" },
    );
  }
  const out = { gapMinutes: gap, site: parts[1], handId: parts[2] };
  return filters === undefined ? out : { ...out, filters };
}

/**
 * The hands of each session, oldest first, in time order; `filters` (JSON text) is what the rows were
 * selected by, carried in the ids.
 */
export function sessionHands<R extends StoredHand>(
  rows: readonly R[],
  gapMinutes = DEFAULT_SESSION_GAP_MINUTES,
  filters: string | null = null,
): { session: Session; hands: R[] }[] {
  const hands = rows
    .filter((h) => h.hero !== null)
    .map((h) => ({ h, t: timeOf(h.playedAt) }))
    .sort((a, b) => a.t - b.t || a.h.site.localeCompare(b.h.site) || a.h.handId.localeCompare(b.h.handId));
  const groups: R[][] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const { h, t } of hands) {
    if (groups.length === 0 || t - last > gapMinutes * 60_000) groups.push([]);
    groups[groups.length - 1]!.push(h);
    last = t;
  }
  return groups.map((g) => ({ session: summarizeSession(g, gapMinutes, filters), hands: g }));
}

/** Sessions of hero hands, oldest first (see the module comment). */
export function sessionsOf(rows: readonly StoredHand[], gapMinutes = DEFAULT_SESSION_GAP_MINUTES): Session[] {
  return sessionHands(rows, gapMinutes).map((s) => s.session);
}

function moneyOf(hands: readonly StoredHand[]): Money[] {
  const m = new Map<string, number>();
  for (const h of hands) m.set(unitOf(h), (m.get(unitOf(h)) ?? 0) + h.net);
  return [...m].map(([unit, amount]) => ({ unit, amount: r2(amount) }));
}

function summarizeSession(hands: readonly StoredHand[], gapMinutes: number, filters: string | null): Session {
  const first = hands[0]!;
  const lastHand = hands[hands.length - 1]!;
  const byTable = new Map<string, StoredHand[]>();
  for (const h of hands) {
    const key = `${h.site}|${h.tableName}`;
    const list = byTable.get(key) ?? [];
    list.push(h);
    byTable.set(key, list);
  }
  const netBb = hands.reduce((s, h) => s + h.netBb, 0);
  const adjusted = hands.reduce((s, h) => s + (h.adjustedBb ?? h.netBb), 0);
  return {
    id: sessionId(gapMinutes, { site: first.site, handId: first.handId }, filters),
    start: first.playedAt,
    end: lastHand.playedAt,
    minutes: Math.round((timeOf(lastHand.playedAt) - timeOf(first.playedAt)) / 60_000),
    hands: hands.length,
    tables: [...byTable.values()].map((list) => ({
      table: list[0]!.tableName,
      game: list[0]!.game,
      format: list[0]!.format,
      stakes: list[0]!.stakes,
      hands: list.length,
      net: moneyOf(list),
      netBb: r2(list.reduce((s, h) => s + h.netBb, 0)),
    })),
    net: moneyOf(hands),
    netBb: r2(netBb),
    bbPer100: r2((netBb / hands.length) * 100),
    adjustedBbPer100: r2((adjusted / hands.length) * 100),
    allInHands: hands.filter((h) => h.adjustedBb !== null).length,
    first: { site: first.site, handId: first.handId },
  };
}
