/**
 * Builds the preflop game tree of a (tree config, stack) for the CFR engine.
 *
 * The pot cap: at most two players contest a pot. Each bet takes at most one caller: once it is called,
 * players behind may fold or raise (squeeze) but not call, and nobody raises while another player is all-in.
 * A raise starts a new bet, so every pot that reaches a showdown or the flop is heads-up; the chips of a
 * player who folds stay in the pot as dead money.
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
import type { ActionInfo, DecisionNode, TreeNode } from "../engine/game.js";
import { profileFor, type StackProfile, type TreeConfig } from "./config.js";

/** How a showdown is settled, resolved to a matrix index by the model. */
export interface ShowdownKind {
  readonly allIn: boolean;
  /** Seat in position postflop (acts last). */
  readonly ipSeat: number;
  /** Stack-to-pot ratio when the pot goes to the flop. */
  readonly spr: number;
}

export interface BuiltTree {
  readonly root: TreeNode;
  readonly seats: readonly string[];
  readonly stack: number;
  readonly startingPot: number;
  /** One entry per showdown node, in creation order; `matrixFor` maps it to share matrices. */
  readonly showdowns: ShowdownKind[];
}

interface State {
  pot: PotState;
  allIn: boolean[];
  pending: number[];
  raises: number;
  owner: number;
  callers: number;
  parts: string[];
}

/** Postflop acting order: blinds first, then the others in preflop order. Higher = in position. */
function postflopRank(seats: readonly string[], i: number): number {
  const n = seats.length;
  if (n === 2) return i === 0 ? 1 : 0; // heads-up: the SB (button) acts last postflop
  return i >= n - 2 ? i - (n - 2) : i + 2;
}

/**
 * Builds the tree. `matrixFor(kind)` returns the share-matrix indexes [for players[0], for players[1]] of
 * a showdown; the model module owns the matrices.
 */
export function buildPreflopTree(
  config: TreeConfig,
  stack: number,
  matrixFor: (kind: ShowdownKind, players: readonly [number, number]) => [number, number],
): BuiltTree {
  const info = GAMES[config.game];
  const seats = config.seats ?? info.seats;
  const n = seats.length;
  const profile = profileFor(config, stack);
  const pot = new PotState({
    seats,
    stacks: seats.map(() => stack),
    sb: config.blinds.sb,
    bb: config.blinds.bb,
    ante: config.ante,
    antePostedBy: config.antePostedBy,
  });
  const anteOf = seats.map((s) => (s === config.antePostedBy ? config.ante : 0));
  const showdowns: ShowdownKind[] = [];
  const startingPot = pot.pot;

  const invested = (st: State): number[] => st.pot.contributed.map((c, i) => c + anteOf[i]!);
  const totalStack = (st: State, i: number) => st.pot.contributed[i]! + st.pot.behind[i]!;

  const tokenFor = (d: DecodedAction, raiseNumber: number, seat: string, raises: number): string => {
    if (d.kind === "fold") return "Fold";
    if (d.kind === "call") return info.limpToken && raises === 0 && seat !== "BB" ? "Limp" : "Call";
    if (d.kind === "allin") return "AI";
    if (info.tokenStyle === "percent") return `${d.sizePctPot}%`;
    return raiseNumber === 1 ? "Open" : `${raiseNumber + 1}B`;
  };

  const raiseCodes = (p: StackProfile, raiseNumber: number, actor: number, st: State): readonly number[] => {
    if (profile.jamOrFold) return [];
    if (raiseNumber === 1) {
      if (st.callers > 0 && seats[actor] === "BB") return p.isoRaise ?? [];
      return seats[actor] === "SB" ? (p.sbOpen ?? []) : (p.open ?? []);
    }
    if (raiseNumber === 2) {
      const ip = postflopRank(seats, actor) > postflopRank(seats, st.owner);
      return (ip ? p.threeBetIp : p.threeBetOop) ?? [];
    }
    if (raiseNumber === 3) return p.fourBet ?? [];
    if (raiseNumber === 4) return p.fiveBet ?? [];
    return [];
  };

  const options = (st: State, actor: number): number[] => {
    const seat = seats[actor]!;
    const toCall = st.pot.toCall(seat);
    const codes: number[] = [];
    if (toCall > 0) codes.push(CODE_FOLD);
    const firstIn = st.raises === 0 && seat !== "BB";
    const mayCall = toCall === 0 || (st.callers === 0 && (!firstIn || config.limpSeats.includes(seat)));
    // Jam/fold trees have no first-in call; facing an all-in, calling is the only way in.
    if (mayCall && (!profile.jamOrFold || st.raises > 0)) codes.push(CODE_CALL);
    const others = seats.map((_, i) => i).filter((i) => i !== actor && !st.pot.folded[i]);
    // Each bet takes at most one caller, so after a call only the blinds' squeeze (a 3-bet over an open and a
    // call) is offered: squeezes from every seat and deeper raises over a called bet multiply the tree five- to
    // ten-fold. Nobody raises while another player is all-in (that could put three players in the pot), and a
    // raise needs someone left with chips to face it.
    const squeezeOk = st.callers === 0 || st.owner === actor || (st.raises === 1 && SQUEEZERS(seats, actor));
    const mayRaise =
      squeezeOk &&
      !others.some((i) => st.allIn[i]) &&
      others.some((i) => !st.allIn[i]) &&
      st.pot.behind[actor]! > toCall;
    if (!mayRaise) return codes;
    const raiseNumber = st.raises + 1;
    const maxOther = Math.max(
      ...seats.map((_, i) => (i !== actor && !st.pot.folded[i] ? totalStack(st, i) : 0)),
    );
    const cap = Math.min(totalStack(st, actor), maxOther);
    let allIn = profile.jamOrFold === true || raiseNumber >= profile.allInFrom;
    for (const code of raiseCodes(profile, raiseNumber, actor, st)) {
      const d = st.pot.decode(seat, code);
      if (d.kind === "allin" || d.toBb >= config.allInThreshold * totalStack(st, actor) || d.toBb >= cap)
        allIn = true;
      else codes.push(code);
    }
    if (allIn) codes.push(CODE_ALLIN);
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
    for (const code of codes) {
      const child: State = {
        pot: st.pot.clone(),
        allIn: [...st.allIn],
        pending: st.pending.slice(1),
        raises: st.raises,
        owner: st.owner,
        callers: st.callers,
        parts: st.parts,
      };
      const d = child.pot.apply(seat, code);
      const isRaise = (d.kind === "raise" || d.kind === "allin") && d.toBb > st.pot.currentBet + 1e-9;
      const token = tokenFor(d, st.raises + 1, seat, st.raises);
      if (d.allIn || child.pot.behind[actor]! <= 1e-9) child.allIn[actor] = true;
      if (isRaise) {
        child.raises += 1;
        child.owner = actor;
        child.callers = 0;
        child.pending = [];
        for (let k = 1; k < n; k++) {
          const i = (actor + k) % n;
          if (!child.pot.folded[i] && !child.allIn[i]) child.pending.push(i);
        }
      } else if (d.kind !== "fold" && d.addBb > 0) {
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
    if (active.length !== 2)
      throw new Error(`pot cap broken: ${active.length} players at ${st.parts.join("_")}`);
    const [p, q] = active as [number, number];
    const cp = st.pot.contributed[p]!;
    const cq = st.pot.contributed[q]!;
    // An uncalled excess goes back to the player who put it in.
    const matched = Math.min(cp, cq);
    const inv = invested(st);
    inv[p] = matched + anteOf[p]!;
    inv[q] = matched + anteOf[q]!;
    const total = sum(inv);
    const behind = Math.min(totalStack(st, p), totalStack(st, q)) - matched;
    const allIn = behind <= 1e-9;
    const ipSeat = postflopRank(seats, p) > postflopRank(seats, q) ? p : q;
    const kind: ShowdownKind = { allIn, ipSeat, spr: allIn ? 0 : behind / total };
    showdowns.push(kind);
    return {
      type: "showdown",
      players: [p, q],
      matrices: matrixFor(kind, [p, q]),
      pot: total,
      invested: inv,
      allIn,
    };
  };

  const root = next({
    pot,
    allIn: seats.map(() => false),
    pending: seats.map((_, i) => i),
    raises: 0,
    owner: n - 1,
    callers: 0,
    parts: [],
  });
  return { root, seats, stack, startingPot, showdowns };
}

/**
 * Seats allowed to squeeze: the blinds, who have chips in the pot and close the action. Without them an early
 * call would shut everyone out, and first callers would call almost any hand.
 */
const SQUEEZERS = (seats: readonly string[], actor: number): boolean => actor >= seats.length - 2;

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
