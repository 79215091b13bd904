/**
 * The hand model: one `Hand` per hand of a hand-history file, the same shape for every site.
 *
 * Amounts are plain numbers in the hand's unit: currency units for cash games (`0.25` is 25 cents; see
 * `Stakes.currency`) and chips for tournaments and play money (`Stakes.currency` null). Cards are two
 * characters, rank then suit, as the sites write them: `"Ah"`, `"Td"`, `"2c"`. Players are named by their
 * screen names, exactly as written (GGPoker writes the hero as `Hero` and everybody else as a hex id).
 */

/** The sites whose hand histories the parsers read, in the order the documentation lists them. */
export const SITES = ["pokerstars", "ggpoker", "888poker", "winamax", "partypoker", "ipoker"] as const;

/** One of `SITES`. */
export type Site = (typeof SITES)[number];

/** Which parser `parseHandHistories` uses: `auto` reads each hand's first line. */
export type SiteOption = Site | "auto";

/**
 * Betting streets. Posts (blinds, antes, straddles) happen before `preflop` and are in `Hand.posts`.
 */
export type Street = "preflop" | "flop" | "turn" | "river";

export const STREETS: readonly Street[] = ["preflop", "flop", "turn", "river"];

/**
 * Table positions, the names the preflop packs of this repository use.
 *
 * Positions come from the button and the players dealt in, in acting order (last three are always
 * `BTN SB BB`; heads-up the button posts the small blind and is `SB`, as in the `plo6hu` game):
 *
 * | dealt in | positions, first to act preflop first |
 * | -------- | ---------------------------------------------- |
 * | 2        | SB BB                                          |
 * | 3        | BTN SB BB                                      |
 * | 4        | CO BTN SB BB                                   |
 * | 5        | HJ CO BTN SB BB                                |
 * | 6        | UTG HJ CO BTN SB BB                            |
 * | 7        | UTG LJ HJ CO BTN SB BB                         |
 * | 8        | UTG UTG1 LJ HJ CO BTN SB BB                    |
 * | 9        | UTG UTG1 UTG2 LJ HJ CO BTN SB BB               |
 * | 10       | UTG UTG1 UTG2 UTG3 LJ HJ CO BTN SB BB          |
 */
export type Position = "UTG" | "UTG1" | "UTG2" | "UTG3" | "LJ" | "HJ" | "CO" | "BTN" | "SB" | "BB";

/** ISO 4217 codes of the currencies the sites print (`$` USD, `€` EUR, `£` GBP). */
export type Currency = "USD" | "EUR" | "GBP";

/**
 * What is played.
 *
 * @example
 * // "Hold'em No Limit ($0.05/$0.10 USD)"
 * { variant: "holdem", holeCards: 2, hiLo: false, limit: "nl", format: "cash", label: "Hold'em No Limit" }
 * // "Omaha Hi/Lo Pot Limit ($0.50/$1.00 USD)"
 * { variant: "omaha", holeCards: 4, hiLo: true, limit: "pl", format: "cash", label: "Omaha Hi/Lo Pot Limit" }
 * // GGPoker "Tournament #258198994, $25 Bounty Special Hold'em No Limit - Level12(200/400)"
 * { variant: "holdem", holeCards: 2, hiLo: false, limit: "nl", format: "tournament", label: "Hold'em No Limit" }
 */
export interface Game {
  variant: "holdem" | "omaha";
  /** Hole cards per player: 2 for hold'em, 4 for Omaha, 5 or 6 for "5 Card Omaha", "PLO-5", "PLO-6". */
  holeCards: number;
  /** Hi/Lo split pots ("Omaha Hi/Lo"). */
  hiLo: boolean;
  /** `nl` no limit, `pl` pot limit, `fl` fixed limit. */
  limit: "nl" | "pl" | "fl";
  format: "cash" | "tournament";
  /** The game as the site wrote it (`Hold'em No Limit`, `PLO`). */
  label: string;
}

/**
 * Blinds and ante, in the hand's unit.
 *
 * @example
 * // "Hold'em No Limit (€0.02/€0.05 EUR)" with no antes posted
 * { sb: 0.02, bb: 0.05, ante: 0, currency: "EUR" }
 * // tournament "Level V (50/100)" with "posts the ante 10" lines
 * { sb: 50, bb: 100, ante: 10, currency: null }
 */
export interface Stakes {
  sb: number;
  bb: number;
  /** The largest ante posted in the hand (or the ante of the level, when the header gives it); 0 if none. */
  ante: number;
  /**
   * Cash games: the currency of every amount. Null: tournament or play-money chips, or a cash game in a
   * currency not listed here (iPoker's skins also play in SEK, DKK, RSD...: the amounts are read as written).
   */
  currency: Currency | null;
}

/**
 * A tournament hand's tournament.
 *
 * @example
 * // PokerStars "Tournament #2900000000, $10+$1 USD Hold'em No Limit - Level IV (25/50)"
 * { id: "2900000000", name: null, buyIn: [10, 1], currency: "USD", freeroll: false, level: "IV", finishes: [], knockout: false }
 * // GGPoker "Tournament #258198994, $25 Bounty Special Hold'em No Limit - Level12(200/400)"
 * { id: "258198994", name: "Bounty Special", buyIn: [25], currency: "USD", freeroll: false, level: "12", finishes: [],
 *   knockout: true }
 */
export interface Tournament {
  id: string;
  /** The tournament's name when the header has one (GGPoker); null otherwise. */
  name: string | null;
  /** The buy-in parts as written: `[prize pool, fee]`, `[prize pool, bounty, fee]`, or one total. Null: none. */
  buyIn: number[] | null;
  /** Currency of the buy-in; null for chips, play money and freerolls. */
  currency: Currency | null;
  freeroll: boolean;
  /** The blind level as written (`IV`, `12`); null when absent. */
  level: string | null;
  /** Players who finished in this hand (`... finished the tournament in 3rd place and received $5.20.`). */
  finishes: Finish[];
  /**
   * A bounty (knockout, PKO) tournament: players carry bounties (`(1500 in chips, $5 bounty)`), the buy-in
   * has a bounty part (`$4.40+$4.50+$1.10`), the name says so (`Bounty Hunters`, `PKO`, `Knockout`, `KO`),
   * or a line pays a bounty. Chip-EV ranges do not apply to these (bounties change every call).
   */
  knockout: boolean;
}

export interface Finish {
  player: string;
  /** 1 for the winner. */
  place: number;
  /** Prize in the buy-in currency; null when none is written. */
  prize: number | null;
}

/**
 * A seated player.
 *
 * @example
 * // "Seat 4: numbush ($38.74 in chips)", small blind, shows Ah Ks and wins $23.57 after putting in $12.26
 * { seat: 4, name: "numbush", stack: 38.74, dealtIn: true, position: "SB", bounty: null, cards: ["Ah", "Ks"],
 *   invested: 12.26, won: 23.57, net: 11.31, allIn: false }
 */
export interface Player {
  seat: number;
  name: string;
  /** Stack at the start of the hand. */
  stack: number;
  /** False for a player seated but not in the hand (sitting out, or moved in "out of hand"). */
  dealtIn: boolean;
  /** Null for players not dealt in. */
  position: Position | null;
  /** Bounty on the player's head (PokerStars knockout tournaments, `(1500 in chips, $5 bounty)`). */
  bounty: number | null;
  /** Hole cards when known: the hero's, or shown or mucked face up. Null when unknown. */
  cards: string[] | null;
  /** Everything put into the pot (antes, blinds, bets), less uncalled bets returned. */
  invested: number;
  /** Everything collected from the pot(s). */
  won: number;
  /** `won - invested`, plus any GGPoker EV-cashout amount (`Hand.cashouts`). */
  net: number;
  /** Whether the player was all-in at some point in the hand. */
  allIn: boolean;
}

/**
 * A forced bet before the cards are dealt: `ante`, `sb`, `bb`, `straddle`, `sb+bb` (a returning player's
 * "posts small & big blinds": `amount` is both together; the small blind part is dead), or `dead` (a missed
 * blind posted on return, GGPoker's "posts missed blind $2": dead money, not part of the player's bet).
 *
 * @example
 * // "Nightfox82: posts small blind $0.05"
 * { player: "Nightfox82", type: "sb", amount: 0.05, allIn: false }
 */
export interface Post {
  player: string;
  type: "ante" | "sb" | "bb" | "sb+bb" | "straddle" | "dead";
  /** Chips this post put in (for GGPoker's `straddle $X`, which gives the street total, the difference). */
  amount: number;
  allIn: boolean;
}

/**
 * A betting action on a street.
 *
 * `amount` is what the line says: the chips a call adds, the size of a bet, or for a raise the increment
 * over the bet faced (the `X` of `raises X to Y`); `to` is the raise-to total (`Y`). Folds and checks have
 * amount 0 and `to` null.
 *
 * @example
 * // "matze1987: raises $8.94 to $10.94 and is all-in"
 * { player: "matze1987", type: "raise", amount: 8.94, to: 10.94, allIn: true }
 * // "Zubasa89: calls $0.24"
 * { player: "Zubasa89", type: "call", amount: 0.24, to: null, allIn: false }
 */
export interface Action {
  player: string;
  type: "fold" | "check" | "call" | "bet" | "raise";
  amount: number;
  to: number | null;
  allIn: boolean;
}

/** Cards shown (`numbush: shows [Ah Ks] (two pair, Kings and Fours)`). */
export interface Show {
  player: string;
  cards: string[];
  /** The site's description of the hand, without parentheses; null when none is written. */
  description: string | null;
}

/**
 * A pot the betting made: `pots[0]` is the main pot, then the side pots in order.
 *
 * Computed from what each player put in and who folded, before rake.
 *
 * @example
 * // A ($10) all-in called by B and C, who bet on to $30 each: two pots
 * [{ amount: 30, players: ["A", "B", "C"] }, { amount: 40, players: ["B", "C"] }]
 */
export interface Pot {
  amount: number;
  /** Players who can win it (not folded, put in at least its level), in seat order. */
  players: string[];
}

/**
 * One "collected" line: `LovID collected $1.21 from pot`, `X collected $10 from side pot-2`.
 *
 * `pot` is 0 for "pot" and "main pot", n for "side pot-n" ("side pot" alone is 1). `board` is the index
 * in `Hand.boards` of the run the amount was won on (always 0 unless the hand was run twice).
 */
export interface Collection {
  player: string;
  amount: number;
  pot: number;
  board: number;
}

/** An uncalled bet given back: `Uncalled bet ($0.95) returned to LovID`. */
export interface Uncalled {
  player: string;
  amount: number;
}

/**
 * One part of what the site withheld from the pot, as the summary lists it: PokerStars has `rake` only;
 * GGPoker adds `jackpot`, `bingo`, `fortune` and `tax` (`Total pot $4.11 | Rake $0.06 | Jackpot $0.03 ...`).
 */
export interface Fee {
  kind: string;
  amount: number;
}

/**
 * A GGPoker EV cashout, money settled outside the pot: positive for `Receives Cashout ($X)`, negative for
 * `Pays Cashout Risk ($X)`. Included in the player's `net`.
 */
export interface Cashout {
  player: string;
  amount: number;
}

/**
 * One parsed hand.
 *
 * Invariants the parser checks before returning a hand (a hand that breaks one is an error instead):
 * the actions put in exactly the summary's total pot, the collected amounts plus the fees equal it, nobody
 * puts in more than their stack, and no card appears twice. So for every hand
 * `sum(players[].net) + rake = sum(cashouts[].amount)` (0 without GGPoker EV cashouts).
 *
 * @example
 * // PokerStars "Game #109681406367:  Hold'em No Limit ($0.05/$0.10 USD) - 2014/01/06 7:23:59 ET"
 * {
 *   site: "pokerstars", id: "109681406367", line: 1,
 *   game: { variant: "holdem", holeCards: 2, hiLo: false, limit: "nl", format: "cash", label: "Hold'em No Limit" },
 *   stakes: { sb: 0.05, bb: 0.1, ante: 0.02, currency: "USD" },
 *   date: "2014-01-06T12:23:59.000Z", timeZone: "ET",
 *   table: "Skat III 100-250 bb, Ante", maxSeats: 6, buttonSeat: 3,
 *   players: [...], hero: null, heroCards: null,
 *   posts: [{ player: "Tunks2", type: "sb", amount: 0.05, allIn: false }, ...],
 *   actions: { preflop: [{ player: "Asaki1", type: "fold", amount: 0, to: null, allIn: false }, ...],
 *              flop: [], turn: [], river: [] },
 *   boards: [[]], shows: [], wentToShowdown: false,
 *   uncalled: [{ player: "LovID", amount: 0.6 }],
 *   pots: [{ amount: 0.87, players: ["LovID"] }], totalPot: 0.87,
 *   collected: [{ player: "LovID", amount: 0.87, pot: 0, board: 0 }],
 *   rake: 0, fees: [{ kind: "rake", amount: 0 }], cashouts: [], tournament: null,
 * }
 */
export interface Hand {
  site: Site;
  /** The hand number as written after `#`: digits on PokerStars, `RC`/`HD`/`TM`/`OM` + digits on GGPoker. */
  id: string;
  /** 1-based line of the hand's first line in the parsed text. */
  line: number;
  game: Game;
  stakes: Stakes;
  /**
   * When the hand started: ISO 8601 in UTC (`2014-01-06T12:23:59.000Z`) when the site names a time zone
   * it knows (`ET`, `CET`, `UTC`, ...); otherwise the local time as written, without an offset
   * (`2024-03-15T10:20:30`), which is what GGPoker exports give.
   */
  date: string;
  /** The time zone the time was written in (`ET`, `CET`), or null when none is given or it is unknown. */
  timeZone: string | null;
  /** Table name as written (`Skat III 100-250 bb, Ante`, tournaments `2900000000 1`). */
  table: string;
  /** Seats at the table (`6-max`); null when the table line does not say. */
  maxSeats: number | null;
  buttonSeat: number;
  /** Every seated player, in seat order. */
  players: Player[];
  /** The player dealt known cards (`Dealt to Hero [Ah Kd]`); null in histories without one. */
  hero: string | null;
  heroCards: string[] | null;
  /** Antes, blinds and straddles, in the order written. */
  posts: Post[];
  actions: Record<Street, Action[]>;
  /**
   * The community cards: one board, or one per run when the hand was run twice (or three times). A
   * board holds the cards dealt so far: `[]` when the hand ended preflop.
   *
   * @example
   * [["5c", "4c", "4h", "Qs", "Kc"]]
   * // run twice after an all-in on the flop
   * [["Jh", "Td", "8c", "9c", "3h"], ["Jh", "Td", "8c", "2s", "Ks"]]
   */
  boards: string[][];
  shows: Show[];
  /**
   * Whether the hand reached a showdown: two or more players still in at the end (their cards shown or
   * mucked). Not the `*** SHOWDOWN ***` line, which GGPoker writes in every hand.
   */
  wentToShowdown: boolean;
  uncalled: Uncalled[];
  pots: Pot[];
  /** The pot before rake: everything put in less uncalled bets. */
  totalPot: number;
  collected: Collection[];
  /** Everything the site withheld: the sum of `fees` (rake, and GGPoker's jackpot and similar fees). */
  rake: number;
  fees: Fee[];
  cashouts: Cashout[];
  tournament: Tournament | null;
  /**
   * What the parser had to work out because the history did not say it right, in words a player
   * understands; empty for most hands.
   *
   * @example
   * ['no "Uncalled bet" line: the 1.75 that nits4life bet and nobody called is counted as returned']
   */
  notes: string[];
}

/**
 * A hand that could not be parsed. The rest of the file still parses.
 *
 * @example
 * { handId: "109681313810", site: "pokerstars", line: 24, handLine: 1,
 *   message: "unrecognised line", text: "Player_L: dances" }
 */
export interface HandParseError {
  /** The hand's number when its first line is readable, else null. */
  handId: string | null;
  site: Site | null;
  /** 1-based line of the text where the problem is. */
  line: number;
  /** 1-based line where the hand starts. */
  handLine: number;
  message: string;
  /** The offending line, as written (empty when the problem is a missing line). */
  text: string;
}

export interface ParseOptions {
  /** `auto` (default): each hand's first line decides. A site name rejects hands of the other site. */
  site?: SiteOption;
}

export interface ParseResult {
  hands: Hand[];
  errors: HandParseError[];
}
