/**
 * partypoker tournament hands (the client's format until 2019): the game line names the limit, the game,
 * the buy-in, the tournament, the level and the blinds, in chips:
 *
 *     NL Texas Hold'em $11 USD Buy-in Trny: 59658935 Level: 7  Blinds(300/600) - Friday, April 01, 11:44:00 CEST 2011
 *     NL Texas Hold'em  Trny:71196310 Level:9  Blinds-Antes(600/1,200 -50) - Monday, July 16, 22:42:29 EDT 2012
 *     FL Texas Hold'em  Trny:71207318 Level:4  Stakes(200/400) - Tuesday, July 17, 21:37:31 EDT 2012
 *     NL Texas Hold'em $30 Buy-in  + $3 Entry Fee  Trny:15286975 Level:4 Blinds(50/100) - Tuesday, August 30, ...
 *     NL Texas Hold'em €1 EUR Buy-in  - Wednesday, November 28, 13:05:32 CET 2012   (blinds from the posts)
 *
 * The table line follows (`Table Turbo #1646865 (Real Money)`, `Table $1,000 Gtd (105411156) Table #2
 * (Real Money)`); the body repeats `Trny: N Level: N` and `Blinds(N/N)` on lines of their own, and a winner
 * `wins 5,120 chips`. Without a `Trny:` number the tournament is numbered by its table's.
 */

import { currencyOfSymbol, parseAmount } from "../amounts.js";
import { parseHandTime } from "../dates.js";
import { type Header, isKnockout } from "../header.js";
import type { Currency, Game, Tournament } from "../types.js";
import { bare } from "./bracket-header.js";
import { lineError, monthAt } from "./dialect.js";

const GAME = /^(NL|PL|FL) (Texas Hold'em|Omaha(?: Hi-Lo)?)\b/;
const DATE = /\s*-\s*\w+, ?(\w+) (\d{1,2}), (\d{1,2}:\d{2}:\d{2})(?:\s+([A-Z]{2,5}))?\s+(\d{4})$/;
const BUY_IN =
  /([$€£] ?[\d,.]+)(?: (USD|EUR|GBP))? Buy-in(?:\s+\+\s+([$€£] ?[\d,.]+)(?: (?:USD|EUR|GBP))? Entry Fee)?/;
/** A level's amount: `1,200`, or `1 200` as the Russian client writes it (a space between thousands). */
const N = String.raw`\d[\d,.]*(?: \d{3})*`;
const BLINDS = new RegExp(String.raw`(?:Blinds|Stakes|Blinds-Antes)\((${N})\/(${N})(?: -(${N}))?\)`);
const levelAmount = (text: string): number => parseAmount(text.replaceAll(" ", ""));

/** Lines of a tournament hand's body that repeat its first line: `Trny: N Level: N`, `Blinds(N/N)`. */
export const TOURNAMENT_NOTICE =
  /^Trny: ?\d+ Level: ?\d+$|^(?:Blinds|Stakes|Blinds-Antes)\([\d,. ]+\/[\d,. ]+(?: -[\d,. ]+)?\)$|^There is no Small Blind in this hand|^Player .+ (?:finished in [\d ,]+\.|finished in \d+ place(?: and received .*)?|has been moved from table \d+ to this table)$|^The tournament is now finished /;

/** The header of a partypoker tournament hand from its game line; null when the line is no tournament's. */
export function partyTournamentOf(line: string, id: string, k: number): Header | null {
  const g = GAME.exec(line);
  if (!g || !/ Trny: ?\d| Buy-in /.test(line)) return null;
  const d = DATE.exec(line);
  if (!d)
    lineError(
      "unrecognised partypoker tournament line (NL Texas Hold'em $11 USD Buy-in Trny: 59658935 Level: 7  Blinds(300/600) - Friday, April 01, 11:44:00 CEST 2011)",
      k,
    );
  const month = monthAt(d[1]!, k);
  const time = parseHandTime(`${d[5]}/${month}/${d[2]} ${d[3]}${d[4] ? ` ${d[4]}` : ""}`);
  if (time === null) lineError(`"${d[0].trim()}" is not a date and time`, k);
  const rest = line.slice(g[0].length, d.index);
  const buyIn = BUY_IN.exec(rest);
  const blinds = BLINDS.exec(rest);
  const amounts = buyIn
    ? [buyIn[1]!, buyIn[3]].filter((x) => x !== undefined).map((x) => parseAmount(bare(x)))
    : null;
  if (amounts?.some(Number.isNaN)) lineError(`"${buyIn![0]}" is not a buy-in ($11 USD Buy-in)`, k);
  const [sb, bb, ante] = blinds
    ? [blinds[1]!, blinds[2]!, blinds[3] ?? "0"].map(levelAmount)
    : [Number.NaN, Number.NaN, 0];
  const tournament: Tournament = {
    id: /Trny: ?(\d+)/.exec(rest)?.[1] ?? "",
    name: null,
    buyIn: amounts,
    currency: buyIn ? ((buyIn[2] as Currency | undefined) ?? currencyOfSymbol(buyIn[1]!.charAt(0))) : null,
    freeroll: false,
    level: /Level: ?(\d+)/.exec(rest)?.[1] ?? null,
    finishes: [],
    knockout: false,
  };
  tournament.knockout = isKnockout(tournament);
  const limit = g[1] === "NL" ? "nl" : g[1] === "PL" ? "pl" : "fl";
  const omaha = g[2]!.startsWith("Omaha");
  const game: Game = {
    variant: omaha ? "omaha" : "holdem",
    holeCards: omaha ? 4 : 2,
    hiLo: g[2]!.endsWith("Hi-Lo"),
    limit,
    format: "tournament",
    label: g[0],
  };
  return {
    site: "partypoker",
    id,
    game,
    sb: sb!,
    bb: bb!,
    ante: ante!,
    currency: null,
    time: time!,
    tournament,
    totalWritten: false,
  };
}

/** A tournament without a `Trny:` number takes its table's (`$1,000 Gtd (105411156) Table #2`, `Turbo #1646865`). */
export function numberByTable(tournament: Tournament, table: string, handId: string): void {
  if (tournament.id === "") tournament.id = (/\((\d+)\)/.exec(table) ?? /#(\d+)/.exec(table))?.[1] ?? handId;
  if (/freeroll/i.test(table) && tournament.buyIn === null) tournament.freeroll = true;
}

/**
 * The header with the tournament and level, or the blinds, of a body line (`Trny: 71196310 Level: 17`,
 * `Blinds-Antes(8,000/16,000 -400)`): the game line may give the level before the hand's, or none.
 */
export function levelOf(header: Header, line: string): Header {
  const blinds = BLINDS.exec(line);
  if (blinds) {
    const [sb, bb, ante] = [blinds[1]!, blinds[2]!, blinds[3] ?? "0"].map(levelAmount);
    return { ...header, sb: sb!, bb: bb!, ante: ante! };
  }
  const level = /^Trny: ?(\d+) Level: ?(\d+)/.exec(line);
  if (level && header.tournament)
    return { ...header, tournament: { ...header.tournament, id: level[1]!, level: level[2]! } };
  return header;
}

export interface SeatedPlayer {
  seat: number;
  name: string;
  stack: number;
  /** The hand's line that seats the player. */
  k?: number;
}

/**
 * partypoker's tournament hands write the antes but not the blinds: the small blind is the first seat after
 * the button (the button itself heads-up), the big blind the next one, each posting what the level says or
 * the rest of a stack the ante left shorter. `noSmallBlind`: the hand says nobody posts it (`There is no Small
 * Blind in this hand ...`); the big blind is then the first seat after the button. Reader lines, in order.
 */
export function impliedBlinds(
  players: readonly SeatedPlayer[],
  button: number,
  header: Header,
  antes: ReadonlyMap<string, number>,
  noSmallBlind: boolean,
): string[] {
  const seated = players.filter((p) => p.stack > 0).sort((a, b) => a.seat - b.seat);
  if (seated.length < 2 || Number.isNaN(header.bb)) return [];
  const after = (seat: number): SeatedPlayer => seated.find((p) => p.seat > seat) ?? seated[0]!;
  const sbPlayer =
    seated.length === 2 ? (seated.find((p) => p.seat === button) ?? after(button)) : after(button);
  const bbPlayer = noSmallBlind ? after(button) : after(sbPlayer.seat);
  const post = (p: SeatedPlayer, what: string, blind: number): string => {
    const left = Math.round((p.stack - (antes.get(p.name) ?? 0)) * 100) / 100;
    const amount = Math.min(blind, left);
    return `${p.name}: posts ${what} ${amount}${amount === left ? " and is all-in" : ""}`;
  };
  const lines = [post(bbPlayer, "big blind", header.bb)];
  if (!noSmallBlind)
    lines.unshift(post(sbPlayer, "small blind", Number.isNaN(header.sb) ? header.bb / 2 : header.sb));
  return lines;
}
