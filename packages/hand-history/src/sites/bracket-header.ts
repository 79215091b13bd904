/**
 * The first lines of 888poker and partypoker hands (see `bracket.ts`): the game line (stakes, game, time),
 * 888poker's tournament table line, and the amounts both sites write (symbol first or after, European
 * decimals on some 888poker skins).
 */

import { currencyOfSymbol, parseAmount } from "../amounts.js";
import { parseHandTime } from "../dates.js";
import { type Header, HeaderError, isKnockout } from "../header.js";
import type { Currency, Game, Site, Tournament } from "../types.js";
import { lineError, monthAt } from "./dialect.js";
import { partyTournamentOf } from "./party-tournament.js";

/** Thousands by dots or spaces, a comma before the cents: `1.550`, `3 023,50`, `0,02`. */
const EUROPEAN = /^\d{1,3}(?:[. ]\d{3})*(?:,\d{1,2})?$/;

/**
 * `$0.05 USD`, `€1,250`, `12,400`, `25 $`, `0,02$`, `$ 10`, `1.550 $`, `25 000`: an amount with its symbol
 * first, the currency code dropped. An amount with its symbol after it or a space after its symbol, or with
 * spaces between its thousands, is European: dots or spaces (a no-break space, some files garbling it as
 * `Â `) between the thousands, a comma before the cents (`3 023,50 $` is `$3023.50`).
 */
export function bare(text: string): string {
  const t = text
    .replace(/\s*(USD|EUR|GBP)\s*$/, "")
    .replace(/Â\u00a0|\u00a0/g, " ")
    .trim();
  // A space after the symbol (`$ 3.243`, `$ 552,72`, Dutch clients): European too.
  const first = /^([$€£])( ?)(\d.*)$/.exec(t);
  if (first) return `${first[1]}${european(first[3]!, first[2] ? EUROPEAN : SPACED)}`;
  const after = /^(\d.*?) ?([$€£])$/.exec(t);
  if (after) return `${after[2]}${european(after[1]!, EUROPEAN)}`;
  return european(t, SPACED);
}

/** Spaces between the thousands (`25 000`), or a comma before the cents alone (`$26,02`, Mac clients). */
const SPACED = /^\d{1,3}(?: \d{3})+(?:,\d{1,2})?$|^\d+,\d{1,2}$/;

/** A number in the European form `form` matches, as a plain one (`1.550,25` → `1550.25`); else as is. */
function european(number: string, form: RegExp): string {
  if (!form.test(number)) return number;
  const comma = number.lastIndexOf(",");
  const whole = (comma < 0 ? number : number.slice(0, comma)).replace(/\D/g, "");
  return comma < 0 ? whole : `${whole}.${number.slice(comma + 1)}`;
}

/** Amounts written after their number (`25 $/50 $`) as the reader writes them (`$25/$50`). */
export const symbolFirst = (line: string): string =>
  line.replace(/\d[\d.,]*(?:(?:\u00a0|Â\u00a0| )\d{3})*(?:,\d{1,2})? ?[$€£]/g, (amount) => bare(amount));

/** partypoker names no limit for fixed limit games (`$15/$30 USD Texas Hold'em`); 888poker always does. */
function gameOf(text: string, format: Game["format"], site: Site): Game {
  const t = text.toLowerCase();
  const omaha = t.includes("omaha");
  const hiLo = /hi\s*[/-]?\s*lo/.test(t);
  let limit: Game["limit"];
  if (/no limit|\bnl\b/.test(t)) limit = "nl";
  else if (/pot limit|\bpl\b/.test(t)) limit = "pl";
  else if (/fix(?:ed)? limit|\bfl\b|^limit|\blimit\b/.test(t)) limit = "fl";
  else if (site === "partypoker" && /^(?:texas hold'?em|omaha(?: hi-?lo)?)$/.test(t.trim())) limit = "fl";
  else throw new HeaderError(`no betting limit (No Limit, Pot Limit, Fix Limit) in "${text}"`);
  // partypoker's Double Hold'em deals three cards and keeps a "point card": another game.
  const holdem = /hold'?em/.test(t) && !/double hold'?em/.test(t);
  if (!omaha && !holdem) throw new HeaderError(`"${text}" is not hold'em or Omaha, the games read here`);
  const cards = omaha ? (/\b5[ -]?card|omaha ?5/.test(t) ? 5 : 4) : 2;
  return { variant: omaha ? "omaha" : "holdem", holeCards: cards, hiLo, limit, format, label: text.trim() };
}

/**
 * 888poker: `$0.05/$0.10 Blinds No Limit Holdem - *** 14 03 2024 18:45:12`; skins write `0,02$/0,04$`,
 * `$ 10/$ 20`, tournaments `25 000/50 000`.
 */
const GAME_888 = /^(.+?)\/(.+?) Blinds (.+?) - \*\*\*(?: (\d{2}) (\d{2}) (\d{4}) (\d{1,2}:\d{2}:\d{2}))?$/;
/** partypoker: `$0.05/$0.10 USD NL Texas Hold'em - Saturday, March 16, 21:05:47 CET 2024`. */
// Older files give the table's buy-in (`$50 USD PL Texas Hold'em - ...`): the blinds then come from the posts.
// The Mac client wrote no space after the weekday's comma (`Sunday,December 9,`), some files `Omaha Hi-Saturday`.
const GAME_PARTY =
  /^(\S+?)(?:\/(\S+))?(?: (USD|EUR|GBP))? (.+?)\s*(?: - |-)\w+, ?(\w+) (\d{1,2}), (\d{1,2}:\d{2}:\d{2})(?:\s+([A-Z]{2,5}))?\s+(\d{4})$/;

export function headerOf(
  site: Site,
  line: string,
  lines: readonly string[],
  at: number,
  id: string | null,
  k: number,
): Header {
  if (id === null) lineError("no hand number ('#Game No : N') before the game line", k);
  const tournament = lines.slice(at + 1, at + 3).some((l) => l.trim().startsWith("Tournament #"));
  let sbText: string;
  let bbText: string;
  let gameText: string;
  let when: string;
  let code: string | undefined;
  if (site === "888poker") {
    const m = GAME_888.exec(line);
    if (!m)
      lineError(
        "unrecognised 888poker game line ($0.05/$0.10 Blinds No Limit Holdem - *** 14 03 2024 18:45:12)",
        k,
      );
    if (m[4] === undefined)
      lineError("no date and time after '- ***': 888poker left out when this hand was played", k);
    [sbText, bbText, gameText] = [bare(m[1]!), bare(m[2]!), m[3]!];
    when = `${m[6]}/${m[5]}/${m[4]} ${m[7]}`;
  } else {
    const tournamentHeader = partyTournamentOf(line, id!, k);
    if (tournamentHeader) return tournamentHeader;
    if (line.startsWith("Tourney Hand") || / Tourney /.test(line)) {
      lineError("partypoker tournament hands in this format are not read yet (cash games are)", k);
    }
    const m = GAME_PARTY.exec(line);
    if (!m)
      lineError(
        "unrecognised partypoker game line ($0.05/$0.10 USD NL Texas Hold'em - Saturday, March 16, 21:05:47 CET 2024)",
        k,
      );
    const month = monthAt(m[5]!, k);
    // Only one amount: the table's buy-in; the blinds come from the posts.
    [sbText, bbText, gameText, code] =
      m[2] === undefined ? ["", "", m[4]!, m[3]] : [m[1]!, m[2], m[4]!, m[3]];
    when = `${m[9]}/${month}/${m[6]} ${m[7]}${m[8] ? ` ${m[8]}` : ""}`;
  }
  const sb = parseAmount(sbText);
  const bb = parseAmount(bbText);
  if (bbText !== "" && (Number.isNaN(sb) || Number.isNaN(bb)))
    lineError(`"${sbText}/${bbText}" are not blinds`, k);
  const time = parseHandTime(when);
  if (time === null) lineError(`"${when}" is not a date and time`, k);
  const currency = tournament
    ? null
    : ((code as Currency | undefined) ?? currencyOfSymbol((site === "888poker" ? bbText : line).charAt(0)));
  let game: Game;
  try {
    game = gameOf(gameText, tournament ? "tournament" : "cash", site);
  } catch (error) {
    lineError((error as Error).message, k);
  }
  return { site, id, game, sb, bb, ante: 0, currency, time, tournament: null, totalWritten: false };
}

/** 888poker's tournament table line: `Tournament #215483921 $10 + $1 - Table #4 9 Max (Real Money)`. */
export function tournamentOf(header: Header, id: string, buyInText: string, k: number): Header {
  const parts = buyInText.split("+").map((x) => bare(x.trim()));
  const free = /^free/i.test(buyInText) || parts.every((x) => parseAmount(x) === 0);
  const amounts = parts.map(parseAmount);
  if (!free && amounts.some(Number.isNaN)) lineError(`"${buyInText}" is not a buy-in ($10 + $1)`, k);
  const t: Tournament = {
    id,
    name: /bounty|knock|\bko\b/i.test(buyInText) ? buyInText : null,
    buyIn: free ? null : amounts,
    currency: free ? null : currencyOfSymbol(parts[0]!.charAt(0)),
    freeroll: free,
    level: null,
    finishes: [],
    knockout: false,
  };
  t.knockout = isKnockout(t);
  return { ...header, game: { ...header.game, format: "tournament" }, currency: null, tournament: t };
}
