/**
 * Seven-card evaluator throughput on one core.
 *
 *   node packages/solver/bench/eval-bench.ts
 *
 * Runs straight from the TypeScript source (Node >= 22.18 / 24 strip types). Reports millions of
 * evaluations per second for random hands (pre-dealt, so dealing is not timed), for all 133,784,560
 * seven-card hands in order, and for the equity builder's pattern (one board, every pair of hole cards).
 */

import { cpus } from "node:os";
import { seededRandom } from "@ranges/core";
// The core module (no relative imports, so Node runs it from the source as it is); the package exports these
// same functions with the tables filled (src/eval/evaluator.ts).
import { evaluate5, evaluate7, evaluateWith2, fillTables, partialHand } from "../src/eval/evaluator-core.ts";

fillTables();

const RANDOM_HANDS = 1 << 21;
const ROUNDS = 5;

function dealRandomHands(count: number): Uint8Array {
  const random = seededRandom(42);
  const hands = new Uint8Array(count * 7);
  const deck = new Uint8Array(52);
  for (let hand = 0; hand < count; hand++) {
    for (let i = 0; i < 52; i++) deck[i] = i;
    for (let i = 0; i < 7; i++) {
      const pick = i + Math.floor(random() * (52 - i));
      hands[hand * 7 + i] = deck[pick]!;
      deck[pick] = deck[i]!;
    }
  }
  return hands;
}

/** Runs `body` (which returns how many evaluations it did) `rounds` times; returns the best rate, M/s. */
function measure(name: string, rounds: number, body: () => number): number {
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const evaluations = body();
    const rate = evaluations / (performance.now() - started) / 1000;
    best = Math.max(best, rate);
  }
  console.log(`${name.padEnd(44)} ${best.toFixed(1).padStart(7)} M evals/s`);
  return best;
}

// Each body sums its values locally (a captured mutable double would box on every store) and folds the sum
// in here once, so no loop can be optimized away.
let checksum = 0;

const hands = dealRandomHands(RANDOM_HANDS);
console.log(`node ${process.version}, ${cpus()[0]?.model ?? "unknown cpu"}, one core`);

measure("evaluate7, random hands", ROUNDS, () => {
  let sum = 0;
  for (let at = 0; at < hands.length; at += 7) {
    sum += evaluate7(
      hands[at]!,
      hands[at + 1]!,
      hands[at + 2]!,
      hands[at + 3]!,
      hands[at + 4]!,
      hands[at + 5]!,
      hands[at + 6]!,
    );
  }
  checksum += sum;
  return RANDOM_HANDS;
});

measure("evaluate7, all 133,784,560 hands in order", 1, () => {
  let count = 0;
  let sum = 0;
  for (let a = 0; a < 52; a++)
    for (let b = a + 1; b < 52; b++)
      for (let c = b + 1; c < 52; c++)
        for (let d = c + 1; d < 52; d++)
          for (let e = d + 1; e < 52; e++)
            for (let f = e + 1; f < 52; f++)
              for (let g = f + 1; g < 52; g++) {
                sum += evaluate7(a, b, c, d, e, f, g);
                count++;
              }
  checksum += sum;
  return count;
});

measure("evaluateWith2, 1,081 hole pairs per board", ROUNDS, () => {
  const random = seededRandom(7);
  let count = 0;
  let sum = 0;
  const onBoard = new Uint8Array(52);
  for (let board = 0; board < 2000; board++) {
    const cards = new Set<number>();
    while (cards.size < 5) cards.add(Math.floor(random() * 52));
    onBoard.fill(0);
    for (const card of cards) onBoard[card] = 1;
    const partial = partialHand([...cards]);
    for (let x = 0; x < 52; x++) {
      if (onBoard[x]) continue;
      for (let y = x + 1; y < 52; y++) {
        if (onBoard[y]) continue;
        sum += evaluateWith2(partial, x, y);
        count++;
      }
    }
  }
  checksum += sum;
  return count;
});

measure("evaluate5, all 2,598,960 hands in order", ROUNDS, () => {
  let count = 0;
  let sum = 0;
  for (let a = 0; a < 52; a++)
    for (let b = a + 1; b < 52; b++)
      for (let c = b + 1; c < 52; c++)
        for (let d = c + 1; d < 52; d++)
          for (let e = d + 1; e < 52; e++) {
            sum += evaluate5(a, b, c, d, e);
            count++;
          }
  checksum += sum;
  return count;
});

console.log(`checksum ${checksum}`);
