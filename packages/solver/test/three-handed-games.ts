/**
 * Three-handed jam/fold toy games built by hand as engine games, for the three-player oracle
 * (test/three-player.test.ts).
 *
 * Seats BTN, SB, BB post 0, 0.5 and 1 and act once each, in that order: not facing a jam a seat folds or
 * jams its whole stack, facing one it folds or calls (all in for less when its stack is shorter). Each
 * seat's hand is one of `combos.length` classes drawn independently (with replacement) with chance
 * proportional to `combos`: no card removal, so W[a][b] = combos[a] * combos[b] and oppPerCombo is the
 * total, and the engine's model (every opponent drawn against my hand, independently) is exact.
 *
 * `share(i, j, a, b)` is seat i's heads-up share of a pot against seat j when i holds a and j holds b; it
 * must satisfy share(i, j, a, b) + share(j, i, b, a) = 1. A pot of three is split by the engine's
 * independent-duels model, which is exact for a strict strength order with ties split (`strengthShare`).
 */

import { seededRandom } from "@ranges/core";
import type { ActionInfo, EngineGame, ShowdownPot, TreeNode } from "../src/engine/game.js";

export const SEATS = ["BTN", "SB", "BB"] as const;
export const BLINDS = [0, 0.5, 1] as const;

export interface ThreeHandedSpec {
  /** Chips each seat can put in, its blind included. */
  readonly stacks: readonly number[];
  /** Weight of each hand class (its chance is combos / total). */
  readonly combos: readonly number[];
  readonly share: (i: number, j: number, a: number, b: number) => number;
  /** Chips raked from a showdown pot of the given size (none when absent); never from a fold. */
  readonly rake?: (pot: number) => number;
  /**
   * Where each ordered pair's share matrix goes in `matrices` (pairs BTN-SB, BTN-BB, SB-BTN, SB-BB,
   * BB-BTN, BB-SB; distinct indices, the slots left over hold unused zero matrices). Default 0 to 5.
   */
  readonly matrixIndex?: readonly number[];
  /**
   * Board-conditioned duels for pots of three (the engine's `multiway` model): the sweeping seat i holding a
   * is in bucket k with chance `pi(a, k)`, and there wins its duel against j holding b with chance
   * `share(i, j, a, b, k)`. Heads-up pots keep `share` above.
   */
  readonly bucketed?: {
    readonly buckets: number;
    readonly pi: (a: number, k: number) => number;
    readonly share: (i: number, j: number, a: number, b: number, k: number) => number;
  };
}

/** Random board-conditioned duels: random bucket chances per class and random duel shares per bucket. */
export function randomBucketed(
  classes: number,
  buckets: number,
  seed: number,
): NonNullable<ThreeHandedSpec["bucketed"]> {
  const next = rng(seed);
  const pi = Float64Array.from({ length: classes * buckets }, () => 0.1 + next());
  for (let a = 0; a < classes; a++) {
    let total = 0;
    for (let k = 0; k < buckets; k++) total += pi[a * buckets + k]!;
    for (let k = 0; k < buckets; k++) pi[a * buckets + k]! /= total;
  }
  const shares = Float64Array.from({ length: 9 * buckets * classes * classes }, () => next());
  return {
    buckets,
    pi: (a, k) => pi[a * buckets + k]!,
    share: (i, j, a, b, k) => shares[(((i * 3 + j) * buckets + k) * classes + a) * classes + b]!,
  };
}

/** Heads-up share for a strict order of the classes by `strength` (ties split), the same for every seat. */
export function strengthShare(strength: readonly number[]): ThreeHandedSpec["share"] {
  return (_i, _j, a, b) => (strength[a]! > strength[b]! ? 1 : strength[a] === strength[b] ? 0.5 : 0);
}

export const rng = seededRandom;

/**
 * Random heads-up shares, different for every pair of seats and not a strict order: seat i < j wins with
 * a random chance in [0.05, 0.95] (the same class included), and share(j, i, b, a) = 1 - share(i, j, a, b).
 */
export function randomShare(classes: number, seed: number): ThreeHandedSpec["share"] {
  const next = rng(seed);
  const table = new Map<string, Float64Array>();
  for (let i = 0; i < 3; i++)
    for (let j = i + 1; j < 3; j++)
      table.set(
        `${i}${j}`,
        Float64Array.from({ length: classes * classes }, () => 0.05 + 0.9 * next()),
      );
  return (i, j, a, b) =>
    i < j ? table.get(`${i}${j}`)![a * classes + b]! : 1 - table.get(`${j}${i}`)![b * classes + a]!;
}

const act = (token: string, kind: ActionInfo["kind"], sizeBb: number | null): ActionInfo => ({
  code: kind === "fold" ? 0 : kind === "call" ? 1 : 5,
  token,
  kind,
  sizeBb,
  sizePctPot: null,
});

export function threeHandedJamFold(spec: ThreeHandedSpec): EngineGame {
  const n = spec.combos.length;
  const total = spec.combos.reduce((x, y) => x + y, 0);
  const W = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) W[a * n + b] = spec.combos[a]! * spec.combos[b]!;
  // One share matrix per ordered pair of seats.
  const slots = spec.matrixIndex ?? [0, 1, 2, 3, 4, 5];
  const matrices = Array.from({ length: Math.max(...slots) + 1 }, () => new Float64Array(n * n));
  const duel = new Int32Array(9).fill(-1);
  let pair = 0;
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      if (i === j) continue;
      const m = matrices[slots[pair]!]!;
      for (let a = 0; a < n; a++)
        for (let b = 0; b < n; b++) m[a * n + b] = W[a * n + b]! * spec.share(i, j, a, b);
      duel[i * 3 + j] = slots[pair++]!;
    }

  const bucketed = spec.bucketed;
  const multiway = bucketed
    ? {
        buckets: bucketed.buckets,
        pi: Float64Array.from({ length: n * bucketed.buckets }, (_, x) =>
          bucketed.pi(Math.floor(x / bucketed.buckets), x % bucketed.buckets),
        ),
        matrices: matrices.flatMap((_, slot) => {
          const p = slots.indexOf(slot);
          const i = p < 0 ? 0 : Math.floor(p / 2);
          const j = p < 0 ? 0 : [1, 2, 0, 2, 0, 1][p]!;
          return Array.from({ length: bucketed.buckets }, (_, k) => {
            const m = new Float64Array(n * n);
            if (p >= 0)
              for (let a = 0; a < n; a++)
                for (let b = 0; b < n; b++) m[a * n + b] = W[a * n + b]! * bucketed.share(i, j, a, b, k);
            return m;
          });
        }),
      }
    : undefined;

  const showdown = (committed: readonly number[], players: number[]): TreeNode => {
    const invested = [...committed];
    // Return the uncalled excess of the deepest player.
    const sorted = players.map((p) => invested[p]!).sort((x, y) => y - x);
    const top = players.find((p) => invested[p] === sorted[0]);
    invested[top!] = sorted[1]!;
    const pot = invested.reduce((x, y) => x + y, 0);
    const levels = [...new Set(players.map((p) => invested[p]!))].sort((x, y) => x - y);
    const pots: ShowdownPot[] = [];
    let prev = 0;
    for (const level of levels) {
      let amount = 0;
      for (const c of invested) amount += Math.min(c, level) - Math.min(c, prev);
      pots.push({ amount, players: players.filter((p) => invested[p]! >= level) });
      prev = level;
    }
    const dead = pot - pots.reduce((x, p) => x + p.amount, 0);
    if (Math.abs(dead) > 1e-12) throw new Error("folded chips above the top level");
    const rake = spec.rake?.(pot) ?? 0;
    const kept = (pot - rake) / pot;
    return {
      type: "showdown",
      players,
      pots: pots.map((p) => ({ amount: p.amount * kept, players: p.players })),
      duel,
      pot,
      rake,
      invested,
      allIn: true,
    };
  };

  const node = (
    actor: number,
    committed: readonly number[],
    inHand: readonly boolean[],
    jammed: boolean,
    prefix: string,
  ): TreeNode => {
    const live = [0, 1, 2].filter((s) => inHand[s]);
    if (live.length === 1) {
      const pot = committed.reduce((x, y) => x + y, 0);
      return { type: "fold", winner: live[0]!, pot, invested: [...committed] };
    }
    if (actor === 3) return showdown(committed, live);
    const history = `${prefix}${SEATS[actor]}`;
    const amount = jammed ? Math.min(spec.stacks[actor]!, Math.max(...committed)) : spec.stacks[actor]!;
    const afterFold = inHand.map((x, s) => x && s !== actor);
    const afterIn = committed.map((c, s) => (s === actor ? amount : c));
    const token = jammed ? "C" : "J";
    return {
      type: "decision",
      actor,
      history,
      depth: jammed ? 2 : 1,
      invested: [...committed],
      actions: [act("F", "fold", null), act(token, jammed ? "call" : "allin", amount)],
      children: [
        node(actor + 1, committed, afterFold, jammed, `${history}_F_`),
        node(actor + 1, afterIn, inHand, true, `${history}_${token}_`),
      ],
    };
  };

  return {
    seats: [...SEATS],
    classCount: n,
    combos: Float64Array.from(spec.combos),
    oppPerCombo: total,
    W,
    matrices,
    ...(multiway ? { multiway } : {}),
    root: node(0, [...BLINDS], [true, true, true], false, ""),
  };
}
