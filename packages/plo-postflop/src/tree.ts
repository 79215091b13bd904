/**
 * The pot-limit betting tree of a flop, turn or river spot (no cards: every street below a chance node is
 * one template subtree, played under every card that chance node deals).
 *
 * Money: `pot` is what is in the middle when the spot starts (dead money for this subgame), `stack` the
 * effective stack behind. A node's `contrib` is what each player has put in since the spot started.
 *
 * Sizes (pot-limit), the same on every street:
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
 *
 * Streets: a river spot is one street ending in showdowns. A turn spot's street ends, where both players
 * still have chips behind, in a chance node (the river card) above the river's template; a flop spot's in a
 * chance node (the turn card) above the turn's template, whose street ends in a chance node (the river)
 * above the river's. Where a street ends with a player all-in, the remaining cards are dealt by chance nodes
 * straight to the showdown (a flop all-in: chance, chance, showdown).
 *
 * e.g. a flop spot, pot 10, stack 20, bets [1], raises [], raiseCap 0 (pot bets only): OOP `check` (then
 * IP `check` -> chance (turn), or `bet 10` -> OOP `fold` / `call` -> chance (turn)) or `bet 10` (IP `fold` /
 * `call` -> chance (turn) with 10 in each, pot 30). On that turn the pot bet (30) is capped at the 10 behind,
 * `allin 10`, and its call goes to chance (river) -> showdown; turn `check`, `check` goes to chance (river)
 * -> the river's decisions (street 2). With stack 0 the tree is OOP `check`, IP `check`, chance, chance,
 * showdown.
 */

/**
 * A decision: `player` 0 = OOP, 1 = IP; `id` numbers decisions in depth-first order; `street` counts the
 * spot's streets from 0 (its first street): on a flop spot 0 = flop, 1 = turn, 2 = river; on a turn spot 0 =
 * turn, 1 = river.
 */
export interface DecisionNode {
  readonly kind: "decision";
  readonly id: number;
  readonly player: 0 | 1;
  readonly street: 0 | 1 | 2;
  readonly actions: string[];
  readonly children: PloNode[];
  readonly contrib: readonly [number, number];
}

/**
 * A card dealt by chance: one template subtree (`child`) for every card. `street` is the street the card
 * starts (1: the spot's second street, 2: its third, the river below a flop spot's turn).
 */
export interface ChanceNode {
  readonly kind: "chance";
  readonly street: 1 | 2;
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

/** The betting options of a spot (used on every street). */
export interface PloBetting {
  /** Bet fractions of the pot, each in (0, 1]. */
  readonly bets: readonly number[];
  /** Raise fractions of the pot-sized raise, each in (0, 1]; empty for no raises. */
  readonly raises: readonly number[];
  /** Raises allowed per street after the bet. */
  readonly raiseCap: number;
}

/** The streets a spot plays: 3 on a flop (3 board cards), 2 on a turn, 1 on a river. */
export type PloStreets = 1 | 2 | 3;

export interface PloTree {
  readonly root: PloNode;
  /** Every decision by id. */
  readonly decisions: DecisionNode[];
  readonly streets: PloStreets;
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

/**
 * Builds the tree of a spot. `streets`: 3 for a flop spot, 2 for a turn spot, 1 for a river spot; `true` and
 * `false` are accepted for a turn and a river spot (the earlier signature).
 */
export function buildPloTree(
  pot: number,
  stack: number,
  betting: PloBetting,
  streets: PloStreets | boolean,
): PloTree {
  const last = (streets === true ? 2 : streets === false ? 1 : streets) - 1;
  if (last !== 0 && last !== 1 && last !== 2) throw new RangeError(`streets ${streets} must be 1, 2 or 3`);
  if (!(pot > 0) || !Number.isFinite(pot)) throw new RangeError(`pot ${pot} must be a positive number`);
  if (!(stack >= 0) || !Number.isFinite(stack)) throw new RangeError(`stack ${stack} must be a number >= 0`);
  checkFractions("bets", betting.bets);
  checkFractions("raises", betting.raises);
  if (!Number.isInteger(betting.raiseCap) || betting.raiseCap < 0) {
    throw new RangeError(`raiseCap ${betting.raiseCap} must be an integer >= 0`);
  }
  const decisions: DecisionNode[] = [];

  // Below an all-in: the remaining cards straight to the showdown.
  const runOut = (contrib: [number, number], street: number): PloNode =>
    street > last
      ? { kind: "showdown", contrib }
      : { kind: "chance", street: street as 1 | 2, child: runOut(contrib, street + 1), contrib };

  const endStreet = (contrib: [number, number], street: 0 | 1 | 2): PloNode => {
    if (street === last) return { kind: "showdown", contrib };
    const next = (street + 1) as 1 | 2;
    if (contrib[0] >= stack || contrib[1] >= stack) return runOut(contrib, next);
    return { kind: "chance", street: next, child: node(contrib, next, 0, 0, false), contrib };
  };

  // A decision on a street: `toAct` faces the difference of the contributions; `raises` made so far.
  const node = (
    contrib: [number, number],
    street: 0 | 1 | 2,
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

  const root = node([0, 0], 0, 0, 0, false);
  return { root, decisions, streets: (last + 1) as PloStreets };
}
