/**
 * The engine's projection `out[a] = norm[a] * sum_b mt[b * n + a] * r[b]` (`CfrSolver.project`) as a
 * WebAssembly SIMD kernel (src/engine/kernels.wat, compiled at build time into src/engine/kernels-wasm.ts),
 * bit for bit what `projectJs` computes; and the projection on the card-removal matrix stored sparsely
 * (`CfrSolver.projectW`, `projectSparseJs`).
 *
 * Each instance owns one WebAssembly.Memory (not shared: every solver instance, so every worker thread of a
 * parallel solve, has its own) laid out as
 *
 *   [ matrix 0 | matrix 1 | ... | norm | r | out | the kernel's list of nonzero r entries | conflicts ]
 *
 * every area padded by 16 bytes (the kernel's last pair of an odd n reads and writes one double past it).
 * The matrices are copied in once; a projection copies r in and the result out (two 8n-byte copies against
 * n^2 multiply-adds).
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

  /**
   * `matrices`: every n x n matrix (row-major, as `projectJs` takes `mt`) that `project` will be given;
   * `sparse`: the card-removal matrix for `projectSparse`.
   */
  constructor(n: number, matrices: readonly Float64Array[], norm: Float64Array, sparse?: SparseW) {
    this.n = n;
    const vector = 8 * n + 16;
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
