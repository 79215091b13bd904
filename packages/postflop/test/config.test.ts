import { describe, expect, it } from "vitest";
import { type PostflopConfig, PostflopConfigError, resolveConfig } from "../src/config.js";
import { ActionTree, CHANCE, DECISION, FOLD, SHOWDOWN, type TreeNode } from "../src/tree.js";

const bench = (overrides: Partial<PostflopConfig> = {}): PostflopConfig => ({
  board: "QsJh2h",
  pot: 5.5,
  stack: 97.5,
  ranges: { oop: "99-22,AJs-A2s,KQo-K8o", ip: "22+,A2s+,A8o+" },
  sizes: {
    flop: { bet: "75%", raise: "2.5x" },
    turn: { bet: "75%", raise: "2.5x" },
    river: { bet: "75%", raise: "2.5x" },
  },
  allInThreshold: 1.5,
  forceAllInThreshold: 0.15,
  ...overrides,
});

describe("resolveConfig", () => {
  const failing: [string, unknown, string][] = [
    ["not an object", 3, "config"],
    ["unknown key", { ...bench(), bets: {} }, 'unknown key "bets"'],
    ["short board", bench({ board: "QsJh" }), "board"],
    ["repeated card", bench({ board: "QsQs2h" }), "board"],
    ["six cards", bench({ board: "QsJh2h3c4d5s" }), "board"],
    ["zero pot", bench({ pot: 0 }), "pot"],
    ["negative stack", bench({ stack: -1 }), "stack"],
    ["string pot", { ...bench(), pot: "5" }, "pot"],
    ["bad range", bench({ ranges: { oop: "AKx", ip: "AA" } }), "ranges.oop"],
    ["range all on board", bench({ ranges: { oop: "QsJh", ip: "AA" } }), "ranges.oop"],
    ["missing ip range", { ...bench(), ranges: { oop: "AA" } }, "ranges.ip"],
    ["multiple bet", bench({ sizes: { flop: { bet: "2x" } } }), "sizes.flop.bet[0]"],
    ["1x raise", bench({ sizes: { flop: { bet: "50%", raise: "1x" } } }), "sizes.flop.raise[0]"],
    ["no unit", bench({ sizes: { turn: { bet: "75" } } }), "sizes.turn.bet[0]"],
    ["zero percent", bench({ sizes: { river: { bet: "0%" } } }), "sizes.river.bet[0]"],
    ["huge percent", bench({ sizes: { river: { bet: "20000%" } } }), "sizes.river.bet[0]"],
    ["number size", bench({ sizes: { river: { bet: [75] as unknown as string[] } } }), "sizes.river.bet[0]"],
    ["unknown street", { ...bench(), sizes: { preflop: {} } }, 'unknown key "preflop"'],
    ["unknown player key", bench({ sizes: { flop: { oop: { check: "1" } as never } } }), "sizes.flop.oop"],
    ["bad player sizes", bench({ sizes: { flop: { ip: [] as never } } }), "sizes.flop.ip"],
    ["donk not boolean", { ...bench(), donkBets: "yes" }, "donkBets"],
    ["negative threshold", bench({ allInThreshold: -1 }), "allInThreshold"],
    ["force threshold above 1", bench({ forceAllInThreshold: 2 }), "forceAllInThreshold"],
    ["fractional raise cap", bench({ raiseCap: 1.5 }), "raiseCap"],
    ["rake 100%", bench({ rake: { percent: 100, cap: 1 } }), "rake.percent"],
    ["rake without cap", { ...bench(), rake: { percent: 5 } }, "rake.cap"],
    ["previousAggressor on a flop", bench({ previousAggressor: "ip" }), "previousAggressor"],
    [
      "previousAggressor unknown",
      { ...bench(), board: "QsJh2h7c", previousAggressor: "btn" },
      "previousAggressor",
    ],
    [
      "previousAggressor number",
      { ...bench(), board: "QsJh2h7c", previousAggressor: 1 },
      "previousAggressor",
    ],
  ];
  it.each(failing)("rejects %s", (_, raw, where) => {
    expect(() => resolveConfig(raw)).toThrow(PostflopConfigError);
    expect(() => resolveConfig(raw)).toThrow(where);
  });

  it("fills in defaults and decodes sizes", () => {
    const r = resolveConfig({
      board: "Qs Jh 2h",
      pot: 10,
      stack: 100,
      ranges: { oop: "AA", ip: "KK" },
      sizes: {},
    });
    expect(r.board).toHaveLength(3);
    expect(r.allInThreshold).toBe(1.5);
    expect(r.forceAllInThreshold).toBe(0.15);
    expect(r.raiseCap).toBe(Number.POSITIVE_INFINITY);
    expect(r.donkBets).toBe(false);
    const s = resolveConfig(
      bench({ sizes: { flop: { bet: "33%, 75%", raise: ["2.5x", "allin"], ip: { bet: [] } } } }),
    );
    expect(s.sizes[0]![0].bet).toEqual([
      { kind: "pot", fraction: 0.33 },
      { kind: "pot", fraction: 0.75 },
    ]);
    expect(s.sizes[0]![0].raise).toEqual([{ kind: "multiple", factor: 2.5 }, { kind: "allin" }]);
    expect(s.sizes[0]![1].bet).toEqual([]);
    expect(s.sizes[0]![1].raise).toHaveLength(2);
  });
});

const labels = (tree: ActionTree, path: string[]) => {
  const node = tree.nodes.find((n) => n.kind === DECISION && n.path.join("/") === path.join("/"));
  return node?.actions.map((a) => a.label);
};

describe("ActionTree", () => {
  const tree = new ActionTree(resolveConfig(bench()));

  it("builds the benchmark flop: 75% bets, 2.5x raises, all-in within 1.5 pots", () => {
    expect(labels(tree, [])).toEqual(["check", "bet 4.13"]);
    expect(labels(tree, ["check"])).toEqual(["check", "bet 4.13"]);
    expect(labels(tree, ["bet 4.13"])).toEqual(["fold", "call", "raise 10.31"]);
    expect(labels(tree, ["bet 4.13", "raise 10.31", "raise 25.78"])).toEqual([
      "fold",
      "call",
      "raise 64.45",
      "allin 97.5",
    ]);
    expect(labels(tree, ["bet 4.13", "raise 10.31", "raise 25.78", "raise 64.45"])).toEqual([
      "fold",
      "call",
      "allin 97.5",
    ]);
  });

  it("keeps chips: every terminal shares the pot (less rake) and nobody puts in more than the stack", () => {
    for (const rake of [
      { percent: 0, cap: 0 },
      { percent: 5, cap: 3 },
    ]) {
      const t = new ActionTree(resolveConfig(bench({ rake })));
      let terminals = 0;
      for (const node of t.nodes) {
        expect(node.contrib[0]).toBeLessThanOrEqual(97.5 + 1e-9);
        expect(node.contrib[1]).toBeLessThanOrEqual(97.5 + 1e-9);
        if (node.kind !== FOLD && node.kind !== SHOWDOWN) continue;
        terminals++;
        const matched =
          node.kind === FOLD ? 2 * node.contrib[node.player]! : node.contrib[0] + node.contrib[1];
        const pot = 5.5 + matched;
        const taken = Math.min((pot * rake.percent) / 100, rake.cap);
        const outcomes: (1 | 0 | -1)[] = node.kind === FOLD ? [1] : [1, 0, -1];
        for (const outcome of outcomes) {
          const [a, b] = t.payoffs(node, outcome, rake);
          expect(a + b).toBeCloseTo(5.5 - taken, 9);
          expect(a).toBeGreaterThanOrEqual(-97.5 - 1e-9);
          expect(b).toBeGreaterThanOrEqual(-97.5 - 1e-9);
        }
        if (node.kind === SHOWDOWN) expect(node.contrib[0]).toBeCloseTo(node.contrib[1], 12);
        if (node.kind === FOLD)
          expect(node.contrib[node.player]!).toBeLessThan(node.contrib[1 - node.player]!);
      }
      expect(terminals).toBeGreaterThan(100);
    }
  });

  it("deals the rest of the board without decisions after an all-in call", () => {
    const allIns = tree.nodes.filter((n) => n.kind === CHANCE && n.allIn);
    expect(allIns.length).toBeGreaterThan(0);
    const below = (n: TreeNode): TreeNode[] => [n, ...n.children.flatMap(below)];
    for (const chance of allIns) {
      expect(chance.contrib[0]).toBeCloseTo(97.5, 9);
      for (const n of below(chance)) expect(n.kind).not.toBe(DECISION);
    }
  });

  it("forces all-in when the stack behind after a call is at most the threshold", () => {
    // Pot 10, stack 12: a pot bet leaves 2 behind against a pot of 30 (0.067 pots): all-in.
    const t = new ActionTree(
      resolveConfig({
        ...bench(),
        pot: 10,
        stack: 12,
        sizes: { river: { bet: "100%" } },
        board: "QsJh2h3c4d",
      }),
    );
    expect(labels(t, [])).toEqual(["check", "allin 12"]);
    const off = new ActionTree(
      resolveConfig({
        ...bench(),
        pot: 10,
        stack: 12,
        sizes: { river: { bet: "100%" } },
        board: "QsJh2h3c4d",
        forceAllInThreshold: 0,
        allInThreshold: 0,
      }),
    );
    expect(labels(off, [])).toEqual(["check", "bet 10"]);
  });

  it("applies the raise cap and the donk rule", () => {
    const capped = new ActionTree(resolveConfig(bench({ raiseCap: 1 })));
    expect(labels(capped, ["bet 4.13", "raise 10.31"])).toEqual(["fold", "call"]);
    // IP bet the flop and OOP called: without donk bets OOP only checks the turn.
    expect(labels(tree, ["check", "bet 4.13", "call", "deal"])).toEqual(["check"]);
    // OOP bet and IP called: OOP bets the turn as usual.
    expect(labels(tree, ["bet 4.13", "call", "deal"])).toEqual(["check", "bet 10.31"]);
    const donk = new ActionTree(
      resolveConfig(
        bench({ donkBets: true, sizes: { ...bench().sizes, turn: { bet: "75%", donk: "33%" } } }),
      ),
    );
    expect(labels(donk, ["check", "bet 4.13", "call", "deal"])).toEqual(["check", "bet 4.54"]);
  });

  it("keeps the donk rule on a turn spot's first street through previousAggressor", () => {
    // The turn after check, bet 4.13, call on the flop: pot 13.76, 93.37 behind.
    const turn = (previousAggressor?: "oop" | "ip" | null, donkBets = false) =>
      new ActionTree(
        resolveConfig(
          bench({
            board: "QsJh2h7c",
            pot: 13.76,
            stack: 93.37,
            donkBets,
            ...(previousAggressor === undefined ? {} : { previousAggressor }),
            sizes: { ...bench().sizes, turn: { bet: "75%", raise: "2.5x", donk: "33%" } },
          }),
        ),
      );
    expect(labels(turn("ip"), [])).toEqual(["check"]);
    expect(labels(turn("ip", true), [])).toEqual(["check", "bet 4.54"]);
    expect(labels(turn("oop"), [])).toEqual(["check", "bet 10.32"]);
    expect(labels(turn(null), [])).toEqual(["check", "bet 10.32"]);
    expect(labels(turn(), [])).toEqual(["check", "bet 10.32"]);
    // Only the spot's first street: after the turn checks through, OOP bets the river.
    expect(labels(turn("ip"), ["check", "check", "deal"])).toEqual(["check", "bet 10.32"]);
  });
});
