/** Table positions from the button and the players dealt in (see `Position`). */

import type { Position } from "./types.js";

/** Positions by number of players dealt in, first to act preflop first. */
export const POSITIONS_BY_COUNT: Readonly<Record<number, readonly Position[]>> = {
  2: ["SB", "BB"],
  3: ["BTN", "SB", "BB"],
  4: ["CO", "BTN", "SB", "BB"],
  5: ["HJ", "CO", "BTN", "SB", "BB"],
  6: ["UTG", "HJ", "CO", "BTN", "SB", "BB"],
  7: ["UTG", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
  8: ["UTG", "UTG1", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
  9: ["UTG", "UTG1", "UTG2", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
  10: ["UTG", "UTG1", "UTG2", "UTG3", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
};

/**
 * The position of each seat dealt in, from the button seat.
 *
 * The button is the player on the button seat; when that seat is empty or sitting out (a dead button),
 * the nearest player dealt in before it. The small blind is the next player after the button (heads-up,
 * the button itself), the big blind the one after that, and the others count back from the button.
 * Tables of more than 10 players get null positions.
 *
 * @example
 * positionsOf([1, 2, 4, 5], 4) // Map { 5 => "SB", 1 => "BB", 2 => "CO", 4 => "BTN" }
 */
export function positionsOf(seats: readonly number[], buttonSeat: number): Map<number, Position> {
  const result = new Map<number, Position>();
  const n = seats.length;
  const labels = POSITIONS_BY_COUNT[n];
  if (!labels) return result;
  const sorted = [...seats].sort((a, b) => a - b);
  // The button: the last seat at or before buttonSeat, going round the table.
  let button = n - 1;
  for (let i = 0; i < n; i++) if (sorted[i]! <= buttonSeat) button = i;
  // Acting order preflop ends with BTN SB BB: the big blind is two seats after the button (one heads-up).
  const bb = (button + (n === 2 ? 1 : 2)) % n;
  for (let k = 0; k < n; k++) {
    // labels[n - 1] is BB; walk back from the big blind.
    result.set(sorted[(bb - k + n) % n]!, labels[n - 1 - k]!);
  }
  return result;
}
