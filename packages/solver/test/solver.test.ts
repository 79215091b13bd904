import { HOLDEM_CLASS_COMBOS, holdemClassIndex } from "@ranges/core";
import { describe, expect, it } from "vitest";
import { forEachNode } from "../src/engine/game.js";
import { loadHeadsUpEquity } from "../src/equity/index.js";
import { buildShareMatrices } from "../src/model/realization.js";
import { treeConfigPath } from "../src/solve/files.js";
import { buildEngineGame, solvePreflop, toPackData } from "../src/solve/preflop.js";
import { loadTreeConfig } from "../src/tree/config.js";
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

describe("three-handed toy tree", () => {
  const result = solvePreflop({ config: threeHanded, stack: 25, equity, now: fixedClock });

  it("reaches the exploitability target for every seat", () => {
    for (const s of result.seats) expect(s.pctPot).toBeLessThanOrEqual(0.3);
  });

  it("pays out exactly the pot at every terminal (no chips created or lost)", () => {
    let terminals = 0;
    forEachNode(result.tree.root, (node) => {
      if (node.type === "decision") return;
      terminals++;
      const put = node.invested.reduce((a, b) => a + b, 0);
      expect(node.pot).toBeCloseTo(put, 9);
      for (const x of node.invested) expect(x).toBeGreaterThanOrEqual(0);
      if (node.type === "showdown") expect(node.players[0]).not.toBe(node.players[1]);
    });
    expect(terminals).toBeGreaterThan(10);
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
    const [ipIdx] = shares.indexFor(false, 10, true);
    const aa = holdemClassIndex("AKs")!;
    const qq = holdemClassIndex("QQ")!;
    const w = equity.w[aa * 169 + qq]!;
    const share = shares.matrices[ipIdx]![aa * 169 + qq]! / w;
    expect(share).toBeGreaterThan(equity.eq[aa * 169 + qq]!);
    expect(share).toBeLessThan(1);
  });

  it("builds every committed game's trees with heads-up pots only", () => {
    for (const game of ["nlmtt8", "nl", "nl/v2", "nl9"] as const) {
      const cfg = loadTreeConfig(treeConfigPath(game));
      const { tree } = buildEngineGame(cfg, cfg.profiles[0]!.stacks[0]!, equity);
      forEachNode(tree.root, (node) => {
        if (node.type === "showdown") expect(node.players).toHaveLength(2);
      });
    }
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

describe("pot cap", () => {
  const config = loadTreeConfig(treeConfigPath("nl"));
  const { tree } = buildEngineGame(config, 100, equity);
  const tokensAt = (history: string): string[] | undefined => {
    const found: string[][] = [];
    forEachNode(tree.root, (node) => {
      if (node.type === "decision" && node.history === history) found.push(node.actions.map((a) => a.token));
    });
    return found[0];
  };

  it("lets a seat behind an open and a call only fold, unless it is a blind (squeeze)", () => {
    expect(tokensAt("UTG_60%_HJ_Call_CO")).toEqual(["Fold"]);
    expect(tokensAt("UTG_60%_HJ_Call_CO_Fold_BTN")).toEqual(["Fold"]);
    const sb = tokensAt("UTG_60%_HJ_Call_CO_Fold_BTN_Fold_SB")!;
    expect(sb).toContain("Fold");
    expect(sb).not.toContain("Call");
    expect(sb.some((t) => t.endsWith("%") || t === "AI")).toBe(true);
  });

  it("gives a squeezed opener and caller one call between them", () => {
    const squeeze = tokensAt("UTG_60%_HJ_Call_CO_Fold_BTN_Fold_SB")!.find((t) => t.endsWith("%"))!;
    const after = `UTG_60%_HJ_Call_CO_Fold_BTN_Fold_SB_${squeeze}_BB_Fold_UTG`;
    expect(tokensAt(after)).toContain("Call");
    expect(tokensAt(`${after.replace(/_UTG$/, "")}_UTG_Call_HJ`)).not.toContain("Call");
  });
});
