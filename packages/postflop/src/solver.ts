/**
 * The solver: DCFR iterations with alternating updates over a `PostflopGame`, the part of the tree on the
 * first street on the calling thread and the units (one per card dealt below it) on every thread.
 *
 * A traversal runs in three steps: the top's down step (strategies and both players' reach at every top
 * node, the reach at each top chance node written where the units read it), the units (each from its leaf's
 * reach to its values, on any thread: a unit's arithmetic does not depend on which thread runs it), then the
 * top's up step (chance nodes gather their units' values in a fixed order, decisions update regrets). So the
 * numbers are the same for any number of threads.
 */

import { type DcfrParams, DEFAULT_DCFR, type Discount, discountAt } from "./dcfr.js";
import { Engine, MODE_BR, MODE_CFR, MODE_EVAL, type Mode } from "./engine.js";
import type { PostflopGame } from "./game.js";
import { averageStrategy, blockedTotals, regretMatch, showdownValues } from "./hand-loops.js";
import {
  allocateChunk,
  type ChunkMemory,
  chunkLayout,
  chunkViews,
  handTables,
  type RegretStorage,
  type SumStorage,
  scratchFloats,
  writeTables,
} from "./kernels.js";
import { CHANCE, DECISION, FOLD } from "./tree.js";

/** Runs units for the solver: on the calling thread, or shared out to worker threads. */
export interface UnitRunner {
  /** Runs every unit for the engine's current traverser, mode and discount; outputs in `unitOut`. */
  run(mode: Mode, traverser: number, discount: Discount): void;
  close(): void;
  /**
   * Settles once what `close` stopped has exited (worker threads end only when the event loop turns, and
   * until then they keep the shared storage alive: code that solves many games in a row awaits this).
   */
  closed?(): Promise<void>;
}

export interface SolverBuffers {
  /** Unit storage chunks: one WebAssembly memory each, with every thread's working vectors (src/kernels.ts). */
  readonly chunks: readonly ChunkMemory[];
  /** Views of the chunks' regrets and strategy sums. */
  readonly regret: RegretStorage[];
  readonly cum: SumStorage[];
  /** Reach at each top chance node: leaf i at i * (n0 + n1), OOP then IP. */
  readonly leafReach: Float64Array;
  /** Each unit's values: unit u at u * max(n0, n1). */
  readonly unitOut: Float64Array;
}

/**
 * Allocates storage for `threads` threads (each chunk memory holds every thread's working vectors) and the
 * exchange buffers, these shared (SharedArrayBuffer) when `shared`. Chunk memories are always shared.
 */
export function allocateBuffers(game: PostflopGame, shared: boolean, threads = 1): SolverBuffers {
  const make = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const tables = handTables(game);
  const chunks = game.chunkSizes.map((size) => {
    const layout = chunkLayout(size, tables.bytes, scratchFloats(game), threads, game.entryBytes);
    const memory = allocateChunk(layout);
    writeTables(memory, layout.tableByte, game);
    return chunkViews(memory, layout);
  });
  const stride = game.n[0] + game.n[1];
  const leafReach = new Float64Array(make(Math.max(game.leaves.length * stride, 1) * 8));
  const unitOut = new Float64Array(make(Math.max(game.units.length * Math.max(game.n[0], game.n[1]), 1) * 8));
  return { chunks, regret: chunks.map((c) => c.regret), cum: chunks.map((c) => c.cum), leafReach, unitOut };
}

/** Runs every unit on the calling thread, in order. */
export class SerialRunner implements UnitRunner {
  private readonly engine: Engine;
  private readonly buffers: SolverBuffers;

  constructor(engine: Engine, buffers: SolverBuffers) {
    this.engine = engine;
    this.buffers = buffers;
  }

  run(mode: Mode, traverser: number, discount: Discount): void {
    runUnits(this.engine, this.buffers, mode, traverser, discount, null);
  }

  close(): void {}
}

/**
 * Runs units for one traversal: all of them in order, or, with `claim`, the ones `claim()` hands out (an
 * atomic counter shared by the threads) until it returns -1.
 */
export function runUnits(
  engine: Engine,
  buffers: SolverBuffers,
  mode: Mode,
  traverser: number,
  discount: Discount,
  claim: (() => number) | null,
  order?: Int32Array,
): void {
  const g = engine.game;
  engine.mode = mode;
  engine.traverser = traverser;
  engine.discount = discount;
  const stride = g.n[0] + g.n[1];
  const outStride = Math.max(g.n[0], g.n[1]);
  const units = g.units;
  for (let k = 0; ; k++) {
    const next = claim ? claim() : k < units.length ? k : -1;
    if (next < 0) break;
    const unit = units[order ? order[next]! : next]!;
    const base = unit.leafIndex * stride;
    engine.runUnit(unit, buffers.leafReach, base, base + g.n[0], buffers.unitOut, unit.index * outStride);
  }
}

/** Units ordered by decreasing estimated cost (ties by index), the order threads claim them in. */
export function claimOrder(game: PostflopGame): Int32Array {
  const order = game.units.map((u) => u.index);
  order.sort((a, b) => game.units[b]!.cost - game.units[a]!.cost || a - b);
  return Int32Array.from(order);
}

export interface TopValues {
  /** Per top node (position in `game.topNodes`): offsets of OOP's reach, IP's reach and the values. */
  readonly reachOff: readonly [Int32Array, Int32Array];
  readonly valueOff: Int32Array;
  readonly stratOff: Int32Array;
  readonly buf: Float64Array;
}

export class PostflopSolver {
  readonly game: PostflopGame;
  readonly params: DcfrParams;
  readonly buffers: SolverBuffers;
  readonly engine: Engine;
  readonly topRegret: Float32Array;
  readonly topCum: Float32Array;
  private runner: UnitRunner;
  iteration = 0;

  // Top working memory
  readonly top: TopValues;
  private readonly position: Int32Array;
  private readonly cardSum = new Float64Array(52);
  private readonly sums = new Float64Array(104);

  constructor(
    game: PostflopGame,
    buffers: SolverBuffers,
    runner: UnitRunner | null,
    params: DcfrParams = DEFAULT_DCFR,
  ) {
    this.game = game;
    this.params = params;
    this.buffers = buffers;
    this.engine = new Engine(game, buffers.chunks);
    this.runner = runner ?? new SerialRunner(this.engine, buffers);
    this.topRegret = new Float32Array(Math.max(game.topSize, 1));
    this.topCum = new Float32Array(Math.max(game.topSize, 1));
    const count = game.topNodes.length;
    this.position = new Int32Array(game.nodeCount).fill(-1);
    game.topNodes.forEach((id, i) => {
      this.position[id] = i;
    });
    const [n0, n1] = game.n;
    const nMax = Math.max(n0, n1);
    const r0 = new Int32Array(count);
    const r1 = new Int32Array(count);
    const v = new Int32Array(count);
    const s = new Int32Array(count);
    let size = 0;
    for (let i = 0; i < count; i++) {
      const id = game.topNodes[i]!;
      r0[i] = size;
      size += n0;
      r1[i] = size;
      size += n1;
      v[i] = size;
      size += nMax;
      s[i] = size;
      if (game.kind[id] === DECISION) size += game.numChildren[id]! * game.n[game.player[id]!]!;
    }
    this.top = { reachOff: [r0, r1], valueOff: v, stratOff: s, buf: new Float64Array(size + 2 * nMax) };
  }

  setRunner(runner: UnitRunner): void {
    this.runner.close();
    this.runner = runner;
  }

  close(): void {
    this.runner.close();
  }

  /** Settles once the threads `close` stopped have exited (see `UnitRunner.closed`). */
  closed(): Promise<void> {
    return this.runner.closed?.() ?? Promise.resolve();
  }

  /** One DCFR iteration: a traversal for OOP, then one for IP. */
  iterate(): void {
    this.iteration++;
    const discount = discountAt(this.iteration, this.params);
    this.traverse(MODE_CFR, 0, discount);
    this.traverse(MODE_CFR, 1, discount);
  }

  /**
   * One traversal; returns the offset of the root's values in `top.buf` (the traverser's counterfactual value
   * of each hand).
   */
  traverse(mode: Mode, traverser: number, discount: Discount): number {
    this.down(mode);
    this.runner.run(mode, traverser, discount);
    return this.up(mode, traverser, discount);
  }

  /** Strategies and reaches at every top node; the leaves' reach into `leafReach`. */
  private down(mode: Mode): void {
    const g = this.game;
    const top = this.top;
    const buf = top.buf;
    const [n0, n1] = g.n;
    const stride = n0 + n1;
    buf.set(g.weights[0], top.reachOff[0][0]!);
    buf.set(g.weights[1], top.reachOff[1][0]!);
    let leaf = 0;
    for (let i = 0; i < g.topNodes.length; i++) {
      const id = g.topNodes[i]!;
      const kind = g.kind[id]!;
      if (kind === CHANCE) {
        const dst = leaf * stride;
        this.buffers.leafReach.set(buf.subarray(top.reachOff[0][i]!, top.reachOff[0][i]! + n0), dst);
        this.buffers.leafReach.set(buf.subarray(top.reachOff[1][i]!, top.reachOff[1][i]! + n1), dst + n0);
        leaf++;
        continue;
      }
      if (kind !== DECISION) continue;
      const q = g.player[id]!;
      const n = g.n[q]!;
      const A = g.numChildren[id]!;
      const strat = top.stratOff[i]!;
      const off = g.localOffset[id]!;
      if (mode === MODE_CFR) regretMatch(this.topRegret, off, A, n, buf, strat);
      else averageStrategy(this.topCum, off, A, n, buf, strat);
      const first = g.firstChild[id]!;
      for (let a = 0; a < A; a++) {
        const c = this.position[g.children[first + a]!]!;
        const own = top.reachOff[q]![i]!;
        const childOwn = top.reachOff[q]![c]!;
        const s = strat + a * n;
        for (let h = 0; h < n; h++) buf[childOwn + h] = buf[own + h]! * buf[s + h]!;
        const other = top.reachOff[1 - q]![i]!;
        const childOther = top.reachOff[1 - q]![c]!;
        buf.copyWithin(childOther, other, other + g.n[1 - q]!);
      }
    }
  }

  /** Values at every top node, bottom-up; regret updates in CFR mode. Returns the root's value offset. */
  private up(mode: Mode, t: number, discount: Discount): number {
    const g = this.game;
    const top = this.top;
    const buf = top.buf;
    const o = 1 - t;
    const nt = g.n[t]!;
    const outStride = Math.max(g.n[0], g.n[1]);
    const unitOut = this.buffers.unitOut;
    const dealsPerLeaf = g.firstDeals.length;
    let leaf = g.leaves.length;
    for (let i = g.topNodes.length - 1; i >= 0; i--) {
      const id = g.topNodes[i]!;
      const kind = g.kind[id]!;
      const out = top.valueOff[i]!;
      const opp = top.reachOff[o]![i]!;
      if (kind === FOLD) {
        blockedTotals(buf, opp, out, g, t, this.cardSum, g.player[id] === t ? g.payA[id]! : g.payB[id]!);
      } else if (kind === CHANCE) {
        leaf--;
        for (let h = 0; h < nt; h++) buf[out + h] = 0;
        for (let d = 0; d < dealsPerLeaf; d++) {
          const unit = g.units[leaf * dealsPerLeaf + d]!;
          const u = unit.index * outStride;
          for (let h = 0; h < nt; h++) buf[out + h]! += unitOut[u + h]!;
          for (const mirror of unit.deal.mirrors) {
            const perm = mirror.perm[t]!;
            for (let h = 0; h < nt; h++) buf[out + h]! += unitOut[u + perm[h]!]!;
          }
        }
        const factor = g.chanceFactor[g.startStreet + 1]!;
        for (let h = 0; h < nt; h++) buf[out + h]! *= factor;
      } else if (kind === DECISION) {
        this.topDecision(id, i, mode, t, discount);
      } else {
        showdownValues(buf, opp, out, g, t, o, 0, g.payA[id]!, g.payB[id]!, this.sums);
      }
    }
    return top.valueOff[0]!;
  }

  private topDecision(id: number, i: number, mode: Mode, t: number, discount: Discount): void {
    const g = this.game;
    const top = this.top;
    const buf = top.buf;
    const A = g.numChildren[id]!;
    const first = g.firstChild[id]!;
    const nt = g.n[t]!;
    const out = top.valueOff[i]!;
    const childValue = (a: number) => top.valueOff[this.position[g.children[first + a]!]!]!;
    if (g.player[id] !== t) {
      for (let h = 0; h < nt; h++) buf[out + h] = 0;
      for (let a = 0; a < A; a++) {
        const v = childValue(a);
        for (let h = 0; h < nt; h++) buf[out + h]! += buf[v + h]!;
      }
      return;
    }
    const strat = top.stratOff[i]!;
    if (mode === MODE_BR) {
      for (let h = 0; h < nt; h++) buf[out + h] = Number.NEGATIVE_INFINITY;
      for (let a = 0; a < A; a++) {
        const v = childValue(a);
        for (let h = 0; h < nt; h++) if (buf[v + h]! > buf[out + h]!) buf[out + h] = buf[v + h]!;
      }
      return;
    }
    for (let h = 0; h < nt; h++) buf[out + h] = 0;
    for (let a = 0; a < A; a++) {
      const v = childValue(a);
      const s = strat + a * nt;
      for (let h = 0; h < nt; h++) buf[out + h]! += buf[s + h]! * buf[v + h]!;
    }
    if (mode !== MODE_CFR) return;
    const R = this.topRegret;
    const C = this.topCum;
    const off = g.localOffset[id]!;
    const own = top.reachOff[t]![i]!;
    for (let a = 0; a < A; a++) {
      const v = childValue(a);
      const ro = off + a * nt;
      const s = strat + a * nt;
      for (let h = 0; h < nt; h++) {
        const r = R[ro + h]!;
        R[ro + h] = r * (r > 0 ? discount.positive : discount.negative) + buf[v + h]! - buf[out + h]!;
        C[ro + h] = C[ro + h]! * discount.strategy + buf[own + h]! * buf[s + h]!;
      }
    }
  }

  /** Sum over pairs of hands sharing no card of the product of the two initial weights. */
  pairWeight(): number {
    const g = this.game;
    const buf = new Float64Array(g.n[0] + g.n[1] + Math.max(g.n[0], g.n[1]));
    buf.set(g.weights[1], 0);
    const out = g.n[1];
    blockedTotals(buf, 0, out, g, 0, new Float64Array(52), 1);
    let z = 0;
    for (let h = 0; h < g.n[0]; h++) z += g.weights[0][h]! * buf[out + h]!;
    return z;
  }

  /** A player's expected result (chips relative to the start of the spot) from root values. */
  private rootValue(t: number, off: number): number {
    const g = this.game;
    const w = g.weights[t]!;
    let v = 0;
    for (let h = 0; h < g.n[t]!; h++) v += w[h]! * this.top.buf[off + h]!;
    return v / this.pairWeight();
  }

  /**
   * Exploitability of the average strategies: each player's best-response value against the other's
   * strategy, less the value of the strategies, averaged over the two players; in chips and in percent
   * of the starting pot.
   */
  exploitability(): {
    chips: number;
    pctPot: number;
    bestResponse: [number, number];
    values: [number, number];
  } {
    const none = discountAt(1, this.params);
    const br0 = this.rootValue(0, this.traverse(MODE_BR, 0, none));
    const br1 = this.rootValue(1, this.traverse(MODE_BR, 1, none));
    let values: [number, number];
    if (this.game.config.rake.percent > 0 && this.game.config.rake.cap > 0) {
      const v0 = this.rootValue(0, this.traverse(MODE_EVAL, 0, none));
      const v1 = this.rootValue(1, this.traverse(MODE_EVAL, 1, none));
      values = [v0, v1];
    } else {
      // Without rake the players share the pot: the values sum to it.
      values = [Number.NaN, Number.NaN];
    }
    const sum = Number.isNaN(values[0]) ? this.game.config.pot : values[0] + values[1];
    const chips = Math.max(0, (br0 + br1 - sum) / 2);
    return { chips, pctPot: (chips / this.game.config.pot) * 100, bestResponse: [br0, br1], values };
  }

  /** The expected result of each player under the average strategies (chips relative to the start). */
  values(): [number, number] {
    const none = discountAt(1, this.params);
    const v0 = this.rootValue(0, this.traverse(MODE_EVAL, 0, none));
    const v1 = this.rootValue(1, this.traverse(MODE_EVAL, 1, none));
    return [v0, v1];
  }
}
