import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES } from "@ranges/core";
import {
  CatalogSchema,
  ConfigSchema,
  DiscoverySchema,
  type Node,
  NodeSchema,
  RangeSchema,
  SpotsSchema,
} from "@ranges/schema";
import { beforeAll, describe, expect, it } from "vitest";
import {
  encodePack,
  type PackData,
  packPath,
  RAKE_NOT_RECORDED,
  RangeStore,
  writePack,
} from "../src/index.js";
import { buildPack, expectRangesError, isUnscored, tmpDir, withHeaderJson, withoutRake } from "./fixtures.js";

let dir: string;
const packs: Record<string, PackData> = {};
const MTT_ROOT_FOLDS = "UTG_Fold_UTG1_Fold_LJ_Fold_HJ_Fold_CO";

const fresh = (cacheBytes?: number): RangeStore =>
  RangeStore.open(cacheBytes === undefined ? { packsDir: dir } : { packsDir: dir, cacheBytes });

const node = (store: RangeStore, ...args: Parameters<RangeStore["node"]>): Node =>
  NodeSchema.parse(store.node(...args));

const decimals = (x: number): number => (String(x).split(".")[1] ?? "").length;

beforeAll(async () => {
  dir = tmpDir();
  const put = async (key: string, data: PackData) => {
    packs[key] = data;
    await writePack(packPath(dir, data.header.game, data.header.stack), data);
  };
  await put("mtt40", buildPack({ game: "nlmtt8", stack: 40, maxNodes: 200 }));
  await put("mtt20", buildPack({ game: "nlmtt8", stack: 20, maxNodes: 30, seed: 2 }));
  await put(
    "mtt10",
    buildPack({
      game: "nlmtt8",
      stack: 10,
      maxNodes: 10,
      seed: 3,
      config: {
        stacks: null,
        openSizes: {
          open: { label: "all-in", sizeBb: 10 },
          sb: { label: "all-in", sizeBb: null },
          note: "10bb is all-in or fold",
        },
        unverified: [
          { field: "stacks", reason: "all-in/fold against 50bb stacks; per-seat stacks not listed" },
        ],
        treeSizes: null,
      },
    }),
  );
  await put("mtt15", buildPack({ game: "nlmtt8", stack: 15, maxNodes: 5, seed: 4 }));
  await put("v2", buildPack({ game: "nl/v2", stack: 100, maxNodes: 60, seed: 5 }));
  await put("v2abs", buildPack({ game: "nl/v2", stack: 50, maxNodes: 10, seed: 6, nonZeroFoldEv: true }));
  await put("nl", buildPack({ game: "nl", stack: 100, maxNodes: 20, seed: 7 }));
  await put(
    "plo",
    buildPack({
      game: "plo",
      stack: 100,
      maxNodes: 4,
      seed: 8,
      policy: (ctx) => (ctx.raises === 0 ? [0, 40050, 40100] : [0, 1, 40100]),
      expand: (steps) => steps.length <= 1,
    }),
  );
  // nlmtt8 15bb: flip one data byte (found on first query). nl9 50bb: flip a header byte (found on open).
  // nl9 100bb: truncated. nl9/abc.pack: not a stack. plo9: no directory at all.
  const p15 = packPath(dir, "nlmtt8", 15);
  const b15 = readFileSync(p15);
  b15[b15.length - 10] = b15[b15.length - 10]! ^ 0x40;
  writeFileSync(p15, b15);
  mkdirSync(join(dir, "nl9"));
  const b50 = encodePack(buildPack({ game: "nl9", stack: 50, maxNodes: 3 }));
  b50[120] = b50[120]! ^ 0x01;
  writeFileSync(packPath(dir, "nl9", 50), b50);
  const b100 = encodePack(buildPack({ game: "nl9", stack: 100, maxNodes: 3 }));
  writeFileSync(packPath(dir, "nl9", 100), b100.subarray(0, b100.length - 100));
  writeFileSync(join(dir, "nl9", "abc.pack"), b100);
  writeFileSync(join(dir, "nl9", "README.txt"), "not a pack");
}, 30_000);

describe("RangeStore.open", () => {
  it("records every pack file with its status and never throws", () => {
    const store = fresh();
    const status = store.packStatus();
    const byFile = Object.fromEntries(status.map((s) => [s.file, s]));
    expect(Object.keys(byFile).sort()).toEqual(
      [
        "nl-v2/100.pack",
        "nl-v2/50.pack",
        "nl/100.pack",
        "nl9/100.pack",
        "nl9/50.pack",
        "nl9/abc.pack",
        "nlmtt8/10.pack",
        "nlmtt8/15.pack",
        "nlmtt8/20.pack",
        "nlmtt8/40.pack",
        "plo/100.pack",
      ].sort(),
    );
    expect(byFile["nl9/50.pack"]).toMatchObject({
      ok: false,
      stack: 50,
      error: expect.stringMatching(/checksum/),
    });
    expect(byFile["nl9/100.pack"]).toMatchObject({ ok: false, error: expect.stringMatching(/truncated/) });
    expect(byFile["nl9/abc.pack"]).toMatchObject({
      ok: false,
      stack: null,
      error: expect.stringMatching(/name/),
    });
    // The corrupt data section is not read at open.
    expect(byFile["nlmtt8/15.pack"]).toMatchObject({ ok: true, dataLoaded: false });
    expect(byFile["nlmtt8/40.pack"]?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it("lists live stacks sorted", () => {
    const store = fresh();
    expect(store.liveStacks("nlmtt8")).toEqual([10, 15, 20, 40]);
    expect(store.liveStacks("nl/v2")).toEqual([50, 100]);
    expect(store.liveStacks("nl9")).toEqual([]);
    expect(store.liveStacks("plo9")).toEqual([]);
  });

  it("opens a missing directory as an empty store", () => {
    const store = RangeStore.open({ packsDir: join(dir, "does-not-exist") });
    expect(store.packStatus()).toEqual([]);
    const catalog = CatalogSchema.parse(store.catalog());
    expect(catalog.games.map((g) => g.stacks)).toEqual(Array(8).fill([]));
    expectRangesError(() => store.node("nlmtt8", 40, "UTG"), 404, "unknown_stack");
  });
});

describe("pack failures", () => {
  it("a corrupt header or truncated file answers 503 naming the file; other packs serve", () => {
    const store = fresh();
    const e = expectRangesError(() => store.node("nl9", 50, "UTG"), 503, "pack_unavailable");
    expect(e.message).toContain("nl9/50.pack");
    expect(e.message).toMatch(/checksum/);
    expect(
      expectRangesError(() => store.range("nl9", 100, "UTG_Fold"), 503, "pack_unavailable").message,
    ).toContain("nl9/100.pack");
    expect(node(store, "nlmtt8", 40, "UTG").actions.length).toBe(3);
  });

  it("a corrupt data section fails on first query with 503, then leaves the live stacks", () => {
    const store = fresh();
    expect(store.discovery("nlmtt8").stacks).toEqual([10, 15, 20, 40]);
    const e = expectRangesError(() => store.node("nlmtt8", 15, "UTG"), 503, "pack_unavailable");
    expect(e.message).toContain("nlmtt8/15.pack");
    expect(e.message).toMatch(/data checksum/);
    expect(e.hint?.stacks).toEqual([10, 20, 40]);
    // Stays unavailable, and the other stacks keep serving.
    expectRangesError(() => store.spots("nlmtt8", 15), 503, "pack_unavailable");
    expect(store.liveStacks("nlmtt8")).toEqual([10, 20, 40]);
    expect(node(store, "nlmtt8", 20, "UTG").stack).toBe(20);
    expect(store.packStatus().find((s) => s.file === "nlmtt8/15.pack")).toMatchObject({ ok: false });
    expectRangesError(() => store.packMeta("nlmtt8", 15), 503, "pack_unavailable");
  });
});

describe("catalog and discovery", () => {
  it("catalog lists all eight games with their live stacks", () => {
    const catalog = CatalogSchema.parse(fresh().catalog());
    expect(catalog.games.map((g) => g.game)).toEqual([
      "nl",
      "nl/v2",
      "nl9",
      "nlmtt8",
      "plo",
      "plo9",
      "plo5",
      "plo6hu",
    ]);
    const mtt = catalog.games.find((g) => g.game === "nlmtt8")!;
    expect(mtt).toMatchObject({ stacks: [10, 15, 20, 40], tokens: "depth", classCount: 169, evUnit: "sb" });
    expect(mtt.positions).toEqual(["UTG", "UTG1", "LJ", "HJ", "CO", "BTN", "SB", "BB"]);
    expect(catalog.games.find((g) => g.game === "nl")).toMatchObject({ evUnit: null, stacks: [100] });
    expect(catalog.games.find((g) => g.game === "plo9")).toMatchObject({ stacks: [], classCount: 16432 });
  });

  it("discovery answers with empty stacks for a game without packs", () => {
    const store = fresh();
    expect(DiscoverySchema.parse(store.discovery("plo9"))).toMatchObject({ game: "plo9", stacks: [] });
    expect(DiscoverySchema.parse(store.discovery("nl")).units.evs).toBe("none");
    expectRangesError(() => store.discovery("nl10" as never), 404, "unknown_game");
  });
});

describe("node", () => {
  const store = (): RangeStore => shared;
  let shared: RangeStore;
  beforeAll(() => {
    shared = fresh();
  });

  it("returns the root node with sizes, depth and EV fields", () => {
    const n = node(store(), "nlmtt8", 40, "UTG");
    expect(n).toMatchObject({ game: "nlmtt8", stack: 40, history: "UTG", actor: "UTG", depth: 1 });
    expect(n).toMatchObject({ evUnit: "sb", evBaseline: "fold", units: { evs: "sb", stack: "bb" } });
    expect(n.actions.map((a) => [a.action, a.kind, a.sizeBb, a.sizePctPot])).toEqual([
      ["Fold", "fold", null, null],
      ["Open", "raise", 2.19, 34],
      ["AI", "allin", 40, null],
    ]);
    expect(n.actions[0]!.sizeReason).toBeTruthy();
    expect(n.actions[1]!.sizeReason).toBeUndefined();
    expect(n.actions[2]!.sizeReason).toMatch(/all-in/);
  });

  it("serves the SB open at 2.8bb and Limp", () => {
    const n = node(store(), "nlmtt8", 40, `${MTT_ROOT_FOLDS}_Fold_BTN_Fold_SB`);
    expect(n.actions.map((a) => a.action)).toEqual(["Fold", "Limp", "Open", "AI"]);
    expect(n.actions[2]).toMatchObject({ sizeBb: 2.8, sizePctPot: 60 });
    expect(node(store(), "nlmtt8", 40, `${MTT_ROOT_FOLDS}_Fold_BTN_Fold_SB_Limp_BB`).depth).toBe(1);
  });

  it("matches the stored frequencies, omits zeros, rounds to 4 decimals", () => {
    const n = node(store(), "nlmtt8", 40, "UTG");
    const stored = packs.mtt40!.nodes[0]!;
    n.actions.forEach((a, i) => {
      const freqs = stored.actions[i]!.freqs;
      let combos = 0;
      HOLDEM_CLASSES.forEach((name, c) => {
        combos += freqs[c]! * HOLDEM_CLASS_COMBOS[c]!;
        const w = a.weights[name];
        if (Math.round(freqs[c]! * 1e4) === 0) expect(w).toBeUndefined();
        else expect(Math.abs(w! - freqs[c]!)).toBeLessThan(1e-4);
        if (w !== undefined) expect(decimals(w)).toBeLessThanOrEqual(4);
      });
      expect(Math.abs(a.combos - combos)).toBeLessThan(0.01);
    });
  });

  it("lists EVs of scored hands only, including scored hands at frequency 0", () => {
    const n = node(store(), "nlmtt8", 40, "UTG");
    const open = n.actions[1]!;
    HOLDEM_CLASSES.forEach((name, c) => {
      expect(name in open.evs).toBe(!isUnscored(c));
      if (open.evs[name] !== undefined) expect(decimals(open.evs[name]!)).toBeLessThanOrEqual(4);
    });
    const zeroButScored = HOLDEM_CLASSES.filter(
      (name, c) => !isUnscored(c) && open.weights[name] === undefined,
    );
    expect(zeroButScored.length).toBeGreaterThan(0);
    expect(Object.values(n.actions[0]!.evs).every((ev) => ev === 0)).toBe(true);
  });

  it("tags betting depth by raises made", () => {
    const s = store();
    expect(node(s, "nlmtt8", 40, "UTG_Open_UTG1").depth).toBe(2);
    expect(node(s, "nlmtt8", 40, "UTG_Open_UTG1_Fold_LJ_Fold_HJ_Fold_CO_Fold_BTN").depth).toBe(2);
    expect(node(s, "nlmtt8", 40, "UTG_Open_UTG1_Fold_LJ_Fold_HJ_Fold_CO_Fold_BTN_3B_SB").depth).toBe(3);
    expect(node(s, "nlmtt8", 40, `${MTT_ROOT_FOLDS}_Fold_BTN`).depth).toBe(1);
  });

  it("restricts to one hand given as a class or as cards", () => {
    const s = store();
    const full = node(s, "nlmtt8", 40, "UTG");
    const byClass = node(s, "nlmtt8", 40, "UTG", { hand: "AKs" });
    expect(node(s, "nlmtt8", 40, "UTG", { hand: "AhKh" })).toEqual(byClass);
    byClass.actions.forEach((a, i) => {
      const want = full.actions[i]!;
      expect(a.weights).toEqual(want.weights.AKs === undefined ? {} : { AKs: want.weights.AKs });
      expect(a.evs).toEqual(want.evs.AKs === undefined ? {} : { AKs: want.evs.AKs });
      expect(a.combos).toBe(want.combos);
    });
    expectRangesError(() => s.node("nlmtt8", 40, "UTG", { hand: "AKx" }), 400, "invalid_hand");
  });

  it("minFreq drops weights at or below it and their EVs, keeping combos", () => {
    const s = store();
    const all = node(s, "nlmtt8", 40, "UTG");
    const some = node(s, "nlmtt8", 40, "UTG", { minFreq: 0.3 });
    some.actions.forEach((a, i) => {
      const want = all.actions[i]!;
      expect(a.combos).toBe(want.combos);
      for (const [name, w] of Object.entries(want.weights)) {
        if (w > 0.3) expect(a.weights[name]).toBe(w);
        else expect(a.weights[name]).toBeUndefined();
      }
      expect(Object.keys(a.evs).every((name) => name in a.weights)).toBe(true);
    });
    expect(Object.keys(some.actions[1]!.weights).length).toBeLessThan(
      Object.keys(all.actions[1]!.weights).length,
    );
    expectRangesError(() => s.node("nlmtt8", 40, "UTG", { minFreq: 1.5 }), 400, "invalid_parameter");
  });

  it("full=1 writes all 169 classes with explicit zeros and adds no EVs", () => {
    const s = store();
    const all = node(s, "nlmtt8", 40, "UTG");
    const full = node(s, "nlmtt8", 40, "UTG", { full: true });
    const fullMin = node(s, "nlmtt8", 40, "UTG", { full: true, minFreq: 0.5 });
    full.actions.forEach((a, i) => {
      // Pair classes such as "22" are integer-like keys, so compare as sets, not in order.
      expect(Object.keys(a.weights).sort()).toEqual([...HOLDEM_CLASSES].sort());
      expect(a.evs).toEqual(all.actions[i]!.evs);
      expect(fullMin.actions[i]!.weights).toEqual(a.weights);
    });
    expect(Object.values(full.actions[1]!.weights)).toContain(0);
    expectRangesError(() => s.node("plo", 100, "UTG", { full: true }), 400, "invalid_parameter");
  });

  it("rejects a range path as history, pointing to /range", () => {
    const e = expectRangesError(() => store().node("nlmtt8", 40, "UTG_Open"), 400, "malformed_path");
    expect(e.message).toMatch(/history must end in the seat to act/);
    expect(e.message).toContain("/range");
    expect(e.message).toContain("UTG_Open_UTG1");
  });

  it("passes the grammar's errors through", () => {
    const s = store();
    expectRangesError(() => s.node("nlmtt8", 40, "CO"), 404, "missing_folds");
    expectRangesError(() => s.node("nlmtt8", 40, "UTG_Raise_UTG1"), 400, "invalid_token");
    expectRangesError(() => s.node("nlmtt8", 40, "XX"), 400, "malformed_path");
    expectRangesError(() => s.node("nlmtt8", 40, ""), 400, "malformed_path");
  });

  it("404 action_not_available names the valid prefix and its actions", () => {
    const e = expectRangesError(
      () => store().node("nlmtt8", 40, "UTG_Limp_UTG1"),
      404,
      "action_not_available",
    );
    expect(e.hint).toMatchObject({ validPrefix: "UTG", validActions: ["Fold", "Open", "AI"] });
    expect(e.message).toContain("Fold, Open, AI");
    const deep = expectRangesError(
      () => store().node("nlmtt8", 40, "UTG_Open_UTG1_Limp_LJ"),
      404,
      "action_not_available",
    );
    expect(deep.hint?.validPrefix).toBe("UTG_Open_UTG1");
  });

  it("404 node_not_found where the tree does not continue a line", () => {
    // The fixture plays out only the active seats' calls and raises: UTG1's open is a leaf.
    const e = expectRangesError(
      () => store().node("nlmtt8", 40, "UTG_Fold_UTG1_Open_LJ"),
      404,
      "node_not_found",
    );
    expect(e.hint).toMatchObject({ validPrefix: "UTG_Fold_UTG1", validActions: ["Fold", "Open", "AI"] });
  });

  it("404 unknown_stack lists the live stacks", () => {
    const e = expectRangesError(() => store().node("nlmtt8", 35, "UTG"), 404, "unknown_stack");
    expect(e.hint?.stacks).toEqual(store().liveStacks("nlmtt8"));
    expectRangesError(() => store().node("nlmtt8", 40.5, "UTG"), 400, "invalid_parameter");
    expectRangesError(() => store().node("plo9", 100, "UTG"), 404, "unknown_stack");
  });

  it("nl v1 has no EVs", () => {
    const n = node(store(), "nl", 100, "UTG");
    expect(n).toMatchObject({ evUnit: null, evBaseline: null, units: { evs: "none" } });
    expect(n.actions.every((a) => Object.keys(a.evs).length === 0)).toBe(true);
  });

  it("evBaseline is null when stored fold EVs are not 0", () => {
    expect(node(store(), "nl/v2", 50, "UTG").evBaseline).toBeNull();
    expect(node(store(), "nl/v2", 100, "UTG").evBaseline).toBe("fold");
    // A node with no fold (BB facing a limp) takes the pack's baseline.
    const limped = node(store(), "nlmtt8", 40, `${MTT_ROOT_FOLDS}_Fold_BTN_Fold_SB_Limp_BB`);
    expect(limped.actions.map((a) => a.action)).toEqual(["Call", "Open"]);
    expect(limped.evBaseline).toBe("fold");
  });

  it("serves percent tokens and PLO size suffixes", () => {
    const s = store();
    expect(node(s, "nl/v2", 100, "UTG_60%_HJ").actions.map((a) => a.action)).toEqual([
      "Fold",
      "Call",
      "80%",
      "AI",
    ]);
    const plo = node(s, "plo", 100, "UTG", { minFreq: 0.5 });
    expect(plo.actions.map((a) => a.action)).toEqual(["Fold", "Open-50", "Open-100"]);
    expect(plo.actions.every((a) => Object.values(a.weights).every((w) => w > 0.5))).toBe(true);
    expect(node(s, "plo", 100, "UTG_Open-50_HJ").depth).toBe(2);
    const e = expectRangesError(() => s.node("plo", 100, "UTG_Open_HJ"), 404, "action_not_available");
    expect(e.hint?.validActions).toEqual(["Fold", "Open-50", "Open-100"]);
    const aces = node(s, "plo", 100, "UTG", { hand: "AsKsAhKh" });
    expect(aces.actions.every((a) => Object.keys(a.evs).every((k) => k === "(AK)(AK)"))).toBe(true);
  });
});

describe("range", () => {
  let s: RangeStore;
  beforeAll(() => {
    s = fresh();
  });

  it("returns one action's weights, size and EVs", () => {
    const r = RangeSchema.parse(s.range("nlmtt8", 40, "UTG_Open"));
    const n = node(s, "nlmtt8", 40, "UTG");
    expect(r).toMatchObject({
      spot: "UTG_Open",
      actor: "UTG",
      action: "Open",
      kind: "raise",
      sizeBb: 2.19,
      sizePctPot: 34,
      evUnit: "sb",
      evBaseline: "fold",
    });
    expect(r.weights).toEqual(n.actions[1]!.weights);
    expect(r.evs).toEqual(n.actions[1]!.evs);
    expect(r.combos).toBe(n.actions[1]!.combos);
    expect(r.hand).toBeUndefined();
  });

  it("adds hand, freq and ev for one hand; ev is null when unscored", () => {
    const stored = packs.mtt40!.nodes[0]!.actions[1]!;
    const unscored = HOLDEM_CLASSES[3]!;
    const r = RangeSchema.parse(s.range("nlmtt8", 40, "UTG_Open", { hand: unscored }));
    expect(r).toMatchObject({ hand: unscored, ev: null });
    expect(Math.abs(r.freq! - stored.freqs[3]!)).toBeLessThan(1e-4);
    const aa = RangeSchema.parse(s.range("nlmtt8", 40, "UTG_Open", { hand: "AdAc" }));
    expect(aa.hand).toBe("AA");
    // Packs store EVs in hundredths of a small blind.
    expect(Math.abs(aa.ev! - stored.evs![0]!)).toBeLessThanOrEqual(0.0051);
    expect(Object.keys(aa.weights).every((k) => k === "AA")).toBe(true);
    const nl = RangeSchema.parse(s.range("nl", 100, "UTG_Fold", { hand: "AA" }));
    expect(nl).toMatchObject({ ev: null, evUnit: null, evs: {} });
  });

  it("a hand at frequency 0 has freq 0 and no weight", () => {
    const stored = packs.mtt40!.nodes[0]!.actions[1]!;
    const zero = HOLDEM_CLASSES.findIndex(
      (_, c) => Math.round(stored.freqs[c]! * 1e4) === 0 && !isUnscored(c),
    );
    const r = RangeSchema.parse(s.range("nlmtt8", 40, "UTG_Open", { hand: HOLDEM_CLASSES[zero]! }));
    expect(r.freq).toBe(0);
    expect(r.weights).toEqual({});
    expect(Object.keys(r.evs)).toEqual([HOLDEM_CLASSES[zero]]);
  });

  it("rejects a node path as spot, pointing to /node", () => {
    const e = expectRangesError(() => s.range("nlmtt8", 40, "UTG_Open_UTG1"), 400, "malformed_path");
    expect(e.message).toContain("/node");
    expectRangesError(() => s.range("nlmtt8", 40, "UTG_Limp"), 404, "action_not_available");
    expectRangesError(() => s.range("nlmtt8", 40, "UTG_Fold_UTG1_Open_LJ_Fold"), 404, "node_not_found");
    expectRangesError(() => s.range("nlmtt8", 30, "UTG_Open"), 404, "unknown_stack");
  });

  it("minFreq filters the range", () => {
    const r = RangeSchema.parse(s.range("nl/v2", 100, "UTG_60%", { minFreq: 0.4 }));
    expect(Object.values(r.weights).every((w) => w > 0.4)).toBe(true);
  });
});

describe("spots", () => {
  it("lists every node with its depth and tokens", () => {
    const s = fresh();
    const spots = SpotsSchema.parse(s.spots("nlmtt8", 40));
    expect(spots.count).toBe(packs.mtt40!.nodes.length);
    expect(spots.spots[0]).toEqual({
      history: "UTG",
      actor: "UTG",
      depth: 1,
      actions: ["Fold", "Open", "AI"],
    });
    const depths = new Set(spots.spots.map((r) => r.depth));
    expect([...depths].sort()).toEqual([1, 2, 3, 4]);
    expect(spots.spots.find((r) => r.history === `${MTT_ROOT_FOLDS}_Fold_BTN`)?.depth).toBe(1);
    for (const row of spots.spots.slice(0, 40))
      expect(node(s, "nlmtt8", 40, row.history).depth).toBe(row.depth);
  });

  it("is served only where the registry says", () => {
    const s = fresh();
    expect(SpotsSchema.parse(s.spots("plo", 100)).count).toBe(4);
    expect(SpotsSchema.parse(s.spots("nl/v2", 100)).count).toBe(60);
    expect(expectRangesError(() => s.spots("nl9", 50), 404, "not_found").message).toContain("nlmtt8");
    expectRangesError(() => s.spots("nl", 100), 404, "not_found");
    expectRangesError(() => s.spots("nlmtt8", 35), 404, "unknown_stack");
  });
});

describe("config", () => {
  it("serves nlmtt8 table facts with available stacks", () => {
    const s = fresh();
    const c = ConfigSchema.parse(s.config("nlmtt8", 40));
    expect(c).toMatchObject({
      game: "nlmtt8",
      stack: 40,
      seats: ["UTG", "UTG1", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
      blinds: { sb: 0.5, bb: 1 },
      ante: 1,
      antePostedBy: "BB",
      stackIncludesAnte: true,
      evUnit: "sb",
      evBaseline: "fold",
      importedAt: null,
      availableStacks: [10, 15, 20, 40],
      openSizes: { open: { label: "2.2x", sizeBb: 2.19 }, sb: { label: "2.8x", sizeBb: 2.8 }, note: null },
      rake: null,
    });
    expect(c.units).toMatchObject({ stacks: "bb", blinds: "bb", ante: "bb", openSizes: "bb", evs: "sb" });
    expect(c.stacks).toEqual(Array(8).fill(40));
    expect(c.unverified).toEqual([{ field: "importedAt", reason: "solver pack: nothing was imported" }]);
  });

  it("lists every null field in unverified", () => {
    const c = ConfigSchema.parse(fresh().config("nlmtt8", 10));
    expect(c.stacks).toBeNull();
    const fields = c.unverified.map((u) => u.field);
    // The header's own entries first, then every other null field in Config order.
    expect(fields).toEqual(["stacks", "treeSizes", "importedAt", "openSizes.sb.sizeBb"]);
    expect(c.unverified[0]!.reason).toMatch(/50bb/);
    expect(c.unverified.every((u) => u.reason.length > 0)).toBe(true);
  });

  it("serves the rake: as recorded, null for none, null and listed in unverified when unknown", async () => {
    const d = tmpDir();
    const rake = { percent: 2.5, capBb: 0.5, noFlopNoDrop: true } as const;
    // A custom spot may set any rake on any game; none and an older pack without the field beside it.
    await writePack(
      packPath(d, "nlmtt8", 40),
      buildPack({ game: "nlmtt8", stack: 40, maxNodes: 5, config: { rake } }),
    );
    await writePack(
      packPath(d, "nlmtt8", 10),
      buildPack({ game: "nlmtt8", stack: 10, maxNodes: 5, config: { rake: null } }),
    );
    const legacy = encodePack(buildPack({ game: "nlmtt8", stack: 20, maxNodes: 5, config: { rake } }));
    writeFileSync(packPath(d, "nlmtt8", 20), withHeaderJson(legacy, withoutRake));
    const s = RangeStore.open({ packsDir: d });
    expect(s.packStatus().every((p) => p.ok)).toBe(true);

    const raked = ConfigSchema.parse(s.config("nlmtt8", 40));
    expect(raked.rake).toEqual(rake);
    expect(raked.unverified.map((u) => u.field)).not.toContain("rake");

    const none = ConfigSchema.parse(s.config("nlmtt8", 10));
    expect(none.rake).toBeNull();
    expect(none.unverified.map((u) => u.field)).not.toContain("rake");

    const unknown = ConfigSchema.parse(s.config("nlmtt8", 20));
    expect(unknown.rake).toBeNull();
    expect(unknown.unverified.filter((u) => u.field === "rake")).toEqual([RAKE_NOT_RECORDED]);
    expect(s.packMeta("nlmtt8", 20).header.config).toMatchObject({ rake: null });

    // The JSON fast path serves the same bodies.
    for (const stack of [40, 10, 20]) {
      const body = JSON.parse(s.json({ kind: "config", game: "nlmtt8", stack }).body);
      expect(ConfigSchema.parse(body)).toEqual(s.config("nlmtt8", stack));
      expect("rake" in body).toBe(true);
    }
  });

  it("is served for nlmtt8 only", () => {
    const s = fresh();
    const e = expectRangesError(() => s.config("nl/v2", 100), 404, "not_found");
    expect(e.message).toMatch(/config is served for nlmtt8/);
    expectRangesError(() => s.config("nlmtt8", 35), 404, "unknown_stack");
    expectRangesError(() => s.config("nlmtt8", 2.5), 400, "invalid_parameter");
  });
});

describe("packMeta", () => {
  it("returns header facts and the checksum", () => {
    const s = fresh();
    const meta = s.packMeta("nlmtt8", 40);
    expect(meta.header.provenance.exploitability).toEqual([{ seat: "BB", mbbPerHand: 1.5, pctPot: 0.1 }]);
    expect(meta.nodeCount).toBe(200);
    expect(meta.checksum).toBe(s.packStatus().find((p) => p.file === "nlmtt8/40.pack")!.checksum);
    expect(meta.fileBytes).toBe(readFileSync(meta.path).length);
    expectRangesError(() => s.packMeta("nlmtt8", 35), 404, "unknown_stack");
    expectRangesError(() => s.packMeta("nl9", 50), 503, "pack_unavailable");
  });
});

describe("json", () => {
  it("returns the same body as the object query, cached from the query's second miss on", () => {
    const s = fresh();
    const q = { kind: "node", game: "nlmtt8", stack: 40, history: "UTG", minFreq: 0.1 } as const;
    const first = s.json(q);
    expect(JSON.parse(first.body)).toEqual(s.node("nlmtt8", 40, "UTG", { minFreq: 0.1 }));
    expect(first.etag).toMatch(/^"[0-9a-f]{40}"$/);
    // A query asked once is answered, not kept.
    expect(s.cacheStats()).toMatchObject({ entries: 0, bytes: 0, hits: 0, misses: 1 });
    const second = s.json(q);
    expect(second).not.toBe(first);
    expect(second.body).toBe(first.body);
    expect(second.etag).toBe(first.etag);
    expect(s.cacheStats()).toMatchObject({ entries: 1, hits: 0, misses: 2 });
    expect(s.json(q)).toBe(second);
    expect(s.cacheStats()).toMatchObject({ entries: 1, hits: 1, misses: 2 });
    expect(s.cacheStats().bytes).toBeGreaterThanOrEqual(first.body.length);
  });

  it("keeps no body of queries asked once, however many", () => {
    const s = fresh();
    for (let k = 1; k <= 200; k++)
      s.json({ kind: "node", game: "nlmtt8", stack: 40, history: "UTG", minFreq: k / 1000 });
    expect(s.cacheStats()).toMatchObject({ entries: 0, bytes: 0, misses: 200 });
  });

  it("normalizes hands and numbers into one cache entry", () => {
    const s = fresh();
    const a = s.json({ kind: "range", game: "nlmtt8", stack: 40, spot: "UTG_Open", hand: "AKs" });
    // The same query written another way is its second sight: kept, and answered again from the cache.
    const b = s.json({ kind: "range", game: "nlmtt8", stack: 40, spot: "UTG_Open", hand: "KhAh" });
    expect(b.etag).toBe(a.etag);
    expect(s.json({ kind: "range", game: "nlmtt8", stack: 40, spot: "UTG_Open", hand: "AKs" })).toBe(b);
    expect(s.cacheStats()).toMatchObject({ entries: 1, hits: 1, misses: 2 });
  });

  it("ETags are stable across stores and differ between queries", () => {
    const q = { kind: "node", game: "nlmtt8", stack: 40, history: "UTG" } as const;
    const e1 = fresh().json(q).etag;
    expect(fresh().json(q).etag).toBe(e1);
    expect(fresh().json({ ...q, full: true }).etag).not.toBe(e1);
    expect(fresh().json({ ...q, stack: 20 }).etag).not.toBe(e1);
    expect(fresh().json({ kind: "catalog" }).etag).toBe(fresh().json({ kind: "catalog" }).etag);
  });

  it("serves every kind and validates against the schemas", () => {
    const s = fresh();
    CatalogSchema.parse(JSON.parse(s.json({ kind: "catalog" }).body));
    DiscoverySchema.parse(JSON.parse(s.json({ kind: "discovery", game: "nl/v2" }).body));
    NodeSchema.parse(
      JSON.parse(s.json({ kind: "node", game: "nl/v2", stack: 100, history: "UTG", full: true }).body),
    );
    RangeSchema.parse(JSON.parse(s.json({ kind: "range", game: "plo", stack: 100, spot: "UTG_Fold" }).body));
    SpotsSchema.parse(JSON.parse(s.json({ kind: "spots", game: "nlmtt8", stack: 40 }).body));
    ConfigSchema.parse(JSON.parse(s.json({ kind: "config", game: "nlmtt8", stack: 20 }).body));
  });

  it("throws errors without caching them", () => {
    const s = fresh();
    expectRangesError(
      () => s.json({ kind: "node", game: "nlmtt8", stack: 40, history: "CO" }),
      404,
      "missing_folds",
    );
    expectRangesError(() => s.json({ kind: "config", game: "nl", stack: 100 }), 404, "not_found");
    expectRangesError(
      () => s.json({ kind: "node", game: "nl9", stack: 50, history: "UTG" }),
      503,
      "pack_unavailable",
    );
    expectRangesError(() => s.json({ kind: "bogus" } as never), 400, "invalid_parameter");
    expect(s.cacheStats().entries).toBe(0);
  });

  it("catalog body and ETag change when a pack turns bad", () => {
    const s = fresh();
    const before = s.json({ kind: "catalog" });
    const discovery = s.json({ kind: "discovery", game: "nlmtt8" });
    expectRangesError(
      () => s.json({ kind: "node", game: "nlmtt8", stack: 15, history: "UTG" }),
      503,
      "pack_unavailable",
    );
    const after = s.json({ kind: "catalog" });
    expect(after.etag).not.toBe(before.etag);
    expect(after.body).not.toBe(before.body);
    expect(JSON.parse(s.json({ kind: "discovery", game: "nlmtt8" }).body).stacks).toEqual([10, 20, 40]);
    expect(JSON.parse(discovery.body).stacks).toEqual([10, 15, 20, 40]);
  });

  it("stays within its byte bound", () => {
    const s = fresh(30_000);
    for (const history of ["UTG", "UTG_Fold_UTG1", "UTG_Open_UTG1", "UTG_Fold_UTG1_Fold_LJ"]) {
      s.json({ kind: "node", game: "nlmtt8", stack: 40, history, full: true });
    }
    expect(s.cacheStats().bytes).toBeLessThanOrEqual(30_000);
    expect(s.cacheStats().entries).toBeLessThan(4);
    const off = fresh(0);
    off.json({ kind: "catalog" });
    expect(off.cacheStats()).toMatchObject({ entries: 0, bytes: 0, misses: 1 });
  });
});
