/**
 * Discounted CFR (Brown & Sandholm 2019, alpha 1.5, beta 0, gamma 2) vectorized over hand classes, with
 * simultaneous updates of every seat. Deterministic: no sampling, so the same game gives the same strategy.
 *
 * Counterfactual values are kept per class. At a node, seat p's reach is a vector over classes; its
 * "projection" is the chance-weighted mass of p's reach seen from an opponent holding class a:
 *   proj_p(a) = sum_b W[a][b] * reach_p(b) / (combos[a] * oppPerCombo)
 * so a terminal's value for seat s holding a is its payoff times the product of the other seats'
 * projections (showdowns use the share matrix for the opponent in the pot instead of W).
 *
 * A seat that folds loses what it has put in whatever happens later, so its value below a fold is written
 * in closed form and only seats still in the hand carry values down the tree.
 */

import type { DecisionNode, EngineGame, TreeNode } from "./game.js";

interface Base {
  /** Reach of each seat at this node (shared buffers: a seat's reach changes only where it acts). */
  reach: Float64Array[];
  proj: Float64Array[];
  /** Seats still in the hand. */
  active: number[];
  /** Value per class for each active seat (null for folded seats). */
  value: (Float64Array | null)[];
  /** Best-response value per class, filled by `evaluate`. */
  br: (Float64Array | null)[];
  invested: readonly number[];
}

interface CDecision extends Base {
  kind: "decision";
  src: DecisionNode;
  actor: number;
  children: CNode[];
  regrets: Float64Array;
  stratSum: Float64Array;
  strategy: Float64Array;
  childReach: Float64Array[];
  childProj: Float64Array[];
  foldIndex: number;
  /** EV per action per class in bb relative to folding (filled by `evaluate`). */
  evs: Float64Array | null;
}

interface CFold extends Base {
  kind: "fold";
  winner: number;
  pot: number;
}

interface CShowdown extends Base {
  kind: "showdown";
  p: number;
  q: number;
  /** Transposed share matrices: column-contiguous for sparse products. */
  mtP: Float64Array;
  mtQ: Float64Array;
  pot: number;
}

type CNode = CDecision | CFold | CShowdown;

/** DCFR discounting parameters; `alternate` updates one seat per iteration (better convergence). */
export interface CfrParams {
  readonly alpha: number;
  readonly beta: number;
  readonly gamma: number;
  /** Update one seat's regrets per iteration, in turn (the other seats' strategies stay fixed). */
  readonly alternate?: boolean;
}

export const DCFR_PARAMS: CfrParams = { alpha: 1.5, beta: 0, gamma: 2 };

export interface SeatResult {
  readonly seat: string;
  /** Value of the seat under the average strategies, in bb per hand (chips won minus chips put in). */
  readonly value: number;
  /** Value of a best response against the others' average strategies, in bb per hand. */
  readonly bestResponse: number;
  /** bestResponse - value, in bb per hand (>= 0). */
  readonly exploitability: number;
}

export class CfrSolver {
  readonly game: EngineGame;
  readonly n: number;
  iterations = 0;
  private readonly root: CNode;
  private readonly decisions: CDecision[] = [];
  private readonly postorder: CNode[] = [];
  private readonly norm: Float64Array;
  private readonly wT: Float64Array;
  private readonly tmp: Float64Array;
  private readonly tmp2: Float64Array;
  private readonly foldBuf: Float64Array;
  private reachesStale = false;

  readonly params: CfrParams;

  constructor(game: EngineGame, params: CfrParams = DCFR_PARAMS) {
    this.game = game;
    this.params = params;
    const n = game.classCount;
    this.n = n;
    this.norm = new Float64Array(n);
    for (let a = 0; a < n; a++) this.norm[a] = 1 / (game.combos[a]! * game.oppPerCombo);
    this.wT = transpose(game.W, n);
    const mts = game.matrices.map((m) => transpose(m, n));
    this.tmp = new Float64Array(n);
    this.tmp2 = new Float64Array(n);
    this.foldBuf = new Float64Array(n);
    const seats = game.seats.length;
    const ones = new Float64Array(n).fill(1);
    const rootProj = new Float64Array(n);
    this.project(rootProj, ones);
    const reach = Array.from({ length: seats }, () => ones);
    const proj = Array.from({ length: seats }, () => rootProj);
    const active = Array.from({ length: seats }, (_, i) => i);
    this.root = this.compile(game.root, reach, proj, active, mts);
  }

  private compile(
    node: TreeNode,
    reach: Float64Array[],
    proj: Float64Array[],
    active: number[],
    mts: Float64Array[],
  ): CNode {
    const n = this.n;
    const seats = reach.length;
    const value = Array.from({ length: seats }, (_, s) => (active.includes(s) ? new Float64Array(n) : null));
    const br = Array.from({ length: seats }, (_, s) => (active.includes(s) ? new Float64Array(n) : null));
    const base = { reach, proj, active, value, br, invested: node.invested };
    let out: CNode;
    if (node.type === "fold") {
      out = { ...base, kind: "fold", winner: node.winner, pot: node.pot };
    } else if (node.type === "showdown") {
      const [p, q] = node.players;
      out = {
        ...base,
        kind: "showdown",
        p,
        q,
        mtP: mts[node.matrices[0]]!,
        mtQ: mts[node.matrices[1]]!,
        pot: node.pot,
      };
    } else {
      const nA = node.actions.length;
      const childReach = node.actions.map(() => new Float64Array(n));
      const childProj = node.actions.map(() => new Float64Array(n));
      const d: CDecision = {
        ...base,
        kind: "decision",
        src: node,
        actor: node.actor,
        children: [],
        regrets: new Float64Array(nA * n),
        stratSum: new Float64Array(nA * n),
        strategy: new Float64Array(nA * n).fill(1 / nA),
        childReach,
        childProj,
        foldIndex: node.actions.findIndex((a) => a.kind === "fold"),
        evs: null,
      };
      this.decisions.push(d);
      node.children.forEach((child, i) => {
        const r = [...reach];
        const pj = [...proj];
        r[node.actor] = childReach[i]!;
        pj[node.actor] = childProj[i]!;
        const act = node.actions[i]!.kind === "fold" ? active.filter((s) => s !== node.actor) : active;
        d.children.push(this.compile(child, r, pj, act, mts));
      });
      out = d;
    }
    this.postorder.push(out);
    return out;
  }

  /** out = W * r scaled to a chance-weighted mass per class. Skips zero entries of r (ranges get sparse). */
  private project(out: Float64Array, r: Float64Array, mt: Float64Array = this.wT): void {
    const n = this.n;
    out.fill(0);
    for (let b = 0; b < n; b++) {
      const rb = r[b]!;
      if (rb === 0) continue;
      const off = b * n;
      for (let a = 0; a < n; a++) out[a]! += mt[off + a]! * rb;
    }
    const norm = this.norm;
    for (let a = 0; a < n; a++) out[a]! *= norm[a]!;
  }

  /** Product of the projections of every seat except `skip1` and `skip2` (folded seats included). */
  private othersMass(out: Float64Array, node: Base, skip1: number, skip2 = -1): void {
    out.fill(1);
    const n = this.n;
    for (let s = 0; s < node.proj.length; s++) {
      if (s === skip1 || s === skip2) continue;
      const pj = node.proj[s]!;
      for (let a = 0; a < n; a++) out[a]! *= pj[a]!;
    }
  }

  /** Regret matching on the node's regrets (CFR) or normalized average strategy (evaluation). */
  private fillStrategy(d: CDecision, source: Float64Array, out: Float64Array): void {
    const n = this.n;
    const nA = d.children.length;
    for (let c = 0; c < n; c++) {
      let sum = 0;
      for (let a = 0; a < nA; a++) sum += Math.max(0, source[a * n + c]!);
      if (sum > 0) for (let a = 0; a < nA; a++) out[a * n + c] = Math.max(0, source[a * n + c]!) / sum;
      else for (let a = 0; a < nA; a++) out[a * n + c] = 1 / nA;
    }
  }

  private pushReaches(strategyOf: (d: CDecision) => Float64Array, onlySeat = -1): void {
    const n = this.n;
    for (const d of this.decisions) {
      if (onlySeat >= 0 && d.actor !== onlySeat) continue;
      const s = strategyOf(d);
      const r = d.reach[d.actor]!;
      for (let a = 0; a < d.children.length; a++) {
        const cr = d.childReach[a]!;
        for (let c = 0; c < n; c++) cr[c] = r[c]! * s[a * n + c]!;
        this.project(d.childProj[a]!, cr);
      }
    }
  }

  private terminalValues(node: CFold | CShowdown, target: "value" | "br", seat = -1): void {
    const n = this.n;
    const out = node[target];
    if (node.kind === "fold") {
      const w = node.winner;
      if (seat >= 0 && seat !== w) return;
      const gain = node.pot - node.invested[w]!;
      this.othersMass(this.tmp, node, w);
      const v = out[w]!;
      for (let a = 0; a < n; a++) v[a] = gain * this.tmp[a]!;
      return;
    }
    const { p, q, pot } = node;
    this.othersMass(this.tmp, node, p, q);
    for (const [me, opp, mt] of [
      [p, q, node.mtP],
      [q, p, node.mtQ],
    ] as const) {
      if (seat >= 0 && seat !== me) continue;
      this.project(this.tmp2, node.reach[opp]!, mt);
      const pj = node.proj[opp]!;
      const inv = node.invested[me]!;
      const v = out[me]!;
      for (let a = 0; a < n; a++) v[a] = this.tmp[a]! * (pot * this.tmp2[a]! - inv * pj[a]!);
    }
  }

  /** Value of folding at d for its actor: the chips already in are lost, weighted by the others' mass. */
  private foldValue(d: CDecision, out: Float64Array): void {
    this.othersMass(out, d, d.actor);
    const inv = d.invested[d.actor]!;
    for (let a = 0; a < this.n; a++) out[a]! *= -inv;
  }

  private childValue(d: CDecision, i: number, target: "value" | "br", foldBuf: Float64Array): Float64Array {
    return i === d.foldIndex ? foldBuf : d.children[i]![target][d.actor]!;
  }

  /**
   * One DCFR iteration. Simultaneous: every seat's regrets are updated. Alternating: seat (t-1) mod N is
   * updated; since only the previously updated seat's strategy changed, only its reaches are re-projected
   * and only the updating seat's values are computed, which makes an alternating iteration several times
   * cheaper than a full one.
   */
  iterate(): void {
    const t = ++this.iterations;
    const seats = this.game.seats.length;
    const { alpha, beta, gamma } = this.params;
    const discount = (e: number) =>
      t === 1 || e === Number.POSITIVE_INFINITY
        ? 1
        : e === Number.NEGATIVE_INFINITY
          ? 0
          : (t - 1) ** e / ((t - 1) ** e + 1);
    const weights = { pos: discount(alpha), neg: discount(beta), avg: ((t - 1) / t) ** gamma };
    if (!this.params.alternate) {
      for (const d of this.decisions) this.fillStrategy(d, d.regrets, d.strategy);
      this.pushReaches((d) => d.strategy);
      for (const node of this.postorder) this.updateNode(node, -1, weights);
      return;
    }
    const seat = (t - 1) % seats;
    // After `evaluate` the reach buffers hold average-strategy reaches: recompute every seat's.
    const changed = t === 1 || this.reachesStale ? -1 : (t - 2) % seats;
    this.reachesStale = false;
    for (const d of this.decisions) {
      if (changed >= 0 && d.actor !== changed) continue;
      this.fillStrategy(d, d.regrets, d.strategy);
    }
    this.pushReaches((d) => d.strategy, changed);
    for (const node of this.postorder) if (node.value[seat]) this.updateNode(node, seat, weights);
  }

  /** Values at one node (for `seat`, or every active seat when -1) and the actor's regret update. */
  private updateNode(node: CNode, seat: number, w: { pos: number; neg: number; avg: number }): void {
    const n = this.n;
    if (node.kind !== "decision") {
      this.terminalValues(node, "value", seat);
      return;
    }
    const p = node.actor;
    const nA = node.children.length;
    for (const s of node.active) {
      if (s === p || (seat >= 0 && s !== seat)) continue;
      const vs = node.value[s]!;
      vs.fill(0);
      for (const child of node.children) {
        const cv = child.value[s]!;
        for (let c = 0; c < n; c++) vs[c]! += cv[c]!;
      }
    }
    if (seat >= 0 && p !== seat) return;
    const foldBuf = this.foldBuf;
    if (node.foldIndex >= 0) this.foldValue(node, foldBuf);
    const vp = node.value[p]!;
    vp.fill(0);
    for (let i = 0; i < nA; i++) {
      const cv = this.childValue(node, i, "value", foldBuf);
      for (let c = 0; c < n; c++) vp[c]! += node.strategy[i * n + c]! * cv[c]!;
    }
    const reach = node.reach[p]!;
    for (let i = 0; i < nA; i++) {
      const cv = this.childValue(node, i, "value", foldBuf);
      const off = i * n;
      for (let c = 0; c < n; c++) {
        const r = node.regrets[off + c]!;
        node.regrets[off + c] = (r > 0 ? r * w.pos : r * w.neg) + cv[c]! - vp[c]!;
        node.stratSum[off + c] = node.stratSum[off + c]! * w.avg + reach[c]! * node.strategy[off + c]!;
      }
    }
  }

  /** The average strategy of a decision (frequency of each action per class). */
  averageStrategy(d: CDecision): Float64Array {
    const out = new Float64Array(d.stratSum.length);
    this.fillStrategy(d, d.stratSum, out);
    return out;
  }

  /**
   * Evaluates the average strategies: each seat's value, its best-response value (so its exploitability),
   * and the EV of every action for every class at every decision (bb, relative to folding; NaN where the
   * node is unreachable for that class).
   */
  evaluate(): SeatResult[] {
    const n = this.n;
    const avg = new Map<CDecision, Float64Array>();
    for (const d of this.decisions) avg.set(d, this.averageStrategy(d));
    this.pushReaches((d) => avg.get(d)!);
    this.reachesStale = true;
    const foldBuf = new Float64Array(n);
    const mass = new Float64Array(n);
    for (const node of this.postorder) {
      if (node.kind !== "decision") {
        this.terminalValues(node, "value");
        this.terminalValues(node, "br");
        continue;
      }
      const p = node.actor;
      const s = avg.get(node)!;
      const nA = node.children.length;
      if (node.foldIndex >= 0) this.foldValue(node, foldBuf);
      const vp = node.value[p]!;
      const bp = node.br[p]!;
      vp.fill(0);
      bp.fill(Number.NEGATIVE_INFINITY);
      for (let i = 0; i < nA; i++) {
        const cv = this.childValue(node, i, "value", foldBuf);
        const cb = i === node.foldIndex ? foldBuf : node.children[i]!.br[p]!;
        for (let c = 0; c < n; c++) {
          vp[c]! += s[i * n + c]! * cv[c]!;
          if (cb[c]! > bp[c]!) bp[c] = cb[c]!;
        }
      }
      for (const q of node.active) {
        if (q === p) continue;
        const vq = node.value[q]!;
        const bq = node.br[q]!;
        vq.fill(0);
        bq.fill(0);
        for (const child of node.children) {
          const cv = child.value[q]!;
          const cb = child.br[q]!;
          for (let c = 0; c < n; c++) {
            vq[c]! += cv[c]!;
            bq[c]! += cb[c]!;
          }
        }
      }
      // EV of an action = its value divided by the others' reach mass, plus the chips a fold would lose.
      this.othersMass(mass, node, p);
      const evs = new Float64Array(nA * n);
      const inv = node.invested[p]!;
      for (let i = 0; i < nA; i++) {
        const cv = this.childValue(node, i, "value", foldBuf);
        for (let c = 0; c < n; c++) {
          evs[i * n + c] = i === node.foldIndex ? 0 : mass[c]! > 1e-12 ? cv[c]! / mass[c]! + inv : Number.NaN;
        }
      }
      node.evs = evs;
    }
    const total = this.game.combos.reduce((x, y) => x + y, 0);
    return this.game.seats.map((seat, i) => {
      let value = 0;
      let bestResponse = 0;
      for (let c = 0; c < n; c++) {
        const w = this.game.combos[c]! / total;
        value += w * this.root.value[i]![c]!;
        bestResponse += w * this.root.br[i]![c]!;
      }
      return { seat, value, bestResponse, exploitability: Math.max(0, bestResponse - value) };
    });
  }

  /** Every decision with its average strategy and (after `evaluate`) EVs, in tree pre-order. */
  decisionResults(): Array<{ node: DecisionNode; strategy: Float64Array; evs: Float64Array | null }> {
    return this.decisions.map((d) => ({ node: d.src, strategy: this.averageStrategy(d), evs: d.evs }));
  }
}

function transpose(m: Float64Array, n: number): Float64Array {
  const t = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) t[b * n + a] = m[a * n + b]!;
  return t;
}
