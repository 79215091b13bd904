/**
 * The state of a hand while `HandReader` reads it (see `reader.ts`), with the helpers that change it: the
 * seats, posts, actions and collections so far, and the chips each player has in on the current street.
 */

import { parseAmount, round } from "./amounts.js";
import type { Header } from "./header.js";
import type {
  Action,
  Cashout,
  Collection,
  Fee,
  Finish,
  Player,
  Post,
  Show,
  Street,
  Uncalled,
} from "./types.js";

/** Amounts closer than this are equal (sites round to cents; chips are whole). */
export const EPSILON = 0.005;

/** A problem on one line of a hand (0-based index into the lines given to the reader). */
export class LineError extends Error {
  readonly index: number;
  constructor(message: string, index: number) {
    super(message);
    this.index = index;
  }
}

export const RANKS = "23456789TJQKA";
export const SUITS = "cdhs";

/** Lines that say nothing about the play of the hand. */
export const INFO =
  / (?:joins the table at seat #\d+|leaves the table|is disconnected|is connected|has timed out(?: while (?:being )?disconnected)?|has returned|will be allowed to play after the button|was removed from the table.*|said, ".*|re-buys .*|adds .*|wins (?:the )?\S+ bounty .*|wins \S+ for eliminating .*|wins \S+ for splitting the elimination of .*|split the \S+ bounty for eliminating .*|wins an entry .*|is sitting out|sits out|has been disqualified.*|is being treated as all-in)$|^Betting is capped$|^No low hand qualified$/;

export const FINISHED =
  /^(.+) finished the tournament in (\d+)(?:st|nd|rd|th) place(?: and received (\S+?)\.?)?$/;
export const WINS_TOURNAMENT = /^(.+) wins the tournament and receives (\S+) - congratulations!$/;
/** Seat lines a hand may hold at most: no table seats more than ten (and a file must not make lookups slow). */
export const MAX_SEATS = 10;

export const TABLE = /^Table '(.*)' (?:(\d+)-max )?(?:\([^)]*\) )?Seat #(\d+) is the button/;
export const MARKER = /^\*\*\* (?:(FIRST|SECOND|THIRD) )?([A-Z][A-Z ]*?) \*\*\*\s*(.*)$/;
export const RUNS: Record<string, number> = { FIRST: 0, SECOND: 1, THIRD: 2 };
export const STREET_OF: Record<string, number> = { FLOP: 1, TURN: 2, RIVER: 3 };
export const BOARD_SIZE = [0, 3, 4, 5];
export const STREET_NAMES: Street[] = ["preflop", "flop", "turn", "river"];
export const ALL_IN = " and is all-in";

/** The mutable per-player state while a hand is read. */
export interface Seat {
  player: Player;
  live: number;
  folded: boolean;
  active: boolean;
  sitOut: boolean;
  /** A second small blind the player posted, read as dead money until a call shows it counted. */
  secondBlind?: Post;
}

export abstract class ReaderState {
  protected readonly seats: Seat[] = [];
  protected readonly byName = new Map<string, Seat>();
  protected readonly bySeat = new Map<number, Seat>();
  protected readonly posts: Post[] = [];
  protected readonly actions: Record<Street, Action[]> = { preflop: [], flop: [], turn: [], river: [] };
  protected readonly boards: string[][] = [[]];
  protected readonly shows: Show[] = [];
  protected readonly uncalled: Uncalled[] = [];
  protected readonly collected: Collection[] = [];
  protected readonly cashouts: Cashout[] = [];
  protected readonly fees: Fee[] = [];
  protected readonly finishes: Finish[] = [];
  protected readonly notes: string[] = [];
  /** PokerStars' all-in cash outs: what each player took, and the pot share given up for it. */
  protected readonly cashedOut = new Map<string, { amount: number; fee: number; share: number }>();
  /** Bets nobody matched when a street ended without an "Uncalled bet" line (older PokerStars histories). */
  protected readonly unreturned: { seat: Seat; amount: number }[] = [];
  protected knockout = false;
  protected hero: string | null = null;
  protected heroCards: string[] | null = null;
  protected table: string | null = null;
  protected maxSeats: number | null = null;
  protected buttonSeat = -1;
  /** -1 before the hole cards, then the index in STREET_NAMES. */
  protected street = -1;
  protected run = 0;
  protected inSummary = false;
  protected totalPot: number | null = null;
  protected totalPotIndex = -1;
  protected index = 0;
  protected holeCards = 2;
  protected bigBlind = 0;
  protected readonly lines: readonly string[];
  protected readonly start: number;
  protected readonly end: number;
  /** A translated hand's header (other sites); null: the first line is a PokerStars or GGPoker header. */
  protected readonly given: Header | null;
  /** Lines read after the hand's own, as if on its last line (iPoker's collections and returned bets). */
  protected readonly tail: readonly string[];
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
    if (given?.notes) this.notes.push(...given.notes);
    this.tail = tail;
  }
  protected fail(message: string, index = this.index): never {
    throw new LineError(message, index);
  }
  protected amount(text: string): number {
    const value = parseAmount(text);
    if (Number.isNaN(value)) this.fail(`"${text}" is not an amount`);
    return value;
  }
  /** Cards in brackets: `[Ah Kd]` (the text between the brackets). */
  protected cards(text: string): string[] {
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
  /**
   * A second small blind is dead money, unless the player's call counts it: `posts small blind $10`, then
   * `calls $5` to a big blind of $15 (a fixed-limit table's live second small blind). Before the call's chips.
   */
  protected liveSecondBlind(seat: Seat, call: number): void {
    const post = seat.secondBlind;
    const facing = this.largestBet();
    if (!post || seat.live + call >= facing - EPSILON) return;
    if (Math.abs(seat.live + post.amount + call - facing) > EPSILON) return;
    post.type = "sb";
    seat.live += post.amount;
    seat.secondBlind = undefined;
    this.notes.push(`${seat.player.name}'s second small blind counts toward their call: a live blind`);
  }
  /** Chips put in by a call, bet or raise. */
  protected put(seat: Seat, amount: number): void {
    seat.player.invested += amount;
    seat.live += amount;
  }
  protected act(
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
  protected knownCards(seat: Seat, cards: string[]): void {
    if (cards.length > this.holeCards) {
      this.fail(
        `${cards.length} hole cards for ${seat.player.name}, but this hand's game deals ${this.holeCards}: its cards and its game type disagree`,
      );
    }
    const known = seat.player.cards;
    if (known !== null && cards.some((c) => !known.includes(c))) {
      this.fail(`${seat.player.name}'s cards were ${known.join(" ")}`);
    }
    if (known === null && cards.length === this.holeCards) seat.player.cards = cards;
  }
  /** The largest bet of the street so far (the big blind before the flop). */
  protected largestBet(): number {
    let most = 0;
    for (const s of this.seats) if (s.live > most) most = s.live;
    return most;
  }
  /** The part of the last street's largest bet that nobody matched, and whose it is; null when none. */
  protected unmatchedBet(): { seat: Seat; amount: number } | null {
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
  protected returnUncalled(seat: Seat, amount: number): void {
    seat.player.invested = round(seat.player.invested - amount);
    seat.live -= amount;
    this.uncalled.push({ player: seat.player.name, amount });
  }
}
