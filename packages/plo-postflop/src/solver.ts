/**
 * The exact solver of a small PLO spot (flop, turn or river): discounted CFR (alternating updates; `PLO_DCFR`
 * unless `options.dcfr` says otherwise) vectorized over the combos of each range, exact best response and
 * per-combo EV and equity.
 *
 * Values are chips: a player's payoff is its share of the final pot less what it put in during the spot, so
 * the two players' values sum to the starting pot. A combo's EV is its expected payoff when it is dealt
 * (over the opponent hands that share no card with it, by their weights, and every card still to come); a
 * player's value is the weighted mean of its combos' EV. Exploitability is (BR(OOP) + BR(IP) - pot) / 2 in
 * percent of the starting pot. Each card to come is dealt from the cards that no board card, no card dealt
 * before and neither hand holds (a turn spot's river: 40 cards; a flop spot's turn: 41, then its river: 40),
 * so card removal is exact for every deal (`Runouts`).
 *
 * ```ts
 * const spot = resolvePloSpot({ board: "Qs9h6d", pot: 10, stack: 20, ranges: { oop: "(KQ)(J9)", ip: "AAKK" } });
 * const solver = new PloSolver(spot); // a flop: street 0 flop, 1 turn, 2 river
 * for (let i = 0; i < 100; i++) solver.iterate();
 * solver.exploitability().exploitability; // % of the pot
 * const river = solver.tree.decisions.find((d) => d.street === 2)!;
 * const [turn, card] = parseCards("2cAh", 2)!;
 * solver.averageStrategy(river, riverDeal(turn, card)); // [action * hands + hand] under turn 2c, river Ah
 * ```
 */

import { PloEngine, type PloSolverOptions, type PloStrategyOf } from "./engine.js";
import { compatTotals, sweepShowdown } from "./showdown.js";
import type { PloSpot } from "./spot.js";
import type { DecisionNode } from "./tree.js";

export type { PloSolverOptions, PloStrategyOf } from "./engine.js";
export { PLO_DCFR } from "./engine.js";

export class PloSolver extends PloEngine {
  /** A turn spot (4 board cards). */
  readonly isTurn: boolean;
  /** A flop spot (3 board cards). */
  readonly isFlop: boolean;

  constructor(spot: PloSpot, options: PloSolverOptions = {}) {
    super(spot, options);
    this.isTurn = spot.board.length === 4;
    this.isFlop = spot.board.length === 3;
  }

  /** Cards a turn spot's river may be (not on the board); empty on river and flop spots (see `runouts`). */
  get rivers(): readonly number[] {
    return this.isTurn ? this.runouts.first : [];
  }

  /** Bytes of regrets and strategy sums held. */
  get storageBytes(): number {
    let bytes = 0;
    for (const r of this.regrets) bytes += r.byteLength;
    for (const s of this.strategySums) bytes += s.byteLength;
    return bytes;
  }

  /** One iteration: an update of each player in turn. */
  iterate(): void {
    this.t++;
    for (const p of [0, 1] as const) this.traverse(p, "cfr");
    this.iteration = this.t;
  }

  /** The current strategy (regret matching) of a decision under a deal (`deal`: see `Runouts`; ignored on street 0). */
  currentStrategy(d: DecisionNode, deal: number): Float64Array {
    const out = new Float64Array(d.actions.length * this.tables[d.player].n);
    this.regretMatch(d, this.runouts.slotOfDeal(d.street, deal), out);
    return out;
  }

  /** The average strategy of a decision (uniform where a hand never reached it). */
  averageStrategy(d: DecisionNode, deal: number): Float64Array {
    const out = new Float64Array(d.actions.length * this.tables[d.player].n);
    this.averageInto(d, this.runouts.slotOfDeal(d.street, deal), out);
    return out;
  }

  /**
   * Counterfactual values of player `p`'s combos at the root: against the opponent's strategy (`strategy`,
   * default the average), with `p` playing its best response (`br`) or the same strategy (`ev`).
   */
  rootValues(p: 0 | 1, mode: "br" | "ev", strategy?: PloStrategyOf): Float64Array {
    return this.traverse(p, mode, strategy);
  }

  /** Per combo of `p`, the weight of the opponent hands it can meet. */
  compatWeights(p: 0 | 1): Float64Array {
    const out = new Float64Array(this.tables[p].n);
    compatTotals(p, this.tables, this.sums[1 - p]!, this.weights[1 - p]!, out, this.all[1 - p]!);
    return out;
  }

  /** Per combo of `p`, its all-in equity against the opponent's range (every card to come). */
  equities(p: 0 | 1): Float64Array {
    const n = this.tables[p].n;
    const num = new Float64Array(n);
    const below = new Float64Array(n);
    const upto = new Float64Array(n);
    const total = new Float64Array(n);
    this.runouts.forEachFinal((fb, w) => {
      sweepShowdown(fb, p, this.tables, this.sums[1 - p]!, this.weights[1 - p]!, below, upto, total);
      for (let i = 0; i < n; i++) num[i]! += ((below[i]! + upto[i]!) / 2) * w;
    });
    const c = this.compatWeights(p);
    return num.map((v, i) => (c[i]! > 0 ? v / c[i]! : Number.NaN));
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
}
