/**
 * partypoker's "Game Table" format: the client's since 2019 (hand numbers with letters) and the histories
 * partypoker emailed before. Amounts in brackets are what the line says, a raise gives its total, an all-in
 * is a line of its own, and the results are in the summary, one `balance` line a player:
 *
 *     ***** Hand History For Game 1784559729098bywbird3xlj *****
 *     0.10/0.25 Omaha Hi Game Table (PL) - Mon Jul 20 11:01:17 EDT 2026
 *     Table Table 7490030 (Real Money) -- Seat 1 is the button
 *     Total number of players : 4/6
 *     Seat 1: Player4 ($113.97)
 *     Player1 posts small blind (0.10)
 *     ** Dealing down cards **
 *     Dealt to Hero [ 7s, Tc, 5c, Jh ]
 *     Hero raises 0.85 to 0.85
 *     Player1 calls (0.15)
 *     Player1 is all-In.
 *     ** Dealing Flop ** :  [ 8d, 5s, 8h ]
 *     ** Summary **
 *     Main Pot: $1.09 Rake: $0.05
 *     Player1 balance $13.12, bet $0.57, collected $1.09, net +$0.52[ 9s, 4d, 8s, Jc ] [ three of a kind ... ]
 *     Hero balance $50.99, lost $0.57[ 7s, Tc, 5c, Jh ] [ two pairs ... ]
 *
 * Tournaments: `20/40 Tourney Texas Holdem Game Table (NL) (SNG JackPot Tournament #241086059) (Buyin $0.23 +
 * $0.02) - Thu Dec 05 18:57:46 EST 2019`, stacks and amounts in chips.
 */

import { currencyOfSymbol, parseAmount, round } from "../amounts.js";
import { parseHandTime } from "../dates.js";
import { type Header, isKnockout } from "../header.js";
import { MAX_SEATS } from "../reader-state.js";
import type { Currency, Game, Tournament } from "../types.js";
import {
  cardList,
  dealtLine,
  lineError,
  monthAt,
  playerAt,
  streetLine,
  type Translation,
} from "./dialect.js";
import { ChipCount } from "./party-chips.js";

/** `0.10/0.25 Omaha Hi Game Table (PL) - Mon Jul 20 11:01:17 EDT 2026` (tournaments: `Tourney` and more). */
const GAME =
  /^(\S+)\/(\S+)\s+(Tourney\s+)?(.+?)\s+Game Table \((NL|PL|FL)\)\s*(.*?)\s*-\s+\w{3} (\w{3}) (\d{1,2}) (\d{1,2}:\d{2}:\d{2})(?: ([A-Z]{2,5}))? (\d{4})$/;
const TABLE = /^Table (.*?)\s*\((?:Real|Play) Money\)\s*--\s*Seat (\d+) is the button$/;
const SEAT = /^Seat (\d+): (.+) \(\s*([^()]*?)\s*\)$/;
const DEALING = /^\*\* Dealing (down cards|Flop|Turn|River) \*\*\s*:?\s*(?:\[(.*)\])?$/;
const BALANCE =
  /^(?:Cashed out\s+)?balance [^,]+, (?:didn't bet|sits out|lost [^,([]+|bet [^,]+, collected ([^,]+), net [^[\s]+)(?: \(folded\))?\s*(?:\[([^\]]*)\])?/;

/** `$1,250.50`, `1,250`, `0.5`: as the reader writes amounts (symbol kept). */
const amountText = (text: string): string => text.trim();

function gameOf(name: string, limitCode: string, format: Game["format"]): Game {
  const t = name.toLowerCase();
  const omaha = t.includes("omaha");
  if (!omaha && !/hold'?em/.test(t)) lineError(`"${name}" is not hold'em or Omaha, the games read here`, 1);
  const limit = limitCode === "NL" ? "nl" : limitCode === "PL" ? "pl" : "fl";
  return {
    variant: omaha ? "omaha" : "holdem",
    holeCards: omaha ? (/\b5\b|5 card/.test(t) ? 5 : 4) : 2,
    hiLo: /hi[ -/]?lo/.test(t),
    limit,
    format,
    label: `${name} (${limitCode})`,
  };
}

function headerOf(line: string, id: string, k: number): Header {
  const m = GAME.exec(line);
  if (!m)
    lineError(
      "unrecognised partypoker game line (0.10/0.25 Omaha Hi Game Table (PL) - Mon Jul 20 11:01:17 EDT 2026)",
      k,
    );
  const tourney = m[3] !== undefined;
  const month = monthAt(m[7]!, k);
  const time = parseHandTime(`${m[11]}/${month}/${m[8]} ${m[9]}${m[10] ? ` ${m[10]}` : ""}`);
  if (time === null) lineError("no date and time at the end of the game line", k);
  const [sb, bb] = [parseAmount(m[1]!), parseAmount(m[2]!)];
  if (Number.isNaN(sb) || Number.isNaN(bb)) lineError(`"${m[1]}/${m[2]}" are not blinds`, k);
  let tournament: Tournament | null = null;
  if (tourney) {
    const t = /\((.*?)\s*Tournament #(\d+)\)/.exec(m[6]!);
    const buyIn = /\(Buyin ([^)]*)\)/.exec(m[6]!);
    const parts = buyIn ? buyIn[1]!.split("+").map((x) => x.trim()) : [];
    const amounts = parts.map((x) => parseAmount(x));
    tournament = {
      id: t?.[2] ?? id,
      name: t?.[1] || null,
      buyIn: buyIn && !amounts.some(Number.isNaN) ? amounts : null,
      currency: buyIn ? currencyOfSymbol(parts[0]!.charAt(0)) : null,
      freeroll: false,
      level: null,
      finishes: [],
      knockout: false,
    };
    tournament.knockout = isKnockout(tournament);
  }
  return {
    site: "partypoker",
    id,
    game: gameOf(m[4]!, m[5]!, tourney ? "tournament" : "cash"),
    sb,
    bb,
    ante: 0,
    currency: null,
    time: time!,
    tournament,
    totalWritten: false,
  };
}

/** Whether a partypoker hand (lines [start, end)) is in this format: its game line says `Game Table (NL)`. */
export function isGameTableFormat(lines: readonly string[], start: number, end: number): boolean {
  for (let i = start; i < end && i < start + 5; i++)
    if (/ Game Table \((?:NL|PL|FL)\)/.test(lines[i]!)) return true;
  return false;
}

/** Translates one hand of this format into reader lines. */
export function translateGameTable(lines: readonly string[], start: number, end: number): Translation {
  const out: string[] = new Array(end - start).fill("");
  let id: string | null = null;
  let header: Header | null = null;
  const names: string[] = [];
  const seatK = new Map<string, number>();
  const last = new Map<string, number>();
  let board: string[] = [];
  let currency: Currency | null = null;
  let summary = false;
  /** partypoker's all-in cash out: what each player who took it was paid. */
  const cashedOut = new Map<string, number>();
  const chips = new ChipCount();
  const notes: string[] = [];
  for (let k = 0; k < end - start; k++) {
    const line = lines[start + k]!.trim();
    if (line === "") continue;
    let m: RegExpExecArray | null;
    if (
      (m = /^#Game No\s*:\s*(\w+)/.exec(line)) ||
      (m = /^\*{5} Hand History [Ff]or Game (\w+) \*{5}/.exec(line))
    ) {
      id ??= m[1]!;
      continue;
    }
    if (header === null) {
      if (id === null) lineError("no hand number before the game line", k);
      header = headerOf(line, id!, k);
      continue;
    }
    if ((m = TABLE.exec(line))) {
      const maxSeats = /^Total number of players : \d+\/(\d+)/.exec(lines[start + k + 1]?.trim() ?? "")?.[1];
      out[k] = `Table '${m[1]}' ${maxSeats ? `${maxSeats}-max ` : ""}Seat #${m[2]} is the button`;
      continue;
    }
    if (line.startsWith("Total number of players") || line.startsWith("Creating ")) continue;
    if (!summary && (m = SEAT.exec(line))) {
      if (names.length >= MAX_SEATS) lineError(`more than ${MAX_SEATS} seat lines: no table seats more`, k);
      names.push(m[2]!);
      seatK.set(m[2]!, k);
      if (header.tournament === null && currency === null) currency = currencyOfSymbol(m[3]!.charAt(0));
      out[k] = `Seat ${m[1]}: ${m[2]} (${amountText(m[3]!)} in chips)`;
      chips.seat(m[2]!, parseAmount(m[3]!));
      continue;
    }
    if ((m = DEALING.exec(line))) {
      if (m[1] === "down cards") {
        out[k] = "*** HOLE CARDS ***";
        continue;
      }
      ({ line: out[k]!, board } = streetLine(m[1]!, m[2] ?? "", board));
      chips.street();
      continue;
    }
    if (line === "** Summary **") {
      summary = true;
      continue;
    }
    if (summary && /^(?:Main Pot|Board):/.test(line)) continue;
    if (line.startsWith("Dealt to ")) {
      const dealt = dealtLine(line);
      if (dealt === null) lineError("no cards in brackets after 'Dealt to'", k);
      out[k] = dealt!;
      continue;
    }
    const name = playerAt(line, names);
    if (name === null) lineError("unrecognised line", k);
    const rest = line.slice(name!.length + 1).trim();
    // `Hero Name raises 3.0 to 3.0` with only `Hero` seated: a name the file spells two ways.
    const unseated = /^(\S+) (?:posts|raises|calls|bets|folds|checks)\b/.exec(rest);
    if (!summary && unseated)
      lineError(
        `"${name} ${unseated[1]}" plays this hand but has no seat line, so their seat and stack are unknown (the seats are listed incompletely, or the file spells the name two ways)`,
        k,
      );
    if (summary) {
      const b = BALANCE.exec(rest);
      if (!b) lineError("unrecognised summary line (Name balance $10, lost $0.50 (folded))", k);
      // What the summary says the player put in (`lost 1520`, `bet 1520, collected ...`) cannot be more than
      // their lines put in: a history that leaves out some of a player's actions cannot be replayed.
      const summed = /^(?:Cashed out\s+)?balance [^,]+, (?:lost|bet) ([^,([]+)/.exec(rest)?.[1];
      const counted = chips.putIn(name!);
      const missing = summed === undefined ? 0 : round(parseAmount(summed.trim()) - counted);
      if (missing > 1e-9)
        lineError(
          `the summary says ${name} put in ${summed!.trim()}, but the hand's lines put in ${counted}: ${missing} of their chips are in no line (an action left out, or an amount the client rounded down), so the hand cannot be replayed`,
          k,
        );
      const said: string[] = [];
      // A player who cashed out is paid the cash out, which the summary writes as what they collected.
      const cashOut = cashedOut.get(name!);
      if (cashOut !== undefined && (b[1] === undefined || parseAmount(b[1]) !== cashOut))
        lineError(`${name} cashed out for ${cashOut}, but the summary does not say they were paid that`, k);
      if (b[1] !== undefined && cashOut === undefined)
        said.push(`${name} collected ${amountText(b[1])} from pot`);
      const cards = b[2] === undefined ? "" : cardList(b[2]);
      if (cards) said.push(`${name}: shows [${cards}]`);
      if (rest.startsWith("balance") && / sits out$/.test(rest)) out[seatK.get(name!)!] += " is sitting out";
      out[k] = said.join("\n");
      continue;
    }
    let text: string | null = null;
    if ((m = /^posts (small blind|big blind|ante) \((.+)\)$/.exec(rest)))
      text = `posts ${m[1] === "ante" ? "the ante" : m[1]} ${amountText(m[2]!)}`;
    else if (rest === "folds" || rest === "checks") text = rest;
    else if ((m = /^(calls|bets) \((.+)\)$/.exec(rest))) text = `${m[1]} ${amountText(m[2]!)}`;
    else if ((m = /^raises \S+ to (\S+)$/.exec(rest))) text = `raises to ${amountText(m[1]!)}`;
    else if (rest === "is all-In.") {
      const at = last.get(name!);
      if (at === undefined) lineError(`${name} is all-in before doing anything`, k);
      // A tournament all-in written a chip short of the stack (the client rounds down): all of it went in.
      const short = chips.left(name!);
      const topped = header.tournament && short > 0 && short <= 1 ? chips.topUp(out[at!]!, short) : null;
      if (topped !== null) {
        out[at!] = topped;
        notes.push(`${name}'s all-in is written ${short} chip short of their stack: read as the whole stack`);
      }
      out[at!] += " and is all-in";
      continue;
    } else if ((m = /^Cashout Amount is (\S+)$/.exec(rest))) {
      // All in, the player took the site's offer: paid this amount whatever the cards, the pot left to the others.
      if (cashedOut.has(name!)) lineError(`${name} cashes out twice`, k);
      cashedOut.set(name!, parseAmount(m[1]!));
      out[k] = `${name} cashed out the hand for ${amountText(m[1]!)}`;
      continue;
    } else if (/^(?:Cash-out Premium % is \S+|opted for cash-out|probabilty is \S+)$/.test(rest)) continue;
    else if (
      /^(?:has (?:joined|left) the table|is (?:dis)?connected|is sitting out|sits out|has returned)\.?$/.test(
        rest,
      )
    )
      continue;
    else lineError(`unrecognised action "${rest}"`, k);
    out[k] = `${name}: ${text}`;
    chips.count(out[k]!);
    last.set(name!, k);
  }
  if (header === null) lineError("no game line (the stakes, the game and the time) after the hand number", 0);
  return { header: { ...header, currency, notes }, lines: out, id };
}
