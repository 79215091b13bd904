/**
 * Results of the hero's hands: totals, bb/100 and all-in adjusted bb/100, by position, by game and by
 * format; and the hero's preflop decisions against the equilibrium, summed over the comparable hands.
 *
 * bb/100 is the net in big blinds of each hand, summed, per 100 hands. The all-in adjusted figure replaces
 * the net of each all-in hand (see `equity.ts`) by its expectation and keeps every other hand's net.
 * Amounts are totalled per unit (USD, EUR, GBP, tournament chips, play money): they are never added across
 * units.
 */

import type { StoredHand } from "@ranges/access";
import type { Comparison } from "./equilibrium.js";

export interface Money {
  unit: string;
  amount: number;
}

export interface ResultLine {
  key: string;
  hands: number;
  net: Money[];
  netBb: number;
  bbPer100: number;
  adjustedBb: number;
  adjustedBbPer100: number;
  /** Hands with an all-in adjustment, and their net less their adjusted net (luck), in bb. */
  allInHands: number;
  allInLuckBb: number;
  /** Hands the hero won (net > 0) and saw the showdown. */
  won: number;
  showdowns: number;
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

/** The unit of a hand's amounts. */
export const unitOf = (h: { currency: string | null; format: string }): string =>
  h.currency ?? (h.format === "tournament" ? "chips" : "play money");

class Totals {
  hands = 0;
  netBb = 0;
  adjustedBb = 0;
  allInHands = 0;
  luck = 0;
  won = 0;
  showdowns = 0;
  readonly money = new Map<string, number>();

  add(h: StoredHand): void {
    this.hands++;
    this.netBb += h.netBb;
    this.adjustedBb += h.adjustedBb ?? h.netBb;
    if (h.adjustedBb !== null) {
      this.allInHands++;
      this.luck += h.netBb - h.adjustedBb;
    }
    if (h.net > 0) this.won++;
    if (h.showdown) this.showdowns++;
    const unit = unitOf(h);
    this.money.set(unit, (this.money.get(unit) ?? 0) + h.net);
  }

  line(key: string): ResultLine {
    const per100 = (x: number) => (this.hands > 0 ? r2((x / this.hands) * 100) : 0);
    return {
      key,
      hands: this.hands,
      net: [...this.money].map(([unit, amount]) => ({ unit, amount: r2(amount) })),
      netBb: r2(this.netBb),
      bbPer100: per100(this.netBb),
      adjustedBb: r2(this.adjustedBb),
      adjustedBbPer100: per100(this.adjustedBb),
      allInHands: this.allInHands,
      allInLuckBb: r2(this.luck),
      won: this.won,
      showdowns: this.showdowns,
    };
  }
}

const POSITION_ORDER = ["UTG", "UTG1", "UTG2", "UTG3", "LJ", "HJ", "CO", "BTN", "SB", "BB"];

export interface Results {
  total: ResultLine;
  byFormat: ResultLine[];
  byPosition: ResultLine[];
  byGame: ResultLine[];
}

/** Totals of the hero's hands (rows with a hero; others are skipped). */
export function handResults(rows: readonly StoredHand[]): Results {
  const total = new Totals();
  const byFormat = new Map<string, Totals>();
  const byPosition = new Map<string, Totals>();
  const byGame = new Map<string, Totals>();
  const bump = (m: Map<string, Totals>, key: string, h: StoredHand) => {
    let t = m.get(key);
    if (!t) m.set(key, (t = new Totals()));
    t.add(h);
  };
  for (const h of rows) {
    if (h.hero === null) continue;
    total.add(h);
    bump(byFormat, h.format, h);
    bump(byPosition, h.position ?? "unknown", h);
    bump(byGame, `${h.game} ${h.format} ${h.stakes}`, h);
  }
  const rank = (p: string) => {
    const i = POSITION_ORDER.indexOf(p);
    return i < 0 ? 99 : i;
  };
  return {
    total: total.line("all"),
    byFormat: [...byFormat].map(([k, t]) => t.line(k)),
    byPosition: [...byPosition].sort((a, b) => rank(a[0]) - rank(b[0])).map(([k, t]) => t.line(k)),
    byGame: [...byGame].sort((a, b) => b[1].hands - a[1].hands).map(([k, t]) => t.line(k)),
  };
}

export interface EquilibriumTotals {
  /** Hands whose preflop mapped onto a pack, and hands that did not (with the most common reasons). */
  comparableHands: number;
  notComparableHands: number;
  notComparableReasons: { reason: string; hands: number }[];
  /** The hero's decisions compared (class known, EVs where the pack has them). */
  decisions: number;
  /** Decisions where the strategy never takes the action chosen with that class (frequency 0). */
  neverPlayed: number;
  /** Decisions where the strategy takes the chosen action less than 10% of the time. */
  rarelyPlayed: number;
  /** Mean frequency the strategy gives the hero's chosen actions. */
  meanFreq: number | null;
  /** EV given up against the best action, summed over decisions with EVs, in bb, and per decision. */
  evLossBb: number;
  evLossBbPerDecision: number | null;
  /** The costliest decisions: hand, node, action taken, the best, and the loss. */
  costliest: {
    site: string;
    handId: string;
    game: string;
    stack: number;
    history: string;
    handClass: string | null;
    action: string;
    freq: number | null;
    bestAction: string | null;
    evLossBb: number;
  }[];
}

/** The hero's decisions against the equilibrium, over hands compared one by one. */
export function equilibriumTotals(
  compared: readonly { site: string; handId: string; hero: number | null; comparison: Comparison }[],
  costliest = 5,
): EquilibriumTotals {
  let comparable = 0;
  let notComparable = 0;
  const reasons = new Map<string, number>();
  let decisions = 0;
  let never = 0;
  let rarely = 0;
  let freqSum = 0;
  let loss = 0;
  let lossDecisions = 0;
  const costs: EquilibriumTotals["costliest"] = [];
  for (const c of compared) {
    if (c.comparison.status !== "compared") {
      notComparable++;
      // Reasons name numbers (stacks, antes): grouped by their first sentence.
      const reason = c.comparison.reason.split(";")[0]!;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      continue;
    }
    comparable++;
    for (const d of c.comparison.decisions) {
      if (d.player !== c.hero || d.freq === null) continue;
      decisions++;
      freqSum += d.freq;
      if (d.freq === 0) never++;
      if (d.freq < 0.1) rarely++;
      if (d.evLossBb !== null) {
        loss += d.evLossBb;
        lossDecisions++;
        if (d.evLossBb > 0) {
          costs.push({
            site: c.site,
            handId: c.handId,
            game: c.comparison.game,
            stack: c.comparison.stack,
            history: d.history,
            handClass: d.handClass,
            action: d.action,
            freq: d.freq,
            bestAction: d.bestAction,
            evLossBb: d.evLossBb,
          });
        }
      }
    }
  }
  costs.sort((a, b) => b.evLossBb - a.evLossBb);
  return {
    comparableHands: comparable,
    notComparableHands: notComparable,
    notComparableReasons: [...reasons]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([reason, hands]) => ({ reason, hands })),
    decisions,
    neverPlayed: never,
    rarelyPlayed: rarely,
    meanFreq: decisions > 0 ? Math.round((freqSum / decisions) * 1e4) / 1e4 : null,
    evLossBb: r2(loss),
    evLossBbPerDecision: lossDecisions > 0 ? Math.round((loss / lossDecisions) * 1e4) / 1e4 : null,
    costliest: costs.slice(0, costliest),
  };
}
