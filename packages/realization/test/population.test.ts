import { HOLDEM_CLASSES } from "@ranges/core";
import { equities, opponentTotals, PostflopGame, parseBoard, resolveConfig } from "@ranges/postflop";
import { COMBO_CLASS } from "@ranges/solver";
import { describe, expect, it } from "vitest";
import {
  comboReach,
  flopEquities,
  populationMoments,
  rangesKey,
  rangeText,
  solverWeight,
} from "../src/index.js";

/** Deterministic class weights in [0, 1], about `density` of them above zero. */
function weights(seed: number, density: number): number[] {
  let s = seed;
  return HOLDEM_CLASSES.map(() => {
    s = (s * 1103515245 + 12345) % 2147483648;
    const u = s / 2147483648;
    return u < density ? 0.1 + (0.9 * ((s >> 8) % 1000)) / 1000 : 0;
  });
}

describe("flopEquities", () => {
  it.each([
    ["Ks9h4d", 1],
    ["7s6s5s", 2],
    ["AhAd2c", 3],
  ])("matches the postflop solver's equities on %s", (board, seed) => {
    const oop = weights(seed, 0.6);
    const ip = weights(seed + 10, 0.4);
    const config = resolveConfig({
      board,
      pot: 10,
      stack: 0,
      ranges: { oop: rangeText(Float64Array.from(oop)), ip: rangeText(Float64Array.from(ip)) },
      sizes: {},
      donkBets: false,
    });
    const game = new PostflopGame(config);
    const [mine] = flopEquities(parseBoard(board)!, [comboReach(ip)]);
    const theirs = equities(game, 0, game.weights[1], opponentTotals(game, 0, game.weights[1]));
    let compared = 0;
    for (let h = 0; h < game.n[0]; h++) {
      const q = theirs[h];
      if (q === null || q === undefined) continue;
      expect(mine![game.combos[0][h]!]!).toBeCloseTo(q, 12);
      compared++;
    }
    expect(compared).toBeGreaterThan(300);
  });

  it("gives NaN to combos on the flop and to combos with no opposing weight", () => {
    const only = HOLDEM_CLASSES.map((c) => (c === "AA" ? 1 : 0));
    const [eq] = flopEquities(parseBoard("AhKd2c")!, [comboReach(only)]);
    const aa = [...Array(eq!.length).keys()].filter((h) => HOLDEM_CLASSES[COMBO_CLASS[h]!] === "AA");
    // three AA combos hold the ace of hearts: on the flop
    expect(aa.filter((h) => Number.isNaN(eq![h]!))).toHaveLength(6);
  });
});

describe("solverWeight", () => {
  it.each([
    [0, 0],
    [0.0049, 0],
    [0.00495, 0.005],
    [0.005, 0.005],
    [0.123456, 0.1235],
    [1, 1],
    [1.2, 1],
  ])("%d reads as %d", (x, y) => {
    expect(solverWeight(x)).toBe(y);
  });
});

describe("rangesKey", () => {
  const a = weights(5, 0.5);
  it("is the same for ranges the solver reads the same", () => {
    const b = a.map((x) => (x > 0 ? x + 0.00001 : 0.001));
    expect(rangesKey({ oop: a, ip: a })).toBe(rangesKey({ oop: b, ip: b }));
  });
  it("differs when a weight or the side differs", () => {
    const b = [...a];
    b[3] = 0.5;
    expect(rangesKey({ oop: a, ip: a })).not.toBe(rangesKey({ oop: b, ip: a }));
    expect(rangesKey({ oop: a, ip: b })).not.toBe(rangesKey({ oop: b, ip: a }));
  });
});

describe("populationMoments", () => {
  it("averages live combos times powers of the class's mean equity, weighted by each flop's count", () => {
    const oop = weights(21, 0.5);
    const ip = weights(22, 0.5);
    const flops = [
      { cards: parseBoard("Ks9h4d")!, count: 24 },
      { cards: parseBoard("7s6s5s")!, count: 4 },
    ];
    const [m] = populationMoments([{ oop, ip }], { degree: 1, flops });
    expect(m!.oop).toHaveLength(3);
    const k = HOLDEM_CLASSES.indexOf("KQs");
    const expected = [0, 1, 2].map(() => 0);
    for (const f of flops) {
      const [eq] = flopEquities(f.cards, [comboReach(ip)]);
      const qs = [...eq!.keys()]
        .filter((h) => COMBO_CLASS[h] === k && !Number.isNaN(eq![h]!))
        .map((h) => eq![h]!);
      const s = qs.reduce((x, y) => x + y, 0) / qs.length;
      for (let j = 0; j < 3; j++) expected[j]! += (f.count * qs.length * s ** j) / 28;
    }
    for (let j = 0; j < 3; j++) expect(m!.oop[j]![k]!).toBeCloseTo(expected[j]!, 12);
    // KQs keeps 3 combos on Ks9h4d (the king of spades is on it) and all 4 on 7s6s5s
    expect(m!.oop[0]![k]!).toBeCloseTo((24 * 3 + 4 * 4) / 28, 12);
  });
});
