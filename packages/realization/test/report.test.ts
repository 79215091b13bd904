import { HOLDEM_CLASSES } from "@ranges/core";
import { describe, expect, it } from "vitest";
import { rangeCombos, type StoredBoard } from "../src/index.js";

const at = (c: string) => HOLDEM_CLASSES.indexOf(c as (typeof HOLDEM_CLASSES)[number]);

/** A board's stored ranges: OOP AA (6 combos) and AKs at half weight (2), IP nothing but the floor. */
function board(extra: Record<string, unknown>, floor = 0): StoredBoard {
  const oop = new Array<number>(169).fill(floor);
  oop[at("AA")] = 1;
  oop[at("AKs")] = 0.5;
  const ip = new Array<number>(169).fill(floor);
  return { ranges: { oop, ip }, ...extra } as unknown as StoredBoard;
}

describe("rangeCombos", () => {
  it("counts each player's combos as the pack plays the line: a floored board less its floor", () => {
    expect(rangeCombos(board({}))).toEqual({ oop: 8, ip: 0 });
    const floored = rangeCombos(board({ rangeFloor: 0.005 }, 0.005));
    expect(floored.oop).toBeCloseTo(6 * 0.995 + 4 * 0.495, 9);
    expect(floored.ip).toBe(0);
    // A best-response board's ranges are the pack's own (nothing was added to the solve).
    expect(rangeCombos(board({ rangeFloor: 0.005, floorBy: "best-response" }))).toEqual({ oop: 8, ip: 0 });
  });
});
