/**
 * Any node of a solved spot, on any street: strategy, reach, EV and equity per combo, reached by a path of
 * action labels and dealt cards (`["check", "bet 4.13", "call", "Kd", "check"]`).
 *
 * Dealt cards that were solved through an isomorphic card are mapped to it: the node read is the solved one,
 * and every per-hand vector is mapped back to the hands of the path's own cards.
 */

import { formatCard, parseCard } from "@ranges/core";
import { MODE_EVAL } from "./engine.js";
import type { Unit } from "./game.js";
import { averageStrategy, showdownValues } from "./hand-loops.js";
import { equities, opponentTotals } from "./solve.js";
import type { PostflopSolver } from "./solver.js";
import { type ActionInfo, CHANCE, DECISION, FOLD } from "./tree.js";

export interface NodeQuery {
  readonly path: readonly string[];
  readonly kind: "decision" | "fold" | "showdown" | "chance";
  /** The player to act at a decision. */
  readonly player: "oop" | "ip" | null;
  /** The board at the node (starting board plus the dealt cards). */
  readonly board: readonly string[];
  readonly pot: number;
  readonly actions: readonly ActionInfo[];
  /** At a decision, `strategy[a][h]` for the acting player's hands. */
  readonly strategy: readonly (readonly number[])[] | null;
  readonly reach: { readonly oop: readonly number[]; readonly ip: readonly number[] };
  /** EV per hand (chips, pot-share convention, see `PostflopNode`), null where a hand meets no opponent hand. */
  readonly ev: { readonly oop: readonly (number | null)[]; readonly ip: readonly (number | null)[] };
  readonly equity: { readonly oop: readonly (number | null)[]; readonly ip: readonly (number | null)[] };
}

const identity = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

export function queryNode(solver: PostflopSolver, path: readonly string[]): NodeQuery {
  const g = solver.game;
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  let id = g.tree.root.id;
  const reach = [Float64Array.from(g.weights[0]), Float64Array.from(g.weights[1])];
  // frame[p][h]: the solved (canonical) hand of the path's hand h; suit[s]: the solved suit of suit s.
  let frame: [Int32Array, Int32Array] = [identity(g.n[0]), identity(g.n[1])];
  let suit = [0, 1, 2, 3];
  let unit: Unit | null = null;
  let base = 0;
  let board = -1;
  let riverCanonical = -1;
  const dealt: number[] = [];
  const here = (i: number) => `path step ${i + 1} ("${path[i]}")`;
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    const kind = g.kind[id]!;
    const node = g.tree.nodes[id]!;
    if (kind === DECISION) {
      const a = node.actions.findIndex((x) => x.label === step.trim().toLowerCase());
      if (a < 0)
        throw new Error(
          `${here(i)}: not an action here; expected ${node.actions.map((x) => x.label).join(", ")}`,
        );
      const q = g.player[id]!;
      const n = g.n[q]!;
      const strat = new Float64Array(node.actions.length * n);
      const C = unit ? solver.buffers.cum[unit.chunk]! : solver.topCum;
      averageStrategy(C, (unit ? base : 0) + g.localOffset[id]!, node.actions.length, n, strat, 0);
      for (let h = 0; h < n; h++) reach[q]![h]! *= strat[a * n + frame[q]![h]!]!;
      id = node.children[a]!.id;
      continue;
    }
    if (kind !== CHANCE) throw new Error(`${here(i)}: the hand is over at ${node.path.join(" / ")}`);
    const card = parseCard(step.trim());
    if (card === null || g.board.includes(card) || dealt.includes(card)) {
      throw new Error(`${here(i)}: expected a card that is not on the board yet`);
    }
    const solvedCard = (card & ~3) | suit[card & 3]!;
    const deals = unit ? unit.next : g.firstDeals;
    let j = -1;
    let mirror: { card: number; perm: readonly [Int32Array, Int32Array] } | null = null;
    for (let k = 0; k < deals.length && j < 0; k++) {
      const deal = deals[k]!;
      if (deal.card === solvedCard) j = k;
      for (const m of deal.mirrors) {
        if (m.card === solvedCard) {
          j = k;
          mirror = m;
        }
      }
    }
    if (j < 0) throw new Error(`${here(i)}: ${step} cannot be dealt here`);
    for (let p = 0; p < 2; p++) {
      const start = g.cardStart[p]!;
      for (let k = start[card]!; k < start[card + 1]!; k++) reach[p]![g.withCard[p]![k]!] = 0;
    }
    if (mirror) {
      const m = mirror;
      frame = [
        Int32Array.from(frame[0], (x) => m.perm[0][x]!),
        Int32Array.from(frame[1], (x) => m.perm[1]![x]!),
      ];
      const a = deals[j]!.card & 3;
      const b = m.card & 3;
      suit = suit.map((s) => (s === a ? b : s === b ? a : s));
    }
    const child = node.children[0]!;
    if (!unit) {
      const leafIndex = [...g.leaves].indexOf(id);
      unit = g.units[leafIndex * g.firstDeals.length + j]!;
      base = unit.base;
      if (g.startStreet === 1) board = g.boardIndex(unit.deal.card, -1);
    } else {
      const root = g.children[g.firstChild[unit.leaf]!]!;
      const start = unit.base + g.blockSize[root]! + unit.next.length * g.chancePrefix[id]!;
      base = start + j * g.blockSize[child.id]!;
      riverCanonical = deals[j]!.card;
      board = g.boardIndex(unit.deal.card, riverCanonical);
    }
    dealt.push(card);
    id = child.id;
  }

  const node = g.tree.nodes[id]!;
  const kind = g.kind[id]!;
  // Vectors in the solved frame: canonical[frame[p][h]] = mine[h].
  const toSolved = (p: number, v: ArrayLike<number>) => {
    const out = new Float64Array(g.n[p]!);
    for (let h = 0; h < out.length; h++) out[frame[p]![h]!] = v[h]!;
    return out;
  };
  const fromSolved = (p: number, v: ArrayLike<number>) => Float64Array.from(frame[p]!, (k) => v[k]!);
  const ev: (number | null)[][] = [[], []];
  const equity: (number | null)[][] = [[], []];
  for (let t = 0; t < 2; t++) {
    const o = 1 - t;
    const opp = toSolved(o, reach[o]!);
    const totals = opponentTotals(g, t, opp);
    let values: Float64Array;
    let eq: (number | null)[];
    if (!unit) {
      solver.traverse(MODE_EVAL, t, { positive: 0, negative: 0, strategy: 0 });
      const pos = [...g.topNodes].indexOf(id);
      values = solver.top.buf.slice(solver.top.valueOff[pos]!, solver.top.valueOff[pos]! + g.n[t]!);
      eq = equities(g, t, opp, totals);
    } else {
      values = solver.engine.evaluateBelow(unit, id, base, board, t, opp, MODE_EVAL);
      eq = unitEquities(solver, unit, board, t, opp, totals);
    }
    const contrib = t === 0 ? node.contrib[0] : node.contrib[1];
    const evSolved = Array.from(values, (x, h) =>
      totals[h]! > 1e-12 ? x / totals[h]! + contrib : Number.NaN,
    );
    ev[t] = Array.from(fromSolved(t, evSolved), (x) => (Number.isNaN(x) ? null : round(x)));
    const eqSolved = eq.map((x) => (x === null ? Number.NaN : x));
    equity[t] = Array.from(fromSolved(t, eqSolved), (x) => (Number.isNaN(x) ? null : round(x)));
  }
  let strategy: number[][] | null = null;
  if (kind === DECISION) {
    const q = g.player[id]!;
    const n = g.n[q]!;
    const A = node.actions.length;
    const strat = new Float64Array(A * n);
    const C = unit ? solver.buffers.cum[unit.chunk]! : solver.topCum;
    averageStrategy(C, (unit ? base : 0) + g.localOffset[id]!, A, n, strat, 0);
    strategy = node.actions.map((_, a) => Array.from(frame[q]!, (k) => round(strat[a * n + k]!)));
  }
  return {
    path: [...path],
    kind: kind === DECISION ? "decision" : kind === FOLD ? "fold" : kind === CHANCE ? "chance" : "showdown",
    player: kind === DECISION ? (g.player[id] === 0 ? "oop" : "ip") : null,
    board: [...g.board, ...dealt].map(formatCard),
    pot: g.config.pot + node.contrib[0] + node.contrib[1],
    actions: node.actions,
    strategy,
    reach: { oop: Array.from(reach[0]!, round), ip: Array.from(reach[1]!, round) },
    ev: { oop: ev[0]!, ip: ev[1]! },
    equity: { oop: equity[0]!, ip: equity[1]! },
  };
}

/** Equities inside a unit (solved frame): over the rivers still to come, or on the final board. */
function unitEquities(
  solver: PostflopSolver,
  unit: Unit,
  board: number,
  t: number,
  opp: Float64Array,
  totals: Float64Array,
): (number | null)[] {
  const g = solver.game;
  const no = g.n[1 - t]!;
  const nt = g.n[t]!;
  const buf = new Float64Array(no + nt);
  buf.set(opp, 0);
  const acc = new Float64Array(nt);
  const sums = new Float64Array(104);
  const boards: number[] = [];
  if (board >= 0) boards.push(board);
  else {
    for (const river of g.remaining) {
      if (river !== unit.deal.card) boards.push(g.boardIndex(unit.deal.card, river));
    }
  }
  for (const b of boards) {
    showdownValues(buf, 0, no, g, t, 1 - t, b, 0.5, 0.5, sums);
    for (let h = 0; h < nt; h++) acc[h]! += buf[no + h]!;
  }
  const runouts = board >= 0 ? 1 : 52 - g.board.length - 1 - 4;
  return Array.from(acc, (x, h) => (totals[h]! > 1e-12 ? x / (runouts * totals[h]!) : null));
}
