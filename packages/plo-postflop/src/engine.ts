/**
 * The traversal under `PloSolver`: one walk of the tree for one player (`me`) with per-combo reach vectors,
 * giving `me`'s counterfactual values per combo, and the discounted-CFR update of its decisions in `cfr` mode
 * (the schedule of `PloSolverOptions.dcfr`, `PLO_DCFR` by default). Below a chance node the template child is
 * walked once per card dealt, with the reach of the hands holding that card zeroed and the sum divided by the
 * constant of `Runouts`.
 *
 * Storage: per decision one typed array, `[slot][action][hand]` (slots: `Runouts`), for the regrets and one
 * for the strategy sums; Float64 on turn and river spots, Float32 on flop spots (a flop's river decisions
 * hold one slot per ordered turn and river pair, 2,352 on a flop; see `PloSolver.storageBytes`). Work
 * vectors come from a pool, so a walk allocates nothing per node.
 */

import { type DcfrParams, discountAt } from "@ranges/postflop";
import { comboKey } from "./range.js";
import { Runouts } from "./runouts.js";
import { CardSums, compatTotals, type HandTable, handTables, linkTwins, sweepShowdown } from "./showdown.js";
import type { PloSpot } from "./spot.js";
import { buildPloTree, type DecisionNode, type PloNode, type PloTree, type ShowdownNode } from "./tree.js";

/** A strategy to play at a decision: behaviour probabilities laid out `[action * hands + hand]`. */
export type PloStrategyOf = (d: DecisionNode, deal: number) => Float64Array;

export type Mode = "cfr" | "br" | "ev";

type Store = Float32Array | Float64Array;

/** Whether every entry is 0 (a terminal no opponent hand reaches is worth 0 to every hand). */
function isZero(v: Float64Array): boolean {
  for (let j = 0; j < v.length; j++) if (v[j] !== 0) return false;
  return true;
}

/** Reusable Float64 work vectors by length. */
class Pool {
  private readonly free = new Map<number, Float64Array[]>();
  get(n: number): Float64Array {
    return this.free.get(n)?.pop() ?? new Float64Array(n);
  }
  put(a: Float64Array): void {
    const list = this.free.get(a.length);
    if (list) list.push(a);
    else this.free.set(a.length, [a]);
  }
}

export interface PloSolverOptions {
  /**
   * `false` allocates no regrets or strategy sums: for the exact numbers of a large spot (compat weights,
   * equities) and for measuring given strategies (`exploitability(strategy)`), not for iterating.
   */
  readonly storage?: boolean;
  /** Store regrets and strategy sums in Float32 (default: on flop spots only). */
  readonly float32?: boolean;
  /** The discount schedule (default `PLO_DCFR`). */
  readonly dcfr?: DcfrParams;
}

/** The PLO solver's default schedule: the paper's (alpha 1.5, beta 0, gamma 2; see `DcfrParams`). */
export const PLO_DCFR: DcfrParams = { alpha: 1.5, beta: 0, gamma: 2 };

export class PloEngine {
  readonly spot: PloSpot;
  readonly tree: PloTree;
  readonly tables: [HandTable, HandTable];
  readonly weights: [Float64Array, Float64Array];
  readonly runouts: Runouts;
  iteration = 0;
  protected readonly sums: [CardSums, CardSums];
  protected readonly all: [Int32Array, Int32Array];
  protected readonly regrets: Store[] = [];
  protected readonly strategySums: Store[] = [];
  protected t = 0;
  readonly dcfr: DcfrParams;
  private readonly pool = new Pool();
  // the walk's state: the cards dealt so far (-1: none), the mode and the strategy played in br / ev
  private c1 = -1;
  private c2 = -1;
  private mode: Mode = "cfr";
  private strategy: PloStrategyOf | undefined;

  constructor(spot: PloSpot, options: PloSolverOptions = {}) {
    this.spot = spot;
    this.dcfr = options.dcfr ?? PLO_DCFR;
    const streets = 6 - spot.board.length;
    if (streets < 1 || streets > 3)
      throw new RangeError(`a spot's board has 3, 4 or 5 cards, not ${spot.board.length}`);
    this.tree = buildPloTree(spot.pot, spot.stack, spot.betting, streets as 1 | 2 | 3);
    const [c0, c1] = spot.combos;
    this.tables = handTables(c0, c1);
    linkTwins(
      this.tables[0],
      this.tables[1],
      c0.map((c) => comboKey(c.cards)),
      c1.map((c) => comboKey(c.cards)),
    );
    this.weights = [Float64Array.from(c0, (c) => c.weight), Float64Array.from(c1, (c) => c.weight)];
    this.sums = [new CardSums(this.tables[0]), new CardSums(this.tables[1])];
    this.all = [Int32Array.from(c0.keys()), Int32Array.from(c1.keys())];
    this.runouts = new Runouts(spot, this.tables);
    if (options.storage === false) return;
    const Kind = (options.float32 ?? streets === 3) ? Float32Array : Float64Array;
    for (const d of this.tree.decisions) {
      const size = this.runouts.slotCounts[d.street] * d.actions.length * this.tables[d.player].n;
      this.regrets[d.id] = new Kind(size);
      this.strategySums[d.id] = new Kind(size);
    }
  }

  /**
   * Walks the tree for `me` from the root with the combos' weights as reach; `me`'s values per combo. In
   * `br` and `ev` the opponent (and `me` in `ev`) plays `strategy`, default the average strategy.
   */
  protected traverse(me: 0 | 1, mode: Mode, strategy?: PloStrategyOf): Float64Array {
    if ((mode === "cfr" || !strategy) && this.regrets.length === 0)
      throw new Error(
        "this solver was built with storage: false: it has no strategies of its own to iterate or play",
      );
    this.mode = mode;
    this.strategy = strategy;
    this.c1 = this.c2 = -1;
    const out = new Float64Array(this.tables[me].n);
    this.walk(this.tree.root, me, this.weights[me].slice(), this.weights[1 - me]!.slice(), out);
    this.strategy = undefined;
    return out;
  }

  /** Regret matching of the stored regrets at `slot` into `out` (`[action * hands + hand]`). */
  protected regretMatch(d: DecisionNode, slot: number, out: Float64Array): void {
    const H = this.tables[d.player].n;
    const A = d.actions.length;
    const r = this.regrets[d.id]!;
    const base = slot * A * H;
    for (let h = 0; h < H; h++) {
      let sum = 0;
      for (let a = 0; a < A; a++) {
        const v = r[base + a * H + h]!;
        if (v > 0) sum += v;
      }
      if (sum > 0) {
        for (let a = 0; a < A; a++) {
          const v = r[base + a * H + h]!;
          out[a * H + h] = v > 0 ? v / sum : 0;
        }
      } else for (let a = 0; a < A; a++) out[a * H + h] = 1 / A;
    }
  }

  /** The average strategy (normalized strategy sums; uniform where a hand never reached) at `slot` into `out`. */
  protected averageInto(d: DecisionNode, slot: number, out: Float64Array): void {
    const s = this.strategySums[d.id]!;
    const H = this.tables[d.player].n;
    const A = d.actions.length;
    const base = slot * A * H;
    for (let h = 0; h < H; h++) {
      let sum = 0;
      for (let a = 0; a < A; a++) sum += s[base + a * H + h]!;
      for (let a = 0; a < A; a++) out[a * H + h] = sum > 0 ? s[base + a * H + h]! / sum : 1 / A;
    }
  }

  /** The strategy played at `d` in the current walk: regret-matched in `cfr`, else the given one (default the average). */
  private sigmaAt(d: DecisionNode, slot: number, size: number): Float64Array {
    const sigma = this.pool.get(size);
    if (this.mode === "cfr") this.regretMatch(d, slot, sigma);
    else if (this.strategy) sigma.set(this.strategy(d, this.runouts.deal(d.street, this.c1, this.c2)));
    else this.averageInto(d, slot, sigma);
    return sigma;
  }

  private walk(node: PloNode, me: 0 | 1, my: Float64Array, opp: Float64Array, out: Float64Array): void {
    const n = out.length;
    const o = (1 - me) as 0 | 1;
    switch (node.kind) {
      case "fold": {
        if (isZero(opp)) {
          out.fill(0);
          return;
        }
        // on the last street only the hands live on the final board (its lists) can meet
        const fb = this.runouts.complete(this.c1, this.c2);
        if (fb) compatTotals(me, this.tables, this.sums[o], opp, out, fb.order[o], fb.order[me]);
        else compatTotals(me, this.tables, this.sums[o], opp, out, this.all[o]);
        const pay = node.folder === me ? -node.contrib[me] : this.spot.pot + node.contrib[o];
        for (let i = 0; i < n; i++) out[i]! *= pay;
        return;
      }
      case "showdown":
        this.showdown(node, me, opp, out);
        return;
      case "chance":
        this.deal(node.street, node.child, me, my, opp, out);
        return;
      case "decision":
        this.decide(node, me, my, opp, out);
        return;
    }
  }

  /** A showdown's values; `total` (optional) receives the compatible opponent reach per hand. */
  private showdown(
    node: ShowdownNode,
    me: 0 | 1,
    opp: Float64Array,
    out: Float64Array,
    totalOut?: Float64Array,
  ): void {
    const n = out.length;
    const total = totalOut ?? this.pool.get(n);
    const o = (1 - me) as 0 | 1;
    if (isZero(opp)) {
      out.fill(0);
      total.fill(0);
    } else {
      const upto = this.pool.get(n);
      const fb = this.runouts.final(this.c1, this.c2);
      sweepShowdown(fb, me, this.tables, this.sums[o], opp, out, upto, total);
      const win = this.spot.pot + node.contrib[o];
      const lose = -node.contrib[me];
      const tie = (win + lose) / 2;
      for (let i = 0; i < n; i++) {
        const below = out[i]!;
        out[i] = win * below + tie * (upto[i]! - below) + lose * (total[i]! - upto[i]!);
      }
      this.pool.put(upto);
    }
    if (!totalOut) this.pool.put(total);
  }

  private deal(
    street: 1 | 2,
    child: PloNode,
    me: 0 | 1,
    my: Float64Array,
    opp: Float64Array,
    out: Float64Array,
  ): void {
    const o = (1 - me) as 0 | 1;
    const n = my.length;
    const dead = this.runouts.dead;
    const mr = this.pool.get(n);
    const or = this.pool.get(opp.length);
    const v = this.pool.get(n);
    out.fill(0);
    for (const c of this.runouts.cards(street, this.c1)) {
      if (street === 1) this.c1 = c;
      else this.c2 = c;
      mr.set(my);
      or.set(opp);
      const mine = dead[me][c]!;
      for (let k = 0; k < mine.length; k++) mr[mine[k]!] = 0;
      const theirs = dead[o][c]!;
      for (let k = 0; k < theirs.length; k++) or[theirs[k]!] = 0;
      this.walk(child, me, mr, or, v);
      for (let k = 0; k < mine.length; k++) v[mine[k]!] = 0;
      for (let i = 0; i < n; i++) out[i]! += v[i]!;
    }
    if (street === 1) this.c1 = -1;
    else this.c2 = -1;
    const k = this.runouts.divisor[street];
    for (let i = 0; i < n; i++) out[i]! /= k;
    this.pool.put(mr);
    this.pool.put(or);
    this.pool.put(v);
  }

  private decide(d: DecisionNode, me: 0 | 1, my: Float64Array, opp: Float64Array, out: Float64Array): void {
    const A = d.actions.length;
    const slot = this.runouts.slot(d.street, this.c1, this.c2);
    const n = my.length;
    if (d.player !== me) {
      const H = opp.length;
      const sigma = this.sigmaAt(d, slot, A * H);
      const r = this.pool.get(H);
      const v = this.pool.get(n);
      out.fill(0);
      for (let a = 0; a < A; a++) {
        const off = a * H;
        for (let j = 0; j < H; j++) r[j] = opp[j]! * sigma[off + j]!;
        this.walk(d.children[a]!, me, my, r, v);
        for (let i = 0; i < n; i++) out[i]! += v[i]!;
      }
      this.pool.put(sigma);
      this.pool.put(r);
      this.pool.put(v);
      return;
    }
    const H = n;
    const sigma = this.mode === "br" ? undefined : this.sigmaAt(d, slot, A * H);
    const values = this.pool.get(A * H);
    const r = this.pool.get(H);
    const v = this.pool.get(H);
    // facing a bet on the last street: folding meets the same opponent reach as calling to the showdown,
    // so the fold's values are the showdown sweep's compatible totals (one sweep instead of two passes)
    const fold = d.children[0]!;
    const share = fold.kind === "fold" && d.children[1]!.kind === "showdown";
    for (let a = share ? 1 : 0; a < A; a++) {
      const off = a * H;
      const child = d.children[a]!;
      if (sigma) for (let i = 0; i < H; i++) r[i] = my[i]! * sigma[off + i]!;
      else r.set(my);
      if (share && a === 1) {
        const total = this.pool.get(H);
        this.showdown(child as ShowdownNode, me, opp, v, total);
        const pay = -fold.contrib[me];
        for (let i = 0; i < H; i++) values[i] = total[i]! * pay;
        this.pool.put(total);
      } else this.walk(child, me, r, opp, v);
      values.set(v, off);
    }
    this.pool.put(r);
    this.pool.put(v);
    if (!sigma) {
      out.set(values.subarray(0, H));
      for (let a = 1; a < A; a++) {
        const off = a * H;
        for (let i = 0; i < H; i++) if (values[off + i]! > out[i]!) out[i] = values[off + i]!;
      }
      this.pool.put(values);
      return;
    }
    out.fill(0);
    for (let a = 0; a < A; a++) {
      const off = a * H;
      for (let i = 0; i < H; i++) out[i]! += sigma[off + i]! * values[off + i]!;
    }
    if (this.mode === "cfr") {
      const { positive: pos, negative: neg, strategy: strat } = discountAt(this.t, this.dcfr);
      const reg = this.regrets[d.id]!;
      const ss = this.strategySums[d.id]!;
      const base = slot * A * H;
      for (let a = 0; a < A; a++) {
        const off = a * H;
        for (let i = 0; i < H; i++) {
          const k = off + i;
          const old = reg[base + k]!;
          reg[base + k] = (old > 0 ? old * pos : old * neg) + values[k]! - out[i]!;
          ss[base + k] = ss[base + k]! * strat + my[i]! * sigma[k]!;
        }
      }
    }
    this.pool.put(sigma);
    this.pool.put(values);
  }
}
