/**
 * A toy heads-up hold'em small enough to solve whole (issue "Preflop model v4", item 7): the oracle that the
 * grounded method (preflop solved with terminal values from postflop solves, iterated) is measured against.
 *
 * - A deck of `ranks` ranks with `copies` cards each. Each player is dealt one card (its class is the rank); a
 *   flop of one card follows. At showdown a card paired with the board beats an unpaired one, then the
 *   higher rank wins; equal hands split.
 * - Seat 0 is the small blind (posts `sb`), seat 1 the big blind (posts 1); stacks `stack` bb. Preflop: the SB
 *   folds, limps or raises to `open`; the BB checks or raises to `open` after a limp (the SB then folds or
 *   calls), and folds, calls or jams after a raise (the SB then folds or calls). An all-in deals the flop and
 *   goes to showdown.
 * - A pot that sees the flop with chips behind is played out in one betting round: the BB acts first; a bet
 *   is `betPot` of the pot (or what is left), a raise is all-in; the bettor's opponent folds, calls or raises.
 *
 * The game is held as its public tree: a decision node holds one strategy per class of its actor, a chance
 * node deals the flop. Values are in bb summed over every physical deal (two hole cards and the flop, card
 * removal included), so they are divided by `dealCount` to be per hand.
 *
 * ```ts
 * const game = toyGame({ ranks: 5, copies: 2, stack: 10, sb: 0.5, open: 3, betPot: 1 });
 * const sol = solveToy(game.root, game, { iterations: 2000 });
 * exploitability(game.root, game, sol.average);   // bb per hand, both seats summed
 * ```
 */

export interface ToyParams {
  readonly ranks: number;
  readonly copies: number;
  readonly stack: number;
  readonly sb: number;
  /** The preflop raise (total bb). */
  readonly open: number;
  /** The flop bet as a fraction of the pot. */
  readonly betPot: number;
}

export type ToyNode = ToyDecision | ToyChance | ToyFold | ToyShowdown | ToyFlop;

export interface ToyDecision {
  readonly kind: "decision";
  readonly id: number;
  /** The line so far, as `_`-joined action names (the flop as `flop`). */
  readonly history: string;
  readonly actor: 0 | 1;
  readonly actions: readonly string[];
  readonly children: readonly ToyNode[];
}

/** Deals the flop card (one child per rank); `board` is set below it. */
export interface ToyChance {
  readonly kind: "chance";
  readonly children: readonly ToyNode[];
}

export interface ToyFold {
  readonly kind: "fold";
  readonly winner: 0 | 1;
  readonly invested: readonly [number, number];
}

export interface ToyShowdown {
  readonly kind: "showdown";
  readonly board: number;
  readonly invested: readonly [number, number];
}

/**
 * A pot that sees the flop with chips behind: in the whole game its `flop` subtree (a chance node) is played;
 * in the grounded preflop game it is a terminal whose values come from a matrix per seat (see `FlopValues`).
 */
export interface ToyFlop {
  readonly kind: "flop";
  readonly id: number;
  readonly history: string;
  readonly invested: readonly [number, number];
  readonly flop: ToyChance;
}

export interface ToyGame {
  readonly params: ToyParams;
  readonly root: ToyNode;
  readonly decisions: readonly ToyDecision[];
  readonly flops: readonly ToyFlop[];
  /** Number of physical deals (hole cards of both seats and the flop). */
  readonly dealCount: number;
  /** w2[a * R + b]: deals with classes a and b, over every flop card. */
  readonly w2: Float64Array;
  /** w3[(a * R + b) * R + c]: deals with classes a, b and flop rank c. */
  readonly w3: Float64Array;
}

/** Builds the toy game. */
export function toyGame(params: ToyParams): ToyGame {
  const { ranks: R, copies: C, stack, sb, open, betPot } = params;
  if (R < 2 || C < 1 || R * C < 3)
    throw new Error("toyGame: the deck needs at least three cards and two ranks");
  if (!(open > 1 && open < stack))
    throw new Error("toyGame: the raise must lie between the big blind and the stack");
  const w3 = new Float64Array(R * R * R);
  const w2 = new Float64Array(R * R);
  for (let a = 0; a < R; a++)
    for (let b = 0; b < R; b++)
      for (let c = 0; c < R; c++) {
        const n = C * (C - (a === b ? 1 : 0)) * (C - (a === c ? 1 : 0) - (b === c ? 1 : 0));
        w3[(a * R + b) * R + c] = Math.max(0, n);
        w2[a * R + b]! += Math.max(0, n);
      }
  const dealCount = w2.reduce((x, y) => x + y, 0);
  const decisions: ToyDecision[] = [];
  const flops: ToyFlop[] = [];
  const decision = (history: string, actor: 0 | 1, branches: [string, () => ToyNode][]): ToyDecision => {
    const d = {
      kind: "decision" as const,
      id: decisions.length,
      history,
      actor,
      actions: branches.map(([name]) => name),
      children: [] as ToyNode[],
    };
    decisions.push(d);
    d.children = branches.map(([, make]) => make());
    return d;
  };
  const line = (history: string, action: string) => (history ? `${history}_${action}` : action);
  const allIn = (): ToyChance => ({
    kind: "chance",
    children: Array.from({ length: R }, (_, c) => ({ kind: "showdown", board: c, invested: [stack, stack] })),
  });
  /** The flop betting round, `inv` each in the pot; `toAct` faces `facing` more chips. */
  const flopRound = (
    history: string,
    board: number,
    inv: [number, number],
    actor: 0 | 1,
    bets: number,
  ): ToyNode => {
    const other = (1 - actor) as 0 | 1;
    const pot = inv[0] + inv[1];
    const toCall = inv[other] - inv[actor];
    const showdown = (i: [number, number]): ToyShowdown => ({ kind: "showdown", board, invested: i });
    if (toCall === 0) {
      const bet = Math.min(stack - inv[actor], betPot * pot);
      const checkBack =
        bets === 0 && actor === 1
          ? () => flopRound(line(history, "Check"), board, inv, 0, -1)
          : () => showdown(inv);
      return decision(history, actor, [
        ["Check", checkBack],
        [
          "Bet",
          () => {
            const i: [number, number] = [...inv];
            i[actor] += bet;
            return flopRound(line(history, "Bet"), board, i, other, Math.max(bets, 0) + 1);
          },
        ],
      ]);
    }
    const branches: [string, () => ToyNode][] = [
      ["Fold", () => ({ kind: "fold", winner: other, invested: [...inv] as [number, number] })],
      [
        "Call",
        () => {
          const i: [number, number] = [...inv];
          i[actor] = Math.min(stack, inv[other]);
          return showdown(i);
        },
      ],
    ];
    if (inv[other] < stack && bets < 2)
      branches.push([
        "AllIn",
        () => {
          const i: [number, number] = [...inv];
          i[actor] = stack;
          return flopRound(line(history, "AllIn"), board, i, other, bets + 1);
        },
      ]);
    return decision(history, actor, branches);
  };
  const flopPot = (history: string, x: number): ToyFlop => {
    const id = flops.length;
    const node: ToyFlop = {
      kind: "flop",
      id,
      history,
      invested: [x, x],
      flop: {
        kind: "chance",
        children: Array.from({ length: R }, (_, c) => flopRound(line(history, `flop${c}`), c, [x, x], 1, 0)),
      },
    };
    flops.push(node);
    return node;
  };
  const fold = (winner: 0 | 1, inv: [number, number]): ToyFold => ({ kind: "fold", winner, invested: inv });
  const root = decision("", 0, [
    ["Fold", () => fold(1, [sb, 1])],
    [
      "Limp",
      () =>
        decision("Limp", 1, [
          ["Check", () => flopPot("Limp_Check", 1)],
          [
            "Raise",
            () =>
              decision("Limp_Raise", 0, [
                ["Fold", () => fold(1, [1, open])],
                ["Call", () => flopPot("Limp_Raise_Call", open)],
              ]),
          ],
        ]),
    ],
    [
      "Raise",
      () =>
        decision("Raise", 1, [
          ["Fold", () => fold(0, [open, 1])],
          ["Call", () => flopPot("Raise_Call", open)],
          [
            "AllIn",
            () =>
              decision("Raise_AllIn", 0, [
                ["Fold", () => fold(1, [open, stack])],
                ["Call", allIn],
              ]),
          ],
        ]),
    ],
  ]);
  return { params, root, decisions, flops, dealCount, w2, w3 };
}

/** +1 if class a beats class b on flop rank c, -1 if it loses, 0 on a split. */
export function showdownSign(a: number, b: number, c: number): number {
  const pa = a === c ? 1 : 0;
  const pb = b === c ? 1 : 0;
  if (pa !== pb) return pa > pb ? 1 : -1;
  return a === b ? 0 : a > b ? 1 : -1;
}

/** A strategy per decision id: frequencies action-major (`s[k * R + a]`). */
export type ToyStrategies = Map<number, Float64Array>;

/**
 * The grounded game's flop terminals: for each flop node id and seat, `values[p][a * R + b]` is seat p's
 * expected net result (bb, the chips it put in before the flop counted) with class a against class b.
 */
export type FlopValues = Map<number, [Float64Array, Float64Array]>;

interface Walk {
  readonly game: ToyGame;
  /** Where set, flop nodes are terminals with these values; otherwise their subtree is played. */
  readonly flopValues: FlopValues | null;
}

/**
 * Counterfactual values of seat `p` at `node` (length R, summed over deals), given each seat's reach.
 * `visit(d, cfv, reachOwn)` sees every decision of `p` after its children (for regret updates);
 * `strategyOf(d)` gives the strategy played; with `br`, seat p plays a best response instead.
 */
function values(
  w: Walk,
  node: ToyNode,
  p: 0 | 1,
  reach: [Float64Array, Float64Array],
  board: number,
  strategyOf: (d: ToyDecision) => Float64Array,
  br: boolean,
  visit: ((d: ToyDecision, childValues: Float64Array[], own: Float64Array) => void) | null,
): Float64Array {
  const { game } = w;
  const R = game.params.ranks;
  const q = 1 - p;
  const out = new Float64Array(R);
  const opp = reach[q]!;
  switch (node.kind) {
    case "fold": {
      const sign = node.winner === p ? node.invested[q]! : -node.invested[p]!;
      for (let a = 0; a < R; a++) {
        let s = 0;
        for (let b = 0; b < R; b++) {
          const wt = board < 0 ? game.w2[p === 0 ? a * R + b : b * R + a]! : weight3(game, p, a, b, board);
          s += opp[b]! * wt;
        }
        out[a] = s * sign;
      }
      return out;
    }
    case "showdown": {
      for (let a = 0; a < R; a++) {
        let s = 0;
        for (let b = 0; b < R; b++) {
          const sg = showdownSign(a, b, node.board);
          const win =
            sg > 0
              ? node.invested[q]!
              : sg < 0
                ? -node.invested[p]!
                : (node.invested[q]! - node.invested[p]!) / 2;
          s += opp[b]! * weight3(game, p, a, b, node.board) * win;
        }
        out[a] = s;
      }
      return out;
    }
    case "chance": {
      node.children.forEach((child, c) => {
        const v = values(w, child, p, reach, c, strategyOf, br, visit);
        for (let a = 0; a < R; a++) out[a]! += v[a]!;
      });
      return out;
    }
    case "flop": {
      const fv = w.flopValues?.get(node.id);
      if (!w.flopValues) return values(w, node.flop, p, reach, board, strategyOf, br, visit);
      if (!fv) throw new Error(`no values for the flop pot ${node.history}`);
      const m = fv[p]!;
      for (let a = 0; a < R; a++) {
        let s = 0;
        for (let b = 0; b < R; b++) s += opp[b]! * game.w2[p === 0 ? a * R + b : b * R + a]! * m[a * R + b]!;
        out[a] = s;
      }
      return out;
    }
    case "decision": {
      const s = strategyOf(node);
      const nA = node.actions.length;
      const own = reach[node.actor]!;
      const childValues: Float64Array[] = [];
      for (let k = 0; k < nA; k++) {
        let r = reach;
        if (node.actor !== p || visit) {
          const next = new Float64Array(R);
          for (let a = 0; a < R; a++) next[a] = own[a]! * s[k * R + a]!;
          r = (node.actor === 0 ? [next, reach[1]] : [reach[0], next]) as [Float64Array, Float64Array];
        }
        childValues.push(values(w, node.children[k]!, p, r, board, strategyOf, br, visit));
      }
      if (node.actor === p) {
        if (br) {
          out.fill(Number.NEGATIVE_INFINITY);
          for (const v of childValues) for (let a = 0; a < R; a++) out[a] = Math.max(out[a]!, v[a]!);
        } else {
          for (let k = 0; k < nA; k++)
            for (let a = 0; a < R; a++) out[a]! += s[k * R + a]! * childValues[k]![a]!;
        }
        visit?.(node, childValues, own);
      } else {
        for (const v of childValues) for (let a = 0; a < R; a++) out[a]! += v[a]!;
      }
      return out;
    }
  }
}

/** Deal weight of (seat p holds a, the other b, flop c). */
function weight3(game: ToyGame, p: number, a: number, b: number, c: number): number {
  const R = game.params.ranks;
  return game.w3[(p === 0 ? a * R + b : b * R + a) * R + c]!;
}

export interface ToySolveOptions {
  readonly iterations: number;
  /** Values of flop pots: when set, the tree is the preflop game with these terminals. */
  readonly flopValues?: FlopValues;
  /** Each seat's reach at `root` (every class 1 by default): a subgame solved for given ranges. */
  readonly reach?: [Float64Array, Float64Array];
  /** Go on from an earlier solve's regrets and averages (its `state`) instead of starting afresh. */
  readonly from?: ToySolverState;
}

/** Regrets, average-strategy sums and iterations run: what a solve goes on from. */
export interface ToySolverState {
  readonly regrets: Map<number, Float64Array>;
  readonly sums: Map<number, Float64Array>;
  readonly iterations: number;
}

export interface ToySolution {
  /** The average strategies (linear weights), per decision id below the root solved. */
  readonly average: ToyStrategies;
  /** The strategies regret matching plays next (the last iterate). */
  readonly current: ToyStrategies;
  readonly state: ToySolverState;
}

/**
 * CFR+ (regrets floored at zero, averages weighted by iteration, alternating seats) over the public tree below
 * `root`, the whole game or a subgame with given reaches.
 */
export function solveToy(root: ToyNode, game: ToyGame, options: ToySolveOptions): ToySolution {
  const R = game.params.ranks;
  const w: Walk = { game, flopValues: options.flopValues ?? null };
  const regrets = new Map<number, Float64Array>();
  const sums = new Map<number, Float64Array>();
  for (const [id, r] of options.from?.regrets ?? []) regrets.set(id, Float64Array.from(r));
  for (const [id, r] of options.from?.sums ?? []) sums.set(id, Float64Array.from(r));
  const first = options.from?.iterations ?? 0;
  const byId = new Map(game.decisions.map((d) => [d.id, d]));
  const current = (d: ToyDecision): Float64Array => {
    const nA = d.actions.length;
    let r = regrets.get(d.id);
    if (!r) {
      r = new Float64Array(nA * R);
      regrets.set(d.id, r);
      sums.set(d.id, new Float64Array(nA * R));
    }
    const s = new Float64Array(nA * R);
    for (let a = 0; a < R; a++) {
      let t = 0;
      for (let k = 0; k < nA; k++) t += r[k * R + a]!;
      for (let k = 0; k < nA; k++) s[k * R + a] = t > 0 ? r[k * R + a]! / t : 1 / nA;
    }
    return s;
  };
  const ones = new Float64Array(R).fill(1);
  const start = options.reach ?? [ones, ones];
  for (let t = first + 1; t <= first + options.iterations; t++) {
    for (const p of [0, 1] as const) {
      const strat = new Map<number, Float64Array>();
      const strategyOf = (d: ToyDecision) => {
        let s = strat.get(d.id);
        if (!s) {
          s = current(d);
          strat.set(d.id, s);
        }
        return s;
      };
      values(w, root, p, [start[0], start[1]], -1, strategyOf, false, (d, childValues, own) => {
        const s = strategyOf(d);
        const nA = d.actions.length;
        const r = regrets.get(d.id)!;
        const sum = sums.get(d.id)!;
        for (let a = 0; a < R; a++) {
          let v = 0;
          for (let k = 0; k < nA; k++) v += s[k * R + a]! * childValues[k]![a]!;
          for (let k = 0; k < nA; k++) {
            r[k * R + a] = Math.max(0, r[k * R + a]! + childValues[k]![a]! - v);
            sum[k * R + a]! += t * own[a]! * s[k * R + a]!;
          }
        }
      });
    }
  }
  const average: ToyStrategies = new Map();
  for (const [id, sum] of sums) {
    const nA = sum.length / R;
    const s = new Float64Array(sum.length);
    for (let a = 0; a < R; a++) {
      let t = 0;
      for (let k = 0; k < nA; k++) t += sum[k * R + a]!;
      for (let k = 0; k < nA; k++) s[k * R + a] = t > 0 ? sum[k * R + a]! / t : 1 / nA;
    }
    average.set(id, s);
  }
  const currentStrategies: ToyStrategies = new Map();
  for (const d of regrets.keys()) currentStrategies.set(d, current(byId.get(d)!));
  return {
    average,
    current: currentStrategies,
    state: { regrets, sums, iterations: first + options.iterations },
  };
}

export interface ToyEvaluation {
  /** Each seat's value (bb per hand). */
  readonly value: [number, number];
  /** Each seat's best-response value against the other's strategy (bb per hand). */
  readonly bestResponse: [number, number];
  /** Sum over seats of best response minus value (bb per hand): 0 at an equilibrium. */
  readonly exploitability: number;
}

/** Values and best responses of a profile in the whole game (or, with `flopValues`, the preflop game). */
export function evaluateToy(
  game: ToyGame,
  strategies: ToyStrategies,
  flopValues?: FlopValues,
): ToyEvaluation {
  const R = game.params.ranks;
  const w: Walk = { game, flopValues: flopValues ?? null };
  const strategyOf = (d: ToyDecision) => {
    const s = strategies.get(d.id);
    if (!s) throw new Error(`no strategy for the decision ${d.history || "(root)"}`);
    return s;
  };
  const ones = new Float64Array(R).fill(1);
  const sum = (v: Float64Array) => v.reduce((x, y) => x + y, 0) / game.dealCount;
  const value: [number, number] = [0, 0];
  const bestResponse: [number, number] = [0, 0];
  for (const p of [0, 1] as const) {
    value[p] = sum(values(w, game.root, p, [ones, ones], -1, strategyOf, false, null));
    bestResponse[p] = sum(values(w, game.root, p, [ones, ones], -1, strategyOf, true, null));
  }
  return { value, bestResponse, exploitability: bestResponse[0] - value[0] + bestResponse[1] - value[1] };
}

/**
 * Seat p's expected net result with class a against class b in a flop pot, both playing `strategies` there
 * (bb, the chips put in before the flop counted): the matrix a grounded preflop game takes as that pot's
 * terminal values. NaN-free: every pair of classes that can be dealt gets a value.
 */
export function flopPotValues(
  game: ToyGame,
  flop: ToyFlop,
  strategies: ToyStrategies,
): [Float64Array, Float64Array] {
  const R = game.params.ranks;
  const w: Walk = { game, flopValues: null };
  const strategyOf = (d: ToyDecision) => strategies.get(d.id)!;
  const out: [Float64Array, Float64Array] = [new Float64Array(R * R), new Float64Array(R * R)];
  for (const p of [0, 1] as const) {
    for (let b = 0; b < R; b++) {
      const opp = new Float64Array(R);
      opp[b] = 1;
      const ones = new Float64Array(R).fill(1);
      const reach = (p === 0 ? [ones, opp] : [opp, ones]) as [Float64Array, Float64Array];
      const v = values(w, flop.flop, p, reach, -1, strategyOf, false, null);
      for (let a = 0; a < R; a++) {
        const wt = game.w2[p === 0 ? a * R + b : b * R + a]!;
        out[p][a * R + b] = wt > 0 ? v[a]! / wt : 0;
      }
    }
  }
  return out;
}
