/** An unknown game is a 404 `RangesError` (`unknown_game`) everywhere core takes a game, never a TypeError. */

import { describe, expect, it } from "vitest";
import {
  GAME_IDS,
  type GameId,
  gameInfo,
  isGameId,
  isKeyless,
  parseActionToken,
  parseHand,
  parsePath,
} from "../src/index.js";
import { expectRangesError } from "./errors.js";

const UNKNOWN = ["nope", "", "NL", "nl/v3", "toString", "__proto__", "constructor", "hasOwnProperty"];

describe("unknown games", () => {
  it.each(UNKNOWN)("gameInfo(%j) is a 404 unknown_game listing the games", (game) => {
    const error = expectRangesError(() => gameInfo(game), 404, "unknown_game");
    expect(error.hint?.games).toEqual([...GAME_IDS]);
    expect(error.message).toContain("nlmtt8");
    expect(isGameId(game)).toBe(false);
  });

  it("a non-string from an unchecked input is unknown_game too", () => {
    expectRangesError(() => gameInfo(undefined as unknown as string), 404, "unknown_game");
    expectRangesError(() => gameInfo(42 as unknown as string), 404, "unknown_game");
    expect(isGameId(undefined)).toBe(false);
  });

  it("every function that takes a game checks it", () => {
    const nope = "nope" as GameId;
    expectRangesError(() => isKeyless(nope, "node"), 404, "unknown_game");
    expectRangesError(() => parsePath(nope, "UTG"), 404, "unknown_game");
    expectRangesError(() => parsePath(nope, ""), 404, "unknown_game");
    expectRangesError(() => parseActionToken(nope, "Fold"), 404, "unknown_game");
    expectRangesError(() => parseHand(nope, "AKs"), 404, "unknown_game");
    expectRangesError(() => parseHand("toString" as GameId, "AKs"), 404, "unknown_game");
  });

  it("known games still answer", () => {
    for (const game of GAME_IDS) expect(gameInfo(game).id).toBe(game);
    expect(isKeyless("nl", "node")).toBe(true);
    expect(parsePath("nlmtt8", "UTG").actor).toBe("UTG");
  });
});
