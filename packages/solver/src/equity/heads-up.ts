/**
 * Heads-up all-in equity between the 169 hold'em classes with combo-level card removal.
 *
 * EQ[a][b] is hero class a's share (win + tie / 2) averaged uniformly over the ordered combo pairs of a and b
 * that share no card, and over every five-card board from the 48 cards left. Two methods give it:
 *
 * - exact: every board, up to suit permutation. Permuting suits maps each class onto itself, so a board's class
 *   counts equal those of every board in its suit orbit; the 2,598,960 boards fall into 134,459 orbits, each
 *   swept once and weighted by its size. All counts are integers, so the result is exact (SE 0).
 * - monte-carlo: boards drawn uniformly from the 52 cards with a seeded generator; EQ is the ratio of summed
 *   showdown shares to summed live combo pairs, with the ratio estimator's standard error per class pair.
 *
 * Work splits into parts (one per worker thread); every sum is of integers below 2^53, so the result does not
 * depend on how many parts there are or in which order they are combined.
 */

import { seededRandom } from "@ranges/core";
import { evaluate7 } from "../eval/evaluator.js";
import { BoardSweep } from "./board-sweep.js";
import { CLASS_COUNT, CLASS_PAIR_COUNT, headsUpPairWeights } from "./combos.js";

export type HeadsUpMethod = "exact" | "monte-carlo";

/** A class-by-class heads-up equity table; every array is 169 x 169, row = hero class, grid order. */
export interface HeadsUpEquityTable {
  readonly method: HeadsUpMethod;
  /** Hero's equity (win + tie / 2) in [0, 1]. */
  readonly eq: Float64Array;
  /** Non-conflicting ordered combo pairs (W). */
  readonly w: Float64Array;
  /** Standard error of each equity (0 for exact). */
  readonly se: Float64Array;
  /** Boards behind each entry: all 2,598,960 for exact, the number drawn for monte-carlo. */
  readonly samples: number;
  /** Generator seed (0 for exact). */
  readonly seed: number;
}

export interface HeadsUpJob {
  readonly method: HeadsUpMethod;
  /** This part's number (0-based) and the number of parts the work is split into. */
  readonly part: number;
  readonly parts: number;
  /** Monte Carlo only: boards to draw in total, over all parts, and the seed. */
  readonly samples?: number;
  readonly seed?: number;
}

/** Sums one part contributes; arrays are 169 x 169 like the table. */
export interface HeadsUpPartial {
  readonly boards: number;
  /** Weighted ordered pairs won by the row class, and tied. */
  readonly wins: Float64Array;
  readonly ties: Float64Array;
  /** Monte Carlo only: per board y = 2 wins + ties (half points) and x = live pairs; sums of y^2, x^2, xy. */
  readonly sumY2?: Float64Array;
  readonly sumX2?: Float64Array;
  readonly sumXY?: Float64Array;
}

export const ALL_BOARDS = 2_598_960;
/** Boards left once four hole cards are out: C(48, 5). */
export const BOARDS_PER_MATCHUP = 1_712_304;
/** Monte Carlo boards come in blocks, each from its own seeded stream, so parts can share them out. */
const SAMPLE_BLOCK = 1024;

/**
 * One board per suit-permutation orbit, `boards[5 i .. 5 i + 4]`, with `weights[i]` the orbit size.
 * A board's key is its four per-suit rank masks sorted, which is the same for every suit permutation.
 */
export function canonicalBoards(): { boards: Uint8Array; weights: Uint8Array } {
  const orbitSize = new Map<number, number>();
  const masks = new Int32Array(4);
  for (let a = 0; a < 52; a++) {
    for (let b = a + 1; b < 52; b++) {
      for (let c = b + 1; c < 52; c++) {
        for (let d = c + 1; d < 52; d++) {
          for (let e = d + 1; e < 52; e++) {
            masks.fill(0);
            for (const card of [a, b, c, d, e]) masks[card & 3]! |= 1 << (card >> 2);
            masks.sort();
            const key = ((masks[3]! * 8192 + masks[2]!) * 8192 + masks[1]!) * 8192 + masks[0]!;
            orbitSize.set(key, (orbitSize.get(key) ?? 0) + 1);
          }
        }
      }
    }
  }
  const boards = new Uint8Array(orbitSize.size * 5);
  const weights = new Uint8Array(orbitSize.size);
  let index = 0;
  for (const [key, size] of orbitSize) {
    let rest = key;
    let filled = 0;
    for (let suit = 0; suit < 4; suit++) {
      const mask = rest % 8192;
      rest = Math.floor(rest / 8192);
      for (let rank = 0; rank < 13; rank++)
        if (mask & (1 << rank)) boards[index * 5 + filled++] = rank * 4 + suit;
    }
    weights[index++] = size;
  }
  return { boards, weights };
}

/** Seed of a Monte Carlo block: mixes the run seed with the block number. */
const blockSeed = (seed: number, block: number): number =>
  Math.imul((seed ^ Math.imul(block + 1, 0x9e3779b9)) >>> 0, 0x85ebca6b) ^ block;

/** Computes one part of the table's sums. `onProgress` gets (boards done, boards in this part). */
export function computeHeadsUpPart(
  job: HeadsUpJob,
  onProgress?: (done: number, total: number) => void,
): HeadsUpPartial {
  const sweep = new BoardSweep();
  const wins = new Float64Array(CLASS_PAIR_COUNT);
  const ties = new Float64Array(CLASS_PAIR_COUNT);
  if (job.method === "exact") {
    const { boards, weights } = canonicalBoards();
    const total = weights.length;
    let done = 0;
    for (let i = job.part; i < total; i += job.parts) {
      sweep.accumulate(boards.subarray(i * 5, i * 5 + 5), weights[i]!, wins, ties);
      if (++done % 4096 === 0) onProgress?.(done, Math.ceil((total - job.part) / job.parts));
    }
    return { boards: done, wins, ties };
  }

  const samples = job.samples ?? 0;
  const seed = job.seed ?? 0;
  const boardWins = new Float64Array(CLASS_PAIR_COUNT);
  const boardTies = new Float64Array(CLASS_PAIR_COUNT);
  const sumY2 = new Float64Array(CLASS_PAIR_COUNT);
  const sumX2 = new Float64Array(CLASS_PAIR_COUNT);
  const sumXY = new Float64Array(CLASS_PAIR_COUNT);
  const deck = new Uint8Array(52);
  const board = new Uint8Array(5);
  const blocks = Math.ceil(samples / SAMPLE_BLOCK);
  const partTotal = Math.ceil((blocks - job.part) / job.parts) * SAMPLE_BLOCK;
  let done = 0;
  for (let block = job.part; block < blocks; block += job.parts) {
    const random = seededRandom(blockSeed(seed, block));
    const blockEnd = Math.min(samples, (block + 1) * SAMPLE_BLOCK);
    for (let sample = block * SAMPLE_BLOCK; sample < blockEnd; sample++) {
      for (let card = 0; card < 52; card++) deck[card] = card;
      for (let i = 0; i < 5; i++) {
        const pick = i + Math.floor(random() * (52 - i));
        board[i] = deck[pick]!;
        deck[pick] = deck[i]!;
      }
      boardWins.fill(0);
      boardTies.fill(0);
      sweep.accumulate(board, 1, boardWins, boardTies);
      for (let hero = 0; hero < CLASS_COUNT; hero++) {
        for (let villain = 0; villain < CLASS_COUNT; villain++) {
          const at = hero * CLASS_COUNT + villain;
          const won = boardWins[at]!;
          const tied = boardTies[at]!;
          const y = 2 * won + tied;
          const x = won + boardWins[villain * CLASS_COUNT + hero]! + tied;
          wins[at]! += won;
          ties[at]! += tied;
          sumY2[at]! += y * y;
          sumX2[at]! += x * x;
          sumXY[at]! += x * y;
        }
      }
      if (++done % 4096 === 0) onProgress?.(done, partTotal);
    }
  }
  return { boards: done, wins, ties, sumY2, sumX2, sumXY };
}

function addInto(target: Float64Array, source: Float64Array | undefined): void {
  if (!source) return;
  for (let i = 0; i < target.length; i++) target[i]! += source[i]!;
}

/** Combines the parts of one job into the table; checks every pair's board count against W. */
export function combineHeadsUpParts(
  method: HeadsUpMethod,
  partials: readonly HeadsUpPartial[],
  seed = 0,
): HeadsUpEquityTable {
  const wins = new Float64Array(CLASS_PAIR_COUNT);
  const ties = new Float64Array(CLASS_PAIR_COUNT);
  const sumY2 = new Float64Array(CLASS_PAIR_COUNT);
  const sumX2 = new Float64Array(CLASS_PAIR_COUNT);
  const sumXY = new Float64Array(CLASS_PAIR_COUNT);
  let boards = 0;
  for (const partial of partials) {
    boards += partial.boards;
    addInto(wins, partial.wins);
    addInto(ties, partial.ties);
    addInto(sumY2, partial.sumY2);
    addInto(sumX2, partial.sumX2);
    addInto(sumXY, partial.sumXY);
  }
  const w = headsUpPairWeights();
  const eq = new Float64Array(CLASS_PAIR_COUNT);
  const se = new Float64Array(CLASS_PAIR_COUNT);
  for (let hero = 0; hero < CLASS_COUNT; hero++) {
    for (let villain = 0; villain < CLASS_COUNT; villain++) {
      const at = hero * CLASS_COUNT + villain;
      const sumY = 2 * wins[at]! + ties[at]!;
      const sumX = wins[at]! + wins[villain * CLASS_COUNT + hero]! + ties[at]!;
      if (method === "exact" && sumX !== w[at]! * BOARDS_PER_MATCHUP) {
        throw new Error(`class pair ${hero},${villain}: ${sumX} showdowns, expected W x C(48,5)`);
      }
      const ratio = sumY / sumX;
      eq[at] = ratio / 2;
      if (method === "monte-carlo" && boards > 1) {
        // Ratio estimator: var(R) ~ sum (y - R x)^2 / (sum x)^2 * n / (n - 1), here in half points.
        const residual = sumY2[at]! - 2 * ratio * sumXY[at]! + ratio * ratio * sumX2[at]!;
        se[at] = Math.sqrt((Math.max(0, residual) * boards) / (boards - 1)) / sumX / 2;
      }
    }
  }
  return {
    method,
    eq,
    w,
    se,
    samples: method === "exact" ? ALL_BOARDS : boards,
    seed: method === "exact" ? 0 : seed,
  };
}

/** Single-threaded table (tests, small runs); the build script spreads the same parts over worker threads. */
export function computeHeadsUpEquity(options: {
  method: HeadsUpMethod;
  samples?: number;
  seed?: number;
}): HeadsUpEquityTable {
  const job = { ...options, part: 0, parts: 1 };
  return combineHeadsUpParts(options.method, [computeHeadsUpPart(job)], options.seed ?? 0);
}

export interface MatchupResult {
  /** Boards where the first combo wins, ties, loses. */
  readonly win: number;
  readonly tie: number;
  readonly loss: number;
  readonly boards: number;
  /** (win + tie / 2) / boards. */
  readonly equity: number;
}

/** Exact equity of one concrete combo against another over all C(48, 5) boards. Cards are 0..51. */
export function exactHeadsUpEquity(
  comboA: readonly [number, number],
  comboB: readonly [number, number],
): MatchupResult {
  const [a1, a2] = comboA;
  const [b1, b2] = comboB;
  if (new Set([a1, a2, b1, b2]).size !== 4) throw new RangeError("the two combos share a card");
  const deck: number[] = [];
  for (let card = 0; card < 52; card++)
    if (card !== a1 && card !== a2 && card !== b1 && card !== b2) deck.push(card);
  let win = 0;
  let tie = 0;
  let boards = 0;
  const n = deck.length;
  for (let i = 0; i < n; i++) {
    const c1 = deck[i]!;
    for (let j = i + 1; j < n; j++) {
      const c2 = deck[j]!;
      for (let k = j + 1; k < n; k++) {
        const c3 = deck[k]!;
        for (let l = k + 1; l < n; l++) {
          const c4 = deck[l]!;
          for (let m = l + 1; m < n; m++) {
            const c5 = deck[m]!;
            const hero = evaluate7(c1, c2, c3, c4, c5, a1, a2);
            const villain = evaluate7(c1, c2, c3, c4, c5, b1, b2);
            if (hero > villain) win++;
            else if (hero === villain) tie++;
            boards++;
          }
        }
      }
    }
  }
  return { win, tie, loss: boards - win - tie, boards, equity: (win + tie / 2) / boards };
}
