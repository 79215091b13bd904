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

describe("lines solved directly (model.grounded.lines)", () => {
  const t = loadHeadsUpEquity();
  const theta = new Float64Array(13 * 8);
  const aa = 0;
  const kk = 14;
  const effects = { oop: new Array<number>(169).fill(0), ip: new Array<number>(169).fill(0) };
  effects.ip[aa] = 0.25; // the BTN's aces realize more in this line than the model says
  effects.oop[kk] = -0.1; // the BB's kings less
  const line = {
    id: "srp-btn-bb",
    oop: "BB",
    ip: "BTN",
    raises: 1,
    aggressor: "ip" as const,
    spr: 9,
    effects,
  };
  const g = buildGroundedMatrices({ theta, gamma: new Float64Array(4), lines: [line] }, t.eq, t.w);
  const btnBb: DuelKind = {
    allIn: false,
    spr: 9,
    rowIsIp: true,
    initiative: "row",
    raises: 1,
    players: 2,
    rowSeat: "BTN",
    colSeat: "BB",
  };
  const share = (kind: DuelKind, a: number, b: number) =>
    g.matrices[g.indexForKind(kind)]![a * 169 + b]! / t.w[a * 169 + b]!;
  const e = t.eq[aa * 169 + kk]!;
  const q = 4 * e * (1 - e);

  it("add the line's class effects to both players' mu in the duels of its two seats", () => {
    expect(share(btnBb, aa, kk)).toBeCloseTo(e + q * (0.25 - -0.1), 12);
    // The BB's row of the same duel is the complement.
    const bbRow = { ...btnBb, rowIsIp: false, initiative: "col", rowSeat: "BB", colSeat: "BTN" } as const;
    expect(share(bbRow, kk, aa)).toBeCloseTo(1 - (e + q * 0.35), 12);
    // Classes the line gives no effect keep the model's share (here, the equity).
    expect(share(btnBb, 5, 30)).toBeCloseTo(t.eq[5 * 169 + 30]!, 12);
  });

  it("leave every other duel to the fitted model", () => {
    const model = (kind: DuelKind) => share(kind, aa, kk);
    // Another opener, another raise count, the other player raising, a depth more than a factor 1.41 away,
    // a multiway pot, a kind with no seats: the model alone (the equity, every parameter being 0).
    expect(model({ ...btnBb, rowSeat: "CO" })).toBeCloseTo(e, 12);
    expect(model({ ...btnBb, raises: 2 })).toBeCloseTo(e, 12);
    expect(model({ ...btnBb, initiative: "col" })).toBeCloseTo(e, 12);
    expect(model({ ...btnBb, spr: 4.4 })).toBeCloseTo(e, 12);
    expect(model({ ...btnBb, spr: 19 })).toBeCloseTo(e, 12);
    expect(model({ ...btnBb, players: 3 })).toBeCloseTo(Math.min(1, e), 12);
    const { rowSeat: _r, colSeat: _c, ...anonymous } = btnBb;
    expect(model(anonymous)).toBeCloseTo(e, 12);
    // Within the reach (an open of another size): the line's effects.
    expect(model({ ...btnBb, spr: 7 })).toBeCloseTo(e + q * 0.35, 12);
    expect(model({ ...btnBb, spr: 12 })).toBeCloseTo(e + q * 0.35, 12);
  });

  it("meet the BTN-BB single-raised pot of the nl/v2 100bb tree, which names its seats", () => {
    const kinds: DuelKind[] = [];
    buildPreflopTree(loadTreeConfig(treeConfigPath("nl/v2")), 100, (k) => {
      kinds.push(k);
      return 0;
    });
    const btnBbPots = kinds.filter(
      (k) => !k.allIn && k.players === 2 && k.raises === 1 && k.rowSeat === "BTN" && k.colSeat === "BB",
    );
    expect(btnBbPots.length).toBeGreaterThan(0);
    expect(btnBbPots.every((k) => k.rowIsIp && k.initiative === "row")).toBe(true);
  });

  const headsUp: TreeConfig = {
    ...threeHanded,
    seats: ["SB", "BB"],
    description: "heads-up toy",
    limpSeats: [],
  };
  const zeros = () => new Array<number>(169).fill(0);
  const good = { id: "srp-sb-bb", oop: "SB", ip: "BB", raises: 1, aggressor: "oop", spr: 11 };
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      "effects of the wrong size",
      { ...good, effects: { oop: [1, 2], ip: zeros() } },
      /lines\[0\]\.effects\.oop: expected 169 finite numbers, got 2/,
    ],
    [
      "no effects for a player",
      { ...good, effects: { oop: zeros() } },
      /lines\[0\]\.effects\.ip: expected 169 finite numbers, got none/,
    ],
    [
      "a seat against itself",
      { ...good, ip: "SB", effects: { oop: zeros(), ip: zeros() } },
      /two different seats/,
    ],
    [
      "a raiser in a limped pot",
      { ...good, raises: 0, effects: { oop: zeros(), ip: zeros() } },
      /lines\[0\]\.aggressor/,
    ],
    [
      "no raiser in a raised pot",
      { ...good, aggressor: null, effects: { oop: zeros(), ip: zeros() } },
      /lines\[0\]\.aggressor/,
    ],
    [
      "a fraction of a raise",
      { ...good, raises: 1.5, effects: { oop: zeros(), ip: zeros() } },
      /lines\[0\]\.raises/,
    ],
    ["no SPR", { ...good, spr: 0, effects: { oop: zeros(), ip: zeros() } }, /lines\[0\]\.spr/],
  ];
  it.each(cases)("refuses %s before it solves", (_name, bad, message) => {
    const config = {
      ...headsUp,
      model: {
        ...headsUp.model,
        grounded: { theta: zeros().slice(0, 104), gamma: [0, 0, 0, 0], lines: [bad] },
      },
    } as unknown as TreeConfig;
    expect(() => buildEngineGame(config, 25, t)).toThrow(message);
  });

  it("adds one matrix pair per line, and the heads-up toy's single-raised pot takes it", () => {
    const kinds: DuelKind[] = [];
    buildPreflopTree(headsUp, 25, (k) => {
      kinds.push(k);
      return 0;
    });
    const pot = kinds.find((k) => !k.allIn && k.raises === 1 && k.rowIsIp)!;
    const raiser = pot.initiative === "row" ? "ip" : "oop";
    const toyLine = {
      id: "srp",
      oop: pot.colSeat,
      ip: pot.rowSeat,
      raises: 1,
      aggressor: raiser,
      spr: pot.spr,
      effects: { oop: zeros(), ip: zeros() },
    };
    const config = {
      ...headsUp,
      model: {
        ...headsUp.model,
        grounded: { theta: zeros().slice(0, 104), gamma: [0, 0, 0, 0], lines: [toyLine] },
      },
    } as unknown as TreeConfig;
    expect(buildEngineGame(config, 25, t).game.matrices).toHaveLength(1 + 7 * 4 * 2 * 2 + 2);
    const g2 = buildGroundedMatrices(config.model.grounded!, t.eq, t.w);
    expect(g2.indexForKind(pot)).toBe(1 + 7 * 4 * 2 * 2);
    expect(g2.indexForKind({ ...pot, raises: 2 })).not.toBe(1 + 7 * 4 * 2 * 2);
  });
});
