/**
 * iPoker (the iPoker network's skins export XML): one `<session>` per file, its `<general>` naming the game
 * and the table, then one `<game>` per hand. Every action gives the chips it adds (`sum`); a player's `win`
 * is everything the player took back at the end, a bet nobody called included. Cards are suit then rank
 * (`SK` is the king of spades, `H10` the ten of hearts, `X` a card not shown).
 *
 *     <session sessioncode="5551234">
 *       <general>
 *         <gametype>Holdem NL €0.05/€0.10</gametype>
 *         <tablename>Montmartre</tablename>
 *         <nickname>Hero</nickname>
 *       </general>
 *       <game gamecode="8001234567">
 *         <general>
 *           <startdate>2024-03-16 20:01:05</startdate>
 *           <players>
 *             <player seat="1" name="Hero" chips="€10" dealer="1" win="€0.25" bet="€0.30" />
 *           </players>
 *         </general>
 *         <round no="0">
 *           <action no="1" player="Villain" sum="€0.05" type="1" />
 *         </round>
 *         <round no="1">
 *           <cards type="Pocket" player="Hero">SK HK</cards>
 *           <action no="3" player="Hero" sum="€0.30" type="23" />
 *         </round>
 *         <round no="2">
 *           <cards type="Flop">S7 H4 D2</cards>
 *         </round>
 *       </game>
 *     </session>
 *
 * Action types: 0 fold, 1 small blind, 2 big blind, 3 call, 4 check, 5 bet, 23 raise (`sum` is the raise-to
 * total of the street, not the chips added), 6 raise (chips added), 7 all-in (chips added), 15 ante; 8 (sitting
 * out) and 9 (sits in) say nothing about the play. Actions are played in the order of their `no`, which is not
 * always the order of the lines (a player's cards and actions may be grouped). A file written on one line is
 * read tag by tag (its errors then name the tag's line in that reading). Game types: `Holdem NL`, `Omaha PL`,
 * `Holdem L` (fixed limit). A file cut off gives its complete games; the game it ends inside is refused,
 * unless it stops right after a round (only closing tags missing) and reads. Tournament sessions carry
 * `<tournamentcode>`, `<tournamentname>` and `<buyin>`; their blinds are read from each hand's posts.
 */

import { parseHandTime } from "../dates.js";
import { type Header, HeaderError, isKnockout } from "../header.js";
import { overlong, overlongMessage, quoted } from "../line-limits.js";
import { HandReader, LineError } from "../reader.js";
import type { Game, Hand, HandParseError, ParseResult, SiteOption } from "../types.js";
import {
  amountOf,
  attr,
  buttonBefore,
  card,
  dateOf,
  type Session,
  sessionOf,
  tag,
} from "./ipoker-session.js";

/** Whether a text is an iPoker XML session (rather than a text hand history). */
export function isIPokerXml(text: string): boolean {
  const head = text
    .slice(0, 400)
    .replace(/^\uFEFF/, "")
    .trimStart();
  return head.startsWith("<?xml") || head.startsWith("<session");
}

const TYPES: Record<string, string> = { "0": "folds", "4": "checks" };

interface Game0 {
  lines: string[];
  tail: string[];
  header: Header;
}

/** Translates one `<game>` (lines [start, end) of the file) into reader lines. */
function translateGame(lines: readonly string[], start: number, end: number, s: Session, id: string): Game0 {
  const out: string[] = new Array(end - start).fill("");
  const fail = (message: string, k: number): never => {
    throw new LineError(message, k);
  };
  if (typeof s.game === "string") fail(s.game, 0);
  let game = s.game as Game;
  const inChips = game.format === "tournament";
  let pocket = 0;
  let date: string | null = null;
  const wins = new Map<string, number>();
  /** Action lines per round: their line, their `no`, their reader text. */
  const rounds = new Map<number, { k: number; no: number; text: string }[]>();
  let round_ = -1;
  let dealer = -1;
  let seatsK = -1;
  let tableK = -1;
  const seats = new Map<string, number>();
  let sbSeat = -1;
  let sb = s.sb;
  let bb = s.bb;
  let ante = 0;
  // The level's blinds and ante, which newer clients write in each game's <general>.
  const written = { sb: Number.NaN, bb: Number.NaN, ante: Number.NaN };
  const board: string[] = [];
  for (let k = 0; k < end - start; k++) {
    const line = lines[start + k]!.trim();
    if (line === "") continue;
    if (line.startsWith("<startdate>")) {
      date = tag(line, "startdate");
      continue;
    }
    const level = /^<(smallblind|bigblind|ante)>([^<]*)<\//.exec(line);
    if (level && level[2]!.trim() !== "") {
      const amount = amountOf(level[2]!, inChips);
      if (Number.isNaN(amount)) fail(`unrecognised ${level[1]} "${level[2]}"`, k);
      written[level[1] === "smallblind" ? "sb" : level[1] === "bigblind" ? "bb" : "ante"] = amount;
      continue;
    }
    if (line.startsWith("<player ")) {
      const seat = attr(line, "seat");
      const name = attr(line, "name");
      const chips = amountOf(attr(line, "chips"), inChips);
      // An empty seat some skins list (`name="" chips="$0"`).
      if (name === "" && chips === 0) continue;
      if (!seat || !name || Number.isNaN(chips))
        fail('unrecognised player (<player seat="1" name="..." chips="€10" .../>)', k);
      if (attr(line, "dealer") === "1") dealer = Number(seat);
      const win = amountOf(attr(line, "win") ?? "0", inChips);
      if (win > 0) wins.set(name!, win);
      out[k] = `Seat ${seat}: ${name} (${chips} in chips)`;
      seats.set(name!, Number(seat));
      seatsK = k;
      continue;
    }
    if (line.startsWith("</players>")) {
      tableK = k;
      continue;
    }
    const r = /^<round no="(\d+)"/.exec(line);
    if (r) {
      round_ = Number(r[1]);
      if (round_ === 1) out[k] = "*** HOLE CARDS ***";
      continue;
    }
    if (line.startsWith("<cards ")) {
      const kind = attr(line, "type");
      const text = (/>([^<]*)</.exec(line)?.[1] ?? "").trim();
      const cards = text.split(/\s+/).filter(Boolean).map(card);
      if (cards.some((c) => c === undefined)) fail(`"${text}" are not cards (SK HK, H10 DA)`, k);
      const known = cards.filter((c): c is string => typeof c === "string");
      if (kind === "Pocket") {
        const player = attr(line, "player") ?? "";
        pocket = Math.max(pocket, cards.length);
        if (known.length === 0) continue;
        out[k] =
          player === s.hero && known.length === cards.length
            ? `Dealt to ${player} [${known.join(" ")}]`
            : `${player}: shows [${known.join(" ")}]`;
        continue;
      }
      const name = kind === "Flop" ? "FLOP" : kind === "Turn" ? "TURN" : kind === "River" ? "RIVER" : null;
      if (name === null) fail(`unknown cards type "${kind}"`, k);
      out[k] =
        board.length === 0
          ? `*** FLOP *** [${known.join(" ")}]`
          : `*** ${name} *** [${board.join(" ")}] [${known.join(" ")}]`;
      board.push(...known);
      continue;
    }
    if (line.startsWith("<action ")) {
      const player = attr(line, "player");
      const type = attr(line, "type") ?? "";
      // `sum="DP"`: disconnect protection, the player is all-in for what they have put in, adding nothing.
      const protectedAllIn = type === "7" && attr(line, "sum") === "DP";
      const sum = protectedAllIn ? 0 : amountOf(attr(line, "sum") ?? "0", inChips);
      if (!player || Number.isNaN(sum))
        fail('unrecognised action (<action no="1" player="..." sum="€0.05" type="1"/>)', k);
      const simple = TYPES[type];
      if (simple) out[k] = `${player}: ${simple}`;
      else if (type === "1" || type === "2" || type === "15") {
        // A big blind of more than the table's is a returning player's small and big blind together.
        const tableBb = Number.isNaN(written.bb) ? s.bb : written.bb;
        const both = type === "2" && game.format === "cash" && sum > tableBb + 1e-9;
        const what =
          type === "1"
            ? "small blind"
            : both
              ? "small & big blinds"
              : type === "2"
                ? "big blind"
                : "the ante";
        if (type === "1") sbSeat = seats.get(player!) ?? -1;
        if (type === "1" && game.format === "tournament") sb = sum;
        if (type === "2" && game.format === "tournament") bb = sum;
        if (type === "15") ante = Math.max(ante, sum);
        out[k] = `${player}: posts ${what} ${sum}`;
      } else if (type === "3") out[k] = `${player}: calls ${sum}`;
      else if (type === "5") out[k] = `${player}: bets ${sum}`;
      else if (type === "23") out[k] = `${player}: raises to ${sum}`;
      else if (type === "6") out[k] = `${player}: adds ${sum}`;
      else if (protectedAllIn) out[k] = `${player}: is all-in, disconnected`;
      else if (type === "7") out[k] = `${player}: adds ${sum} and is all-in`;
      else if (type === "8" || type === "9") continue;
      else fail(`unknown action type ${type}`, k);
      const no = Number(attr(line, "no"));
      let slots = rounds.get(round_);
      if (!slots) rounds.set(round_, (slots = []));
      slots.push({ k, no: Number.isNaN(no) ? k : no, text: out[k]! });
    }
  }
  if (seatsK < 0) fail("no players in the game", 0);
  if (game.holeCards === 0) {
    // The game type names no game: 2 cards dealt are hold'em, 4 or 5 Omaha.
    if (pocket !== 2 && pocket !== 4 && pocket !== 5)
      fail(`"${game.label}" names no game (hold'em or Omaha), and no player's cards tell which`, 0);
    game = { ...game, variant: pocket === 2 ? "holdem" : "omaha", holeCards: pocket };
  }
  if (dealer < 0 && game.format === "tournament") dealer = buttonBefore(sbSeat, [...seats.values()]);
  if (dealer < 0) {
    const why = game.format === "tournament" ? ", and no small blind to find the button by" : "";
    fail(`no dealer among the players (dealer="1")${why}`, tableK);
  }
  out[tableK < 0 ? seatsK : tableK] =
    `Table '${s.table}' ${s.maxSeats ? `${s.maxSeats}-max ` : ""}Seat #${dealer} is the button`;
  if (date === null && round_ <= 0 && wins.size === 0)
    fail(
      "this hand holds only the seats and the blinds (no date, no cards, no play, no winner): the file left the rest of it out",
      0,
    );
  if (date === null) fail("no <startdate> in the game: the hand is cut short, or not iPoker's export", 0);
  const time = parseHandTime(dateOf(date!));
  if (time === null) fail(`"${date}" is not a date and time`, 0);
  // Actions in the order of their numbers, in the lines of their round.
  for (const slots of rounds.values()) {
    const texts = [...slots].sort((a, b) => a.no - b.no).map((x) => x.text);
    slots.forEach((slot, i) => {
      out[slot.k] = texts[i]!;
    });
  }
  // A player's win is all they took back, a bet nobody called included: the reader takes that part off.
  const tail: string[] = [];
  for (const [name, amount] of wins) if (amount > 0) tail.push(`${name} collected ${amount} from pot`);
  let tournament: Header["tournament"] = null;
  if (s.tournament) {
    tournament = {
      ...s.tournament,
      freeroll: s.tournament.buyIn === null,
      level: null,
      finishes: [],
      knockout: false,
    };
    tournament.knockout = isKnockout(tournament);
  }
  // The game's own <smallblind>, <bigblind> and <ante> are the level's (a short stack may post less).
  if (!Number.isNaN(written.sb)) sb = written.sb;
  if (!Number.isNaN(written.bb)) bb = written.bb;
  if (!Number.isNaN(written.ante)) ante = written.ante;
  // A tournament hand where nobody posts the small blind (its player was knocked out): half the big one.
  if (Number.isNaN(sb) && !Number.isNaN(bb) && game.format === "tournament") sb = bb / 2;
  if ((Number.isNaN(sb) || Number.isNaN(bb)) && game.format === "tournament")
    fail(
      "nobody posts a blind in this tournament hand and the file does not write the level's blinds, so its stakes are unknown",
      0,
    );
  if (Number.isNaN(sb) || Number.isNaN(bb)) fail("no blinds in the game type (Holdem NL €0.05/€0.10)", 0);
  const header: Header = {
    site: "ipoker",
    id,
    game,
    sb,
    bb,
    ante,
    currency: s.currency,
    time: time!,
    tournament,
    totalWritten: false,
  };
  return { lines: out, tail, header };
}

/** The index of the last line up to `from` that is not blank. */
function lastLine(lines: readonly string[], from: number): number {
  let k = from;
  while (k > 0 && lines[k]!.trim() === "") k--;
  return k;
}

/** Parses an iPoker XML session: every `<game>` a hand. */
export function parseIPoker(text: string, site: SiteOption): ParseResult {
  let lines = text.replace(/^\uFEFF/, "").split(/\r\n?|\n/);
  // A session written without line breaks, or a game's tags run together (`<game ...><general><startdate>`):
  // one tag a line.
  const TAGS = /<(?:game|general|players|player|round|action|cards|startdate)\b/g;
  if (lines.some((l) => (l.match(TAGS)?.length ?? 0) > 1)) {
    lines = text
      .replace(/^\uFEFF/, "")
      .replace(/>\s*</g, ">\n<")
      .split("\n");
  }
  const hands: Hand[] = [];
  const errors: HandParseError[] = [];
  const first = lines.findIndex((l) => l.trim().startsWith("<game "));
  const headEnd = first < 0 ? lines.length : first;
  const longHead = overlong(lines, 0, headEnd);
  if (longHead >= 0) {
    const message = `${overlongMessage(lines[longHead]!)} (it is in the session's header, so no hand of the file is read)`;
    return {
      hands,
      errors: [
        {
          handId: null,
          site: "ipoker",
          line: longHead + 1,
          handLine: 1,
          message,
          text: quoted(lines[longHead]),
        },
      ],
    };
  }
  const head = lines.slice(0, headEnd).join("\n");
  const session = sessionOf(head, /<session sessioncode="([^"]*)"/.exec(head)?.[1] ?? "");
  if (first < 0) {
    // An XML file that is no iPoker session (another network's export, a program's settings) holds no hand
    // of any site read here; an iPoker session without a game holds no hand either.
    const session_ = /<session\b/.test(head);
    errors.push({
      handId: null,
      site: session_ ? "ipoker" : null,
      line: 1,
      handLine: 1,
      message: session_
        ? "this iPoker file holds no hand: its <session> has no <game>"
        : "no hand found: this XML file is not an iPoker hand history (iPoker writes a <session> of <game> hands; other sites' XML, such as Boss Media's <HISTORY>, is not read)",
      text: quoted(lines[0]),
    });
    return { hands, errors };
  }
  for (let i = first; i < lines.length; i++) {
    const open = lines[i]!.trim();
    if (!open.startsWith("<game ")) continue;
    // The game's lines end at its `</game>`; a file cut off (a client still writing it, a copy interrupted)
    // ends inside its last game, and a game cut off inside a file runs into the next `<game`.
    let end = i + 1;
    let next = -1;
    for (; end < lines.length; end++) {
      const l = lines[end]!.trim();
      if (l.startsWith("</game>")) break;
      if (l.startsWith("<game ")) {
        next = end;
        break;
      }
    }
    const id = attr(open, "gamecode");
    const report = (message: string, index: number): void => {
      errors.push({
        handId: id,
        site: "ipoker",
        line: index + 1,
        handLine: i + 1,
        message,
        text: quoted(lines[index]),
      });
    };
    const long = overlong(lines, i, next < 0 ? Math.min(end + 1, lines.length) : next);
    if (long >= 0) report(overlongMessage(lines[long]!), long);
    else if (site !== "auto" && site !== "ipoker")
      report(`an iPoker hand, but the site asked for is ${site}`, i);
    else if (id === null) report('a <game> without its gamecode="..."', i);
    else {
      // A game cut off is refused, unless it stops right after one of its rounds (the export writes a game
      // whole, its results first: only the closing tags are missing); the games before and after it are read.
      const cut = end >= lines.length || next >= 0;
      const last = lastLine(lines, (next < 0 ? lines.length : next) - 1);
      const where = next < 0 ? "the file ends inside it" : "the next <game> starts before its </game>";
      if (cut && lines[last]!.trim() !== "</round>") {
        const detail = next < 0 ? `${where} (no </game>)` : where;
        report(`this hand is cut off: ${detail}, so its play and its result are incomplete`, last);
      } else {
        try {
          const g = translateGame(lines, i, cut ? last + 1 : end + 1, session, id);
          const hand = new HandReader(g.lines, 0, g.lines.length, g.header, g.tail).read();
          hand.line = i + 1;
          if (cut)
            hand.notes.push(
              `${next < 0 ? "the file ends" : "the next <game> starts"} after this hand's last round, before its </game>: the hand is read as written, and its chips add up`,
            );
          hands.push(hand);
        } catch (error) {
          const suffix = cut ? ` (this hand is cut off: ${where})` : "";
          if (error instanceof LineError) report(error.message + suffix, i + error.index);
          else if (error instanceof HeaderError) report(error.message + suffix, i);
          else throw error;
        }
      }
    }
    i = next < 0 ? end : next - 1;
  }
  return { hands, errors };
}
