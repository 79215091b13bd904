/**
 * Discounted CFR (Brown & Sandholm 2019, alpha 1.5, beta 0, gamma 2) vectorized over hand classes, with
 * simultaneous updates of every seat. Deterministic: no sampling, so the same game gives the same strategy.
 *
 * Counterfactual values are kept per class. At a node, seat p's reach is a vector over classes; its
 * "projection" is the chance-weighted mass of p's reach seen from an opponent holding class a:
 *   proj_p(a) = sum_b W[a][b] * reach_p(b) / (combos[a] * oppPerCombo)
 * so a terminal's value for seat s holding a is its payoff times the product of the other seats'
 * projections (showdowns use share matrices for the opponents in the pot instead of W).
 *
 * Multiway showdowns (three or more players in a pot): every pair of players in the pot plays a heads-up duel,
 * won by the row player with probability d_ij (its heads-up share: all-in equity, or the realization contest
 * on the flop); a player who wins all its duels takes the pot, and when nobody does (a cycle) the pot is split
 * equally. So player i's share is
 *   s_i = P_i + (1 - sum_m P_m) / k,   P_i = prod_j d_ij (independent duels), or
 *   P_i = sum_b pi_b(a_i) prod_j d_ij^b (board-conditioned duels, `EngineGame.multiway`, in all-in pots: the
 *         duels are independent given the board, so they are taken per strength bucket b of player i's hand),
 * the shares of every deal sum to exactly the pot, and heads-up it is d_ij itself. Its expectation over the
 * opponents' ranges needs only heads-up matrix products (the duels of two opponents are taken against their
 * ranges with card removal against the first one's hand). docs/solver-model.md measures it against direct
 * simulation of multiway all-ins.
 *
 * A seat that folds loses what it has put in whatever happens later, so its value below a fold is written
 * in closed form and only seats still in the hand carry values down the tree.
 *
 * Unreached lines (trembling hand): while iterating, an action that no hand takes is taken by every hand
 * with probability `tremble` (or, with `trembleEvery`, every action of every hand is mixed with it: the
 * played strategy is (1 - k * tremble) * s + tremble for k actions). So every decision is reached with some
 * weight, and at a line that equilibrium play never takes, each hand still plays a best
 * response to the others' strategies, the deviating seat's range being its range before the deviation.
 * Since the perturbed game is solved as a whole, the deviating seat adapts to those responses, so they
 * make no deviation profitable. The published strategies are the unperturbed averages (frequencies below
 * `PURIFY_BELOW` set to zero), and exploitability is measured on them exactly.
 */

import type { DecisionNode, EngineGame, TreeNode } from "./game.js";
import { ProjectionKernel } from "./kernels.js";

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
  children: CChild[];
  regrets: Float64Array;
  /** Predictive CFR+: the last instantaneous regrets, the prediction of the next ones (null otherwise). */
  pred: Float64Array | null;
  stratSum: Float64Array;
  strategy: Float64Array;
  childReach: Float64Array[];
  childProj: Float64Array[];
  foldIndex: number;
  /** EV per action per class in bb relative to folding (filled by `evaluate`). */
  evs: Float64Array | null;
  /** The strategy played while iterating: `strategy` mixed with the tremble. */
  played: Float64Array;
}

interface CFold extends Base {
  kind: "fold";
  winner: number;
  pot: number;
}

interface CShowdown extends Base {
  kind: "showdown";
  players: readonly number[];
  pots: readonly { amount: number; players: readonly number[] }[];
  duel: Int32Array;
  pot: number;
  /** Settled by all-in equity (board-conditioned duels apply), not by the postflop model. */
  allIn: boolean;
}

/** A node below the cut of a parallel solve: its subtree is solved elsewhere, its values arrive here. */
interface CCut extends Base {
  kind: "cut";
}

type CNode = CDecision | CFold | CShowdown;
type CChild = CNode | CCut;

/**
 * A subtree solved by an instance that holds only part of the tree (parallel solving, see parallel.ts): the
 * reach and projection of every seat at its root are given (written by the instance holding the part above),
 * and its root's values and best responses are written into the given buffers.
 */
export interface ForestRoot {
  readonly node: TreeNode;
  readonly reach: Float64Array[];
  readonly proj: Float64Array[];
  readonly active: number[];
  readonly value: (Float64Array | null)[];
  readonly br: (Float64Array | null)[];
}

/**
 * Which part of the game an instance holds. By default the whole tree. `forest`: only the given subtrees.
 * `cut`: the tree above the nodes that `isCut` selects (never the root); a cut node becomes a stub whose value
 * and best-response buffers come from `stub`, and every reach and projection buffer of the part is taken
 * from `alloc` (so another thread can read them).
 */
export interface CfrScope {
  readonly forest?: readonly ForestRoot[];
  readonly cut?: {
    isCut(node: TreeNode): boolean;
    alloc(): Float64Array;
    stub(
      node: TreeNode,
      reach: readonly Float64Array[],
      proj: readonly Float64Array[],
      active: readonly number[],
    ): { value: (Float64Array | null)[]; br: (Float64Array | null)[] };
  };
}

/** What every solver (serial or parallel) offers: iterate, evaluate, finalize and read the results. */
export interface Solver {
  readonly game: EngineGame;
  readonly params: CfrParams;
  readonly iterations: number;
  iterate(): void;
  evaluate(): SeatResult[];
  finalize(): void;
  /**
   * Sets the current average strategies aside as a checkpoint (replacing an earlier one). Iterating goes on
   * from the current state; `restoreAverages` brings the checkpoint back as the averages to publish.
   */
  saveAverages(): void;
  /** Makes the checkpoint of `saveAverages` the average strategies again (call before `finalize`). */
  restoreAverages(): void;
  decisionResults(): DecisionResult[];
  /** Releases threads (parallel solver); the results stay readable. */
  close(): void;
}

/** Strategies and EVs of an instance's decisions, in its order (pre-order of each subtree), packed. */
export interface PackedResults {
  /** Offsets (in doubles) of each decision's arrays; `offsets[i + 1] - offsets[i]` = actions x classes. */
  readonly offsets: Int32Array;
  readonly strategies: Float64Array;
  readonly evs: Float64Array;
  /** 1 where the decision has EVs (after `evaluate`). */
  readonly hasEvs: Uint8Array;
}

/** DCFR discounting parameters; `alternate` updates one seat per iteration (better convergence). */
export interface CfrParams {
  readonly alpha: number;
  readonly beta: number;
  readonly gamma: number;
  /** Update one seat's regrets per iteration, in turn (the other seats' strategies stay fixed). */
  readonly alternate?: boolean;
  /** Least probability of every action for every hand while iterating (trembling hand; 0 for none). */
  readonly tremble?: number;
  /**
   * Where the tremble applies: `false` (default), only to an action no hand takes at the decision (every
   * hand then plays it with probability `tremble`); `true`, to every action of every hand, the played
   * strategy being (1 - k * tremble) * s + tremble for k actions. The first leaves the ranges of the lines
   * that are taken exact but switches a line's range from a few hands to the whole range the moment its
   * last hand stops taking it; on the deep multiway trees that switch kept predictive CFR+ from converging
   * (nl/v2 200bb stalled at 0.75% of the pot), while the second is continuous in the strategies.
   */
  readonly trembleEvery?: boolean;
  /**
   * Predictive CFR+ (Farina, Kroer and Sandholm, "Faster Game Solving via Predictive Blackwell
   * Approachability", AAAI 2021) instead of DCFR's regret discounting: regrets are clipped at zero after
   * every update (regret matching+), and each iteration plays regret matching on the regrets plus the last
   * instantaneous regrets (the prediction). `alpha` and `beta` are then unused; `gamma` still weights the
   * average. Simultaneous updates only.
   */
  readonly predictive?: boolean;
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

export interface DecisionResult {
  readonly node: DecisionNode;
  readonly strategy: Float64Array;
  readonly evs: Float64Array | null;
  /** Probability that the line is played under the published strategies (card removal between seats ignored). */
  readonly reach: number;
}

/** Frequencies below this are set to zero in the published strategies (and the rest renormalized). */
export const PURIFY_BELOW = 1e-3;

export class CfrSolver implements Solver {
  readonly game: EngineGame;
  readonly n: number;
  iterations = 0;
  /** The root (null for an instance holding only subtrees). */
  private readonly root: CNode | null;
  private readonly decisions: CDecision[] = [];
  private readonly postorder: CNode[] = [];
  private readonly norm: Float64Array;
  /** Sparse card removal: W[a][b] = combos[a] * combos[b] - conflict(a, b), listed where conflict > 0. */
  private readonly conflictStart: Int32Array;
  private readonly conflictClass: Int32Array;
  private readonly conflictCount: Float64Array;
  private readonly denseW: boolean;
  /**
   * The matrices that `project` takes, in the projection kernel's memory (their handles below): W's
   * transpose (when dense), the heads-up duel matrices then (board-conditioned model) one per duel matrix
   * and bucket, and their transposes.
   */
  private readonly kernel: ProjectionKernel;
  private readonly wT: number;
  private readonly mats: readonly number[];
  private readonly matsT: readonly number[];
  /** Heads-up duel matrices (the first `duelCount` of `mats`). */
  private readonly duelCount: number;
  /** Strength buckets of the multiway model (1: independent duels) and their chances pi[a * buckets + k]. */
  private readonly buckets: number;
  private readonly bucketPi: Float64Array | null;
  private readonly tmp: Float64Array;
  private readonly tmp2: Float64Array;
  private readonly tmp3: Float64Array;
  private readonly tmp4: Float64Array;
  private readonly tmp5: Float64Array;
  private readonly tmp6: Float64Array;
  private readonly tmp7: Float64Array;
  private readonly foldBuf: Float64Array;
  /** The cycle term's inputs (reused lists). */
  private readonly cycleUs: Float64Array[] = [];
  private readonly cyclePls: Float64Array[] = [];
  /** Products of reaches with share matrices, valid while `epoch` (bumped when reaches change) matches. */
  private readonly cache = new Map<number, { epoch: number; v: Float64Array }>();
  private readonly bufferIds = new Map<Float64Array, number>();
  private epoch = 0;
  private reachesStale = false;
  /** Published (purified) strategies once `finalize` has run; the averages otherwise. */
  private published: Map<CDecision, Float64Array> | null = null;
  /** State carried between the steps of `evaluate` and `finalize` (see the step methods). */
  private evalStrat: Map<CDecision, Float64Array> | null = null;
  private evalTrembled: Map<CDecision, Float64Array> | null = null;
  private ownZero: Map<CDecision, number[]> | null = null;
  /** Average-strategy sums set aside by `saveAverages` (one block per decision, in `decisions` order). */
  private savedSums: Float64Array | null = null;
  private readonly scope: CfrScope;

  readonly params: CfrParams;

  /**
   * `scope` (internal, for the parallel solver) restricts the instance to part of the tree; the default is
   * the whole game.
   */
  constructor(game: EngineGame, params: CfrParams = DCFR_PARAMS, scope: CfrScope = {}) {
    if (params.predictive && params.alternate)
      throw new Error("predictive CFR+ runs with simultaneous updates only (alternate: false)");
    this.scope = scope;
    this.game = game;
    this.params = params;
    const n = game.classCount;
    this.n = n;
    this.norm = new Float64Array(n);
    for (let a = 0; a < n; a++) this.norm[a] = 1 / (game.combos[a]! * game.oppPerCombo);
    // Card removal is sparse: two classes conflict only when they share a rank.
    const starts: number[] = [0];
    const cls: number[] = [];
    const cnt: number[] = [];
    let dense = 0;
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        const c = game.combos[a]! * game.combos[b]! - game.W[a * n + b]!;
        if (c > 0) {
          cls.push(b);
          cnt.push(c);
        }
      }
      starts.push(cls.length);
      dense += n;
    }
    this.conflictStart = Int32Array.from(starts);
    this.conflictClass = Int32Array.from(cls);
    this.conflictCount = Float64Array.from(cnt);
    this.denseW = cls.length > dense / 2;
    this.duelCount = game.matrices.length;
    this.buckets = game.multiway?.buckets ?? 1;
    this.bucketPi = game.multiway?.pi ?? null;
    if (game.multiway && game.multiway.matrices.length !== game.matrices.length * this.buckets)
      throw new Error("multiway model: one matrix per duel matrix and bucket expected");
    const mats = [...game.matrices, ...(game.multiway?.matrices ?? [])];
    // One transpose per distinct matrix (unused bucket slots share one zero matrix).
    const transposed = new Map<Float64Array, Float64Array>();
    const matsT = mats.map((m) => {
      let t = transposed.get(m);
      if (!t) transposed.set(m, (t = transpose(m, n)));
      return t;
    });
    const wT = this.denseW ? transpose(game.W, n) : null;
    this.kernel = new ProjectionKernel(n, wT ? [wT, ...mats, ...matsT] : [...mats, ...matsT], this.norm, {
      sparse: this.denseW
        ? undefined
        : {
            combos: game.combos,
            start: this.conflictStart,
            cls: this.conflictClass,
            cnt: this.conflictCount,
          },
      chances: game.multiway ? { buckets: this.buckets, pi: game.multiway.pi } : undefined,
    });
    this.wT = wT ? this.kernel.address(wT) : -1;
    this.mats = mats.map((m) => this.kernel.address(m));
    this.matsT = matsT.map((m) => this.kernel.address(m));
    this.tmp = new Float64Array(n);
    this.tmp2 = new Float64Array(n);
    this.tmp3 = new Float64Array(n);
    this.tmp4 = new Float64Array(n);
    this.tmp5 = new Float64Array(n);
    this.tmp6 = new Float64Array(n);
    this.tmp7 = new Float64Array(n);
    this.foldBuf = new Float64Array(n);
    if (scope.forest) {
      this.root = null;
      for (const f of scope.forest) this.compile(f.node, f.reach, f.proj, f.active, f);
      return;
    }
    const seats = game.seats.length;
    const ones = this.buffer().fill(1);
    const rootProj = this.buffer();
    this.projectW(rootProj, ones);
    const reach = Array.from({ length: seats }, () => ones);
    const proj = Array.from({ length: seats }, () => rootProj);
    const active = Array.from({ length: seats }, (_, i) => i);
    const root = this.compile(game.root, reach, proj, active);
    if (root.kind === "cut") throw new Error("the root cannot be cut");
    this.root = root;
  }

  /** A reach or projection buffer (from the scope's allocator when the part above a cut is compiled). */
  private buffer(): Float64Array {
    return this.scope.cut ? this.scope.cut.alloc() : new Float64Array(this.n);
  }

  private compile(
    node: TreeNode,
    reach: Float64Array[],
    proj: Float64Array[],
    active: number[],
    given?: ForestRoot,
  ): CChild {
    const n = this.n;
    const seats = reach.length;
    const cut = this.scope.cut;
    if (cut && node !== this.game.root && cut.isCut(node)) {
      const { value, br } = cut.stub(node, reach, proj, active);
      return { reach, proj, active, value, br, invested: node.invested, kind: "cut" };
    }
    const value =
      given?.value ??
      Array.from({ length: seats }, (_, s) => (active.includes(s) ? new Float64Array(n) : null));
    const br =
      given?.br ?? Array.from({ length: seats }, (_, s) => (active.includes(s) ? new Float64Array(n) : null));
    const base = { reach, proj, active, value, br, invested: node.invested };
    let out: CNode;
    if (node.type === "fold") {
      out = { ...base, kind: "fold", winner: node.winner, pot: node.pot };
    } else if (node.type === "showdown") {
      out = {
        ...base,
        kind: "showdown",
        players: node.players,
        pots: node.pots,
        duel: node.duel,
        pot: node.pot,
        allIn: node.allIn,
      };
    } else {
      const nA = node.actions.length;
      const childReach = node.actions.map(() => this.buffer());
      const childProj = node.actions.map(() => this.buffer());
      const d: CDecision = {
        ...base,
        kind: "decision",
        src: node,
        actor: node.actor,
        children: [],
        regrets: new Float64Array(nA * n),
        pred: this.params.predictive ? new Float64Array(nA * n) : null,
        stratSum: new Float64Array(nA * n),
        strategy: new Float64Array(nA * n).fill(1 / nA),
        childReach,
        childProj,
        foldIndex: node.actions.findIndex((a) => a.kind === "fold"),
        evs: null,
        played: new Float64Array(nA * n).fill(1 / nA),
      };
      this.decisions.push(d);
      node.children.forEach((child, i) => {
        const r = [...reach];
        const pj = [...proj];
        r[node.actor] = childReach[i]!;
        pj[node.actor] = childProj[i]!;
        const act = node.actions[i]!.kind === "fold" ? active.filter((s) => s !== node.actor) : active;
        d.children.push(this.compile(child, r, pj, act));
      });
      out = d;
    }
    this.postorder.push(out);
    return out;
  }

  /**
   * out = W * r scaled to a chance-weighted mass per class (sparse: W is full minus rank conflicts; in the
   * projection kernel, bit for bit the loop `projectSparseJs` of kernels.ts).
   */
  private projectW(out: Float64Array, r: Float64Array): void {
    if (this.denseW) this.project(out, r, this.wT);
    else this.kernel.projectSparse(out, r);
  }

  /**
   * out[a] = norm[a] * sum_b mt[b * n + a] * r[b]: with mt the transpose of M this is (M r)(a), with M itself
   * (M^T r)(a). Skips zero entries of r (ranges get sparse). `mt` is the matrix's handle in the projection
   * kernel (WebAssembly SIMD, bit for bit the plain loop `projectJs` of kernels.ts); undefined (a duel index
   * past the game's matrices) throws.
   */
  private project(out: Float64Array, r: Float64Array, mt: number | undefined): void {
    if (mt === undefined) throw new TypeError("no such duel matrix");
    this.kernel.project(out, r, mt);
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

  private scratchBuf = new Float64Array(0);
  /** A reused buffer of at least `size` doubles (its first `size` are handed out). */
  private scratch(size: number): Float64Array {
    if (this.scratchBuf.length < size) this.scratchBuf = new Float64Array(size);
    return this.scratchBuf.subarray(0, size);
  }

  /** Pushes reaches down the tree (decisions in pre-order). */
  private pushReaches(strategyOf: (d: CDecision) => Float64Array, onlySeat = -1): void {
    const n = this.n;
    this.epoch++;
    for (const d of this.decisions) {
      if (onlySeat >= 0 && d.actor !== onlySeat) continue;
      const s = strategyOf(d);
      const r = d.reach[d.actor]!;
      for (let a = 0; a < d.children.length; a++) {
        const cr = d.childReach[a]!;
        for (let c = 0; c < n; c++) cr[c] = r[c]! * s[a * n + c]!;
        this.projectW(d.childProj[a]!, cr);
      }
    }
  }

  /**
   * The strategy played while iterating: `s`, except that an action no hand takes at this node (zero mass
   * over the actor's range) is played with probability `tremble` by every hand, the others scaled down to
   * make room. Lines that are taken keep their exact (sparse) ranges; no line is ever cut off entirely.
   * With `trembleEvery`, every action of every hand is mixed with the tremble instead.
   */
  private tremble(d: CDecision, s: Float64Array, out: Float64Array): Float64Array {
    out.set(s);
    const eps = this.params.tremble ?? 0;
    if (eps <= 0) return out;
    const n = this.n;
    const nA = d.children.length;
    if (this.params.trembleEvery) {
      const keep = 1 - nA * eps;
      for (let i = 0; i < nA * n; i++) out[i] = keep * s[i]! + eps;
      return out;
    }
    const r = d.reach[d.actor]!;
    let dead = 0;
    let deadMask = 0;
    for (let a = 0; a < nA; a++) {
      let m = 0;
      for (let c = 0; c < n; c++) m += r[c]! * s[a * n + c]!;
      if (m === 0) {
        dead++;
        deadMask |= 1 << a;
      }
    }
    if (dead === 0 || dead === nA) return out;
    const keep = 1 - dead * eps;
    for (let a = 0; a < nA; a++) {
      const off = a * n;
      if (deadMask & (1 << a)) for (let c = 0; c < n; c++) out[off + c] = eps;
      else for (let c = 0; c < n; c++) out[off + c] = keep * s[off + c]!;
    }
    return out;
  }

  /**
   * u_ij = norm * (M_ij r_j): seat i's expected duel share against seat j's range, mass-weighted; with
   * `bucket` >= 0, in that strength bucket of seat i's hand (board-conditioned model). Cached per (reach
   * buffer, matrix) until the reaches change: terminals below the same actions share them.
   */
  private duelU(node: CShowdown, i: number, j: number, bucket = -1): Float64Array {
    let m = node.duel[i * this.game.seats.length + j]!;
    if (bucket >= 0) m = this.duelCount + m * this.buckets + bucket;
    const r = node.reach[j]!;
    return this.cached(this.bufferId(r) * this.mats.length + m, (out) => this.project(out, r, this.matsT[m]));
  }

  private bufferId(r: Float64Array): number {
    let id = this.bufferIds.get(r);
    if (id === undefined) {
      id = this.bufferIds.size + 1;
      this.bufferIds.set(r, id);
    }
    return id;
  }

  private cached(key: number, fill: (out: Float64Array) => void): Float64Array {
    let e = this.cache.get(key);
    if (!e) {
      e = { epoch: -1, v: new Float64Array(this.n) };
      this.cache.set(key, e);
    }
    if (e.epoch !== this.epoch) {
      fill(e.v);
      e.epoch = this.epoch;
    }
    return e.v;
  }

  /**
   * Seat `me`'s expected share of a pot contested by `players` (k >= 2), weighted by the reach mass of the
   * pot's other players (not of the other seats). Written into `out`.
   *
   * With k >= 3, s_me = P_me + (1 - sum_m P_m) / k per deal, P_m the chance that m sweeps its duels: the
   * product of m's duel shares (independent duels), or its bucket-weighted sum of products (board-conditioned).
   */
  private potShare(node: CShowdown, players: readonly number[], me: number, out: Float64Array): void {
    const n = this.n;
    const k = players.length;
    const opp = players.filter((j) => j !== me);
    if (k === 2) {
      out.set(this.duelU(node, me, opp[0]!));
      return;
    }
    const K = this.buckets;
    // Board-conditioned duels settle all-in pots; pots that go to the flop keep independent duels of the
    // realization model.
    const pi = node.allIn ? this.bucketPi : null;
    // E[P_me] (mass units) and prod_j proj_j.
    const prodU = this.tmp2;
    const prodP = this.tmp3;
    prodP.fill(1);
    for (const j of opp) {
      const pj = node.proj[j]!;
      for (let a = 0; a < n; a++) prodP[a]! *= pj[a]!;
    }
    if (pi === null) {
      prodU.fill(1);
      for (const j of opp) {
        const u = this.duelU(node, me, j);
        for (let a = 0; a < n; a++) prodU[a]! *= u[a]!;
      }
    } else {
      prodU.fill(0);
      const t = this.tmp6;
      for (let b = 0; b < K; b++) {
        for (let a = 0; a < n; a++) t[a] = pi[a * K + b]!;
        for (const j of opp) {
          const u = this.duelU(node, me, j, b);
          for (let a = 0; a < n; a++) t[a]! *= u[a]!;
        }
        for (let a = 0; a < n; a++) prodU[a]! += t[a]!;
      }
    }
    for (let a = 0; a < n; a++) out[a] = prodU[a]! + (prodP[a]! - prodU[a]!) / k;
    // Minus (1/k) sum over opponents m of E[P_m], with m's duels against the other opponents' ranges as
    // seen from m's hand and its duel against me projected onto my hand.
    const g = this.tmp4;
    const t = this.tmp5;
    const seats = this.game.seats.length;
    for (const m of opp) {
      const rest = opp.filter((l) => l !== m);
      const toMe = node.duel[m * seats + me]!;
      const fill = (result: Float64Array) => {
        if (pi === null) {
          g.set(node.reach[m]!);
          for (const l of rest) {
            const u = this.duelU(node, m, l);
            const pl = node.proj[l]!;
            for (let x = 0; x < n; x++) g[x]! *= pl[x]! > 0 ? u[x]! / pl[x]! : 0;
          }
          this.project(result, g, this.mats[toMe]);
          return;
        }
        if (this.kernel.canCycle(rest.length)) {
          // In the kernel (bit for bit the loop below): every duel share it needs, then the products.
          const us = this.cycleUs;
          const pls = this.cyclePls;
          us.length = 0;
          pls.length = 0;
          for (const l of rest) pls.push(node.proj[l]!);
          for (let b = 0; b < K; b++) for (const l of rest) us.push(this.duelU(node, m, l, b));
          this.kernel.cycle(result, node.reach[m]!, us, pls, this.mats, this.duelCount + toMe * K);
          return;
        }
        result.fill(0);
        const part = this.tmp7;
        const rm = node.reach[m]!;
        for (let b = 0; b < K; b++) {
          for (let x = 0; x < n; x++) g[x] = rm[x]! * pi[x * K + b]!;
          for (const l of rest) {
            const u = this.duelU(node, m, l, b);
            const pl = node.proj[l]!;
            for (let x = 0; x < n; x++) g[x]! *= pl[x]! > 0 ? u[x]! / pl[x]! : 0;
          }
          this.project(part, g, this.mats[this.duelCount + toMe * K + b]);
          for (let a = 0; a < n; a++) result[a]! += part[a]!;
        }
      };
      let tm: Float64Array;
      if (rest.length === 1) {
        // Three-way pots: cache by (m's reach, l's reach, m-l duel, m-me duel).
        const l = rest[0]!;
        const nm = this.duelCount;
        const key =
          ((this.bufferId(node.reach[m]!) * 1048576 + this.bufferId(node.reach[l]!)) * nm +
            node.duel[m * seats + l]!) *
            nm +
          toMe;
        tm = this.cached(-key, fill);
      } else {
        fill(t);
        tm = t;
      }
      if (rest.length === 1) {
        const pl = node.proj[rest[0]!]!;
        for (let a = 0; a < n; a++) out[a]! -= (tm[a]! * pl[a]!) / k;
      } else {
        const pls = rest.map((l) => node.proj[l]!);
        for (let a = 0; a < n; a++) {
          let x = tm[a]!;
          for (let i = 0; i < pls.length; i++) x *= pls[i]![a]!;
          out[a]! -= x / k;
        }
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
    if (target === "br") {
      // Terminal values do not depend on the seat's own strategy: the best response sees the same.
      for (const me of node.players) if (seat < 0 || seat === me) out[me]!.set(node.value[me]!);
      return;
    }
    const players = node.players;
    // A seat with an empty range makes every other seat's value zero here.
    let emptyOpp = -1;
    let empties = 0;
    for (const p of players) {
      const r = node.reach[p]!;
      let any = false;
      for (let c = 0; c < n && !any; c++) if (r[c]! !== 0) any = true;
      if (!any) {
        emptyOpp = p;
        empties++;
      }
    }
    const share = this.foldBuf;
    const mass = this.tmp;
    for (const me of players) {
      if (seat >= 0 && seat !== me) continue;
      const v = out[me]!;
      if (empties > 1 || (empties === 1 && emptyOpp !== me)) {
        v.fill(0);
        continue;
      }
      // Mass of every other seat (folded ones included): the payoff's weight when nothing is won.
      this.othersMass(mass, node, me);
      const inv = node.invested[me]!;
      for (let a = 0; a < n; a++) v[a] = -inv * mass[a]!;
      for (const p of node.pots) {
        if (!p.players.includes(me)) continue;
        this.potShare(node, p.players, me, share);
        // Weight by the seats outside this pot (folded seats and active seats not in a side pot).
        const outside = this.tmp;
        outside.fill(1);
        for (let s = 0; s < node.proj.length; s++) {
          if (s === me || p.players.includes(s)) continue;
          const pj = node.proj[s]!;
          for (let a = 0; a < n; a++) outside[a]! *= pj[a]!;
        }
        for (let a = 0; a < n; a++) v[a]! += p.amount * share[a]! * outside[a]!;
      }
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

  private weights(t: number): { pos: number; neg: number; avg: number } {
    const { alpha, beta, gamma } = this.params;
    const discount = (e: number) =>
      t === 1 || e === Number.POSITIVE_INFINITY
        ? 1
        : e === Number.NEGATIVE_INFINITY
          ? 0
          : (t - 1) ** e / ((t - 1) ** e + 1);
    return { pos: discount(alpha), neg: discount(beta), avg: ((t - 1) / t) ** gamma };
  }

  /**
   * One DCFR iteration. Simultaneous: every seat's regrets are updated. Alternating: seat (t-1) mod N is
   * updated; since only the previously updated seat's strategy changed, only its reaches are re-projected
   * and only the updating seat's values are computed, which makes an alternating iteration several times
   * cheaper than a full one.
   */
  iterate(): void {
    this.iterateDown();
    this.iterateUp();
  }

  /** No threads to release. */
  close(): void {}

  /*
   * The operations in steps, for the parallel solver (parallel.ts). A "down" step works top-down (parents
   * before children: strategies and reaches), an "up" step bottom-up (values). Running an operation's steps
   * over the part above a cut and over the subtrees below it, down steps from the top and up steps from the
   * bottom, does exactly the serial operation's arithmetic, node by node.
   */

  /** @internal First half of `iterate`: strategies and reaches. */
  iterateDown(): void {
    const t = ++this.iterations;
    const seats = this.game.seats.length;
    if (!this.params.alternate) {
      if (this.params.predictive) {
        for (const d of this.decisions) {
          const sum = this.scratch(d.regrets.length);
          const pred = d.pred!;
          for (let i = 0; i < sum.length; i++) sum[i] = d.regrets[i]! + pred[i]!;
          this.fillStrategy(d, sum, d.strategy);
        }
      } else for (const d of this.decisions) this.fillStrategy(d, d.regrets, d.strategy);
      // Pre-order: a node's reach is final before its tremble looks at it.
      this.pushReaches((d) => this.tremble(d, d.strategy, d.played));
      return;
    }
    // After `evaluate` the reach buffers hold average-strategy reaches: recompute every seat's.
    const changed = t === 1 || this.reachesStale ? -1 : (t - 2) % seats;
    this.reachesStale = false;
    for (const d of this.decisions) {
      if (changed >= 0 && d.actor !== changed) continue;
      this.fillStrategy(d, d.regrets, d.strategy);
    }
    this.pushReaches((d) => this.tremble(d, d.strategy, d.played), changed);
  }

  /** @internal Second half of `iterate`: values and regret updates. */
  iterateUp(): void {
    const t = this.iterations;
    const weights = this.weights(t);
    if (!this.params.alternate) {
      for (const node of this.postorder) this.updateNode(node, -1, weights);
      return;
    }
    const seat = (t - 1) % this.game.seats.length;
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
      for (let c = 0; c < n; c++) vp[c]! += node.played[i * n + c]! * cv[c]!;
    }
    const reach = node.reach[p]!;
    const pred = node.pred;
    for (let i = 0; i < nA; i++) {
      const cv = this.childValue(node, i, "value", foldBuf);
      const off = i * n;
      if (pred) {
        for (let c = 0; c < n; c++) {
          const inst = cv[c]! - vp[c]!;
          const r = node.regrets[off + c]! + inst;
          node.regrets[off + c] = Math.max(r, 0);
          pred[off + c] = inst;
          node.stratSum[off + c] = node.stratSum[off + c]! * w.avg + reach[c]! * node.strategy[off + c]!;
        }
        continue;
      }
      for (let c = 0; c < n; c++) {
        const r = node.regrets[off + c]!;
        node.regrets[off + c] = (r > 0 ? r * w.pos : r * w.neg) + cv[c]! - vp[c]!;
        node.stratSum[off + c] = node.stratSum[off + c]! * w.avg + reach[c]! * node.strategy[off + c]!;
      }
    }
  }

  saveAverages(): void {
    let total = 0;
    for (const d of this.decisions) total += d.stratSum.length;
    if (!this.savedSums || this.savedSums.length !== total) this.savedSums = new Float64Array(total);
    let off = 0;
    for (const d of this.decisions) {
      this.savedSums.set(d.stratSum, off);
      off += d.stratSum.length;
    }
  }

  restoreAverages(): void {
    const saved = this.savedSums;
    if (!saved) throw new Error("restoreAverages: no averages were saved");
    let off = 0;
    for (const d of this.decisions) {
      d.stratSum.set(saved.subarray(off, off + d.stratSum.length));
      off += d.stratSum.length;
    }
    this.published = null;
  }

  /**
   * Makes given strategies the averages (and the published ones), so `evaluate` measures a profile made
   * elsewhere in this game: for example a coarser abstraction's strategy carried over to this game's
   * classes. `strategyOf(node)` gives a decision's frequencies, action-major (`s[a * classCount + c]`).
   */
  setStrategies(strategyOf: (node: DecisionNode) => ArrayLike<number>): void {
    for (const d of this.decisions) {
      const s = strategyOf(d.src);
      if (s.length !== d.stratSum.length)
        throw new Error(
          `setStrategies: ${s.length} frequencies for a decision of ${d.children.length} actions x ${this.n} classes`,
        );
      d.stratSum.set(s);
    }
    this.published = null;
    this.evalStrat = null;
  }

  /** The average strategy of a decision (frequency of each action per class). */
  averageStrategy(d: CDecision): Float64Array {
    const out = new Float64Array(d.stratSum.length);
    this.fillStrategy(d, d.stratSum, out);
    return out;
  }

  /** The strategy that is published: purified after `finalize`, the average before. */
  private publishedStrategy(d: CDecision): Float64Array {
    return this.published?.get(d) ?? this.averageStrategy(d);
  }

  /** Sets frequencies below `PURIFY_BELOW` to zero and renormalizes (a class keeps at least one action). */
  private purify(d: CDecision, s: Float64Array): Float64Array {
    const n = this.n;
    const nA = d.children.length;
    for (let c = 0; c < n; c++) {
      let sum = 0;
      for (let a = 0; a < nA; a++) {
        const f = s[a * n + c]!;
        if (f < PURIFY_BELOW) s[a * n + c] = 0;
        else sum += f;
      }
      if (sum > 0) for (let a = 0; a < nA; a++) s[a * n + c]! /= sum;
    }
    return s;
  }

  /**
   * Fixes the published strategies: the averages with frequencies below `PURIFY_BELOW` zeroed; then, at
   * every decision, a class that its own published play never brings there (own reach 0) takes its best
   * action (highest EV, bottom-up so deeper choices are already fixed), and so does every class at a
   * decision that two other seats' published play never takes (no one seat's deviation reaches it). Such a
   * class's average there is left over from early iterations and means nothing; changing it moves no seat's
   * value, since the class, or the line, is never played, and no seat's best response, since no single
   * deviation gets there. (Every class at every decision nobody reaches was tried: fewer misplays, but nl/v2
   * 150bb's worst seat went from 0.325% to 0.698% of the pot, a deviating seat exploiting answers to its
   * trembled range; BENCHMARKS.md, "Unreached lines". Dropping actions that merely lose a little EV was tried
   * and rejected too: at 0.05 to 3bb thresholds it removed balancing bluffs and raised exploitability up to
   * tenfold.)
   */
  finalize(): void {
    this.finalizeReaches();
    this.finalizeTrembledReaches();
    this.finalizeValues();
  }

  /** @internal `finalize`, step 1 (down): purify, push the published reaches, note own-unreached classes. */
  finalizeReaches(): void {
    const n = this.n;
    const published = new Map<CDecision, Float64Array>();
    for (const d of this.decisions) published.set(d, this.purify(d, this.averageStrategy(d)));
    this.published = published;
    this.pushReaches((d) => published.get(d)!);
    const ownZero = new Map<CDecision, number[]>();
    for (const d of this.decisions) {
      const r = d.reach[d.actor]!;
      const zero: number[] = [];
      // Two other seats' published play never takes this line, so no one seat's deviation reaches it: the
      // actor's play here moves no seat's value or best response, and every class takes its best action.
      let absent = 0;
      for (let q = 0; q < d.reach.length; q++)
        if (q !== d.actor && d.reach[q]!.every((x) => x === 0)) absent++;
      for (let c = 0; c < n; c++) if (absent >= 2 || r[c] === 0) zero.push(c);
      if (zero.length > 0) ownZero.set(d, zero);
    }
    this.ownZero = ownZero;
  }

  /** @internal `finalize`, step 2 (down): reaches of the trembled published strategies. */
  finalizeTrembledReaches(): void {
    const published = this.published!;
    // Values with the trembled published strategies, so lines nobody takes still have others' mass.
    this.pushReaches((d) => this.tremble(d, published.get(d)!, d.played));
  }

  /** @internal `finalize`, step 3 (up): best actions of own-unreached classes, values. */
  finalizeValues(): void {
    const n = this.n;
    const published = this.published!;
    const ownZero = this.ownZero!;
    this.ownZero = null;
    const foldBuf = new Float64Array(n);
    for (const node of this.postorder) {
      if (node.kind !== "decision") {
        this.terminalValues(node, "value");
        continue;
      }
      const p = node.actor;
      const s = published.get(node)!;
      const nA = node.children.length;
      if (node.foldIndex >= 0) this.foldValue(node, foldBuf);
      for (const c of ownZero.get(node) ?? []) {
        let best = -1;
        let bestValue = Number.NEGATIVE_INFINITY;
        let any = false;
        // Values are weighted by the others' (trembled) reach mass, which on a line nobody takes can be
        // 1e-13 or less: ties are judged relative to the values' own size, never by an absolute margin.
        let scale = 0;
        for (let i = 0; i < nA; i++)
          scale = Math.max(scale, Math.abs(this.childValue(node, i, "value", foldBuf)[c]!));
        for (let i = 0; i < nA; i++) {
          const v = this.childValue(node, i, "value", foldBuf)[c]!;
          if (v !== 0) any = true;
          if (v > bestValue + 1e-9 * scale) {
            bestValue = v;
            best = i;
          }
        }
        // No mass from the others (card removal): nothing to choose by; keep the average.
        if (!any || best < 0) continue;
        for (let i = 0; i < nA; i++) s[i * n + c] = i === best ? 1 : 0;
      }
      const vp = node.value[p]!;
      vp.fill(0);
      for (let i = 0; i < nA; i++) {
        const cv = this.childValue(node, i, "value", foldBuf);
        for (let c = 0; c < n; c++) vp[c]! += s[i * n + c]! * cv[c]!;
      }
      for (const q of node.active) {
        if (q === p) continue;
        const vq = node.value[q]!;
        vq.fill(0);
        for (const child of node.children) {
          const cv = child.value[q]!;
          for (let c = 0; c < n; c++) vq[c]! += cv[c]!;
        }
      }
    }
    this.reachesStale = true;
  }

  /**
   * Evaluates the published strategies (the averages, or the purified ones after `finalize`): each seat's
   * value, its best-response value (so its exploitability), and the EV of every action for every class at
   * every decision (bb, relative to folding). Where the others' reach mass is zero for a class (a line the
   * strategies never take, or card removal), its EV is taken against the trembled strategies the line was
   * solved with; without a tremble it is NaN (unscored).
   */
  evaluate(): SeatResult[] {
    if (this.trembles) {
      this.evaluateTrembledReaches();
      this.evaluateTrembledValues();
    }
    this.evaluateReaches();
    this.evaluateValues();
    return this.seatResults();
  }

  /** @internal Whether `evaluate` runs the trembled passes (steps 1 and 2). */
  get trembles(): boolean {
    return (this.params.tremble ?? 0) > 0;
  }

  private evaluationStrategies(): Map<CDecision, Float64Array> {
    if (!this.evalStrat) {
      const strat = new Map<CDecision, Float64Array>();
      for (const d of this.decisions) strat.set(d, this.publishedStrategy(d));
      this.evalStrat = strat;
    }
    return this.evalStrat;
  }

  /** @internal `evaluate` with a tremble, step 1 (down): reaches of the trembled published strategies. */
  evaluateTrembledReaches(): void {
    const strat = this.evaluationStrategies();
    const trembled = new Map<CDecision, Float64Array>();
    this.pushReaches((d) => {
      const t = this.tremble(d, strat.get(d)!, new Float64Array(d.played.length));
      trembled.set(d, t);
      return t;
    });
    this.evalTrembled = trembled;
  }

  /** @internal `evaluate` with a tremble, step 2 (up): values and EVs against the trembled strategies. */
  evaluateTrembledValues(): void {
    this.valuesPass(this.evalTrembled!, true, true);
    this.evalTrembled = null;
  }

  /** @internal `evaluate`, step 3 (down): reaches of the published strategies. */
  evaluateReaches(): void {
    const strat = this.evaluationStrategies();
    this.pushReaches((d) => strat.get(d)!);
    this.reachesStale = true;
  }

  /** @internal `evaluate`, step 4 (up): values, best responses and EVs of the published strategies. */
  evaluateValues(): void {
    this.valuesPass(this.evaluationStrategies(), false, !this.trembles);
    this.evalStrat = null;
  }

  /** @internal Each seat's value and best response at the root (after `evaluateValues`). */
  seatResults(): SeatResult[] {
    const root = this.root;
    if (!root) throw new Error("this solver instance holds no root");
    const total = this.game.combos.reduce((x, y) => x + y, 0);
    const n = this.n;
    return this.game.seats.map((seat, i) => {
      let value = 0;
      let bestResponse = 0;
      for (let c = 0; c < n; c++) {
        const w = this.game.combos[c]! / total;
        value += w * root.value[i]![c]!;
        bestResponse += w * root.br[i]![c]!;
      }
      return { seat, value, bestResponse, exploitability: Math.max(0, bestResponse - value) };
    });
  }

  /**
   * Values (and, unless `trembledPass`, best responses) bottom-up. EVs: the trembled pass writes them for
   * every class; the true pass overwrites them wherever the others' reach mass is positive.
   */
  private valuesPass(strat: Map<CDecision, Float64Array>, trembledPass: boolean, resetEvs: boolean): void {
    const n = this.n;
    const foldBuf = new Float64Array(n);
    const mass = new Float64Array(n);
    for (const node of this.postorder) {
      if (node.kind !== "decision") {
        this.terminalValues(node, "value");
        if (!trembledPass) this.terminalValues(node, "br");
        continue;
      }
      const p = node.actor;
      const s = strat.get(node)!;
      const nA = node.children.length;
      if (node.foldIndex >= 0) this.foldValue(node, foldBuf);
      const vp = node.value[p]!;
      const bp = node.br[p]!;
      vp.fill(0);
      if (!trembledPass) bp.fill(Number.NEGATIVE_INFINITY);
      for (let i = 0; i < nA; i++) {
        const cv = this.childValue(node, i, "value", foldBuf);
        const cb = i === node.foldIndex ? foldBuf : node.children[i]!.br[p]!;
        for (let c = 0; c < n; c++) {
          vp[c]! += s[i * n + c]! * cv[c]!;
          if (!trembledPass && cb[c]! > bp[c]!) bp[c] = cb[c]!;
        }
      }
      for (const q of node.active) {
        if (q === p) continue;
        const vq = node.value[q]!;
        const bq = node.br[q]!;
        vq.fill(0);
        if (!trembledPass) bq.fill(0);
        for (const child of node.children) {
          const cv = child.value[q]!;
          const cb = child.br[q]!;
          for (let c = 0; c < n; c++) {
            vq[c]! += cv[c]!;
            if (!trembledPass) bq[c]! += cb[c]!;
          }
        }
      }
      // EV of an action = its value divided by the others' reach mass, plus the chips a fold would lose.
      this.othersMass(mass, node, p);
      if (resetEvs || !node.evs) node.evs = new Float64Array(nA * n).fill(Number.NaN);
      const evs = node.evs;
      const inv = node.invested[p]!;
      for (let i = 0; i < nA; i++) {
        const cv = this.childValue(node, i, "value", foldBuf);
        for (let c = 0; c < n; c++) {
          if (mass[c]! > 1e-300) evs[i * n + c] = i === node.foldIndex ? 0 : cv[c]! / mass[c]! + inv;
        }
      }
    }
  }

  /**
   * Every decision with its published strategy, EVs (after `evaluate`) and reach, in tree pre-order. Reach is
   * the product over seats of the chance that the seat's hand follows the line, each hand drawn from the
   * prior independently (card removal between seats ignored), as the store computes it from a pack.
   */
  decisionResults(): DecisionResult[] {
    const byNode = new Map<DecisionNode, { strategy: Float64Array; evs: Float64Array | null }>();
    for (const d of this.decisions) byNode.set(d.src, { strategy: this.publishedStrategy(d), evs: d.evs });
    return walkDecisionResults(this.game, (node) => byNode.get(node)!);
  }

  /** @internal Published strategies and EVs of this instance's decisions, in its order, packed (copies). */
  packResults(): PackedResults {
    const count = this.decisions.length;
    const offsets = new Int32Array(count + 1);
    for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + this.decisions[i]!.strategy.length;
    const strategies = new Float64Array(offsets[count]!);
    const evs = new Float64Array(offsets[count]!);
    const hasEvs = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const d = this.decisions[i]!;
      strategies.set(this.publishedStrategy(d), offsets[i]!);
      if (d.evs) {
        evs.set(d.evs, offsets[i]!);
        hasEvs[i] = 1;
      }
    }
    return { offsets, strategies, evs, hasEvs };
  }
}

/**
 * Every decision of the game with its published strategy and EVs (from `lookup`) and its reach, in tree
 * pre-order. Reach is the product over seats of the chance that the seat's hand follows the line, each hand
 * drawn from the prior independently (card removal between seats ignored), as the store computes it.
 */
export function walkDecisionResults(
  game: EngineGame,
  lookup: (node: DecisionNode) => { strategy: Float64Array; evs: Float64Array | null },
): DecisionResult[] {
  const n = game.classCount;
  const total = game.combos.reduce((x, y) => x + y, 0);
  const prior = Float64Array.from(game.combos, (c) => c / total);
  /** Mass of a reach vector: the chance (over the prior) that the seat's hand is in it. */
  const mass = (r: Float64Array) => {
    let m = 0;
    for (let c = 0; c < n; c++) m += prior[c]! * r[c]!;
    return m;
  };
  const seats = game.seats.length;
  const out: DecisionResult[] = [];
  const walk = (node: TreeNode, masses: number[], ranges: Float64Array[]) => {
    if (node.type !== "decision") return;
    const { strategy: s, evs } = lookup(node);
    out.push({ node, strategy: s, evs, reach: masses.reduce((x, y) => x * y, 1) });
    const p = node.actor;
    node.children.forEach((child, a) => {
      const r = new Float64Array(n);
      for (let c = 0; c < n; c++) r[c] = ranges[p]![c]! * s[a * n + c]!;
      const m = [...masses];
      m[p] = mass(r);
      const rs = [...ranges];
      rs[p] = r;
      walk(child, m, rs);
    });
  };
  const ones = new Float64Array(n).fill(1);
  walk(
    game.root,
    Array.from({ length: seats }, () => 1),
    Array.from({ length: seats }, () => ones),
  );
  return out;
}

function transpose(m: Float64Array, n: number): Float64Array {
  const t = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) t[b * n + a] = m[a * n + b]!;
  return t;
}
