/**
 * The first line of a hand: site, hand number, game, stakes or tournament, and time.
 *
 * PokerStars:
 *   `PokerStars Hand #208000000000:  Hold'em No Limit ($0.50/$1.00 USD) - 2020/01/01 12:00:00 CET [2020/01/01 6:00:00 ET]`
 *   `PokerStars Game #109663597247:  Omaha Pot Limit ($0.05/$0.10 USD) - 2014/01/05 19:05:34 ET`
 *   `PokerStars Hand #105024000105: Tournament #797469411, $3.19+$0.31 USD Hold'em No Limit - Level I (10/20) - 2013/10/04 13:53:27 ET`
 *   `PokerStars Zoom Hand #...`, play money `(10/20)`, freerolls `Tournament #1, Freeroll  Hold'em No Limit`
 *   capped no limit `PokerStars Hand #1:  Hold'em No Limit ($1/$2 - $40 Cap - USD) - 2014/01/06 7:21:05 ET`
 * GGPoker:
 *   `Poker Hand #RC1234567890: Hold'em No Limit ($0.02/$0.05) - 2024/03/15 10:20:30`
 *   `Poker Hand #OM1234567: PLO ($0.05/$0.1) - 2024/03/15 10:20:30`
 *   `Poker Hand #TM5544469446: Tournament #258198994, $25 Bounty Special Hold'em No Limit - Level12(200/400) - 2026/02/04 01:07:12`
 */

import { currencyOfSymbol, parseAmount } from "./amounts.js";
import { type HandTime, parseHandTime } from "./dates.js";
import type { Currency, Game, Site, Tournament } from "./types.js";

/** A line that starts a hand, and the hand number in it (group 2). */
export const START = /^(PokerStars(?: [A-Za-z]+){0,2} (?:Hand|Game)|Poker Hand) #([A-Za-z0-9-]+)/;

/** Quick test before `START`: every hand's first line begins with one of these. */
export const mayStartHand = (line: string): boolean =>
  line.startsWith("PokerStars ") || line.startsWith("Poker Hand #");

export interface Header {
  site: Site;
  id: string;
  game: Game;
  sb: number;
  bb: number;
  /** Ante from the tournament level (`Level12(200/400(50))`), else 0. */
  ante: number;
  currency: Currency | null;
  time: HandTime;
  tournament: Tournament | null;
  /** False for sites without a summary `Total pot` line (888poker, partypoker, iPoker). */
  totalWritten?: boolean;
  /** What a site's translation worked out because the history did not say it (the hand's `notes`). */
  notes?: string[];
}

export class HeaderError extends Error {}

const GAME =
  /(Hold'em|Holdem|(?:([56]) Card )?Omaha(?: (Hi\/Lo))?|PLO(?:-?([56]))?(?: (Hi\/Lo))?)(?: (No Limit|Pot Limit|Fixed Limit|Limit))?/;
/** `($0.05/$0.10 USD)`, `(10/20)`, and capped no limit `($1/$2 - $40 Cap -  USD)` (two spaces, as written). */
const GAME_ALL = new RegExp(GAME.source, "g");
/** Games of PokerStars and GGPoker that are not hold'em or Omaha. */
const OTHER_GAME =
  /\b(?:6\+ Hold'em|ShortDeck|Short Deck|Courchevel(?: Hi\/Lo)?|Razz|7 Card Stud(?: Hi\/Lo)?|5 Card Draw|Triple Draw 2-7 Lowball|Single Draw 2-7 Lowball|Badugi)\b|\bOmaha \(NL postflop\)/;
const STAKES =
  /^\s*\(([^/()\s]+)\/([^/()\s]+)(?:\/[^/()\s]+)?(?: - [^()\s]+ Cap)?(?: -)?(?:\s+(USD|EUR|GBP))?\)/;
const LEVEL = /Level\s*([A-Za-z0-9]+)\s*\(([\d.,]+)\/([\d.,]+)(?:\(([\d.,]+)\))?\)/;
const BUY_IN = /^([$€£]?[\d.,]+(?:\+[$€£]?[\d.,]+)*)(?:\s+(USD|EUR|GBP|FPP|SC))?(?:\s+(.*))?$/;

function amount(text: string, what: string): number {
  const value = parseAmount(text);
  if (Number.isNaN(value)) throw new HeaderError(`${what} is not an amount: "${text}"`);
  return value;
}

function gameOf(match: RegExpExecArray, format: Game["format"]): Game {
  const [label, name, cardsCount, hiLo, ploCards, ploHiLo, limitText] = match;
  const omaha = !name!.startsWith("Hold");
  const plo = name!.startsWith("PLO");
  let limit: Game["limit"];
  if (limitText === "No Limit") limit = "nl";
  else if (limitText === "Pot Limit" || (plo && limitText === undefined)) limit = "pl";
  else if (limitText === "Limit" || limitText === "Fixed Limit") limit = "fl";
  else throw new HeaderError(`no betting limit after "${name}"`);
  const cards = Number(cardsCount ?? ploCards ?? (omaha ? 4 : 2));
  return {
    variant: omaha ? "omaha" : "holdem",
    holeCards: cards,
    hiLo: (hiLo ?? ploHiLo) !== undefined,
    limit,
    format,
    label: label!,
  };
}

function tournamentPrefix(text: string): Pick<Tournament, "name" | "buyIn" | "currency" | "freeroll"> {
  const trimmed = text.trim();
  if (/^freeroll$/i.test(trimmed)) return { name: null, buyIn: null, currency: null, freeroll: true };
  const m = BUY_IN.exec(trimmed);
  if (!m) return { name: trimmed || null, buyIn: null, currency: null, freeroll: false };
  const parts = m[1]!.split("+");
  const code = m[2];
  const currency =
    code === "USD" || code === "EUR" || code === "GBP" ? code : currencyOfSymbol(parts[0]!.charAt(0));
  return {
    name: m[3]?.trim() || null,
    buyIn: parts.map((p) => amount(p, "the buy-in")),
    currency,
    freeroll: false,
  };
}

/** Names of bounty tournaments: `Bounty Hunters`, `PKO`, `Progressive KO`, `Knockout`, `Mystery Bounty`. */
const KNOCKOUT_NAME = /bounty|knock-?out|\bp?ko\b/i;

/** A bounty tournament by its buy-in (prize pool + bounty + fee) or its name. */
export function isKnockout(t: Pick<Tournament, "name" | "buyIn">): boolean {
  return (t.buyIn !== null && t.buyIn.length === 3) || (t.name !== null && KNOCKOUT_NAME.test(t.name));
}

/** Reads a hand's first line; throws `HeaderError` with a reason. */
export function parseHeader(line: string): Header {
  const start = START.exec(line);
  if (!start) throw new HeaderError("not the first line of a hand");
  const site: Site = start[1] === "Poker Hand" ? "ggpoker" : "pokerstars";
  const id = start[2]!;
  let rest = line.slice(start[0].length);
  if (!rest.startsWith(":")) throw new HeaderError('no ":" after the hand number');
  rest = rest.slice(1).trim();

  // Games not read here, named before anything else is looked at.
  const other = OTHER_GAME.exec(rest);
  if (other) throw new HeaderError(`${other[0]} is not a game read here (hold'em and Omaha only)`);
  // Mixed games name the game of the hand in brackets: `Mixed NLH/PLO (Hold'em No Limit, $0.10/$0.25 USD)`,
  // `Mixed Hold'em (Hold'em Limit) - Level I (40/80)`, `8-Game (Hold'em Limit)`: read as that game.
  // Home games name their club first (`{Dazzle's Room} Tournament #1, ...`).
  rest = rest.replace(/^\{[^}]*\}\s*/, "");
  rest = rest.replace(
    /(?:Mixed [^(]*|\d+-Game |HORSE |HOSE )\(([^,()]+)(?:, ([^()]+))?\)/,
    (_, game: string, stakes?: string) => (stakes === undefined ? game : `${game} (${stakes})`),
  );

  let tournament: Tournament | null = null;
  let gameText = rest;
  if (/^(?:Zoom )?Tournament #/.test(rest)) {
    rest = rest.replace(/^Zoom /, "");
    const comma = rest.indexOf(",");
    if (comma < 0) throw new HeaderError('no "," after the tournament number');
    const tid = rest.slice("Tournament #".length, comma).trim();
    if (!/^\d+$/.test(tid)) throw new HeaderError(`bad tournament number "${tid}"`);
    gameText = rest.slice(comma + 1);
    tournament = {
      id: tid,
      name: null,
      buyIn: null,
      currency: null,
      freeroll: false,
      level: null,
      finishes: [],
      knockout: false,
    };
  }
  // The game is the last one named (GGPoker's tournament names may name one too: `WSOP #77: $5,000 No Limit
  // Hold'em Main Event, $25M GTD Hold'em No Limit - Level10`).
  let g: RegExpExecArray | null = null;
  for (const m of gameText.matchAll(GAME_ALL))
    if (g === null || m[6] !== undefined || g[6] === undefined) g = m;
  if (!g) throw new HeaderError("no game (Hold'em, Omaha, PLO) in the first line");
  if (tournament) {
    Object.assign(tournament, tournamentPrefix(gameText.slice(0, g.index)));
    tournament.knockout = isKnockout(tournament);
  }
  const game = gameOf(g, tournament ? "tournament" : "cash");
  const after = gameText.slice(g.index + g[0].length);

  let sb: number;
  let bb: number;
  let ante = 0;
  let currency: Currency | null = null;
  const level = LEVEL.exec(after);
  const stakes = STAKES.exec(after);
  if (tournament) {
    if (!level) throw new HeaderError("no blind level (Level I (10/20)) in a tournament's first line");
    tournament.level = level[1]!;
    sb = amount(level[2]!, "the small blind");
    bb = amount(level[3]!, "the big blind");
    if (level[4] !== undefined) ante = amount(level[4], "the ante");
  } else {
    if (!stakes) throw new HeaderError("no stakes ($0.05/$0.10) after the game");
    sb = amount(stakes[1]!, "the small blind");
    bb = amount(stakes[2]!, "the big blind");
    currency = (stakes[3] as Currency | undefined) ?? currencyOfSymbol(stakes[1]!.charAt(0));
  }
  const time = parseHandTime(after);
  if (!time) throw new HeaderError("no date and time (2014/01/06 7:21:05) in the first line");
  return { site, id, game, sb, bb, ante, currency, time, tournament };
}
