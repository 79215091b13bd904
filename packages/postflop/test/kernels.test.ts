import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../src/config.js";
import { PostflopGame } from "../src/game.js";
import { blockedTotals, showdownValues } from "../src/hand-loops.js";
import {
  allocateChunk,
  chunkLayout,
  chunkViews,
  handTables,
  instantiateKernels,
  writeTables,
} from "../src/kernels.js";
import {
  averageStrategy32,
  childReach32,
  inverse32,
  regretMatch32,
  update16,
  updateRegrets32,
  weightedSum32,
} from "./reference32.js";

let seed = 11;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

/**
 * A chunk with A x n regrets and strategy sums (float32, with zeros, negatives, and hands whose regrets are
 * all at most 0) and room for working vectors; `w(k)` is the float32 offset of working vector k (n each).
 */
function setup(A: number, n: number) {
  const layout = chunkLayout(A * n, 0, 32 * n + 8, 1);
  const views = chunkViews(allocateChunk(layout), layout);
  const chunk = { ...views, regret: views.regret as Float32Array, cum: views.cum as Float32Array };
  const k = instantiateKernels(chunk.memory);
  const buf = new Float32Array(chunk.memory.buffer, layout.scratchByte, layout.scratchFloats);
  for (let i = 0; i < A * n; i++) {
    const h = i % n;
    const u = random();
    chunk.regret[i] = h % 5 === 0 ? -u : u < 0.2 ? 0 : u - 0.4;
    chunk.cum[i] = h % 7 === 0 ? 0 : u < 0.1 ? 0 : u * 3;
  }
  for (let i = 0; i < 32 * n; i++) buf[i] = random() < 0.15 ? 0 : random() * 2 - 0.5;
  const w = (j: number) => j * n;
  const addr = (j: number) => layout.scratchByte + 4 * w(j);
  return { layout, chunk, k, buf, w, addr, C: layout.cumByte };
}

/** Bits of a vector (toEqual on typed arrays compares values; this compares -0, NaN and all). */
const bits = (x: Float64Array) => Array.from(new BigUint64Array(x.slice().buffer));
const bits32 = (x: Float32Array) => Array.from(new Uint32Array(x.slice().buffer));
/** A float64 vector rounded to float32, entry by entry. */
const round32 = (x: Float64Array) => Float32Array.from(x);

describe("WebAssembly kernels compute bit for bit what float32 JavaScript references compute", () => {
  for (const [A, n] of [
    [2, 1],
    [3, 7],
    [2, 6],
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
      const expected = new Float32Array(A * n + n);
      regretMatch32(chunk.regret, 0, A, n, expected, 0);
      expect(bits32(vec(strat, A))).toEqual(bits32(expected.subarray(0, A * n)));
      k.averageStrategy(C, A, n, addr(ref));
      averageStrategy32(chunk.cum, 0, A, n, expected, 0);
      expect(bits32(vec(ref, A))).toEqual(bits32(expected.subarray(0, A * n)));

      // Products, sums, scaling, values and best responses.
      const x = vec(own).slice();
      const y = vec(reach).slice();
      k.mul(addr(ref), addr(own), addr(reach), n);
      expect(bits32(vec(ref))).toEqual(bits32(x.map((v, h) => Math.fround(v * y[h]!))));
      const before = vec(out).slice();
      k.add(addr(out), addr(own), n);
      expect(bits32(vec(out))).toEqual(bits32(before.map((v, h) => Math.fround(v + x[h]!))));
      k.scale(addr(ref), addr(own), 0.3, n);
      expect(bits32(vec(ref))).toEqual(bits32(x.map((v) => Math.fround(Math.fround(0.3) * v))));
      k.weightedSum(addr(ref), addr(strat), addr(vals), A, n);
      const value = weightedSum32(buf, w(strat), w(vals), A, n);
      const best = new Float32Array(n);
      for (let h = 0; h < n; h++) {
        best[h] = buf[w(vals) + h]!;
        for (let a = 1; a < A; a++)
          if (buf[w(vals) + a * n + h]! > best[h]!) best[h] = buf[w(vals) + a * n + h]!;
      }
      expect(bits32(vec(ref))).toEqual(bits32(value));
      k.bestValue(addr(ref), addr(vals), A, n);
      expect(bits32(vec(ref))).toEqual(bits32(best));

      // The CFR update (value, regrets, strategy sums) against updateRegrets32.
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
      expect(bits32(vec(out))).toEqual(bits32(value));
      const R1 = chunk.regret.slice();
      const C1 = chunk.cum.slice();
      chunk.regret.set(R0);
      chunk.cum.set(C0);
      updateRegrets32(chunk.regret, chunk.cum, 0, A, n, buf, w(strat), w(vals), w(out), w(own), d);
      expect(bits32(R1)).toEqual(bits32(chunk.regret));
      expect(bits32(C1)).toEqual(bits32(chunk.cum));

      // The opponent's reach split, from regrets and from strategy sums.
      for (const positive of [true, false]) {
        const S = positive ? 0 : C;
        const store = positive ? chunk.regret : chunk.cum;
        if (positive) k.regretInverse(0, A, n, addr(inv));
        else k.sumInverse(C, A, n, addr(inv));
        const invJs = inverse32(store, 0, A, n, positive);
        expect(bits32(vec(inv))).toEqual(bits32(invJs));
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
          const js = childReach32(store, a * n, positive, 1 / A, invJs, vec(reach).slice());
          expect(bits32(vec(ref))).toEqual(bits32(js.dst));
          expect(any !== 0).toBe(js.any);
        }
      }
      // No reach at all: nothing above 0.
      vec(reach).fill(0);
      expect(k.childReach(0, 1, 1 / A, n, addr(inv), addr(reach), addr(ref))).toBe(0);
      // Reach only past the last hand (in the padding a step reads): still nothing above 0.
      buf[w(reach) + n] = 1;
      buf[w(inv) + n] = 1;
      expect(k.childReach(C, 0, 1 / A, n, addr(inv), addr(reach), addr(ref))).toBe(0);
    });
  }

  it("a chance node's float64 sum and its scaled float32 store", () => {
    const n = 7;
    const { k, buf, layout } = setup(2, n);
    const acc = new Float64Array(buf.buffer, layout.scratchByte + 4 * 16 * n, n);
    const x = buf.subarray(0, n);
    const y = buf.subarray(n, 2 * n);
    acc.fill(0);
    k.addTo64(acc.byteOffset, x.byteOffset, n);
    k.addTo64(acc.byteOffset, y.byteOffset, n);
    const sum = Float64Array.from(x, (v, h) => v + y[h]!);
    expect(bits(acc)).toEqual(bits(sum));
    const dst = buf.subarray(4 * n, 5 * n);
    k.storeScaled64(dst.byteOffset, acc.byteOffset, 1 / 45, n);
    expect(bits32(dst)).toEqual(bits32(round32(sum.map((v) => (1 / 45) * v))));
  });

  it("a count that is not a multiple of 4 stores only its hands: the entries after them are left as they were", () => {
    for (const n of [5, 6, 7]) {
      const { k, buf, w, addr } = setup(2, n);
      buf[w(2) + n] = 12345;
      buf[w(2) + n + 1] = 23456;
      k.mul(addr(2), addr(0), addr(1), n);
      expect(buf[w(2) + n]).toBe(12345);
      expect(buf[w(2) + n + 1]).toBe(23456);
    }
  });

  it("copy moves exactly n entries, overlapping ranges included, and zero clears exactly n", () => {
    for (const n of [1, 5, 8]) {
      const { k, buf, w, addr } = setup(2, n);
      const source = Array.from(buf.subarray(w(0), w(0) + 2 * n));
      const after = buf[w(3) + n];
      k.copy(addr(3), addr(0), n);
      expect(Array.from(buf.subarray(w(3), w(3) + n))).toEqual(source.slice(0, n));
      expect(buf[w(3) + n]).toBe(after);
      // Forward by one entry over itself: what copyWithin gives.
      const expected = buf.slice(w(0), w(0) + 2 * n + 1).copyWithin(1, 0, 2 * n);
      k.copy(addr(0) + 4, addr(0), 2 * n);
      expect(bits32(buf.slice(w(0), w(0) + 2 * n + 1))).toEqual(bits32(expected));
      buf[w(4) + n] = 4321;
      k.zero(addr(4), n);
      expect(Array.from(buf.subarray(w(4), w(4) + n))).toEqual(new Array(n).fill(0));
      expect(buf[w(4) + n]).toBe(4321);
    }
  });
});

/**
 * A chunk of 16-bit storage with one decision of A x n entries at entry 2 (its scales in the 4 bytes before,
 * as `PostflopGame` lays out a compressed game), sentinels in the 8 entries after it, and working vectors.
 */
function setup16(A: number, n: number) {
  const layout = chunkLayout(2 + A * n + 8, 0, 32 * n + 8, 1, 2);
  const chunk = chunkViews(allocateChunk(layout), layout);
  const k = instantiateKernels(chunk.memory, 2);
  const regret = chunk.regret as Int16Array;
  const cum = chunk.cum as Uint16Array;
  const buf = new Float32Array(chunk.memory.buffer, layout.scratchByte, layout.scratchFloats);
  for (let i = 0; i < A * n; i++) {
    const h = i % n;
    const u = random();
    regret[2 + i] = h % 5 === 0 ? -Math.floor(u * 32767) : u < 0.2 ? 0 : Math.round((u - 0.4) * 54000);
    cum[2 + i] = h % 7 === 0 ? 0 : u < 0.1 ? 0 : Math.floor(u * 65535);
  }
  for (let i = 0; i < 8; i++) {
    regret[2 + A * n + i] = 777;
    cum[2 + A * n + i] = 888;
  }
  const scales = new Float32Array(chunk.memory.buffer, 0, 1);
  const sumScales = new Float32Array(chunk.memory.buffer, layout.cumByte, 1);
  scales[0] = 0.00123;
  sumScales[0] = 0.0456;
  for (let i = 0; i < 32 * n; i++) buf[i] = random() < 0.15 ? 0 : random() * 2 - 0.5;
  const w = (j: number) => j * n;
  const addr = (j: number) => layout.scratchByte + 4 * w(j);
  return { k, regret, cum, buf, w, addr, scales, sumScales, R: 4, C: layout.cumByte + 4 };
}

describe("the 16-bit storage kernels read integers (their scales cancel) and round-trip the CFR update", () => {
  for (const [A, n] of [
    [2, 1],
    [3, 7],
    [2, 6],
    [4, 64],
    [5, 449],
  ] as const) {
    it(`A = ${A}, n = ${n}`, () => {
      const s = setup16(A, n);
      const { k, buf, w, addr, R, C } = s;
      const vec = (j: number, m = 1) => buf.subarray(w(j), w(j) + m * n);
      const regrets = () => Float32Array.from(s.regret.subarray(2, 2 + A * n));
      const sums = () => Float32Array.from(s.cum.subarray(2, 2 + A * n));
      const expected = new Float32Array(A * n + n);

      k.regretMatch(R, A, n, addr(0));
      regretMatch32(regrets(), 0, A, n, expected, 0);
      expect(bits32(vec(0, A))).toEqual(bits32(expected.subarray(0, A * n)));
      k.averageStrategy(C, A, n, addr(A));
      averageStrategy32(sums(), 0, A, n, expected, 0);
      expect(bits32(vec(A, A))).toEqual(bits32(expected.subarray(0, A * n)));

      for (const positive of [true, false]) {
        const store = positive ? regrets() : sums();
        if (positive) k.regretInverse(R, A, n, addr(2 * A));
        else k.sumInverse(C, A, n, addr(2 * A));
        const invJs = inverse32(store, 0, A, n, positive);
        expect(bits32(vec(2 * A))).toEqual(bits32(invJs));
        for (let a = 0; a < A; a++) {
          const S = (positive ? R : C) + 2 * a * n;
          const any = k.childReach(
            S,
            positive ? 1 : 0,
            1 / A,
            n,
            addr(2 * A),
            addr(2 * A + 1),
            addr(2 * A + 2),
          );
          const js = childReach32(store, a * n, positive, 1 / A, invJs, vec(2 * A + 1).slice());
          expect(bits32(vec(2 * A + 2))).toEqual(bits32(js.dst));
          expect(any !== 0).toBe(js.any);
        }
      }

      // The update: the decision's value, then the new integers and scales, the entries after it untouched.
      const strat = 0;
      const vals = 2 * A;
      const out = 3 * A;
      const own = 3 * A + 1;
      k.regretMatch(R, A, n, addr(strat));
      const value = weightedSum32(buf, w(strat), w(vals), A, n);
      const work = buf.slice();
      const R0 = s.regret.slice();
      const C0 = s.cum.slice();
      const sR = s.scales[0]!;
      const sC = s.sumScales[0]!;
      const d = { positive: 0.7, negative: 0.3, strategy: 0.9 };
      k.cfrUpdate(
        R,
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
      expect(bits32(vec(out))).toEqual(bits32(value));
      work.set(value, w(out));
      const scales = update16(R0, C0, 2, A, n, work, w(strat), w(vals), w(out), w(own), d, sR, sC);
      expect(Array.from(s.regret.subarray(2))).toEqual(Array.from(R0.subarray(2)));
      expect(Array.from(s.cum.subarray(2))).toEqual(Array.from(C0.subarray(2)));
      expect(bits32(Float32Array.of(s.scales[0]!, s.sumScales[0]!))).toEqual(
        bits32(Float32Array.of(scales.sR, scales.sC)),
      );
      expect(Array.from(s.regret.subarray(2 + A * n, 10 + A * n))).toEqual(new Array(8).fill(777));
      expect(Array.from(s.cum.subarray(2 + A * n, 10 + A * n))).toEqual(new Array(8).fill(888));
      // The largest magnitude is stored at full scale.
      expect(Math.max(...Array.from(s.regret.subarray(2, 2 + A * n), Math.abs))).toBe(32767);
      expect(Math.max(...s.cum.subarray(2, 2 + A * n))).toBe(65535);
    });
  }

  it("a decision whose new values are all 0 stores zeros and a scale of 0", () => {
    const s = setup16(2, 5);
    const { k, buf, w, addr, R, C } = s;
    s.regret.fill(0, 2, 12);
    s.cum.fill(0, 2, 12);
    buf.fill(0);
    k.cfrUpdate(R, C, 2, 5, addr(0), addr(2), addr(4), addr(5), 1, 1, 1);
    expect(Array.from(s.regret.subarray(2, 12))).toEqual(new Array(10).fill(0));
    expect(s.scales[0]).toBe(0);
    expect(s.sumScales[0]).toBe(0);
    expect(Array.from(buf.subarray(w(4), w(4) + 5))).toEqual(new Array(5).fill(0));
  });
});

describe("the fold and showdown kernels", () => {
  it("give the bits of blockedTotals and showdownValues (float64) rounded to float32", () => {
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
    const layout = chunkLayout(1, tables.bytes, 20 * nMax + 208, 1);
    const memory = allocateChunk(layout);
    writeTables(memory, layout.tableByte, game);
    const k = instantiateKernels(memory);
    const buf = new Float32Array(memory.buffer, layout.scratchByte, layout.scratchFloats);
    const at = (x: number) => layout.scratchByte + 4 * x;
    const tb = layout.tableByte;
    const tmp = 12 * nMax;
    const sums = 20 * nMax;
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
      expect(bits32(buf.subarray(nMax, nMax + nt))).toEqual(bits32(round32(js.subarray(no))));
      for (let b = 0; b < game.boardCount; b++) {
        k.showdown(
          tb + tables.sdEntry[o]! + 8 * b * no,
          game.sdLength[o]![b]!,
          tb + tables.sdEntry[t]! + 8 * b * nt,
          game.sdLength[t]![b]!,
          at(0),
          at(nMax),
          at(tmp),
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
        expect(bits32(buf.subarray(nMax, nMax + nt))).toEqual(bits32(round32(js.subarray(no))));
        expect(bits(jsTot.subarray(no, no + nt))).toEqual(bits(js.subarray(no)));
        expect(bits32(buf.subarray(7 * nMax, 7 * nMax + nt))).toEqual(
          bits32(round32(jsTot.subarray(no + nt))),
        );
        // A fold on the same reach from those totals: what blockedTotals gives, up to the float32 rounding
        // of the totals (half a unit in the last place, 2^-24 relative) and float64 sums in another order,
        // on the board (where the engine has zeroed the reach of the hands holding a board card).
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
            expect(Math.abs(2.5 * tot[h]! - fold[no + h]!)).toBeLessThanOrEqual(
              2 ** -24 * Math.abs(fold[no + h]!) + 1e-12,
            );
          else expect(tot[h]).toBe(0);
        }
        const tot1 = bits32(tot);
        // Two showdowns at once (the second on another reach vector and other pays): each lane as one alone.
        const js2 = new Float64Array(no + nt);
        for (let i = 0; i < no; i++) js2[i] = Math.fround(random() < 0.3 ? 0 : random());
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
          at(tmp),
          at(7 * nMax),
          at(8 * nMax),
          nt,
          3,
          1.5,
          1.25,
          -0.75,
          at(sums),
        );
        expect(bits32(buf.subarray(nMax, nMax + nt))).toEqual(bits32(round32(js.subarray(no))));
        expect(bits32(buf.subarray(5 * nMax, 5 * nMax + nt))).toEqual(bits32(round32(js2.subarray(no))));
        expect(bits32(buf.subarray(7 * nMax, 7 * nMax + nt))).toEqual(tot1);
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

describe("chunkLayout", () => {
  it("puts the strategy sums half a 4 KiB page from the regrets, after them and the padding, 16-byte aligned", () => {
    // Floats whose regrets end on a page boundary, just after one, and anywhere (the sums' old offset, floats
    // x 4 + 16 rounded to 16, was a page boundary plus 16 for the first two).
    for (const floats of [1, 1020, 1024, 2 ** 20, 2 ** 20 + 3, 268_273_310, 86_481_663]) {
      const layout = chunkLayout(floats, 64, 100, 2);
      expect(layout.cumByte % 4096).toBe(2048);
      expect(layout.cumByte).toBeGreaterThanOrEqual(floats * 4 + 16);
      expect(layout.cumByte - (floats * 4 + 16)).toBeLessThan(4096);
      expect(layout.tableByte).toBeGreaterThanOrEqual(layout.cumByte + floats * 4 + 16);
      expect(layout.tableByte % 16).toBe(0);
    }
  });
});
