/**
 * Omaha hand evaluation: a hand is exactly two of the player's hole cards and exactly three board cards, the
 * best of the 6 x 10 = 60 such five-card hands (cards are `rank * 4 + suit`, values as `evaluate5` gives them:
 * higher is better, equal values tie).
 *
 * `evaluateOmaha` does the 60 evaluations directly. For the many hands of one five-card board (equity, board
 * sweeps) `OmahaBoard` first rates every two-card pair on that board, the best of its 10 board triples
 * (1,081 pairs x 10 = 10,810 evaluations, about 0.1 ms); a four-card hand is then the best of its six pairs,
 * six table reads.
 *
 * e.g. board As Ks Qs Js 2d with hole Ts 9h 8h 7c: one spade in the hand is no flush, and T-9 with K-Q-J is a
 * king-high straight (the board's A-K-Q-J would need four board cards).
 */

import { evaluate5 } from "../eval/evaluator.js";

/** The ten three-card subsets of five board positions. */
const TRIPLES: readonly (readonly [number, number, number])[] = (() => {
  const out: [number, number, number][] = [];
  for (let i = 0; i < 5; i++)
    for (let j = i + 1; j < 5; j++) for (let k = j + 1; k < 5; k++) out.push([i, j, k]);
  return out;
})();

function checkCards(hole: ArrayLike<number>, board: ArrayLike<number>): void {
  if (hole.length < 2 || hole.length > 6)
    throw new RangeError(`Omaha needs 2 to 6 hole cards, got ${hole.length}`);
  if (board.length < 3 || board.length > 5)
    throw new RangeError(`a board has 3 to 5 cards, got ${board.length}`);
  // 52 bits in two words: cards 0..25 and 26..51.
  let low = 0;
  let high = 0;
  for (const cards of [hole, board]) {
    for (let i = 0; i < cards.length; i++) {
      const c = cards[i]!;
      if (!Number.isInteger(c) || c < 0 || c > 51) throw new RangeError(`card ${c} is not 0..51`);
      const bit = 1 << (c % 26);
      const word = c < 26 ? low : high;
      if (word & bit) throw new RangeError(`card ${c} appears twice`);
      if (c < 26) low |= bit;
      else high |= bit;
    }
  }
}

/**
 * The best Omaha hand of `hole` (2 to 6 cards: PLO, PLO5 and PLO6 alike) on `board` (3 to 5 cards), by
 * evaluating every two-hole-card, three-board-card combination. Cards must be distinct.
 */
export function evaluateOmaha(hole: ArrayLike<number>, board: ArrayLike<number>): number {
  checkCards(hole, board);
  let best = -1;
  const n = board.length;
  for (let i = 0; i < hole.length; i++) {
    for (let j = i + 1; j < hole.length; j++) {
      for (let a = 0; a < n; a++) {
        for (let b = a + 1; b < n; b++) {
          for (let c = b + 1; c < n; c++) {
            const v = evaluate5(hole[i]!, hole[j]!, board[a]!, board[b]!, board[c]!);
            if (v > best) best = v;
          }
        }
      }
    }
  }
  return best;
}

/** Every two-card pair rated on one five-card board, for evaluating many Omaha hands on it. */
export class OmahaBoard {
  readonly board: readonly number[];
  /** `pairs[a * 52 + b]` (both orders): the best hand of hole cards a, b with three board cards; -1 if unusable. */
  private readonly pairs = new Int32Array(52 * 52).fill(-1);
  /** Bit set of the board's cards. */
  readonly mask: bigint;

  constructor(board: ArrayLike<number>) {
    if (board.length !== 5)
      throw new RangeError(`OmahaBoard needs a five-card board, got ${board.length} cards`);
    this.board = Array.from(board);
    let mask = 0n;
    for (const c of this.board) {
      if (!Number.isInteger(c) || c < 0 || c > 51) throw new RangeError(`card ${c} is not 0..51`);
      if (mask & (1n << BigInt(c))) throw new RangeError(`card ${c} appears twice on the board`);
      mask |= 1n << BigInt(c);
    }
    this.mask = mask;
    const triples = TRIPLES.map(([i, j, k]) => [this.board[i]!, this.board[j]!, this.board[k]!] as const);
    const onBoard = (c: number) => (mask >> BigInt(c)) & 1n;
    for (let a = 0; a < 52; a++) {
      if (onBoard(a)) continue;
      for (let b = a + 1; b < 52; b++) {
        if (onBoard(b)) continue;
        let best = -1;
        for (const [x, y, z] of triples) {
          const v = evaluate5(a, b, x, y, z);
          if (v > best) best = v;
        }
        this.pairs[a * 52 + b] = best;
        this.pairs[b * 52 + a] = best;
      }
    }
  }

  /** The best hand of two hole cards with three of the board's. */
  pair(a: number, b: number): number {
    return this.pairs[a * 52 + b]!;
  }

  /** The best Omaha hand of four hole cards (distinct, none on the board). */
  evaluate4(a: number, b: number, c: number, d: number): number {
    const p = this.pairs;
    const ra = a * 52;
    const rb = b * 52;
    let best = p[ra + b]!;
    let v = p[ra + c]!;
    if (v > best) best = v;
    v = p[ra + d]!;
    if (v > best) best = v;
    v = p[rb + c]!;
    if (v > best) best = v;
    v = p[rb + d]!;
    if (v > best) best = v;
    v = p[c * 52 + d]!;
    return Math.max(v, best);
  }

  /** The best Omaha hand of 2 to 6 hole cards (distinct, none on the board). */
  evaluate(hole: ArrayLike<number>): number {
    let best = -1;
    for (let i = 0; i < hole.length; i++) {
      const row = hole[i]! * 52;
      for (let j = i + 1; j < hole.length; j++) {
        const v = this.pairs[row + hole[j]!]!;
        if (v > best) best = v;
      }
    }
    return best;
  }
}
