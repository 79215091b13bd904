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

import { parseAmount, round } from "./amounts.js";
import { type Header, parseHeader } from "./header.js";
import { positionsOf } from "./positions.js";
import type {
  Action,
  Cashout,
  Collection,
  Fee,
  Finish,
  Hand,
  Player,
  Post,
  Pot,
  Show,
  Street,
  Uncalled,
} from "./types.js";

/** Amounts closer than this are equal (sites round to cents; chips are whole). */
const EPSILON = 0.005;

/** A problem on one line of a hand (0-based index into the lines given to the reader). */
export class LineError extends Error {
  readonly index: number;
  constructor(message: string, index: number) {
    super(message);
    this.index = index;
  }
}

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

/** Lines that say nothing about the play of the hand. */
const INFO =
  / (?:joins the table at seat #\d+|leaves the table|is disconnected|is connected|has timed out(?: while (?:being )?disconnected)?|has returned|will be allowed to play after the button|was removed from the table.*|said, ".*|re-buys .*|adds .*|wins (?:the )?\S+ bounty .*|wins \S+ for eliminating .*|wins \S+ for splitting the elimination of .*|split the \S+ bounty for eliminating .*|wins an entry .*|is sitting out|sits out|has been disqualified.*|is being treated as all-in)$|^Betting is capped$|^No low hand qualified$/;

const FINISHED = /^(.+) finished the tournament in (\d+)(?:st|nd|rd|th) place(?: and received (\S+?)\.?)?$/;
const WINS_TOURNAMENT = /^(.+) wins the tournament and receives (\S+) - congratulations!$/;
const TABLE = /^Table '(.*)' (?:(\d+)-max )?(?:\([^)]*\) )?Seat #(\d+) is the button/;
const MARKER = /^\*\*\* (?:(FIRST|SECOND|THIRD) )?([A-Z][A-Z ]*?) \*\*\*\s*(.*)$/;
const RUNS: Record<string, number> = { FIRST: 0, SECOND: 1, THIRD: 2 };
const STREET_OF: Record<string, number> = { FLOP: 1, TURN: 2, RIVER: 3 };
const BOARD_SIZE = [0, 3, 4, 5];
const STREET_NAMES: Street[] = ["preflop", "flop", "turn", "river"];
const ALL_IN = " and is all-in";

/** The mutable per-player state while a hand is read. */
interface Seat {
  player: Player;
  live: number;
  folded: boolean;
  active: boolean;
  sitOut: boolean;
}

export class HandReader {
  private readonly seats: Seat[] = [];
  private readonly byName = new Map<string, Seat>();
  private readonly bySeat = new Map<number, Seat>();
  private readonly posts: Post[] = [];
  private readonly actions: Record<Street, Action[]> = { preflop: [], flop: [], turn: [], river: [] };
  private readonly boards: string[][] = [[]];
  private readonly shows: Show[] = [];
  private readonly uncalled: Uncalled[] = [];
  private readonly collected: Collection[] = [];
  private readonly cashouts: Cashout[] = [];
  private readonly fees: Fee[] = [];
  private readonly finishes: Finish[] = [];
  private readonly notes: string[] = [];
  /** PokerStars' all-in cash outs: what each player took, and the pot share given up for it. */
  private readonly cashedOut = new Map<string, { amount: number; fee: number; share: number }>();
  /** Bets nobody matched when a street ended without an "Uncalled bet" line (older PokerStars histories). */
  private readonly unreturned: { seat: Seat; amount: number }[] = [];
  private knockout = false;
  private hero: string | null = null;
  private heroCards: string[] | null = null;
  private table: string | null = null;
  private maxSeats: number | null = null;
  private buttonSeat = -1;
  /** -1 before the hole cards, then the index in STREET_NAMES. */
  private street = -1;
  private run = 0;
  private inSummary = false;
  private totalPot: number | null = null;
  private totalPotIndex = -1;
  private index = 0;
  private holeCards = 2;
  private bigBlind = 0;

  private readonly lines: readonly string[];
  private readonly start: number;
  private readonly end: number;

  /** A translated hand's header (other sites); null: the first line is a PokerStars or GGPoker header. */
  private readonly given: Header | null;

  /** Lines read after the hand's own, as if on its last line (iPoker's collections and returned bets). */
  private readonly tail: readonly string[];

  constructor(
    lines: readonly string[],
    start: number,
    end: number,
    given: Header | null = null,
    tail: readonly string[] = [],
  ) {
    this.lines = lines;
    this.start = start;
    this.end = end;
    this.given = given;
    this.tail = tail;
  }

  private fail(message: string, index = this.index): never {
    throw new LineError(message, index);
  }

  private amount(text: string): number {
    const value = parseAmount(text);
    if (Number.isNaN(value)) this.fail(`"${text}" is not an amount`);
    return value;
  }

  /** Cards in brackets: `[Ah Kd]` (the text between the brackets). */
  private cards(text: string): string[] {
    const cards: string[] = [];
    for (const card of text.split(" ")) {
      if (card.length === 0) continue;
      if (card.length !== 2 || !RANKS.includes(card[0]!) || !SUITS.includes(card[1]!)) {
        this.fail(
          `"${card}" is not a card (2c to Ah; a client set to another language writes cards not read here)`,
        );
      }
      cards.push(card);
    }
    return cards;
  }

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

  private bodyLine(line: string): void {
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

  private tableLine(line: string): void {
    const m = TABLE.exec(line);
    if (!m) this.fail("unrecognised table line (Table 'name' 6-max Seat #1 is the button)");
    this.table = m[1]!;
    this.maxSeats = m[2] === undefined ? null : Number(m[2]);
    this.buttonSeat = Number(m[3]);
  }

  private seatLine(line: string): void {
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

  private marker(line: string): void {
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

  private playerLine(seat: Seat, rest: string): void {
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
    if (rest.startsWith("calls ")) {
      const amount = this.amount(rest.slice(6));
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

  private postLine(seat: Seat, rest: string, allIn: boolean): void {
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
    if (type === "sb" && this.posts.some((p) => p.type === "sb")) type = "dead";
    const amount = this.amount(amountText);
    seat.active = true;
    seat.player.invested += amount;
    // Antes and missed blinds are dead money: they do not count toward the bet the player faces; of a
    // returning player's small and big blinds only the big blind does.
    if (type === "sb+bb") seat.live += Math.min(amount, this.bigBlind);
    else if (type !== "ante" && type !== "dead") seat.live += amount;
    if (allIn) seat.player.allIn = true;
    this.posts.push({ player: seat.player.name, type, amount, allIn });
  }

  /** Chips put in by a call, bet or raise. */
  private put(seat: Seat, amount: number): void {
    seat.player.invested += amount;
    seat.live += amount;
  }

  private act(
    seat: Seat,
    street: Street,
    type: Action["type"],
    amount: number,
    to: number | null,
    allIn: boolean,
  ): void {
    if (seat.folded && type !== "fold") this.fail(`${seat.player.name} acts after folding`);
    seat.active = true;
    if (allIn) seat.player.allIn = true;
    this.actions[street].push({ player: seat.player.name, type, amount, to, allIn });
  }

  /** Records hole cards; a partial show (one card of two) is kept in `shows` only. */
  private knownCards(seat: Seat, cards: string[]): void {
    if (cards.length > this.holeCards) {
      this.fail(`${cards.length} hole cards for ${seat.player.name}; the game deals ${this.holeCards}`);
    }
    const known = seat.player.cards;
    if (known !== null && cards.some((c) => !known.includes(c))) {
      this.fail(`${seat.player.name}'s cards were ${known.join(" ")}`);
    }
    if (known === null && cards.length === this.holeCards) seat.player.cards = cards;
  }

  private dealtLine(line: string): void {
    const body = line.slice(9);
    const bracket = body.endsWith("]") ? body.lastIndexOf(" [") : -1;
    const name = bracket < 0 ? body : body.slice(0, bracket);
    const seat = this.byName.get(name);
    if (!seat) this.fail(`"${name}" is dealt cards but not seated`);
    seat.active = true;
    if (bracket < 0) return; // GGPoker: a line per player, cards for the hero only
    const cards = this.cards(body.slice(bracket + 2, -1));
    if (cards.length !== this.holeCards) {
      this.fail(`${cards.length} hole cards dealt to ${name}; the game deals ${this.holeCards}`);
    }
    this.knownCards(seat, cards);
    if (this.hero === null) {
      this.hero = name;
      this.heroCards = cards;
    }
  }

  private uncalledLine(line: string): void {
    // "Uncalled bet ($0.95) returned to LovID"
    const close = line.indexOf(") returned to ", 14);
    if (close < 0) this.fail("unrecognised uncalled bet line");
    const name = line.slice(close + 14);
    const seat = this.byName.get(name);
    if (!seat) this.fail(`uncalled bet returned to "${name}", who is not seated`);
    this.returnUncalled(seat, this.amount(line.slice(14, close)));
  }

  /** Whether a difference is a whole number of the antes posted (1 up to one per player who posted one). */
  private antesExplain(difference: number): boolean {
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
  private forcedExplain(difference: number): boolean {
    if (difference <= EPSILON || !this.posts.some((p) => p.type === "ante")) return false;
    let forced = 0;
    for (const p of this.posts) forced += p.amount;
    return difference <= forced + EPSILON;
  }

  /** The largest bet of the street so far (the big blind before the flop). */
  private largestBet(): number {
    let most = 0;
    for (const s of this.seats) if (s.live > most) most = s.live;
    return most;
  }

  /** The part of the last street's largest bet that nobody matched, and whose it is; null when none. */
  private unmatchedBet(): { seat: Seat; amount: number } | null {
    let top: Seat | null = null;
    let second = 0;
    for (const s of this.seats) {
      if (top === null || s.live > top.live) {
        if (top !== null) second = Math.max(second, top.live);
        top = s;
      } else second = Math.max(second, s.live);
    }
    // A player who folded leaves dead money (a dead small blind), never a bet nobody called.
    if (top?.folded) return null;
    const amount = top === null ? 0 : round(top.live - second);
    return top !== null && amount > EPSILON ? { seat: top, amount } : null;
  }

  private returnUncalled(seat: Seat, amount: number): void {
    seat.player.invested = round(seat.player.invested - amount);
    seat.live -= amount;
    this.uncalled.push({ player: seat.player.name, amount });
  }

  private collectedLine(line: string, at: number): void {
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

  private finishLine(line: string): void {
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

  private summaryLine(line: string): void {
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

  private finish(header: ReturnType<typeof parseHeader>): Hand {
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
        this.fail(`${collected} collected, more than the ${total} put in`, this.totalPotIndex);
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
  private pots(players: Player[]): Pot[] {
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
  private checkCards(): void {
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
