/**
 * How far realization moved between two rounds of the self-consistency loop (issue 26, item 2): preflop
 * solve, postflop solves with the new ranges, new values, preflop solve, until the realized equity per class
 * moves less than 0.03 (range-weighted mean) between rounds.
 *
 * Per line and player present in both rounds:
 *
 *   movement = sum_c w_c * |realized_after(c) - realized_before(c)| / sum_c w_c
 *
 * over the classes both rounds solved, with w_c the class's equity mass in the later round (its ranges are
 * the ones the new pack publishes). The loop has converged when every line's movement is under the bar.
 */

import type { LineRealization } from "./aggregate.js";

/** The bar: range-weighted mean movement of realization per class between rounds. */
export const MOVEMENT_BAR = 0.03;

export interface LineMovement {
  readonly pack: string;
  readonly player: "oop" | "ip";
  readonly seat: string;
  /** Range-weighted mean absolute change of realization per class. */
  readonly movement: number;
  /** Classes compared (solved in both rounds). */
  readonly classes: number;
  /** The class that moved most, with its weight (in the later round) and both realizations. */
  readonly largest: {
    readonly class: string;
    readonly weight: number;
    readonly before: number;
    readonly after: number;
  } | null;
}

export interface RoundMovement {
  readonly lines: readonly LineMovement[];
  /** The largest line movement (the loop stops when it is under the bar). */
  readonly max: number;
  /** Lines of the later round with no counterpart in the earlier one (not compared). */
  readonly onlyAfter: readonly string[];
  readonly converged: boolean;
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** The movement from round `before` to round `after` (aggregates of the same lines, `aggregate`). */
export function roundMovement(
  before: readonly LineRealization[],
  after: readonly LineRealization[],
  bar = MOVEMENT_BAR,
): RoundMovement {
  const earlier = new Map(before.map((l) => [l.pack, l]));
  const lines: LineMovement[] = [];
  const onlyAfter: string[] = [];
  for (const line of after) {
    const old = earlier.get(line.pack);
    if (!old) {
      onlyAfter.push(line.pack);
      continue;
    }
    for (const player of ["oop", "ip"] as const) {
      const previous = new Map(old.players[player].classes.map((c) => [c.class, c.realizedSolved]));
      let sum = 0;
      let weight = 0;
      let count = 0;
      let largest: LineMovement["largest"] = null;
      let largestMove = -1;
      for (const row of line.players[player].classes) {
        const was = previous.get(row.class);
        if (was === undefined || !(row.weight > 0)) continue;
        const move = Math.abs(row.realizedSolved - was);
        sum += row.weight * move;
        weight += row.weight;
        count++;
        if (row.weight * move > largestMove) {
          largestMove = row.weight * move;
          largest = { class: row.class, weight: row.weight, before: was, after: row.realizedSolved };
        }
      }
      lines.push({
        pack: line.pack,
        player,
        seat: line.players[player].seat,
        movement: weight > 0 ? r4(sum / weight) : 0,
        classes: count,
        largest,
      });
    }
  }
  const max = lines.reduce((m, l) => Math.max(m, l.movement), 0);
  return { lines, max, onlyAfter, converged: lines.length > 0 && max < bar };
}
