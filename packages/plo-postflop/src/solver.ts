/**
 * The exact solver of a small PLO spot: discounted CFR (alternating updates; alpha 1.5, beta 0, gamma 2)
 * vectorized over the combos of each range, exact best response and per-combo EV and equity.
 *
 * Values are chips: a player's payoff is its share of the final pot less what it put in during the spot, so
 * the two players' values sum to the starting pot. A combo's EV is its expected payoff when it is dealt
 * (over the opponent hands that share no card with it, by their weights, and every river card); a player's
 * value is the weighted mean of its combos' EV. Exploitability is (BR(OOP) + BR(IP) - pot) / 2 in percent
 * of the starting pot. The river below a turn is dealt from the 52 - 4 - 8 = 40 cards that no board card and
 * neither hand holds, each with probability 1/40, so card removal is exact for every deal.
 */

import { comboKey } from "./range.js";
import {
  CardSums,
  compatTotals,
  type FinalBoard,
  finalBoard,
  type HandTable,
  handTable,
  linkTwins,
  sweepShowdown,
} from "./showdown.js";
import type { PloSpot } from "./spot.js";
import { buildPloTree, type DecisionNode, type PloNode, type PloTree } from "./tree.js";

/** A strategy to play at a decision: behaviour probabilities laid out `[action * hands + hand]`. */
export type PloStrategyOf = (d: DecisionNode, card: number) => Float64Array;

type Mode = "cfr" | "br" | "ev";

/** Slot of the river spot's single board in per-card arrays. */
const RIVER = 52;

export class PloSolver {
  readonly spot: PloSpot;
  readonly tree: PloTree;
  readonly tables: [HandTable, HandTable];
  readonly weights: [Float64Array, Float64Array];
  readonly isTurn: boolean;
  iteration = 0;
  private readonly sums: [CardSums, CardSums];
  private readonly finals: (FinalBoard | undefined)[] = [];
  private readonly dead: [Int32Array[], Int32Array[]] = [[], []];
  private readonly all: [Int32Array, Int32Array];
  private readonly regrets: Float64Array[][] = [];
  private readonly strategySums: Float64Array[][] = [];
  /** Cards a river may be (not on the board). */
  readonly rivers: number[] = [];
  private t = 0;

  /**
   * `storage: false` allocates no regrets or strategy sums: for the exact numbers of a large spot (compat
   * weights, equities) and for measuring given strategies (`exploitability(strategy)`), not for iterating.
   */
  constructor(spot: PloSpot, options: { storage?: boolean } = {}) {
    this.spot = spot;
    this.isTurn = spot.board.length === 4;
    this.tree = buildPloTree(spot.pot, spot.stack, spot.betting, this.isTurn);
    const [c0, c1] = spot.combos;
    this.tables = [handTable(c0), handTable(c1)];
    linkTwins(
      this.tables[0],
      this.tables[1],
      c0.map((c) => comboKey(c.cards)),
      c1.map((c) => comboKey(c.cards)),
    );
    this.weights = [Float64Array.from(c0, (c) => c.weight), Float64Array.from(c1, (c) => c.weight)];
    this.sums = [new CardSums(this.tables[0]), new CardSums(this.tables[1])];
    this.all = [Int32Array.from(c0.keys()), Int32Array.from(c1.keys())];
    if (this.isTurn) {
      const on = new Set(spot.board);
      for (let r = 0; r < 52; r++) {
        if (on.has(r)) continue;
        this.rivers.push(r);
        this.finals[r] = finalBoard([...spot.board, r], this.tables);
        for (const p of [0, 1] as const) {
          this.dead[p][r] = Int32Array.from(
            spot.combos[p].flatMap((c, i) => (c.cards.includes(r) ? [i] : [])),
          );
        }
      }
    } else {
      this.finals[RIVER] = finalBoard(spot.board, this.tables);
    }
    if (options.storage === false) return;
    for (const d of this.tree.decisions) {
      const size = d.actions.length * this.tables[d.player].n;
      const slots = d.street === 0 ? [RIVER] : this.rivers;
      this.regrets[d.id] = [];
      this.strategySums[d.id] = [];
      for (const s of slots) {
        this.regrets[d.id]![s] = new Float64Array(size);
        this.strategySums[d.id]![s] = new Float64Array(size);
      }
    }
  }

  /** One iteration: an update of each player in turn. */
  iterate(): void {
    this.t++;
    for (const p of [0, 1] as const) {
      this.walk(this.tree.root, RIVER, p, this.weights[p].slice(), this.weights[1 - p]!.slice(), "cfr");
    }
    this.iteration = this.t;
  }

  /** The current strategy (regret matching) of a decision under a river card (`card` ignored on the first street). */
  currentStrategy(d: DecisionNode, card: number): Float64Array {
    const r = this.regrets[d.id]![d.street === 0 ? RIVER : card]!;
    const H = this.tables[d.player].n;
    const A = d.actions.length;
    const out = new Float64Array(A * H);
    for (let h = 0; h < H; h++) {
      let sum = 0;
      for (let a = 0; a < A; a++) {
        const v = r[a * H + h]!;
        if (v > 0) sum += v;
      }
      for (let a = 0; a < A; a++) {
        const v = r[a * H + h]!;
        out[a * H + h] = sum > 0 ? (v > 0 ? v / sum : 0) : 1 / A;
      }
    }
    return out;
  }

  /** The average strategy of a decision (uniform where a hand never reached it). */
  averageStrategy(d: DecisionNode, card: number): Float64Array {
    const s = this.strategySums[d.id]![d.street === 0 ? RIVER : card]!;
    const H = this.tables[d.player].n;
    const A = d.actions.length;
    const out = new Float64Array(A * H);
    for (let h = 0; h < H; h++) {
      let sum = 0;
      for (let a = 0; a < A; a++) sum += s[a * H + h]!;
      for (let a = 0; a < A; a++) out[a * H + h] = sum > 0 ? s[a * H + h]! / sum : 1 / A;
    }
    return out;
  }

  /**
   * Counterfactual values of player `p`'s combos at the root: against the opponent's strategy (`strategy`,
   * default the average), with `p` playing its best response (`br`) or the same strategy (`ev`).
   */
  rootValues(p: 0 | 1, mode: "br" | "ev", strategy?: PloStrategyOf): Float64Array {
    return this.walk(
      this.tree.root,
      RIVER,
      p,
      this.weights[p].slice(),
      this.weights[1 - p]!.slice(),
      mode,
      strategy ?? ((d, c) => this.averageStrategy(d, c)),
    );
  }

  /** Per combo of `p`, the weight of the opponent hands it can meet. */
  compatWeights(p: 0 | 1): Float64Array {
    const out = new Float64Array(this.tables[p].n);
    compatTotals(p, this.tables, this.sums[1 - p]!, this.weights[1 - p]!, out, this.all[1 - p]!);
    return out;
  }

  /** Per combo of `p`, its all-in equity against the opponent's range (every river card on a turn). */
  equities(p: 0 | 1): Float64Array {
    const n = this.tables[p].n;
    const num = new Float64Array(n);
    const below = new Float64Array(n);
    const upto = new Float64Array(n);
    const total = new Float64Array(n);
    const slots = this.isTurn ? this.rivers : [RIVER];
    for (const s of slots) {
      sweepShowdown(
        this.finals[s]!,
        p,
        this.tables,
        this.sums[1 - p]!,
        this.weights[1 - p]!,
        below,
        upto,
        total,
      );
      for (let i = 0; i < n; i++) num[i]! += (below[i]! + upto[i]!) / 2;
    }
    const c = this.compatWeights(p);
    const k = this.isTurn ? 1 / 40 : 1;
    return num.map((v, i) => (c[i]! > 0 ? (v * k) / c[i]! : Number.NaN));
  }

  /**
   * Exploitability of `strategy` (default: the average strategies) in percent of the pot, with each
   * player's value against it and the values of the profile itself.
   */
  exploitability(strategy?: PloStrategyOf): {
    exploitability: number;
    br: [number, number];
    values: [number, number];
  } {
    const val = (p: 0 | 1, mode: "br" | "ev") => {
      const v = this.rootValues(p, mode, strategy);
      const w = this.weights[p];
      const c = this.compatWeights(p);
      let num = 0;
      let z = 0;
      for (let i = 0; i < v.length; i++) {
        num += w[i]! * v[i]!;
        z += w[i]! * c[i]!;
      }
      return num / z;
    };
    const br: [number, number] = [val(0, "br"), val(1, "br")];
    const values: [number, number] = [val(0, "ev"), val(1, "ev")];
    const exploitability = ((br[0] + br[1] - this.spot.pot) / 2 / this.spot.pot) * 100;
    return { exploitability, br, values };
  }

  private walk(
    node: PloNode,
    card: number,
    me: 0 | 1,
    myReach: Float64Array,
    oppReach: Float64Array,
    mode: Mode,
    strategy?: PloStrategyOf,
  ): Float64Array {
    const n = this.tables[me].n;
    const opp = (1 - me) as 0 | 1;
    switch (node.kind) {
      case "fold": {
        const out = new Float64Array(n);
        compatTotals(me, this.tables, this.sums[opp], oppReach, out, this.all[opp]);
        const pay = node.folder === me ? -node.contrib[me] : this.spot.pot + node.contrib[opp];
        for (let i = 0; i < n; i++) out[i]! *= pay;
        return out;
      }
      case "showdown": {
        const below = new Float64Array(n);
        const upto = new Float64Array(n);
        const total = new Float64Array(n);
        sweepShowdown(this.finals[card]!, me, this.tables, this.sums[opp], oppReach, below, upto, total);
        const win = this.spot.pot + node.contrib[opp];
        const lose = -node.contrib[me];
        const tie = (win + lose) / 2;
        for (let i = 0; i < n; i++) {
          below[i] = win * below[i]! + tie * (upto[i]! - below[i]!) + lose * (total[i]! - upto[i]!);
        }
        return below;
      }
      case "chance": {
        const acc = new Float64Array(n);
        for (const r of this.rivers) {
          const mr = myReach.slice();
          const or = oppReach.slice();
          for (const i of this.dead[me][r]!) mr[i] = 0;
          for (const j of this.dead[opp][r]!) or[j] = 0;
          const v = this.walk(node.child, r, me, mr, or, mode, strategy);
          for (const i of this.dead[me][r]!) v[i] = 0;
          for (let i = 0; i < n; i++) acc[i]! += v[i]!;
        }
        for (let i = 0; i < n; i++) acc[i]! /= 40;
        return acc;
      }
      case "decision":
        return this.decide(node, card, me, myReach, oppReach, mode, strategy);
    }
  }

  private decide(
    d: DecisionNode,
    card: number,
    me: 0 | 1,
    myReach: Float64Array,
    oppReach: Float64Array,
    mode: Mode,
    strategy?: PloStrategyOf,
  ): Float64Array {
    const A = d.actions.length;
    const slot = d.street === 0 ? RIVER : card;
    if (d.player !== me) {
      const sigma = mode === "cfr" ? this.currentStrategy(d, card) : strategy!(d, card);
      const H = oppReach.length;
      const out = new Float64Array(myReach.length);
      for (let a = 0; a < A; a++) {
        const r = new Float64Array(H);
        for (let j = 0; j < H; j++) r[j] = oppReach[j]! * sigma[a * H + j]!;
        const v = this.walk(d.children[a]!, card, me, myReach, r, mode, strategy);
        for (let i = 0; i < out.length; i++) out[i]! += v[i]!;
      }
      return out;
    }
    const H = myReach.length;
    const sigma =
      mode === "cfr" ? this.currentStrategy(d, card) : mode === "ev" ? strategy!(d, card) : undefined;
    const values: Float64Array[] = [];
    for (let a = 0; a < A; a++) {
      const r = new Float64Array(H);
      if (sigma) for (let i = 0; i < H; i++) r[i] = myReach[i]! * sigma[a * H + i]!;
      else r.set(myReach);
      values.push(this.walk(d.children[a]!, card, me, r, oppReach, mode, strategy));
    }
    const out = new Float64Array(H);
    if (!sigma) {
      out.fill(Number.NEGATIVE_INFINITY);
      for (const v of values) for (let i = 0; i < H; i++) if (v[i]! > out[i]!) out[i] = v[i]!;
      return out;
    }
    for (let a = 0; a < A; a++) for (let i = 0; i < H; i++) out[i]! += sigma[a * H + i]! * values[a]![i]!;
    if (mode === "cfr") {
      const t = this.t;
      const prev = (t - 1) ** 1.5;
      const pos = prev / (prev + 1);
      const strat = ((t - 1) / t) ** 2;
      const reg = this.regrets[d.id]![slot]!;
      const ss = this.strategySums[d.id]![slot]!;
      for (let a = 0; a < A; a++) {
        const v = values[a]!;
        for (let i = 0; i < H; i++) {
          const k = a * H + i;
          const old = reg[k]!;
          reg[k] = (old > 0 ? old * pos : old * 0.5) + v[i]! - out[i]!;
          ss[k] = ss[k]! * strat + myReach[i]! * sigma[k]!;
        }
      }
    }
    return out;
  }
}
