/**
 * Later streets on demand: the subgame cut after a line (pot, stack, ranges, who bet last), its solve against
 * the whole solve's own play of that street (the oracle: an equilibrium of the whole game played on from a
 * node is an equilibrium of the subgame there, so both give the same range values), the path grammar across
 * streets with its errors, and the worker-backed cache. The whole game is a turn spot and the subgames its
 * rivers, which keeps the oracle's solve to a second; the flop-to-turn-to-river chain on a real pack is
 * tested through the API (apps/api/test/postflop-on-demand.test.ts).
 */

import { parseCard, RangesError } from "@ranges/core";
import { afterAll, describe, expect, it } from "vitest";
import type { PostflopConfig } from "../src/config.js";
import { extractBoard, firstStreetNodes } from "../src/extract.js";
import { queryNode } from "../src/query.js";
import { comboName, parseRange } from "../src/range.js";
import { createPostflopSolver } from "../src/solve.js";
import { followPath, type StreetLayer } from "../src/street-path.js";
import { NoNextStreetError, nextStreetConfig, OnDemandSubgames, solveSubgame } from "../src/subgame.js";
import { parseBoard } from "../src/textures.js";

const spot: PostflopConfig = {
  board: "KsJh5d7c",
  pot: 10,
  stack: 40,
  ranges: { oop: "KK,JJ,55,AK,KQ,QTs,T9s,A5s", ip: "AA,KJ,QQ,TT,AQs,98s,76s" },
  sizes: {
    flop: { bet: "75%", raise: "2.5x" },
    turn: { bet: "75%", raise: "2.5x" },
    river: { bet: "75%", raise: [] },
  },
  allInThreshold: 1.5,
  forceAllInThreshold: 0.15,
};

const solver = createPostflopSolver(spot, { threads: 1 });
while (solver.iteration < 1000) {
  solver.iterate();
  if (solver.iteration % 20 === 0 && solver.exploitability().pctPot <= 0.05) break;
}
const nodes = firstStreetNodes(solver);
const data = extractBoard(solver);
const index = (path: string[]) => nodes.findIndex((n) => n.path.join("/") === path.join("/"));
const first: StreetLayer = {
  street: "turn",
  config: spot,
  nodes,
  data,
  before: [],
  dealt: [],
  solve: null,
};
const subgames = new OnDemandSubgames({ threads: 1, targetPct: 0.05, maxIterations: 2000 });
afterAll(() => subgames.close());
const cards = parseBoard(spot.board)!;
const identity = [0, 1, 2, 3];

/** The joint-weighted EV of a player's range at a node (the pot-share convention of `ev`). */
function rangeEv(
  reach: readonly number[],
  ev: readonly (number | null)[],
  totals: readonly number[],
): number {
  let s = 0;
  let w = 0;
  reach.forEach((r, h) => {
    if (r > 0 && ev[h] !== null) {
      s += r * totals[h]! * ev[h]!;
      w += r * totals[h]!;
    }
  });
  return s / w;
}

describe("nextStreetConfig", () => {
  const bet = index(["check", "bet 7.5"]);
  const card = parseCard("2s")!;
  const turn = nextStreetConfig(spot, nodes, data, { node: bet, action: 1 }, card);

  it("cuts the river after check, bet, call: pot, stack, who bet last, the sizes kept", () => {
    expect(nodes[bet]!.actions[1]!.label).toBe("call");
    expect(turn.board).toBe("KsJh5d7c2s");
    expect(turn.pot).toBe(25);
    expect(turn.stack).toBe(32.5);
    expect(turn.previousAggressor).toBe("ip");
    expect(turn.sizes).toEqual(spot.sizes);
    expect(turn.allInThreshold).toBe(1.5);
    const checked = nextStreetConfig(spot, nodes, data, { node: index(["check"]), action: 0 }, card);
    expect(checked.pot).toBe(10);
    expect(checked.stack).toBe(40);
    expect(checked.previousAggressor).toBeUndefined();
  });

  it("weighs each combo by its reach, times the caller's call frequency, without the dealt card", () => {
    const d = data.nodes[bet]!;
    const weights = [parseRange(turn.ranges.oop), parseRange(turn.ranges.ip)];
    for (let p = 0; p < 2; p++) {
      data.hands[p]!.forEach((combo, h) => {
        const expected = d.reach[p]![h]! * (p === 0 ? d.strategy[1]![h]! : 1);
        const blocked = comboName(combo).includes("2s");
        expect(weights[p]![combo]!).toBeCloseTo(blocked ? 0 : expected, 7);
      });
    }
  });

  it("refuses a fold, the river's end and an all-in call", () => {
    expect(() => nextStreetConfig(spot, nodes, data, { node: bet, action: 0 }, card)).toThrow(
      NoNextStreetError,
    );
    const river = turn;
    expect(() => nextStreetConfig(river, nodes, data, { node: bet, action: 1 }, parseCard("3c")!)).toThrow(
      /shown down/,
    );
    const jam = index(["bet 7.5", "allin 40"]);
    expect(jam).toBeGreaterThan(0);
    expect(() => nextStreetConfig(spot, nodes, data, { node: jam, action: 1 }, card)).toThrow(/all in/);
    // A bet, and OOP's first check, do not end the street.
    expect(() => nextStreetConfig(spot, nodes, data, { node: 0, action: 1 }, card)).toThrow(/does not end/);
    expect(() => nextStreetConfig(spot, nodes, data, { node: 0, action: 0 }, card)).toThrow(/does not end/);
  });
});

describe("a river solved on demand", () => {
  it.each([[["check", "check", "2s"]], [["check", "bet 7.5", "call", "Qh"]], [["bet 7.5", "call", "2d"]]])(
    "gives the whole turn solve's range values at %s",
    async (path) => {
      const followed = await followPath(first, path, false, identity, cards, subgames);
      expect(followed.path).toEqual({ kind: "node", node: 0 });
      const layer = followed.layer;
      expect(layer.street).toBe("river");
      expect(layer.before).toEqual(path);
      expect(layer.solve!.reachedTarget).toBe(true);
      const whole = queryNode(solver, path);
      const sub = layer.data.nodes[0]!;
      for (const [p, name] of [
        [0, "oop"],
        [1, "ip"],
      ] as const) {
        // Opponent mass each hand meets, from the whole solve's reach at the turn node.
        const opp = whole.reach[name === "oop" ? "ip" : "oop"];
        const hands = name === "oop" ? solver.game.combos[1] : solver.game.combos[0];
        const mine = solver.game.combos[p]!;
        const totals = Array.from(mine, (c) => {
          let t = 0;
          opp.forEach((r, k) => {
            if (!sharesCard(c, hands[k]!)) t += r;
          });
          return t;
        });
        const wholeEv = rangeEv(whole.reach[name], whole.ev[name], totals);
        // The subgame's hands are those of the whole game that reach the turn, in the same order.
        const byCombo = new Map(Array.from(mine, (c, h) => [c, h]));
        const subReach = new Array<number>(mine.length).fill(0);
        const subEv = new Array<number | null>(mine.length).fill(null);
        layer.data.hands[p]!.forEach((c, h) => {
          const k = byCombo.get(c)!;
          subReach[k] = sub.reach[p]![h]!;
          subEv[k] = Number.isFinite(sub.ev[p]![h]!) ? sub.ev[p]![h]! : null;
        });
        const subgameEv = rangeEv(subReach, subEv, totals);
        // Both within the two solves' exploitability: a few hundredths of a big blind on a 10-25bb pot.
        expect(Math.abs(subgameEv - wholeEv)).toBeLessThan(0.02 * layer.config.pot);
      }
    },
  );

  it("reads a river decision after the dealt card", async () => {
    const path = ["check", "check", "2s", "check"];
    const followed = await followPath(first, path, false, identity, cards, subgames);
    expect(followed.layer.street).toBe("river");
    expect(followed.layer.config.board).toBe("KsJh5d7c2s");
    expect(followed.layer.config.pot).toBe(10);
    expect(followed.layer.dealt).toEqual([parseCard("2s")]);
    expect(followed.layer.before).toEqual(path.slice(0, 3));
    expect(followed.path).toEqual({ kind: "node", node: 1 });
    expect(followed.layer.nodes[1]!.player).toBe("ip");
    const range = await followPath(first, [...path, "check"], true, identity, cards, subgames);
    expect(range.path).toEqual({ kind: "action", node: 1, action: 0 });
  });

  it("answers the same subgame from one solve, the same as a solve on this thread", async () => {
    const path = ["check", "check", "Ah"];
    const before = subgames.solves;
    const a = await followPath(first, path, false, identity, cards, subgames);
    const b = await followPath(first, path, false, identity, cards, subgames);
    expect(subgames.solves).toBe(before + 1);
    expect(b.layer.data).toBe(a.layer.data);
    const here = solveSubgame(a.layer.config, { threads: 1, targetPct: 0.05, maxIterations: 2000 });
    expect(here.provenance.iterations).toBe(a.layer.solve!.iterations);
    expect(Array.from(here.data.nodes[0]!.strategy[0]!)).toEqual(
      Array.from(a.layer.data.nodes[0]!.strategy[0]!),
    );
  });

  it("refuses a solve beyond its queue with 503, and serves what it holds", async () => {
    const one = new OnDemandSubgames({ threads: 1, maxQueue: 1 });
    try {
      const check = index(["check"]);
      const [a, b] = ["2s", "Qh"].map((c) =>
        nextStreetConfig(spot, nodes, data, { node: check, action: 0 }, parseCard(c)!),
      );
      const first = one.solve(a!);
      expect(() => one.solve(b!)).toThrow(expect.objectContaining({ code: "pack_unavailable", status: 503 }));
      expect(one.solve(a!)).toBe(first);
      await first;
      await one.solve(b!);
      expect(one.solves).toBe(2);
    } finally {
      one.close();
    }
  });

  it("serves an answer stopped by its cap once, marked, and solves it again when asked again", async () => {
    const capped = new OnDemandSubgames({ threads: 1, targetPct: 0.0001, maxIterations: 20 });
    try {
      const config = nextStreetConfig(
        spot,
        nodes,
        data,
        { node: index(["check"]), action: 0 },
        parseCard("Qh")!,
      );
      const first = await capped.solve(config);
      expect(first.provenance.reachedTarget).toBe(false);
      expect(first.provenance.iterations).toBe(20);
      expect(capped.has(config)).toBe(false);
      await capped.solve(config);
      expect(capped.solves).toBe(2);
    } finally {
      capped.close();
    }
  });

  const failing: [string, string[], RegExp][] = [
    ["an action where the river card goes", ["check", "check", "check"], /next step is the river card/],
    ["a card already on the board", ["check", "check", "Ks"], /already on the board/],
    ["a card already dealt", ["check", "check", "7c"], /already on the board/],
    ["a step after the river's end", ["check", "check", "2s", "check", "check", "3c"], /shown down/],
    ["a river action that is not there", ["check", "check", "2s", "raise"], /not an action/],
    ["a card after an all-in call", ["bet 7.5", "allin 40", "call", "2s"], /all in/],
    ["an action after an all-in call", ["bet 7.5", "allin 40", "call", "check"], /all in/],
    ["an action after the river's end", ["check", "check", "2s", "check", "check", "bet"], /shown down/],
    ["a card after a fold", ["bet 7.5", "fold", "2s"], /follows a fold/],
  ];
  it.each(failing)("refuses %s with the step and the way on", async (_, path, message) => {
    const attempt = followPath(first, path, false, identity, cards, subgames);
    await expect(attempt).rejects.toThrow(RangesError);
    await expect(followPath(first, path, false, identity, cards, subgames)).rejects.toThrow(message);
  });
});

function sharesCard(a: number, b: number): boolean {
  const x = comboName(a);
  const y = comboName(b);
  return [x.slice(0, 2), x.slice(2)].some((c) => c === y.slice(0, 2) || c === y.slice(2));
}
