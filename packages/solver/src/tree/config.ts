/**
 * Tree configs (`data/trees/<game>.json`): the betting abstraction of a game, per group of stacks.
 *
 * Raise sizes are raise-size codes (`40000+pct`: raise by pct percent of the pot after calling, see
 * @ranges/core `PotState`). Raise number 1 is the open (first raise), 2 the 3-bet, 3 the 4-bet, 4 the 5-bet.
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
  readonly fourBet?: readonly number[];
  readonly fiveBet?: readonly number[];
  /** Raise number from which an all-in is offered beside the sized raises (1: open-shoves allowed). */
  readonly allInFrom: number;
  /** Open-size labels of the pack listing (nlmtt8 `/config`). */
  readonly openLabel?: string;
  readonly sbOpenLabel?: string;
  /** Raise codes of the BB against an SB limp. */
  readonly isoRaise?: readonly number[];
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
  readonly description: string;
  readonly blinds: { readonly sb: number; readonly bb: number };
  readonly ante: number;
  readonly antePostedBy: "BB" | "SB" | null;
  /** Seats allowed to call first in (SB completes). Every other first-in call is left out of the tree. */
  readonly limpSeats: readonly string[];
  /** A sized raise that would put in more than this fraction of the stack is replaced by all-in. */
  readonly allInThreshold: number;
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
  for (const seat of raw.limpSeats) {
    if (!GAMES[raw.game].seats.includes(seat)) throw new Error(`${where}: limp seat ${seat} is not a seat`);
  }
  return raw;
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
