/**
 * The filters every hand tool takes, checked and turned into a query of the hand store. Dates compare with
 * the times the histories give (UTC where the site names its zone, local time as written otherwise).
 */

import type { HandQuery } from "@ranges/access";
import { RangesError } from "@ranges/core";
import { expandClassFilter, parseHoleCards } from "./cards.js";
import { PREFLOP_LINES, type PreflopLine } from "./types.js";

export interface HandFilters {
  /** First day (`2024-05-01`) or time (`2024-05-01T18:00`), inclusive. */
  from?: string | undefined;
  /** Last day (`2024-05-31`, inclusive) or a time (exclusive). */
  to?: string | undefined;
  site?: string | undefined;
  /** Game key: nlhe, plhe, flhe, plo, plo5, plo-hilo ... */
  game?: string | undefined;
  format?: "cash" | "tournament" | undefined;
  /** Cash blinds as the tools show them (`$0.05/$0.10`) or a tournament buy-in (`$10+$1`). */
  stakes?: string | undefined;
  /** The hero's positions. */
  positions?: readonly string[] | undefined;
  /** The hero's exact cards, any order (`AhKd`). */
  holeCards?: string | undefined;
  /** Classes (`AKs`, `TT+`, `A2s-A5s`, PLO `(AK)QJ`). */
  handClass?: string | undefined;
  lines?: readonly PreflopLine[] | undefined;
  /** The hero saw the showdown. */
  showdown?: boolean | undefined;
  result?: "won" | "lost" | "even" | undefined;
  table?: string | undefined;
  tournamentId?: string | undefined;
  uploadId?: string | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?Z?$/;

/**
 * A time filter as the stored times compare with it as text: seconds always written, milliseconds only
 * when not zero, no zone letter. Stored times are `2024-05-01T18:00:00.000Z` (PokerStars, UTC) or
 * `2024-05-01T18:00:00` (GGPoker, local as written); `2024-05-01T18:00` and `...T18:00Z` both become
 * `2024-05-01T18:00:00`, which is not after either form of the same instant and before any later one (as
 * text `...T18:00Z` sorted after `...T18:00:59.000Z`: a bound off by up to a minute).
 */
function normalTime(m: RegExpExecArray): string {
  const ms = (m[3] ?? "").padEnd(3, "0");
  return `${m[1]}:${m[2] ?? "00"}${ms === "000" ? "" : `.${ms}`}`;
}

function dateArg(name: string, raw: string, end: boolean): string {
  const v = raw.trim();
  if (DAY.test(v)) {
    const t = Date.parse(`${v}T00:00:00Z`);
    if (Number.isNaN(t)) throw badDate(name, raw);
    // An inclusive last day ends where the next one starts.
    return end ? new Date(t + 86_400_000).toISOString().slice(0, 10) : v;
  }
  const m = TIME.exec(v);
  if (m && !Number.isNaN(Date.parse(v.endsWith("Z") ? v : `${v}Z`))) return normalTime(m);
  throw badDate(name, raw);
}

const badDate = (name: string, raw: string) =>
  new RangesError(
    "invalid_parameter",
    `${name} "${raw.slice(0, 40)}" is not a date: use 2024-05-31 or 2024-05-31T18:30 (UTC for PokerStars, local time as written for GGPoker).`,
    { parameter: name },
  );

const POSITIONS = ["UTG", "UTG1", "UTG2", "UTG3", "LJ", "HJ", "CO", "BTN", "SB", "BB"];

/** The store query of a set of filters; a 400 naming the filter when one cannot be read. */
export function handQueryOf(f: HandFilters, heroOnly = true): HandQuery {
  const q: HandQuery = { heroOnly };
  if (f.from !== undefined) q.from = dateArg("from", f.from, false);
  if (f.to !== undefined) q.to = dateArg("to", f.to, true);
  if (q.from !== undefined && q.to !== undefined && q.from >= q.to) {
    throw new RangesError("invalid_parameter", `from (${f.from}) must come before to (${f.to}).`, {
      parameter: "from",
    });
  }
  if (f.site !== undefined) q.sites = [f.site];
  if (f.game !== undefined) q.games = [f.game.trim().toLowerCase()];
  if (f.format !== undefined) q.formats = [f.format];
  if (f.stakes !== undefined) q.stakes = [f.stakes.trim()];
  if (f.positions !== undefined) {
    const bad = f.positions.find((p) => !POSITIONS.includes(p.toUpperCase()));
    if (bad !== undefined) {
      throw new RangesError(
        "invalid_parameter",
        `position "${bad.slice(0, 10)}" is not a position: ${POSITIONS.join(", ")}.`,
        { parameter: "position" },
      );
    }
    q.positions = f.positions.map((p) => p.toUpperCase());
  }
  if (f.holeCards !== undefined) {
    const cards = parseHoleCards(f.holeCards);
    if (cards === null) {
      throw new RangesError(
        "invalid_parameter",
        `holeCards "${f.holeCards.slice(0, 20)}" are not cards: write them like AhKd (hold'em) or AhKdQcJs (Omaha).`,
        { parameter: "holeCards" },
      );
    }
    q.holeCards = [cards];
  }
  if (f.handClass !== undefined) q.handClasses = expandClassFilter(f.handClass);
  if (f.lines !== undefined) {
    const bad = f.lines.find((l) => !PREFLOP_LINES.includes(l));
    if (bad !== undefined) {
      throw new RangesError(
        "invalid_parameter",
        `line "${String(bad).slice(0, 20)}" is not one of ${PREFLOP_LINES.join(", ")}.`,
      );
    }
    q.lines = [...f.lines];
  }
  if (f.showdown !== undefined) q.showdown = f.showdown;
  if (f.result !== undefined) q.result = f.result;
  if (f.table !== undefined) q.tables = [f.table];
  if (f.tournamentId !== undefined) q.tournamentIds = [f.tournamentId];
  if (f.uploadId !== undefined) q.uploadId = f.uploadId;
  return q;
}
