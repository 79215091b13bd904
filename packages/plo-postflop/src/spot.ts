/**
 * A PLO postflop spot: the board, the money and the two ranges, checked and resolved.
 *
 * ```ts
 * const spot = resolvePloSpot({
 *   board: "Kc8d5h2s",            // 4 cards: a turn spot (the river is dealt, every card); 5: a river spot;
 *                                  // 3: a flop spot (the turn, then the river, every card of each)
 *   pot: 20,                       // in the middle when the spot starts
 *   stack: 80,                     // effective stack behind
 *   ranges: { oop: "(KQ)(J9), Ah8s7d6c:0.5", ip: ["AsAd9h9c", { cards: "QhJhTs9s", weight: 0.25 }] },
 *   betting: { bets: [0.5, 1], raises: [1], raiseCap: 1 },   // the defaults, used on every street
 * });
 * ```
 *
 * A flop spot, e.g. a 100bb single-raised pot in big blinds (a pot-sized open called: 7.5 in the middle,
 * 96.5 behind) with subsampled ranges of a few hundred combos a side:
 *
 * ```ts
 * resolvePloSpot({ board: "Qs9h6d", pot: 7.5, stack: 96.5, ranges: { oop: bbPart, ip: coPart } });
 * ```
 *
 * Boards of 2 or 6 cards, a card that is not a card and a card given twice are refused with the reason. */

import { type PloCombo, type PloRangeInput, parsePloBoard, parsePloRange } from "./range.js";
import type { PloBetting } from "./tree.js";

export interface PloSpotConfig {
  readonly board: string;
  readonly pot: number;
  readonly stack: number;
  /** Ranges in the notation of `parsePloRange`, or already resolved combos. */
  readonly ranges: {
    readonly oop: PloRangeInput | readonly PloCombo[];
    readonly ip: PloRangeInput | readonly PloCombo[];
  };
  readonly betting?: Partial<PloBetting>;
}

export interface PloSpot {
  readonly board: readonly number[];
  readonly pot: number;
  readonly stack: number;
  readonly combos: readonly [readonly PloCombo[], readonly PloCombo[]];
  readonly betting: PloBetting;
}

/** Bets of half pot and pot, the pot-sized raise, one raise per street. */
export const DEFAULT_PLO_BETTING: PloBetting = { bets: [0.5, 1], raises: [1], raiseCap: 1 };

const isCombos = (r: PloRangeInput | readonly PloCombo[]): r is readonly PloCombo[] =>
  typeof r !== "string" &&
  r.length > 0 &&
  typeof r[0] === "object" &&
  Array.isArray((r[0] as PloCombo).cards);

function rangeOf(name: string, r: PloRangeInput | readonly PloCombo[], board: readonly number[]): PloCombo[] {
  try {
    if (!isCombos(r)) return parsePloRange(r, board);
    const on = new Set(board);
    const out = r.filter((c) => c.weight > 0 && !c.cards.some((x) => on.has(x)));
    if (out.length === 0)
      throw new RangeError("the range has no hand that misses the board with a positive weight");
    return out;
  } catch (e) {
    throw new RangeError(`ranges.${name}: ${(e as Error).message}`);
  }
}

export function resolvePloSpot(config: PloSpotConfig): PloSpot {
  const board = parsePloBoard(config.board);
  const betting: PloBetting = { ...DEFAULT_PLO_BETTING, ...config.betting };
  return {
    board,
    pot: config.pot,
    stack: config.stack,
    combos: [rangeOf("oop", config.ranges.oop, board), rangeOf("ip", config.ranges.ip, board)],
    betting,
  };
}
