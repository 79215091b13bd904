import { parseCards } from "@ranges/core";
import { evaluateOmaha } from "@ranges/solver";
import { describe, expect, it } from "vitest";
import {
  buildPloTree,
  type ChanceNode,
  type DecisionNode,
  type PloBetting,
  type PloNode,
  PloSolver,
  parsePloBoard,
  resolvePloSpot,
  riverDeal,
  solveBySubsamples,
  solvePloSpot,
} from "../src/index.js";
import { randomRange } from "./random-range.js";

const hand = (text: string): number[] => parseCards(text, 4)!;
const disjoint = (a: readonly number[], b: readonly number[]) => !a.some((c) => b.includes(c));

/** Every (turn, river) pair, ordered, of the cards that neither the board nor the two hands hold. */
function runouts(board: number[], a: readonly number[], b: readonly number[]): [number, number][] {
  const live = [...Array(52).keys()].filter((c) => !board.includes(c) && !a.includes(c) && !b.includes(c));
  return live.flatMap((t) => live.filter((r) => r !== t).map((r) => [t, r] as [number, number]));
}

/** Brute force: the all-in equity of hand a against hand b over every turn and river. */
function pairEquity(board: number[], a: readonly number[], b: readonly number[]): number {
  let share = 0;
  const all = runouts(board, a, b);
  for (const [t, r] of all) {
    const full = [...board, t, r];
    const x = evaluateOmaha(a, full);
    const y = evaluateOmaha(b, full);
    share += x > y ? 1 : x === y ? 0.5 : 0;
  }
  return share / all.length;
}

/**
 * Brute force for single-combo ranges: both hands are known to both players, so the game has perfect
 * information and its value is backward induction over the tree (OOP maximizes its payoff, IP the rest of
 * the pot), averaging every turn and river that neither the board nor the hands hold.
 */
function backwardInduction(tree: PloNode, pot: number, board: number[], a: number[], b: number[]): number {
  const showdown = new Map<number, number>();
  const rec = (node: PloNode, dealt: number[]): number => {
    switch (node.kind) {
      case "fold":
        return node.folder === 0 ? -node.contrib[0] : pot + node.contrib[1];
      case "showdown": {
        const key = dealt[0]! * 52 + dealt[1]!;
        let s = showdown.get(key);
        if (s === undefined) {
          const full = [...board, ...dealt];
          const x = evaluateOmaha(a, full);
          const y = evaluateOmaha(b, full);
          showdown.set(key, (s = x > y ? 1 : x === y ? 0.5 : 0));
        }
        return s === 1
          ? pot + node.contrib[1]
          : s === 0
            ? -node.contrib[0]
            : (pot + node.contrib[1] - node.contrib[0]) / 2;
      }
      case "chance": {
        const live = [...Array(52).keys()].filter(
          (c) => !board.includes(c) && !dealt.includes(c) && !a.includes(c) && !b.includes(c),
        );
        return live.reduce((sum, c) => sum + rec(node.child, [...dealt, c]), 0) / live.length;
      }
      case "decision": {
        const values = node.children.map((child) => rec(child, dealt));
        return node.player === 0 ? Math.max(...values) : Math.min(...values);
      }
    }
  };
  return rec(tree, []);
}

const POT_BETS: PloBetting = { bets: [1], raises: [], raiseCap: 0 };

describe("flop spots: tree", () => {
  it("plays every street: chance (turn), then chance (river); all-ins run out to the showdown", () => {
    const tree = buildPloTree(10, 20, POT_BETS, 3);
    expect(tree.streets).toBe(3);
    const root = tree.root as DecisionNode;
    expect(root.actions).toEqual(["check", "bet 10"]);
    // flop bet, call: 10 in each, pot 30, 10 behind: the turn starts
    const call = (root.children[1] as DecisionNode).children[1] as ChanceNode;
    expect(call).toMatchObject({ kind: "chance", street: 1, contrib: [10, 10] });
    const turn = call.child as DecisionNode;
    expect(turn.street).toBe(1);
    // the pot bet is capped at the 10 behind: all-in; its call runs the river out
    expect(turn.actions).toEqual(["check", "allin 10"]);
    const allinCall = (turn.children[1] as DecisionNode).children[1] as ChanceNode;
    expect(allinCall).toMatchObject({
      kind: "chance",
      street: 2,
      child: { kind: "showdown", contrib: [20, 20] },
    });
    // check, check on the turn: the river is dealt and played
    const turnChecks = (turn.children[0] as DecisionNode).children[0] as ChanceNode;
    expect(turnChecks.street).toBe(2);
    expect((turnChecks.child as DecisionNode).street).toBe(2);
    expect(tree.decisions.map((d) => d.street)).toContain(2);
  });

  it("stack 0: checks down through two chance nodes", () => {
    const tree = buildPloTree(10, 0, POT_BETS, 3);
    expect(tree.decisions).toHaveLength(2);
    const end = (tree.root as DecisionNode).children[0] as DecisionNode;
    expect(end.children[0]).toMatchObject({
      kind: "chance",
      street: 1,
      child: { kind: "chance", street: 2 },
    });
  });

  it("refuses boards that are not a flop, turn or river, with the reason", () => {
    const spot = (board: string) =>
      resolvePloSpot({ board, pot: 10, stack: 10, ranges: { oop: "AhAd9c6c", ip: "QhJhTs9s" } });
    for (const [board, message] of [
      ["Kc8d", /give 3 \(flop\), 4 \(turn\) or 5 \(river\)/],
      ["Kc8d5h2s7c3d", /give 3 \(flop\), 4 \(turn\) or 5 \(river\)/],
      ["Kc8d5", /give 3/],
      ["KcKd8d8d", /8d appears twice/],
      ["Kc8d8d", /8d appears twice/],
      ["Kc8x5h", /"8x" is not a card/],
    ] as const) {
      expect(() => spot(board), board).toThrow(message);
    }
    expect(parsePloBoard("Kc 8d 5h")).toEqual(parseCards("Kc8d5h", 3));
  });
});

describe("flop spots: exact values", () => {
  const board = "Qs9h6d";
  const flop = parsePloBoard(board);

  it("no betting possible (stack 0): every combo's EV is pot x its equity, and equities match brute force", () => {
    const oop = randomRange(flop, 10, 11);
    const ip = randomRange(flop, 10, 12);
    ip[0] = { ...oop[0]!, weight: 0.5 }; // an identical hand: never meets itself
    const r = solvePloSpot({ board, pot: 10, stack: 0, ranges: { oop, ip } }, { maxIterations: 1 });
    expect(r.exploitability).toBeCloseTo(0, 9);
    expect(r.values[0] + r.values[1]).toBeCloseTo(10, 9);
    for (const p of [0, 1] as const) {
      for (const c of r.combos[p]) expect(c.ev).toBeCloseTo(10 * c.equity, 9);
    }
    // a few combos of each player against brute force over every turn and river
    const ranges = [oop, ip];
    for (const p of [0, 1] as const) {
      for (const i of [0, 1, 2]) {
        const mine = ranges[p]![i]!;
        let w = 0;
        let eq = 0;
        for (const o of ranges[1 - p]!) {
          if (!disjoint(mine.cards, o.cards)) continue;
          w += o.weight;
          eq += o.weight * pairEquity(flop, mine.cards, o.cards);
        }
        expect(r.combos[p][i]!.compat).toBeCloseTo(w, 12);
        expect(r.combos[p][i]!.equity).toBeCloseTo(eq / w, 12);
      }
    }
  });

  for (const [name, a, b, stack, betting] of [
    ["AA vs a wrap, pot bets only, stack 20", "AsAc7d2h", "Th8c7s5c", 20, POT_BETS],
    [
      "set vs overpair, pot bet and pot raise, stack 30",
      "9c9d4h3s",
      "KhKdJcTc",
      30,
      { bets: [1], raises: [1], raiseCap: 1 },
    ],
  ] as const) {
    it(`single combos (perfect information) against backward induction: ${name}`, () => {
      const pot = 10;
      const r = solvePloSpot(
        { board, pot, stack, ranges: { oop: a, ip: b }, betting },
        { targetExploitability: 0.005, maxIterations: 1000, checkEvery: 20 },
      );
      const tree = buildPloTree(pot, stack, { ...betting }, 3);
      const truth = backwardInduction(tree.root, pot, flop, hand(a), hand(b));
      expect(r.exploitability).toBeLessThanOrEqual(0.005);
      expect(r.combos[0][0]!.ev).toBeCloseTo(truth, 2);
      expect(r.combos[1][0]!.ev).toBeCloseTo(pot - truth, 2);
      expect(r.combos[0][0]!.equity).toBeCloseTo(pairEquity(flop, hand(a), hand(b)), 12);
    });
  }

  it("exploitability falls below 1% of the pot in a bounded number of iterations; values sum to the pot", () => {
    const spot = resolvePloSpot({
      board,
      pot: 10,
      stack: 20,
      ranges: { oop: randomRange(flop, 8, 21), ip: randomRange(flop, 8, 22) },
      betting: { bets: [1], raises: [1], raiseCap: 1 },
    });
    const solver = new PloSolver(spot);
    expect(solver.runouts.slotCounts).toEqual([1, 49, 49 * 48]);
    const first = solver.exploitability().exploitability;
    for (let i = 0; i < 10; i++) solver.iterate();
    const mid = solver.exploitability().exploitability;
    for (let i = 0; i < 40; i++) solver.iterate();
    const last = solver.exploitability();
    expect(mid).toBeLessThan(first);
    expect(last.exploitability).toBeLessThan(mid);
    expect(last.exploitability).toBeLessThan(1);
    expect(last.values[0] + last.values[1]).toBeCloseTo(10, 9);
    expect(last.br[0]).toBeGreaterThanOrEqual(last.values[0] - 1e-9);
    expect(last.br[1]).toBeGreaterThanOrEqual(last.values[1] - 1e-9);
    // a river decision's strategy is read with the deal of its turn and river
    const river = solver.tree.decisions.find((d) => d.street === 2)!;
    const [turnCard, riverCard] = parseCards("2cAh", 2)!;
    const sigma = solver.averageStrategy(river, riverDeal(turnCard!, riverCard!));
    expect(sigma).toHaveLength(river.actions.length * 8);
  });

  it("subsampling and lifting work on a flop: one part per range gives the exact solve", () => {
    const spot = resolvePloSpot({
      board,
      pot: 10,
      stack: 10,
      ranges: { oop: randomRange(flop, 6, 31), ip: randomRange(flop, 6, 32) },
      betting: POT_BETS,
    });
    const solve = { targetExploitability: 0.05, maxIterations: 400, checkEvery: 50 };
    const pooled = solveBySubsamples(spot, { chunk: 100, rounds: 1, seed: 1, solve, lift: true });
    const measured = new PloSolver(spot, { storage: false }).exploitability(pooled.lifted);
    expect(measured.exploitability).toBeCloseTo(pooled.worstSubgameExploitability, 6);
  });
});
