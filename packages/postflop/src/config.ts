/**
 * The postflop spot: board, pot, stacks, ranges and the betting tree's sizes and controls.
 */

import { parseCards } from "@ranges/core";
import { COMBO_HIGH_CARD as HIGH, COMBO_LOW_CARD as LOW } from "@ranges/solver/hands";
import { parseRange, RangeParseError } from "./range.js";

/**
 * One bet or raise size:
 *
 * - `"75%"`: percent of the pot. A bet of 75% puts in 0.75 times the pot; a raise of 75% first calls, then
 *   adds 0.75 times the pot after the call (the pot counts every chip already bet on the street).
 * - `"2.5x"`: a raise to 2.5 times the opponent's bet on this street (its total, so over a bet of 4 it raises
 *   to 10, over a raise to 10 it re-raises to 25). Raises only; the multiple must be above 1.
 * - `"allin"`: the whole stack.
 *
 * A size that reaches the stack becomes all-in; a raise below the minimum raise (the size of the last bet or
 * raise on the street) is raised to it. Percentages from 1% to 10000%, multiples above 1 up to 100.
 */
export type BetSize = string;

/** One or more sizes: `["33%", "75%"]` or the same comma-separated, `"33%, 75%"`. `[]` offers none. */
export type SizeList = BetSize | BetSize[];

/**
 * One player's sizes on one street.
 *
 * - `bet`: sizes of the first bet of the street.
 * - `raise`: sizes of every raise (the first raise over a bet and every re-raise).
 * - `donk` (OOP, turn and river): sizes of a lead into the player who made the last bet or raise of the previous
 *   street, used when `donkBets` is true (default: the `bet` sizes).
 */
export interface PlayerStreetSizes {
  bet?: SizeList;
  raise?: SizeList;
  donk?: SizeList;
}

/**
 * One street's sizes: `bet`, `raise` and `donk` at this level apply to both players; `oop` and `ip` override
 * them for one player. `{ "bet": "75%", "raise": "2.5x" }` gives both players the same sizes;
 * `{ "bet": "75%", "raise": "2.5x", "ip": { "bet": ["33%", "75%"] } }` lets only IP bet 33% too.
 */
export interface StreetSizes extends PlayerStreetSizes {
  oop?: PlayerStreetSizes;
  ip?: PlayerStreetSizes;
}

/**
 * A heads-up postflop spot (JSON). OOP (out of position) acts first on every street; amounts are in any chip
 * unit (big blinds in this repository).
 *
 * ```json
 * {
 *   "board": "QsJh2h",
 *   "pot": 5.5,
 *   "stack": 97.5,
 *   "ranges": {
 *     "oop": "99-22,AJs-A2s,AJo-A2o,KQs-K2s,KQo-K8o,QJs-Q4s,QJo-Q9o,JTs-J6s,JTo-J9o,T9s-T6s,T9o,96s+,86s+,75s+,64s+,53s+,43s",
 *     "ip": "22+,A2s+,A8o+,A5o-A2o,K5s+,KTo+,Q8s+,QTo+,J8s+,JTo,T7s+,97s+,86s+,75s+,65s,54s"
 *   },
 *   "sizes": {
 *     "flop": { "bet": "75%", "raise": "2.5x" },
 *     "turn": { "bet": "75%", "raise": "2.5x" },
 *     "river": { "bet": "75%", "raise": "2.5x" }
 *   },
 *   "donkBets": false,
 *   "allInThreshold": 1.5,
 *   "forceAllInThreshold": 0.15
 * }
 * ```
 *
 * A river spot where OOP may bet half pot or pot and IP may only call or fold, and a 5% rake capped at 3:
 *
 * ```json
 * {
 *   "board": "Ah Kd 8c 5s 2h", "pot": 10, "stack": 50,
 *   "ranges": { "oop": "88,76s", "ip": "QQ" },
 *   "sizes": { "river": { "oop": { "bet": ["50%", "100%"] }, "ip": { "bet": [], "raise": [] } } },
 *   "allInThreshold": 0, "raiseCap": 0, "rake": { "percent": 5, "cap": 3 }
 * }
 * ```
 */
export interface PostflopConfig {
  /** Three to five cards (`"QsJh2h"`, spaces allowed): a flop, turn or river spot. */
  board: string;
  /** The pot at the start of the spot (both players' chips and dead money), above 0. */
  pot: number;
  /** The effective stack behind at the start of the spot, 0 or more. */
  stack: number;
  /** Each player's range in the notation of `parseRange` (weights allowed). */
  ranges: { oop: string; ip: string };
  /** Sizes per street; a street left out (or a player with no sizes) only checks, calls and folds. */
  sizes: { flop?: StreetSizes; turn?: StreetSizes; river?: StreetSizes };
  /**
   * Whether OOP may lead on the turn or river into the player who made the last bet or raise of the previous
   * street (a donk bet). Default false: after calling a bet or raise, OOP checks to the aggressor.
   */
  donkBets?: boolean;
  /**
   * All-in is added to the sizes whenever it is at most this many pots (default 1.5; 0 adds it only when a
   * size reaches the stack). An all-in's size in pots is the chips it adds beyond a call over the pot after
   * the call.
   */
  allInThreshold?: number;
  /**
   * A bet or raise becomes all-in when, after the opponent called it, the stack behind would be at most this
   * many pots of the pot after the call (default 0.15; 0 turns it off).
   */
  forceAllInThreshold?: number;
  /** The most raises per street (a bet is not a raise); null or absent: no cap. 0 allows bets but no raises. */
  raiseCap?: number | null;
  /**
   * Rake taken from every pot at the end of the hand (fold or showdown): `percent` of the final pot, at most
   * `cap` chips. Default none.
   */
  rake?: { percent: number; cap: number };
  /**
   * For a spot that starts on the turn or river: who made the last bet or raise of the street before (`"oop"`,
   * `"ip"`; null or absent: nobody, that street was checked through). It decides what a donk bet is on the
   * spot's first street, so a subgame cut from a larger tree keeps that tree's actions: after OOP called IP's
   * flop bet, `{ "board": "QsJh2h7c", ..., "previousAggressor": "ip" }` lets OOP only check first on the turn
   * unless `donkBets` is true. A flop spot has no street before and refuses it.
   */
  previousAggressor?: "oop" | "ip" | null;
}

/** A bet or raise size, decoded. */
export type ParsedSize =
  | { readonly kind: "pot"; readonly fraction: number }
  | { readonly kind: "multiple"; readonly factor: number }
  | { readonly kind: "allin" };

export interface PlayerSizes {
  readonly bet: readonly ParsedSize[];
  readonly raise: readonly ParsedSize[];
  readonly donk: readonly ParsedSize[];
}

/** A config with every default filled in and every string decoded. */
export interface ResolvedConfig {
  readonly source: PostflopConfig;
  readonly board: readonly number[];
  readonly pot: number;
  readonly stack: number;
  /** Weight per combo (1,326, `@ranges/solver` numbering), OOP then IP. */
  readonly ranges: readonly [Float64Array, Float64Array];
  /** Sizes by street (0 flop, 1 turn, 2 river), then player (0 OOP, 1 IP). */
  readonly sizes: readonly (readonly [PlayerSizes, PlayerSizes])[];
  readonly donkBets: boolean;
  readonly allInThreshold: number;
  readonly forceAllInThreshold: number;
  readonly raiseCap: number;
  readonly rake: { readonly percent: number; readonly cap: number };
  /** The last aggressor of the street before the spot: 0 OOP, 1 IP, -1 none. */
  readonly previousAggressor: number;
}

export class PostflopConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PostflopConfigError";
  }
}

const SIZE_HINT = 'write a percent of the pot ("75%"), a multiple of the bet for raises ("2.5x") or "allin"';

/** Decodes one size; `where` names it in errors. */
export function parseSize(text: string, where: string, raise: boolean): ParsedSize {
  const t = text.trim().toLowerCase();
  if (t === "allin" || t === "all-in") return { kind: "allin" };
  let match = /^(\d+(?:\.\d+)?)%$/.exec(t);
  if (match) {
    const pct = Number(match[1]);
    if (!(pct >= 1 && pct <= 10000)) {
      throw new PostflopConfigError(`${where}: "${text}" must be from 1% to 10000% of the pot`);
    }
    return { kind: "pot", fraction: pct / 100 };
  }
  match = /^(\d+(?:\.\d+)?)x$/.exec(t);
  if (match) {
    if (!raise) throw new PostflopConfigError(`${where}: "${text}" is a multiple of a bet; bets take "75%"`);
    const factor = Number(match[1]);
    if (!(factor > 1 && factor <= 100)) {
      throw new PostflopConfigError(`${where}: "${text}" must be above 1x (1x is a call) and at most 100x`);
    }
    return { kind: "multiple", factor };
  }
  throw new PostflopConfigError(`${where}: "${text}" is not a size; ${SIZE_HINT}`);
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw new PostflopConfigError(`${where}: unknown key "${key}" (expected ${allowed.join(", ")})`);
    }
  }
}

function parseSizeList(raw: unknown, where: string, raise: boolean): ParsedSize[] {
  let items: unknown[];
  if (typeof raw === "string") items = raw.trim() === "" ? [] : raw.split(",");
  else if (Array.isArray(raw)) items = raw;
  else throw new PostflopConfigError(`${where}: expected a list of sizes like ["75%"] or "33%, 75%"`);
  return items.map((item, i) => {
    if (typeof item !== "string")
      throw new PostflopConfigError(`${where}[${i}]: expected a string; ${SIZE_HINT}`);
    return parseSize(item, `${where}[${i}]`, raise);
  });
}

const PLAYER_KEYS = ["bet", "raise", "donk"] as const;

function resolveStreet(raw: unknown, where: string): [PlayerSizes, PlayerSizes] {
  if (raw === undefined) raw = {};
  if (!isObject(raw)) throw new PostflopConfigError(`${where}: expected an object like { "bet": "75%" }`);
  checkKeys(raw, [...PLAYER_KEYS, "oop", "ip"], where);
  const shared: Record<string, ParsedSize[]> = {};
  for (const key of PLAYER_KEYS) {
    if (raw[key] !== undefined) shared[key] = parseSizeList(raw[key], `${where}.${key}`, key === "raise");
  }
  const players = (["oop", "ip"] as const).map((name): PlayerSizes => {
    const own = raw[name];
    if (own !== undefined && !isObject(own)) {
      throw new PostflopConfigError(`${where}.${name}: expected an object like { "bet": "75%" }`);
    }
    const sizes: Record<string, ParsedSize[]> = { ...shared };
    if (own) {
      checkKeys(own, PLAYER_KEYS, `${where}.${name}`);
      for (const key of PLAYER_KEYS) {
        if (own[key] !== undefined) {
          sizes[key] = parseSizeList(own[key], `${where}.${name}.${key}`, key === "raise");
        }
      }
    }
    return { bet: sizes.bet ?? [], raise: sizes.raise ?? [], donk: sizes.donk ?? sizes.bet ?? [] };
  });
  return [players[0]!, players[1]!];
}

function finiteNumber(raw: unknown, where: string, min: number, minInclusive: boolean): number {
  if (typeof raw !== "number" || !Number.isFinite(raw) || (minInclusive ? raw < min : raw <= min)) {
    throw new PostflopConfigError(
      `${where}: expected a number ${minInclusive ? ">=" : ">"} ${min}, got ${JSON.stringify(raw)}`,
    );
  }
  return raw;
}

/** Checks a config (parsed JSON) and fills in the defaults; throws `PostflopConfigError` with the field. */
export function resolveConfig(raw: unknown): ResolvedConfig {
  if (!isObject(raw)) throw new PostflopConfigError("config: expected a JSON object");
  checkKeys(
    raw,
    [
      "board",
      "pot",
      "stack",
      "ranges",
      "sizes",
      "donkBets",
      "allInThreshold",
      "forceAllInThreshold",
      "raiseCap",
      "rake",
      "previousAggressor",
    ],
    "config",
  );
  if (typeof raw.board !== "string") throw new PostflopConfigError('board: expected cards like "QsJh2h"');
  const boardText = raw.board.replace(/[\s,]+/g, "");
  const count = boardText.length / 2;
  const board = Number.isInteger(count) && count >= 3 && count <= 5 ? parseCards(boardText, count) : null;
  if (!board) {
    throw new PostflopConfigError(`board: "${raw.board}" is not 3 to 5 distinct cards like "QsJh2h"`);
  }
  const pot = finiteNumber(raw.pot, "pot", 0, false);
  const stack = finiteNumber(raw.stack, "stack", 0, true);
  if (!isObject(raw.ranges)) throw new PostflopConfigError('ranges: expected { "oop": "...", "ip": "..." }');
  checkKeys(raw.ranges, ["oop", "ip"], "ranges");
  const ranges = (["oop", "ip"] as const).map((name) => {
    const text = (raw.ranges as Record<string, unknown>)[name];
    if (typeof text !== "string") throw new PostflopConfigError(`ranges.${name}: expected a range string`);
    let weights: Float64Array;
    try {
      weights = parseRange(text);
    } catch (error) {
      if (error instanceof RangeParseError) throw new PostflopConfigError(`ranges.${name}: ${error.message}`);
      throw error;
    }
    let live = 0;
    for (let combo = 0; combo < weights.length; combo++) {
      if (weights[combo]! > 0 && !comboTouches(combo, board)) live++;
    }
    if (live === 0) {
      throw new PostflopConfigError(`ranges.${name}: no combo of "${text}" is possible on ${raw.board}`);
    }
    return weights;
  }) as [Float64Array, Float64Array];
  if (!isObject(raw.sizes))
    throw new PostflopConfigError('sizes: expected { "flop": {...}, "turn": {...}, "river": {...} }');
  checkKeys(raw.sizes, ["flop", "turn", "river"], "sizes");
  const sizes = (["flop", "turn", "river"] as const).map((street) =>
    resolveStreet((raw.sizes as Record<string, unknown>)[street], `sizes.${street}`),
  );
  if (raw.donkBets !== undefined && typeof raw.donkBets !== "boolean") {
    throw new PostflopConfigError("donkBets: expected true or false");
  }
  const allInThreshold =
    raw.allInThreshold === undefined ? 1.5 : finiteNumber(raw.allInThreshold, "allInThreshold", 0, true);
  const forceAllInThreshold =
    raw.forceAllInThreshold === undefined
      ? 0.15
      : finiteNumber(raw.forceAllInThreshold, "forceAllInThreshold", 0, true);
  if (forceAllInThreshold > 1) {
    throw new PostflopConfigError(`forceAllInThreshold: ${forceAllInThreshold} pots is above 1 (use 0 to 1)`);
  }
  let raiseCap = Number.POSITIVE_INFINITY;
  if (raw.raiseCap !== undefined && raw.raiseCap !== null) {
    if (typeof raw.raiseCap !== "number" || !Number.isInteger(raw.raiseCap) || raw.raiseCap < 0) {
      throw new PostflopConfigError(
        `raiseCap: expected a whole number >= 0 or null, got ${JSON.stringify(raw.raiseCap)}`,
      );
    }
    raiseCap = raw.raiseCap;
  }
  let rake = { percent: 0, cap: 0 };
  if (raw.rake !== undefined) {
    if (!isObject(raw.rake)) throw new PostflopConfigError('rake: expected { "percent": 5, "cap": 3 }');
    checkKeys(raw.rake, ["percent", "cap"], "rake");
    const percent = finiteNumber(raw.rake.percent, "rake.percent", 0, true);
    if (percent >= 100) throw new PostflopConfigError(`rake.percent: ${percent} must be below 100`);
    rake = { percent, cap: finiteNumber(raw.rake.cap, "rake.cap", 0, true) };
  }
  let previousAggressor = -1;
  if (raw.previousAggressor !== undefined && raw.previousAggressor !== null) {
    if (raw.previousAggressor !== "oop" && raw.previousAggressor !== "ip") {
      throw new PostflopConfigError(
        `previousAggressor: expected "oop", "ip" or null, got ${JSON.stringify(raw.previousAggressor)}`,
      );
    }
    if (board.length === 3) {
      throw new PostflopConfigError(
        "previousAggressor: a flop spot has no street before (it is for spots that start on the turn or river)",
      );
    }
    previousAggressor = raw.previousAggressor === "oop" ? 0 : 1;
  }
  return {
    source: raw as unknown as PostflopConfig,
    board,
    pot,
    stack,
    ranges,
    sizes,
    donkBets: raw.donkBets === true,
    allInThreshold,
    forceAllInThreshold,
    raiseCap,
    rake,
    previousAggressor,
  };
}

function comboTouches(combo: number, board: readonly number[]): boolean {
  const lo = LOW[combo]!;
  const hi = HIGH[combo]!;
  return board.includes(lo) || board.includes(hi);
}
