/**
 * The flops a realization batch solves. Per-class realization needs every rank on the board about as often
 * as the others: a pocket pair realizes its equity by flopping a set, a suited ace by pairing its kicker. The
 * postflop packs' representative flops (`representativeFlops`) pick each texture cell's most central member,
 * so their 30 flops hold no deuce and six sixes for every two eights; fitted per class, that shows up as 22
 * realizing 0.31 and every hand holding a 4, 6 or 7 far above its neighbours.
 *
 * `balancedFlops(n)`: a seeded stratified sample of the 22,100 flops. The 3n rank slots hold every rank
 * floor(3n/13) or ceil(3n/13) times; a seeded shuffle deals them into n flops, and each card takes a suit at
 * random among those its rank has left on that flop (so suit textures come out as they fall, given the
 * ranks). Every flop weighs 1/n. Boards are written in their canonical suit order (`canonicalBoard`).
 *
 * ```ts
 * balancedFlops(30) // 30 flops, every rank 6 or 7 times, weights 1/30
 * ```
 */

import { type Card, makeCard, RANK_CHARS, seededRandom } from "@ranges/core";
import { canonicalBoard, representativeFlops } from "@ranges/postflop";

/** The seed of the committed batches' balanced flops. */
export const BALANCED_FLOPS_SEED = 20261127;

export interface WeightedFlop {
  readonly board: string;
  readonly weight: number;
}

export function balancedFlops(count: number, seed = BALANCED_FLOPS_SEED): WeightedFlop[] {
  if (!Number.isInteger(count) || count < 1 || count > 1000)
    throw new RangeError(`count must be a whole number from 1 to 1000, got ${count}`);
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const slots = 3 * count;
  const ranks: number[] = [];
  for (let r = 0; r < 13; r++) for (let k = 0; k < Math.floor(slots / 13); k++) ranks.push(r);
  // The remainder: distinct ranks, chosen at random.
  const extra = Array.from({ length: 13 }, (_, r) => r);
  for (let i = 0; i < slots % 13; i++) ranks.push(extra.splice(pick(extra.length), 1)[0]!);
  // Fisher-Yates.
  for (let i = ranks.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [ranks[i], ranks[j]] = [ranks[j]!, ranks[i]!];
  }
  const out: WeightedFlop[] = [];
  for (let f = 0; f < count; f++) {
    const cards: Card[] = [];
    for (const rank of ranks.slice(3 * f, 3 * f + 3)) {
      const free = [0, 1, 2, 3].filter((s) => !cards.includes(makeCard(rank, s)));
      cards.push(makeCard(rank, free[pick(free.length)]!));
    }
    cards.sort((a, b) => b - a);
    out.push({ board: canonicalBoard(cards), weight: 1 / count });
  }
  return out;
}

/**
 * The flop sets a batch can solve: `balanced` (per-class work; every line the same flops),
 * `balanced-per-line` (the same kind of sample, drawn afresh for each line with `lineFlopSeed`, so that lines
 * do not share their flops' noise: a class that the flops favour in one line is not favoured in every line),
 * or the postflop packs' `representative`.
 */
export type FlopSet = "balanced" | "balanced-per-line" | "representative";

/**
 * The seed of a line's own balanced flops: the batches' seed plus a hash (FNV-1a) of `game/stack/line`.
 *
 * ```ts
 * balancedFlops(15, lineFlopSeed("nlmtt8", 40, "srp-btn-bb"))
 * ```
 */
export function lineFlopSeed(game: string, stack: number, line: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${game}/${stack}/${line}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (BALANCED_FLOPS_SEED + h) % 2147483647;
}

/** The flops of a set; `line` picks the flops of `balanced-per-line` (required there). */
export function flopsOf(
  set: FlopSet,
  count: number,
  line?: { readonly game: string; readonly stack: number; readonly line: string },
): WeightedFlop[] {
  if (set === "balanced") return balancedFlops(count);
  if (set === "balanced-per-line") {
    if (!line) throw new RangeError("balanced-per-line flops need the line they are for");
    return balancedFlops(count, lineFlopSeed(line.game, line.stack, line.line));
  }
  return representativeFlops(count).map((f) => ({ board: f.board, weight: f.weight }));
}

/** How many times each rank (deuce first) appears on a set of flops. */
export function rankCounts(flops: readonly WeightedFlop[]): number[] {
  const counts = new Array<number>(13).fill(0);
  for (const f of flops)
    for (let i = 0; i < f.board.length; i += 2) counts[RANK_CHARS.indexOf(f.board[i]!)]! += 1;
  return counts;
}
