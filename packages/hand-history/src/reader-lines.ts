/**
 * The lines of a hand's body, before its summary (see `reader.ts`): seats, the table, posts, actions,
 * shows, boards, returned bets and collections.
 */

import { round } from "./amounts.js";
import {
  ALL_IN,
  BOARD_SIZE,
  EPSILON,
  INFO,
  MARKER,
  MAX_SEATS,
  ReaderState,
  RUNS,
  type Seat,
  STREET_NAMES,
  STREET_OF,
  TABLE,
} from "./reader-state.js";
import type { Player, Post } from "./types.js";

export abstract class LineReader extends ReaderState {
  /** A tournament's finishing places (`reader.ts`). */
  protected abstract finishLine(line: string): void;

  protected bodyLine(line: string): void {
    if (line.startsWith("*** ")) {
      this.marker(line);
      return;
    }
    if (this.street < 0 && this.posts.length === 0) {
      if (line.startsWith("Seat ")) {
        this.seatLine(line);
        return;
      }
      if (line.startsWith("Table '")) {
        this.tableLine(line);
        return;
      }
    }
    // "name: action", with names that may themselves hold ": ".
    const colon = line.indexOf(": ");
    if (colon > 0) {
      let seat = this.byName.get(line.slice(0, colon));
      let at = colon;
      if (!seat) {
        for (const s of this.seats) {
          if (line.startsWith(s.player.name) && line.startsWith(": ", s.player.name.length)) {
            seat = s;
            at = s.player.name.length;
            break;
          }
        }
      }
      if (seat) {
        this.playerLine(seat, line.slice(at + 2));
        return;
      }
    }
    if (line.startsWith("Dealt to ")) {
      this.dealtLine(line);
      return;
    }
    if (line.startsWith("Uncalled bet (")) {
      this.uncalledLine(line);
      return;
    }
    const collected = line.indexOf(" collected ");
    if (collected > 0 && this.byName.has(line.slice(0, collected))) {
      this.collectedLine(line, collected);
      return;
    }
    if (line.endsWith("congratulations!") || line.includes(" finished the tournament in ")) {
      this.finishLine(line);
      return;
    }
    if (INFO.test(line)) {
      if (/ bounty | for eliminating | elimination of /.test(line)) this.knockout = true;
      return;
    }
    // "Name: " with nothing after it (PokerStars writes one for each player all in, since 2021).
    if (line.endsWith(":") && this.byName.has(line.slice(0, -1))) return;
    if (line.startsWith("Cash Drop to Pot"))
      this.fail("GGPoker's Cash Drop to Pot (money the site adds to the pot) is not read");
    const cashed = /^(.+) cashed out the hand for (\S+)(?: \| Cash Out Fee (\S+))?$/.exec(line);
    if (cashed) {
      if (!this.byName.has(cashed[1]!)) this.fail(`"${cashed[1]}" is not seated at this table`);
      const fee = cashed[3] === undefined ? 0 : this.amount(cashed[3]);
      this.cashedOut.set(cashed[1]!, { amount: this.amount(cashed[2]!), fee, share: 0 });
      return;
    }
    if (colon > 0) {
      const rest = line.slice(colon + 2);
      // Players who are not seated may still sit out or come back.
      if (rest === "sits out" || rest === "is sitting out" || rest === "has returned") return;
      this.fail(`"${line.slice(0, colon)}" is not seated at this table`);
    }
    if (line === "Hand cancelled")
      this.fail("the site cancelled this hand: nothing in it was played for real");
    this.fail("unrecognised line");
  }
  protected tableLine(line: string): void {
    const m = TABLE.exec(line);
    if (!m) this.fail("unrecognised table line (Table 'name' 6-max Seat #1 is the button)");
    this.table = m[1]!;
    this.maxSeats = m[2] === undefined ? null : Number(m[2]);
    this.buttonSeat = Number(m[3]);
  }
  protected seatLine(line: string): void {
    // "Seat 3: Bob (UK) ($10 in chips, $5 bounty) is sitting out": the name is everything before the last
    // " (" ahead of " in chips".
    const colon = line.indexOf(": ", 5);
    const chips = line.indexOf(" in chips", colon);
    const open = chips < 0 ? -1 : line.lastIndexOf(" (", chips);
    const seatNo = colon > 5 ? Number(line.slice(5, colon)) : Number.NaN;
    if (!Number.isInteger(seatNo) || open <= colon) {
      this.fail("unrecognised seat line (Seat 1: name ($10 in chips))");
    }
    let close = chips + 9;
    let bounty: number | null = null;
    if (line.startsWith(", ", close)) {
      const end = line.indexOf(" bounty)", close);
      if (end < 0) this.fail("unrecognised seat line (Seat 1: name ($10 in chips))");
      bounty = this.amount(line.slice(close + 2, end));
      this.knockout = true;
      close = end + 7;
    }
    if (line.charCodeAt(close) !== 41) this.fail("unrecognised seat line (Seat 1: name ($10 in chips))");
    const name = line.slice(colon + 2, open);
    if (this.bySeat.has(seatNo)) this.fail(`seat ${seatNo} listed twice`);
    if (this.byName.has(name)) this.fail(`player "${name}" listed twice`);
    const trailer = line.slice(close + 1);
    const player: Player = {
      seat: seatNo,
      name,
      stack: this.amount(line.slice(open + 2, chips)),
      dealtIn: true,
      position: null,
      bounty,
      cards: null,
      invested: 0,
      won: 0,
      net: 0,
      allIn: false,
    };
    if (this.seats.length >= MAX_SEATS) this.fail(`more than ${MAX_SEATS} seat lines: no table seats more`);
    const seat: Seat = {
      player,
      live: 0,
      folded: false,
      active: false,
      sitOut: trailer.includes("sitting out") || trailer.includes("out of hand"),
    };
    this.seats.push(seat);
    this.byName.set(name, seat);
    this.bySeat.set(seatNo, seat);
  }
  protected marker(line: string): void {
    const m = MARKER.exec(line);
    if (!m) this.fail("unrecognised *** line ***");
    const run = m[1] === undefined ? 0 : RUNS[m[1]]!;
    const name = m[2]!;
    if (name === "HOLE CARDS") {
      if (this.street >= 0) this.fail("*** HOLE CARDS *** twice");
      this.street = 0;
      return;
    }
    if (name === "SUMMARY") {
      this.inSummary = true;
      return;
    }
    if (name === "SHOW DOWN" || name === "SHOWDOWN") {
      this.run = run;
      return;
    }
    const street = STREET_OF[name];
    if (street === undefined) this.fail(`unsupported section "*** ${name} ***" (hold'em and Omaha only)`);
    const cards: string[] = [];
    const groups = m[3]!;
    for (let open = groups.indexOf("["); open >= 0; open = groups.indexOf("[", open + 1)) {
      const close = groups.indexOf("]", open);
      if (close < 0) this.fail("a [ without ]");
      for (const card of this.cards(groups.slice(open + 1, close))) cards.push(card);
    }
    if (cards.length !== BOARD_SIZE[street]) {
      this.fail(`the ${name.toLowerCase()} needs ${BOARD_SIZE[street]} board cards, found ${cards.length}`);
    }
    while (this.boards.length <= run) this.boards.push([]);
    this.boards[run] = cards;
    if (run === 0 && street > this.street) {
      if (this.street < 0) this.fail(`*** ${name} *** before *** HOLE CARDS ***`);
      this.street = street;
      if (this.given?.totalWritten === false) {
        // Sites that write no "Uncalled bet" line: a bet nobody matched (a call all-in for less) went back.
        const unmatched = this.unmatchedBet();
        if (unmatched) this.returnUncalled(unmatched.seat, unmatched.amount);
      } else {
        const unmatched = this.unmatchedBet();
        if (unmatched) this.unreturned.push(unmatched);
      }
      for (const s of this.seats) s.live = 0;
    }
  }
  protected playerLine(seat: Seat, rest: string): void {
    const player = seat.player;
    let allIn = false;
    if (rest.endsWith(ALL_IN)) {
      allIn = true;
      rest = rest.slice(0, -ALL_IN.length);
    }
    // Fixed limit: "bets $2 and has reached the $8 cap".
    const cap = rest.indexOf(" and has reached the ");
    if (cap > 0) rest = rest.slice(0, cap);
    const street = STREET_NAMES[Math.max(0, this.street)]!;
    if (rest === "folds" || rest.startsWith("folds [")) {
      if (rest.length > 5) this.knownCards(seat, this.cards(rest.slice(7, rest.lastIndexOf("]"))));
      seat.folded = true;
      this.act(seat, street, "fold", 0, null, false);
      return;
    }
    if (rest === "checks") {
      this.act(seat, street, "check", 0, null, false);
      return;
    }
    // iPoker's disconnect protection: all-in for what the player has put in, adding nothing.
    if (rest === "is all-in, disconnected") {
      player.allIn = true;
      return;
    }
    if (rest.startsWith("calls ")) {
      const amount = this.amount(rest.slice(6));
      if (!allIn) this.liveSecondBlind(seat, amount);
      this.put(seat, amount);
      this.act(seat, street, "call", amount, null, allIn);
      return;
    }
    if (rest.startsWith("bets ")) {
      const amount = this.amount(rest.slice(5));
      this.put(seat, amount);
      this.act(seat, street, "bet", amount, null, allIn);
      return;
    }
    if (rest.startsWith("raises to ")) {
      // Translated hands of sites that give the raise-to total only (iPoker).
      const total = this.amount(rest.slice(10));
      const facing = this.largestBet();
      if (total < seat.live - EPSILON) this.fail(`raises to ${total}, less than the ${seat.live} already in`);
      this.put(seat, round(total - seat.live));
      this.act(seat, street, "raise", round(total - facing), total, allIn);
      return;
    }
    if (rest.startsWith("raises ")) {
      const to = rest.indexOf(" to ", 7);
      if (to < 0) this.fail('a raise without " to "');
      const by = this.amount(rest.slice(7, to));
      const total = this.amount(rest.slice(to + 4));
      if (total < seat.live - EPSILON) this.fail(`raises to ${total}, less than the ${seat.live} already in`);
      this.put(seat, total - seat.live);
      this.act(seat, street, "raise", by, total, allIn);
      return;
    }
    if (rest.startsWith("posts ")) {
      this.postLine(seat, rest.slice(6), allIn);
      return;
    }
    if (rest.startsWith("adds ")) {
      // Translated hands of sites that write the chips an action adds (`raises [$0.06]`, `is all-In [$5]`):
      // a call when it does not go past the bet faced, else a bet or a raise.
      const added = this.amount(rest.slice(5));
      const facing = this.largestBet();
      const to = round(seat.live + added);
      this.put(seat, added);
      if (to <= facing + EPSILON) this.act(seat, street, "call", added, null, allIn);
      else if (facing === 0) this.act(seat, street, "bet", added, null, allIn);
      else this.act(seat, street, "raise", round(to - facing), to, allIn);
      return;
    }
    if (rest.startsWith("straddle ")) {
      // GGPoker: the amount is the straddler's total on the street.
      const total = this.amount(rest.slice(9));
      const added = round(total - seat.live);
      this.put(seat, added);
      seat.active = true;
      this.posts.push({ player: player.name, type: "straddle", amount: added, allIn });
      if (allIn) player.allIn = true;
      return;
    }
    if (rest.startsWith("shows [")) {
      const close = rest.indexOf("]");
      if (close < 0) this.fail("shows without a closing ]");
      const cards = this.cards(rest.slice(7, close));
      const tail = rest.slice(close + 1).trim();
      const description = tail.startsWith("(") && tail.endsWith(")") ? tail.slice(1, -1) : null;
      this.knownCards(seat, cards);
      this.shows.push({ player: player.name, cards, description });
      return;
    }
    if (rest.startsWith("mucks [")) {
      this.knownCards(seat, this.cards(rest.slice(7, rest.lastIndexOf("]"))));
      return;
    }
    if (
      rest === "mucks hand" ||
      rest === "doesn't show hand" ||
      rest === "doesn't show" ||
      rest === "has returned" ||
      rest === "Chooses to EV Cashout"
    ) {
      return;
    }
    if (rest === "sits out" || rest === "is sitting out" || rest === "sitting out") {
      if (this.street < 0) seat.sitOut = true;
      return;
    }
    const cashout = /^(Pays Cashout Risk|Receives Cashout) \((.+)\)$/.exec(rest);
    if (cashout) {
      const amount = this.amount(cashout[2]!);
      this.cashouts.push({
        player: player.name,
        amount: cashout[1] === "Receives Cashout" ? amount : -amount,
      });
      return;
    }
    if (rest.startsWith("get an all-in insurance")) this.fail("GGPoker's all-in insurance is not read");
    this.fail(`unrecognised action "${rest}"`);
  }
  protected postLine(seat: Seat, rest: string, allIn: boolean): void {
    let type: Post["type"];
    let amountText: string;
    if (rest.startsWith("small blind ")) [type, amountText] = ["sb", rest.slice(12)];
    else if (rest.startsWith("big blind ")) [type, amountText] = ["bb", rest.slice(10)];
    else if (rest.startsWith("the ante ")) [type, amountText] = ["ante", rest.slice(9)];
    else if (rest.startsWith("ante ")) [type, amountText] = ["ante", rest.slice(5)];
    else if (rest.startsWith("small & big blinds ")) [type, amountText] = ["sb+bb", rest.slice(19)];
    else if (rest.startsWith("straddle ")) [type, amountText] = ["straddle", rest.slice(9)];
    else if (rest.startsWith("missed blind ")) [type, amountText] = ["dead", rest.slice(13)];
    else this.fail(`unrecognised post "${rest}"`);
    // A second small blind (a returning player's, out of position) is dead money, as a missed blind is.
    const second = type === "sb" && this.posts.some((p) => p.type === "sb");
    if (second) type = "dead";
    const amount = this.amount(amountText);
    seat.active = true;
    seat.player.invested += amount;
    // Antes and missed blinds are dead money: they do not count toward the bet the player faces; of a
    // returning player's small and big blinds only the big blind does.
    if (type === "sb+bb") seat.live += Math.min(amount, this.bigBlind);
    else if (type !== "ante" && type !== "dead") seat.live += amount;
    if (allIn) seat.player.allIn = true;
    const post: Post = { player: seat.player.name, type, amount, allIn };
    if (second) seat.secondBlind = post;
    this.posts.push(post);
  }
  protected dealtLine(line: string): void {
    const body = line.slice(9);
    const bracket = body.endsWith("]") ? body.lastIndexOf(" [") : -1;
    const name = bracket < 0 ? body : body.slice(0, bracket);
    const seat = this.byName.get(name);
    if (!seat) this.fail(`"${name}" is dealt cards but not seated`);
    seat.active = true;
    if (bracket < 0) return; // GGPoker: a line per player, cards for the hero only
    const cards = this.cards(body.slice(bracket + 2, -1));
    if (cards.length !== this.holeCards) {
      this.fail(
        `${cards.length} hole cards dealt to ${name}, but this hand's game deals ${this.holeCards}: its cards and its game type disagree`,
      );
    }
    this.knownCards(seat, cards);
    if (this.hero === null) {
      this.hero = name;
      this.heroCards = cards;
    }
  }
  protected uncalledLine(line: string): void {
    // "Uncalled bet ($0.95) returned to LovID"
    const close = line.indexOf(") returned to ", 14);
    if (close < 0) this.fail("unrecognised uncalled bet line");
    const name = line.slice(close + 14);
    const seat = this.byName.get(name);
    if (!seat) this.fail(`uncalled bet returned to "${name}", who is not seated`);
    this.returnUncalled(seat, this.amount(line.slice(14, close)));
  }
  protected collectedLine(line: string, at: number): void {
    const seat = this.byName.get(line.slice(0, at))!;
    const rest = line.slice(at + 11);
    const from = rest.indexOf(" from ");
    if (from < 0) this.fail('a collection without " from "');
    const amount = this.amount(rest.slice(0, from));
    const label = rest.slice(from + 6);
    let pot: number;
    if (label === "pot" || label === "main pot") pot = 0;
    else if (label === "side pot") pot = 1;
    else {
      const m = /^side pot-?(\d+)$/.exec(label);
      if (!m) this.fail(`unrecognised pot "${label}"`);
      pot = Number(m[1]);
    }
    seat.player.won += amount;
    this.collected.push({ player: seat.player.name, amount, pot, board: this.run });
  }
}
