import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOLDEM_CLASS_COUNT } from "@ranges/core";
import {
  CatalogSchema,
  ConfigSchema,
  DiscoverySchema,
  NodeSchema,
  RangeSchema,
  SpotsSchema,
} from "@ranges/schema";
import {
  importMonker,
  nodeReach,
  type PackConfig,
  packPath,
  RAKE_NOT_RECORDED,
  readPackFile,
  writePack,
} from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPack, CASH_TREE, MTT_TREE } from "./fixtures.js";
import { bearer, expectError, fixturePacksDir, getJson, start, type TestServer } from "./helpers.js";

let t: TestServer;
let removePacks: () => void;
let key: string;
const R = "/api/v1/ranges";

beforeAll(async () => {
  const packs = await fixturePacksDir();
  removePacks = packs.remove;
  t = await start({ packsDir: packs.dir, keylessDailyLimit: 100_000 });
  key = (await t.access.createKey({ name: "tests" })).key;
});
afterAll(async () => {
  await t.close();
  removePacks();
});

const get = (path: string, withKey = false) => getJson(`${t.base}${path}`, withKey ? bearer(key) : undefined);

/** GET, expect 200, validate with the schema, return the parsed body. */
async function ok<T>(schema: { parse: (v: unknown) => T }, path: string, withKey = false): Promise<T> {
  const r = await get(path, withKey);
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
  return schema.parse(r.body);
}

describe("catalog and discovery", () => {
  it("GET /games lists the eight games with live stacks", async () => {
    const c = await ok(CatalogSchema, `${R}/games`);
    expect(c.games.map((g) => g.game).sort()).toEqual(
      ["nl", "nl/v2", "nl9", "nlmtt8", "plo", "plo5", "plo6hu", "plo9"].sort(),
    );
    expect(c.games.find((g) => g.game === "nl")!.stacks).toEqual([100, 200]);
  });

  it.each([
    ["nl", [100, 200], ["UTG", "HJ", "CO", "BTN", "SB", "BB"]],
    ["nl/v2", [100], ["UTG", "HJ", "CO", "BTN", "SB", "BB"]],
    ["plo", [100], ["UTG", "HJ", "CO", "BTN", "SB", "BB"]],
    ["nl9", [], ["UTG", "UTG1", "UTG2", "LJ", "HJ", "CO", "BTN", "SB", "BB"]],
  ])("GET /%s discovery", async (game, stacks, positions) => {
    const d = await ok(DiscoverySchema, `${R}/${game}`);
    expect(d).toMatchObject({ game, stacks, positions });
  });

  it("nlmtt8 discovery lists the readable stacks", async () => {
    const d = await ok(DiscoverySchema, `${R}/nlmtt8`);
    expect(d.stacks).toContain(10);
    expect(d.stacks).toContain(40);
    expect(d.positions).toEqual(["UTG", "UTG1", "LJ", "HJ", "CO", "BTN", "SB", "BB"]);
  });

  it("unknown games are 404 unknown_game, listing the games", async () => {
    for (const path of [`${R}/poker`, `${R}/poker/node?stack=100&history=UTG`, `${R}/NL/range`]) {
      const e = expectError(await get(path), 404, "unknown_game", /is not a game\. Games: nl, nl\/v2/);
      expect(e.hint).toBeDefined();
    }
  });

  it("discovery takes no parameters", async () => {
    expectError(await get(`${R}/nl?stack=100`), 400, "invalid_parameter", /takes no parameters/);
    expectError(await get(`${R}/games?x=1`), 400, "invalid_parameter", /takes no parameters/);
  });
});

describe("/node", () => {
  it("nl (v1): every action with sizes from the pot arithmetic and no EVs", async () => {
    const n = await ok(NodeSchema, `${R}/nl/node?stack=100&history=UTG`);
    expect(n).toMatchObject({ game: "nl", stack: 100, history: "UTG", actor: "UTG", depth: 1, evUnit: null });
    expect(n.actions.map((a) => a.action)).toEqual(["Fold", "60%", "AI"]);
    // 60% of the pot after calling: 1 + 0.6 * (1.5 + 1) = 2.5bb.
    expect(n.actions[1]).toMatchObject({ kind: "raise", sizeBb: 2.5, sizePctPot: 60 });
    expect(n.actions[2]).toMatchObject({ kind: "allin", sizeBb: 100, sizePctPot: null });
    expect(n.actions[2]!.sizeReason).toBeTruthy();
    for (const a of n.actions) expect(a.evs).toEqual({});
  });

  it("nl/v2 is routed as two segments and carries EVs relative to fold", async () => {
    const n = await ok(NodeSchema, `${R}/nl/v2/node?stack=100&history=UTG_Fold_HJ_Fold_CO`);
    expect(n).toMatchObject({ game: "nl/v2", actor: "CO", evUnit: "sb", evBaseline: "fold" });
    expect(n.actions.map((a) => a.action)).toEqual(CASH_TREE[2]!.actions.map((a) => a.token));
    expect(Object.keys(n.actions[1]!.evs).length).toBeGreaterThan(0);
  });

  it("nlmtt8 40bb: the UTG open decodes to 2.19bb at 34% of the pot (with a key)", async () => {
    const n = await ok(NodeSchema, `${R}/nlmtt8/node?stack=40&history=UTG`, true);
    expect(n.actions.map((a) => a.action)).toEqual(MTT_TREE[0]!.actions.map((a) => a.token));
    expect(n.actions[1]).toMatchObject({ action: "Open", kind: "raise", sizeBb: 2.19, sizePctPot: 34 });
  });

  it("a raise after percent-encoding: history=UTG_60%25_HJ", async () => {
    const n = await ok(NodeSchema, `${R}/nl/node?stack=100&history=UTG_60%25_HJ`);
    expect(n).toMatchObject({ history: "UTG_60%_HJ", actor: "HJ", depth: 2 });
  });

  it("hand= restricts every action to one class", async () => {
    const n = await ok(NodeSchema, `${R}/nl/v2/node?stack=100&history=UTG&hand=AKs`);
    for (const a of n.actions) expect(Object.keys(a.weights).every((h) => h === "AKs")).toBe(true);
    const cards = await ok(NodeSchema, `${R}/nl/v2/node?stack=100&history=UTG&hand=AhKh`);
    expect(cards.actions.map((a) => a.weights)).toEqual(n.actions.map((a) => a.weights));
  });

  it("minFreq drops weights at or below the threshold", async () => {
    const all = await ok(NodeSchema, `${R}/nl/node?stack=100&history=UTG`);
    const some = await ok(NodeSchema, `${R}/nl/node?stack=100&history=UTG&minFreq=0.5`);
    for (const a of some.actions) for (const w of Object.values(a.weights)) expect(w).toBeGreaterThan(0.5);
    const count = (n: typeof all) => n.actions.reduce((s, a) => s + Object.keys(a.weights).length, 0);
    expect(count(some)).toBeLessThan(count(all));
  });

  it("full=1 writes all 169 classes, also with minFreq", async () => {
    for (const q of ["full=1", "full=1&minFreq=0.5"]) {
      const n = await ok(NodeSchema, `${R}/nl/node?stack=100&history=UTG&${q}`);
      for (const a of n.actions) expect(Object.keys(a.weights)).toHaveLength(HOLDEM_CLASS_COUNT);
    }
  });

  it("PLO: a class in suit-group notation, sent encoded or raw", async () => {
    const enc = await ok(NodeSchema, `${R}/plo/node?stack=100&history=UTG&hand=%28AK%29QJ`, true);
    for (const a of enc.actions) expect(Object.keys(a.weights).every((h) => h === "(AK)QJ")).toBe(true);
    const raw = await ok(NodeSchema, `${R}/plo/node?stack=100&history=UTG&hand=(AK)QJ`, true);
    expect(raw.actions.map((a) => a.weights)).toEqual(enc.actions.map((a) => a.weights));
  });

  it("PLO: minFreq keeps payloads small", async () => {
    const big = await get(`${R}/plo/node?stack=100&history=UTG`, true);
    const small = await get(`${R}/plo/node?stack=100&history=UTG&minFreq=0.5`, true);
    expect(big.status).toBe(200);
    expect(small.text.length).toBeLessThan(big.text.length);
    NodeSchema.parse(small.body);
  });
});

describe("/range", () => {
  it("one action's range with its raise-to", async () => {
    const r = await ok(RangeSchema, `${R}/nl/range?stack=100&spot=UTG_60%25`);
    expect(r).toMatchObject({ game: "nl", spot: "UTG_60%", actor: "UTG", action: "60%", sizeBb: 2.5 });
  });

  it("hand= adds hand, freq and ev", async () => {
    const r = await ok(RangeSchema, `${R}/nl/v2/range?stack=100&spot=UTG_Fold_HJ_60%25&hand=AKo`);
    expect(r.hand).toBe("AKo");
    expect(typeof r.freq).toBe("number");
    expect(r.ev === null || typeof r.ev === "number").toBe(true);
  });

  it("nlmtt8 3-bet range with minFreq", async () => {
    const r = await ok(RangeSchema, `${R}/nlmtt8/range?stack=40&spot=UTG_Open_UTG1_3B&minFreq=0.1`, true);
    expect(r.action).toBe("3B");
    for (const w of Object.values(r.weights)) expect(w).toBeGreaterThan(0.1);
  });

  it("full is a /node parameter only", async () => {
    expectError(
      await get(`${R}/nl/range?stack=100&spot=UTG_Fold&full=1`),
      400,
      "invalid_parameter",
      /takes stack, spot, hand, minFreq/,
    );
  });
});

describe("reach", () => {
  const inUnit = (x: unknown): boolean => typeof x === "number" && x >= 0 && x <= 1;

  it("every /node body carries reach in [0,1]: 1 at the root, and the store's value elsewhere", async () => {
    for (const [game, tree, withKey] of [
      ["nl", CASH_TREE, false],
      ["nl/v2", CASH_TREE, false],
      ["nlmtt8", MTT_TREE, true],
    ] as const) {
      const stack = game === "nlmtt8" ? 40 : 100;
      for (const { history } of tree) {
        const url = `${R}/${game}/node?stack=${stack}&history=${encodeURIComponent(history)}`;
        const r = await get(url, withKey);
        expect(r.status, r.text).toBe(200);
        expect(inUnit(r.body.reach), `${game} ${history}: ${String(r.body.reach)}`).toBe(true);
        const n = NodeSchema.parse(r.body);
        expect(n.reach).toBe(t.store.node(game, stack, history).reach);
        if (history === tree[0]!.history) expect(n.reach).toBe(1);
        else expect(n.reach).toBeLessThan(1);
      }
    }
    const plo = await ok(NodeSchema, `${R}/plo/node?stack=100&history=UTG_Fold_HJ&minFreq=0.5`, true);
    expect(plo.reach).toBeGreaterThan(0);
    expect(plo.reach).toBeLessThan(1);
  });

  it("hand, minFreq and full do not change it", async () => {
    const base = await ok(NodeSchema, `${R}/nl/v2/node?stack=100&history=UTG_60%25_HJ_Fold_CO`);
    for (const q of ["hand=AKs", "minFreq=0.5", "full=1"]) {
      const n = await ok(NodeSchema, `${R}/nl/v2/node?stack=100&history=UTG_60%25_HJ_Fold_CO&${q}`);
      expect(n.reach, q).toBe(base.reach);
    }
  });

  it("/range carries the reach of the node where the action is chosen", async () => {
    const node = await ok(NodeSchema, `${R}/nl/v2/node?stack=100&history=UTG_60%25_HJ`);
    const range = await ok(RangeSchema, `${R}/nl/v2/range?stack=100&spot=UTG_60%25_HJ_Call`);
    expect(range.reach).toBe(node.reach);
    expect((await ok(RangeSchema, `${R}/nl/range?stack=100&spot=UTG_60%25`)).reach).toBe(1);
  });

  it("the OpenAPI document describes reach on Node and Range", async () => {
    const r = await get("/api/v1/openapi.json");
    const schemas = (
      r.body as {
        components: { schemas: Record<string, { required: string[]; properties: Record<string, unknown> }> };
      }
    ).components.schemas;
    for (const name of ["Node", "Range"]) {
      expect(schemas[name]!.required).toContain("reach");
      expect(schemas[name]!.properties.reach).toMatchObject({ type: "number", minimum: 0, maximum: 1 });
    }
  });
});

describe("reach of an imported pack", () => {
  let imported: TestServer;
  let packsDir: string;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "api-import-"));
    const folder = join(root, "monker");
    mkdirSync(folder);
    // UTG: AA always raises, KK 3/4 of the time, 72o folds, every other class is absent (weight 0).
    writeFileSync(join(folder, "0.rng"), "AA\n0\nKK\n0.25\n72o\n1\n");
    writeFileSync(join(folder, "40060.rng"), "AA\n1\nKK\n0.75\n72o\n0\n");
    // HJ facing the raise: calls with everything listed, never folds it.
    writeFileSync(join(folder, "40060.0.rng"), "AA\n0\nKK\n0\n72o\n0\n");
    writeFileSync(join(folder, "40060.1.rng"), "AA\n1\nKK\n1\n72o\n1\n");
    packsDir = join(root, "packs");
    await writePack(packPath(packsDir, "nl", 100), await importMonker(folder, { game: "nl", stack: 100 }));
    imported = await start({ packsDir });
  });
  afterAll(async () => {
    await imported?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("is computed from the imported frequencies, combo-weighted, at 4 significant digits", async () => {
    const at = (history: string) =>
      getJson(`${imported.base}${R}/nl/node?stack=100&history=${encodeURIComponent(history)}`);
    const root = await at("UTG");
    expect(root.status, root.text).toBe(200);
    expect(NodeSchema.parse(root.body).reach).toBe(1);
    const hj = await at("UTG_60%_HJ");
    expect(hj.status, hj.text).toBe(200);
    // AA 6 combos at 1, KK 6 at 0.75 (as stored), 72o 12 at 0: 10.5 of 1,326 combos.
    const decoded = await readPackFile(packPath(packsDir, "nl", 100));
    const exact = nodeReach(decoded, "UTG_60%_HJ");
    expect(exact).toBeCloseTo(10.5 / 1326, 6);
    expect(NodeSchema.parse(hj.body).reach).toBe(Number(exact.toPrecision(4)));
  });
});

describe("/spots and /config", () => {
  it("nl/v2 spots list every node with its depth", async () => {
    const s = await ok(SpotsSchema, `${R}/nl/v2/spots?stack=100`);
    expect(s.count).toBe(CASH_TREE.length);
    expect(s.spots.map((x) => x.history).sort()).toEqual(CASH_TREE.map((x) => x.history).sort());
    expect(s.spots.find((x) => x.history === "UTG_60%_HJ")!.depth).toBe(2);
  });

  it("nlmtt8 config is keyless", async () => {
    const c = await ok(ConfigSchema, `${R}/nlmtt8/config?stack=40`);
    expect(c).toMatchObject({
      game: "nlmtt8",
      stack: 40,
      ante: 1,
      antePostedBy: "BB",
      stackIncludesAnte: true,
    });
    expect(c.openSizes!.open.sizeBb).toBe(2.19);
  });

  it("nlmtt8 config says it has no rake: null and not listed as unknown", async () => {
    const c = await ok(ConfigSchema, `${R}/nlmtt8/config?stack=40`);
    expect(c.rake).toBeNull();
    expect(c.unverified.map((u) => u.field)).not.toContain("rake");
  });

  it("an operation a game does not serve is 404 naming the games that serve it", async () => {
    expectError(
      await get(`${R}/nl/spots?stack=100`),
      404,
      "not_found",
      /\/spots is not served for nl; it is served for nl\/v2, nlmtt8, plo, plo9/,
    );
    expectError(await get(`${R}/plo/config?stack=100`), 404, "not_found", /served for nlmtt8/);
    expectError(await get(`${R}/nl/v2/config?stack=100`), 404, "not_found", /served for nlmtt8/);
  });

  it("an unknown operation is 404 listing the operations", async () => {
    expectError(await get(`${R}/nl/ranges?stack=100`), 404, "not_found", /node, range, spots and config/);
  });
});

describe("rake on /config", () => {
  let raked: TestServer;
  let root: string;
  const rake = { percent: 5, capBb: 0.6, noFlopNoDrop: true } as const;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "api-rake-"));
    // A custom spot may carry any rake: nlmtt8 40bb with one. nlmtt8 10bb as a pack written before the rake
    // was recorded (the field left out of the header).
    const withRake = buildPack("nlmtt8", 40);
    await writePack(packPath(root, "nlmtt8", 40), {
      ...withRake,
      header: { ...withRake.header, config: { ...withRake.header.config, rake } },
    });
    const legacy = buildPack("nlmtt8", 10);
    const { rake: _, ...config } = legacy.header.config;
    await writePack(packPath(root, "nlmtt8", 10), {
      ...legacy,
      header: { ...legacy.header, config: config as PackConfig },
    });
    raked = await start({ packsDir: root });
  });
  afterAll(async () => {
    await raked?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const config = async (stack: number) => {
    const r = await getJson(`${raked.base}${R}/nlmtt8/config?stack=${stack}`);
    expect(r.status, r.text).toBe(200);
    return { raw: r.body as Record<string, unknown>, config: ConfigSchema.parse(r.body) };
  };

  it("serves the pack's rake over HTTP, valid against the schema", async () => {
    const { raw, config: c } = await config(40);
    expect(raw.rake).toEqual(rake);
    expect(c.rake).toEqual(rake);
    expect(c.unverified.map((u) => u.field)).not.toContain("rake");
  });

  it("an older pack without the field answers rake null and lists it as unknown", async () => {
    const { raw, config: c } = await config(10);
    expect(raw).toHaveProperty("rake", null);
    expect(c.unverified.find((u) => u.field === "rake")).toEqual(RAKE_NOT_RECORDED);
    expect(RAKE_NOT_RECORDED.reason).toMatch(/^Pack written before rake was recorded/);
  });

  it("the OpenAPI document describes rake on Config", async () => {
    const r = await getJson(`${raked.base}/api/v1/openapi.json`);
    const schema = (
      r.body as {
        components: { schemas: Record<string, { required: string[]; properties: Record<string, unknown> }> };
      }
    ).components.schemas.Config!;
    expect(schema.required).toContain("rake");
    expect(JSON.stringify(schema.properties.rake)).toMatch(/noFlopNoDrop/);
  });
});

describe("parameter errors", () => {
  const node = (q: string) => get(`${R}/nl/node?${q}`);

  it("stack: missing, not a number, unknown (with the live stacks)", async () => {
    expectError(await node("history=UTG"), 400, "missing_parameter", /stack parameter is required/);
    expectError(await node("stack=abc&history=UTG"), 400, "invalid_parameter", /stack must be a positive/);
    expectError(await node("stack=-5&history=UTG"), 400, "invalid_parameter");
    expectError(await node("stack=1e2&history=UTG"), 400, "invalid_parameter");
    const e = expectError(await node("stack=30&history=UTG"), 404, "unknown_stack");
    expect(e.stacks).toEqual([100, 200]);
  });

  it("nlmtt8 stacks are integers", async () => {
    expectError(await get(`${R}/nlmtt8/config?stack=40.5`), 400, "invalid_parameter", /whole big blinds/);
  });

  it("history: missing, malformed, wrong token, missing folds, not in the tree", async () => {
    expectError(await node("stack=100"), 400, "missing_parameter", /history parameter is required/);
    expectError(await node("stack=100&history=XX"), 400, "malformed_path", /not a seat of nl/);
    expectError(await node("stack=100&history=UTG__HJ"), 400, "malformed_path", /empty segment/);
    expectError(await node("stack=100&history=UTG_Raise_HJ"), 400, "invalid_token", /not an action token/);
    const folds = expectError(await node("stack=100&history=UTG_Fold_CO"), 404, "missing_folds", /HJ/);
    expect(folds.validPrefix).toBe("UTG_Fold");
    const absent = await node("stack=100&history=UTG_Fold_HJ_Fold_CO_Fold_BTN");
    expect(absent.status).toBe(404);
    const wrong = await node("stack=100&history=UTG_33%25_HJ");
    expect(wrong.status).toBe(404);
    const err = (wrong.body as { error: { validPrefix?: string; validActions?: string[] } }).error;
    expect(err.validPrefix).toBe("UTG");
    expect(err.validActions).toEqual(["Fold", "60%", "AI"]);
  });

  it("an unencoded % is a 400 that says to send %25", async () => {
    expectError(await node("stack=100&history=UTG_60%_HJ"), 400, "malformed_path", /send "%" as "%25"/);
    expectError(await get(`${R}/nl/range?stack=100&spot=UTG_60%`), 400, "malformed_path", /%25/);
    expectError(await node("stack=100&history=UTG&hand=A%K"), 400, "malformed_path", /hand parameter/);
  });

  it("percent-encoding that is not UTF-8 is a 400, not a 500", async () => {
    expectError(await node("stack=100&history=%E0%A4%A"), 400, "malformed_path");
    expectError(await node("stack=100&history=%C3%28"), 400, "invalid_parameter", /percent-encoding/);
    expectError(await node("stack=%FF&history=UTG"), 400, "invalid_parameter", /percent-encoding/);
    expectError(await node("st%FFack=1"), 400, "invalid_parameter");
  });

  it("hand, minFreq and full values", async () => {
    expectError(await node("stack=100&history=UTG&hand=ZZ"), 400, "invalid_hand", /AKs/);
    expectError(await node("stack=100&history=UTG&minFreq=2"), 400, "invalid_parameter", /minFreq/);
    expectError(await node("stack=100&history=UTG&minFreq=abc"), 400, "invalid_parameter", /minFreq/);
    expectError(await node("stack=100&history=UTG&full=0"), 400, "invalid_parameter", /full takes only/);
    expectError(await node("stack=100&history=UTG&full=true"), 400, "invalid_parameter", /full/);
  });

  it("repeated and unknown parameters are 400s that name the allowed ones", async () => {
    expectError(await node("stack=100&stack=100&history=UTG"), 400, "invalid_parameter", /more than once/);
    expectError(
      await node("stack=100&history=UTG&minfreq=0.1"),
      400,
      "invalid_parameter",
      /Unknown query parameter "minfreq": this endpoint takes stack, history, hand, minFreq, full/,
    );
    // Empty segments are not parameters.
    await ok(NodeSchema, `${R}/nl/node?stack=100&&history=UTG&`);
  });
});

describe("packs that cannot be read", () => {
  it("a corrupt pack is 503 pack_unavailable for its stack only", async () => {
    const bad = await get(`${R}/nlmtt8/node?stack=20&history=UTG`, true);
    expectError(bad, 503, "pack_unavailable");
    await ok(NodeSchema, `${R}/nlmtt8/node?stack=40&history=UTG`, true);
    await ok(NodeSchema, `${R}/nl/node?stack=100&history=UTG`);
  });

  it("a file that is not a pack is 503 too, names the file, and is left out of discovery", async () => {
    const e = expectError(
      await get(`${R}/nlmtt8/config?stack=30`),
      503,
      "pack_unavailable",
      /nlmtt8 at 30bb \(nlmtt8\/30\.pack\) is unavailable/,
    );
    expect(e.stacks).not.toContain(30);
    const d = await ok(DiscoverySchema, `${R}/nlmtt8`);
    expect(d.stacks).not.toContain(30);
    expect(t.store.packStatus().find((p) => p.game === "nlmtt8" && p.stack === 30)!.ok).toBe(false);
  });
});
