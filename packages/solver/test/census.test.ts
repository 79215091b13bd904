/**
 * The local-holes census (src/census.ts): exact counts on a toy pack built here, and the counts on committed
 * packs, which may only go down. The v4 target (issue "Preflop model v4", item 4) is 0 and 0 on every pack;
 * `node scripts/census.mjs` prints every pack's counts (BENCHMARKS.md).
 */

import { HOLDEM_CLASSES } from "@ranges/core";
import { type PackAction, type PackData, type PackNode, packPath, readPackFile } from "@ranges/store";
import { describe, expect, it } from "vitest";
import { CfrSolver } from "../src/engine/cfr.js";
import { loadHeadsUpEquity } from "../src/equity/index.js";
import { CENSUS_DEFAULTS, packCensus, unreachedMisplays } from "../src/index.js";
import { defaultPacksDir, treeConfigPath } from "../src/solve/files.js";
import { buildEngineGame, solverParams } from "../src/solve/preflop.js";
import { loadTreeConfig } from "../src/tree/config.js";

function action(
  token: string,
  kind: PackAction["kind"],
  freq: (c: string) => number,
  ev: (c: string) => number,
): PackAction {
  const freqs = new Float32Array(169);
  const evs = new Float32Array(169);
  HOLDEM_CLASSES.forEach((c, i) => {
    freqs[i] = freq(c);
    evs[i] = ev(c);
  });
  return { code: 0, token, kind, sizeBb: null, sizePctPot: null, freqs, evs };
}

const node = (history: string, actor: string, actions: PackAction[]): PackNode => ({
  history,
  actor,
  depth: 1,
  actions,
});

/**
 * SB calls with everything but AA, which raises. KK calls at EV 1 where raising is worth 5 (a hole: reach
 * ~1, 100%, 4 sb below); QQ the same at 1.5 sb below (not a hole). The BB never raises a call, so the SB's
 * answer to that raise is reached by nobody: there 72o folds while calling is worth 3 sb (a misplay), AKs
 * splits between two actions 0.03 sb apart (a tie, allowed).
 */
const toy = {
  header: { game: "nl/v2", stack: 100, classSet: "holdem169", classCount: 169, evUnit: "sb" },
  nodes: [
    node("SB", "SB", [
      action(
        "Fold",
        "fold",
        () => 0,
        () => 0,
      ),
      action(
        "Call",
        "call",
        (c) => (c === "AA" ? 0 : 1),
        (c) => (c === "KK" || c === "QQ" ? 1 : 0.5),
      ),
      action(
        "100%",
        "raise",
        (c) => (c === "AA" ? 1 : 0),
        (c) => (c === "KK" ? 5 : c === "QQ" ? 2.5 : 0.2),
      ),
    ]),
    node("SB_Call_BB", "BB", [
      action(
        "Call",
        "call",
        () => 1,
        () => 1,
      ),
      action(
        "100%",
        "raise",
        () => 0,
        () => 0.5,
      ),
    ]),
    node("SB_Call_BB_100%_SB", "SB", [
      action(
        "Fold",
        "fold",
        (c) => (c === "72o" ? 1 : c === "AKs" ? 0.5 : 0),
        () => 0,
      ),
      action(
        "Call",
        "call",
        (c) => (c === "72o" ? 0 : c === "AKs" ? 0.5 : 1),
        (c) => (c === "72o" ? 3 : c === "AKs" ? 0.03 : 1),
      ),
    ]),
    node("SB_100%_BB", "BB", [
      action(
        "Fold",
        "fold",
        () => 0.5,
        () => 0,
      ),
      action(
        "Call",
        "call",
        () => 0.5,
        () => -9,
      ),
    ]),
  ],
} as unknown as PackData;

describe("packCensus", () => {
  it("counts a reached hole and an unreached non-best response, and nothing else", () => {
    const c = packCensus(toy);
    expect(c.reachedNodes).toBe(2);
    expect(c.reachedHoles).toBe(1);
    expect(c.worstReached[0]).toMatchObject({
      history: "SB",
      hand: "KK",
      action: "Call",
      best: "100%",
      bestEv: 5,
    });
    expect(c.zeroReachNodes).toBe(1);
    expect(c.zeroReachMisplays).toBe(1);
    expect(c.zeroReachNodesWithMisplay).toBe(1);
    expect(c.worstZeroReach[0]).toMatchObject({ hand: "72o", action: "Fold", best: "Call" });
    // SB_100%_BB is reached by AA's raise only (6 of 1,326 combos): under 1%, and not 0, so not counted.
    expect(c.nodes).toBe(4);
  });

  it("follows its thresholds", () => {
    expect(packCensus(toy, { ...CENSUS_DEFAULTS, minGapSb: 1 }).reachedHoles).toBe(2);
    expect(packCensus(toy, { ...CENSUS_DEFAULTS, tieSb: 0.01 }).zeroReachMisplays).toBe(2);
    expect(packCensus(toy, { ...CENSUS_DEFAULTS, minReach: 0.001 }).reachedNodes).toBe(3);
  });

  it("has nothing to count in a pack without EVs", () => {
    const c = packCensus({ ...toy, header: { ...toy.header, evUnit: null } } as PackData);
    expect([c.reachedHoles, c.zeroReachMisplays]).toEqual([0, 0]);
  });

  // Counts of the committed v3 packs (node scripts/census.mjs): they may go down, never up. v4's target is 0.
  it.each([
    ["nlmtt8", 10, 0, 0],
    ["nlmtt8", 15, 0, 0],
    ["nl/v2", 20, 1, 0],
    ["nl/v2", 30, 1, 197],
  ] as const)(
    "%s %ibb: at most %i reached holes and %i unreached misplays",
    async (game, stack, holes, misplays) => {
      const c = packCensus(await readPackFile(packPath(defaultPacksDir(), game, stack)));
      expect(c.reachedHoles).toBeLessThanOrEqual(holes);
      expect(c.zeroReachMisplays).toBeLessThanOrEqual(misplays);
    },
  );
});

describe("finalize on a committed pack's strategies (the census's unreached misplays)", () => {
  // nl/v2 40bb as published: 111 classes play more than 0.05 sb below their best at decisions nobody reaches.
  // Most are classes that never arrive there, whose best action `finalize` picks; it compared values weighted
  // by a trembled mass of 1e-13 with an absolute margin of 1e-12, so it kept the first action (fold).
  it("moves the classes that never arrive onto their best actions, however small the mass", async () => {
    const pack = await readPackFile(packPath(defaultPacksDir(), "nl/v2", 40));
    expect(packCensus(pack).zeroReachMisplays).toBe(111);
    const config = loadTreeConfig(treeConfigPath("nl/v2"));
    const { game } = buildEngineGame(config, 40, loadHeadsUpEquity());
    const solver = new CfrSolver(game, solverParams(config, 40));
    const byHistory = new Map(pack.nodes.map((n) => [n.history, n]));
    solver.setStrategies((node) => {
      const p = byHistory.get(node.history)!;
      const s = new Float64Array(node.actions.length * 169);
      p.actions.forEach((a, k) => {
        s.set(a.freqs, k * 169);
      });
      return s;
    });
    const before = solver.evaluate();
    solver.finalize();
    const after = solver.evaluate();
    const { misplays } = unreachedMisplays(solver.decisionResults());
    expect(misplays.length).toBeLessThanOrEqual(6);
    // Only classes that never arrive moved: no seat's value or exploitability changes.
    for (let i = 0; i < before.length; i++) {
      expect(after[i]!.value).toBeCloseTo(before[i]!.value, 9);
      expect(after[i]!.exploitability).toBeCloseTo(before[i]!.exploitability, 9);
    }
  });
});
