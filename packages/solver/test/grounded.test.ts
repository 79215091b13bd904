import { describe, expect, it } from "vitest";
import {
  buildEngineGame,
  buildGroundedMatrices,
  buildPreflopTree,
  CLASS_EFFECT_FEATURES,
  type DuelKind,
  loadHeadsUpEquity,
  loadTreeConfig,
  solvePreflop,
  type TreeConfig,
} from "../src/index.js";
import { treeConfigPath } from "../src/solve/files.js";
import { threeHanded } from "./toys.js";

describe("duel kinds carry the initiative", () => {
  it("names who raised last in every flop duel of nl/v2 20bb, and nobody in a limped pot", () => {
    const kinds: DuelKind[] = [];
    buildPreflopTree(loadTreeConfig(treeConfigPath("nl/v2")), 20, (k) => {
      kinds.push(k);
      return 0;
    });
    const flop = kinds.filter((k) => !k.allIn);
    expect(flop.some((k) => k.initiative === "row")).toBe(true);
    expect(flop.some((k) => k.initiative === "col")).toBe(true);
    expect(flop.filter((k) => k.raises === 0).every((k) => k.initiative === "none")).toBe(true);
    expect(flop.some((k) => k.raises === 0)).toBe(true);
  });
});

describe("buildGroundedMatrices", () => {
  const t = loadHeadsUpEquity();
  const zero = { theta: new Float64Array(13 * 8), gamma: new Float64Array(4) };
  it("is the all-in equity when every parameter is 0", () => {
    const g = buildGroundedMatrices(zero, t.eq, t.w);
    const m =
      g.matrices[g.indexForKind({ allIn: false, spr: 5, rowIsIp: true, initiative: "row", raises: 1 })]!;
    for (let i = 0; i < 169 * 169; i += 97) expect(m[i]).toBeCloseTo(t.w[i]! * t.eq[i]!, 12);
  });

  it("adds kappa(2e - 1) to every share, and the two players' shares still make the whole pot", () => {
    const spr = 3;
    const gamma = new Float64Array([0, 0, 0.5, 0.25]);
    const kappa = 0.5 + 0.25 * Math.log(spr);
    const g = buildGroundedMatrices({ theta: new Float64Array(13 * 8), gamma }, t.eq, t.w);
    const kind = { allIn: false, spr, rowIsIp: true, initiative: "row", raises: 1 } as const;
    const ip = g.matrices[g.indexForKind(kind)]!;
    const oop = g.matrices[g.indexForKind({ ...kind, rowIsIp: false, initiative: "col" })]!;
    for (let a = 0; a < 169; a += 7)
      for (let b = 0; b < 169; b += 11) {
        const i = a * 169 + b;
        const e = t.eq[i]!;
        expect(ip[i]).toBeCloseTo(t.w[i]! * (e + kappa * (2 * e - 1)), 12);
        expect(ip[i]! + oop[b * 169 + a]!).toBeCloseTo(t.w[i]!, 9);
      }
  });

  it("picks the matrix by position, initiative and the nearest SPR point", () => {
    const theta = new Float64Array(13 * 8);
    theta[2] = 0.2; // the constant hand feature times "aggressor": the last raiser plays better
    const g = buildGroundedMatrices({ theta, gamma: new Float64Array(4) }, t.eq, t.w);
    const at = (k: Omit<DuelKind, "allIn">) => g.matrices[g.indexForKind({ allIn: false, ...k })]!;
    const aa = 0;
    const kk = 14;
    const raiser = at({ spr: 4, rowIsIp: true, initiative: "row", raises: 1 })[aa * 169 + kk]!;
    const caller = at({ spr: 4, rowIsIp: true, initiative: "col", raises: 1 })[aa * 169 + kk]!;
    expect(raiser).toBeGreaterThan(caller);
    expect(at({ spr: 4, rowIsIp: true, initiative: "none", raises: 0 })).toBe(
      at({ spr: 3.2, rowIsIp: true, initiative: "none", raises: 0 }),
    );
    expect(at({ spr: 4, rowIsIp: true, initiative: "none", raises: 0 })).not.toBe(
      at({ spr: 4, rowIsIp: true, initiative: "none", raises: 2 }),
    );
    expect(g.indexForKind({ allIn: true, spr: 0, rowIsIp: false, initiative: "row", raises: 3 })).toBe(0);
  });

  it("reads the class effects of a 3-bet or 4-bet pot in pots of two raises or more", () => {
    const theta = new Float64Array(13 * 8);
    const C = CLASS_EFFECT_FEATURES.length;
    const reraised = CLASS_EFFECT_FEATURES.indexOf("reraised");
    const classEffects = new Float64Array(169 * C);
    const aa = 0;
    const kk = 14;
    classEffects[aa * C + reraised] = 0.3; // aces gain 0.3 (times q) in 3-bet and 4-bet pots only
    const g = buildGroundedMatrices({ theta, gamma: new Float64Array(4), classEffects }, t.eq, t.w);
    const share = (raises: number) =>
      g.matrices[g.indexForKind({ allIn: false, spr: 6, rowIsIp: true, initiative: "row", raises })]![
        aa * 169 + kk
      ]! / t.w[aa * 169 + kk]!;
    const e = t.eq[aa * 169 + kk]!;
    expect(share(1)).toBeCloseTo(e, 12);
    expect(share(2)).toBeCloseTo(e + 4 * e * (1 - e) * 0.3, 12);
    expect(share(3)).toBe(share(2));
  });
});

describe("multiway flop pots under the grounded model", () => {
  const t = loadHeadsUpEquity();
  // A strong edge for the last raiser pushes heads-up shares outside [0, 1].
  const theta = new Float64Array(13 * 8);
  theta[2] = 0.8;
  theta[11 * 8 + 2] = 2;
  const kind = { allIn: false, spr: 4, rowIsIp: true, initiative: "row", raises: 1 } as const;

  it("clip the heads-up shares to [0, 1] (complements kept), in a pair built once", () => {
    const g = buildGroundedMatrices({ theta, gamma: new Float64Array(4) }, t.eq, t.w);
    const hu = g.matrices[g.indexForKind(kind)]!;
    const huOop = g.matrices[g.indexForKind({ ...kind, rowIsIp: false, initiative: "col" })]!;
    const three = g.indexForKind({ ...kind, players: 3 });
    expect(g.indexForKind({ ...kind, players: 4 })).toBe(three);
    expect(g.matrices).toHaveLength(1 + 7 * 4 * 2 * 2 + 2);
    const mw = g.matrices[three]!;
    const mwOop = g.matrices[g.indexForKind({ ...kind, rowIsIp: false, initiative: "col", players: 3 })]!;
    let outside = 0;
    for (let a = 0; a < 169; a++)
      for (let b = 0; b < 169; b++) {
        const wt = t.w[a * 169 + b]!;
        if (wt === 0) continue;
        const share = hu[a * 169 + b]! / wt;
        if (share > 1 + 1e-9 || share < -1e-9) outside++;
        expect(mw[a * 169 + b]! / wt).toBeCloseTo(Math.min(1, Math.max(0, share)), 12);
        expect(mw[a * 169 + b]! + mwOop[b * 169 + a]!).toBeCloseTo(wt, 9);
        expect(hu[a * 169 + b]! + huOop[b * 169 + a]!).toBeCloseTo(wt, 9);
      }
    expect(outside).toBeGreaterThan(1000);
  });

  it("are the pots of three or more players that the tree builds", () => {
    const kinds: DuelKind[] = [];
    buildPreflopTree(threeHanded, 25, (k) => {
      kinds.push(k);
      return 0;
    });
    expect(kinds.some((k) => !k.allIn && k.players === 3)).toBe(true);
    expect(kinds.some((k) => !k.allIn && k.players === 2)).toBe(true);
    const grounded = {
      ...threeHanded,
      model: { ...threeHanded.model, grounded: { theta: Array.from(theta), gamma: [0, 0, 0, 0] } },
    };
    // The three-handed toy has multiway flop pots, so its grounded game holds clipped pairs too.
    expect(buildEngineGame(grounded, 25, t).game.matrices.length).toBeGreaterThan(1 + 7 * 4 * 2);
  });
});

describe("a tree config's model.grounded", () => {
  const headsUp: TreeConfig = {
    ...threeHanded,
    seats: ["SB", "BB"],
    description: "heads-up open, 3-bet, call toy",
    limpSeats: [],
  };
  const grounded = (ipEdge: number): TreeConfig => {
    const theta = new Array<number>(13 * 8).fill(0);
    theta[1] = ipEdge; // the constant hand feature times "in position"
    return { ...headsUp, model: { ...headsUp.model, grounded: { theta, gamma: [0, 0, 0, 0] } } };
  };
  const solve = (config: TreeConfig) =>
    solvePreflop({ config, stack: 25, maxIterations: 30, targetPctPot: 0.01, threads: 1, now: () => 0 });

  it("shares the flop pots: an in-position edge moves chips to the SB, who plays in position", () => {
    const flat = solve(grounded(0)).seats.find((s) => s.seat === "SB")!.value;
    const edge = solve(grounded(0.3)).seats.find((s) => s.seat === "SB")!.value;
    expect(edge).toBeGreaterThan(flat + 0.05);
  });

  it("replaces the contest's matrices: all-in, then two per SPR point, initiative and raise level", () => {
    const t = loadHeadsUpEquity();
    expect(buildEngineGame(grounded(0), 25, t).game.matrices).toHaveLength(1 + 7 * 4 * 2 * 2);
    expect(buildEngineGame(headsUp, 25, t).game.matrices).toHaveLength(1 + 4 * 2);
  });

  it("refuses parameters of the wrong size before it solves", () => {
    const bad = {
      ...headsUp,
      model: { ...headsUp.model, grounded: { theta: [1, 2, 3], gamma: [0, 0, 0, 0] } },
    };
    expect(() => buildEngineGame(bad, 25, loadHeadsUpEquity())).toThrow(
      /model\.grounded\.theta: expected 104 finite numbers, got 3/,
    );
    // Files fitted before the kappa terms and the role effects (two gamma terms, 169 x 4 class effects), and
    // before the raise level's effects (169 x 6).
    const theta = new Array<number>(13 * 8).fill(0);
    const old = { ...headsUp, model: { ...headsUp.model, grounded: { theta, gamma: [0, 0] } } };
    expect(() => buildEngineGame(old, 25, loadHeadsUpEquity())).toThrow(
      /model\.grounded\.gamma: expected 4 finite numbers, got 2/,
    );
    const effects = { theta, gamma: [0, 0, 0, 0], classEffects: new Array<number>(169 * 4).fill(0) };
    const oldEffects = { ...headsUp, model: { ...headsUp.model, grounded: effects } };
    expect(() => buildEngineGame(oldEffects, 25, loadHeadsUpEquity())).toThrow(
      /model\.grounded\.classEffects: expected 1183 finite numbers, got 676/,
    );
    const roles = { ...effects, classEffects: new Array<number>(169 * 6).fill(0) };
    const oldRoles = { ...headsUp, model: { ...headsUp.model, grounded: roles } };
    expect(() => buildEngineGame(oldRoles, 25, loadHeadsUpEquity())).toThrow(
      /model\.grounded\.classEffects: expected 1183 finite numbers, got 1014/,
    );
  });
});
