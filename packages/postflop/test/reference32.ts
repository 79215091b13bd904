/**
 * Float32 references for the decision kernels of src/kernels.wat: the loops of src/hand-loops.ts's float64
 * functions of the same names, with every operation rounded to float32 (`Math.fround`) as a float32
 * instruction rounds it. A float64 operation on two float32 values rounded once to float32 is the float32
 * operation's result (float64 has more than twice float32's precision plus two bits, so the double rounding
 * never differs for +, -, * and /), so these give the kernels' bits exactly.
 */

const f = Math.fround;

export function regretMatch32(
  R: Float32Array,
  off: number,
  A: number,
  n: number,
  buf: Float32Array,
  strat: number,
): void {
  const last = strat + (A - 1) * n;
  for (let h = 0; h < n; h++) {
    let s = 0;
    for (let a = 0; a < A; a++) {
      const r = R[off + a * n + h]!;
      if (r > 0) s = f(s + r);
    }
    buf[last + h] = s;
  }
  const uniform = f(1 / A);
  for (let a = 0; a < A; a++) {
    const ro = off + a * n;
    const so = strat + a * n;
    for (let h = 0; h < n; h++) {
      const s = buf[last + h]!;
      const r = R[ro + h]!;
      buf[so + h] = s > 0 ? (r > 0 ? f(r / s) : 0) : uniform;
    }
  }
}

export function averageStrategy32(
  C: Float32Array,
  off: number,
  A: number,
  n: number,
  buf: Float32Array,
  strat: number,
): void {
  const last = strat + (A - 1) * n;
  for (let h = 0; h < n; h++) {
    let s = C[off + h]!;
    for (let a = 1; a < A; a++) s = f(s + C[off + a * n + h]!);
    buf[last + h] = s;
  }
  const uniform = f(1 / A);
  for (let a = 0; a < A; a++) {
    const co = off + a * n;
    const so = strat + a * n;
    for (let h = 0; h < n; h++) {
      const s = buf[last + h]!;
      buf[so + h] = s > 0 ? f(C[co + h]! / s) : uniform;
    }
  }
}

/** out[h] = sum over a of strat[a][h] * vals[a][h], in action order. */
export function weightedSum32(
  buf: Float32Array,
  strat: number,
  vals: number,
  A: number,
  n: number,
): Float32Array {
  const out = new Float32Array(n);
  for (let h = 0; h < n; h++) {
    let v = f(buf[strat + h]! * buf[vals + h]!);
    for (let a = 1; a < A; a++) v = f(v + f(buf[strat + a * n + h]! * buf[vals + a * n + h]!));
    out[h] = v;
  }
  return out;
}

export function updateRegrets32(
  R: Float32Array,
  C: Float32Array,
  off: number,
  A: number,
  n: number,
  buf: Float32Array,
  strat: number,
  vals: number,
  value: number,
  own: number,
  d: { positive: number; negative: number; strategy: number },
): void {
  const pos = f(d.positive);
  const neg = f(d.negative);
  const gam = f(d.strategy);
  for (let a = 0; a < A; a++) {
    const ro = off + a * n;
    for (let h = 0; h < n; h++) {
      const r = R[ro + h]!;
      R[ro + h] = f(f(f(r * (r > 0 ? pos : neg)) + buf[vals + a * n + h]!) - buf[value + h]!);
      C[ro + h] = f(f(C[ro + h]! * gam) + f(buf[own + h]! * buf[strat + a * n + h]!));
    }
  }
}

/** 1 / (sum of positive regrets, or of strategy sums when `positive` is false), 0 where that is 0. */
export function inverse32(
  S: Float32Array,
  off: number,
  A: number,
  n: number,
  positive: boolean,
): Float32Array {
  const inv = new Float32Array(n);
  for (let h = 0; h < n; h++) {
    let s = positive ? 0 : S[off + h]!;
    for (let a = positive ? 0 : 1; a < A; a++) {
      const x = S[off + a * n + h]!;
      if (!positive || x > 0) s = f(s + x);
    }
    inv[h] = s > 0 ? f(1 / s) : 0;
  }
  return inv;
}

/** reach * (action a's strategy) from `inverse32`'s inverses; and whether any entry is above 0. */
export function childReach32(
  S: Float32Array,
  ro: number,
  positive: boolean,
  uniform: number,
  inv: Float32Array,
  reach: Float32Array,
): { dst: Float32Array; any: boolean } {
  const n = inv.length;
  const dst = new Float32Array(n);
  let any = false;
  for (let h = 0; h < n; h++) {
    const i = inv[h]!;
    const x = S[ro + h]!;
    const s = i > 0 ? (positive && x < 0 ? 0 : f(x * i)) : f(uniform);
    dst[h] = f(reach[h]! * s);
    if (dst[h]! > 0) any = true;
  }
  return { dst, any };
}

/** Round to the nearest integer, ties to even (WebAssembly's `nearest`). */
export function roundEven(x: number): number {
  const lo = Math.floor(x);
  const d = x - lo;
  if (d < 0.5) return lo;
  if (d > 0.5) return lo + 1;
  return lo % 2 === 0 ? lo : lo + 1;
}

/**
 * `cfrUpdate16` (kernels.wat) in float32 JavaScript: regrets `R` (int16, scale `sR`) and strategy sums `C`
 * (uint16, scale `sC`) at entry `off`, decoded, updated as in `updateRegrets32` and encoded again against
 * each one's largest magnitude. Returns the new scales.
 */
export function update16(
  R: Int16Array,
  C: Uint16Array,
  off: number,
  A: number,
  n: number,
  buf: Float32Array,
  strat: number,
  vals: number,
  value: number,
  own: number,
  d: { positive: number; negative: number; strategy: number },
  sR: number,
  sC: number,
): { sR: number; sC: number } {
  const pos = f(f(d.positive) * sR);
  const neg = f(f(d.negative) * sR);
  const gam = f(f(d.strategy) * sC);
  const r1 = new Float32Array(A * n);
  const c1 = new Float32Array(A * n);
  let mR = 0;
  let mC = 0;
  for (let a = 0; a < A; a++) {
    for (let h = 0; h < n; h++) {
      const i = a * n + h;
      const r = R[off + i]!;
      r1[i] = f(f(f(r * (r > 0 ? pos : neg)) + buf[vals + i]!) - buf[value + h]!);
      c1[i] = f(f(C[off + i]! * gam) + f(buf[own + h]! * buf[strat + i]!));
      mR = Math.max(mR, Math.abs(r1[i]!));
      mC = Math.max(mC, Math.abs(c1[i]!));
    }
  }
  const encR = mR > 0 ? f(32767 / mR) : 0;
  const encC = mC > 0 ? f(65535 / mC) : 0;
  for (let i = 0; i < A * n; i++) {
    R[off + i] = Math.max(-32768, Math.min(32767, roundEven(f(r1[i]! * encR))));
    C[off + i] = Math.max(0, Math.min(65535, roundEven(f(c1[i]! * encC))));
  }
  return { sR: mR > 0 ? f(mR / 32767) : 0, sC: mC > 0 ? f(mC / 65535) : 0 };
}
