/**
 * The cards a spot deals and where each deal's numbers live.
 *
 * A spot's first street is played on its board; each later street starts with a card dealt by a chance node
 * (street 1: the turn on a flop spot, the river on a turn spot; street 2: the river on a flop spot). A card
 * is dealt from the 52 less the board, the cards dealt before and both hands: so for a pair of hands that
 * can meet, each street-1 card has probability 1 / (52 - board - 8) (41 on a flop, 40 on a turn) and each
 * river below a flop's turn 1 / 40, and the solver divides by these constants after zeroing the reach of the
 * hands that hold the card (exact card removal).
 *
 * Numbering (the `deal` of `PloStrategyOf`): on street 0 the deal is ignored (0); on street 1 it is the card
 * dealt (0..51); on street 2 it is `turn * 52 + river` (`riverDeal`). Storage slots are dense: street 0 has
 * one, street 1 one per card of `first`, street 2 one per ordered (turn, river) pair.
 */

import { type FinalBoard, finalBoard, type HandTable } from "./showdown.js";
import type { PloSpot } from "./spot.js";
import type { PloStreets } from "./tree.js";

/** The deal of a river decision below a flop spot's turn. */
export const riverDeal = (turn: number, river: number): number => turn * 52 + river;

export class Runouts {
  readonly streets: PloStreets;
  /** Cards street 1 may start with (not on the board), ascending. */
  readonly first: readonly number[];
  /** Per chance street (1, 2): the constant a chance node divides by. */
  readonly divisor: readonly [number, number, number];
  /** Per player, per card: the indices of the hands holding it. */
  readonly dead: [Int32Array[], Int32Array[]] = [[], []];
  /** Slots per street. */
  readonly slotCounts: readonly [number, number, number];
  private readonly slot1 = new Int32Array(52).fill(-1);
  private readonly slot2 = new Int32Array(52 * 52).fill(-1);
  /** Per street-1 card: the cards street 2 may start with. */
  private readonly seconds: number[][] = [];
  /** Final boards: a river spot's at [0]; a turn spot's per river card; a flop spot's per unordered pair. */
  private readonly finals: FinalBoard[] = [];

  constructor(spot: PloSpot, tables: readonly [HandTable, HandTable]) {
    const board = spot.board;
    this.streets = (6 - board.length) as PloStreets;
    const on = new Set(board);
    const first: number[] = [];
    for (let c = 0; c < 52; c++) if (!on.has(c)) first.push(c);
    this.first = this.streets > 1 ? first : [];
    this.divisor = [1, 52 - board.length - 8, 52 - board.length - 9];
    for (const c of this.first) {
      for (const p of [0, 1] as const) {
        this.dead[p][c] = Int32Array.from(spot.combos[p].flatMap((h, i) => (h.cards.includes(c) ? [i] : [])));
      }
    }
    this.first.forEach((c, i) => {
      this.slot1[c] = i;
    });
    if (this.streets === 1) this.finals[0] = finalBoard(board, tables);
    if (this.streets === 2) for (const r of this.first) this.finals[r] = finalBoard([...board, r], tables);
    let slots2 = 0;
    if (this.streets === 3) {
      for (const t of this.first) {
        this.seconds[t] = this.first.filter((r) => r !== t);
        for (const r of this.seconds[t]) {
          this.slot2[t * 52 + r] = slots2++;
          if (r > t) this.finals[t * 52 + r] = finalBoard([...board, t, r], tables);
        }
      }
    }
    this.slotCounts = [1, this.first.length, slots2];
  }

  /** The cards a chance node of `street` deals, given the street-1 card (`turn`) for street 2. */
  cards(street: 1 | 2, turn: number): readonly number[] {
    return street === 1 ? this.first : this.seconds[turn]!;
  }

  /** The storage slot of a decision on `street` under the cards dealt (`c1` on street 1, then `c2`). */
  slot(street: 0 | 1 | 2, c1: number, c2: number): number {
    return street === 0 ? 0 : street === 1 ? this.slot1[c1]! : this.slot2[c1 * 52 + c2]!;
  }

  /** The public deal number of a decision on `street` (see the file's comment). */
  deal(street: 0 | 1 | 2, c1: number, c2: number): number {
    return street === 0 ? 0 : street === 1 ? c1 : riverDeal(c1, c2);
  }

  /** The storage slot of a public deal number. */
  slotOfDeal(street: 0 | 1 | 2, deal: number): number {
    return street === 0 ? 0 : street === 1 ? this.slot1[deal]! : this.slot2[deal]!;
  }

  /** The five-card board under the cards dealt (ignored where the spot's board has them). */
  final(c1: number, c2: number): FinalBoard {
    if (this.streets === 1) return this.finals[0]!;
    if (this.streets === 2) return this.finals[c1]!;
    return this.finals[c1 < c2 ? c1 * 52 + c2 : c2 * 52 + c1]!;
  }

  /** The five-card board once every card is dealt (`c1`, `c2` as far as the spot deals them), else undefined. */
  complete(c1: number, c2: number): FinalBoard | undefined {
    if (this.streets === 1 || (this.streets === 2 && c1 >= 0) || c2 >= 0) return this.final(c1, c2);
    return undefined;
  }

  /** Every five-card board with its probability weight: `visit(final, weight)`, weights summing to 1 per pair of hands. */
  forEachFinal(visit: (fb: FinalBoard, weight: number) => void): void {
    if (this.streets === 1) {
      visit(this.finals[0]!, 1);
      return;
    }
    if (this.streets === 2) {
      for (const r of this.first) visit(this.finals[r]!, 1 / this.divisor[1]);
      return;
    }
    // each unordered pair is two ordered (turn, river) deals
    const w = 2 / (this.divisor[1] * this.divisor[2]);
    for (const t of this.first)
      for (const r of this.seconds[t]!) if (r > t) visit(this.finals[t * 52 + r]!, w);
  }
}
