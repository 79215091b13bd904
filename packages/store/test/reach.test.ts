import { HOLDEM_CLASS_COMBOS, HOLDEM_CLASS_COUNT, HOLDEM_CLASSES } from "@ranges/core";
import { NodeSchema, RangeSchema } from "@ranges/schema";
import { beforeAll, describe, expect, it } from "vitest";
import {
  nodeReach,
  type PackAction,
  type PackData,
  type PackNode,
  packPath,
  RangeStore,
  readPackFile,
  writePack,
} from "../src/index.js";
import { defaultConfig, expectRangesError, tmpDir } from "./fixtures.js";

/**
 * A hand-made nl 100bb tree with exact frequencies, so reach can be computed by hand:
 *
 *   UTG          Fold | 60%: every pair, half of AKs | 100%: 72o at 0.001 | AI: never
 *   UTG_60%_HJ   Fold 0.25 | Call 0.5 | 100% 0.25 | AI 0       (every class)
 *   CO facing the 3-bet folds 0.8, BTN SB BB fold always, UTG 4-bets all-in AA, KK and every AKs it opened.
 */
const index = (name: string): number => HOLDEM_CLASSES.indexOf(name);
const PAIRS = new Set(HOLDEM_CLASSES.filter((c) => c.length === 2).map(index));
const AA = index("AA");
const KK = index("KK");
const AKS = index("AKs");
const SEVEN_TWO = index("72o");

const CODES: Record<string, { code: number; kind: PackAction["kind"] }> = {
  Fold: { code: 0, kind: "fold" },
  Call: { code: 1, kind: "call" },
  "60%": { code: 40060, kind: "raise" },
  "100%": { code: 40100, kind: "raise" },
  AI: { code: 3, kind: "allin" },
};

/** One node: every token but Fold from its function; Fold takes what is left of each class. */
function node(
  history: string,
  depth: PackNode["depth"],
  others: Record<string, (c: number) => number>,
): PackNode {
  const tokens = ["Fold", ...Object.keys(others)];
  const freqs = tokens.map(() => new Float32Array(HOLDEM_CLASS_COUNT));
  for (let c = 0; c < HOLDEM_CLASS_COUNT; c++) {
    let rest = 1;
    tokens.forEach((token, a) => {
      if (token === "Fold") return;
      freqs[a]![c] = others[token]!(c);
      rest -= freqs[a]![c]!;
    });
    freqs[0]![c] = Math.max(0, rest);
  }
  const actions = tokens.map(
    (token, a): PackAction => ({
      ...CODES[token]!,
      token,
      sizeBb: null,
      sizePctPot: null,
      sizeReason: "test",
      freqs: freqs[a]!,
      evs: null,
    }),
  );
  return { history, actor: history.split("_").at(-1)!, depth, actions };
}

const never = (): number => 0;
const always = (): number => 1;
const FOUR_BET = "UTG_60%_HJ_100%_CO_Fold_BTN_Fold_SB_Fold_BB_Fold_UTG";

function handMade(): PackData {
  const nodes: PackNode[] = [
    node("UTG", 1, {
      "60%": (c) => (PAIRS.has(c) ? 1 : c === AKS ? 0.5 : 0),
      "100%": (c) => (c === SEVEN_TWO ? 0.001 : 0),
      AI: never,
    }),
    node("UTG_60%_HJ", 2, { Call: () => 0.5, "100%": () => 0.25, AI: never }),
    node("UTG_60%_HJ_Call_CO", 2, { Call: always }),
    node("UTG_100%_HJ", 2, { Call: always }),
    node("UTG_AI_HJ", 2, { Call: always }),
    node("UTG_AI_HJ_Call_CO", 2, { Call: always }),
    node("UTG_60%_HJ_100%_CO", 3, { Call: () => 0.1, AI: () => 0.1 }),
    node("UTG_60%_HJ_100%_CO_Fold_BTN", 3, { Call: never }),
    node("UTG_60%_HJ_100%_CO_Fold_BTN_Fold_SB", 3, { Call: never }),
    node("UTG_60%_HJ_100%_CO_Fold_BTN_Fold_SB_Fold_BB", 3, { Call: never }),
    node(FOUR_BET, 3, { Call: never, AI: (c) => (c === AA || c === KK || c === AKS ? 1 : 0) }),
    node(`${FOUR_BET}_AI_HJ`, 4, { Call: always }),
  ];
  return {
    header: {
      format: "preflop-ranges-pack",
      formatVersion: 1,
      game: "nl",
      stack: 100,
      classSet: "holdem169",
      classCount: HOLDEM_CLASS_COUNT,
      evUnit: null,
      config: defaultConfig("nl", 100),
      provenance: {
        source: "solver",
        algorithm: "hand-made",
        iterations: null,
        exploitability: null,
        seed: null,
        model: null,
        solveSeconds: null,
        createdAt: "2025-01-01T00:00:00.000Z",
        treeConfig: null,
        notes: [],
      },
    },
    nodes,
  };
}

const TOTAL = 1326;
/** UTG's opening range in combos: 13 pairs of 6 and half of the 4 AKs combos. */
const OPEN = 13 * 6 + 4 * 0.5;

describe("nodeReach on a hand-made pack", () => {
  const pack = handMade();

  it("is exactly 1 at the root", () => {
    expect(nodeReach(pack, "UTG")).toBe(1);
  });

  it("weights classes by hold'em combos (6 pair, 4 suited, 12 offsuit)", () => {
    expect([HOLDEM_CLASS_COMBOS[AA], HOLDEM_CLASS_COMBOS[AKS], HOLDEM_CLASS_COMBOS[SEVEN_TWO]]).toEqual([
      6, 4, 12,
    ]);
  });

  it("is the combo-weighted share of the one seat that acted", () => {
    expect(OPEN).toBe(80);
    expect(nodeReach(pack, "UTG_60%_HJ")).toBeCloseTo(OPEN / TOTAL, 15);
    // A seat that folds at 1 with every class (Fold at 1 - 0 - 0 - 0) leaves the product unchanged.
    expect(nodeReach(pack, "UTG_100%_HJ")).toBeCloseTo((12 * Math.fround(0.001)) / TOTAL, 18);
  });

  it("multiplies the seats' shares: UTG opens 80/1326, HJ calls half of every class", () => {
    expect(nodeReach(pack, "UTG_60%_HJ_Call_CO")).toBeCloseTo((OPEN / TOTAL) * 0.5, 15);
  });

  it("multiplies a seat's own decisions class by class before summing", () => {
    // UTG: opens pairs at 1 and AKs at 0.5, then 4-bets AA, KK and AKs at 1: 6 + 6 + 4 * 0.5 combos.
    // HJ 3-bets 0.25 of every class, CO folds 0.8 (as stored: float32), BTN, SB and BB fold always.
    const expected = ((6 + 6 + 2) / TOTAL) * 0.25 * Math.fround(0.8);
    expect(nodeReach(pack, `${FOUR_BET}_AI_HJ`)).toBeCloseTo(expected, 15);
    // Not the product of UTG's two per-decision shares.
    expect(nodeReach(pack, `${FOUR_BET}_AI_HJ`)).not.toBeCloseTo(
      (OPEN / TOTAL) * (14 / TOTAL) * 0.25 * Math.fround(0.8),
      6,
    );
    expect(nodeReach(pack, FOUR_BET)).toBeCloseTo((OPEN / TOTAL) * 0.25 * Math.fround(0.8), 15);
  });

  it("is exactly 0 behind an action no class takes, and stays 0 below it", () => {
    expect(nodeReach(pack, "UTG_AI_HJ")).toBe(0);
    expect(nodeReach(pack, "UTG_AI_HJ_Call_CO")).toBe(0);
  });

  it("gives the same numbers in any order of calls (memoized per pack)", () => {
    const fresh = handMade();
    const deep = nodeReach(fresh, `${FOUR_BET}_AI_HJ`);
    expect(nodeReach(fresh, "UTG_60%_HJ")).toBe(nodeReach(pack, "UTG_60%_HJ"));
    expect(deep).toBe(nodeReach(pack, `${FOUR_BET}_AI_HJ`));
  });

  it("falls back to a uniform prior when the class count does not match the class set", () => {
    const small: PackData = {
      header: { ...pack.header, classCount: 4 },
      nodes: [
        {
          history: "UTG",
          actor: "UTG",
          depth: 1,
          actions: [
            { ...pack.nodes[0]!.actions[0]!, freqs: Float32Array.of(1, 0.5, 0.5, 0) },
            { ...pack.nodes[0]!.actions[1]!, freqs: Float32Array.of(0, 0.5, 0.5, 1) },
          ],
        },
        { ...pack.nodes[3]!, history: "UTG_60%_HJ" },
      ],
    };
    expect(nodeReach(small, "UTG_60%_HJ")).toBeCloseTo((0 + 0.5 + 0.5 + 1) / 4, 15);
  });

  it("names a node the pack does not hold, and a broken path", () => {
    expectRangesError(() => nodeReach(pack, "UTG_Fold_HJ"), 404, "node_not_found");
    const broken: PackData = { header: pack.header, nodes: pack.nodes.filter((n) => n.history !== FOUR_BET) };
    const error = expectRangesError(() => nodeReach(broken, `${FOUR_BET}_AI_HJ`), 503, "pack_unavailable");
    expect(error.message).toContain(FOUR_BET);
  });
});

describe("reach in store responses", () => {
  let store: RangeStore;
  let decoded: PackData;

  beforeAll(async () => {
    const dir = tmpDir();
    await writePack(packPath(dir, "nl", 100), handMade());
    decoded = await readPackFile(packPath(dir, "nl", 100));
    store = RangeStore.open({ packsDir: dir });
  });

  it("serves the reach of the stored (quantized) frequencies at 4 significant digits", () => {
    for (const n of handMade().nodes) {
      const served = NodeSchema.parse(store.node("nl", 100, n.history)).reach;
      const exact = nodeReach(decoded, n.history);
      expect(served, n.history).toBe(exact === 0 ? 0 : Number(exact.toPrecision(4)));
    }
    expect(store.node("nl", 100, "UTG").reach).toBe(1);
    expect(store.node("nl", 100, "UTG_AI_HJ").reach).toBe(0);
    expect(store.node("nl", 100, "UTG_60%_HJ").reach).toBe(Number((80 / 1326).toPrecision(4)));
  });

  it("keeps a tiny reach non-zero (significant digits, not decimals)", () => {
    const tiny = store.node("nl", 100, "UTG_100%_HJ").reach;
    // 72o at 0.001, quantized to 66/65535 (then float32): 12 * 66/65535 / 1326, about 9.114e-6.
    expect(tiny).toBe(Number(((12 * Math.fround(66 / 65535)) / 1326).toPrecision(4)));
    expect(tiny).toBeGreaterThan(0);
    expect(tiny).toBeLessThan(1e-5);
    expect(tiny.toExponential().replace(/e.*$/, "").replace(".", "").length).toBeLessThanOrEqual(4);
  });

  it("gives a range the reach of the node where its action is chosen", () => {
    const range = RangeSchema.parse(store.range("nl", 100, "UTG_60%_HJ_Call"));
    expect(range.reach).toBe(store.node("nl", 100, "UTG_60%_HJ").reach);
    expect(store.range("nl", 100, "UTG_AI").reach).toBe(1);
    expect(store.range("nl", 100, "UTG_AI_HJ_Call").reach).toBe(0);
  });

  it("is in the cached JSON body too", () => {
    const body = JSON.parse(store.json({ kind: "node", game: "nl", stack: 100, history: "UTG_AI_HJ" }).body);
    expect(body.reach).toBe(0);
  });
});
