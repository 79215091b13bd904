/**
 * The game registry: the eight games of the service, their seats in acting order, hand-class set, token
 * style and which operations are keyless. Everything that differs between games is looked up here.
 *
 * Look a game up with `gameInfo(game)`: it answers a value that is not a game with a 404 `RangesError`
 * (`unknown_game`) listing the games. `GAMES[game]` is the raw table and is `undefined` for anything else;
 * every function of this package that takes a game checks it through `gameInfo`.
 */

import { RangesError } from "./errors.js";

export const GAME_IDS = ["nl", "nl/v2", "nl9", "nlmtt8", "plo", "plo9", "plo5", "plo6hu"] as const;
export type GameId = (typeof GAME_IDS)[number];

export type Variant = "holdem" | "omaha";
export type ClassSetId = "holdem169" | "plo16432";
/** `percent`: raises are `60%`-style tokens (cash hold'em). `depth`: raises are Open/3B/4B/5B (nlmtt8, PLO). */
export type TokenStyle = "percent" | "depth";
/** Operations of the API whose access rules differ per game. */
export type Operation = "discovery" | "node" | "range" | "spots" | "config";

export interface GameInfo {
  readonly id: GameId;
  readonly title: string;
  readonly variant: Variant;
  readonly format: "cash" | "mtt";
  /** Seats in preflop acting order; the last two are the blinds (SB, BB), except heads-up where SB is first. */
  readonly seats: readonly string[];
  readonly classSet: ClassSetId;
  readonly tokenStyle: TokenStyle;
  /** False for `nl` (v1): its packs store no EVs and `evUnit` is null. */
  readonly hasEvs: boolean;
  /** Dead ante in bb and who posts it, as the game's packs are built. */
  readonly ante: number;
  readonly antePostedBy: "BB" | "SB" | null;
  /** Operations a caller may use without a key (then the per-IP daily allowance counts the call). */
  readonly keyless: readonly Operation[];
  /** Operations this game serves at all (`/spots` and `/config` are served for some games only). */
  readonly serves: readonly Operation[];
  /** Stacks the specification or the design names for the game (packs decide which are live). */
  readonly plannedStacks: readonly number[];
  /** Whether `stack` must be an integer in queries. */
  readonly integerStack: boolean;
  /** Whether SB may complete (limp) first in. */
  readonly sbLimp: boolean;
  /** Whether a first-in call is written `Limp` (nlmtt8) rather than `Call`. */
  readonly limpToken: boolean;
}

const SIX_MAX = ["UTG", "HJ", "CO", "BTN", "SB", "BB"] as const;
const NINE_MAX = ["UTG", "UTG1", "UTG2", "LJ", "HJ", "CO", "BTN", "SB", "BB"] as const;
const EIGHT_MAX = ["UTG", "UTG1", "LJ", "HJ", "CO", "BTN", "SB", "BB"] as const;
const CASH_STACKS = [20, 30, 40, 50, 70, 100, 150, 200] as const;
const MTT_STACKS = [10, 15, 20, 30, 40, 50, 75, 100, 200, 300] as const;
const ALL_OPS: readonly Operation[] = ["discovery", "node", "range", "spots", "config"];

const plo = (id: GameId, title: string, seats: readonly string[], spots: boolean): GameInfo => ({
  id,
  title,
  variant: "omaha",
  format: "cash",
  seats,
  classSet: "plo16432",
  tokenStyle: "depth",
  hasEvs: true,
  ante: 0,
  antePostedBy: null,
  keyless: ["discovery"],
  serves: spots ? ["discovery", "node", "range", "spots"] : ["discovery", "node", "range"],
  plannedStacks: [100],
  integerStack: false,
  sbLimp: true,
  limpToken: false,
});

export const GAMES: Readonly<Record<GameId, GameInfo>> = {
  nl: {
    id: "nl",
    title: "NLHE 6-max cash (v1, simpler tree, no EVs)",
    variant: "holdem",
    format: "cash",
    seats: SIX_MAX,
    classSet: "holdem169",
    tokenStyle: "percent",
    hasEvs: false,
    ante: 0,
    antePostedBy: null,
    keyless: ["discovery", "node", "range"],
    serves: ["discovery", "node", "range"],
    plannedStacks: CASH_STACKS,
    integerStack: false,
    sbLimp: false,
    limpToken: false,
  },
  "nl/v2": {
    id: "nl/v2",
    title: "NLHE 6-max cash (v2, richer tree with EVs)",
    variant: "holdem",
    format: "cash",
    seats: SIX_MAX,
    classSet: "holdem169",
    tokenStyle: "percent",
    hasEvs: true,
    ante: 0,
    antePostedBy: null,
    keyless: ["discovery", "node", "range", "spots"],
    serves: ["discovery", "node", "range", "spots"],
    plannedStacks: CASH_STACKS,
    integerStack: false,
    sbLimp: true,
    limpToken: false,
  },
  nl9: {
    id: "nl9",
    title: "NLHE 9-max cash",
    variant: "holdem",
    format: "cash",
    seats: NINE_MAX,
    classSet: "holdem169",
    tokenStyle: "percent",
    hasEvs: true,
    ante: 0,
    antePostedBy: null,
    keyless: ["discovery"],
    serves: ["discovery", "node", "range"],
    plannedStacks: [50, 100, 200],
    integerStack: false,
    sbLimp: false,
    limpToken: false,
  },
  nlmtt8: {
    id: "nlmtt8",
    title: "NLHE 8-max tournament, chip EV, 1bb big-blind ante",
    variant: "holdem",
    format: "mtt",
    seats: EIGHT_MAX,
    classSet: "holdem169",
    tokenStyle: "depth",
    hasEvs: true,
    ante: 1,
    antePostedBy: "BB",
    keyless: ["discovery", "config"],
    serves: ALL_OPS,
    plannedStacks: MTT_STACKS,
    integerStack: true,
    sbLimp: true,
    limpToken: true,
  },
  plo: plo("plo", "PLO 6-max cash", SIX_MAX, true),
  plo9: plo("plo9", "PLO 9-max cash", NINE_MAX, true),
  plo5: plo("plo5", "PLO 5-handed cash", ["HJ", "CO", "BTN", "SB", "BB"], false),
  plo6hu: plo("plo6hu", "PLO heads-up cash (SB is the button)", ["SB", "BB"], false),
};

export function isGameId(value: unknown): value is GameId {
  return typeof value === "string" && (GAME_IDS as readonly string[]).includes(value);
}

/**
 * The registry entry of `game`. Anything that is not one of `GAME_IDS` (a typo, `undefined` from an
 * unchecked input, a prototype key such as `"toString"`) is a 404 `RangesError` with code `unknown_game`
 * and the list of games in its hint, never a `TypeError` further on.
 */
export function gameInfo(game: string): GameInfo {
  if (isGameId(game)) return GAMES[game];
  const shown =
    typeof game === "string" ? (game.length > 64 ? `${game.slice(0, 64)}...` : game) : String(game);
  throw new RangesError(
    "unknown_game",
    `${shown === "" ? "No game was given" : `"${shown}" is not a game`}. Games: ${GAME_IDS.join(", ")}.`,
    { games: [...GAME_IDS] },
  );
}

/** True when `operation` on `game` may be called without a key; 404 `unknown_game` for an unknown game. */
export function isKeyless(game: string, operation: Operation): boolean {
  return gameInfo(game).keyless.includes(operation);
}
