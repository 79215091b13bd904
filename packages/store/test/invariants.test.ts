import { HOLDEM_CLASS_COUNT, HOLDEM_CLASSES } from "@ranges/core";
import { describe, expect, it } from "vitest";
import { decodePack, encodePack, type PackAction, type PackData, type PackNode } from "../src/index.js";
import { defaultConfig, prng } from "./fixtures.js";
import { checkPackInvariants, isV3Pack } from "./invariants.js";

/**
 * The checker of `committed-packs.test.ts` on a small hand-made nl/v2 100bb pack that passes every invariant,
 * and on copies of it broken one way at a time, so a v3 pack that breaks an invariant is known to fail.
 */

const index = (name: string): number => {
  const i = HOLDEM_CLASSES.indexOf(name);
  if (i < 0) throw new Error(`no class ${name}`);
  return i;
};
const AA = index("AA");
const KK = index("KK");
const PAIRS = new Set(HOLDEM_CLASSES.filter((c) => c.length === 2).map(index));
const PREMIUM = new Set([AA, KK]);

const ACTIONS: Record<string, Pick<PackAction, "code" | "kind" | "sizeBb">> = {
  Fold: { code: 0, kind: "fold", sizeBb: null },
  Call: { code: 1, kind: "call", sizeBb: null },
  "60%": { code: 40060, kind: "raise", sizeBb: 3 },
  AI: { code: 3, kind: "allin", sizeBb: 100 },
};

type Spec = Record<string, (c: number) => number>;

/** A node offering Fold (taking what the other tokens leave of each class, unless `fold` is false) and `others`. */
function node(history: string, depth: PackNode["depth"], others: Spec, fold = true): PackNode {
  const tokens = [...(fold ? ["Fold"] : []), ...Object.keys(others)];
  const actions = tokens.map((token): PackAction => {
    const freqs = new Float32Array(HOLDEM_CLASS_COUNT);
    for (let c = 0; c < HOLDEM_CLASS_COUNT; c++) {
      freqs[c] =
        token === "Fold"
          ? Math.max(0, 1 - Object.values(others).reduce((s, f) => s + f(c), 0))
          : others[token]!(c);
    }
    return {
      ...ACTIONS[token]!,
      token,
      sizePctPot: null,
      sizeReason: "test",
      freqs,
      evs: new Float32Array(HOLDEM_CLASS_COUNT).fill(token === "Fold" ? 0 : 0.25),
    };
  });
  return { history, actor: history.split("_").at(-1)!, depth, actions };
}

const never = (): number => 0;
const pairs = (c: number): number => (PAIRS.has(c) ? 1 : 0);
const premium = (c: number): number => (PREMIUM.has(c) ? 1 : 0);
const LIMPED = "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_Call_BB";
const SHOVE = "UTG_60%_HJ_AI_CO";
/** UTG facing HJ's all-in 3-bet (depth 3). */
const THREE_BET = `${SHOVE}_Fold_BTN_Fold_SB_Fold_BB_Fold_UTG`;

/** A pack that passes every invariant: UTG and HJ open pairs, HJ shoves AA and KK over an open. */
function goodPack(model = "realization-v3: test"): PackData {
  const nodes: PackNode[] = [
    node("UTG", 1, { "60%": pairs, AI: never }),
    node("UTG_Fold_HJ", 1, { "60%": pairs }),
    node("UTG_60%_HJ", 2, { Call: (c) => pairs(c) - premium(c), AI: premium }),
    node(SHOVE, 3, { Call: never }),
    node(`${SHOVE}_Fold_BTN`, 3, { Call: never }),
    node(`${SHOVE}_Fold_BTN_Fold_SB`, 3, { Call: never }),
    node(`${SHOVE}_Fold_BTN_Fold_SB_Fold_BB`, 3, { Call: never }),
    node(THREE_BET, 3, { Call: premium }),
    // UTG never shoves: unreached.
    node("UTG_AI_HJ", 2, { Call: premium }),
    node("UTG_Fold_HJ_Fold_CO", 1, { "60%": premium }),
    node("UTG_Fold_HJ_Fold_CO_Fold_BTN", 1, { "60%": premium }),
    // The SB limps half its hands but never AA or KK, which it raises.
    node("UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB", 1, {
      Call: (c) => (PREMIUM.has(c) ? 0 : 0.5),
      "60%": premium,
    }),
    // The BB facing a limp: nothing to fold to.
    node(LIMPED, 1, { Call: () => 0.5, "60%": () => 0.5 }, false),
    node(`${LIMPED}_60%_SB`, 2, { Call: () => 0.5 }),
  ];
  return {
    header: {
      format: "preflop-ranges-pack",
      formatVersion: 1,
      game: "nl/v2",
      stack: 100,
      classSet: "holdem169",
      classCount: HOLDEM_CLASS_COUNT,
      evUnit: "sb",
      config: defaultConfig("nl/v2", 100),
      provenance: {
        source: "solver",
        algorithm: "hand-made",
        iterations: null,
        exploitability: null,
        seed: 0,
        model,
        solveSeconds: null,
        createdAt: "2025-01-01T00:00:00.000Z",
        treeConfig: null,
        notes: [],
      },
    },
    nodes,
  };
}

/** Sets one class's frequencies at a node (tokens not named get 0). Call before any check of the pack. */
function play(pack: PackData, history: string, cls: number, freqs: Record<string, number>): void {
  const n = pack.nodes.find((x) => x.history === history)!;
  for (const a of n.actions) a.freqs[cls] = freqs[a.token] ?? 0;
}

/** A copy of the pack (a new node array, so a new reach memo) with one node replaced. */
function withNode(pack: PackData, replacement: PackNode): PackData {
  return {
    ...pack,
    nodes: pack.nodes.map((n) => (n.history === replacement.history ? replacement : n)),
  };
}

describe("checkPackInvariants", () => {
  it("passes the hand-made pack, a v3 pack", () => {
    const pack = goodPack();
    expect(isV3Pack(pack)).toBe(true);
    expect(checkPackInvariants(pack)).toEqual([]);
  });

  it("tells v3 packs from older models and imports", () => {
    expect(isV3Pack(goodPack("realization-v3"))).toBe(true);
    expect(isV3Pack(goodPack("hu-realization-v2: all-in pots by heads-up equity"))).toBe(false);
    const imported = goodPack();
    const header = { ...imported.header, provenance: { ...imported.header.provenance, model: null } };
    expect(isV3Pack({ header })).toBe(false);
  });

  describe("premiums", () => {
    it("reports AA folding 50% facing an open at a reached node", () => {
      const pack = goodPack();
      play(pack, "UTG_60%_HJ", AA, { Fold: 0.5, AI: 0.5 });
      const violations = checkPackInvariants(pack);
      expect(violations).toHaveLength(1);
      expect(violations[0]).toMatch(
        /^premiums: UTG_60%_HJ \(depth 2, reach 0\.0\d+\): AA folds 0\.5 > 0\.01$/,
      );
    });

    it("reports AA folding first in (depth 1)", () => {
      const pack = goodPack();
      play(pack, "UTG", AA, { Fold: 0.5, "60%": 0.5 });
      expect(checkPackInvariants(pack)).toEqual(["premiums: UTG (depth 1, reach 1): AA folds 0.5 > 0.01"]);
    });

    it("allows AA up to 1% and KK up to 5% of folds", () => {
      const pack = goodPack();
      play(pack, "UTG_60%_HJ", AA, { Fold: 0.009, AI: 0.991 });
      play(pack, "UTG_60%_HJ", KK, { Fold: 0.049, AI: 0.951 });
      expect(checkPackInvariants(pack)).toEqual([]);
      const worse = goodPack();
      play(worse, "UTG_60%_HJ", KK, { Fold: 0.06, AI: 0.94 });
      expect(checkPackInvariants(worse, ["premiums"])).toEqual([
        expect.stringMatching(/^premiums: UTG_60%_HJ .*: KK folds 0\.06 > 0\.05$/),
      ]);
    });

    it("ignores nodes at reach 1e-6 or below, and 3-bet pots", () => {
      const pack = goodPack();
      play(pack, "UTG_AI_HJ", AA, { Fold: 1 });
      play(pack, THREE_BET, AA, { Fold: 1 });
      expect(checkPackInvariants(pack)).toEqual([]);
      // Once UTG shoves some hand, HJ facing the shove is reached and checked.
      const shoving = goodPack();
      play(shoving, "UTG_AI_HJ", AA, { Fold: 1 });
      play(shoving, "UTG", index("72o"), { AI: 1 });
      expect(checkPackInvariants(shoving)).toEqual([
        expect.stringMatching(/^premiums: UTG_AI_HJ \(depth 2, reach 0\.009\d+\): AA folds 1 > 0\.01$/),
      ]);
    });

    it("ignores a class the actor's own earlier actions never bring to the node", () => {
      const pack = goodPack();
      play(pack, `${LIMPED}_60%_SB`, AA, { Fold: 1 });
      expect(checkPackInvariants(pack)).toEqual([]);
      // An SB that limps AA must not fold it to the raise.
      const limping = goodPack();
      play(limping, `${LIMPED}_60%_SB`, AA, { Fold: 1 });
      play(limping, "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB", AA, { Call: 0.5, "60%": 0.5 });
      expect(checkPackInvariants(limping)).toEqual([
        expect.stringMatching(/^premiums: UTG_Fold_.*_60%_SB \(depth 2, .*\): AA folds 1 > 0\.01$/),
      ]);
    });
  });

  describe("call", () => {
    it("reports a node facing a raise that offers no call", () => {
      const pack = withNode(goodPack(), node("UTG_60%_HJ", 2, { AI: premium }));
      expect(checkPackInvariants(pack)).toEqual([
        "call: UTG_60%_HJ (depth 2) faces a raise and offers no call (Fold, AI)",
      ]);
      const foldOnly = withNode(goodPack(), node(THREE_BET, 3, {}));
      expect(checkPackInvariants(foldOnly)).toEqual([
        `call: ${THREE_BET} (depth 3) faces a raise and offers no call (Fold)`,
      ]);
    });

    it("counts an all-in no larger than the raise faced as a call", () => {
      const pack = withNode(goodPack(), node(THREE_BET, 3, { AI: premium }));
      expect(checkPackInvariants(pack)).toEqual([]);
    });
  });

  describe("freq-sum", () => {
    it("reports a class whose frequencies do not sum to 1", () => {
      const pack = goodPack();
      play(pack, "UTG_Fold_HJ", index("AKs"), { Fold: 0.5, "60%": 0.49 });
      expect(checkPackInvariants(pack)).toEqual([
        expect.stringMatching(
          /^freq-sum: UTG_Fold_HJ: 1 classes' frequencies do not sum to 1 within 0\.00001626 \(AKs: 0\.99\d*\)$/,
        ),
      ]);
    });

    it("allows the u16 quantization error of every action, and no more", () => {
      const within = goodPack();
      play(within, "UTG", index("AKs"), { Fold: 0.5, "60%": 0.5 + 1e-5 });
      expect(checkPackInvariants(within)).toEqual([]);
      const beyond = goodPack();
      play(beyond, "UTG", index("AKs"), { Fold: 0.5, "60%": 0.5 + 1e-4 });
      expect(checkPackInvariants(beyond, ["freq-sum"])).toHaveLength(1);
    });

    it("passes random strategies after the pack's u16 round trip, which moves sums by more than 1e-6", () => {
      const rand = prng(7);
      const pack = goodPack();
      for (const n of pack.nodes) {
        for (let c = 0; c < HOLDEM_CLASS_COUNT; c++) {
          const raw = n.actions.map(() => rand());
          const total = raw.reduce((s, x) => s + x, 0);
          n.actions.forEach((a, i) => {
            a.freqs[c] = raw[i]! / total;
          });
        }
      }
      const decoded = decodePack(encodePack(pack));
      let worst = 0;
      for (const n of decoded.nodes) {
        for (let c = 0; c < HOLDEM_CLASS_COUNT; c++) {
          worst = Math.max(worst, Math.abs(n.actions.reduce((s, a) => s + a.freqs[c]!, 0) - 1));
        }
      }
      expect(worst).toBeGreaterThan(1e-6);
      expect(checkPackInvariants(decoded, ["freq-sum"])).toEqual([]);
    });
  });

  describe("fold-ev", () => {
    it("reports fold EVs that are not 0 in a pack with EVs", () => {
      const pack = goodPack();
      const fold = pack.nodes.find((n) => n.history === "UTG_60%_HJ")!.actions[0]!;
      fold.evs![KK] = -0.01;
      fold.evs![AA] = 0.5;
      expect(checkPackInvariants(pack)).toEqual(["fold-ev: UTG_60%_HJ: 2 fold EVs are not 0 (AA: 0.5 sb)"]);
    });

    it("allows unscored (NaN) fold EVs and EVs that print as 0 at 4 decimals", () => {
      const pack = goodPack();
      const fold = pack.nodes.find((n) => n.history === "UTG")!.actions[0]!;
      fold.evs![AA] = Number.NaN;
      fold.evs![KK] = 4e-5;
      expect(checkPackInvariants(pack)).toEqual([]);
    });

    it("has nothing to check in a pack without EVs", () => {
      const pack = goodPack();
      const noEvs: PackData = {
        header: { ...pack.header, evUnit: null },
        nodes: pack.nodes.map((n) => ({ ...n, actions: n.actions.map((a) => ({ ...a, evs: null })) })),
      };
      expect(checkPackInvariants(noEvs)).toEqual([]);
      const root = pack.nodes[0]!;
      const stray = withNode(pack, {
        ...root,
        actions: root.actions.map((a) => (a.kind === "fold" ? { ...a, evs: null } : a)),
      });
      expect(checkPackInvariants(stray)).toEqual([
        'fold-ev: UTG: Fold stores no EVs in a pack with evUnit "sb"',
      ]);
    });
  });
});
