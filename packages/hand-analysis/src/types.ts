/**
 * The per-hand summary the hand tools work from. It is derived once, when a hand is uploaded (in the parse
 * thread), and stored beside the parsed hand; every number in it comes from the hand itself or, for the
 * all-in adjusted result, from the solver's equity code.
 *
 * Amounts are in the hand's unit (currency units in cash games, chips in tournaments) unless the name ends
 * in `Bb` (big blinds of the hand).
 */

import type { Position, Site } from "@ranges/hand-history";

/**
 * What is played, as one key: limit letter(s) + variant, e.g. `nlhe` (no-limit hold'em), `plhe`, `flhe`,
 * `plo` (pot-limit Omaha), `plo5`, `plo6`, `nlo`; `-hilo` for split games (`plo-hilo`).
 */
export type GameKey = string;

/**
 * The preflop line of a hand, by the raises made before the flop:
 * `walk` (nobody but the blinds put chips in: folded round to the big blind), `limped` (calls, no raise),
 * `single_raised` (one raise), `three_bet` (two), `four_bet_plus` (three or more).
 */
export type PreflopLine = "walk" | "limped" | "single_raised" | "three_bet" | "four_bet_plus";

export const PREFLOP_LINES: readonly PreflopLine[] = [
  "walk",
  "limped",
  "single_raised",
  "three_bet",
  "four_bet_plus",
];

/** A counted event and how often the player had the chance to do it. */
export interface Chance {
  /** Times the situation came up. */
  readonly n: number;
  /** Times the player took the action in it. */
  readonly k: number;
}

/**
 * One player's preflop in one hand (standard tracker definitions, counted at most once per hand):
 * - vpip: called or raised before the flop (posting a blind and checking the big blind do not count).
 * - pfr: raised before the flop.
 * - rfi: first in (nobody had called or raised yet, not the big blind) and raised.
 * - limp: called when nobody had raised yet (not the big blind checking), first in or over limpers.
 * - threeBet: faced exactly one raise (not their own) and raised.
 * - foldToThreeBet: raised first, faced a re-raise (exactly two raises) and folded.
 */
export interface PlayerPreflop {
  vpip: boolean;
  pfr: boolean;
  /** First in: 1/0 chance, and whether they raised. */
  rfiChance: boolean;
  rfi: boolean;
  limpChance: boolean;
  limp: boolean;
  threeBetChance: boolean;
  threeBet: boolean;
  foldToThreeBetChance: boolean;
  foldToThreeBet: boolean;
}

export interface PlayerSummary {
  name: string;
  position: Position | null;
  seat: number;
  stackBb: number;
  /** Known hole cards (the hero's, or shown); null when unknown. */
  cards: string[] | null;
  /** Their class (hold'em `AKo`, PLO suit-group notation) when the cards are known and the game has classes. */
  handClass: string | null;
  /** Whether the cards were shown at a showdown the player reached (or shown after a limp, see limp range). */
  showedDown: boolean;
  net: number;
  preflop: PlayerPreflop;
}

/** One preflop action, by the index of the player in `HandSummary.players`. */
export interface PreflopStep {
  /** Player index. */
  i: number;
  a: "fold" | "check" | "call" | "bet" | "raise";
  /** Raise-to (street total) in bb for bets and raises; null otherwise. */
  toBb: number | null;
  allIn: boolean;
}

/** The all-in adjusted result: the hero's expected share of the pots at the moment the money went in. */
export interface AllInAdjustment {
  street: "preflop" | "flop" | "turn";
  /** Players who contested the pot (all cards known). */
  players: number;
  /** The hero's share of everything contested, weighted by the pots' sizes (0..1). */
  equity: number;
  /** Expected net: expected collections (equity times each pot, less the pot's share of the rake) less invested. */
  adjustedNet: number;
  adjustedBb: number;
  /** Exact enumeration of every run-out, or Monte Carlo (PLO preflop) with its standard error. */
  method: "exact" | "monte-carlo";
  standardError: number;
  /** Run-outs enumerated or sampled. */
  runouts: number;
}

export interface TournamentSummary {
  id: string;
  name: string | null;
  /** Buy-in parts as written (`[10, 1]` for $10+$1); null when the history shows none. */
  buyIn: number[] | null;
  currency: string | null;
  freeroll: boolean;
  level: string | null;
  /**
   * A bounty (PKO, knockout) tournament. Absent in summaries stored before it was read: treat as false.
   * Not compared with the chip-EV `nlmtt8` equilibrium: bounties are not published (see `compareHand`).
   */
  knockout?: boolean;
  /** The hero's finish when this hand shows it. */
  heroFinish: { place: number; prize: number | null } | null;
}

export interface HandSummary {
  v: 1;
  site: Site;
  id: string;
  playedAt: string;
  timeZone: string | null;
  game: GameKey;
  /** The site's game label, e.g. `Hold'em No Limit`. */
  label: string;
  format: "cash" | "tournament";
  /** Cash: the blinds (`$0.05/$0.10`); tournaments: the buy-in (`$10+$1`, `freeroll`, `unknown buy-in`). */
  stakes: string;
  sb: number;
  bb: number;
  ante: number;
  currency: string | null;
  table: string;
  maxSeats: number | null;
  /** Players dealt in. */
  dealt: number;
  tournament: TournamentSummary | null;
  /** Index of the hero in `players`; null when the history has no hero (observed hands). */
  hero: number | null;
  line: PreflopLine;
  wentToShowdown: boolean;
  /** The hero reached the showdown (did not fold). */
  heroShowdown: boolean;
  /** The hero's result (0 without a hero). */
  net: number;
  netBb: number;
  /** Rake and other fees withheld from the pot. */
  rake: number;
  allIn: AllInAdjustment | null;
  /** Why a hand whose hero was all-in has no adjustment (cards not shown, Hi/Lo, ...); null otherwise. */
  allInNote: string | null;
  /** Everyone dealt in, in seat order. */
  players: PlayerSummary[];
  preflop: PreflopStep[];
  /** Forced bets as the preflop trees need them. */
  forced: {
    /** Antes of everybody, together, in bb. */
    antesBb: number;
    /** Who posted antes: nobody, the big blind alone, or several players. */
    anteBy: "none" | "bb" | "all";
    straddle: boolean;
    /** A returning player posted dead blinds (`posts small & big blinds`). */
    deadBlind: boolean;
    /** The small blind was posted. */
    sbPosted: boolean;
  };
}
