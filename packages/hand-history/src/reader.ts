/**
 * The line reader shared by every site: PokerStars and GGPoker write the same layout (GGPoker derives its
 * format from PokerStars'), and the other sites' hands are first translated line by line into it
 * (`sites/`), so one reader checks every hand the same way. The differences it handles:
 *
 * - GGPoker writes `*** SHOWDOWN ***` (PokerStars `*** SHOW DOWN ***`), a `Dealt to X` line for every
 *   player (cards for the hero only), a bare `X: straddle $0.04` giving the street total, summary fees
 *   `| Rake $0.06 | Jackpot $0.03 | Bingo $0 | Fortune $0 | Tax $0`, and EV-cashout lines.
 * - Runs of a board are `*** FIRST FLOP ***`, `*** SECOND TURN ***` ... on both sites, with
 *   `*** FIRST SHOW DOWN ***` (GGPoker `*** FIRST SHOWDOWN ***`) before each run's collections.
 * - Translated hands may say `X: adds $0.06` (the chips an action adds, for sites that write that rather
 *   than "raises X to Y") and `X: mucks [cards]`, and may have no `Total pot` line (`Header.totalWritten`).
 */

import { round } from "./amounts.js";
import { parseHeader } from "./header.js";
import { positionsOf } from "./positions.js";
import { LineReader } from "./reader-lines.js";
import { EPSILON, FINISHED, WINS_TOURNAMENT } from "./reader-state.js";
import type { Hand, Player, Pot } from "./types.js";

export { LineError } from "./reader-state.js";

export class HandReader extends LineReader {
  read(): Hand {
    const header = this.given ?? parseHeader(this.lines[this.start]!.trim());
    this.holeCards = header.game.holeCards;
    this.bigBlind = header.bb;
    for (this.index = this.start + 1; this.index < this.end; this.index++) {
      let line = this.lines[this.index]!;
      // Most PokerStars action lines end in a space; nothing starts with one.
      const last = line.charCodeAt(line.length - 1);
      if (last === 32 || last === 9 || line.charCodeAt(0) === 32) line = line.trim();
      if (line.length === 0) continue;
      if (this.inSummary) this.summaryLine(line);
      else this.bodyLine(line);
    }
    this.index = this.end - 1;
    while (this.index > this.start && this.lines[this.index]!.trim() === "") this.index--;
    for (const line of this.tail) this.bodyLine(line);
    if (this.given?.totalWritten === false) {
      // Sites without a "Total pot" line: everything put in, less the bet nobody called.
      const unmatched = this.unmatchedBet();
      if (unmatched) this.returnUncalled(unmatched.seat, unmatched.amount);
      let put = 0;
      for (const s of this.seats) put += s.player.invested;
      this.totalPot = round(put);
      if (this.totalPotIndex < 0) this.totalPotIndex = this.index;
    }
    if (!this.inSummary && this.totalPot === null) {
      this.fail("the hand ends before its *** SUMMARY *** (cut off?)");
    }
    if (this.totalPot === null) this.fail("no 'Total pot' line in the summary");
    if (this.table === null) this.fail("no 'Table ...' line", this.start + 1);
    return this.finish(header);
  }
  /** Whether a difference is a whole number of the antes posted (1 up to one per player who posted one). */
  protected antesExplain(difference: number): boolean {
    const antes = this.posts.filter((p) => p.type === "ante");
    if (antes.length === 0) return false;
    const ante = Math.max(...antes.map((p) => p.amount));
    const times = Math.abs(difference) / ante;
    return (
      Math.abs(times - Math.round(times)) * ante <= EPSILON &&
      Math.round(times) >= 1 &&
      Math.round(times) <= antes.length
    );
  }
  /** Whether a shortfall is at most the forced bets (antes and blinds) of a hand with antes. */
  protected forcedExplain(difference: number): boolean {
    if (difference <= EPSILON || !this.posts.some((p) => p.type === "ante")) return false;
    let forced = 0;
    for (const p of this.posts) forced += p.amount;
    return difference <= forced + EPSILON;
  }
  protected finishLine(line: string): void {
    const finished = FINISHED.exec(line);
    const wins = finished ? null : WINS_TOURNAMENT.exec(line);
    const name = finished?.[1] ?? wins?.[1];
    if (name === undefined) {
      this.fail("unrecognised line");
      return;
    }
    const prizeText = finished ? finished[3] : wins![2];
    this.finishes.push({
      player: name,
      place: finished ? Number(finished[2]) : 1,
      prize: prizeText === undefined ? null : this.amount(prizeText),
    });
  }
  protected summaryLine(line: string): void {
    if (line.startsWith("Total pot ")) {
      this.totalPotIndex = this.index;
      const parts = line.split("|");
      const first = parts[0]!.slice(10).trim();
      const space = first.indexOf(" ");
      this.totalPot = this.amount(space < 0 ? first : first.slice(0, space));
      for (let i = 1; i < parts.length; i++) {
        const part = parts[i]!.trim();
        const space2 = part.lastIndexOf(" ");
        if (space2 < 0) this.fail(`unrecognised fee "${part}"`);
        this.fees.push({
          kind: part.slice(0, space2).toLowerCase(),
          amount: this.amount(part.slice(space2 + 1)),
        });
      }
      return;
    }
    if (line.startsWith("Seat ")) {
      const colon = line.indexOf(": ");
      const seat = colon > 5 ? this.bySeat.get(Number(line.slice(5, colon))) : undefined;
      if (!seat) return;
      const from = colon + 2 + seat.player.name.length;
      // "won ($53.89) with ... (pot not awarded as player cashed out)": the share went to the site.
      const share = /won \(([^)]+)\).*\(pot not awarded as player cashed out\)$/.exec(line.slice(from));
      const cash = this.cashedOut.get(seat.player.name);
      if (share && cash) cash.share = round(cash.share + this.amount(share[1]!));
      let at = line.indexOf("showed [", from);
      if (at < 0) at = line.indexOf("mucked [", from);
      if (at >= 0) {
        const open = at + 7;
        const close = line.indexOf("]", open);
        if (close > open) this.knownCards(seat, this.cards(line.slice(open + 1, close)));
      }
    }
    // Boards, "Hand was run twice", and the per-seat results repeat what the hand already said.
  }
  protected finish(header: ReturnType<typeof parseHeader>): Hand {
    const players = this.seats.map((s) => s.player);
    players.sort((a, b) => a.seat - b.seat);
    for (const s of this.seats) s.player.dealtIn = !s.sitOut || s.active;
    const dealt = players.filter((p) => p.dealtIn);
    if (dealt.length < 2) this.fail("fewer than two players dealt in", this.start + 1);
    const positions = positionsOf(
      dealt.map((p) => p.seat),
      this.buttonSeat,
    );
    for (const p of dealt) p.position = positions.get(p.seat) ?? null;

    // Chips: what was put in must be the total pot, and the total pot must be what was collected plus fees.
    let put = 0;
    for (const p of players) {
      p.invested = round(p.invested);
      p.won = round(p.won);
      if (p.invested > p.stack + EPSILON) {
        this.fail(`${p.name} puts in ${p.invested}, more than the stack of ${p.stack}`, this.totalPotIndex);
      }
      put += p.invested;
    }
    put = round(put);
    for (const [name, cash] of this.cashedOut) {
      // The pot share a player who cashed out would have won went to the site, which paid the cash out
      // instead: the share counts as won, and the cash out less the share as the player's cashout.
      const seat = this.byName.get(name)!;
      if (cash.share > 0) {
        this.collected.push({ player: name, amount: cash.share, pot: 0, board: 0 });
        seat.player.won = round(seat.player.won + cash.share);
      }
      this.cashouts.push({ player: name, amount: round(cash.amount - cash.share) });
      this.notes.push(
        `${name} cashed out the hand for ${cash.amount}${cash.fee > 0 ? ` (a fee of ${cash.fee})` : ""}${cash.share > 0 ? `, giving up a pot share of ${cash.share}` : ""}`,
      );
    }
    let collected = 0;
    for (const c of this.collected) collected += c.amount;
    collected = round(collected);
    let fees = 0;
    for (const f of this.fees) fees += f.amount;
    fees = round(fees);
    let total = this.totalPot!;
    if (Math.abs(put - total) > EPSILON) {
      const last = this.unmatchedBet();
      const unmatched = last ? [...this.unreturned, last] : this.unreturned;
      const unmatchedSum = round(unmatched.reduce((sum, u) => sum + u.amount, 0));
      if (unmatched.length > 0 && Math.abs(put - total - unmatchedSum) <= EPSILON) {
        // No "Uncalled bet (...) returned to ..." line: the bets nobody called (on the last street, or an
        // all-in called for less on an earlier one) went back all the same.
        for (const u of unmatched) {
          this.returnUncalled(u.seat, u.amount);
          this.notes.push(
            `no "Uncalled bet" line: the ${u.amount} that ${u.seat.player.name} bet and nobody called is counted as returned`,
          );
        }
        put = round(put - unmatchedSum);
      } else if (this.antesExplain(put - total) && Math.abs(collected + fees - put) <= EPSILON) {
        // The collections and the rake account for every chip put in, and the summary's total differs by
        // antes: the total line miscounted the antes.
        this.notes.push(
          `the summary's total pot of ${total} is not what was put in (${put}): it is off by ${round(Math.abs(put - total))} of antes; the collections and the rake add up to ${put}, so the pot is read as ${put}`,
        );
        total = put;
      } else if (this.forcedExplain(put - total) && Math.abs(collected + fees - total) <= EPSILON) {
        // An ante table where the summary and the collections leave out part of the forced bets (seen on
        // PokerStars' "Ante" tables): the results are the history's, the chips it lost track of are counted
        // as withheld, and the note says how much.
        const missing = round(put - total);
        this.fees.push({ kind: "unaccounted", amount: missing });
        fees = round(fees + missing);
        this.notes.push(
          `the summary's total pot of ${total} leaves out ${missing} of the antes and blinds that were put in (${put}); the winnings are as the history gives them, and the ${missing} is counted as withheld`,
        );
        total = put;
      } else {
        this.fail(
          `the actions put ${put} in the pot, but the summary's total pot is ${total}`,
          this.totalPotIndex,
        );
      }
    }
    if (this.given?.totalWritten === false && collected + fees > total + EPSILON) {
      // Sites that count a returned bet in the collection ("wins $5.18" with the $2.14 nobody called): the
      // return is already in `uncalled`, so it comes off that player's collection.
      for (const u of this.uncalled) {
        // partypoker may write the return as a pot of its own (`wins 14,590 chips from the side pot 2`).
        const c =
          this.collected.find((x) => x.player === u.player && Math.abs(x.amount - u.amount) <= EPSILON) ??
          this.collected.findLast((x) => x.player === u.player && x.amount >= u.amount - EPSILON);
        if (!c) continue;
        c.amount = round(c.amount - u.amount);
        const player = this.byName.get(u.player)!.player;
        player.won = round(player.won - u.amount);
        collected = round(collected - u.amount);
      }
      if (collected + fees > total + EPSILON) {
        this.fail(
          `${collected} collected, more than the ${total} put in: the history leaves out chips that went in (a post or a bet it does not write), or its own figures do not add up`,
          this.totalPotIndex,
        );
      }
    }
    if (this.given?.totalWritten === false && this.fees.length === 0) {
      // Without a rake line the rake is what was not collected: more than any site takes (a tenth of the
      // pot, and half a big blind for rounding) means the collections are wrong.
      const withheld = round(total - collected);
      if (collected === 0 && total > 0) {
        this.fail(
          `nobody collects the pot of ${total}: the hand is cut off, or its winner's line is missing`,
        );
      }
      if (withheld > total * 0.1 + header.bb / 2 + EPSILON) {
        this.fail(
          `${collected} collected of a ${total} pot: the ${withheld} left would be rake, more than any site takes`,
          this.totalPotIndex,
        );
      }
    }
    const rake = round(this.fees.length > 0 ? fees : Math.max(0, total - collected));
    if (Math.abs(collected + rake - total) > EPSILON) {
      this.fail(
        `${collected} collected plus ${rake} withheld is not the total pot of ${total}`,
        this.totalPotIndex,
      );
    }
    for (const p of players) {
      let cash = 0;
      for (const c of this.cashouts) if (c.player === p.name) cash += c.amount;
      p.net = round(p.won - p.invested + cash);
    }
    this.checkCards();

    let ante = header.ante;
    for (const post of this.posts) if (post.type === "ante" && post.amount > ante) ante = post.amount;
    const tournament = header.tournament;
    if (tournament) {
      tournament.finishes = this.finishes;
      tournament.knockout ||= this.knockout;
    }
    return {
      site: header.site,
      id: header.id,
      line: this.start + 1,
      game: header.game,
      stakes: { sb: header.sb, bb: header.bb, ante, currency: header.currency },
      date: header.time.date,
      timeZone: header.time.timeZone,
      table: this.table!,
      maxSeats: this.maxSeats,
      buttonSeat: this.buttonSeat,
      players,
      hero: this.hero,
      heroCards: this.heroCards,
      posts: this.posts,
      actions: this.actions,
      boards: this.boards,
      shows: this.shows,
      // A showdown: two or more players still in at the end, whose cards were shown or mucked. The
      // "*** SHOW DOWN ***" line alone says nothing (GGPoker writes "*** SHOWDOWN ***" in every hand).
      wentToShowdown: this.seats.filter((seat) => seat.player.dealtIn && !seat.folded).length >= 2,
      uncalled: this.uncalled,
      pots: this.pots(players),
      totalPot: total,
      collected: this.collected,
      rake,
      fees: this.fees,
      cashouts: this.cashouts,
      tournament,
      notes: this.notes,
    };
  }
  /** Main and side pots from what each player put in; players who folded feed pots but cannot win them. */
  protected pots(players: Player[]): Pot[] {
    const live = players.filter((p) => p.dealtIn && !this.byName.get(p.name)!.folded);
    const levels = [...new Set(live.map((p) => p.invested))].sort((a, b) => a - b);
    const pots: Pot[] = [];
    let previous = 0;
    let assigned = 0;
    for (const level of levels) {
      let amount = 0;
      for (const p of players) amount += Math.min(p.invested, level) - Math.min(p.invested, previous);
      amount = round(amount);
      previous = level;
      if (amount <= 0) continue;
      const eligible = live.filter((p) => p.invested >= level).map((p) => p.name);
      const last = pots[pots.length - 1];
      if (last && last.players.length === eligible.length) last.amount = round(last.amount + amount);
      else pots.push({ amount, players: eligible });
      assigned += amount;
    }
    // Chips of folded players above every live player's level (not normally possible) join the last pot.
    const total = round(players.reduce((sum, p) => sum + p.invested, 0));
    const left = round(total - assigned);
    if (left > 0 && pots.length > 0)
      pots[pots.length - 1]!.amount = round(pots[pots.length - 1]!.amount + left);
    return pots;
  }
  /** No card twice: hole cards, and each board beyond what it shares with the first. */
  protected checkCards(): void {
    const seen = new Set<string>();
    const add = (card: string, what: string): void => {
      if (seen.has(card)) this.fail(`${card} appears twice (${what})`, this.totalPotIndex);
      seen.add(card);
    };
    for (const s of this.seats) {
      const cards = s.player.cards;
      if (cards === null) continue;
      for (const c of cards) add(c, s.player.name);
    }
    const first = this.boards[0]!;
    for (const c of first) add(c, "board");
    for (let b = 1; b < this.boards.length; b++) {
      const board = this.boards[b]!;
      let shared = 0;
      while (shared < board.length && board[shared] === first[shared]) shared++;
      for (let i = shared; i < board.length; i++) add(board[i]!, `board ${b + 1}`);
    }
  }
}
