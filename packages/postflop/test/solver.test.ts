import { evaluateCards } from "@ranges/solver";
import { describe, expect, it } from "vitest";
import type { PostflopConfig } from "../src/config.js";
import { resolveConfig } from "../src/config.js";
import { type DcfrParams, DEFAULT_DCFR, describeDcfr, discountAt } from "../src/dcfr.js";
import { PostflopGame } from "../src/game.js";
import { showdownValues } from "../src/hand-loops.js";
import { comboName } from "../src/range.js";
import { type PostflopResult, solvePostflop } from "../src/solve.js";
import { benchTurn, flopSpot, turnSpot } from "./spots.js";

/** A river where OOP holds the nuts (3 combos of 88) or air (4 combos of 76s) and IP a bluff-catcher (QQ). */
const polarized = (bet: string): PostflopConfig => ({
  board: "AhKd8c5s2h",
  pot: 10,
  stack: 100,
  ranges: { oop: "88,76s", ip: "QQ" },
  sizes: { river: { oop: { bet }, ip: { bet: [], raise: [] } } },
  allInThreshold: 0,
  raiseCap: 0,
});

/** Frequency of action `label` at `node`, averaged over the hands matching `prefix` (weighted by reach). */
function frequency(result: PostflopResult, path: string[], label: string, hands: RegExp): number {
  const node = result.nodes.find((n) => n.path.join("/") === path.join("/"))!;
  const a = node.actions.findIndex((x) => x.label === label);
  const names = node.player === "oop" ? result.hands.oop : result.hands.ip;
  const reach = node.player === "oop" ? node.reach.oop : node.reach.ip;
  let num = 0;
  let den = 0;
  names.forEach((name, h) => {
    if (!hands.test(name)) return;
    num += reach[h]! * node.strategy[a]![h]!;
    den += reach[h]!;
  });
  return num / den;
}

describe("river: polarized bettor against a bluff-catcher", () => {
  for (const [bet, b] of [
    ["100%", 1],
    ["50%", 0.5],
  ] as const) {
    it(`bet ${bet}: bluffs are b/(1+2b) of the bets and the caller calls 1/(1+b)`, () => {
      const result = solvePostflop(polarized(bet), {
        threads: 1,
        maxIterations: 3000,
        targetExploitability: 0.01,
      });
      expect(result.exploitability).toBeLessThan(0.05);
      const label = `bet ${10 * b}`;
      const valueBet = frequency(result, [], label, /^8/);
      const bluff = frequency(result, [], label, /^7/);
      expect(valueBet).toBeGreaterThan(0.99);
      const bluffShare = (4 * bluff) / (4 * bluff + 3 * valueBet);
      expect(bluffShare).toBeCloseTo(b / (1 + 2 * b), 2);
      expect(frequency(result, [label], "call", /^Q/)).toBeCloseTo(1 / (1 + b), 2);
      // Game value: OOP wins the pot with its nuts and gets paid by the calls; air bluffs at zero EV.
      expect(result.ev.oop + result.ev.ip).toBeCloseTo(10, 6);
    });
  }
});

describe("rake", () => {
  it("takes rake from the pot: the root EVs sum to the pot less the expected rake, and the solve converges", () => {
    const raked = solvePostflop(
      { ...polarized("100%"), rake: { percent: 5, cap: 100 } },
      { threads: 1, maxIterations: 2000, targetExploitability: 0.02 },
    );
    expect(raked.exploitability).toBeLessThan(0.05);
    // Every hand reaches a showdown or a fold of a pot of at least 10: at least 0.5 is raked.
    const sum = raked.ev.oop + raked.ev.ip;
    expect(sum).toBeLessThan(9.5 + 1e-9);
    expect(sum).toBeGreaterThan(8.5);
  });
});

describe("card removal", () => {
  it("matches a hand-checked check-down (no bets)", () => {
    // Board Ah Kd 8c 5s 2h, pot 10. QcQd meets QhQs (tie) and JhJs (win); QcJs shares the Qc. JcJd beats QcJs,
    // loses to QhQs and ties JhJs.
    const result = solvePostflop(
      {
        board: "AhKd8c5s2h",
        pot: 10,
        stack: 50,
        ranges: { oop: "QcQd,JcJd", ip: "QcJs,QhQs,JhJs" },
        sizes: {},
      },
      { threads: 1, maxIterations: 2 },
    );
    const root = result.nodes[0]!;
    const byName = (names: readonly string[], values: readonly (number | null)[]) =>
      Object.fromEntries(names.map((n, i) => [n, values[i]]));
    expect(byName(result.hands.oop, root.equity.oop)).toEqual({ QdQc: 0.75, JdJc: 0.5 });
    expect(byName(result.hands.oop, root.ev.oop)).toEqual({ QdQc: 7.5, JdJc: 5 });
    expect(byName(result.hands.ip, root.equity.ip)).toEqual({ QcJs: 0, QsQh: 0.75, JsJh: 0.25 });
    expect(byName(result.hands.ip, root.ev.ip)).toEqual({ QcJs: 0, QsQh: 7.5, JsJh: 2.5 });
    expect(result.exploitability).toBe(0);
  });

  it("takes the showdown orders of the same game instead of evaluating, and refuses another game's", () => {
    const raw = {
      board: "9h8h7c2h",
      pot: 1,
      stack: 1,
      ranges: { oop: "22+,A2s+,KTo+,T9,65s", ip: "33+,A5s+,QJ,JT,T6s+,Jh4h" },
      sizes: {},
    };
    const config = resolveConfig(raw);
    const game = new PostflopGame(config);
    const copy = new PostflopGame(config, {
      showdowns: { sdKey: game.sdKey, sdLength: game.sdLength },
    });
    expect(copy.sdKey).toBe(game.sdKey);
    expect(copy.sdLength).toBe(game.sdLength);
    const other = new PostflopGame(resolveConfig({ ...raw, ranges: { oop: "22+", ip: "33+" } }));
    expect(
      () => new PostflopGame(config, { showdowns: { sdKey: other.sdKey, sdLength: other.sdLength } }),
    ).toThrow(/orders given are of another game/);
  });

  it("the O(n) showdown equals a direct sum over every pair of hands", () => {
    const game = new PostflopGame(
      resolveConfig({
        board: "9h8h7c2h",
        pot: 1,
        stack: 1,
        ranges: { oop: "22+,A2s+,KTo+,T9,65s", ip: "33+,A5s+,QJ,JT,T6s+,Jh4h" },
        sizes: {},
      }),
    );
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const t of [0, 1]) {
      const o = 1 - t;
      const [nt, no] = [game.n[t]!, game.n[o]!];
      const buf = new Float64Array(no + nt);
      for (let i = 0; i < no; i++) buf[i] = random() < 0.2 ? 0 : random();
      for (const river of [0, 13, 40]) {
        const card = game.remaining[river]!;
        const sums = new Float64Array(104);
        const b = game.boardIndex(card, -1);
        showdownValues(buf, 0, no, game, t, o, b, 3, 1.25, sums);
        const board = [...game.board, card];
        for (let h = 0; h < nt; h++) {
          const hc = [game.card1[t]![h]!, game.card2[t]![h]!];
          if (hc.some((c) => board.includes(c))) {
            expect(buf[no + h]).toBe(0);
            continue;
          }
          const mine = evaluateCards([...board, ...hc]);
          let expected = 0;
          for (let i = 0; i < no; i++) {
            const oc = [game.card1[o]![i]!, game.card2[o]![i]!];
            if (oc.some((c) => board.includes(c) || hc.includes(c))) continue;
            const theirs = evaluateCards([...board, ...oc]);
            const sign = mine > theirs ? 1 : mine < theirs ? -1 : 0;
            expected += buf[i]! * (3 * sign + 1.25);
          }
          expect(buf[no + h]).toBeCloseTo(expected, 9);
        }
      }
    }
  });
});

describe("DCFR schedule", () => {
  const paper = { alpha: 1.5, beta: 0, gamma: 2 };

  it("discounts by t^alpha / (t^alpha + 1), t^beta / (t^beta + 1) and (t / (t + 1))^gamma after t iterations", () => {
    expect(discountAt(1, paper)).toEqual({ positive: 0, negative: 0, strategy: 0 });
    const d = discountAt(5, paper);
    expect(d.positive).toBeCloseTo(8 / 9, 12);
    expect(d.negative).toBe(0.5);
    expect(d.strategy).toBeCloseTo((4 / 5) ** 2, 12);
    expect(DEFAULT_DCFR).toEqual({ alpha: 1.5, beta: 0, gamma: 3, delay: 1 });
    expect(discountAt(5).strategy).toBeCloseTo((4 / 5) ** 3, 12);
  });

  it("a delay of 1 discounts positive regrets as the paper does one iteration earlier: the first's dropped", () => {
    const delayed = { alpha: 1.5, beta: 0, gamma: 3, delay: 1 };
    expect(discountAt(2, delayed).positive).toBe(0);
    expect(discountAt(2, { ...delayed, delay: 0 }).positive).toBeCloseTo(0.5, 12);
    expect(discountAt(5, delayed).positive).toBeCloseTo(3 ** 1.5 / (3 ** 1.5 + 1), 12);
    // Negative regrets and strategy sums as without the delay.
    expect(discountAt(5, delayed).negative).toBe(0.5);
    expect(discountAt(5, delayed).strategy).toBeCloseTo((4 / 5) ** 3, 12);
    expect(describeDcfr(delayed)).toContain("positive regrets discounted 1 iteration late");
  });

  it("the default (gamma 3, delay 1) gets the benchmark's turn closer to equilibrium in 60 iterations than gamma 3 alone, and that than the paper's gamma 2", () => {
    const run = (dcfr: DcfrParams) =>
      solvePostflop(benchTurn, { threads: 1, maxIterations: 60, targetExploitability: 0, dcfr })
        .exploitability;
    const gamma3 = run({ alpha: 1.5, beta: 0, gamma: 3 });
    expect(run(DEFAULT_DCFR)).toBeLessThan(gamma3);
    expect(gamma3).toBeLessThan(run(paper));
  });
});

describe("solver", () => {
  it("exploitability falls as iterations grow", () => {
    const at = [10, 40, 160].map(
      (n) =>
        solvePostflop(turnSpot, { threads: 1, maxIterations: n, targetExploitability: 0 }).exploitability,
    );
    expect(at[0]).toBeGreaterThan(at[1]!);
    expect(at[1]).toBeGreaterThan(at[2]!);
    expect(at[2]).toBeLessThan(0.5);
  });

  it("is deterministic, and the same on one thread or two", () => {
    const run = (threads: number) =>
      solvePostflop(flopSpot, { threads, maxIterations: 4, checkEvery: 2, targetExploitability: 0 });
    const one = run(1);
    const again = run(1);
    const two = run(2);
    const strip = (r: PostflopResult) => ({ ...r, seconds: 0, threads: 0 });
    expect(strip(again)).toEqual(strip(one));
    expect(strip(two)).toEqual(strip(one));
    expect(one.nodes.length).toBe(4);
  });

  it("gives the same answer with and without suit isomorphism", () => {
    for (const spot of [turnSpot, flopSpot]) {
      const iterations = spot === turnSpot ? 60 : 6;
      const iso = solvePostflop(spot, { threads: 1, maxIterations: iterations, targetExploitability: 0 });
      const plain = solvePostflop(spot, {
        threads: 1,
        maxIterations: iterations,
        targetExploitability: 0,
        isomorphism: false,
      });
      expect(iso.tree.storageFloats).toBeLessThan(plain.tree.storageFloats);
      // Equal up to the rounding of float32 storage, summed in other orders.
      expect(Math.abs(iso.exploitability - plain.exploitability)).toBeLessThan(
        1e-4 * plain.exploitability + 1e-5,
      );
      expect(iso.ev.oop).toBeCloseTo(plain.ev.oop, 4);
      for (let i = 0; i < iso.nodes.length; i++) {
        const a = iso.nodes[i]!;
        const b = plain.nodes[i]!;
        for (let k = 0; k < a.strategy.length; k++) {
          for (let h = 0; h < a.strategy[k]!.length; h++)
            expect(a.strategy[k]![h]).toBeCloseTo(b.strategy[k]![h]!, 3);
        }
      }
    }
  });

  it("with 16-bit storage converges as with float32, and is the same on one thread or two", () => {
    const f32 = solvePostflop(turnSpot, { threads: 1, maxIterations: 160, targetExploitability: 0 });
    const c16 = solvePostflop(turnSpot, {
      threads: 1,
      maxIterations: 160,
      targetExploitability: 0,
      compressed: true,
    });
    expect(f32.exploitability).toBeLessThan(0.1);
    expect(Math.abs(c16.exploitability - f32.exploitability)).toBeLessThan(0.1 * f32.exploitability);
    expect(c16.ev.oop).toBeCloseTo(f32.ev.oop, 3);
    let most = 0;
    for (let i = 0; i < f32.nodes.length; i++) {
      const a = f32.nodes[i]!.strategy;
      const b = c16.nodes[i]!.strategy;
      for (let k = 0; k < a.length; k++)
        for (let h = 0; h < a[k]!.length; h++) most = Math.max(most, Math.abs(a[k]![h]! - b[k]![h]!));
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThan(0.03);
    const run = (threads: number) =>
      solvePostflop(flopSpot, {
        threads,
        maxIterations: 4,
        checkEvery: 2,
        targetExploitability: 0,
        compressed: true,
      });
    const strip = (r: PostflopResult) => ({ ...r, seconds: 0, threads: 0 });
    expect(strip(run(2))).toEqual(strip(run(1)));
  });

  it("16-bit storage takes half the bytes of float32 storage in the units", () => {
    const f32 = new PostflopGame(resolveConfig(flopSpot));
    const c16 = new PostflopGame(resolveConfig(flopSpot), { compressed: true });
    expect(c16.entryBytes).toBe(2);
    const bytes = (g: PostflopGame) => g.entryBytes * g.chunkSizes.reduce((a, b) => a + b, 0);
    // Two entries of scale per decision and an even count: a little more than half.
    expect(bytes(c16) / bytes(f32)).toBeGreaterThan(0.5);
    expect(bytes(c16) / bytes(f32)).toBeLessThan(0.53);
  });

  it("reports sane EVs and equities: each node's range EVs sum to the pot less what is still to be won", () => {
    const result = solvePostflop(turnSpot, { threads: 1, maxIterations: 30 });
    expect(result.ev.oop + result.ev.ip).toBeCloseTo(10, 6);
    const root = result.nodes[0]!;
    for (const side of ["oop", "ip"] as const) {
      for (const e of root.equity[side]) if (e !== null) expect(e).toBeGreaterThanOrEqual(0);
      for (const e of root.equity[side]) if (e !== null) expect(e).toBeLessThanOrEqual(1);
    }
    // AA against this OOP range on Qs Jh 2h 7h is far ahead.
    const aa = result.hands.ip.findIndex((n) => comboName(0) !== n && /^A.A./.test(n));
    expect(root.equity.ip[aa]!).toBeGreaterThan(0.6);
  });
});
