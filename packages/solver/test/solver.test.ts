import { HOLDEM_CLASS_COMBOS, holdemClassIndex } from "@ranges/core";
import { describe, expect, it } from "vitest";
import { CfrSolver, DCFR_PARAMS, type DecisionResult } from "../src/engine/cfr.js";
import { forEachNode } from "../src/engine/game.js";
import { loadHeadsUpEquity } from "../src/equity/index.js";
import { buildShareMatrices } from "../src/model/realization.js";
import { treeConfigPath } from "../src/solve/files.js";
import {
  algorithmName,
  buildEngineGame,
  nextCheckAfter,
  PREFLOP_TREMBLE,
  solveInputHash,
  solvePreflop,
  toPackData,
  trembleOf,
  trembleScopeOf,
} from "../src/solve/preflop.js";
import { loadTreeConfig, validateTreeConfig } from "../src/tree/config.js";
import { headsUpJamFold, threeHanded } from "./toys.js";

const equity = loadHeadsUpEquity();
const fixedClock = () => 0;

/** Share of all 1326 combos that take the action (frequency weighted by combos). */
function rangePct(freqs: ArrayLike<number>): number {
  let combos = 0;
  for (let c = 0; c < 169; c++) combos += freqs[c]! * HOLDEM_CLASS_COMBOS[c]!;
  return combos / 1326;
}

describe("heads-up jam/fold", () => {
  const solved = [5, 10, 20].map((stack) =>
    solvePreflop({ config: headsUpJamFold, stack, equity, targetPctPot: 0.0005, maxSeconds: 60 }),
  );

  it("converges below 0.01 mbb/hand for both seats", () => {
    for (const r of solved) {
      for (const s of r.seats) expect(s.mbbPerHand).toBeLessThan(0.01);
    }
  });

  it("shoves and calls less as stacks grow", () => {
    const pct = (r: (typeof solved)[number], history: string, token: string) => {
      const d = r.solver.decisionResults().find((x) => x.node.history === history)!;
      const i = d.node.actions.findIndex((a) => a.token === token);
      return rangePct(d.strategy.subarray(i * 169, (i + 1) * 169));
    };
    const shove = solved.map((r) => pct(r, "SB", "AI"));
    const call = solved.map((r) => pct(r, "SB_AI_BB", "Call"));
    expect(shove[0]).toBeGreaterThan(shove[1]!);
    expect(shove[1]).toBeGreaterThan(shove[2]!);
    expect(call[0]).toBeGreaterThan(call[1]!);
    expect(call[1]).toBeGreaterThan(call[2]!);
  });

  it("plays the obvious hands the obvious way", () => {
    const d = solved[1]!.solver.decisionResults().find((x) => x.node.history === "SB")!;
    const ai = d.node.actions.findIndex((a) => a.token === "AI");
    expect(d.strategy[ai * 169 + holdemClassIndex("AA")!]).toBeGreaterThan(0.99);
    const call = solved[1]!.solver.decisionResults().find((x) => x.node.history === "SB_AI_BB")!;
    const c = call.node.actions.findIndex((a) => a.token === "Call");
    expect(call.strategy[c * 169 + holdemClassIndex("72o")!]).toBeLessThan(0.01);
  });
});

describe("short-handed spots in the game's grammar (dealtIn)", () => {
  // Simultaneous updates, so both games update the two players on every iteration.
  const simultaneous = { ...headsUpJamFold, solve: { ...headsUpJamFold.solve, alternate: false } };
  const { seats: _seats, ...rest } = simultaneous;
  const dealt = { ...rest, dealtIn: ["SB", "BB"] };
  const prefix = "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold";

  it("solves heads-up jam/fold inside the 6-max tree like the two-seat game", () => {
    const two = solvePreflop({
      config: simultaneous,
      stack: 10,
      equity,
      maxIterations: 300,
      now: fixedClock,
    });
    const six = solvePreflop({ config: dealt, stack: 10, equity, maxIterations: 300, now: fixedClock });
    const byHistory = (r: typeof two) => new Map(r.solver.decisionResults().map((d) => [d.node.history, d]));
    const a = byHistory(two);
    const b = byHistory(six);
    // The dealt-out seats have one decision each, folding everything, on the path to the SB.
    expect(b.size).toBe(a.size + 4);
    for (const [history, seat] of [
      ["UTG", "UTG"],
      ["UTG_Fold_HJ", "HJ"],
      ["UTG_Fold_HJ_Fold_CO", "CO"],
      ["UTG_Fold_HJ_Fold_CO_Fold_BTN", "BTN"],
    ]) {
      const d = b.get(history!)!;
      expect(six.tree.seats[d.node.actor]).toBe(seat);
      expect(d.node.actions.map((x) => x.token)).toEqual(["Fold"]);
      expect(d.reach).toBeCloseTo(1, 12);
    }
    for (const [history, d] of a) {
      const e = b.get(`${prefix}_${history}`)!;
      expect(e, history).toBeDefined();
      expect(e.node.actions.map((x) => x.token)).toEqual(d.node.actions.map((x) => x.token));
      for (let i = 0; i < d.strategy.length; i++) expect(e.strategy[i]).toBeCloseTo(d.strategy[i]!, 6);
    }
    const seat = (r: typeof two, name: string) => r.seats.find((x) => x.seat === name)!;
    expect(seat(six, "SB").value).toBeCloseTo(seat(two, "SB").value, 9);
    expect(seat(six, "UTG").exploitability).toBe(0);
  });

  it("refuses dealt-in seats that are not the last to act, or fewer than two", () => {
    for (const dealtIn of [["UTG", "BB"], ["BB"], ["BB", "SB"], ["CO", "SB", "BB"], "SB,BB", []]) {
      expect(() => validateTreeConfig({ ...rest, dealtIn } as never), JSON.stringify(dealtIn)).toThrow(
        /dealtIn must list the last seats/,
      );
    }
    expect(() => validateTreeConfig({ ...headsUpJamFold, dealtIn: ["SB", "BB"] })).toThrow(/without "seats"/);
    expect(validateTreeConfig({ ...rest, dealtIn: ["BTN", "SB", "BB"] }).dealtIn).toEqual([
      "BTN",
      "SB",
      "BB",
    ]);
  });
});

describe("the exploitability checks", () => {
  it("are spaced out far from the target and every base iterations near it", () => {
    const cases: [worst: number, interval: number][] = [
      [13.4, 100],
      [1.21, 100],
      [1.2, 50],
      [0.61, 50],
      [0.6, 25],
      [0.41, 25],
    ];
    for (const [worst, interval] of cases)
      expect(nextCheckAfter(worst, 0.4, 25), String(worst)).toBe(interval);
  });
});

describe("the regret minimizer per profile", () => {
  const profile = headsUpJamFold.profiles[0]!;
  const withAlgorithm = (algorithm: unknown, alternate: boolean) =>
    ({
      ...headsUpJamFold,
      profiles: [{ ...profile, algorithm }],
      solve: { ...headsUpJamFold.solve, alternate },
    }) as never;

  it("takes dcfr or pcfr+ (simultaneous updates only) and refuses anything else", () => {
    expect(() => validateTreeConfig(withAlgorithm("pcfr+", false))).not.toThrow();
    expect(() => validateTreeConfig(withAlgorithm("dcfr", true))).not.toThrow();
    expect(() => validateTreeConfig(withAlgorithm("cfr", false))).toThrow(
      /algorithm must be "dcfr" or "pcfr\+"/,
    );
    expect(() => validateTreeConfig(withAlgorithm("pcfr+", true))).toThrow(/simultaneous updates/);
  });

  it("takes a tremble in (0, 0.01] per profile and records the one a solve ran with", () => {
    const withTremble = (tremble: unknown) =>
      ({ ...headsUpJamFold, profiles: [{ ...profile, tremble }] }) as never;
    expect(trembleOf(validateTreeConfig(withTremble(1e-5)), profile.stacks[0]!)).toBe(1e-5);
    expect(trembleOf(headsUpJamFold, profile.stacks[0]!)).toBe(PREFLOP_TREMBLE);
    for (const bad of [0, -1e-5, 0.02, "1e-5", null, Number.NaN]) {
      expect(() => validateTreeConfig(withTremble(bad)), String(bad)).toThrow(/tremble must be a number/);
    }
    expect(algorithmName(false, "pcfr+", undefined, 1e-5)).toContain("every action at least 0.00001 while");
  });

  it("takes a trembleScope of untaken or every per profile; every mixes the tremble into every action", () => {
    const withScope = (trembleScope: unknown) =>
      ({ ...headsUpJamFold, profiles: [{ ...profile, trembleScope }] }) as never;
    const stack = profile.stacks[0]!;
    expect(trembleScopeOf(validateTreeConfig(withScope("every")), stack)).toBe("every");
    expect(trembleScopeOf(validateTreeConfig(withScope("untaken")), stack)).toBe("untaken");
    expect(trembleScopeOf(headsUpJamFold, stack)).toBe("untaken");
    for (const bad of ["all", "", 1, true, null]) {
      expect(() => validateTreeConfig(withScope(bad)), String(bad)).toThrow(/trembleScope must be/);
    }
    expect(algorithmName(false, "pcfr+", undefined, 1e-5, "every")).toContain(
      "every action of every hand mixed with 0.00001 while",
    );
    // The scope is an input of the solve: it changes the iterates, so the pack's input hash.
    const every = validateTreeConfig(withScope("every"));
    expect(solveInputHash(every, stack, 0)).not.toBe(solveInputHash(headsUpJamFold, stack, 0));
    // Solved both ways, the two solves differ (the tremble reaches every line) yet both converge.
    const a = solvePreflop({
      config: every,
      stack,
      equity,
      maxIterations: 400,
      targetPctPot: 0.05,
      now: fixedClock,
    });
    const b = solvePreflop({
      config: headsUpJamFold,
      stack,
      equity,
      maxIterations: 400,
      targetPctPot: 0.05,
      now: fixedClock,
    });
    for (const s of a.seats) expect(s.pctPot).toBeLessThanOrEqual(0.05);
    expect(a.solver.decisionResults()[0]!.strategy).not.toEqual(b.solver.decisionResults()[0]!.strategy);
  });

  it("solves heads-up jam/fold with predictive CFR+ like DCFR and names it in the pack", () => {
    const config = withAlgorithm("pcfr+", false) as typeof headsUpJamFold;
    const pcfr = solvePreflop({ config, stack: 10, equity, targetPctPot: 0.01, now: fixedClock });
    const dcfr = solvePreflop({
      config: headsUpJamFold,
      stack: 10,
      equity,
      targetPctPot: 0.01,
      now: fixedClock,
    });
    for (const s of pcfr.seats) expect(s.pctPot).toBeLessThanOrEqual(0.01);
    const jams = (r: typeof pcfr) => {
      const d = r.solver.decisionResults().find((x) => x.node.history === "SB")!;
      const i = d.node.actions.findIndex((a) => a.token === "AI");
      return d.strategy.subarray(i * 169, (i + 1) * 169);
    };
    const a = jams(pcfr);
    const b = jams(dcfr);
    // Pure equilibrium choices agree; mixed ones sit on a hand or two at the margin.
    let differ = 0;
    for (let c = 0; c < 169; c++) if (Math.abs(a[c]! - b[c]!) > 0.5) differ++;
    expect(differ).toBeLessThanOrEqual(2);
    expect(rangePct(a)).toBeCloseTo(rangePct(b), 2);
    const pack = toPackData(pcfr, config, { createdAt: "2026-11-24T00:00:00Z", configPath: null, seed: 0 });
    expect(pack.header.provenance.algorithm).toMatch(/^Predictive CFR\+/);
  });
});

describe("three-handed toy tree", () => {
  const result = solvePreflop({ config: threeHanded, stack: 25, equity, now: fixedClock });

  it("reaches the exploitability target for every seat", () => {
    for (const s of result.seats) expect(s.pctPot).toBeLessThanOrEqual(0.3);
  });

  it("pays out exactly the pot at every terminal (no chips created or lost)", () => {
    let terminals = 0;
    let threeWay = 0;
    forEachNode(result.tree.root, (node) => {
      if (node.type === "decision") return;
      terminals++;
      const put = node.invested.reduce((a, b) => a + b, 0);
      expect(node.pot).toBeCloseTo(put, 9);
      for (const x of node.invested) expect(x).toBeGreaterThanOrEqual(0);
      if (node.type !== "showdown") return;
      expect(new Set(node.players).size).toBe(node.players.length);
      // The pots hold everything put in, less the rake (none in this toy).
      const inPots = node.pots.reduce((a, p) => a + p.amount, 0);
      expect(inPots + node.rake).toBeCloseTo(node.pot, 9);
      for (const p of node.pots) {
        expect(p.players.length).toBeGreaterThanOrEqual(2);
        for (const q of p.players) expect(node.players).toContain(q);
      }
      if (node.players.length === 3) threeWay++;
    });
    expect(terminals).toBeGreaterThan(10);
    expect(threeWay).toBeGreaterThan(0);
  });

  it("stores EVs relative to fold: fold is 0, AA's open beats folding", () => {
    const pack = toPackData(
      result,
      { ...threeHanded, game: "nl/v2" },
      { createdAt: "t", configPath: null, seed: 1 },
    );
    const root = pack.nodes[0]!;
    expect(root.history).toBe("BTN");
    const fold = root.actions.find((a) => a.kind === "fold")!;
    expect(Array.from(fold.evs!).every((x) => x === 0)).toBe(true);
    const open = root.actions.find((a) => a.kind === "raise")!;
    expect(open.evs![holdemClassIndex("AA")!]).toBeGreaterThan(1);
  });

  it("is deterministic: the same config gives the same strategies and exploitability", () => {
    const again = solvePreflop({ config: threeHanded, stack: 25, equity, now: fixedClock });
    expect(again.iterations).toBe(result.iterations);
    expect(again.seats).toEqual(result.seats);
    const a = result.solver.decisionResults();
    const b = again.solver.decisionResults();
    for (let i = 0; i < a.length; i++) expect(b[i]!.strategy).toEqual(a[i]!.strategy);
  });
});

describe("terminal model", () => {
  const config = loadTreeConfig(treeConfigPath("nl"));
  const shares = buildShareMatrices(config.model, equity.eq, equity.w);

  it("shares every pot exactly between the two players", () => {
    for (let m = 1; m < shares.matrices.length; m += 2) {
      const ip = shares.matrices[m]!;
      const oop = shares.matrices[m + 1]!;
      for (let a = 0; a < 169; a++)
        for (let b = 0; b < 169; b++) {
          expect(ip[a * 169 + b]! + oop[b * 169 + a]!).toBeCloseTo(equity.w[a * 169 + b]!, 6);
        }
    }
  });

  it("lets the player in position realize more than raw equity in a deep pot", () => {
    const ipIdx = shares.indexFor(false, 10, true);
    const aa = holdemClassIndex("AKs")!;
    const qq = holdemClassIndex("QQ")!;
    const w = equity.w[aa * 169 + qq]!;
    const share = shares.matrices[ipIdx]![aa * 169 + qq]! / w;
    expect(share).toBeGreaterThan(equity.eq[aa * 169 + qq]!);
    expect(share).toBeLessThan(1);
  });

  it("builds every committed game's trees with multiway pots, side pots and rake where configured", () => {
    for (const game of ["nlmtt8", "nl", "nl/v2", "nl9"] as const) {
      const cfg = loadTreeConfig(treeConfigPath(game));
      const { tree } = buildEngineGame(cfg, cfg.profiles[0]!.stacks[0]!, equity);
      let multiway = 0;
      let raked = 0;
      forEachNode(tree.root, (node) => {
        if (node.type !== "showdown") return;
        if (node.players.length > 2) multiway++;
        if (node.rake > 0) raked++;
        const inPots = node.pots.reduce((a, p) => a + p.amount, 0);
        expect(inPots + node.rake).toBeCloseTo(node.pot, 9);
        // 5% capped at 0.6bb in cash games, none in the tournament.
        if (game === "nlmtt8") expect(node.rake).toBe(0);
        else expect(node.rake).toBeCloseTo(Math.min(0.6, 0.05 * node.pot), 9);
      });
      expect(multiway).toBeGreaterThan(0);
      if (game !== "nlmtt8") expect(raked).toBeGreaterThan(0);
    }
  });

  it("splits unequal all-ins into a main pot and a side pot (nlmtt8: the BB's ante comes out of its stack)", () => {
    const cfg = loadTreeConfig(treeConfigPath("nlmtt8"));
    const { tree } = buildEngineGame(cfg, 10, equity);
    let sidePots = 0;
    forEachNode(tree.root, (node) => {
      if (node.type !== "showdown" || node.pots.length < 2) return;
      sidePots++;
      // The BB (last seat) is all-in for less, so it contests only the main pot.
      const bb = tree.seats.length - 1;
      expect(node.pots[0]!.players).toContain(bb);
      for (const p of node.pots.slice(1)) expect(p.players).not.toContain(bb);
    });
    expect(sidePots).toBeGreaterThan(0);
  });
});

describe("evaluation does not disturb the solve", () => {
  it("gives the same strategies whether or not exploitability is checked along the way", () => {
    const checked = solvePreflop({
      config: threeHanded,
      stack: 25,
      equity,
      maxIterations: 60,
      targetPctPot: -1,
      checkEvery: 7,
    });
    const unchecked = solvePreflop({
      config: threeHanded,
      stack: 25,
      equity,
      maxIterations: 60,
      targetPctPot: -1,
      checkEvery: 1000,
    });
    const a = checked.solver.decisionResults();
    const b = unchecked.solver.decisionResults();
    for (let i = 0; i < a.length; i++) expect(b[i]!.strategy).toEqual(a[i]!.strategy);
    expect(checked.seats).toEqual(unchecked.seats);
  });
});

describe("no forced folds", () => {
  const config = loadTreeConfig(treeConfigPath("nl"));
  const { tree } = buildEngineGame(config, 100, equity);
  const tokensAt = (history: string): string[] | undefined => {
    const found: string[][] = [];
    forEachNode(tree.root, (node) => {
      if (node.type === "decision" && node.history === history) found.push(node.actions.map((a) => a.token));
    });
    return found[0];
  };

  it("offers a call at every decision facing a raise", () => {
    let facing = 0;
    forEachNode(tree.root, (node) => {
      if (node.type !== "decision" || !node.actions.some((a) => a.kind === "fold") || node.depth < 2) return;
      facing++;
      expect(
        node.actions.some((a) => a.kind === "call"),
        node.history,
      ).toBe(true);
    });
    expect(facing).toBeGreaterThan(100);
  });

  it("lets any seat cold-call, overcall and squeeze", () => {
    expect(tokensAt("UTG_60%_HJ")).toContain("Call");
    const co = tokensAt("UTG_60%_HJ_Call_CO")!;
    expect(co).toContain("Call");
    expect(co.some((t) => t.endsWith("%") || t === "AI")).toBe(true);
    expect(tokensAt("UTG_60%_HJ_Call_CO_Call_BTN")).toContain("Call");
  });

  it("gives everyone facing a squeeze a call, the opener and the caller included", () => {
    const squeeze = tokensAt("UTG_60%_HJ_Call_CO")!.find((t) => t.endsWith("%"))!;
    const after = `UTG_60%_HJ_Call_CO_${squeeze}_BTN_Fold_SB_Fold_BB_Fold_UTG`;
    expect(tokensAt(after)).toContain("Call");
    expect(tokensAt(`${after}_Call_HJ`)).toContain("Call");
  });

  it("lets only the SB limp where the tree allows it (nl/v2), and raising stops at the cap", () => {
    const v2 = loadTreeConfig(treeConfigPath("nl/v2"));
    const built = buildEngineGame(v2, 100, equity).tree;
    let maxRaises = 0;
    forEachNode(built.root, (node) => {
      if (node.type !== "decision") return;
      const raises = node.history.split("_").filter((t) => t.endsWith("%") || t === "AI").length;
      maxRaises = Math.max(maxRaises, raises);
      if (raises === 0 && !node.history.includes("Call") && node.history.split("_").at(-1) !== "BB") {
        const first = node.actions.some((a) => a.kind === "call");
        expect(first, node.history).toBe(node.history.split("_").at(-1) === "SB");
      }
    });
    expect(maxRaises).toBeLessThanOrEqual(v2.profiles.find((p) => p.stacks.includes(100))!.maxRaises!);
  });
});

describe("reach and unreached lines", () => {
  // Solved to 0.05% of the pot: at 0.3% the SB still folds aces 1.7% after limping them at a rare node.
  const result = solvePreflop({
    config: threeHanded,
    stack: 25,
    equity,
    now: fixedClock,
    targetPctPot: 0.05,
  });
  const res = result.solver.decisionResults();

  it("gives the root reach 1 and every line the product of the seats' range masses", () => {
    expect(res[0]!.reach).toBe(1);
    for (const d of res) {
      expect(d.reach).toBeGreaterThanOrEqual(0);
      expect(d.reach).toBeLessThanOrEqual(1);
    }
  });

  it("never folds aces facing a single raise on a line that is played", () => {
    const aa = holdemClassIndex("AA")!;
    let checked = 0;
    for (const d of res) {
      const f = d.node.actions.findIndex((a) => a.kind === "fold");
      if (f < 0 || d.node.depth > 2 || d.reach <= 1e-6) continue;
      checked++;
      expect(d.strategy[f * 169 + aa], d.node.history).toBeLessThanOrEqual(0.01);
    }
    expect(checked).toBeGreaterThan(3);
  });

  it("plays a best response with every class at decisions its own earlier play never reaches", () => {
    // The SB never limps 72o here; after a limp and an iso-raise it must still choose its best action.
    const limp = res.find((d) => d.node.history === "BTN_Fold_SB")!;
    const call = limp.node.actions.findIndex((a) => a.kind === "call");
    const worst = holdemClassIndex("72o")!;
    expect(limp.strategy[call * 169 + worst]).toBe(0);
    for (const d of res.filter(
      (x) => x.node.history.startsWith("BTN_Fold_SB_Call_BB_") && x.node.history.endsWith("_SB"),
    )) {
      const freqs = d.node.actions.map((_, i) => d.strategy[i * 169 + worst]!);
      expect(freqs.filter((x) => x === 1)).toHaveLength(1);
    }
  });

  it("scores every class at unreached decisions (EVs against the deviating seat's range)", () => {
    const unreached = res.filter((d) => d.reach === 0);
    for (const d of unreached) {
      const call = d.node.actions.findIndex((a) => a.kind === "call");
      if (call < 0) continue;
      expect(Number.isFinite(d.evs![call * 169 + holdemClassIndex("AA")!]), d.node.history).toBe(true);
    }
  });
});

/**
 * The three-handed toy with a profile in which everyone folds whenever folding is allowed (and otherwise takes
 * the first action), so every raise is a line nobody takes: each seat's values before and after `finalize`,
 * and the decisions after it.
 */
function foldFirstFinalized() {
  const { game } = buildEngineGame(threeHanded, 25, equity);
  const solver = new CfrSolver(game, { ...DCFR_PARAMS, alternate: true, tremble: PREFLOP_TREMBLE });
  solver.setStrategies((node) => {
    const s = new Float64Array(node.actions.length * 169);
    const f = node.actions.findIndex((a) => a.kind === "fold");
    s.fill(1, Math.max(f, 0) * 169, (f < 0 ? 1 : f + 1) * 169);
    return s;
  });
  const before = solver.evaluate();
  solver.finalize();
  const after = solver.evaluate();
  return { before, after, results: solver.decisionResults() };
}

describe("classes that never arrive, at the last decision of a line nobody takes (finalize)", () => {
  // A profile in which everyone folds whenever folding is allowed (and otherwise takes the first action):
  // every raise is a line nobody takes, so the seat facing a jam there got there by an action it never
  // takes (own reach 0 for every class), and `finalize` gives each class its best action. The same choice on
  // the committed nl/v2 40bb strategies, where the trembled mass is far smaller, is tested in census.test.ts.
  const { before, after, results } = foldFirstFinalized();
  const last = results.filter(
    (d) => d.reach === 0 && d.evs && d.node.children.every((c) => c.type !== "decision"),
  );

  it("calls every jam nobody makes with aces", () => {
    const aa = holdemClassIndex("AA")!;
    const jams = last.filter((d) => d.node.history.split("_").at(-2) === "AI");
    expect(jams.length).toBeGreaterThan(3);
    for (const d of jams) {
      const call = d.node.actions.findIndex((a) => a.kind === "call");
      expect(d.strategy[call * 169 + aa], d.node.history).toBe(1);
      expect(d.evs![call * 169 + aa]!, d.node.history).toBeGreaterThan(0);
    }
  });

  it("moves no seat's value: those lines are never reached", () => {
    for (let i = 0; i < before.length; i++) expect(after[i]!.value).toBeCloseTo(before[i]!.value, 12);
  });
});

describe("every class at a decision no one seat's deviation reaches, though its own play arrives (finalize)", () => {
  // Everyone folds whenever folding is allowed. Facing the button's open and the small blind's 3-bet (neither
  // of which they make), the big blind is at a decision two other seats never take it to, while its own hands
  // all arrive (it has not acted yet). Aces fold there in that profile; `finalize` gives every class its best
  // action against the play below as `finalize` leaves it (where the other seats act again below and keep
  // their averages, a class can still end more than 0.05 sb below its best). Facing the open alone, one seat's
  // deviation away, the small blind keeps its averages: a best response there could be exploited by the
  // button's deviation (BENCHMARKS.md, "Unreached lines").
  const { before, after, results } = foldFirstFinalized();
  const aa = holdemClassIndex("AA")!;
  const at = (history: string) => results.find((d) => d.node.history === history)!;
  const foldOf = (d: DecisionResult, c: number) =>
    d.strategy[d.node.actions.findIndex((a) => a.kind === "fold") * 169 + c]!;

  it("does not fold aces to the open and the 3-bet nobody makes", () => {
    const d = at("BTN_60%_SB_110%_BB");
    expect(d.reach).toBe(0);
    expect(foldOf(d, aa)).toBe(0);
  });

  it("keeps the averages one seat's deviation away (the small blind facing the open)", () => {
    expect(foldOf(at("BTN_60%_SB"), aa)).toBe(1);
  });

  it("moves no seat's value or exploitability: no one seat's deviation reaches those lines", () => {
    for (let i = 0; i < before.length; i++) {
      expect(after[i]!.value).toBeCloseTo(before[i]!.value, 12);
      expect(after[i]!.exploitability).toBeCloseTo(before[i]!.exploitability, 12);
    }
  });
});
