/**
 * The pot-limit betting tree of a turn or river spot (no cards: a river below a turn is one template).
 *
 * Money: `pot` is what is in the middle when the spot starts (dead money for this subgame), `stack` the
 * effective stack behind. A node's `contrib` is what each player has put in since the spot started.
 *
 * Sizes (pot-limit):
 * - a bet of fraction f puts in f x pot (the pot in the middle at that moment), f in (0, 1];
 * - a raise of fraction f first calls, then raises by f x (the pot after the call): f = 1 is the pot-sized
 *   raise, the largest pot limit allows;
 * - a size that reaches the stack is all-in (sizes that land on the same amount are merged);
 * - `raiseCap` raises per street after the bet (0: no raises).
 *
 * Labels: `check`, `call`, `fold`, `bet X`, `raise X`, `allin X` with X the chips the action puts in,
 * rounded to 2 decimals. OOP acts first on each street.
 *
 * e.g. pot 10, stack 100, bets [0.5, 1], raises [1]: OOP `bet 5` or `bet 10`; facing `bet 10` (pot 20),
 * IP's pot raise calls 10 (pot 30) and raises 30: `raise 40`.
 */

/** A decision: `player` 0 = OOP, 1 = IP; `id` numbers decisions in depth-first order; `street` 0 = the spot's first street, 1 = the river below a turn. */
export interface DecisionNode {
  readonly kind: "decision";
  readonly id: number;
  readonly player: 0 | 1;
  readonly street: 0 | 1;
  readonly actions: string[];
  readonly children: PloNode[];
  readonly contrib: readonly [number, number];
}

/** The river card dealt below a turn: one template subtree for every card. */
export interface ChanceNode {
  readonly kind: "chance";
  readonly child: PloNode;
  readonly contrib: readonly [number, number];
}

export interface FoldNode {
  readonly kind: "fold";
  readonly folder: 0 | 1;
  readonly contrib: readonly [number, number];
}

export interface ShowdownNode {
  readonly kind: "showdown";
  readonly contrib: readonly [number, number];
}

export type PloNode = DecisionNode | ChanceNode | FoldNode | ShowdownNode;

/** The betting options of a spot. */
export interface PloBetting {
  /** Bet fractions of the pot, each in (0, 1]. */
  readonly bets: readonly number[];
  /** Raise fractions of the pot-sized raise, each in (0, 1]; empty for no raises. */
  readonly raises: readonly number[];
  /** Raises allowed per street after the bet. */
  readonly raiseCap: number;
}

export interface PloTree {
  readonly root: PloNode;
  /** Every decision by id. */
  readonly decisions: DecisionNode[];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function checkFractions(name: string, list: readonly number[]): void {
  for (const f of list) {
    if (!Number.isFinite(f) || f <= 0 || f > 1) {
      throw new RangeError(
        `${name}: ${f} is not a fraction of the pot in (0, 1] (pot limit: 1 is a pot-sized ${name === "bets" ? "bet" : "raise"})`,
      );
    }
  }
}

/** Builds the tree of a spot: `turn` true for a turn spot (a river street below a chance node), false for a river spot. */
export function buildPloTree(pot: number, stack: number, betting: PloBetting, turn: boolean): PloTree {
  if (!(pot > 0) || !Number.isFinite(pot)) throw new RangeError(`pot ${pot} must be a positive number`);
  if (!(stack >= 0) || !Number.isFinite(stack)) throw new RangeError(`stack ${stack} must be a number >= 0`);
  checkFractions("bets", betting.bets);
  checkFractions("raises", betting.raises);
  if (!Number.isInteger(betting.raiseCap) || betting.raiseCap < 0) {
    throw new RangeError(`raiseCap ${betting.raiseCap} must be an integer >= 0`);
  }
  const decisions: DecisionNode[] = [];

  const endStreet = (contrib: [number, number], street: 0 | 1): PloNode => {
    if (turn && street === 0) {
      const allIn = contrib[0] >= stack || contrib[1] >= stack;
      const child = allIn ? ({ kind: "showdown", contrib } as const) : street1(contrib);
      return { kind: "chance", child, contrib };
    }
    return { kind: "showdown", contrib };
  };

  // A decision on a street: `toAct` faces the difference of the contributions; `raises` made so far.
  const node = (
    contrib: [number, number],
    street: 0 | 1,
    toAct: 0 | 1,
    raises: number,
    betMade: boolean,
  ): PloNode => {
    const other = (1 - toAct) as 0 | 1;
    const toCall = contrib[other] - contrib[toAct];
    const left = stack - contrib[toAct];
    const potNow = pot + contrib[0] + contrib[1];
    const actions: string[] = [];
    const children: PloNode[] = [];
    const d: DecisionNode = {
      kind: "decision",
      id: decisions.length,
      player: toAct,
      street,
      actions,
      children,
      contrib,
    };
    decisions.push(d);
    const push = (label: string, child: PloNode) => {
      actions.push(label);
      children.push(child);
    };
    if (toCall <= 0) {
      push("check", toAct === 0 ? node(contrib, street, 1, raises, false) : endStreet(contrib, street));
      if (left > 0) {
        const amounts = new Set<number>();
        for (const f of betting.bets) amounts.add(Math.min(round2(f * potNow), left));
        for (const a of [...amounts].sort((x, y) => x - y)) {
          if (a <= 0) continue;
          const next: [number, number] = [...contrib];
          next[toAct] += a;
          push(`${a >= left ? "allin" : "bet"} ${a}`, node(next, street, other, 0, true));
        }
      }
    } else {
      push("fold", { kind: "fold", folder: toAct, contrib });
      const called: [number, number] = [...contrib];
      called[toAct] += Math.min(toCall, left);
      push("call", endStreet(called, street));
      const otherLeft = stack - contrib[other];
      if (betMade && raises < betting.raiseCap && left > toCall && otherLeft > 0) {
        const potAfterCall = potNow + toCall;
        const amounts = new Set<number>();
        for (const f of betting.raises) amounts.add(Math.min(round2(toCall + f * potAfterCall), left));
        for (const a of [...amounts].sort((x, y) => x - y)) {
          const next: [number, number] = [...contrib];
          next[toAct] += a;
          push(`${a >= left ? "allin" : "raise"} ${a}`, node(next, street, other, raises + 1, true));
        }
      }
    }
    return d;
  };

  const street1 = (contrib: [number, number]) => node(contrib, 1, 0, 0, false);
  const root = node([0, 0], 0, 0, 0, false);
  return { root, decisions };
}
