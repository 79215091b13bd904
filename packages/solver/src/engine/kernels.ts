/**
 * The engine's projection `out[a] = norm[a] * sum_b mt[b * n + a] * r[b]` (`CfrSolver.project`) as a
 * WebAssembly SIMD kernel (src/engine/kernels.wat, compiled at build time into src/engine/kernels-wasm.ts),
 * bit for bit what `projectJs` computes; and the projection on the card-removal matrix stored sparsely
 * (`CfrSolver.projectW`, `projectSparseJs`), and the board-conditioned cycle term of `CfrSolver.potShare`
 * (`cycleJs`).
 *
 * Each instance owns one WebAssembly.Memory (not shared: every solver instance, so every worker thread of a
 * parallel solve, has its own) laid out as
 *
 *   [ matrix 0 | matrix 1 | ... | norm | r | out | the kernel's list of nonzero r entries | conflicts |
 *     bucket chances by bucket | cycle: matrix addresses, result, g, part, vector slots ]
 *
 * every area padded by 16 bytes (the kernel's last pair of an odd n reads and writes one double past it).
 * The matrices are copied in once; a projection copies r in and the result out (two 8n-byte copies against
 * n^2 multiply-adds), the cycle term its input vectors and its result.
 */

import { KERNELS_WASM } from "./kernels-wasm.js";

interface Exports {
  project(mt: number, r: number, out: number, n: number, norm: number, list: number): void;
  projectSparse(
    r: number,
    out: number,
    n: number,
    norm: number,
    combos: number,
    start: number,
    cls: number,
    cnt: number,
  ): void;
  cycle(
    K: number,
    R: number,
    n: number,
    stride: number,
    rm: number,
    piT: number,
    us: number,
    pls: number,
    mats: number,
    result: number,
    g: number,
    part: number,
    norm: number,
    list: number,
  ): void;
}

/** Vector slots of the cycle term: its opponent's reach, the other opponents' projections and duel shares. */
const CYCLE_SLOTS = 48;

/** Board-conditioned model: `pi[a * buckets + k]`, the chance that class a's hand is in strength bucket k. */
export interface BucketChances {
  readonly buckets: number;
  readonly pi: Float64Array;
}

/**
 * W = combos[a] * combos[b] minus the conflicts listed per row a: `cls[k]` and `cnt[k]` for k in
 * [start[a], start[a + 1]).
 */
export interface SparseW {
  readonly combos: Float64Array;
  readonly start: Int32Array;
  readonly cls: Int32Array;
  readonly cnt: Float64Array;
}

let compiled: WebAssembly.Module | undefined;

function kernelModule(): WebAssembly.Module {
  if (!compiled) {
    const text = atob(KERNELS_WASM);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

const PAGE = 65536;
const align16 = (at: number) => Math.ceil(at / 16) * 16;

export class ProjectionKernel {
  readonly n: number;
  private readonly kernel: Exports;
  /** Byte address of each matrix, by identity. */
  private readonly addresses = new Map<Float64Array, number>();
  private readonly normAt: number;
  private readonly rAt: number;
  private readonly outAt: number;
  private readonly listAt: number;
  private readonly rView: Float64Array;
  private readonly outView: Float64Array;
  /** Byte addresses of combos, start, cls (as byte offsets into r) and cnt (null: no sparse W). */
  private readonly sparseAt: readonly [number, number, number, number] | null;
  /** The cycle term's areas (null without bucket chances). */
  private readonly cycleAt: {
    readonly buckets: number;
    readonly piT: number;
    readonly mats: Int32Array;
    readonly result: number;
    readonly g: number;
    readonly part: number;
    readonly slots: number;
    readonly slotViews: Float64Array[];
    readonly resultView: Float64Array;
  } | null;
  private readonly stride: number;

  /**
   * `matrices`: every n x n matrix (row-major, as `projectJs` takes `mt`) that `project` will be given;
   * `sparse`: the card-removal matrix for `projectSparse`; `chances`: the buckets for `cycle`.
   */
  constructor(
    n: number,
    matrices: readonly Float64Array[],
    norm: Float64Array,
    options: { sparse?: SparseW | undefined; chances?: BucketChances | undefined } = {},
  ) {
    const { sparse, chances } = options;
    this.n = n;
    const vector = align16(8 * n + 16);
    this.stride = vector;
    let at = 0;
    const unique = [...new Set(matrices)];
    for (const m of unique) {
      if (m.length !== n * n) throw new Error(`projection kernel: a ${n} x ${n} matrix expected`);
      this.addresses.set(m, at);
      at += 8 * n * n + 16;
    }
    this.normAt = at;
    this.rAt = this.normAt + vector;
    this.outAt = this.rAt + vector;
    this.listAt = this.outAt + vector;
    let bytes = this.listAt + 32 * n + 16;
    if (sparse) {
      const at = bytes;
      const startAt = at + 8 * n + 16;
      const clsAt = align16(startAt + 4 * (n + 1) + 16);
      const cntAt = align16(clsAt + 4 * sparse.cls.length + 16);
      this.sparseAt = [at, startAt, clsAt, cntAt];
      bytes = cntAt + 8 * sparse.cnt.length + 16;
    } else this.sparseAt = null;
    bytes = align16(bytes);
    let cycle: { piT: number; mats: number; result: number; g: number; part: number; slots: number } | null =
      null;
    if (chances) {
      const piT = bytes;
      const mats = align16(piT + 8 * n * chances.buckets + 16);
      const result = align16(mats + 4 * chances.buckets);
      const g = result + vector;
      const part = g + vector;
      const slots = part + vector;
      cycle = { piT, mats, result, g, part, slots };
      bytes = slots + CYCLE_SLOTS * vector;
    }
    const pages = Math.max(1, Math.ceil(bytes / PAGE));
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    const buffer = memory.buffer;
    for (const m of unique) new Float64Array(buffer, this.addresses.get(m)!, n * n).set(m);
    new Float64Array(buffer, this.normAt, n).set(norm);
    if (sparse && this.sparseAt) {
      const [at, startAt, clsAt, cntAt] = this.sparseAt;
      new Float64Array(buffer, at, n).set(sparse.combos);
      new Int32Array(buffer, startAt, n + 1).set(sparse.start);
      new Int32Array(buffer, clsAt, sparse.cls.length).set(sparse.cls.map((c) => 8 * c));
      new Float64Array(buffer, cntAt, sparse.cnt.length).set(sparse.cnt);
    }
    this.rView = new Float64Array(buffer, this.rAt, n);
    this.outView = new Float64Array(buffer, this.outAt, n);
    if (chances && cycle) {
      const K = chances.buckets;
      const piT = new Float64Array(buffer, cycle.piT, K * n);
      for (let a = 0; a < n; a++) for (let b = 0; b < K; b++) piT[b * n + a] = chances.pi[a * K + b]!;
      this.cycleAt = {
        buckets: K,
        piT: cycle.piT,
        mats: new Int32Array(buffer, cycle.mats, K),
        result: cycle.result,
        g: cycle.g,
        part: cycle.part,
        slots: cycle.slots,
        slotViews: Array.from(
          { length: CYCLE_SLOTS },
          (_, i) => new Float64Array(buffer, cycle.slots + i * vector, n),
        ),
        resultView: new Float64Array(buffer, cycle.result, n),
      };
    } else this.cycleAt = null;
    this.kernel = new WebAssembly.Instance(kernelModule(), { env: { memory } }).exports as unknown as Exports;
  }

  /** The handle of a matrix given to the constructor, for `project`. */
  address(mt: Float64Array): number {
    const at = this.addresses.get(mt);
    if (at === undefined) throw new Error("projection kernel: matrix not loaded");
    return at;
  }

  /** out = `projectJs(out, r, mt, norm)`, with `mt` the matrix at `address(mt)`. */
  project(out: Float64Array, r: Float64Array, mt: number): void {
    this.rView.set(r);
    this.kernel.project(mt, this.rAt, this.outAt, this.n, this.normAt, this.listAt);
    out.set(this.outView);
  }

  /** Whether `cycle` takes `rest` other opponents (false: too many for its vector slots, or no chances). */
  canCycle(rest: number): boolean {
    const c = this.cycleAt;
    return c !== null && 1 + rest * (c.buckets + 1) <= CYCLE_SLOTS;
  }

  /**
   * result = `cycleJs(result, rm, us, pls, mats, chances, norm)` with the matrices' handles (one per bucket
   * b, `mats[first + b]`); `us[b * R + i]` is the duel share of bucket b against the i-th of the R = `pls.length` other
   * opponents, `pls[i]` that opponent's projection. Check `canCycle` first.
   */
  cycle(
    result: Float64Array,
    rm: Float64Array,
    us: readonly Float64Array[],
    pls: readonly Float64Array[],
    mats: readonly number[],
    first: number,
  ): void {
    const c = this.cycleAt!;
    const K = c.buckets;
    const R = pls.length;
    const slots = c.slotViews;
    slots[0]!.set(rm);
    for (let i = 0; i < R; i++) slots[1 + i]!.set(pls[i]!);
    for (let j = 0; j < K * R; j++) slots[1 + R + j]!.set(us[j]!);
    for (let b = 0; b < K; b++) c.mats[b] = mats[first + b]!;
    const v = this.stride;
    this.kernel.cycle(
      K,
      R,
      this.n,
      v,
      c.slots,
      c.piT,
      c.slots + (1 + R) * v,
      c.slots + v,
      c.mats.byteOffset,
      c.result,
      c.g,
      c.part,
      this.normAt,
      this.listAt,
    );
    result.set(c.resultView);
  }

  /** out = `projectSparseJs(out, r, sparse, norm)` with the card-removal matrix given to the constructor. */
  projectSparse(out: Float64Array, r: Float64Array): void {
    const at = this.sparseAt;
    if (!at) throw new Error("projection kernel: no sparse matrix loaded");
    this.rView.set(r);
    this.kernel.projectSparse(this.rAt, this.outAt, this.n, this.normAt, at[0], at[1], at[2], at[3]);
    out.set(this.outView);
  }
}

/**
 * out[a] = norm[a] * sum_b mt[b * n + a] * r[b], skipping zero entries of r (the engine's projection in
 * JavaScript, which the kernel reproduces bit for bit).
 */
export function projectJs(out: Float64Array, r: Float64Array, mt: Float64Array, norm: Float64Array): void {
  const n = out.length;
  out.fill(0);
  for (let b = 0; b < n; b++) {
    const rb = r[b]!;
    if (rb === 0) continue;
    const off = b * n;
    for (let a = 0; a < n; a++) out[a]! += mt[off + a]! * rb;
  }
  for (let a = 0; a < n; a++) out[a]! *= norm[a]!;
}

/** out[a] = norm[a] * sum_b W[a][b] * r[b] with W sparse (`CfrSolver.projectW` in JavaScript). */
export function projectSparseJs(out: Float64Array, r: Float64Array, w: SparseW, norm: Float64Array): void {
  const n = out.length;
  const { combos, start, cls, cnt } = w;
  let total = 0;
  for (let b = 0; b < n; b++) total += combos[b]! * r[b]!;
  for (let a = 0; a < n; a++) {
    let s = combos[a]! * total;
    for (let k = start[a]!, end = start[a + 1]!; k < end; k++) s -= cnt[k]! * r[cls[k]!]!;
    out[a] = s * norm[a]!;
  }
}

/**
 * The board-conditioned cycle term of `CfrSolver.potShare` in JavaScript: result = sum over buckets b of
 * projectJs(g_b, mats[b]), g_b = rm * pi[., b] times, for each other opponent i, (pls[i] > 0 ? us[b * R + i]
 * / pls[i] : 0).
 */
export function cycleJs(
  result: Float64Array,
  rm: Float64Array,
  us: readonly Float64Array[],
  pls: readonly Float64Array[],
  mats: readonly Float64Array[],
  chances: BucketChances,
  norm: Float64Array,
): void {
  const n = result.length;
  const K = chances.buckets;
  const pi = chances.pi;
  const R = pls.length;
  const g = new Float64Array(n);
  const part = new Float64Array(n);
  result.fill(0);
  for (let b = 0; b < K; b++) {
    for (let x = 0; x < n; x++) g[x] = rm[x]! * pi[x * K + b]!;
    for (let i = 0; i < R; i++) {
      const u = us[b * R + i]!;
      const pl = pls[i]!;
      for (let x = 0; x < n; x++) g[x]! *= pl[x]! > 0 ? u[x]! / pl[x]! : 0;
    }
    projectJs(part, g, mats[b]!, norm);
    for (let a = 0; a < n; a++) result[a]! += part[a]!;
  }
}
