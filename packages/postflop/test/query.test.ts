import { describe, expect, it } from "vitest";
import { queryNode } from "../src/query.js";
import { createPostflopSolver, describe as describeResult } from "../src/solve.js";
import { flopSpot as spot } from "./spots.js";

const solved = (isomorphism: boolean) => {
  const solver = createPostflopSolver(spot, { threads: 1, isomorphism });
  for (let i = 0; i < 8; i++) solver.iterate();
  return solver;
};

/** The combo name with clubs and diamonds swapped (high card first, like `comboName`). */
const swapCD = (name: string) => {
  const swap = (s: string) => (s === "c" ? "d" : s === "d" ? "c" : s);
  const cards = [name.slice(0, 2), name.slice(2)].map((c) => c[0]! + swap(c[1]!));
  const order = "23456789TJQKA";
  const key = (c: string) => order.indexOf(c[0]!) * 4 + "cdhs".indexOf(c[1]!);
  cards.sort((a, b) => key(b) - key(a));
  return cards.join("");
};

describe("queryNode", () => {
  const iso = solved(true);
  const plain = solved(false);
  const result = describeResult(iso, spot, Number.NaN, Number.NaN, 0, 1);
  const hands = result.hands;

  it("reads the first street like the solve result", () => {
    for (const node of result.nodes) {
      const q = queryNode(iso, node.path);
      expect(q.strategy).toEqual(node.strategy);
      expect(q.ev).toEqual(node.ev);
      expect(q.equity).toEqual(node.equity);
    }
  });

  const paths = [
    ["check", "check", "Kc"],
    ["check", "check", "Kd"],
    ["bet 5", "call", "3d", "check", "bet 15"],
    ["check", "check", "Kd", "check", "check", "3c"],
    ["check", "check", "Kd", "check", "check", "3d", "bet 7.5"],
  ];
  // Equal up to float32 rounding, which regret matching amplifies a little in the first iterations.
  it.each(paths)("matches a solve without isomorphism at %s", (...path) => {
    const a = queryNode(iso, path);
    const b = queryNode(plain, path);
    expect(a.kind).toBe(b.kind);
    for (const side of ["oop", "ip"] as const) {
      a.ev[side].forEach((x, h) => {
        if (x === null) expect(b.ev[side][h]).toBeNull();
        else expect(x).toBeCloseTo(b.ev[side][h]!, 2);
      });
      a.equity[side].forEach((x, h) => {
        if (x !== null) expect(x).toBeCloseTo(b.equity[side][h]!, 2);
      });
      a.reach[side].forEach((x, h) => {
        expect(x).toBeCloseTo(b.reach[side][h]!, 2);
      });
    }
    a.strategy?.forEach((row, k) => {
      row.forEach((x, h) => {
        expect(x).toBeCloseTo(b.strategy![k]![h]!, 2);
      });
    });
  });

  it("gives a mirrored card the mirrored answer", () => {
    const c = queryNode(iso, ["check", "check", "Kc", "check"]);
    const d = queryNode(iso, ["check", "check", "Kd", "check"]);
    expect(c.player).toBe("ip");
    const index = new Map(hands.ip.map((n, h) => [n, h]));
    hands.ip.forEach((name, h) => {
      const m = index.get(swapCD(name))!;
      expect(d.strategy![0]![m]).toBe(c.strategy![0]![h]);
      expect(d.ev.ip[m]).toBe(c.ev.ip[h]);
    });
    expect(c.board).toEqual(["Qs", "Jh", "2h", "Kc"]);
  });

  it("rejects bad paths", () => {
    expect(() => queryNode(iso, ["raise 3"])).toThrow("expected check, bet 5");
    expect(() => queryNode(iso, ["check", "check", "Qs"])).toThrow("not on the board");
    expect(() => queryNode(iso, ["bet 5", "fold", "Kc"])).toThrow("over");
  });
});
