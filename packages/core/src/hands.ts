/** Hand classes by game: one entry point for parsing a `hand` query value. */

import { RangesError } from "./errors.js";
import { type GameId, gameInfo } from "./games.js";
import { HOLDEM_CLASSES, parseHoldemHand } from "./holdem.js";
import { parsePloHand, ploClassIndex } from "./plo.js";

export interface HandClassRef {
  /** Canonical class name (`AKs`, `(AK)QJ`). */
  readonly name: string;
  /** Index in the game's class set (grid order for hold'em, table order for PLO). */
  readonly index: number;
}

/**
 * Parses a class name or concrete cards for the game; throws 400 `invalid_hand` with examples, and 404
 * `unknown_game` for a game that does not exist.
 */
export function parseHand(game: GameId, text: string): HandClassRef {
  if (gameInfo(game).classSet === "holdem169") {
    const index = parseHoldemHand(text);
    if (index !== null) return { name: HOLDEM_CLASSES[index]!, index };
    throw new RangesError(
      "invalid_hand",
      `"${text}" is not a hold'em hand class. Use a class such as AA, AKs or AKo, or two cards such as AhKh.`,
      { examples: ["AA", "AKs", "AKo", "AhKh"] },
    );
  }
  const name = parsePloHand(text);
  const index = name === null ? undefined : ploClassIndex(name);
  if (name !== null && index !== undefined) return { name, index };
  throw new RangesError(
    "invalid_hand",
    `"${text}" is not a PLO hand class. Use suit-group notation such as (AK)(AK), (AK)QJ, (AKQ)J or AKQJ (rainbow), with "(" and ")" sent as %28 and %29, or four cards such as AsKsQdJc.`,
    { examples: ["(AK)(AK)", "(AK)QJ", "AKQJ", "AsKsQdJc"] },
  );
}
