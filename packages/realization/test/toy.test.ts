/**
 * The toy oracle (src/toy): a game small enough to solve whole, against which the grounded method is measured.
 */

import { describe, expect, it } from "vitest";
import { evaluateToy, flopPotValues, showdownSign, solveToy, toyGame } from "../src/toy/game.js";
import { checkedDownValues, flopRanges, groundedToy, ORACLE_TOY } from "../src/toy/grounded.js";

const game = toyGame(ORACLE_TOY);
const preflopOnly = (s: Map<number, Float64Array>) =>
  new Map([...s].filter(([id]) => !game.decisions[id]!.history.includes("flop")));

describe("the toy game", () => {
  it("deals every card combination once: 10 x 9 x 8 deals, card removal in the weights", () => {
    expect(game.dealCount).toBe(720);
    // Two cards of each rank: a pair of a's against an a leaves one a for the flop.
    expect(game.w3[(2 * 5 + 2) * 5 + 2]).toBe(0);
    expect(game.w3[(2 * 5 + 3) * 5 + 2]).toBe(2 * 2 * 1);
    expect(game.w2[2 * 5 + 2]).toBe(2 * 1 * 8);
    expect(game.decisions).toHaveLength(95);
    expect(game.flops.map((f) => f.history)).toEqual(["Limp_Check", "Limp_Raise_Call", "Raise_Call"]);
  });

  it("ranks a card paired with the flop first, then the higher card", () => {
    expect(showdownSign(0, 4, 0)).toBe(1);
    expect(showdownSign(0, 4, 2)).toBe(-1);
    expect(showdownSign(3, 3, 1)).toBe(0);
  });

  it.each([
    [{ ranks: 1, copies: 4 }, /two ranks/],
    [{ open: 12 }, /raise/],
    [{ open: 1 }, /raise/],
  ])("refuses %j", (change, message) => {
    expect(() => toyGame({ ranks: 5, copies: 2, stack: 10, sb: 0.5, open: 3, betPot: 1, ...change })).toThrow(
      message,
    );
  });
});

describe("CFR+ on the whole toy game", () => {
  const whole = solveToy(game.root, game, { iterations: 3000 });
  const e = evaluateToy(game, whole.average);

  it("converges: exploitability under 1e-4 bb per hand, zero-sum values", () => {
    expect(e.exploitability).toBeLessThan(1e-4);
    expect(e.exploitability).toBeGreaterThanOrEqual(0);
    expect(e.value[0] + e.value[1]).toBeCloseTo(0, 12);
    // The small blind, in position after the flop, wins about 0.026 bb a hand.
    expect(e.value[0]).toBeGreaterThan(0.02);
    expect(e.value[0]).toBeLessThan(0.035);
  });

  it("is far from an equilibrium after a few iterations (the measure can fail)", () => {
    const early = solveToy(game.root, game, { iterations: 5 });
    expect(evaluateToy(game, early.average).exploitability).toBeGreaterThan(0.05);
  });

  it("a flop pot's values reproduce the whole game: the grounded preflop game has its value", () => {
    const values = new Map(game.flops.map((f) => [f.id, flopPotValues(game, f, whole.average)]));
    const grounded = evaluateToy(game, preflopOnly(whole.average), values);
    expect(grounded.value[0]).toBeCloseTo(e.value[0], 12);
    // The whole game's preflop play is an equilibrium of the grounded game too.
    expect(grounded.exploitability).toBeLessThan(1e-4);
  });

  it("but another equilibrium of the grounded game is exploitable in the whole game", () => {
    // The trap of grounding: the values assume the flop is played as solved for the ranges that reached it;
    // preflop play that brings other ranges meets flop play that no longer answers them.
    const values = new Map(game.flops.map((f) => [f.id, flopPotValues(game, f, whole.average)]));
    const again = solveToy(game.root, game, { iterations: 3000, flopValues: values });
    expect(evaluateToy(game, again.average, values).exploitability).toBeLessThan(2e-4);
    const combined = new Map([...whole.average, ...again.average]);
    expect(evaluateToy(game, combined).exploitability).toBeGreaterThan(0.1);
  });

  it("checked-down flop values are the pot's all-in equity, and the ranges reaching a pot are products", () => {
    const v = checkedDownValues(game).get(game.flops[2]!.id)!;
    // 4 against 0 in a 6 bb pot: 0 wins only by pairing (one 0 left of 8 cards), a split never happens.
    expect(v[0][4 * 5 + 0]).toBeCloseTo(3 * (7 / 8) - 3 * (1 / 8), 12);
    expect(v[1][0 * 5 + 4]).toBeCloseTo(-v[0][4 * 5 + 0]!, 12);
    const r = flopRanges(game, whole.average).get(game.flops[2]!.id)!;
    const raise = whole.average.get(game.root.kind === "decision" ? game.root.id : -1)!;
    const call = whole.average.get(game.decisions.find((d) => d.history === "Raise")!.id)!;
    for (let a = 0; a < 5; a++) {
      expect(r[0]![a]).toBeCloseTo(raise[2 * 5 + a]!, 12);
      expect(r[1]![a]).toBeCloseTo(call[1 * 5 + a]!, 12);
    }
  });
});

describe("the grounded iteration on the toy", () => {
  const whole = evaluateToy(game, solveToy(game.root, game, { iterations: 3000 }).average);

  it("solving preflop and flop afresh each round does not converge", () => {
    const g = groundedToy(game, { rounds: 8, preflopIterations: 1000, flopIterations: 1000, floor: 0 });
    for (const r of g.rounds) expect(r.whole.exploitability).toBeGreaterThan(0.3);
    expect(Math.min(...g.rounds.map((r) => r.movement))).toBeGreaterThan(0.5);
  });

  it("blending the flop ranges with the last round's damps the movement but does not converge either", () => {
    const base = { rounds: 12, preflopIterations: 1000, flopIterations: 1000, floor: 0 };
    const afresh = groundedToy(game, base).rounds;
    const blended = groundedToy(game, { ...base, rangeBlend: 0.5 }).rounds;
    // The first round has nothing to blend with: the same solve.
    expect(blended[0]!.movement).toBe(afresh[0]!.movement);
    const mean = (rs: readonly { movement: number }[]) =>
      rs.slice(2).reduce((s, r) => s + r.movement, 0) / (rs.length - 2);
    expect(mean(blended)).toBeLessThan(0.75 * mean(afresh));
    for (const r of blended) expect(r.whole.exploitability).toBeGreaterThan(0.3);
  });

  it("averaging the terminals settles the values but not the play: small movement, exploitable profile", () => {
    const g = groundedToy(game, {
      rounds: 30,
      preflopIterations: 1000,
      flopIterations: 1000,
      floor: 0.005,
      update: "average",
    });
    const last = g.rounds.at(-1)!;
    expect(last.movement).toBeLessThan(0.03);
    expect(last.whole.exploitability).toBeGreaterThan(0.03);
  });

  it("short rounds that go on from the last ones converge to the whole game's equilibrium", () => {
    const g = groundedToy(game, {
      rounds: 200,
      preflopIterations: 10,
      flopIterations: 10,
      floor: 0,
      warm: true,
    });
    const last = g.rounds.at(-1)!;
    expect(last.whole.exploitability).toBeLessThan(0.03);
    expect(last.whole.exploitability).toBeLessThan(g.rounds[19]!.whole.exploitability);
    expect(last.whole.value[0]).toBeCloseTo(whole.value[0], 2);
  });
});
