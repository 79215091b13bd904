/**
 * The betting tree of a postflop spot, without cards: every decision, fold, showdown and card deal (chance)
 * from the first street of the spot to the river, with each player's chips in the pot at every node.
 *
 * Rules (the config grammar is documented on `PostflopConfig`):
 * - OOP (player 0) acts first on every street. Not facing a bet a player checks or bets; facing one it folds,
 *   calls or raises. A check behind or a call ends the street: the next card is dealt (a chance node), or on
 *   the river the hands are shown down. A call of an all-in deals the rest of the board without decisions.
 * - Sizes decode against the pot at the decision (every chip already in, the current street included); a size
 *   that reaches the stack is all-in, one below the minimum raise is raised to it, equal amounts are merged.
 * - All-in is added when it is at most `allInThreshold` pots; a size after whose call the stack behind would
 *   be at most `forceAllInThreshold` pots becomes all-in; at most `raiseCap` raises per street.
 * - Without `donkBets`, OOP only checks first on the turn or river after calling a bet or raise of IP on the street
 *   before (on the spot's first street, the config's `previousAggressor` says who bet last before it).
 */

import type { ParsedSize, ResolvedConfig } from "./config.js";

export const DECISION = 0;
export const FOLD = 1;
export const SHOWDOWN = 2;
export const CHANCE = 3;
export type NodeKind = typeof DECISION | typeof FOLD | typeof SHOWDOWN | typeof CHANCE;

export type ActionKind = "check" | "bet" | "call" | "fold" | "raise" | "allin";

export interface ActionInfo {
  readonly kind: ActionKind;
  /** `check`, `call`, `fold`, `bet 4.13`, `raise 10.31` or `allin 97.5` (amounts: the street total, 2 decimals). */
  readonly label: string;
  /** The acting player's total bet on the street after the action. */
  readonly to: number;
  /** Chips the action puts in. */
  readonly add: number;
  /** For bets, raises and all-ins: the chips beyond a call over the pot after the call; else 0. */
  readonly potFraction: number;
}

export interface TreeNode {
  readonly id: number;
  readonly kind: NodeKind;
  /** 0 flop, 1 turn, 2 river. */
  readonly street: number;
  /** Decision: the player to act; fold: the player who folded; else -1. */
  readonly player: number;
  /** Chips each player has put in since the start of the spot (OOP, IP). */
  readonly contrib: readonly [number, number];
  readonly actions: readonly ActionInfo[];
  readonly children: readonly TreeNode[];
  /** Chance nodes: true when both players are all-in (the rest of the board is dealt without decisions). */
  readonly allIn: boolean;
  /** The actions from the root (labels; chance nodes as `deal`). */
  readonly path: readonly string[];
}

interface BuildState {
  street: number;
  /** Pot at the start of the street. */
  potStart: number;
  /** Chips behind each player at the start of the street (equal: effective stacks). */
  behind: number;
  /** Committed before this street (each player). */
  before: number;
  bets: [number, number];
  toAct: number;
  raises: number;
  lastIncrement: number;
  /** The player of the last bet or raise on this street, -1 if none. */
  aggressor: number;
  /** The last aggressor of the previous street, -1 if none. */
  previousAggressor: number;
  /** Actions so far on this street. */
  actionsOnStreet: number;
}

const EPS = 1e-9;
const round2 = (x: number): string => String(Math.round(x * 100) / 100);

export class ActionTree {
  readonly root: TreeNode;
  readonly nodes: readonly TreeNode[];
  readonly startStreet: number;
  readonly pot: number;
  readonly stack: number;

  constructor(config: ResolvedConfig) {
    this.startStreet = config.board.length - 3;
    this.pot = config.pot;
    this.stack = config.stack;
    const nodes: TreeNode[] = [];
    const make = (
      kind: NodeKind,
      street: number,
      player: number,
      contrib: [number, number],
      path: string[],
      allIn = false,
    ): TreeNode & { actions: ActionInfo[]; children: TreeNode[] } => {
      const node = {
        id: nodes.length,
        kind,
        street,
        player,
        contrib,
        actions: [],
        children: [],
        allIn,
        path,
      };
      nodes.push(node);
      return node;
    };

    const streetEnd = (s: BuildState, path: string[]): TreeNode => {
      const c = s.before + s.bets[0];
      const contrib: [number, number] = [c, c];
      const allIn = s.behind - s.bets[0] <= EPS;
      if (s.street === 2) return make(SHOWDOWN, s.street, -1, contrib, path);
      const chance = make(CHANCE, s.street, -1, contrib, path, allIn);
      const nextPath = [...path, "deal"];
      if (allIn) {
        // Deal out the rest of the board: chance nodes down to a river showdown.
        let parent = chance;
        for (let street = s.street + 1; street <= 2; street++) {
          const next =
            street === 2
              ? make(SHOWDOWN, street, -1, contrib, nextPath)
              : make(CHANCE, street, -1, contrib, nextPath, true);
          parent.children.push(next);
          parent = next as typeof chance;
        }
        return chance;
      }
      chance.children.push(
        decide(
          {
            street: s.street + 1,
            potStart: s.potStart + 2 * s.bets[0],
            behind: s.behind - s.bets[0],
            before: c,
            bets: [0, 0],
            toAct: 0,
            raises: 0,
            lastIncrement: 0,
            aggressor: -1,
            previousAggressor: s.aggressor,
            actionsOnStreet: 0,
          },
          nextPath,
        ),
      );
      return chance;
    };

    const decide = (s: BuildState, path: string[]): TreeNode => {
      const p = s.toAct;
      const o = 1 - p;
      const contrib: [number, number] = [s.before + s.bets[0], s.before + s.bets[1]];
      const node = make(DECISION, s.street, p, contrib, path);
      const pot = s.potStart + s.bets[0] + s.bets[1];
      const facing = s.bets[o]! - s.bets[p]!;
      const maxTo = s.behind;
      const sizes = config.sizes[s.street]![p]!;
      const child = (info: ActionInfo, next: () => TreeNode) => {
        node.actions.push(info);
        node.children.push(next());
      };
      const sized = (to: number, kind: "bet" | "raise"): ActionInfo => {
        const allIn = to >= maxTo - EPS;
        const level = allIn ? maxTo : to;
        const add = level - s.bets[p]!;
        const afterCall = pot + facing;
        return {
          kind: allIn ? "allin" : kind,
          label: `${allIn ? "allin" : kind} ${round2(level)}`,
          to: level,
          add,
          potFraction: (level - s.bets[o]!) / afterCall,
        };
      };
      const aggressive = (info: ActionInfo): (() => TreeNode) => {
        return () => {
          const bets: [number, number] = [s.bets[0], s.bets[1]];
          bets[p] = info.to;
          return decide(
            {
              ...s,
              bets,
              toAct: o,
              raises: s.raises + (facing > EPS ? 1 : 0),
              lastIncrement: info.to - s.bets[o]!,
              aggressor: p,
              actionsOnStreet: s.actionsOnStreet + 1,
            },
            [...path, info.label],
          );
        };
      };
      /** Sized amounts (street totals) after the thresholds, sorted and merged. */
      const amounts = (list: readonly ParsedSize[], minTo: number): number[] => {
        const out: number[] = [];
        const afterCall = pot + facing;
        for (const size of list) {
          let to: number;
          if (size.kind === "allin") to = maxTo;
          else if (size.kind === "pot") to = s.bets[o]! + size.fraction * afterCall;
          else to = size.factor * s.bets[o]!;
          to = Math.max(to, minTo);
          if (to < maxTo - EPS) {
            const behindAfterCall = s.behind - to;
            const potAfterCall = s.potStart + 2 * to;
            if (behindAfterCall <= config.forceAllInThreshold * potAfterCall + EPS) to = maxTo;
          }
          out.push(Math.min(to, maxTo));
        }
        if (maxTo > s.bets[o]! + EPS && (maxTo - s.bets[o]!) / afterCall <= config.allInThreshold + EPS)
          out.push(maxTo);
        out.sort((a, b) => a - b);
        return out.filter((x, i) => i === 0 || x - out[i - 1]! > EPS * Math.max(1, x));
      };

      if (facing <= EPS) {
        // Check, or bet.
        child({ kind: "check", label: "check", to: s.bets[p]!, add: 0, potFraction: 0 }, () =>
          p === 1 || s.actionsOnStreet > 0
            ? streetEnd({ ...s }, [...path, "check"])
            : decide({ ...s, toAct: o, actionsOnStreet: s.actionsOnStreet + 1 }, [...path, "check"]),
        );
        const donk = p === 0 && s.actionsOnStreet === 0 && s.previousAggressor === 1;
        const list = donk ? (config.donkBets ? sizes.donk : []) : sizes.bet;
        // A player with no sizes only checks (the all-in threshold adds all-in to sizes, never alone).
        if (list.length > 0 && maxTo > EPS) {
          for (const to of amounts(list, 0)) {
            const info = sized(to, "bet");
            child(info, aggressive(info));
          }
        }
      } else {
        // Fold, call, or raise.
        child({ kind: "fold", label: "fold", to: s.bets[p]!, add: 0, potFraction: 0 }, () =>
          make(FOLD, s.street, p, contrib, [...path, "fold"]),
        );
        const callTo = Math.min(s.bets[o]!, maxTo);
        child({ kind: "call", label: "call", to: callTo, add: callTo - s.bets[p]!, potFraction: 0 }, () => {
          const bets: [number, number] = [callTo, callTo];
          return streetEnd({ ...s, bets }, [...path, "call"]);
        });
        const canRaise = s.raises < config.raiseCap && maxTo > s.bets[o]! + EPS && sizes.raise.length > 0;
        if (canRaise) {
          const minTo = s.bets[o]! + Math.max(s.lastIncrement, 0);
          for (const to of amounts(sizes.raise, minTo)) {
            const info = sized(to, "raise");
            child(info, aggressive(info));
          }
        }
      }
      return node;
    };

    this.root = decide(
      {
        street: this.startStreet,
        potStart: config.pot,
        behind: config.stack,
        before: 0,
        bets: [0, 0],
        toAct: 0,
        raises: 0,
        lastIncrement: 0,
        aggressor: -1,
        previousAggressor: config.previousAggressor,
        actionsOnStreet: 0,
      },
      [],
    );
    this.nodes = nodes;
  }

  /** Counts of nodes by kind. */
  counts(): { decisions: number; folds: number; showdowns: number; chances: number } {
    const c = { decisions: 0, folds: 0, showdowns: 0, chances: 0 };
    for (const node of this.nodes) {
      if (node.kind === DECISION) c.decisions++;
      else if (node.kind === FOLD) c.folds++;
      else if (node.kind === SHOWDOWN) c.showdowns++;
      else c.chances++;
    }
    return c;
  }

  /**
   * Each player's result at a terminal, in chips relative to its stack at the start of the spot, for the
   * outcome `outcome` (fold nodes: the folder loses; showdowns: 1 OOP wins, -1 IP wins, 0 a tie). Rake is
   * taken from the pot that is contested (an uncalled bet goes back first).
   */
  payoffs(node: TreeNode, outcome: 1 | 0 | -1, rake: { percent: number; cap: number }): [number, number] {
    const [c0, c1] = node.contrib;
    if (node.kind === FOLD) {
      const f = node.player;
      const cf = node.contrib[f]!;
      const pot = this.pot + 2 * cf;
      const r = Math.min((pot * rake.percent) / 100, rake.cap);
      const out: [number, number] = [0, 0];
      out[f] = -cf;
      out[1 - f] = this.pot + cf - r;
      return out;
    }
    if (node.kind !== SHOWDOWN) throw new Error("payoffs: not a terminal node");
    const pot = this.pot + c0 + c1;
    const r = Math.min((pot * rake.percent) / 100, rake.cap);
    if (outcome === 0) return [(pot - r) / 2 - c0, (pot - r) / 2 - c1];
    return outcome === 1 ? [pot - r - c0, -c1] : [-c0, pot - r - c1];
  }
}
