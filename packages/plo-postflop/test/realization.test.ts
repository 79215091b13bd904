import { seededRandom } from "@ranges/core";
import { describe, expect, it } from "vitest";
import {
  type PloCombo,
  type PloComboResult,
  parsePloBoard,
  poolRealization,
  resolvePloSpot,
  samplePloRange,
  samplePloRealization,
  solveResolvedSpot,
} from "../src/index.js";
import { randomRange } from "./random-range.js";

const RIVER = "Kc8d5h2s7c";
const board = parsePloBoard(RIVER);

describe("dealing a subgame from a range", () => {
  it("deals k distinct combos, ascending, or the whole range when it is smaller", () => {
    const range = randomRange(board, 30, 1);
    const next = seededRandom(2);
    const k = samplePloRange(range, 10, next);
    expect(k).toHaveLength(10);
    expect(new Set(k).size).toBe(10);
    expect([...k].sort((a, b) => a - b)).toEqual(k);
    expect(samplePloRange(range, 50, next)).toEqual([...range.keys()]);
  });

  it("deals combos in proportion to their weights", () => {
    const range: PloCombo[] = randomRange(board, 100, 3).map((c, i) => ({ ...c, weight: i < 50 ? 1 : 0.2 }));
    const next = seededRandom(4);
    let heavy = 0;
    let light = 0;
    for (let draw = 0; draw < 2000; draw++)
      for (const i of samplePloRange(range, 5, next)) {
        if (i < 50) heavy++;
        else light++;
      }
    expect(heavy / light).toBeGreaterThan(4);
    expect(heavy / light).toBeLessThan(6);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses k = %d", (k) => {
    expect(() => samplePloRange(randomRange(board, 5, 1), k, seededRandom(1))).toThrow(
      /k .* must be an integer/,
    );
  });
});

describe("realization from random subgames", () => {
  const spotOf = (stack: number, n = 40) =>
    resolvePloSpot({
      board: RIVER,
      pot: 10,
      stack,
      ranges: { oop: randomRange(board, n, 11), ip: randomRange(board, n, 12) },
    });

  it("realizes exactly the equity when no one can bet (stack 0): every class at 1", () => {
    const r = samplePloRealization(spotOf(0), {
      subgames: 3,
      chunk: 15,
      seed: 5,
      solve: { maxIterations: 1 },
    });
    expect(r.subgames).toHaveLength(3);
    for (const side of r.classes) {
      expect(side.length).toBeGreaterThan(10);
      for (const c of side) {
        expect(c.ev).toBeCloseTo(10 * c.equity, 9);
        // realization is undefined at equity 0 (a river hand that loses to every hand it meets)
        if (c.equity > 0) expect(c.realization).toBeCloseTo(1, 9);
        else expect(c.realization).toBeNaN();
      }
    }
  });

  it("is the exact solve when the subgame deals the whole ranges at weight 1", () => {
    const spot = spotOf(20, 25);
    const flat = {
      ...spot,
      combos: [
        spot.combos[0].map((c) => ({ ...c, weight: 1 })),
        spot.combos[1].map((c) => ({ ...c, weight: 1 })),
      ] as const,
    };
    const solve = { targetExploitability: 0, maxIterations: 40, checkEvery: 20 };
    const sampled = samplePloRealization(flat, { subgames: 1, chunk: 25, seed: 9, solve });
    const exact = solveResolvedSpot(flat, solve);
    expect(sampled.subgames[0]!.picked[0]).toEqual([...flat.combos[0].keys()]);
    for (const p of [0, 1] as const)
      sampled.subgames[0]!.combos[p].forEach((c, i) => {
        expect(c.ev).toBe(exact.combos[p][i]!.ev);
        expect(c.equity).toBe(exact.combos[p][i]!.equity);
      });
  });

  it("gives subgame k the same deal and result whatever else is solved (a batch can resume)", () => {
    const spot = spotOf(20);
    const solve = { targetExploitability: 0, maxIterations: 20, checkEvery: 20 };
    const all = samplePloRealization(spot, { subgames: 3, chunk: 12, seed: 7, solve });
    const third = samplePloRealization(spot, { subgames: 1, chunk: 12, seed: 7, from: 2, solve });
    expect(third.subgames[0]!.index).toBe(2);
    expect(third.subgames[0]!.picked).toEqual(all.subgames[2]!.picked);
    expect(third.subgames[0]!.combos).toEqual(all.subgames[2]!.combos);
    expect(all.subgames[0]!.picked).not.toEqual(all.subgames[1]!.picked);
  });

  it("pools a class's appearances weighted by what each could meet", () => {
    const combo = (cls: string, compat: number, ev: number, equity: number): PloComboResult => ({
      key: cls,
      cls,
      weight: 1,
      compat,
      ev,
      equity,
      realization: ev / (equity * 10),
    });
    const [oop] = poolRealization(10, [
      { combos: [[combo("A", 3, 6, 0.5), combo("B", 1, 1, 0.2)], []] },
      { combos: [[combo("A", 1, 2, 0.3), combo("B", 0, 9, 0.9)], []] },
    ]);
    expect(oop).toHaveLength(2);
    const a = oop.find((c) => c.cls === "A")!;
    expect(a.appearances).toBe(2);
    expect(a.weight).toBe(4);
    expect(a.ev).toBeCloseTo((3 * 6 + 2) / 4, 12);
    expect(a.equity).toBeCloseTo((3 * 0.5 + 0.3) / 4, 12);
    expect(a.realization).toBeCloseTo(5 / (0.45 * 10), 12);
    // an appearance that meets no opponent hand does not count
    expect(oop.find((c) => c.cls === "B")!.appearances).toBe(1);
  });

  it.each([
    [{ subgames: 0, chunk: 5 }, /subgames/],
    [{ subgames: 1.5, chunk: 5 }, /subgames/],
    [{ subgames: 1, chunk: 0 }, /chunk/],
    [{ subgames: 1, chunk: 5, from: -1 }, /from/],
  ])("refuses %j", (options, message) => {
    expect(() => samplePloRealization(spotOf(0, 5), options)).toThrow(message);
  });
});
