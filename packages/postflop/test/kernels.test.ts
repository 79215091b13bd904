import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../src/config.js";
import {
  averageStrategy,
  blockedTotals,
  childReach,
  regretInverse,
  regretMatch,
  showdownValues,
  sumInverse,
  updateRegrets,
} from "../src/engine.js";
import { PostflopGame } from "../src/game.js";
import {
  allocateChunk,
  chunkLayout,
  chunkViews,
  handTables,
  instantiateKernels,
  writeTables,
} from "../src/kernels.js";

let seed = 11;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

/**
 * A chunk with A x n regrets and strategy sums (float32, with zeros, negatives, and hands whose regrets are
 * all at most 0) and room for working vectors; `w(k)` is the float64 offset of working vector k (n each).
 */
function setup(A: number, n: number) {
  const layout = chunkLayout(A * n, 0, 32 * n + 8, 1);
  const chunk = chunkViews(allocateChunk(layout), layout);
  const k = instantiateKernels(chunk.memory);
  const buf = new Float64Array(chunk.memory.buffer, layout.scratchByte, layout.scratchFloats);
  for (let i = 0; i < A * n; i++) {
    const h = i % n;
    const u = random();
    chunk.regret[i] = h % 5 === 0 ? -u : u < 0.2 ? 0 : u - 0.4;
    chunk.cum[i] = h % 7 === 0 ? 0 : u < 0.1 ? 0 : u * 3;
  }
  for (let i = 0; i < 32 * n; i++) buf[i] = random() < 0.15 ? 0 : random() * 2 - 0.5;
  const w = (j: number) => j * n;
  const addr = (j: number) => layout.scratchByte + 8 * w(j);
  return { layout, chunk, k, buf, w, addr, C: layout.cumByte };
}

/** Bits of a float64 vector (toEqual on Float64Array compares values; this compares -0, NaN and all). */
const bits = (x: Float64Array) => Array.from(new BigUint64Array(x.slice().buffer));
const bits32 = (x: Float32Array) => Array.from(new Uint32Array(x.slice().buffer));

describe("WebAssembly kernels compute bit for bit what the JavaScript loops compute", () => {
  for (const [A, n] of [
    [2, 1],
    [3, 7],
    [4, 64],
    [5, 449],
  ] as const) {
    it(`A = ${A}, n = ${n}`, () => {
      const { chunk, k, buf, w, addr, C } = setup(A, n);
      const strat = 0;
      const vals = A;
      const out = 2 * A;
      const own = 2 * A + 1;
      const ref = 2 * A + 2;
      const reach = 2 * A + 3;
      const inv = 2 * A + 4;
      const vec = (j: number, m = 1) => buf.subarray(w(j), w(j) + m * n);

      // Regret matching and the average strategy.
      k.regretMatch(0, A, n, addr(strat));
      const expected = new Float64Array(A * n + n);
      regretMatch(chunk.regret, 0, A, n, expected, 0);
      expect(bits(vec(strat, A))).toEqual(bits(expected.subarray(0, A * n)));
      k.averageStrategy(C, A, n, addr(ref));
      averageStrategy(chunk.cum, 0, A, n, expected, 0);
      expect(bits(vec(ref, A))).toEqual(bits(expected.subarray(0, A * n)));

      // Products, sums, values and best responses.
      const x = vec(own).slice();
      const y = vec(reach).slice();
      k.mul(addr(ref), addr(own), addr(reach), n);
      expect(bits(vec(ref))).toEqual(bits(x.map((v, h) => v * y[h]!)));
      const before = vec(out).slice();
      k.add(addr(out), addr(own), n);
      expect(bits(vec(out))).toEqual(bits(before.map((v, h) => v + x[h]!)));
      k.weightedSum(addr(ref), addr(strat), addr(vals), A, n);
      const value = new Float64Array(n);
      const best = new Float64Array(n);
      for (let h = 0; h < n; h++) {
        value[h] = buf[w(strat) + h]! * buf[w(vals) + h]!;
        best[h] = buf[w(vals) + h]!;
        for (let a = 1; a < A; a++) {
          value[h]! += buf[w(strat) + a * n + h]! * buf[w(vals) + a * n + h]!;
          if (buf[w(vals) + a * n + h]! > best[h]!) best[h] = buf[w(vals) + a * n + h]!;
        }
      }
      expect(bits(vec(ref))).toEqual(bits(value));
      k.bestValue(addr(ref), addr(vals), A, n);
      expect(bits(vec(ref))).toEqual(bits(best));

      // The CFR update (value, regrets, strategy sums) against updateRegrets.
      const d = { positive: 0.7, negative: 0.3, strategy: 0.9 };
      const R0 = chunk.regret.slice();
      const C0 = chunk.cum.slice();
      k.cfrUpdate(
        0,
        C,
        A,
        n,
        addr(strat),
        addr(vals),
        addr(out),
        addr(own),
        d.positive,
        d.negative,
        d.strategy,
      );
      expect(bits(vec(out))).toEqual(bits(value));
      const R1 = chunk.regret.slice();
      const C1 = chunk.cum.slice();
      chunk.regret.set(R0);
      chunk.cum.set(C0);
      updateRegrets(chunk.regret, chunk.cum, 0, A, n, buf, w(strat), w(vals), w(out), w(own), d);
      expect(bits32(R1)).toEqual(bits32(chunk.regret));
      expect(bits32(C1)).toEqual(bits32(chunk.cum));

      // The opponent's reach split, from regrets and from strategy sums.
      for (const positive of [true, false]) {
        const S = positive ? 0 : C;
        const store = positive ? chunk.regret : chunk.cum;
        if (positive) k.regretInverse(0, A, n, addr(inv));
        else k.sumInverse(C, A, n, addr(inv));
        const invJs = new Float64Array(2 * n);
        if (positive) regretInverse(chunk.regret, 0, A, n, invJs, 0);
        else sumInverse(chunk.cum, 0, A, n, invJs, 0);
        expect(bits(vec(inv))).toEqual(bits(invJs.subarray(0, n)));
        const scratch = new Float64Array(3 * n);
        scratch.set(vec(inv), 0);
        scratch.set(vec(reach), n);
        for (let a = 0; a < A; a++) {
          const any = k.childReach(
            S + 4 * a * n,
            positive ? 1 : 0,
            1 / A,
            n,
            addr(inv),
            addr(reach),
            addr(ref),
          );
          const anyJs = childReach(store, a * n, positive, 1 / A, n, scratch, 0, n, 2 * n);
          expect(bits(vec(ref))).toEqual(bits(scratch.subarray(2 * n)));
          expect(any !== 0).toBe(anyJs);
        }
      }
      // No reach at all: nothing above 0.
      vec(reach).fill(0);
      expect(k.childReach(0, 1, 1 / A, n, addr(inv), addr(reach), addr(ref))).toBe(0);
    });
  }

  it("an odd count's last hand is stored alone: the entry after it is left as it was", () => {
    const n = 5;
    const { k, buf, w, addr } = setup(2, n);
    buf[w(2) + n] = 12345;
    k.mul(addr(2), addr(0), addr(1), n);
    expect(buf[w(2) + n]).toBe(12345);
  });
});

describe("the fold and showdown kernels", () => {
  it("compute bit for bit what blockedTotals and showdownValues compute", () => {
    const game = new PostflopGame(
      resolveConfig({
        board: "9h8h7c2h",
        pot: 1,
        stack: 1,
        ranges: { oop: "22+,A2s+,KTo+,T9,65s", ip: "33+,A5s+,QJ,JT,T6s+,Jh4h" },
        sizes: {},
      }),
    );
    const tables = handTables(game);
    const nMax = Math.max(game.n[0], game.n[1]);
    const layout = chunkLayout(1, tables.bytes, 9 * nMax + 104, 1);
    const memory = allocateChunk(layout);
    writeTables(memory, layout.tableByte, game);
    const k = instantiateKernels(memory);
    const buf = new Float64Array(memory.buffer, layout.scratchByte, layout.scratchFloats);
    const at = (x: number) => layout.scratchByte + 8 * x;
    const tb = layout.tableByte;
    const sums = 9 * nMax;
    for (const t of [0, 1]) {
      const o = 1 - t;
      const [nt, no] = [game.n[t]!, game.n[o]!];
      const js = new Float64Array(no + nt);
      for (let i = 0; i < no; i++) buf[i] = random() < 0.2 ? 0 : random();
      js.set(buf.subarray(0, no));
      k.fold(
        at(0),
        no,
        tb + tables.handCards[o]!,
        at(nMax),
        nt,
        tb + tables.handCards[t]!,
        tb + tables.same[t]!,
        2.5,
        at(sums),
      );
      blockedTotals(js, 0, no, game, t, new Float64Array(52), 2.5);
      expect(bits(buf.subarray(nMax, nMax + nt))).toEqual(bits(js.subarray(no)));
      for (let b = 0; b < game.boardCount; b++) {
        k.showdown(
          tb + tables.sdEntry[o]! + 8 * b * no,
          game.sdLength[o]![b]!,
          tb + tables.sdEntry[t]! + 8 * b * nt,
          game.sdLength[t]![b]!,
          at(0),
          at(nMax),
          at(2 * nMax),
          at(7 * nMax),
          nt,
          3,
          1.25,
          at(sums),
        );
        const jsTot = new Float64Array(no + 2 * nt);
        jsTot.set(js.subarray(0, no));
        showdownValues(jsTot, 0, no, game, t, o, b, 3, 1.25, new Float64Array(104), no + nt);
        showdownValues(js, 0, no, game, t, o, b, 3, 1.25, new Float64Array(104));
        expect(bits(buf.subarray(nMax, nMax + nt))).toEqual(bits(js.subarray(no)));
        expect(bits(jsTot.subarray(no, no + nt))).toEqual(bits(js.subarray(no)));
        expect(bits(buf.subarray(7 * nMax, 7 * nMax + nt))).toEqual(bits(jsTot.subarray(no + nt)));
        // A fold on the same reach from those totals: what blockedTotals gives, up to rounding, on the board
        // (where the engine has zeroed the reach of the hands holding a board card).
        const fold = new Float64Array(no + nt);
        for (let m = 0; m < game.sdLength[o]![b]!; m++) {
          const i = game.sdKey[o]![b * no + m]! & 2047;
          fold[i] = js[i]!;
        }
        blockedTotals(fold, 0, no, game, t, new Float64Array(52), 2.5);
        const tot = buf.subarray(7 * nMax, 7 * nMax + nt);
        const onBoard = new Set<number>();
        for (let m = 0; m < game.sdLength[t]![b]!; m++) onBoard.add(game.sdKey[t]![b * nt + m]! & 2047);
        for (let h = 0; h < nt; h++) {
          if (onBoard.has(h))
            expect(Math.abs(2.5 * tot[h]! - fold[no + h]!)).toBeLessThan(
              1e-12 * (1 + Math.abs(fold[no + h]!)),
            );
          else expect(tot[h]).toBe(0);
        }
        const tot1 = bits(tot);
        // Two showdowns at once (the second on another reach vector and other pays): each lane as one alone.
        const js2 = new Float64Array(no + nt);
        for (let i = 0; i < no; i++) js2[i] = random() < 0.3 ? 0 : random();
        buf.set(js2.subarray(0, no), 4 * nMax);
        showdownValues(js2, 0, no, game, t, o, b, 1.5, -0.75, new Float64Array(104));
        k.showdown2(
          tb + tables.sdEntry[o]! + 8 * b * no,
          game.sdLength[o]![b]!,
          tb + tables.sdEntry[t]! + 8 * b * nt,
          game.sdLength[t]![b]!,
          at(0),
          at(4 * nMax),
          at(nMax),
          at(5 * nMax),
          at(2 * nMax),
          at(7 * nMax),
          at(8 * nMax),
          nt,
          3,
          1.5,
          1.25,
          -0.75,
          at(sums),
        );
        expect(bits(buf.subarray(nMax, nMax + nt))).toEqual(bits(js.subarray(no)));
        expect(bits(buf.subarray(5 * nMax, 5 * nMax + nt))).toEqual(bits(js2.subarray(no)));
        expect(bits(buf.subarray(7 * nMax, 7 * nMax + nt))).toEqual(tot1);
      }
    }
  });
});

describe("the compiled kernels", () => {
  it("src/kernels-wasm.ts is what src/kernels.wat compiles to", () => {
    const script = fileURLToPath(new URL("../scripts/build-kernels.mjs", import.meta.url));
    execFileSync(process.execPath, [script, "--check"], { stdio: "pipe" });
  });
});
