import { HOLDEM_CLASSES } from "@ranges/core";
import { canonicalFlops } from "@ranges/postflop";
import { describe, expect, it } from "vitest";
import { type EstimatorBoard, liveCombos, regressionEstimate } from "../src/index.js";

const N = HOLDEM_CLASSES.length;

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/**
 * A synthetic line: on each flop a class's mean equity s is drawn, and its realization is a curve of s plus
 * the class's own effect plus flop noise. `population` flops; the estimator sees `sample` of them.
 */
function syntheticLine(seed: number, flops: number) {
  const rnd = random(seed);
  const pot = 6;
  const reach = Float64Array.from({ length: N }, () => (rnd() < 0.7 ? 0.2 + 0.8 * rnd() : 0));
  const effect = Float64Array.from({ length: N }, () => 0.3 * (rnd() - 0.5));
  const curve = (s: number) => 0.3 + 0.9 * s * s;
  const all = canonicalFlops()
    .filter((_, i) => i % Math.floor(1755 / flops) === 0)
    .slice(0, flops);
  const boards: EstimatorBoard[] = all.map((f) => {
    const live = liveCombos(f.board);
    const eq = new Array<number>(N).fill(0);
    const ev = new Array<number>(N).fill(0);
    for (let c = 0; c < N; c++) {
      if (reach[c] === 0 || live[c] === 0) continue;
      const s = rnd() ** 1.5;
      eq[c] = pot * reach[c]! * live[c]! * s;
      ev[c] = eq[c]! * (curve(s) + effect[c]! + 0.15 * (rnd() - 0.5));
    }
    return { board: f.board, weight: 1 / flops, pot, ev, eq };
  });
  /** P_k over a set of boards, from the definition. */
  const moments = (set: readonly EstimatorBoard[]) =>
    Array.from({ length: 8 }, (_, k) => {
      const row = new Array<number>(N).fill(0);
      for (const b of set) {
        const live = liveCombos(b.board);
        for (let c = 0; c < N; c++) {
          if (reach[c] === 0 || live[c] === 0) continue;
          const s = b.eq[c]! / (pot * reach[c]! * live[c]!);
          row[c]! += (live[c]! * s ** k) / set.length;
        }
      }
      return row;
    });
  const ratio = (set: readonly EstimatorBoard[]) =>
    Float64Array.from({ length: N }, (_, c) => {
      const e = set.reduce((x, b) => x + b.ev[c]!, 0);
      const q = set.reduce((x, b) => x + b.eq[c]!, 0);
      return q > 0 ? e / q : Number.NaN;
    });
  return { boards, reach, moments, ratio };
}

const reweigh = (set: readonly EstimatorBoard[]) => set.map((b) => ({ ...b, weight: 1 / set.length }));

describe("regressionEstimate", () => {
  it("is the ratio over the solved flops when they are the whole population", () => {
    const line = syntheticLine(7, 24);
    const est = regressionEstimate(line.boards, line.reach, line.moments(line.boards));
    const ratio = line.ratio(line.boards);
    let compared = 0;
    for (let c = 0; c < N; c++) {
      if (Number.isNaN(ratio[c]!)) continue;
      expect(est.realized[c]!).toBeCloseTo(ratio[c]!, 9);
      compared++;
    }
    expect(compared).toBeGreaterThan(80);
    expect(est.r2).toBeGreaterThan(0.5);
  });

  it("errs less than the ratio when the solved flops are a sample of the population", () => {
    const line = syntheticLine(11, 240);
    const truth = line.ratio(line.boards);
    const population = line.moments(line.boards);
    let ratioError = 0;
    let regressionError = 0;
    for (let start = 0; start < 8; start++) {
      const sample = reweigh(line.boards.filter((_, i) => i % 8 === start));
      const est = regressionEstimate(sample, line.reach, population);
      const ratio = line.ratio(sample);
      for (let c = 0; c < N; c++) {
        if (Number.isNaN(truth[c]!) || Number.isNaN(ratio[c]!)) continue;
        ratioError += Math.abs(ratio[c]! - truth[c]!);
        regressionError += Math.abs(est.realized[c]! - truth[c]!);
      }
    }
    expect(regressionError).toBeLessThan(0.6 * ratioError);
  });

  it("refuses a reach that is not the solve's (equity over 1) and too few moments", () => {
    const line = syntheticLine(3, 12);
    const half = Float64Array.from(line.reach, (x) => x / 3);
    expect(() => regressionEstimate(line.boards, half, line.moments(line.boards))).toThrow(/over 1/);
    expect(() => regressionEstimate(line.boards, line.reach, line.moments(line.boards).slice(0, 4))).toThrow(
      /degree 5 needs 6/,
    );
  });
});
