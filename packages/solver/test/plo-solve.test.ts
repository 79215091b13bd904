/**
 * `solvePlo` and the PLO pack: a real plo6hu 100bb solve over the 512 buckets (with a small equity table built
 * here, as plo-game.test.ts does), exported per bucket with the class-to-bucket map, written, read back and
 * served by the store over the 16,432 classes.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLO_CLASS_COUNT, ploClasses, ploClassIndex } from "@ranges/core";
import { NodeSchema, RangeSchema } from "@ranges/schema";
import {
  decodePack,
  encodePack,
  FREQ_MAX_ERROR,
  type PackData,
  packClassToBucket,
  packPath,
  RangeStore,
  readPackFile,
  writePack,
} from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPloAbstraction, type PloAbstraction } from "../src/plo/abstraction.js";
import { computePloBucketEquity, type PloBucketEquityTable } from "../src/plo/bucket-equity.js";
import { treeConfigPath } from "../src/solve/files.js";
import {
  type PloSolveResult,
  ploIdentityOfTable,
  ploSolveIdentity,
  solvePlo,
  toPloPackData,
} from "../src/solve/plo.js";
import { recordedInputHash, solveInputHash, solvePreflop } from "../src/solve/preflop.js";
import { loadTreeConfig, type TreeConfig } from "../src/tree/config.js";

const classIndex = (name: string): number => {
  const i = ploClassIndex(name);
  if (i === undefined) throw new Error(`no class ${name}`);
  return i;
};

describe("plo6hu 100bb: solvePlo, the bucketed pack and the store", () => {
  let abstraction: PloAbstraction;
  let equity: PloBucketEquityTable;
  let config: TreeConfig;
  let result: PloSolveResult;
  let pack: PackData;
  let dir: string;
  let store: RangeStore;

  beforeAll(async () => {
    abstraction = buildPloAbstraction();
    equity = computePloBucketEquity({
      classToBucket: abstraction.classToBucket,
      buckets: abstraction.bucketCount,
      boards: 600,
      parts: 2,
      seed: 3,
    });
    config = loadTreeConfig(treeConfigPath("plo6hu"));
    let clock = 0;
    result = solvePlo({
      config,
      stack: 100,
      tables: { abstraction, equity },
      maxIterations: 200,
      maxSeconds: 1e9,
      threads: 1,
      // A fixed clock: the pack does not depend on wall time.
      now: () => (clock += 10),
    });
    pack = toPloPackData(result, config, {
      createdAt: "2026-01-01T00:00:00.000Z",
      configPath: "data/trees/plo6hu.json",
      seed: equity.seed,
    });
    dir = mkdtempSync(join(tmpdir(), "plo-pack-"));
    await writePack(packPath(dir, "plo6hu", 100), pack);
    store = RangeStore.open({ packsDir: dir });
  }, 600_000);

  afterAll(() => {
    store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("solves to under 0.5% of the pot in the bucketed game and says so in the provenance", () => {
    expect(result.game.classCount).toBe(512);
    const worst = Math.max(...result.seats.map((s) => s.pctPot));
    expect(worst).toBeLessThan(0.5);
    const { provenance } = pack.header;
    expect(provenance.algorithm).toMatch(/vectorized over 512 buckets/);
    expect(provenance.exploitability!.map((s) => s.seat)).toEqual(["SB", "BB"]);
    expect(provenance.notes.some((n) => /in the bucketed game/.test(n))).toBe(true);
    expect(provenance.model).toMatch(/solved over 512 buckets/);
  });

  it("hashes the PLO tables into the inputs; hold'em hashes are unchanged", () => {
    const identity = ploSolveIdentity(result.tables);
    expect(identity).toEqual(ploIdentityOfTable(equity));
    const hash = solveInputHash(config, 100, equity.seed, identity);
    expect(recordedInputHash(pack.header.provenance.notes)).toBe(hash);
    expect(hash).not.toBe(solveInputHash(config, 100, equity.seed));
    expect(
      solveInputHash(config, 100, equity.seed, { ...identity, mapCrc32: identity.mapCrc32 ^ 1 }),
    ).not.toBe(hash);
    expect(
      solveInputHash(config, 100, equity.seed, { ...identity, equity: { ...identity.equity, boards: 601 } }),
    ).not.toBe(hash);
    // solvePreflop still refuses a PLO config.
    expect(() => solvePreflop({ config, stack: 100, maxIterations: 1 })).toThrow(/PLO/);
  });

  it("stores one value per bucket with the map, and round-trips", async () => {
    const { header } = pack;
    expect(header.classSet).toBe("plo16432");
    expect(header.classCount).toBe(PLO_CLASS_COUNT);
    expect(header.buckets!.count).toBe(512);
    expect(Array.from(packClassToBucket(header)!)).toEqual(Array.from(abstraction.classToBucket));
    expect(pack.nodes[0]!.actions[0]!.freqs.length).toBe(512);
    const bytes = encodePack(pack);
    // Small: one node of 16,432 classes as JSON is larger than this whole pack.
    expect(bytes.length).toBeLessThan(2_000_000);
    const back = decodePack(bytes);
    expect(back.header).toEqual(header);
    expect(back.nodes.length).toBe(pack.nodes.length);
    back.nodes.forEach((node, i) => {
      const orig = pack.nodes[i]!;
      expect(node.history).toBe(orig.history);
      node.actions.forEach((a, j) => {
        const o = orig.actions[j]!;
        expect(a.token).toBe(o.token);
        for (let b = 0; b < 512; b++) {
          expect(Math.abs(a.freqs[b]! - o.freqs[b]!)).toBeLessThanOrEqual(FREQ_MAX_ERROR + 1e-7);
          expect(Math.abs(a.evs![b]! - o.evs![b]!)).toBeLessThanOrEqual(0.005 + 1e-4);
        }
      });
    });
    expect(encodePack(back).equals(bytes)).toBe(true);
    const read = await readPackFile(packPath(dir, "plo6hu", 100));
    expect(read.header).toEqual(header);
  });

  it("serves /node over the 16,432 classes: (AK)(AK) double-suited never folds first in, 9642 rainbow folds more", () => {
    const full = NodeSchema.parse(store.node("plo6hu", 100, "SB"));
    expect(full.actor).toBe("SB");
    const fold = full.actions.find((a) => a.action === "Fold")!;
    const raise = full.actions.find((a) => a.kind === "raise" || a.kind === "allin")!;
    expect(fold).toBeDefined();
    // Every class appears in some action's weights; EVs are scored per class.
    const named = new Set(full.actions.flatMap((a) => Object.keys(a.weights)));
    expect(named.size).toBe(PLO_CLASS_COUNT);
    expect(Object.keys(raise.evs).length).toBe(PLO_CLASS_COUNT);
    // Combos sum to every hand.
    const combos = full.actions.reduce((s, a) => s + a.combos, 0);
    expect(combos).toBeGreaterThan(270_725 * 0.999);
    expect(combos).toBeLessThan(270_725 * 1.001);

    expect(fold.weights["(AK)(AK)"] ?? 0).toBe(0);
    expect(fold.weights["9642"] ?? 0).toBeGreaterThan(fold.weights["(AK)(AK)"] ?? 0);
    expect(fold.weights["9642"] ?? 0).toBeGreaterThan(0.5);

    // The served weights are the bucket strategies of the pack.
    const map = abstraction.classToBucket;
    const root = pack.nodes.find((n) => n.history === "SB")!;
    const foldAction = root.actions.find((a) => a.token === "Fold")!;
    for (const name of ["(AK)(AK)", "9642", "(AK)QJ", "AKQJ", "(AKQ)J"]) {
      const f = foldAction.freqs[map[classIndex(name)]!]!;
      expect(fold.weights[name] ?? 0).toBeCloseTo(f, 3);
    }
  });

  it("answers hand as a class name or four concrete cards, and minFreq keeps payloads small", () => {
    const byName = NodeSchema.parse(store.node("plo6hu", 100, "SB", { hand: "(AK)(AK)" }));
    const byCards = NodeSchema.parse(store.node("plo6hu", 100, "SB", { hand: "AsKsAhKh" }));
    expect(byCards).toEqual(byName);
    for (const a of byName.actions) expect(Object.keys(a.weights).every((k) => k === "(AK)(AK)")).toBe(true);
    expect(byName.actions.find((a) => a.action === "Fold")!.weights["(AK)(AK)"] ?? 0).toBe(0);

    const small = NodeSchema.parse(store.node("plo6hu", 100, "SB", { minFreq: 0.05 }));
    const big = JSON.stringify(store.node("plo6hu", 100, "SB"));
    expect(JSON.stringify(small).length).toBeLessThan(big.length);
    for (const a of small.actions) expect(Object.values(a.weights).every((w) => w > 0.05)).toBe(true);

    const range = RangeSchema.parse(store.range("plo6hu", 100, "SB_Fold", { hand: "9c6d4h2s" }));
    expect(range.hand).toBe("9642");
    expect(range.freq!).toBeGreaterThan(0.5);
    const all = ploClasses();
    expect(all.length).toBe(PLO_CLASS_COUNT);
  });
});
