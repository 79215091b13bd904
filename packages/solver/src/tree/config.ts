/**
 * Tree configs (`data/trees/<game>.json`): the betting abstraction of a game, per group of stacks.
 *
 * Raise sizes are raise-size codes (`40000+pct`: raise by pct percent of the pot after calling, see
 * @ranges/core `PotState`). Raise number 1 is the open (first raise), 2 the 3-bet, 3 the 4-bet, 4 the 5-bet.
 *
 * The grammar, by example (one profile of `data/trees/nl-v2.json`):
 *
 * ```json
 * { "stacks": [100], "open": [40060], "sbOpen": [40100], "threeBetIp": [40080], "threeBetOop": [40110],
 *   "fourBet": [40060], "allInFrom": 3, "maxRaises": 4, "isoRaise": [40100] }
 * ```
 *
 * - First in, every seat may fold or open to 2.5bb (60% of the 2.5bb pot after calling 1bb: 1 + 0.6 x 2.5);
 *   the SB opens 100% (to 3bb). Only seats in `limpSeats` may call first in.
 * - Facing any raise a seat may fold, call, or raise with the next raise number's sizes: a 3-bet of 80% of the
 *   pot in position against the raiser or 110% out of position (squeezes use the same percentages of the
 *   bigger pot), then a 4-bet of 60%. From raise number 3 (`allInFrom`) all-in is offered beside the sized
 *   raises, and a sized raise above `allInThreshold` of the stack becomes all-in. After `maxRaises` raises
 *   the remaining seats may only fold or call.
 * - A cold 4-bet (raise number 3 or more from a seat that has put no chips in voluntarily, blinds excepted)
 *   is offered only with `"coldFourBet": true`. Nobody raises over an all-in.
 * - `"jamOrFold": true` (nlmtt8 10bb): every first-in decision is fold or all-in, facing an all-in fold or
 *   call.
 *
 * Rake (`"rake": { "percent": 5, "capBb": 0.6 }`) is taken from every pot that sees a flop (all-in or not);
 * a pot won preflop pays none. Leave it out (or `null`) for no rake.
 */

import { readFileSync } from "node:fs";
import { GAMES, type GameId, isGameId } from "@ranges/core";

export interface StackProfile {
  readonly stacks: readonly number[];
  /** Only all-in or fold for every first-in and facing decision (nlmtt8 10bb). */
  readonly jamOrFold?: boolean;
  /** Open codes for seats other than the SB. */
  readonly open?: readonly number[];
  /** Open codes for the SB. */
  readonly sbOpen?: readonly number[];
  /** 3-bet codes when the 3-bettor will be in position / out of position against the opener. */
  readonly threeBetIp?: readonly number[];
  readonly threeBetOop?: readonly number[];
  /** 3-bet codes over an open and one or more callers (default: the in/out of position 3-bet codes). */
  readonly squeeze?: readonly number[];
  readonly fourBet?: readonly number[];
  readonly fiveBet?: readonly number[];
  /** Raise number from which an all-in is offered beside the sized raises (1: open-shoves allowed). */
  readonly allInFrom: number;
  /** Open-size labels of the pack listing (nlmtt8 `/config`). */
  readonly openLabel?: string;
  readonly sbOpenLabel?: string;
  /** Raise codes against one or more limpers (the BB over an SB limp). */
  readonly isoRaise?: readonly number[];
  /** Most raises in a hand (default 5); after it every seat may only fold or call. */
  readonly maxRaises?: number;
  /**
   * Most callers of the current raise over which a re-raise is still offered (default: no limit). 1 allows
   * the squeeze over an open and one call but not over two callers.
   */
  readonly maxCallersToRaise?: number;
  /** Allow 4-bets and 5-bets from seats that have not yet put chips in voluntarily (default false). */
  readonly coldFourBet?: boolean;
  /**
   * The regret minimizer for these stacks (default `"dcfr"`). `"pcfr+"` (predictive CFR+) converges several
   * times faster on the deep multiway trees (nl 150bb: 0.35% of the pot after 400 iterations against 0.62%
   * for DCFR), where DCFR stalls; DCFR stays ahead on short and jam/fold trees. See docs/solver-model.md.
   */
  readonly algorithm?: SolverAlgorithm;
}

/** Regret minimizers the solver runs: discounted CFR, or predictive CFR+ (simultaneous updates only). */
export type SolverAlgorithm = "dcfr" | "pcfr+";

/** Rake on pots that see a flop: `percent` of the pot, at most `capBb`. */
export interface RakeConfig {
  readonly percent: number;
  readonly capBb: number;
}

export interface RealizationModel {
  readonly name: string;
  /** Equity-realization multipliers of the player in and out of position. */
  readonly ipFactor: number;
  readonly oopFactor: number;
  /** Exponent of the contest function (1: shares in proportion to scaled equity; > 1: favourites gain). */
  readonly contestExponent: number;
  /** Playability bonuses added to a class's multiplier. */
  readonly suitedBonus: number;
  /** Bonus by gap between the two ranks (index 0: connectors). */
  readonly connectedBonus: readonly number[];
  readonly pairBonus: number;
  /** Stack-to-pot ratio at which the multipliers apply in full; below it they shrink toward 1 linearly. */
  readonly sprFull: number;
  /** Where the parameter values come from. */
  readonly source: string;
}

export interface TreeConfig {
  readonly game: GameId;
  /** Seats in acting order; defaults to the game's seats (a custom spot may name fewer). */
  readonly seats?: readonly string[];
  /**
   * The seats dealt a hand, for a short-handed spot read with the game's own action paths (default: every
   * seat). The others fold first in without a choice, so every history keeps the game's grammar: with
   * `"dealtIn": ["SB", "BB"]` in nl, the SB's first decision is `UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB`. The
   * dealt-in seats must be the last ones to act preflop, blinds included (`["BTN", "SB", "BB"]` is a
   * three-handed spot; `["UTG", "BB"]` is refused), so nobody who is dealt out ever faces a raise.
   */
  readonly dealtIn?: readonly string[];
  readonly description: string;
  readonly blinds: { readonly sb: number; readonly bb: number };
  readonly ante: number;
  readonly antePostedBy: "BB" | "SB" | null;
  /** Seats allowed to call first in (SB completes). Every other first-in call is left out of the tree. */
  readonly limpSeats: readonly string[];
  /** A sized raise that would put in more than this fraction of the stack is replaced by all-in. */
  readonly allInThreshold: number;
  /** Cash-game rake (no flop, no drop); absent or null for none. */
  readonly rake?: RakeConfig | null;
  readonly profiles: readonly StackProfile[];
  readonly model: RealizationModel;
  /** Iteration and time budget and the exploitability target (percent of the starting pot). */
  readonly solve: {
    readonly maxIterations: number;
    readonly maxSeconds: number;
    readonly targetPctPot: number;
    /** Alternating seat updates (see CfrParams). */
    readonly alternate: boolean;
  };
}

export function loadTreeConfig(path: string): TreeConfig {
  const raw = JSON.parse(readFileSync(path, "utf8")) as TreeConfig;
  return validateTreeConfig(raw, path);
}

export function validateTreeConfig(raw: TreeConfig, where = "tree config"): TreeConfig {
  if (!isGameId(raw.game) || GAMES[raw.game].variant !== "holdem") {
    throw new Error(`${where}: game must be a hold'em game, got ${String(raw.game)}`);
  }
  if (!Array.isArray(raw.profiles) || raw.profiles.length === 0)
    throw new Error(`${where}: profiles is empty`);
  if (raw.rake != null) {
    const { percent, capBb } = raw.rake;
    if (!(Number.isFinite(percent) && percent >= 0 && percent < 100))
      throw new Error(`${where}: rake.percent must be in [0, 100), got ${String(percent)}`);
    if (!(Number.isFinite(capBb) && capBb >= 0))
      throw new Error(`${where}: rake.capBb must be a number >= 0, got ${String(capBb)}`);
  }
  for (const p of raw.profiles) {
    if (p.algorithm !== undefined && p.algorithm !== "dcfr" && p.algorithm !== "pcfr+")
      throw new Error(`${where}: algorithm must be "dcfr" or "pcfr+", got ${JSON.stringify(p.algorithm)}`);
    if (p.algorithm === "pcfr+" && raw.solve?.alternate)
      throw new Error(`${where}: algorithm "pcfr+" runs with simultaneous updates (solve.alternate false)`);
    if (p.maxRaises !== undefined && !(Number.isInteger(p.maxRaises) && p.maxRaises >= 1))
      throw new Error(`${where}: maxRaises must be an integer >= 1, got ${String(p.maxRaises)}`);
  }
  if (raw.dealtIn != null) {
    const seats = GAMES[raw.game].seats;
    const dealt = raw.dealtIn;
    const suffix = seats.slice(seats.length - (Array.isArray(dealt) ? dealt.length : 0));
    if (
      raw.seats !== undefined ||
      !Array.isArray(dealt) ||
      dealt.length < 2 ||
      dealt.length > seats.length ||
      dealt.some((s, i) => s !== suffix[i])
    ) {
      throw new Error(
        `${where}: dealtIn must list the last seats to act preflop in order, at least the blinds (${seats.slice(-2).join(", ")}; e.g. ${seats.slice(-3).join(", ")}), without "seats"; got ${JSON.stringify(dealt)?.slice(0, 80)}`,
      );
    }
  }
  for (const seat of raw.limpSeats) {
    if (!GAMES[raw.game].seats.includes(seat)) throw new Error(`${where}: limp seat ${seat} is not a seat`);
  }
  return raw;
}

/** The config's rake, or null when it takes none. */
export function rakeOf(config: TreeConfig): RakeConfig | null {
  const r = config.rake;
  if (!r || (r.percent === 0 && r.capBb === 0)) return null;
  return r;
}

export function profileFor(config: TreeConfig, stack: number): StackProfile {
  const p = config.profiles.find((x) => x.stacks.includes(stack));
  if (!p) {
    const all = config.profiles.flatMap((x) => x.stacks);
    throw new Error(`${config.game} has no tree profile for ${stack}bb; stacks: ${all.join(", ")}`);
  }
  return p;
}

export const configStacks = (config: TreeConfig): number[] =>
  config.profiles.flatMap((p) => p.stacks).sort((a, b) => a - b);
