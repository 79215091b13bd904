/**
 * The traversals: one pass of discounted CFR for one player (the traverser), a best response, or an
 * evaluation of the average strategies, vectorized over hands.
 *
 * A traversal computes, at every node, the traverser's counterfactual value of each of its hands: the sum over
 * the opponent's hands of the opponent's reach times the traverser's expected result, chance included. The
 * opponent's reach (a vector over its hands) goes down the tree, the values come up. Card removal: a dealt
 * card zeroes the reach of the hands holding it; at terminals the opponent's hands that share a card with a
 * traverser hand are subtracted through per-card sums, so a fold costs O(n) and a showdown, over hands sorted
 * by strength, O(n) as well.
 *
 * Working vectors live in one Float32Array used as a stack (offsets, no allocation while iterating);
 * regrets and strategy sums are float32 in storage blocks (see `PostflopGame`). Both lie in the unit's chunk
 * memory (src/kernels.ts): the dense per-action loops at decisions run as WebAssembly SIMD kernels there,
 * four hands per step in float32 arithmetic; folds and showdowns sum the reaches in float64 and round each
 * value once (the bits of the float64 JavaScript functions of src/hand-loops.ts, rounded: those serve the top
 * of the tree, in `PostflopSolver`, in float64), and a chance node sums its deals in float64 as well.
 */

import type { Discount } from "./dcfr.js";
import type { Deal, PostflopGame, Unit } from "./game.js";
import { zeroHands } from "./hand-loops.js";
import {
  type ChunkMemory,
  type HandTables,
  handTables,
  instantiateKernels,
  type Kernels,
  SUMS,
  scratchFloats,
} from "./kernels.js";
import { CHANCE, DECISION, FOLD, SHOWDOWN } from "./tree.js";

export const MODE_CFR = 0;
export const MODE_BR = 1;
export const MODE_EVAL = 2;
export type Mode = typeof MODE_CFR | typeof MODE_BR | typeof MODE_EVAL;

export class Engine {
  readonly game: PostflopGame;
  /** Unit storage chunks (memories and views). */
  readonly chunks: readonly ChunkMemory[];
  /** This thread's working vectors in each chunk's memory, the kernels on it, and the vectors' byte offset. */
  private readonly bufs: Float32Array[];
  /** Each chunk's whole memory as float64 (a chance node's sums). */
  private readonly bufs64: Float64Array[];
  private readonly kernels: Kernels[];
  private readonly bufBytes: number[];
  /** The working vectors, kernels and byte offsets of the chunk of the unit being solved. */
  buf: Float32Array;
  private buf64: Float64Array;
  private k: Kernels;
  private bufByte = 0;
  private cumByte = 0;
  /** Byte offsets of the hand tables in the current chunk (`tableByte` plus `tables`' offsets). */
  private readonly tables: HandTables;
  private tableByte = 0;
  /** Byte offset of the per-card sums (scratch of the fold and showdown kernels) in the current chunk. */
  private sumsByte = 0;

  // Per traversal
  mode: Mode = MODE_CFR;
  traverser = 0;
  /**
   * Skip subtrees the opponent's reach does not enter in CFR traversals too (their values are 0; only the
   * discounting of their regrets and strategy sums is skipped). Always done outside CFR, where it is exact.
   */
  prune = false;
  discount: Discount = { positive: 0, negative: 0, strategy: 0 };

  /**
   * River batches (see `river`): per node, the working-vector offset of an opponent decision's cached child
   * reaches (child a's at `+ a * n`) or of a showdown's precomputed values, -1 outside a batch; per node
   * whether the opponent's reach enters it; the nodes to reset; the showdowns to evaluate (id, reach offset).
   */
  private readonly cached: Int32Array;
  private readonly reachAny: Uint8Array;
  private readonly touched: number[] = [];
  private readonly pending: number[] = [];

  // Per unit
  private unitCard = 0;
  private unitNext: readonly Deal[] = [];
  private unitBlockEnd = 0;

  /** `thread`: which working-vector region of each chunk this engine uses (0 on the calling thread). */
  constructor(game: PostflopGame, chunks: readonly ChunkMemory[], thread = 0) {
    this.game = game;
    this.chunks = chunks;
    this.bufs = [];
    this.bufs64 = [];
    this.kernels = [];
    this.bufBytes = [];
    for (const chunk of chunks) {
      const layout = chunk.layout;
      if (layout.scratchFloats < scratchFloats(game))
        throw new Error("chunk memory: working vectors too small");
      const byte = layout.scratchByte + thread * layout.scratchBytes;
      if (byte + layout.scratchBytes > chunk.memory.buffer.byteLength)
        throw new Error(`chunk memory: no room for thread ${thread}`);
      this.bufs.push(new Float32Array(chunk.memory.buffer, byte, layout.scratchFloats));
      this.bufs64.push(new Float64Array(chunk.memory.buffer, 0, chunk.memory.buffer.byteLength / 8));
      this.kernels.push(instantiateKernels(chunk.memory, game.entryBytes));
      this.bufBytes.push(byte);
    }
    this.tables = handTables(game);
    this.cached = new Int32Array(game.kind.length).fill(-1);
    this.reachAny = new Uint8Array(game.kind.length);
    this.buf = this.bufs[0]!;
    this.buf64 = this.bufs64[0] ?? new Float64Array(0);
    this.k = this.kernels[0]!;
    if (chunks.length > 0) this.useChunk(0);
  }

  /** Works in chunk `chunk`'s memory from now on. */
  private useChunk(chunk: number): void {
    this.buf = this.bufs[chunk]!;
    this.buf64 = this.bufs64[chunk]!;
    this.k = this.kernels[chunk]!;
    this.bufByte = this.bufBytes[chunk]!;
    this.cumByte = this.chunks[chunk]!.layout.cumByte;
    this.tableByte = this.chunks[chunk]!.layout.tableByte;
    this.sumsByte = this.bufByte + 4 * (this.chunks[chunk]!.layout.scratchFloats - SUMS);
  }

  /**
   * Solves one unit for the current traverser and mode: `reach` holds both players' reach at the unit's leaf
   * (OOP's `n[0]` values at `reachOff[0]`, IP's at `reachOff[1]`); the traverser's values (hands holding the
   * unit's card set to 0) go to `out` at `outOff`.
   */
  runUnit(
    unit: Unit,
    reach: Float64Array,
    reachOff0: number,
    reachOff1: number,
    out: Float64Array,
    outOff: number,
  ): void {
    const g = this.game;
    const t = this.traverser;
    const o = 1 - t;
    const nt = g.n[t]!;
    const no = g.n[o]!;
    this.useChunk(unit.chunk);
    const buf = this.buf;
    const opp = 0;
    const own = no;
    const res = no + nt;
    const sp = res + nt;
    const card = unit.deal.card;
    const oppIn = o === 0 ? reachOff0 : reachOff1;
    const ownIn = t === 0 ? reachOff0 : reachOff1;
    for (let i = 0; i < no; i++) buf[opp + i] = reach[oppIn + i]!;
    for (let i = 0; i < nt; i++) buf[own + i] = reach[ownIn + i]!;
    zeroHands(buf, opp, g.withCard[o]!, g.cardStart[o]!, card);
    zeroHands(buf, own, g.withCard[t]!, g.cardStart[t]!, card);
    if (this.mode !== MODE_CFR || this.prune) {
      let any = false;
      for (let i = 0; i < no && !any; i++) any = buf[opp + i]! > 0;
      if (!any) {
        for (let i = 0; i < nt; i++) out[outOff + i] = 0;
        return;
      }
    }
    this.unitCard = card;
    this.unitNext = unit.next;
    const root = g.children[g.firstChild[unit.leaf]!]!;
    this.unitBlockEnd = unit.base + g.blockSize[root]!;
    const board = g.startStreet === 1 ? g.boardIndex(card, -1) : -1;
    if (board >= 0 && g.kind[root] === DECISION)
      this.river(root, unit.base, unit.chunk, board, opp, own, res, sp);
    else this.node(root, unit.base, unit.chunk, board, opp, own, res, sp);
    zeroHands(buf, res, g.withCard[t]!, g.cardStart[t]!, card);
    for (let i = 0; i < nt; i++) out[outOff + i] = buf[res + i]!;
  }

  /**
   * Values of `traverser`'s hands below node `id` inside `unit` (storage block at `base`, final board index
   * `board` or -1 before the river), against the opponent's reach `oppReach`: both players on their average
   * strategies (`MODE_EVAL`) or the traverser best-responding (`MODE_BR`).
   */
  evaluateBelow(
    unit: Unit,
    id: number,
    base: number,
    board: number,
    traverser: number,
    oppReach: ArrayLike<number>,
    mode: Mode,
  ): Float64Array {
    const g = this.game;
    this.mode = mode;
    this.traverser = traverser;
    const nt = g.n[traverser]!;
    const no = g.n[1 - traverser]!;
    this.useChunk(unit.chunk);
    const buf = this.buf;
    for (let i = 0; i < no; i++) buf[i] = oppReach[i]!;
    for (let i = 0; i < nt; i++) buf[no + i] = 0;
    this.unitCard = unit.deal.card;
    this.unitNext = unit.next;
    const root = g.children[g.firstChild[unit.leaf]!]!;
    this.unitBlockEnd = unit.base + g.blockSize[root]!;
    this.node(id, base, unit.chunk, board, 0, no, no + nt, no + 2 * nt);
    return Float64Array.from(buf.subarray(no + nt, no + 2 * nt));
  }

  /** The traversal below a unit's root. `base`: the street block instance's storage offset. */
  private node(
    id: number,
    base: number,
    chunk: number,
    board: number,
    opp: number,
    own: number,
    out: number,
    sp: number,
  ): void {
    const g = this.game;
    const kind = g.kind[id]!;
    if (kind === DECISION) {
      this.decision(id, base + g.localOffset[id]!, base, chunk, board, opp, own, out, sp);
    } else if (kind === CHANCE) {
      this.chance(id, chunk, opp, own, out, sp);
    } else if (kind === FOLD) {
      this.fold(id, opp, out);
    } else {
      this.showdown(id, board, opp, out, sp);
    }
  }

  /**
   * A decision (storage at float offset `off` of the chunk): the traverser's strategy weights its children's
   * values (or it best-responds), the opponent's splits the opponent's reach. The per-hand loops are kernels;
   * vector arguments are byte addresses (`bufByte + 4 * offset` for working vectors).
   */
  private decision(
    id: number,
    off: number,
    base: number,
    chunk: number,
    board: number,
    opp: number,
    own: number,
    out: number,
    sp: number,
  ): void {
    const g = this.game;
    const k = this.k;
    const B = this.bufByte;
    const A = g.numChildren[id]!;
    const first = g.firstChild[id]!;
    const children = g.children;
    const mode = this.mode;
    const t = this.traverser;
    const nt = g.n[t]!;
    const E = g.entryBytes;
    const R = E * off;
    const C = this.cumByte + E * off;
    if (g.player[id] === t) {
      const n = nt;
      const strat = sp;
      const childOwn = strat + A * n;
      const vals = childOwn + n;
      const next = vals + A * n;
      if (mode === MODE_CFR) k.regretMatch(R, A, n, B + 4 * strat);
      else k.averageStrategy(C, A, n, B + 4 * strat);
      for (let a = 0; a < A; a++) {
        const child = children[first + a]!;
        // The traverser's reach weighs the strategy sums below; a fold or a showdown has none to weigh.
        const kc = g.kind[child]!;
        if (mode === MODE_CFR && kc !== FOLD && kc !== SHOWDOWN)
          k.mul(B + 4 * childOwn, B + 4 * own, B + 4 * (strat + a * n), n);
        this.node(child, base, chunk, board, opp, childOwn, vals + a * n, next);
      }
      if (mode === MODE_BR) k.bestValue(B + 4 * out, B + 4 * vals, A, n);
      else if (mode === MODE_CFR) {
        const d = this.discount;
        k.cfrUpdate(
          R,
          C,
          A,
          n,
          B + 4 * strat,
          B + 4 * vals,
          B + 4 * out,
          B + 4 * own,
          d.positive,
          d.negative,
          d.strategy,
        );
      } else k.weightedSum(B + 4 * out, B + 4 * strat, B + 4 * vals, A, n);
    } else {
      // The opponent's decision: its strategy (current, or average outside CFR) splits its reach.
      const n = g.n[1 - t]!;
      const inv = sp;
      let childOpp = inv + n;
      const tmp = childOpp + n;
      const next = tmp + nt;
      const cfr = mode === MODE_CFR;
      // In a river batch the child reaches are already there (`prepare`).
      const cached = this.cached[id]!;
      if (cached < 0) {
        if (cfr) k.regretInverse(R, A, n, B + 4 * inv);
        else k.sumInverse(C, A, n, B + 4 * inv);
      }
      const S = cfr ? R : C;
      let firstDone = false;
      for (let a = 0; a < A; a++) {
        const child = children[first + a]!;
        let any: number;
        if (cached >= 0) {
          childOpp = cached + a * n;
          any = this.reachAny[child]!;
        } else {
          any = k.childReach(
            S + E * a * n,
            cfr ? 1 : 0,
            1 / A,
            n,
            B + 4 * inv,
            B + 4 * opp,
            B + 4 * childOpp,
          );
        }
        // No reach: the subtree's values are 0 (skipped outside CFR, where nothing below is updated).
        if (!any && (!cfr || this.prune)) continue;
        // A showdown evaluated in a river batch: its values added from where they are (no copy first).
        const done = g.kind[child] === SHOWDOWN ? this.cached[child]! : -1;
        if (done >= 0) {
          if (firstDone) k.add(B + 4 * out, B + 4 * done, nt);
          else k.copy(B + 4 * out, B + 4 * done, nt);
          firstDone = true;
          continue;
        }
        this.node(child, base, chunk, board, childOpp, own, firstDone ? tmp : out, next);
        if (firstDone) k.add(B + 4 * out, B + 4 * tmp, nt);
        firstDone = true;
      }
      if (!firstDone) k.zero(B + 4 * out, nt);
    }
  }

  /**
   * A river decision subtree (storage block at `base`, final board `board`), its showdowns evaluated two at a
   * time: first a pass down the subtree computes the opponent's reach at every node (kept: the traversal below
   * reuses it) and lists the showdowns the reach enters; `showdown2` evaluates them in pairs (each lane the
   * bits `showdown` gives) into working vectors; then the usual traversal, whose showdowns copy their values.
   */
  private river(
    id: number,
    base: number,
    chunk: number,
    board: number,
    opp: number,
    own: number,
    out: number,
    sp: number,
  ): void {
    const g = this.game;
    const t = this.traverser;
    const o = 1 - t;
    const nt = g.n[t]!;
    const no = g.n[o]!;
    const B = this.bufByte;
    const T = this.tables;
    const tb = this.tableByte;
    let at = this.prepare(id, base, opp, sp);
    const list = this.pending;
    const cached = this.cached;
    const oKey = tb + T.sdEntry[o]! + 8 * board * no;
    const lo = g.sdLength[o]![board]!;
    const tKey = tb + T.sdEntry[t]! + 8 * board * nt;
    const lt = g.sdLength[t]![board]!;
    let i = 0;
    for (; i + 5 < list.length; i += 6) {
      const a = list[i]!;
      const b = list[i + 3]!;
      this.k.showdown2(
        oKey,
        lo,
        tKey,
        lt,
        B + 4 * list[i + 1]!,
        B + 4 * list[i + 4]!,
        B + 4 * at,
        B + 4 * (at + nt),
        B + 4 * align4(at + 4 * nt),
        B + 4 * (at + 2 * nt),
        B + 4 * (at + 3 * nt),
        nt,
        g.payA[a]!,
        g.payA[b]!,
        g.payB[a]!,
        g.payB[b]!,
        this.sumsByte,
      );
      cached[a] = at;
      cached[b] = at + nt;
      this.foldFrom(list[i + 2]!, at + 2 * nt);
      this.foldFrom(list[i + 5]!, at + 3 * nt);
      at += 4 * nt;
    }
    if (i < list.length) {
      const a = list[i]!;
      this.showdownKernel(a, board, list[i + 1]!, at, align4(at + 2 * nt), at + nt);
      cached[a] = at;
      this.foldFrom(list[i + 2]!, at + nt);
      at += 2 * nt;
    }
    list.length = 0;
    this.node(id, base, chunk, board, opp, own, out, at);
    for (const x of this.touched) cached[x] = -1;
    this.touched.length = 0;
  }

  /** Fold terminal `id` (or none, -1) takes its values from the opponent's reach sharing no card at `tot`. */
  private foldFrom(id: number, tot: number): void {
    if (id < 0) return;
    this.cached[id] = tot;
    this.touched.push(id);
  }

  /**
   * The first pass of `river` below node `id`: the opponent's reach at each opponent decision's children (to
   * working vectors from `top` on, noted in `cached` and `reachAny`) and the showdowns it enters (to
   * `pending`). Returns the new top.
   */
  private prepare(id: number, base: number, opp: number, top: number): number {
    const g = this.game;
    const kind = g.kind[id]!;
    if (kind === SHOWDOWN) {
      this.pending.push(id, opp, -1);
      this.touched.push(id);
      return top;
    }
    if (kind !== DECISION) return top;
    const A = g.numChildren[id]!;
    const first = g.firstChild[id]!;
    const children = g.children;
    const t = this.traverser;
    if (g.player[id] === t) {
      // The traverser's children share the opponent's reach: a fold beside a showdown (facing a bet: fold or
      // call) is the pay times the showdown's reach sharing no card with each hand.
      let fold = -1;
      for (let a = 0; a < A; a++) {
        const child = children[first + a]!;
        if (g.kind[child] === FOLD) fold = child;
      }
      for (let a = 0; a < A; a++) {
        const child = children[first + a]!;
        top = this.prepare(child, base, opp, top);
        if (fold >= 0 && g.kind[child] === SHOWDOWN) {
          this.pending[this.pending.length - 1] = fold;
          fold = -1;
        }
      }
      return top;
    }
    const k = this.k;
    const B = this.bufByte;
    const n = g.n[1 - t]!;
    const cfr = this.mode === MODE_CFR;
    const off = base + g.localOffset[id]!;
    const E = g.entryBytes;
    const S = cfr ? E * off : this.cumByte + E * off;
    const inv = top;
    const reaches = inv + n;
    top = reaches + A * n;
    if (cfr) k.regretInverse(S, A, n, B + 4 * inv);
    else k.sumInverse(S, A, n, B + 4 * inv);
    this.cached[id] = reaches;
    this.touched.push(id);
    for (let a = 0; a < A; a++) {
      const child = children[first + a]!;
      const dst = reaches + a * n;
      const any = k.childReach(S + E * a * n, cfr ? 1 : 0, 1 / A, n, B + 4 * inv, B + 4 * opp, B + 4 * dst);
      this.reachAny[child] = any;
      if (!any && (!cfr || this.prune)) continue;
      top = this.prepare(child, base, dst, top);
    }
    return top;
  }

  /** A river deal inside a unit (the unit's own card was dealt on entry). */
  private chance(id: number, chunk: number, opp: number, own: number, out: number, sp: number): void {
    const g = this.game;
    const buf = this.buf;
    const t = this.traverser;
    const o = 1 - t;
    const nt = g.n[t]!;
    const no = g.n[o]!;
    const child = g.children[g.firstChild[id]!]!;
    const deals = this.unitNext;
    const childOpp = sp;
    const childOwn = childOpp + no;
    const tmp = childOwn + nt;
    // The sum over the deals, in float64 (two entries a hand, 8-byte aligned).
    const acc = align4(tmp + nt);
    const acc64 = this.bufByte / 8 + acc / 2;
    const next = acc + 2 * nt;
    const buf64 = this.buf64;
    const blockSize = g.blockSize[child]!;
    const start = this.unitBlockEnd + deals.length * g.chancePrefix[id]!;
    const withT = g.withCard[t]!;
    const startT = g.cardStart[t]!;
    const k = this.k;
    const B = this.bufByte;
    k.zero(B + 4 * acc, 2 * nt);
    for (let j = 0; j < deals.length; j++) {
      const deal = deals[j]!;
      const card = deal.card;
      k.copy(B + 4 * childOpp, B + 4 * opp, no);
      zeroHands(buf, childOpp, g.withCard[o]!, g.cardStart[o]!, card);
      if (this.mode === MODE_CFR) {
        k.copy(B + 4 * childOwn, B + 4 * own, nt);
        zeroHands(buf, childOwn, withT, startT, card);
      }
      const board = g.boardIndex(this.unitCard, card);
      if (g.kind[child] === DECISION)
        this.river(child, start + j * blockSize, chunk, board, childOpp, childOwn, tmp, next);
      else this.node(child, start + j * blockSize, chunk, board, childOpp, childOwn, tmp, next);
      zeroHands(buf, tmp, withT, startT, card);
      k.addTo64(B + 4 * acc, B + 4 * tmp, nt);
      for (const mirror of deal.mirrors) {
        const perm = mirror.perm[t]!;
        for (let h = 0; h < nt; h++) buf64[acc64 + h]! += buf[tmp + perm[h]!]!;
      }
    }
    this.k.storeScaled64(this.bufByte + 4 * out, this.bufByte + 4 * acc, g.chanceFactor[2]!, nt);
  }

  /** Fold terminal: the traverser's result times the opponent's reach that shares no card with each hand. */
  fold(id: number, opp: number, out: number): void {
    const g = this.game;
    const t = this.traverser;
    const v = this.cached[id]!;
    if (v >= 0) {
      // In a river batch, beside a showdown on the same reach (see `prepare`).
      this.k.scale(this.bufByte + 4 * out, this.bufByte + 4 * v, g.payA[id]!, g.n[t]!);
      return;
    }
    const o = 1 - t;
    const T = this.tables;
    const tb = this.tableByte;
    const B = this.bufByte;
    const pay = g.player[id] === t ? g.payA[id]! : g.payB[id]!;
    this.k.fold(
      B + 4 * opp,
      g.n[o]!,
      tb + T.handCards[o]!,
      B + 4 * out,
      g.n[t]!,
      tb + T.handCards[t]!,
      tb + T.same[t]!,
      pay,
      this.sumsByte,
    );
  }

  /** Showdown on a final board, in O(n) from the hands sorted by strength (`sp`: free working space). */
  showdown(id: number, board: number, opp: number, out: number, sp: number): void {
    const g = this.game;
    const v = this.cached[id]!;
    if (v >= 0) {
      // Evaluated already, in a river batch.
      this.k.copy(this.bufByte + 4 * out, this.bufByte + 4 * v, g.n[this.traverser]!);
      return;
    }
    this.showdownKernel(id, board, opp, out, align4(sp + g.n[this.traverser]!), sp);
  }

  /**
   * The showdown kernel: values to `out`, the opponent's reach sharing no card with each hand to `tot`; `tmp`:
   * the kernel's scratch, 16 bytes (four entries) a hand.
   */
  private showdownKernel(
    id: number,
    board: number,
    opp: number,
    out: number,
    tmp: number,
    tot: number,
  ): void {
    const g = this.game;
    const t = this.traverser;
    const o = 1 - t;
    const T = this.tables;
    const tb = this.tableByte;
    const B = this.bufByte;
    this.k.showdown(
      tb + T.sdEntry[o]! + 8 * board * g.n[o]!,
      g.sdLength[o]![board]!,
      tb + T.sdEntry[t]! + 8 * board * g.n[t]!,
      g.sdLength[t]![board]!,
      B + 4 * opp,
      B + 4 * out,
      B + 4 * tmp,
      B + 4 * tot,
      g.n[t]!,
      g.payA[id]!,
      g.payB[id]!,
      this.sumsByte,
    );
  }
}

/** The next multiple of 4 (a float32 offset at a 16-byte boundary, the working vectors' start being one). */
const align4 = (x: number): number => (x + 3) & ~3;
