import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  cycleJs,
  ProjectionKernel,
  projectJs,
  projectSparseJs,
  type SparseW,
} from "../src/engine/kernels.js";

let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

/** Bits of a float64 vector (toEqual on Float64Array compares values; this compares -0 and all). */
const bits = (x: Float64Array) => Array.from(new BigUint64Array(x.slice().buffer));

/** Values over a wide range of magnitudes and signs (so roundings differ with the order of operations). */
const value = () => (random() - 0.3) * 10 ** Math.floor(random() * 12 - 6);

describe("the projection kernel computes bit for bit what the JavaScript loop computes", () => {
  for (const n of [1, 2, 3, 7, 8, 9, 16, 17, 24, 169]) {
    it(`n = ${n}`, () => {
      const mats = Array.from({ length: 3 }, () => Float64Array.from({ length: n * n }, value));
      // Some exact zeros in the matrices too (card removal).
      for (const m of mats) for (let i = 0; i < m.length; i++) if (random() < 0.05) m[i] = 0;
      const norm = Float64Array.from({ length: n }, () => random() * 1e-3 + 1e-6);
      const kernel = new ProjectionKernel(n, [...mats, mats[1]!], norm);
      for (let trial = 0; trial < 40; trial++) {
        const zeros = trial % 4 === 0 ? 0 : trial % 4 === 1 ? 0.5 : trial % 4 === 2 ? 0.95 : 1;
        const r = Float64Array.from({ length: n }, () =>
          random() < zeros ? (random() < 0.5 ? 0 : -0) : value(),
        );
        const m = mats[trial % 3]!;
        const expected = new Float64Array(n).fill(Number.NaN);
        projectJs(expected, r, m, norm);
        const got = new Float64Array(n).fill(Number.NaN);
        kernel.project(got, r, kernel.address(m));
        expect(bits(got)).toEqual(bits(expected));
      }
    });
  }

  for (const n of [1, 2, 3, 13, 169]) {
    it(`card removal stored sparsely, n = ${n}`, () => {
      // Rows with no conflicts, a few, or many, in any class order (as CfrSolver lists them: increasing b).
      const start = [0];
      const cls: number[] = [];
      const cnt: number[] = [];
      for (let a = 0; a < n; a++) {
        const density = a % 3 === 0 ? 0 : a % 3 === 1 ? 0.1 : 0.6;
        for (let b = 0; b < n; b++) {
          if (random() < density) {
            cls.push(b);
            cnt.push(1 + Math.floor(random() * 16));
          }
        }
        start.push(cls.length);
      }
      const w: SparseW = {
        combos: Float64Array.from({ length: n }, () => [4, 6, 12][Math.floor(random() * 3)]!),
        start: Int32Array.from(start),
        cls: Int32Array.from(cls),
        cnt: Float64Array.from(cnt),
      };
      const norm = Float64Array.from({ length: n }, () => random() * 1e-3 + 1e-6);
      const kernel = new ProjectionKernel(n, [], norm, { sparse: w });
      for (let trial = 0; trial < 40; trial++) {
        const zeros = [0, 0.5, 0.95, 1][trial % 4]!;
        const r = Float64Array.from({ length: n }, () =>
          random() < zeros ? 0 : random() * 10 ** -(trial % 7),
        );
        const expected = new Float64Array(n).fill(Number.NaN);
        projectSparseJs(expected, r, w, norm);
        const got = new Float64Array(n).fill(Number.NaN);
        kernel.projectSparse(got, r);
        expect(bits(got)).toEqual(bits(expected));
      }
    });
  }

  for (const [n, K, R] of [
    [1, 1, 1],
    [3, 2, 1],
    [9, 4, 1],
    [169, 4, 1],
    [169, 4, 2],
    [17, 3, 4],
  ] as const) {
    it(`board-conditioned cycle term, n = ${n}, ${K} buckets, ${R} other opponents`, () => {
      const mats = Array.from({ length: K + 1 }, () => Float64Array.from({ length: n * n }, value));
      const norm = Float64Array.from({ length: n }, () => random() * 1e-3 + 1e-6);
      const pi = new Float64Array(n * K);
      for (let a = 0; a < n; a++) {
        let left = 1;
        for (let b = 0; b < K; b++) {
          const p = b === K - 1 ? left : left * random();
          pi[a * K + b] = p;
          left -= p;
        }
      }
      const chances = { buckets: K, pi };
      const kernel = new ProjectionKernel(n, mats, norm, { chances });
      expect(kernel.canCycle(R)).toBe(true);
      const handles = [-1, ...mats.map((m) => kernel.address(m))];
      for (let trial = 0; trial < 12; trial++) {
        const zeros = [0, 0.3, 0.9][trial % 3]!;
        const vec = () => Float64Array.from({ length: n }, () => (random() < zeros ? 0 : Math.abs(value())));
        const rm = vec();
        // Projections with zeros (where the duel shares are not divided) and positive values.
        const pls = Array.from({ length: R }, vec);
        const us = Array.from({ length: K * R }, vec);
        const first = 1 + (trial % 2);
        const expected = new Float64Array(n).fill(Number.NaN);
        cycleJs(expected, rm, us, pls, mats.slice(first - 1, first - 1 + K), chances, norm);
        const got = new Float64Array(n).fill(Number.NaN);
        kernel.cycle(got, rm, us, pls, handles, first);
        expect(bits(got)).toEqual(bits(expected));
      }
    });
  }

  it("rejects a matrix it does not hold", () => {
    const kernel = new ProjectionKernel(2, [new Float64Array(4)], new Float64Array(2));
    expect(() => kernel.address(new Float64Array(4))).toThrow(/not loaded/);
  });

  it("src/engine/kernels-wasm.ts is what src/engine/kernels.wat compiles to", () => {
    const script = fileURLToPath(new URL("../scripts/build-kernels.mjs", import.meta.url));
    execFileSync(process.execPath, [script, "--check"], { stdio: "pipe" });
  });
});
