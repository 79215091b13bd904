/**
 * The PLO terminal model and engine game: bucket-against-bucket all-in equity (checked against exact
 * enumeration of concrete hands), exact compatible-pair weights, the table file, the PLO realization model,
 * and a plo6hu 100bb spot solved end to end over the 512 buckets with a small table built here.
 */

import { readFileSync } from "node:fs";
import { parseCards, ploClassIndex } from "@ranges/core";
import { beforeAll, describe, expect, it } from "vitest";
import { CfrSolver, DCFR_PARAMS, type DecisionResult } from "../src/engine/cfr.js";
import { countNodes, type EngineGame, forEachNode, type TreeNode } from "../src/engine/game.js";
import { ploBucketMultipliers, ploClassMultiplier } from "../src/model/plo-realization.js";
import { buildPloAbstraction, type PloAbstraction, ploClassFeatures } from "../src/plo/abstraction.js";
import {
  combinePloBucketEquityParts,
  computePloBucketEquity,
  computePloBucketEquityPart,
  PLO_OPP_PER_COMBO,
  type PloBucketEquityTable,
  parsePloBucketEquity,
  ploBucketCombos,
  ploBucketGroups,
  ploBucketMapCrc32,
  ploBucketPairWeights,
  ploHandGroups,
  serializePloBucketEquity,
} from "../src/plo/bucket-equity.js";
import { exactOmahaEquity } from "../src/plo/equity.js";
import { treeConfigPath } from "../src/solve/files.js";
import { buildPloEngineGame, type PloEngineGame } from "../src/solve/plo.js";
import { buildEngineGame } from "../src/solve/preflop.js";
import { loadTreeConfig, ploModelOf, type TreeConfig, validateTreeConfig } from "../src/tree/config.js";

const hand = (text: string): number[] => {
  const cards = parseCards(text, 4);
  if (!cards) throw new Error(`bad hand ${text}`);
  return cards;
};
const classIndex = (name: string): number => {
  const i = ploClassIndex(name);
  if (i === undefined) throw new Error(`no class ${name}`);
  return i;
};

describe("PLO bucket equity: Monte Carlo against exact enumeration", () => {
  // Groups of concrete hands stand in for buckets: the estimator is the same.
  const A = hand("AsKsAhKh");
  const B = hand("JdTd9c8c");
  const C = hand("7s6h5d4c");
  // X shares the jack of diamonds with B (so it never meets B) and nothing with C.
  const X = hand("Jd7c6c2s");
  const groups = ploHandGroups([[A], [B], [C], [A, X]]);
  const parts = 4;
  const run = (): PloBucketEquityTable =>
    combinePloBucketEquityParts(
      Array.from({ length: parts }, (_, part) =>
        computePloBucketEquityPart({ part, parts, boards: 24_000, handsPerBucket: 2, seed: 5, groups }),
      ),
      { buckets: 4, mapCrc32: 0, handsPerBucket: 2, seed: 5 },
    );
  let table: PloBucketEquityTable;
  beforeAll(() => {
    table = run();
  });

  it("matches every board enumerated, within four standard errors, with card removal inside a group", () => {
    const ab = exactOmahaEquity(A, B).equity;
    const ac = exactOmahaEquity(A, C).equity;
    const bc = exactOmahaEquity(B, C).equity;
    const xc = exactOmahaEquity(X, C).equity;
    const at = (p: number, q: number) => ({ eq: table.eq[p * 4 + q]!, se: table.se[p * 4 + q]! });
    const cases: [string, { eq: number; se: number }, number][] = [
      ["A vs B", at(0, 1), ab],
      ["A vs C", at(0, 2), ac],
      ["B vs C", at(1, 2), bc],
      ["C vs B", at(2, 1), 1 - bc],
      // X never meets B: the group {A, X} against B is A against B.
      ["{A, X} vs B", at(3, 1), ab],
      // Both hands of {A, X} meet C on equally many boards: the plain mean.
      ["{A, X} vs C", at(3, 2), (ac + xc) / 2],
    ];
    for (const [what, got, exact] of cases) {
      expect(got.se, what).toBeGreaterThan(0.001);
      expect(got.se, what).toBeLessThan(0.008);
      expect(Math.abs(got.eq - exact), `${what}: ${got.eq} vs exact ${exact} (se ${got.se})`).toBeLessThan(
        4 * got.se,
      );
    }
    expect(at(0, 0)).toEqual({ eq: 0.5, se: 0 });
  });

  it("is deterministic and does not depend on the order the parts finish in", () => {
    const job = (part: number) =>
      computePloBucketEquityPart({ part, parts, boards: 2_000, handsPerBucket: 2, seed: 8, groups });
    const meta = { buckets: 4, mapCrc32: 0, handsPerBucket: 2, seed: 8 };
    const once = combinePloBucketEquityParts([0, 1, 2, 3].map(job), meta);
    const again = combinePloBucketEquityParts([3, 1, 0, 2].map(job), meta);
    expect(Array.from(again.eq)).toEqual(Array.from(once.eq));
    expect(Array.from(again.se)).toEqual(Array.from(once.se));
    expect(once.boards).toBe(2_000);
  });
});

describe("PLO bucket pair weights and the table file", () => {
  let abstraction: PloAbstraction;
  let W: Float64Array;
  let combos: Float64Array;
  beforeAll(() => {
    abstraction = buildPloAbstraction();
    W = ploBucketPairWeights(abstraction.classToBucket, abstraction.bucketCount);
    combos = ploBucketCombos(abstraction.classToBucket, abstraction.bucketCount);
  });

  it("counts the disjoint hand pairs exactly, rows summing to combos x C(48, 4)", () => {
    const n = abstraction.bucketCount;
    expect(combos.reduce((a, b) => a + b, 0)).toBe(270_725);
    for (let p = 0; p < n; p++) {
      let row = 0;
      for (let q = 0; q < n; q++) {
        row += W[p * n + q]!;
        expect(W[p * n + q]).toBe(W[q * n + p]);
      }
      expect(row).toBe(combos[p]! * PLO_OPP_PER_COMBO);
    }
    // Brute force on a few pairs, the diagonal included.
    const groups = ploBucketGroups(abstraction.classToBucket, n);
    const disjoint = (p: number, q: number) => {
      let count = 0;
      for (let i = groups.start[p]!; i < groups.start[p + 1]!; i++) {
        const mine = groups.cards.subarray(4 * i, 4 * i + 4);
        for (let j = groups.start[q]!; j < groups.start[q + 1]!; j++) {
          const theirs = groups.cards.subarray(4 * j, 4 * j + 4);
          if (!mine.some((c) => theirs.includes(c))) count++;
        }
      }
      return count;
    };
    const aa = abstraction.classToBucket[classIndex("(AK)(AK)")]!;
    for (const [p, q] of [
      [0, 1],
      [7, 7],
      [aa, aa],
      [100, 400],
      [n - 1, 20],
    ] as const)
      expect(W[p * n + q], `W(${p}, ${q})`).toBe(disjoint(p, q));
  });

  it("writes and reads a table, refusing a corrupt file", () => {
    const n = abstraction.bucketCount;
    const eq = new Float64Array(n * n);
    const se = new Float64Array(n * n);
    for (let p = 0; p < n; p++)
      for (let q = 0; q < n; q++) {
        eq[p * n + q] = p === q ? 0.5 : p < q ? 0.3 + ((p * 7 + q) % 40) / 100 : 0;
        se[p * n + q] = p === q ? 0 : (1 + ((p + q) % 5)) / 1000;
      }
    for (let p = 0; p < n; p++) for (let q = 0; q < p; q++) eq[p * n + q] = 1 - eq[q * n + p]!;
    se[3 * n + 9] = Number.NaN;
    se[9 * n + 3] = Number.NaN;
    const table: PloBucketEquityTable = {
      buckets: n,
      mapCrc32: ploBucketMapCrc32(abstraction.classToBucket),
      eq,
      se,
      boards: 10,
      handsPerBucket: 2,
      parts: 2,
      seed: 9,
    };
    const bytes = serializePloBucketEquity(table);
    expect(bytes.length).toBeLessThan(1_100_000);
    const back = parsePloBucketEquity(bytes);
    expect(back.mapCrc32).toBe(table.mapCrc32);
    expect(back.eq[0 * n + 5]).toBe(Math.fround(eq[5]!));
    expect(back.eq[5 * n + 0]).toBe(1 - Math.fround(eq[5]!));
    expect(back.se[9 * n + 3]).toBeNaN();
    const header = JSON.parse(
      new TextDecoder().decode(bytes.subarray(12, 12 + new DataView(bytes.buffer).getUint32(8, true))),
    );
    expect(header).toMatchObject({ buckets: n, unmet: 1, maxSe: Math.fround(0.005), boards: 10, seed: 9 });
    const corrupt = bytes.slice();
    corrupt[corrupt.length - 5]! ^= 0x40;
    expect(() => parsePloBucketEquity(corrupt)).toThrow(/corrupt/);
    expect(() => parsePloBucketEquity(bytes.subarray(0, bytes.length - 4))).toThrow(/length/);
    expect(() => parsePloBucketEquity(new TextEncoder().encode("HUEQ0000000000"))).toThrow(/magic/);
  });
});

describe("PLO realization model (data/trees/plo*.json)", () => {
  it("every PLO tree config carries the PLO model, and hold'em fields are refused", () => {
    for (const game of ["plo", "plo9", "plo5", "plo6hu"] as const) {
      const config = loadTreeConfig(treeConfigPath(game));
      const model = ploModelOf(config);
      expect(model.name).toBe("plo-realization-1");
      expect(model.buckets).toBe(512);
      expect(model.source).toMatch(/by hand/);
    }
    const raw = JSON.parse(readFileSync(treeConfigPath("plo6hu"), "utf8")) as TreeConfig;
    const bad = (model: unknown) => ({ ...raw, model }) as unknown as TreeConfig;
    expect(() => validateTreeConfig(bad({ ...raw.model, suitedBonus: 0.05 }))).toThrow(
      /hold'em field suitedBonus/,
    );
    const m = raw.model as unknown as { playability: Record<string, number> };
    expect(() =>
      validateTreeConfig(bad({ ...raw.model, playability: { ...m.playability, wrap: 2 } })),
    ).toThrow(/playability.wrap/);
    expect(() =>
      validateTreeConfig(bad({ ...raw.model, playability: { ...m.playability, suited: 0 } })),
    ).toThrow(/unknown field suited/);
    expect(() => validateTreeConfig(bad({ ...raw.model, contestExponent: 0.5 }))).toThrow(/contestExponent/);
  });

  it("playability follows the features: suits, a suited ace, wraps, pairs, trips, danglers", () => {
    const p = ploModelOf(loadTreeConfig(treeConfigPath("plo"))).playability;
    const features = ploClassFeatures();
    const m = (name: string) => ploClassMultiplier(p, features[classIndex(name)]!);
    expect(m("(AK)(AK)")).toBeCloseTo(1 + p.doubleSuited + p.nutSuit + 2 * p.pair, 12);
    expect(m("(JT)(98)")).toBeCloseTo(1 + p.doubleSuited + 4 * p.wrap, 12);
    expect(m("9642")).toBeCloseTo(1 + p.wrap, 12);
    expect(m("AK72")).toBeCloseTo(1 + 2 * p.dangler, 12);
    expect(m("2222")).toBeCloseTo(1 + p.trips, 12);
    expect(m("(AK)(AK)")).toBeGreaterThan(m("AAKK"));
    const abstraction = buildPloAbstraction();
    const buckets = ploBucketMultipliers(p, abstraction, features);
    const sorted = [...buckets].sort((a, b) => a - b);
    expect(sorted[0]).toBeGreaterThan(0.85);
    expect(sorted[sorted.length - 1]).toBeLessThan(1.2);
  });

  it("buildEngineGame still refuses PLO, and buildPloEngineGame refuses hold'em", () => {
    const plo = loadTreeConfig(treeConfigPath("plo6hu"));
    expect(() => buildEngineGame(plo, 100, {} as never)).toThrow(/PLO/);
    expect(() => buildPloEngineGame(loadTreeConfig(treeConfigPath("nl")), 100, {} as never)).toThrow(
      /hold'em/,
    );
  });
});

describe("plo6hu 100bb solved over the 512 buckets (small test-only equity table)", () => {
  let abstraction: PloAbstraction;
  let built: PloEngineGame;
  let game: EngineGame;
  let config: TreeConfig;
  let equity: PloBucketEquityTable;
  beforeAll(() => {
    abstraction = buildPloAbstraction();
    // 600 boards: standard errors near 0.02, enough for the shape of the solution (the committed table
    // is built from 100,000).
    equity = computePloBucketEquity({
      classToBucket: abstraction.classToBucket,
      buckets: abstraction.bucketCount,
      boards: 600,
      parts: 2,
      seed: 3,
    });
    config = loadTreeConfig(treeConfigPath("plo6hu"));
    built = buildPloEngineGame(config, 100, { abstraction, equity });
    game = built.game;
  });

  it("builds the pot-limit tree over the buckets with exact card removal and zero-sum share matrices", () => {
    const n = abstraction.bucketCount;
    expect(game.classCount).toBe(512);
    expect(game.oppPerCombo).toBe(194_580);
    expect(game.multiway).toBeUndefined();
    const nodes = countNodes(game.root);
    expect(nodes.decisions).toBeGreaterThanOrEqual(15);
    expect(nodes.decisions).toBeLessThanOrEqual(20);
    // All-in: eq(a, b) + eq(b, a) = 1; to the flop: the IP share of a against b plus the OOP share of b
    // against a is the whole pot, W(a, b).
    const [allIn, ...flop] = game.matrices;
    for (let k = 0; k < flop.length; k += 2) {
      const ip = flop[k]!;
      const oop = flop[k + 1]!;
      for (let a = 0; a < n; a += 7)
        for (let b = 0; b < n; b += 5) {
          const w = game.W[a * n + b]!;
          expect(Math.abs(ip[a * n + b]! + oop[b * n + a]! - w)).toBeLessThanOrEqual(1e-9 * Math.max(1, w));
          expect(Math.abs(allIn![a * n + b]! + allIn![b * n + a]! - w)).toBeLessThanOrEqual(
            1e-9 * Math.max(1, w),
          );
        }
    }
    // Rake: 5% capped at 0.6bb on every showdown, none on a fold.
    forEachNode(game.root, (node) => {
      if (node.type === "showdown") {
        expect(node.rake).toBeCloseTo(Math.min(0.6, 0.05 * node.pot), 12);
        expect(node.pots.reduce((s, p) => s + p.amount, 0)).toBeCloseTo(node.pot - node.rake, 9);
      }
    });
    // A double-suited hand realizes more than a rainbow one with the same bucket equity.
    const aa = abstraction.classToBucket[classIndex("(AK)(AK)")]!;
    const rainbow = abstraction.classToBucket[classIndex("9642")]!;
    expect(built.multipliers[aa]).toBeGreaterThan(built.multipliers[rainbow]!);
  });

  it("refuses an equity table of another abstraction, and an abstraction of another bucket count", () => {
    expect(() =>
      buildPloEngineGame(config, 100, { abstraction, equity: { ...equity, mapCrc32: equity.mapCrc32 ^ 1 } }),
    ).toThrow(/another abstraction/);
    const other = buildPloAbstraction({ buckets: 256 });
    expect(() => buildPloEngineGame(config, 100, { abstraction: other, equity })).toThrow(/512 buckets/);
  });

  it("conserves chips, gets less exploitable with iterations, and plays (AK)(AK) and 9642 sensibly", () => {
    const solver = new CfrSolver(game, { ...DCFR_PARAMS, tremble: 1e-4 });
    const worst = () => Math.max(...solver.evaluate().map((s) => s.exploitability));
    const pot = built.tree.startingPot;
    const trace: number[] = [];
    for (let i = 1; i <= 200; i++) {
      solver.iterate();
      if (i === 10 || i === 50 || i === 200) trace.push(worst() / pot);
    }
    expect(trace[1]).toBeLessThan(trace[0]!);
    expect(trace[2]).toBeLessThan(trace[1]!);
    expect(trace[2]).toBeLessThan(0.005); // under 0.5% of the pot
    solver.finalize();
    const seats = solver.evaluate();
    expect(Math.max(...seats.map((s) => s.exploitability)) / pot).toBeLessThan(0.005);

    // Chips: the seats' values sum to minus the expected rake under the published strategies.
    const results = solver.decisionResults();
    const strategyOf = new Map(results.map((d) => [d.node, d] as const));
    const n = game.classCount;
    let totalW = 0;
    for (const w of game.W) totalW += w;
    let expectedRake = 0;
    const walk = (node: TreeNode, reach: Float64Array[]) => {
      if (node.type === "decision") {
        const d = strategyOf.get(node)!;
        node.children.forEach((child, k) => {
          const next = reach.map((r) => r);
          const mine = new Float64Array(n);
          for (let c = 0; c < n; c++) mine[c] = reach[node.actor]![c]! * d.strategy[k * n + c]!;
          next[node.actor] = mine;
          walk(child, next);
        });
        return;
      }
      if (node.type !== "showdown" || node.rake === 0) return;
      let mass = 0;
      for (let a = 0; a < n; a++) {
        const ra = reach[0]![a]!;
        if (ra === 0) continue;
        for (let b = 0; b < n; b++) mass += game.W[a * n + b]! * ra * reach[1]![b]!;
      }
      expectedRake += (node.rake * mass) / totalW;
    };
    walk(game.root, [new Float64Array(n).fill(1), new Float64Array(n).fill(1)]);
    expect(expectedRake).toBeGreaterThan(0.1);
    expect(Math.abs(seats[0]!.value + seats[1]!.value + expectedRake)).toBeLessThan(1e-9);

    // The SB's first-in decision: (AK)(AK) double-suited never folds, 9642 rainbow folds more.
    const root = results.find((d) => d.node === game.root) as DecisionResult;
    expect(built.tree.seats[root.node.actor]).toBe("SB");
    const fold = root.node.actions.findIndex((a) => a.kind === "fold");
    expect(fold).toBeGreaterThanOrEqual(0);
    const foldOf = (name: string) => root.strategy[fold * n + abstraction.classToBucket[classIndex(name)]!]!;
    expect(foldOf("(AK)(AK)")).toBe(0);
    expect(foldOf("9642")).toBeGreaterThan(foldOf("(AK)(AK)"));
    expect(foldOf("9642")).toBeGreaterThan(0.5);
  });
});
