import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ProjectionKernel, projectJs } from "../src/engine/kernels.js";

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

  it("rejects a matrix it does not hold", () => {
    const kernel = new ProjectionKernel(2, [new Float64Array(4)], new Float64Array(2));
    expect(() => kernel.address(new Float64Array(4))).toThrow(/not loaded/);
  });

  it("src/engine/kernels-wasm.ts is what src/engine/kernels.wat compiles to", () => {
    const script = fileURLToPath(new URL("../scripts/build-kernels.mjs", import.meta.url));
    execFileSync(process.execPath, [script, "--check"], { stdio: "pipe" });
  });
});
