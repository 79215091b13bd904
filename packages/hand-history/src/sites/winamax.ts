/**
 * Winamax: PokerStars' layout with amounts after the number (`0.10€`), no colon after player names,
 * `*** ANTE/BLINDS ***` and `*** PRE-FLOP ***` sections, and boards written `[7s 4h 2d][Jc]`.
 *
 *     Winamax Poker - CashGame - HandId: #21876543-321-1710613512 - Holdem no limit (0.05€/0.10€) - 2024/03/16 18:25:12 UTC
 *     Table: 'Lyon 07' 6-max (real money) Seat #4 is the button
 *     Seat 1: kiki_la_malice (10€)
 *     *** ANTE/BLINDS ***
 *     kiki_la_malice posts small blind 0.05€
 *     Dealt to Hero [Kd Kh]
 *     *** PRE-FLOP ***
 *     Hero raises 0.20€ to 0.30€
 *     *** TURN *** [7s 4h 2d][Jc]
 *     Hero collected 2.65€ from pot
 *     *** SUMMARY ***
 *     Total pot 2.80€ | Rake 0.15€
 *
 * Tournaments: `Winamax Poker - Tournament "Monster Stack" buyIn: 4.50€ + 0.50€ level: 7 - HandId: #... -
 * Holdem no limit (25/100/200) - ...` (ante/small blind/big blind), seats `(15230)` or `(15230, 2.25€ bounty)`,
 * `Total pot 1150 | No rake`. The total pot line gives what was collected, a bet nobody called included (Winamax
 * writes no "Uncalled bet" line), and the rake apart: `Total pot 19.82€ | Rake 0.98€` after 20.80€ went in.
 */

import { currencyOfSymbol, parseAmount } from "../amounts.js";
import { parseHandTime } from "../dates.js";
import { type Header, isKnockout } from "../header.js";
import type { Currency, Game, Tournament } from "../types.js";
import { cardList, type Dialect, lineError, playerAt, type Translation } from "./dialect.js";

const FIRST =
  /^Winamax Poker - (CashGame|Tournament "(.*?)" buyIn: (.*?)(?: level: (\S+))?|[^-]+?) - HandId: #([\d-]+) - (.+?) \(([^()]+)\) - (\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d{2}:\d{2}(?: [A-Z]{2,5})?)/;
/** Older files write `Seat 0000005 is the button`, some newer ones `Table 'Nagoya'` without the colon. */
const TABLE = /^Table:? '(.*)' (?:(\d+)-max )?\((?:real|play) money\)(?: Seat #?0*(\d+) is the button)?/;
const SEAT = /^Seat (\d+): (.+) \(([^(),]+)(?:, ([^()]+) bounty)?\)(.*)$/;

/** `0.10€` as `€0.10`; `1,500` and `$2` as they are. */
function money(text: string): string {
  const t = text.trim();
  return t.endsWith("€") ? `€${t.slice(0, -1)}` : t;
}

function gameOf(text: string, format: Game["format"]): Game | string {
  const t = text.toLowerCase();
  const omaha = /^(?:5 card )?omaha/.test(t);
  if (!omaha && !t.startsWith("holdem")) return `"${text}" is not hold'em or Omaha, the games read here`;
  const limit = t.includes("no limit")
    ? "nl"
    : t.includes("pot limit")
      ? "pl"
      : t.includes("limit")
        ? "fl"
        : null;
  if (limit === null) return `no betting limit in "${text}"`;
  const five = /omaha ?5|^5 card/.test(t);
  return {
    variant: omaha ? "omaha" : "holdem",
    holeCards: omaha ? (five ? 5 : 4) : 2,
    hiLo: /hi[ -/]?lo/.test(t),
    limit,
    format,
    label: text,
  };
}

function headerOf(line: string): Header {
  if (line.startsWith("Winamax Poker - Tournament summary"))
    lineError("a Winamax tournament summary (the results, no hands): there is no hand to read", 0);
  const m = FIRST.exec(line);
  if (!m)
    lineError(
      "unrecognised Winamax first line (Winamax Poker - CashGame - HandId: #... - Holdem no limit (0.05€/0.10€) - 2024/03/16 18:25:12 UTC)",
      0,
    );
  const cash = m[1] === "CashGame" || m[2] === undefined;
  const game = gameOf(m[6]!, cash ? "cash" : "tournament");
  if (typeof game === "string") lineError(game, 0);
  const blinds = m[7]!.split("/").map((x) => money(x));
  if (blinds.length < 2 || blinds.length > 3)
    lineError(`"(${m[7]})" are not blinds (0.05€/0.10€, or ante/small/big)`, 0);
  const [anteText, sbText, bbText] = blinds.length === 3 ? blinds : ["0", blinds[0]!, blinds[1]!];
  const [ante, sb, bb] = [anteText!, sbText!, bbText!].map(parseAmount);
  if ([ante, sb, bb].some((x) => Number.isNaN(x))) lineError(`"(${m[7]})" are not blinds`, 0);
  const time = parseHandTime(m[8]!);
  if (time === null) lineError(`"${m[8]}" is not a date and time`, 0);
  let tournament: Tournament | null = null;
  let currency: Currency | null = null;
  if (cash) currency = sbText!.startsWith("€") ? "EUR" : currencyOfSymbol(sbText!.charAt(0));
  else {
    const parts = m[3]!.split("+").map((x) => money(x));
    const amounts = parts.map(parseAmount);
    const free = amounts.every((x) => x === 0) || /free/i.test(m[3]!);
    tournament = {
      id: m[5]!.split("-")[0]!,
      name: m[2]!,
      buyIn: free || amounts.some(Number.isNaN) ? null : amounts,
      currency: free ? null : "EUR",
      freeroll: free,
      level: m[4] ?? null,
      finishes: [],
      knockout: false,
    };
    tournament.knockout = isKnockout(tournament);
  }
  // "Total pot" is what was collected (a bet nobody called included), the rake apart: the pot is read from
  // the actions, the rake from that line.
  return {
    site: "winamax",
    id: m[5]!,
    game,
    sb: sb!,
    bb: bb!,
    ante: ante!,
    currency,
    time,
    tournament,
    totalWritten: false,
  };
}

function translate(lines: readonly string[], start: number, end: number): Translation {
  const out: string[] = new Array(end - start).fill("");
  const header = headerOf(lines[start]!.trim());
  const names: string[] = [];
  let summary = false;
  for (let k = 1; k < end - start; k++) {
    const line = lines[start + k]!.trim();
    if (line === "") continue;
    let m: RegExpExecArray | null;
    if (summary) {
      if (line.startsWith("Total pot ")) {
        // Older tournament hands round the total to thousands (`Total pot 6.02k`); it is not used here
        // (the pot is read from the actions), only the rake is.
        out[k] = line
          .replace(/\| No rake$/, "| Rake 0")
          .replace(/(\d[\d.,]*)€/g, "€$1")
          .replace(
            /^Total pot (\d+(?:\.\d+)?)k /,
            (_, n: string) => `Total pot ${Math.round(Number(n) * 1000)} `,
          );
      } else if (line.startsWith("Seat ")) out[k] = line.replace(/(\d[\d.,]*)€/g, "€$1");
      continue;
    }
    if ((m = TABLE.exec(line))) {
      if (m[3] === undefined) lineError("no button seat on the table line (Seat #4 is the button)", k);
      out[k] = `Table '${m[1]}' ${m[2] ? `${m[2]}-max ` : ""}Seat #${m[3]} is the button`;
      continue;
    }
    if ((m = SEAT.exec(line))) {
      names.push(m[2]!);
      const bounty = m[4] ? `, ${money(m[4])} bounty` : "";
      out[k] = `Seat ${m[1]}: ${m[2]} (${money(m[3]!)} in chips${bounty})${m[5]}`;
      if (m[4]) header.tournament && (header.tournament.knockout = true);
      continue;
    }
    if (line.startsWith("*** ")) {
      if (line.startsWith("*** ANTE/BLINDS ***")) continue;
      if (line.startsWith("*** PRE-FLOP ***")) out[k] = "*** HOLE CARDS ***";
      else if (line.startsWith("*** SUMMARY ***")) {
        out[k] = "*** SUMMARY ***";
        summary = true;
      } else out[k] = line.replace(/\]\[/g, "] [");
      continue;
    }
    if (line.startsWith("Dealt to ")) {
      const b = line.lastIndexOf("[");
      out[k] =
        b < 0 ? line : `${line.slice(0, b).trim()} [${cardList(line.slice(b + 1, line.lastIndexOf("]")))}]`;
      continue;
    }
    const name = playerAt(line, names);
    if (name !== null) {
      const rest = line
        .slice(name.length + 1)
        .trim()
        .replace(/(\d[\d.,]*)€/g, "€$1");
      // Hi/Lo games: `collected 4.96€ from pot (HI)`, `from pot(LO)`.
      if ((m = /^collected (\S+) from (pot|main pot|side pot ?#?(\d+))(?: ?\((?:HI|LO)\))?$/.exec(rest))) {
        out[k] = `${name} collected ${m[1]} from ${m[3] ? `side pot-${m[3]}` : m[2]}`;
      } else if ((m = /^posts (ante|small blind|big blind) (\S+)/.exec(rest))) {
        out[k] =
          `${name}: posts ${m[1] === "ante" ? "the ante" : m[1]} ${m[2]}${rest.endsWith(" and is all-in") ? " and is all-in" : ""}`;
      } else if (/^(?:shows|mucks|folds|checks|calls|bets|raises|doesn't show)/.test(rest))
        out[k] = `${name}: ${rest}`;
      else if (
        /^(?:wins .* bounty|is sitting out|sits out|has returned|joins the table|leaves the table|denies big blind)/.test(
          rest,
        )
      ) {
        if (rest.includes("bounty") && header.tournament) header.tournament.knockout = true;
      } else lineError(`unrecognised action "${rest}"`, k);
      continue;
    }
    if (
      / (?:joins the table|leaves the table|is disconnected|is connected)$/.test(line) ||
      line.includes(": ")
    )
      continue;
    if (line.startsWith("Uncalled bet (")) {
      out[k] = line.replace(/(\d[\d.,]*)€/g, "€$1");
      continue;
    }
    lineError("unrecognised line", k);
  }
  return { header, lines: out, id: header.id };
}

export const WINAMAX: Dialect = {
  site: "winamax",
  startsAt: (lines, i) => lines[i]!.startsWith("Winamax Poker - "),
  idOf: (lines, start) => /HandId: #([\d-]+)/.exec(lines[start]!)?.[1] ?? null,
  translate,
};
