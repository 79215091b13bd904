/**
 * What a postflop pack stores of one solved board: every decision of the first street with, per combo, the
 * average strategy, both players' reach, EV and equity at the node, and the EV of each action.
 */

import { discountAt } from "./dcfr.js";
import { MODE_EVAL } from "./engine.js";
import { equities, opponentTotals } from "./solve.js";
import type { PostflopSolver } from "./solver.js";
import { type ActionInfo, DECISION } from "./tree.js";

/** A decision of the first street in a pack's node table (the same for every board of the pack). */
export interface PackNodeInfo {
  /** Action labels from the root (`[]`, `["check"]`, `["bet 4.13", "raise 10.31"]`). */
  readonly path: readonly string[];
  readonly player: "oop" | "ip";
  /** The pot at the node, chips (bb). */
  readonly pot: number;
  /** Chips each player has put in since the start of the street (OOP, IP). */
  readonly contrib: readonly [number, number];
  readonly actions: readonly ActionInfo[];
}

/** Per-combo vectors of one node. Hands of each player are those of `BoardData.hands`. */
export interface NodeData {
  /** `strategy[a][h]`: frequency of action a for the actor's hand h. */
  readonly strategy: readonly Float32Array[];
  /** Probability that each hand plays to the node: its range weight times its own actions on the way. */
  readonly reach: readonly [Float32Array, Float32Array];
  /**
   * EV in chips (bb) at the node: the hand's expected share of the pot less what it still puts in, so folding
   * is worth 0 and the root EVs of both ranges sum to the pot less rake. NaN where the hand meets no hand of
   * the opponent's range at the node.
   */
  readonly ev: readonly [Float32Array, Float32Array];
  /** Equity against the opponent's range at the node over every runout (ties half); NaN as for `ev`. */
  readonly equity: readonly [Float32Array, Float32Array];
  /**
   * `actionEv[a][h]`: the actor's EV of taking action a, in the node's frame (the EV after the action less the
   * chips the action puts in; folding is 0). The node EV is the strategy-weighted sum. NaN as for `ev`.
   */
  readonly actionEv: readonly Float32Array[];
}

export interface BoardData {
  /** Combo numbers (`@ranges/solver` numbering) of each player's hands (those of the range live on the board). */
  readonly hands: readonly [Int32Array, Int32Array];
  /** Range weight of each hand. */
  readonly weights: readonly [Float32Array, Float32Array];
  /** In the order of the pack's node table. */
  readonly nodes: readonly NodeData[];
}

/** The node table of a solver's first street (decisions in tree pre-order). */
export function firstStreetNodes(solver: PostflopSolver): PackNodeInfo[] {
  const g = solver.game;
  return [...g.topNodes]
    .filter((id) => g.kind[id] === DECISION)
    .map((id) => {
      const node = g.tree.nodes[id]!;
      return {
        path: node.path,
        player: g.player[id] === 0 ? "oop" : "ip",
        pot: round6(g.config.pot + node.contrib[0] + node.contrib[1]),
        contrib: [round6(node.contrib[0]), round6(node.contrib[1])],
        actions: node.actions,
      };
    });
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Reads every first-street decision of a solver's average strategies (two evaluation traversals). */
export function extractBoard(solver: PostflopSolver): BoardData {
  const g = solver.game;
  const top = solver.top;
  const none = discountAt(1, solver.params);
  const position = new Map<number, number>();
  g.topNodes.forEach((id, i) => {
    position.set(id, i);
  });
  const decisions = [...g.topNodes].filter((id) => g.kind[id] === DECISION);
  const n = g.n;
  const nodes = decisions.map((id) => {
    const q = g.player[id]!;
    const A = g.numChildren[id]!;
    return {
      strategy: Array.from({ length: A }, () => new Float32Array(n[q]!)),
      reach: [new Float32Array(n[0]), new Float32Array(n[1])] as [Float32Array, Float32Array],
      ev: [new Float32Array(n[0]), new Float32Array(n[1])] as [Float32Array, Float32Array],
      equity: [new Float32Array(n[0]), new Float32Array(n[1])] as [Float32Array, Float32Array],
      actionEv: Array.from({ length: A }, () => new Float32Array(n[q]!)),
    };
  });
  for (let t = 0; t < 2; t++) {
    solver.traverse(MODE_EVAL, t, none);
    decisions.forEach((id, k) => {
      const i = position.get(id)!;
      const out = nodes[k]!;
      const opp = top.buf.subarray(top.reachOff[1 - t]![i]!, top.reachOff[1 - t]![i]! + n[1 - t]!);
      const totals = opponentTotals(g, t, opp);
      const contrib = t === 0 ? g.contrib0[id]! : g.contrib1[id]!;
      const values = top.valueOff[i]!;
      for (let h = 0; h < n[t]!; h++) {
        out.ev[t]![h] = totals[h]! > 1e-12 ? top.buf[values + h]! / totals[h]! + contrib : Number.NaN;
      }
      const eq = equities(g, t, opp, totals);
      for (let h = 0; h < n[t]!; h++) out.equity[t]![h] = eq[h] ?? Number.NaN;
      out.reach[t]!.set(top.buf.subarray(top.reachOff[t]![i]!, top.reachOff[t]![i]! + n[t]!));
      if (g.player[id] !== t) return;
      const A = g.numChildren[id]!;
      const first = g.firstChild[id]!;
      const strat = top.stratOff[i]!;
      for (let a = 0; a < A; a++) {
        out.strategy[a]!.set(top.buf.subarray(strat + a * n[t]!, strat + (a + 1) * n[t]!));
        // The child's values are counterfactual over the same opponent reach (the actor's own action does not
        // change it); in the node's frame the action's EV is value / totals plus the chips in before it.
        const child = top.valueOff[position.get(g.children[first + a]!)!]!;
        for (let h = 0; h < n[t]!; h++) {
          out.actionEv[a]![h] = totals[h]! > 1e-12 ? top.buf[child + h]! / totals[h]! + contrib : Number.NaN;
        }
      }
    });
  }
  return {
    hands: [Int32Array.from(g.combos[0]), Int32Array.from(g.combos[1])],
    weights: [Float32Array.from(g.weights[0]), Float32Array.from(g.weights[1])],
    nodes,
  };
}
