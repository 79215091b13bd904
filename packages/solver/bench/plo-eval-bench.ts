/**
 * Omaha evaluator throughput on one core.
 *
 *   node packages/solver/bench/plo-eval-bench.ts
 *
 * Runs from the TypeScript source against the built library (`pnpm build` first). Reports millions of four-card-hand evaluations per second on a
 * five-card board (exactly two hole cards and three board cards):
 *   per board, all hands   every one of the 178,365 four-card hands of the 47 cards left, board after board,
 *                          with the cost of rating the board's pairs (`new OmahaBoard`) included
 *   per board, 2,000 hands 2,000 random hands per board, board build included (a sparser use)
 *   direct, random deals   `evaluateOmaha` (60 five-card evaluations) on pre-dealt random deals
 */

import { cpus } from "node:os";
import { seededRandom } from "@ranges/core";
// The built library (`pnpm bench` builds first): its modules import each other as `.js`.
import { evaluateOmaha, OmahaBoard } from "../dist/index.js";

function randomBoard(random: () => number): number[] {
  const cards = new Set<number>();
  while (cards.size < 5) cards.add(Math.floor(random() * 52));
  return [...cards];
}

function measure(name: string, rounds: number, body: () => number): number {
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const evaluations = body();
    best = Math.max(best, evaluations / (performance.now() - started) / 1000);
  }
  console.log(`${name.padEnd(46)} ${best.toFixed(1).padStart(7)} M evals/s`);
  return best;
}

let checksum = 0;
console.log(`node ${process.version}, ${cpus()[0]?.model ?? "unknown cpu"}, one core`);

measure("OmahaBoard, all 178,365 hands per board", 3, () => {
  const random = seededRandom(11);
  let count = 0;
  let sum = 0;
  const rest = new Int32Array(47);
  for (let round = 0; round < 60; round++) {
    const board = new OmahaBoard(randomBoard(random));
    let n = 0;
    for (let c = 0; c < 52; c++) if (!board.board.includes(c)) rest[n++] = c;
    for (let a = 0; a < 47; a++)
      for (let b = a + 1; b < 47; b++)
        for (let c = b + 1; c < 47; c++)
          for (let d = c + 1; d < 47; d++) {
            sum += board.evaluate4(rest[a]!, rest[b]!, rest[c]!, rest[d]!);
            count++;
          }
  }
  checksum += sum;
  return count;
});

/** Pre-dealt boards, each with `hands` four-card hands of the cards left (dealing is not timed). */
function predeal(boards: number, hands: number, seed: number): { board: number[]; cards: Uint8Array }[] {
  const random = seededRandom(seed);
  return Array.from({ length: boards }, () => {
    const board = randomBoard(random);
    const cards = new Uint8Array(hands * 4);
    for (let h = 0; h < hands; h++) {
      const hand: number[] = [];
      while (hand.length < 4) {
        const c = Math.floor(random() * 52);
        if (!board.includes(c) && !hand.includes(c)) hand.push(c);
      }
      cards.set(hand, h * 4);
    }
    return { board, cards };
  });
}

const sparse = predeal(1000, 2000, 12);
measure("OmahaBoard, 2,000 random hands per board", 3, () => {
  let count = 0;
  let sum = 0;
  for (const { board: boardCards, cards } of sparse) {
    const board = new OmahaBoard(boardCards);
    for (let at = 0; at < cards.length; at += 4) {
      sum += board.evaluate4(cards[at]!, cards[at + 1]!, cards[at + 2]!, cards[at + 3]!);
      count++;
    }
  }
  checksum += sum;
  return count;
});

const single = predeal(100_000, 1, 13);
measure("evaluateOmaha (60 evaluations), random deals", 3, () => {
  let sum = 0;
  const hole = [0, 0, 0, 0];
  for (const { board, cards } of single) {
    hole[0] = cards[0]!;
    hole[1] = cards[1]!;
    hole[2] = cards[2]!;
    hole[3] = cards[3]!;
    sum += evaluateOmaha(hole, board);
  }
  checksum += sum;
  return single.length;
});

if (checksum === 0) console.log("(checksum 0)");
