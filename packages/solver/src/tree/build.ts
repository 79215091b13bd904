/**
 * Builds the preflop game tree of a (tree config, stack) for the CFR engine (model v3).
 *
 * Betting rules (the grammar of the config is documented on `TreeConfig` and `StackProfile`):
 * - No forced folds: a player facing a bet may always fold or call; a call for less than the bet is an
 *   all-in call. Any seat may cold-call, overcall and squeeze, so pots may be multiway.
 * - First in, a seat may fold or open; it may call (limp) only if it is listed in `limpSeats`. Once someone
 *   has limped, later seats may fold, overlimp or raise. The BB may check or raise a limped pot.
 * - Raises follow the profile's sizes by raise number (open, 3-bet in or out of position against the last
 *   raiser, 4-bet, 5-bet) and the caps: all-in from raise number `allInFrom`, sized raises above
 *   `allInThreshold` of the stack become all-in, at most `maxRaises` raises, a cold 4-bet (a raise from a
 *   seat that has not yet put chips in voluntarily, from raise number 3 on) only where `coldFourBet` is set,
 *   and nobody raises over an all-in (the others may still call it).
 * - A raise reopens the action for every seat still in with chips behind.
 * - Pot-limit trees (`"betting": "pot-limit"`, the PLO games): sized raises are at most the pot (validated on
 *   the config); all-in exists only where the pot-size raise reaches the stack, so a sized raise that the
 *   caps above would turn into an all-in stays sized where the all-in would be over the pot. Raise tokens are
 *   `Open`, `3B`, ... with the suffix `-<pct>` when the node offers more than one sized raise.
 *
 * Terminals: a fold-out (one seat left), or a showdown of two or more seats, all-in (at most one seat has
 * chips behind) or to the flop. Unequal contributions are split into a main pot and side pots; an uncalled
 * excess goes back to its owner. Cash games take rake from every pot that sees a flop (no flop, no drop).
 * Sizes come from @ranges/core's `PotState`, so the tree, the served sizes and the importer share one
 * arithmetic.
 */

import {
  bettingDepth,
  CODE_ALLIN,
  CODE_CALL,
  CODE_FOLD,
  type DecodedAction,
  GAMES,
  PotState,
} from "@ranges/core";
import type { ActionInfo, DecisionNode, ShowdownPot, TreeNode } from "../engine/game.js";
import { potLimitSizeId, profileFor, rakeOf, type StackProfile, type TreeConfig } from "./config.js";

/** How a heads-up duel inside a showdown is settled, resolved to a matrix index by the model. */
export interface DuelKind {
  readonly allIn: boolean;
  /** True when the row player is in position postflop against the other. */
  readonly rowIsIp: boolean;
  /** Stack-to-pot ratio when the pot goes to the flop (0 when all-in). */
  readonly spr: number;
  /** Who of the two made the last raise before the flop: the row player, the column player, or neither. */
  readonly initiative: "row" | "col" | "none";
  /** Raises made before the flop (0: a limped pot). */
  readonly raises: number;
  /** Players contesting the pot: 2 heads-up, 3 or more in a multiway pot (absent: heads-up). */
  readonly players?: number;
  /** The row and the column player's seats (`BTN`, `BB`; absent: not known, as in a hand-built kind). */
  readonly rowSeat?: string;
  readonly colSeat?: string;
}

export interface BuiltTree {
  readonly root: TreeNode;
  readonly seats: readonly string[];
  readonly stack: number;
  readonly startingPot: number;
  /** Showdowns by number of players (index 2 = heads-up). */
  readonly showdownsByPlayers: number[];
}

interface State {
  pot: PotState;
  allIn: boolean[];
  /** Seats that have put chips in voluntarily (limp, call or raise). */
  entered: boolean[];
  pending: number[];
  raises: number;
  limpers: number;
  /** Seats that called the current raise. */
  callers: number;
  owner: number;
  parts: string[];
}

/** Postflop acting order: blinds first, then the others in preflop order. Higher = in position. */
export function postflopRank(seats: readonly string[], i: number): number {
  const n = seats.length;
  if (n === 2) return i === 0 ? 1 : 0; // heads-up: the SB (button) acts last postflop
  return i >= n - 2 ? i - (n - 2) : i + 2;
}

/**
 * Builds the tree. `matrixFor(kind)` returns the share-matrix index of a heads-up duel (the row player's
 * share against the other); the model module owns the matrices.
 */
export function buildPreflopTree(
  config: TreeConfig,
  stack: number,
  matrixFor: (kind: DuelKind) => number,
): BuiltTree {
  const info = GAMES[config.game];
  const seats = config.seats ?? info.seats;
  const n = seats.length;
  const profile = profileFor(config, stack);
  const rake = rakeOf(config);
  const pot = new PotState({
    seats,
    stacks: seats.map(() => stack),
    sb: config.blinds.sb,
    bb: config.blinds.bb,
    ante: config.ante,
    antePostedBy: config.antePostedBy,
  });
  const anteOf = seats.map((s) => (s === config.antePostedBy ? config.ante : 0));
  const showdownsByPlayers: number[] = new Array<number>(n + 1).fill(0);
  const startingPot = pot.pot;
  const maxRaises = profile.maxRaises ?? 5;
  const potLimit = config.betting === "pot-limit";

  const invested = (st: State): number[] => st.pot.contributed.map((c, i) => c + anteOf[i]!);
  const totalStack = (st: State, i: number) => st.pot.contributed[i]! + st.pot.behind[i]!;

  const tokenFor = (
    d: DecodedAction,
    raiseNumber: number,
    seat: string,
    st: State,
    sizedRaises: number,
  ): string => {
    if (d.kind === "fold") return "Fold";
    if (d.kind === "call")
      return info.limpToken && st.raises === 0 && seat !== "BB" && st.limpers === 0 ? "Limp" : "Call";
    if (d.kind === "allin") return "AI";
    if (info.tokenStyle === "percent") return `${d.sizePctPot}%`;
    const depth = raiseNumber === 1 ? "Open" : `${raiseNumber + 1}B`;
    // PLO: a node with several sized raises names each by its size id (its percent of the pot).
    return info.variant === "omaha" && sizedRaises > 1 ? `${depth}-${potLimitSizeId(d.code)}` : depth;
  };

  const raiseCodes = (p: StackProfile, raiseNumber: number, actor: number, st: State): readonly number[] => {
    if (profile.jamOrFold) return [];
    if (raiseNumber === 1) {
      if (st.limpers > 0) return p.isoRaise ?? [];
      return seats[actor] === "SB" ? (p.sbOpen ?? []) : (p.open ?? []);
    }
    if (raiseNumber === 2) {
      if (st.callers > 0 && p.squeeze) return p.squeeze;
      const ip = postflopRank(seats, actor) > postflopRank(seats, st.owner);
      return (ip ? p.threeBetIp : p.threeBetOop) ?? [];
    }
    if (raiseNumber === 3) return p.fourBet ?? [];
    if (raiseNumber === 4) return p.fiveBet ?? [];
    return [];
  };

  const options = (st: State, actor: number): number[] => {
    const seat = seats[actor]!;
    // A seat dealt out folds first in (only seats acting before every dealt-in seat can be dealt out).
    if (config.dealtIn && !config.dealtIn.includes(seat)) return [CODE_FOLD];
    const toCall = st.pot.toCall(seat);
    const codes: number[] = [];
    if (toCall > 0) codes.push(CODE_FOLD);
    // Facing a raise (or a limp) a seat may always call; first in only the limp seats may.
    const mayCall = toCall === 0 || st.raises > 0 || st.limpers > 0 || config.limpSeats.includes(seat);
    if (mayCall && (!profile.jamOrFold || st.raises > 0 || toCall === 0)) codes.push(CODE_CALL);
    const raiseNumber = st.raises + 1;
    const others = seats.map((_, i) => i).filter((i) => i !== actor && !st.pot.folded[i]);
    const cold = !st.entered[actor] && raiseNumber >= 3 && !(seat === "BB" || seat === "SB");
    const mayRaise =
      raiseNumber <= maxRaises &&
      st.callers <= (profile.maxCallersToRaise ?? n) &&
      !(cold && !profile.coldFourBet) &&
      !others.some((i) => st.allIn[i]) &&
      others.some((i) => !st.allIn[i]) &&
      st.pot.behind[actor]! > toCall;
    if (!mayRaise) return codes;
    const maxOther = Math.max(...others.map((i) => totalStack(st, i)));
    const cap = Math.min(totalStack(st, actor), maxOther);
    // Pot-limit: all-in is legal only when the pot-size raise reaches the stack.
    const allInLegal = !potLimit || st.pot.decode(seat, POT_SIZE_RAISE).kind === "allin";
    let allIn = profile.jamOrFold === true || raiseNumber >= profile.allInFrom;
    for (const code of raiseCodes(profile, raiseNumber, actor, st)) {
      const d = st.pot.decode(seat, code);
      if (
        d.kind === "allin" ||
        (allInLegal && (d.toBb >= config.allInThreshold * totalStack(st, actor) || d.toBb >= cap))
      )
        allIn = true;
      else codes.push(code);
    }
    if (allIn && allInLegal) codes.push(CODE_ALLIN);
    return codes;
  };

  const next = (st: State): TreeNode => {
    const active = seats.map((_, i) => i).filter((i) => !st.pot.folded[i]);
    if (active.length === 1) {
      const inv = invested(st);
      return { type: "fold", winner: active[0]!, pot: sum(inv), invested: inv };
    }
    if (st.pending.length === 0) return showdown(st, active);
    const actor = st.pending[0]!;
    const seat = seats[actor]!;
    const codes = options(st, actor);
    const history = [...st.parts, seat].join("_");
    const actions: ActionInfo[] = [];
    const children: TreeNode[] = [];
    const sizedRaises = codes.filter((c) => c !== CODE_FOLD && c !== CODE_CALL && c !== CODE_ALLIN).length;
    for (const code of codes) {
      const child: State = {
        pot: st.pot.clone(),
        allIn: [...st.allIn],
        entered: [...st.entered],
        pending: st.pending.slice(1),
        raises: st.raises,
        limpers: st.limpers,
        callers: st.callers,
        owner: st.owner,
        parts: st.parts,
      };
      const d = child.pot.apply(seat, code);
      const isRaise = (d.kind === "raise" || d.kind === "allin") && d.toBb > st.pot.currentBet + 1e-9;
      const token = tokenFor(d, st.raises + 1, seat, st, sizedRaises);
      if (d.allIn || child.pot.behind[actor]! <= 1e-9) child.allIn[actor] = true;
      if (d.kind !== "fold" && d.addBb > 0) child.entered[actor] = true;
      if (isRaise) {
        child.raises += 1;
        child.owner = actor;
        child.callers = 0;
        child.pending = [];
        for (let k = 1; k < n; k++) {
          const i = (actor + k) % n;
          if (!child.pot.folded[i] && !child.allIn[i]) child.pending.push(i);
        }
      } else if (d.kind === "call" && st.raises === 0 && d.addBb > 0) {
        child.limpers += 1;
      } else if (d.kind === "call" && st.raises > 0 && d.addBb > 0) {
        child.callers += 1;
      }
      child.parts = [...st.parts, seat, token];
      const base = { code, token, kind: d.kind, sizeBb: d.sizeBb, sizePctPot: d.sizePctPot };
      actions.push(d.sizeReason === undefined ? base : { ...base, sizeReason: d.sizeReason });
      children.push(next(child));
    }
    const node: DecisionNode = {
      type: "decision",
      actor,
      history,
      depth: bettingDepth(st.raises),
      actions,
      children,
      invested: invested(st),
    };
    return node;
  };

  const showdown = (st: State, active: number[]): TreeNode => {
    const contributed = [...st.pot.contributed];
    // An uncalled excess goes back to the player who put it in: nobody can win more from a seat than
    // the largest amount another active seat matched.
    const sorted = active.map((i) => contributed[i]!).sort((a, b) => b - a);
    const secondHighest = sorted[1]!;
    for (const i of active) contributed[i] = Math.min(contributed[i]!, secondHighest);
    const inv = contributed.map((c, i) => c + anteOf[i]!);
    const total = sum(inv);
    // Pots by contribution level: each level is contested by the active seats that reached it; chips of
    // folded seats and antes go to the main pot.
    const levels = [...new Set(active.map((i) => contributed[i]!))].sort((a, b) => a - b);
    const dead = st.pot.pot - sum(st.pot.contributed);
    const pots: { amount: number; players: number[] }[] = [];
    let prev = 0;
    for (const level of levels) {
      let amount = pots.length === 0 ? dead : 0;
      for (let i = 0; i < n; i++) amount += Math.max(0, Math.min(contributed[i]!, level) - prev);
      pots.push({ amount, players: active.filter((i) => contributed[i]! >= level - 1e-9) });
      prev = level;
    }
    // Chips a folded seat put in above the last active level belong to the last pot.
    for (let i = 0; i < n; i++) pots[pots.length - 1]!.amount += Math.max(0, contributed[i]! - prev);
    const withChips = active.filter((i) => totalStack(st, i) - contributed[i]! > 1e-9);
    const allIn = withChips.length <= 1;
    const behindSorted = active.map((i) => totalStack(st, i) - contributed[i]!).sort((a, b) => b - a);
    const effective = Math.max(0, behindSorted[1] ?? 0);
    const spr = allIn ? 0 : effective / total;
    const rakeTaken = rake ? Math.min(rake.capBb, (rake.percent / 100) * total) : 0;
    const keep = total > 0 ? 1 - rakeTaken / total : 1;
    const duel = new Int32Array(n * n).fill(-1);
    const raiser = st.raises > 0 ? st.owner : -1;
    for (const i of active) {
      for (const j of active) {
        if (i === j) continue;
        duel[i * n + j] = matrixFor({
          allIn,
          rowIsIp: postflopRank(seats, i) > postflopRank(seats, j),
          spr,
          initiative: raiser === i ? "row" : raiser === j ? "col" : "none",
          raises: st.raises,
          players: active.length,
          rowSeat: seats[i]!,
          colSeat: seats[j]!,
        });
      }
    }
    showdownsByPlayers[active.length]! += 1;
    const potsOut: ShowdownPot[] = pots.map((p) => ({ amount: p.amount * keep, players: p.players }));
    return {
      type: "showdown",
      players: active,
      pots: potsOut,
      duel,
      pot: total,
      rake: rakeTaken,
      invested: inv,
      allIn,
    };
  };

  const root = next({
    pot,
    allIn: seats.map(() => false),
    entered: seats.map(() => false),
    pending: seats.map((_, i) => i),
    raises: 0,
    limpers: 0,
    callers: 0,
    owner: n - 1,
    parts: [],
  });
  return { root, seats, stack, startingPot, showdownsByPlayers };
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The pot-size raise, the pot-limit maximum: raise-to = the bet + the pot after calling. */
const POT_SIZE_RAISE = 40100;
