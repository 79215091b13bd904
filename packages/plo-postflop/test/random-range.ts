import { seededRandom } from "@ranges/core";
import { comboKey, type PloCombo } from "../src/index.js";

/** `count` random distinct hands off the board, with random weights (the tests' ranges). */
export function randomRange(board: number[], count: number, seed: number): PloCombo[] {
  const next = seededRandom(seed);
  const seen = new Set<string>();
  const out: PloCombo[] = [];
  while (out.length < count) {
    const cards = new Set<number>();
    while (cards.size < 4) {
      const c = Math.floor(next() * 52);
      if (!board.includes(c)) cards.add(c);
    }
    const sorted = [...cards].sort((a, b) => a - b) as [number, number, number, number];
    const key = comboKey(sorted);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ cards: sorted, weight: 0.2 + 0.8 * next(), cls: key });
  }
  return out;
}
