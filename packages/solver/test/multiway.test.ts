/**
 * The board-conditioned duels table (src/equity/multiway.ts) and the engine's multiway matrices built from it
 * (src/model/multiway.ts).
 */

import { holdemClassIndex, seededRandom } from "@ranges/core";
import { describe, expect, it } from "vitest";
import {
  COMBO_CLASS,
  COMBO_COUNT,
  COMBO_HIGH_CARD,
  COMBO_LOW_CARD,
  combineMultiwayParts,
  computeMultiwayPart,
  loadHeadsUpEquity,
  loadMultiwayTable,
  multiwayBucketEdges,
  parseMultiwayTable,
  serializeMultiwayTable,
} from "../src/equity/index.js";
import { evaluate7 } from "../src/eval/index.js";
import { buildBucketedDuels } from "../src/model/multiway.js";
import { buildShareMatrices } from "../src/model/realization.js";
import { treeConfigPath } from "../src/solve/files.js";
import { loadTreeConfig } from "../src/tree/config.js";

const N = 169;
const cls = (name: string): number => {
  const index = holdemClassIndex(name);
  if (index === undefined) throw new Error(`no class ${name}`);
  return index;
};

/** The boards of the first block of a part-0 job, drawn as computeMultiwayPart draws them. */
function firstBoards(seed: number, count: number): number[][] {
  const random = seededRandom((seed * 1_000_003) >>> 0);
  return Array.from({ length: count }, () => {
    const board: number[] = [];
    while (board.length < 5) {
      const card = Math.floor(random() * 52);
      if (!board.includes(card)) board.push(card);
    }
    return board;
  });
}

describe("board-conditioned duels table", () => {
  it("counts every hero combo's wins and ties against every class exactly (brute force on three boards)", () => {
    const seed = 11;
    const part = computeMultiwayPart({
      part: 0,
      parts: 1,
      boards: 3,
      buckets: 1,
      seed,
      edges: new Float64Array(0),
    });
    const share = new Float64Array(N * N);
    const mass = new Float64Array(N * N);
    const count = new Float64Array(N);
    for (const board of firstBoards(seed, 3)) {
      const live = (c: number) => !board.includes(COMBO_LOW_CARD[c]!) && !board.includes(COMBO_HIGH_CARD[c]!);
      const value = new Int32Array(COMBO_COUNT);
      for (let c = 0; c < COMBO_COUNT; c++)
        if (live(c))
          value[c] = evaluate7(
            COMBO_LOW_CARD[c]!,
            COMBO_HIGH_CARD[c]!,
            board[0]!,
            board[1]!,
            board[2]!,
            board[3]!,
            board[4]!,
          );
      for (let h = 0; h < COMBO_COUNT; h++) {
        if (!live(h)) continue;
        const a = COMBO_CLASS[h]!;
        count[a]!++;
        for (let x = 0; x < COMBO_COUNT; x++) {
          if (x === h || !live(x)) continue;
          const cards = [COMBO_LOW_CARD[x]!, COMBO_HIGH_CARD[x]!];
          if (cards.includes(COMBO_LOW_CARD[h]!) || cards.includes(COMBO_HIGH_CARD[h]!)) continue;
          const b = COMBO_CLASS[x]!;
          mass[a * N + b]!++;
          share[a * N + b]! += value[h]! > value[x]! ? 1 : value[h] === value[x] ? 0.5 : 0;
        }
      }
    }
    expect(part.boards).toBe(3);
    expect(Array.from(part.count)).toEqual(Array.from(count));
    expect(Array.from(part.mass)).toEqual(Array.from(mass));
    expect(Array.from(part.share)).toEqual(Array.from(share));
  });

  it("buckets by strength: edges rise, every bucket is about 1/K of a class, and stronger buckets win more", () => {
    const edges = multiwayBucketEdges(4, 300, 3);
    for (let a = 0; a < N; a++)
      for (let i = 1; i < 3; i++) expect(edges[a * 3 + i]).toBeGreaterThanOrEqual(edges[a * 3 + i - 1]!);
    const parts = [0, 1].map((part) =>
      computeMultiwayPart({ part, parts: 2, boards: 600, buckets: 4, seed: 3, edges }),
    );
    const table = combineMultiwayParts(parts, { buckets: 4, seed: 3, edges, pilotBoards: 300 });
    expect(table.boards).toBe(600);
    for (let a = 0; a < N; a++) {
      let total = 0;
      for (let k = 0; k < 4; k++) total += table.pi[a * 4 + k]!;
      expect(total).toBeCloseTo(1, 12);
    }
    const aa = cls("AA");
    const t72 = cls("72o");
    for (const a of [aa, t72]) {
      const d = (k: number) => table.eq[(a * 4 + k) * N + cls("KQs")]!;
      expect(d(3)).toBeGreaterThan(d(0));
    }
    expect(table.se.some((x) => x > 0)).toBe(true);
    // The file round-trips (f32) and a flipped byte is caught.
    const bytes = serializeMultiwayTable(table);
    const back = parseMultiwayTable(bytes);
    expect(back.buckets).toBe(4);
    expect(back.boards).toBe(600);
    for (let i = 0; i < table.eq.length; i += 997) expect(back.eq[i]).toBeCloseTo(table.eq[i]!, 6);
    const bad = bytes.slice();
    bad[bad.length - 9]! ^= 0xff;
    expect(() => parseMultiwayTable(bad)).toThrow(/corrupt/);
    expect(() => parseMultiwayTable(bytes.slice(0, 40))).toThrow();
  });

  it("the committed table agrees with the exact heads-up table: sum_k pi_k nu_k d_k(a, b) is the equity", () => {
    const table = loadMultiwayTable();
    const hu = loadHeadsUpEquity();
    const K = table.buckets;
    let worst = 0;
    for (let a = 0; a < N; a++)
      for (let b = 0; b < N; b++) {
        if (hu.w[a * N + b] === 0) continue;
        let mean = 0;
        let weight = 0;
        for (let k = 0; k < K; k++) {
          const i = (a * K + k) * N + b;
          mean += table.pi[a * K + k]! * table.nu[i]! * table.eq[i]!;
          weight += table.pi[a * K + k]! * table.nu[i]!;
        }
        expect(weight).toBeCloseTo(1, 5);
        worst = Math.max(worst, Math.abs(mean - hu.eq[a * N + b]!));
      }
    expect(worst).toBeLessThan(0.01);
  });

  it("engine matrices: heads-up marginals are the heads-up matrices exactly, every bucket's share in [0, 1]", () => {
    const table = loadMultiwayTable();
    const hu = loadHeadsUpEquity();
    const config = loadTreeConfig(treeConfigPath("nl"));
    const shares = buildShareMatrices(config.model, hu.eq, hu.w);
    const duels = buildBucketedDuels(table, hu.w, shares.matrices);
    const K = duels.buckets;
    expect(duels.matrices.length).toBe(shares.matrices.length * K);
    let worst = 0;
    for (let m = 0; m < shares.matrices.length; m++)
      for (let a = 0; a < N; a += 3)
        for (let b = 0; b < N; b++) {
          const ab = a * N + b;
          const w = hu.w[ab]!;
          if (w === 0) continue;
          let mean = 0;
          for (let k = 0; k < K; k++) {
            const nu = table.nu[(a * K + k) * N + b]!;
            const s = nu > 0 ? duels.matrices[m * K + k]![ab]! / (w * nu) : 0;
            expect(s).toBeGreaterThanOrEqual(0);
            expect(s).toBeLessThanOrEqual(1);
            mean += duels.pi[a * K + k]! * nu * s;
          }
          worst = Math.max(worst, Math.abs(mean - shares.matrices[m]![ab]! / w));
        }
    expect(worst).toBeLessThan(1e-9);
  });
});
