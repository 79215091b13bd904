/**
 * 888poker and partypoker: both write amounts in brackets, a `#Game No : N` line, a `***** ... Hand History
 * for Game N *****` line, the table and the button on their own lines, no colon after player names, and no
 * `Total pot` line. Amounts in brackets are the chips the action adds: `raises [$0.30]` puts $0.30 more in
 * (a raise to $0.30 for a first raise before the flop, to $0.35 for the small blind who had $0.05 in).
 *
 * 888poker (cash; tournaments, with `Tournament #N $10 + $1 - Table #4 9 Max (Real Money)` as table line):
 *
 *     #Game No : 1047283914
 *     ***** 888poker Hand History for Game 1047283914 *****
 *     $0.05/$0.10 Blinds No Limit Holdem - *** 14 03 2024 18:45:12
 *     Table Sochi 6 Max (Real Money)
 *     Seat 2 is the button
 *     Total number of players : 5
 *     Seat 1: Zorro77 ( $10.40 )
 *     Hero posts small blind [$0.05]
 *     MrsPotts posts big blind [$0.10]
 *     ** Dealing down cards **
 *     Dealt to Hero [ Ah, Qd ]
 *     Kalimero raises [$0.30]
 *     ** Dealing flop ** [ Qs, 8c, 3d ]
 *     ** Summary **
 *     Hero shows [ Ah, Qd ]
 *     Hero collected [ $8.55 ]
 *
 * The time has no zone (kept as written, like GGPoker's). partypoker (cash games):
 *
 *     #Game No : 23011482215
 *     ***** Hand History for Game 23011482215 *****
 *     $0.05/$0.10 USD NL Texas Hold'em - Saturday, March 16, 21:05:47 CET 2024
 *     Table Bordeaux (Real Money)
 *     Seat 5 is the button
 *     Total number of players : 6/6
 *     Seat 1: kraken_rider ( $10.25 USD )
 *     pinto_bean posts small blind [$0.05 USD].
 *     Hero raises [$0.35 USD]
 *     kraken_rider is all-In  [$10.25 USD]
 *     ** Dealing Flop ** [ 9s, 4d, 2c ]
 *     kraken_rider doesn't show [ Ad, Qd ] high card Ace.
 *     Hero wins $4.75 USD from the main pot with a pair of Tens.
 */

import { parseAmount } from "../amounts.js";
import type { Header } from "../header.js";
import { MAX_SEATS } from "../reader-state.js";
import type { Site } from "../types.js";
import { bare, headerOf, symbolFirst, tournamentOf } from "./bracket-header.js";
import {
  cardList,
  type Dialect,
  dealtLine,
  lineError,
  playerAt,
  streetLine,
  type Translation,
} from "./dialect.js";
import { isGameTableFormat, translateGameTable } from "./party-game-table.js";
import {
  impliedBlinds,
  levelOf,
  numberByTable,
  type SeatedPlayer,
  TOURNAMENT_NOTICE,
} from "./party-tournament.js";

const GAME_NO = /^#Game No\s*:\s*(\d+)/;
/** `***** 888poker Hand History for Game N *****` (also `888poker Snap Poker`, skins such as `LuckyAcePoker.com`); partypoker writes no name. */
const HISTORY = /^\*{5} (?:(.+?) )?Hand History [Ff]or Game (\w+) \*{5}/;
/**
 * `Seat 1: name ( $10.25 USD )`; partypoker's Mac client writes `seat 1:`; files saved by a HUD add the
 * player's statistics, `Seat 1: name ( $2.75 USD ) - VPIP: 21, PFR: 14, 3B: 5, AF: 1,7, Hands: 139`.
 */
const SEAT = /^[Ss]eat ?(\d+): (.+) \( ?([^()]*?) ?\)(?: - VPIP: [\w\s:,.%-]*)?\s*$/;
const BUTTON = /^Seat (\d+) is the button$/;
const DEALING = /^\*\* Dealing (down cards|[Ff]lop|[Tt]urn|[Rr]iver) \*\*\s*(?:\[(.*)\])?$/;

interface Partial {
  id: string | null;
  header: Header | null;
}

/** Reads one hand of either site; `site` picks the header lines and the summary verbs. */
function translate(site: Site, lines: readonly string[], start: number, end: number): Translation {
  if (site === "partypoker" && isGameTableFormat(lines, start, end))
    return translateGameTable(lines, start, end);
  const out: string[] = new Array(end - start).fill("");
  const p: Partial = { id: null, header: null };
  const names: string[] = [];
  let table: string | null = null;
  let tableK = -1;
  let maxSeats: number | null = null;
  let board: string[] = [];
  // For partypoker's tournament hands, whose blinds go unwritten: the seats, the button, the antes.
  const seated: SeatedPlayer[] = [];
  const antes = new Map<string, number>();
  let button = -1;
  let blindsPosted = false;
  let noSmallBlind = false;
  let dealK = -1;
  // Players who joined the table during the hand (`X has joined the table.`).
  const joined = new Set<string>();
  for (let k = 0; k < end - start; k++) {
    const line = lines[start + k]!.trim();
    if (line === "") continue;
    let m: RegExpExecArray | null;
    if ((m = /^(.+) has joined the table\.?$/.exec(line))) joined.add(m[1]!);
    if ((m = GAME_NO.exec(line))) {
      p.id = m[1]!;
      continue;
    }
    if ((m = HISTORY.exec(line))) {
      p.id ??= m[2]!;
      continue;
    }
    if (p.header === null) {
      p.header = headerOf(site, symbolFirst(line), lines, start + k, p.id, k);
      continue;
    }
    if (table === null && (line.startsWith("Table ") || line.startsWith("Tournament #"))) {
      const t =
        /^(?:Tournament #(\d+) (.*?) - )?Table (.*?)(?: (\d+) Max)? \(\s*(Real Money|Play Money|Practice Play)\s*\)/.exec(
          line,
        );
      if (!t) lineError("unrecognised table line (Table Name 6 Max (Real Money))", k);
      // 888poker's play money tables: chips, not currency.
      if (t[5] === "Practice Play" && t[1] === undefined) p.header = { ...p.header, currency: null };
      table = t[3]!.replace(/^#/, "");
      maxSeats = t[4] === undefined ? null : Number(t[4]);
      tableK = k;
      if (t[1] !== undefined) p.header = tournamentOf(p.header, t[1], t[2]!, k);
      else if (p.header.tournament) numberByTable(p.header.tournament, table, p.id ?? "");
      continue;
    }
    if ((m = BUTTON.exec(line))) {
      if (table === null) lineError("the button line comes before the table line", k);
      button = Number(m[1]);
      out[k] = `Table '${table}' ${maxSeats === null ? "" : `${maxSeats}-max `}Seat #${m[1]} is the button`;
      continue;
    }
    if (line.startsWith("Total number of players")) continue;
    if ((m = SEAT.exec(line))) {
      if (seated.length >= MAX_SEATS) lineError(`more than ${MAX_SEATS} seat lines: no table seats more`, k);
      const amount = bare(m[3]!);
      if (Number.isNaN(parseAmount(amount))) lineError(`"${m[3]}" is not a stack`, k);
      names.push(m[2]!);
      seated.push({ seat: Number(m[1]), name: m[2]!, stack: parseAmount(amount), k });
      out[k] = `Seat ${m[1]}: ${m[2]} (${amount} in chips)`;
      continue;
    }
    if (/^[Ss]eat ?\d+:/.test(line)) lineError("unrecognised seat line (Seat 1: name ( $10.25 USD ))", k);
    if ((m = DEALING.exec(line))) {
      const what = m[1]!.toLowerCase();
      if (what === "down cards") {
        out[k] = "*** HOLE CARDS ***";
        dealK = k;
        continue;
      }
      ({ line: out[k]!, board } = streetLine(what, m[2] ?? "", board));
      continue;
    }
    if (line === "** Summary **" || line.startsWith("** Dealing ")) continue;
    if (line.startsWith("Dealt to ")) {
      out[k] = dealtLine(line) ?? line;
      continue;
    }
    const name = playerAt(line, names);
    if (name !== null) {
      out[k] = runTogether(line, names)
        .map((part) => {
          const who = playerAt(part, names)!;
          return playerLine(who, part.slice(who.length + 1).trim(), k);
        })
        .join("\n");
      // A player who joins lists a stack of 0 until the buy-in is counted: their stack is not written.
      const stack = seated.find((x) => x.name === name)?.stack;
      if (stack === 0 && joined.has(name) && /: (?:posts|calls|bets|adds|raises)/.test(out[k]!))
        lineError(
          `"${name}" joined the table during this hand and plays it, but partypoker wrote their stack as 0 (before their buy-in): the hand cannot be replayed without it`,
          k,
        );
      // partypoker's header may give the table's buy-in instead of the blinds: the posts say them.
      const post = /: posts (small blind|big blind) (\S+)$/.exec(out[k]!);
      if (post) blindsPosted = true;
      const ante = /^(.+): posts the ante (\S+)/.exec(out[k]!);
      if (ante) antes.set(ante[1]!, (antes.get(ante[1]!) ?? 0) + parseAmount(ante[2]!));
      if (post && Number.isNaN(p.header.bb) && post[1] === "big blind") p.header.bb = parseAmount(post[2]!);
      if (post && Number.isNaN(p.header.sb) && post[1] === "small blind") p.header.sb = parseAmount(post[2]!);
      continue;
    }
    // Table talk and notices: `X has joined the table`, `X is connected`, chat `X: hi`, partypoker's
    // `Game #N starts.` (the next hand's) and time-bank reminders.
    if (
      /^Game #\d+ starts\.$|^Your time bank will be activated|^Due to current high memory use|^Chat has been disabled|^>You have options at |^Table Closed$|^Congratulations to player /.test(
        line,
      )
    )
      continue;
    if (line.startsWith("The hand history for this hand number is not available"))
      lineError("partypoker did not write this hand (its history is not available in the file)", k);
    if (TOURNAMENT_NOTICE.test(line)) {
      if (line.startsWith("There is no Small Blind")) noSmallBlind = true;
      // The game line may still give the level before this hand's: these lines give the hand's own.
      if (p.header?.tournament) p.header = levelOf(p.header, line);
      continue;
    }
    // A player who is not among the seats: one who joined after the seats were listed, or a misspelt name.
    const actor = /^(\S+) (?:posts|raises|calls|bets|folds|checks|is all-In)\b/.exec(line);
    if (actor)
      lineError(
        joined.has(actor[1]!)
          ? `"${actor[1]}" joined the table after the seats were listed and plays this hand, but partypoker wrote no seat or stack for them: the hand cannot be replayed without them`
          : `"${actor[1]}" plays this hand but has no seat line, so their seat and stack are unknown (the seats are listed incompletely, or the file spells the name two ways)`,
        k,
      );
    if (
      / (?:has (?:joined|left) the table|is (?:dis)?connected|is sitting out|has been reconnected)\.?$/.test(
        line,
      )
    )
      continue;
    if (line.includes(": ")) continue;
    lineError("unrecognised line", k);
  }
  if (p.header === null)
    lineError("no game line (the stakes, the game and the time) after the hand number", 0);
  if (site === "partypoker" && p.header.tournament && !blindsPosted && dealK >= 0) {
    // The players dealt in: every seated player the hand names after the seats (an ante, an action, a win).
    const named = new Set(out.map((line) => /^(.+?)(?:: | collected )/.exec(line)?.[1]));
    const dealt = seated.filter((s) => named.has(s.name));
    out[dealK] = [...impliedBlinds(dealt, button, p.header, antes, noSmallBlind), out[dealK]].join("\n");
    // The others sit out (dealt no cards, no position).
    for (const s of seated) if (!named.has(s.name) && s.k !== undefined) out[s.k] += " is sitting out";
  }
  if (tableK < 0) lineError("no 'Table ...' line", 0);
  if (Number.isNaN(p.header.bb))
    lineError("no blinds: neither the game line nor a big blind post gives them", 0);
  if (Number.isNaN(p.header.sb)) p.header.sb = p.header.bb / 2;
  return { header: p.header, lines: out, id: p.id };
}

/**
 * partypoker's Mac client sometimes writes a line without its line break: `Player3 is sitting outPlayer4 posts
 * big blind [$0,25 USD].`, `... with two pairs, Aces and Queens.Player4 wins $27,36 USD ...`. The line's
 * parts, split where a seated player's name follows a full stop or `sitting out` with no space.
 */
function runTogether(line: string, names: readonly string[]): string[] {
  const parts: string[] = [];
  let from = 0;
  let j = from + (playerAt(line, names)?.length ?? 0) + 1;
  for (; j < line.length; j++) {
    const cut = line[j - 1] === "." || (j - from >= 11 && line.startsWith("sitting out", j - 11));
    if (!cut || playerAt(line.slice(j), names) === null) continue;
    parts.push(line.slice(from, j));
    from = j;
    j = from + (playerAt(line.slice(from), names)?.length ?? 0);
  }
  parts.push(line.slice(from));
  return parts;
}

const AMOUNT_IN_BRACKETS = /^\[\s*([^\]]+?)\s*\]\.?$/;

/** A player's line, `name` cut off: the reader's `name: ...` form. */
function playerLine(name: string, rest: string, k: number): string {
  const amountOf = (text: string): string => {
    const m = AMOUNT_IN_BRACKETS.exec(text.trim());
    if (!m) lineError(`no amount in brackets in "${text}"`, k);
    const value = bare(m[1]!);
    if (Number.isNaN(parseAmount(value))) lineError(`"${m[1]}" is not an amount`, k);
    return value;
  };
  let m: RegExpExecArray | null;
  if (
    (m = /^posts (small blind|big blind \+ dead|big blind|ante|dead blind|small and big blinds?) (.*)$/.exec(
      rest,
    ))
  ) {
    const kind =
      { "small blind": "small blind", "big blind": "big blind", ante: "the ante" }[m[1]!] ??
      "small & big blinds";
    // A dead blind of both parts: `[$1 + $2]`.
    const parts = m[2]!.replace(/^\[|\]\.?$/g, "").split("+");
    if (parts.length > 1) {
      const sum = parts.reduce((t, x) => t + parseAmount(bare(x)), 0);
      if (Number.isNaN(sum)) lineError(`"${m[2]}" is not an amount`, k);
      // `[0,01 $ + 0 $]`: only the missed small blind, dead money; the player's bet is still nothing.
      if (parts.length === 2 && parseAmount(bare(parts[1]!)) === 0)
        return `${name}: posts missed blind ${parseAmount(bare(parts[0]!))}`;
      return `${name}: posts ${kind} ${Math.round(sum * 100) / 100}`;
    }
    return `${name}: posts ${kind} ${amountOf(m[2]!)}`;
  }
  // `folds.` on some tables, `Forward Folds` (fastforward tables folding ahead of their turn).
  if (/^(?:Forward )?[Ff]olds\.?$/.test(rest)) return `${name}: folds`;
  if (rest === "checks" || rest === "checks.") return `${name}: checks`;
  if ((m = /^(calls|bets) ?(\[.*)$/.exec(rest))) return `${name}: ${m[1]} ${amountOf(m[2]!)}`;
  if ((m = /^raises ?(\[.*)$/.exec(rest))) return `${name}: adds ${amountOf(m[1]!)}`;
  if ((m = /^(?:is )?all-[Ii]n\s*(\[.*)$/.exec(rest)))
    return `${name}: adds ${amountOf(m[1]!)} and is all-in`;
  if ((m = /^(shows|mucks|doesn't show)\s+\[(.*?)\]/.exec(rest))) {
    const cards = cardList(m[2]!);
    return m[1] === "shows" ? `${name}: shows [${cards}]` : `${name}: mucks [${cards}]`;
  }
  if (rest === "did not show his hand" || rest === "does not show cards." || rest === "mucks") {
    return `${name}: mucks hand`;
  }
  if ((m = /^collected \[\s*(.+?)\s*\]$/.exec(rest))) return `${name} collected ${bare(m[1]!)} from pot`;
  if (
    (m =
      /^wins (?:(?:Hi|Lo) \()?([^\s()]+(?:\s+(?:USD|EUR|GBP))?)(?: chips)?\)?(?: chips)?(?: from\s+(?:the\s+)?(main pot|side pot(?: #?\d+)?).*)?\.?$/.exec(
        rest,
      ))
  ) {
    const side = m[2] === undefined ? null : /(\d+)$/.exec(m[2]);
    const pot =
      m[2] === undefined ? "pot" : m[2] === "main pot" ? "main pot" : `side pot-${side ? side[1] : 1}`;
    const value = bare(m[1]!);
    if (Number.isNaN(parseAmount(value))) lineError(`"${m[1]}" is not an amount`, k);
    return `${name} collected ${value} from ${pot}`;
  }
  // Before the cards, a player sitting out is dealt none (the reader ignores it later in the hand).
  if (/^(?:is sitting out|sits out)\.?$/.test(rest)) return `${name}: sits out`;
  if (
    /^(?:has (?:joined|left) the table|is (?:dis)?connected|is disconnected\. We will wait .*|is sitting out|sits out|has returned|will be using (?:his|her|their) time bank.*|shows[\dA-Z,]+ +for low|did not respond in time|could not respond in time\.\(disconnected\)|has been reconnected(?: and has \d+ seconds to act)?|finished in \d+ place)\.?$/.test(
      rest,
    )
  )
    return "";
  lineError(`unrecognised action "${rest}"`, k);
}

function dialect(site: Site, isOurs: (historyLine: string) => boolean): Dialect {
  return {
    site,
    startsAt(lines, i) {
      const line = lines[i]!;
      if (line.startsWith("#Game No")) {
        for (let j = i + 1; j < lines.length && j < i + 6; j++) {
          const next = lines[j]!.trim();
          if (next !== "") return isOurs(next);
        }
        return false;
      }
      if (!line.startsWith("***** ") || !isOurs(line)) return false;
      // The history line right after "#Game No" belongs to that hand.
      for (let j = i - 1; j >= 0; j--) {
        const before = lines[j]!.trim();
        if (before !== "") return !before.startsWith("#Game No");
      }
      return true;
    },
    idOf(lines, start, end) {
      for (let i = start; i < end && i < start + 3; i++) {
        const m = GAME_NO.exec(lines[i]!.trim()) ?? HISTORY.exec(lines[i]!.trim());
        if (m) return m[m.length - 1]!;
      }
      return null;
    },
    translate: (lines, start, end) => translate(site, lines, start, end),
  };
}

export const BRACKET_DIALECTS: readonly Dialect[] = [
  dialect("888poker", (l) => /^\*{5} \S.*? Hand History [Ff]or Game/.test(l)),
  dialect("partypoker", (l) => /^\*{5} Hand History [Ff]or Game/.test(l)),
];
