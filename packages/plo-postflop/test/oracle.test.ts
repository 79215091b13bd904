import { parseCards } from "@ranges/core";
import { evaluateOmaha } from "@ranges/solver";
import { describe, expect, it } from "vitest";
import { type DecisionNode, solvePloSpot } from "../src/index.js";

// The polarized bettor against a bluff catcher on a river: OOP holds the nuts (quad kings) or air, IP one
// bluff catcher (aces up) that beats the air and loses to the nuts. No hand shares a card with the other
// player's, so every pair of hands meets and the game is the textbook one. With pot P and a bet B = f P (the
// only bet; no raises), at equilibrium OOP bets every nut hand and bluffs air so that bluffs / value =
// B / (P + B); IP calls P / (P + B); nuts win P + B x call, air 0.
const board = "KhKd7c4s2h";
const nuts = "KcKs3d3c";
const air = ["6d5d8c9s", "Ts9d8s6h"];
const catcher = "AsAhQdJc";

describe("polarized river oracle", () => {
  it("the hands rank nuts > bluff catcher > air on the board", () => {
    const b = parseCards(board, 5)!;
    const v = (h: string) => evaluateOmaha(parseCards(h, 4)!, b);
    expect(v(nuts)).toBeGreaterThan(v(catcher));
    for (const a of air) expect(v(catcher)).toBeGreaterThan(v(a));
  });

  for (const f of [1, 0.5]) {
    it(`matches the closed form for a bet of ${f} pot`, () => {
      const pot = 10;
      const r = solvePloSpot(
        {
          board,
          pot,
          stack: 100,
          ranges: { oop: [nuts, ...air].join(","), ip: catcher },
          betting: { bets: [f], raises: [], raiseCap: 0 },
        },
        { targetExploitability: 0.01, maxIterations: 20_000 },
      );
      expect(r.exploitability).toBeLessThanOrEqual(0.01);
      const s = r.solver;
      const root = s.tree.root as DecisionNode;
      expect(root.actions).toEqual(["check", `bet ${f * pot}`]);
      const sigma = s.averageStrategy(root, 0);
      // combos in the order given: nuts, air, air (3 hands, layout [action * 3 + hand])
      const betNuts = sigma[3]!;
      const bluffs = sigma[4]! + sigma[5]!;
      const B = f * pot;
      expect(betNuts).toBeGreaterThan(0.999);
      expect(bluffs / betNuts).toBeCloseTo(B / (pot + B), 2);
      const facing = root.children[1] as DecisionNode;
      expect(facing.actions).toEqual(["fold", "call"]);
      expect(s.averageStrategy(facing, 0)[1]!).toBeCloseTo(pot / (pot + B), 2);
      const [oop, ip] = r.combos;
      expect(oop[0]!.ev).toBeCloseTo(pot + (B * pot) / (pot + B), 1);
      expect(Math.abs(oop[1]!.ev)).toBeLessThan(0.02);
      expect(oop[1]!.equity).toBe(0);
      expect(oop[0]!.equity).toBe(1);
      expect(ip[0]!.equity).toBeCloseTo(2 / 3, 12);
      // zero-sum: the two values add up to the pot
      expect(r.values[0] + r.values[1]).toBeCloseTo(pot, 9);
      expect(r.values[0]).toBeCloseTo((pot + (B * pot) / (pot + B)) / 3, 1);
    });
  }
});
