import { writeFile } from "node:fs/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import {
  CatalogSchema,
  ConfigSchema,
  NodeSchema,
  RangeSchema,
  SpotsSchema,
  ToolEnvelopeSchema,
} from "@ranges/schema";
import { packPath, RAKE_NOT_RECORDED, RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPACT_FLOOR } from "../src/compact.js";
import { compactNode, type RunningMcpServer, startMcpServer, TOOL_NAMES } from "../src/index.js";
import { UNREACHED_WARNING } from "../src/reach.js";
import {
  CompactNodeSchema,
  CompactRangeSchema,
  CompactSpotsSchema,
  ExploitabilitySchema,
  FullNodeSchema,
  FullRangeSchema,
  FullSpotsSchema,
  GetStartedSchema,
  ListDatasetsSchema,
  RangeMetadataSchema,
  TreeDocsSchema,
} from "../src/schemas.js";
import { FIXTURE_RAKE, type FixturePacks, OTHER_RAKE, UNREACHED, writeFixturePacks } from "./fixtures.js";
import { call, connect, fails, ok } from "./helpers.js";

let packs: FixturePacks;
let store: RangeStore;
let access: AccessStore;
let running: RunningMcpServer;
let anon: Client;
let keyed: Client;

beforeAll(async () => {
  packs = await writeFixturePacks();
  // A corrupt pack: listed by name, refused when read.
  await writeFile(packPath(packs.dir, "nl/v2", 200), Buffer.from("not a pack"));
  store = RangeStore.open({ packsDir: packs.dir });
  access = await AccessStore.open(":memory:");
  running = await startMcpServer({ port: 0, host: "127.0.0.1", store, access });
  anon = await connect(running.url);
  keyed = await connect(running.url, (await access.createKey({ name: "tests" })).key);
});

afterAll(async () => {
  await anon?.close();
  await keyed?.close();
  await running?.close();
  access?.close();
});

describe("tools/list", () => {
  it("lists exactly the registered tools, each described and annotated; the analysis tools with an output schema", async () => {
    const { tools } = await anon.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(tools).toHaveLength(32);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      // Every tool reads, except those that file a record or change one.
      expect(tool.annotations).toMatchObject({
        readOnlyHint: ![
          "submit_request",
          "enqueue_solve",
          "get_queued_solve",
          "get_upload_link",
          "upload_hand_history",
        ].includes(tool.name),
        openWorldHint: false,
      });
      expect(tool.inputSchema.type).toBe("object");
      // Published where a client gains from it (listing.ts): the analysis envelope's coverage.status.
      if (tool.outputSchema !== undefined) expect(tool.outputSchema.type, tool.name).toBe("object");
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
    const getNode = tools.find((t) => t.name === "get_node")!;
    // game and stack, or solution: checked when the tool runs.
    expect(getNode.inputSchema.required).toEqual(["history"]);
  });
});

describe("guidance and catalog", () => {
  it("get_started explains the workflow, access and coverage", async () => {
    const out = GetStartedSchema.parse(await ok(anon, "get_started"));
    expect(out.workflow.map((s) => s.tool)).toContain("get_node");
    const postflopSteps = out.workflow.filter((s) => s.purpose.startsWith("Postflop"));
    expect(postflopSteps.map((s) => s.tool)).toEqual([
      "list_postflop_packs",
      "get_postflop_node",
      "get_postflop_range",
      "explain_combo",
      "get_board_report",
      "compare_strategies",
    ]);
    expect(out.workflow.map((s) => s.step)).toEqual(out.workflow.map((_, i) => i + 1));
    expect(out.access.join(" ")).toMatch(/list_postflop_packs; each call counts/);
    expect(out.games.find((g) => g.game === "nl/v2")).toMatchObject({ stacks: [50, 100], keyless: true });
    expect(out.games.find((g) => g.game === "nlmtt8")).toMatchObject({ stacks: [20, 40], keyless: false });
    expect(out.coverage.notPublished.join(" ")).toMatch(/ICM/);
    expect(out.coverage.notPublished.join(" ")).toMatch(/no postflop pack is installed yet/);
    expect(out.comingTools).toEqual([]);
  });

  it("list_games returns the catalog and the keyless games", async () => {
    const out = await ok(anon, "list_games");
    const catalog = CatalogSchema.parse(out);
    expect(catalog.games.find((g) => g.game === "nl/v2")?.stacks).toEqual([50, 100]);
    expect(out.toolAccess).toMatchObject({ keylessGames: ["nl", "nl/v2"] });
  });
});

describe("get_config", () => {
  it("returns the nlmtt8 config without a key", async () => {
    const config = ConfigSchema.parse(await ok(anon, "get_config", { game: "nlmtt8", stack: 40 }));
    expect(config).toMatchObject({
      game: "nlmtt8",
      stack: 40,
      ante: 1,
      antePostedBy: "BB",
      availableStacks: [20, 40],
      rake: null,
    });
    // nlmtt8 40bb records no rake: null, and not listed as unknown.
    expect(config.unverified.map((u) => u.field)).not.toContain("rake");
  });

  it("an imported pack's rake is unknown: null and listed in unverified", async () => {
    const config = ConfigSchema.parse(await ok(anon, "get_config", { game: "nlmtt8", stack: 20 }));
    expect(config.rake).toBeNull();
    expect(config.unverified.map((u) => u.field)).toContain("rake");
  });

  it("accepts format mtt and objective chip_ev with nlmtt8 only", async () => {
    await ok(anon, "get_config", { game: "nlmtt8", stack: "40", format: "mtt", objective: "chip_ev" });
    expect(await fails(anon, "get_config", { game: "nl/v2", stack: 100, format: "mtt" })).toMatchObject({
      status: 400,
      code: "invalid_parameter",
    });
  });

  it("answers 404 for an unknown stack and for games without /config", async () => {
    const e = await fails(anon, "get_config", { game: "nlmtt8", stack: 41 });
    expect(e).toMatchObject({ status: 404, code: "unknown_stack", stacks: [20, 40] });
    expect(await fails(keyed, "get_config", { game: "nl9", stack: 100 })).toMatchObject({ status: 404 });
  });
});

describe("get_node", () => {
  it("compact: actions with sizes, share, grouped range and top EVs, under 8000 characters", async () => {
    const result = await call(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG" });
    const node = CompactNodeSchema.parse(result.structuredContent);
    expect(node).toMatchObject({
      game: "nl/v2",
      stack: 100,
      history: "UTG",
      actor: "UTG",
      depth: 1,
      evUnit: "sb",
    });
    expect(node.actions.map((a) => a.action)).toEqual(["Fold", "60%", "AI"]);
    const open = node.actions[1]!;
    expect(open).toMatchObject({ kind: "raise", sizeBb: 2.5, sizePctPot: 60 });
    expect(open.range).toMatch(/:(1|0\.\d+)(;|$)/);
    expect(open.topEvsSb?.length).toBeGreaterThan(0);
    const shares = node.actions.reduce((s, a) => s + (a.share ?? 0), 0);
    expect(shares).toBeCloseTo(1, 2);
    expect(JSON.stringify(result.structuredContent).length).toBeLessThan(8000);
  });

  it("compact agrees with the full node's numbers", async () => {
    const compact = CompactNodeSchema.parse(
      await ok(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG" }),
    );
    const full = NodeSchema.parse(
      await ok(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG", detail: "full" }),
    );
    expect(full).toEqual(store.node("nl/v2", 100, "UTG"));
    compact.actions.forEach((a, i) => {
      expect(a.combos).toBeCloseTo(full.actions[i]!.combos, 1);
      const pure = Object.entries(full.actions[i]!.weights).filter(([, w]) => w >= 0.995);
      for (const { hand, evSb } of a.topEvsSb ?? []) {
        expect(full.actions[i]!.evs[hand]).toBeCloseTo(evSb, 2);
      }
      expect(pure.length === 0 || /:1(;|$)/.test(a.range ?? "")).toBe(true);
    });
  });

  it("hand and combo return only that class's strategy", async () => {
    const byHand = CompactNodeSchema.parse(
      await ok(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG", hand: "AKs" }),
    );
    const full = store.node("nl/v2", 100, "UTG");
    expect(byHand.hand).toBe("AKs");
    byHand.actions.forEach((a, i) => {
      expect(a.range).toBeUndefined();
      expect(a.freq).toBe(full.actions[i]!.weights.AKs ?? 0);
      expect(a.evSb).toBe(full.actions[i]!.evs.AKs);
    });
    const byCombo = CompactNodeSchema.parse(
      await ok(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG", combo: "AhKh" }),
    );
    expect(byCombo).toMatchObject({ hand: "AKs", combo: "AhKh" });
    expect(byCombo.actions).toEqual(byHand.actions);
    const fullHand = NodeSchema.parse(
      await ok(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG", hand: "AKs", detail: "full" }),
    );
    for (const a of fullHand.actions) expect(Object.keys(a.weights).every((h) => h === "AKs")).toBe(true);
    expect(
      await fails(anon, "get_node", {
        game: "nl/v2",
        stack: 100,
        history: "UTG",
        hand: "AKs",
        combo: "QhQd",
      }),
    ).toMatchObject({
      status: 400,
    });
    expect(
      await fails(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG", hand: "AXs" }),
    ).toMatchObject({
      status: 400,
      code: "invalid_hand",
    });
  });

  it("minFreq raises the compact threshold and filters the full node", async () => {
    const compact = CompactNodeSchema.parse(
      await ok(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG", minFreq: 0.5 }),
    );
    expect(compact.threshold).toBe(0.5);
    for (const a of compact.actions) expect(a.range ?? "").not.toMatch(/:0\.[0-4]\d*(;|$)/);
    const full = NodeSchema.parse(
      await ok(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG", minFreq: 0.5, detail: "full" }),
    );
    for (const a of full.actions) expect(Object.values(a.weights).every((w) => w > 0.5)).toBe(true);
    // Out of [0, 1]: rejected by the input schema before the tool runs.
    const outOfRange = await call(anon, "get_node", {
      game: "nl/v2",
      stack: 100,
      history: "UTG",
      minFreq: 2,
    });
    expect(outOfRange.isError).toBe(true);
    expect(JSON.stringify(outOfRange.content)).toMatch(/minFreq must be a frequency from 0 to 1/);
  });

  it("accepts a URL-encoded percent token and a string stack", async () => {
    const node = CompactNodeSchema.parse(
      await ok(anon, "get_node", { game: "nl/v2", stack: "100", history: "UTG_60%25_HJ" }),
    );
    expect(node).toMatchObject({ history: "UTG_60%_HJ", actor: "HJ", depth: 2 });
  });

  it("answers actionable 400 and 404 errors", async () => {
    expect(
      await fails(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG_Raise_HJ" }),
    ).toMatchObject({
      status: 400,
      code: "invalid_token",
    });
    expect(await fails(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG__HJ" })).toMatchObject({
      status: 400,
      code: "malformed_path",
    });
    expect(await fails(anon, "get_node", { game: "nl/v2", stack: 100, history: "" })).toMatchObject({
      status: 400,
      code: "missing_parameter",
    });
    const folds = await fails(anon, "get_node", { game: "nl/v2", stack: 100, history: "CO" });
    expect(folds).toMatchObject({ status: 404, code: "missing_folds", validPrefix: "" });
    expect(folds.message).toMatch(/UTG_Fold_HJ_Fold_CO/);
    const token = await fails(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG_33%_HJ" });
    expect(token).toMatchObject({
      status: 404,
      code: "action_not_available",
      validPrefix: "UTG",
      validActions: ["Fold", "60%", "AI"],
    });
    expect(await fails(anon, "get_node", { game: "nl/v2", stack: 75, history: "UTG" })).toMatchObject({
      status: 404,
      code: "unknown_stack",
      stacks: [50, 100],
    });
    // A game outside the enum and a negative stack are rejected by the input schema (see surface.test.ts);
    // a stack string that is not positive reaches the tool and answers 400.
    expect(await fails(anon, "get_node", { game: "nl/v2", stack: "0", history: "UTG" })).toMatchObject({
      status: 400,
      code: "invalid_parameter",
    });
    expect(await fails(anon, "get_node", { game: "nl/v2", stack: 200, history: "UTG" })).toMatchObject({
      status: 503,
      code: "pack_unavailable",
    });
  });

  it("needs a key for nlmtt8 and works with one", async () => {
    const denied = await fails(anon, "get_node", { game: "nlmtt8", stack: 40, history: "UTG" });
    expect(denied).toMatchObject({ status: 401, code: "unauthorized" });
    const node = CompactNodeSchema.parse(
      await ok(keyed, "get_node", { game: "nlmtt8", stack: 40, history: "UTG" }),
    );
    expect(node.actions.map((a) => a.action)).toEqual(["Fold", "Open", "AI"]);
    expect(node.actions[1]).toMatchObject({ kind: "raise", sizePctPot: 60 });
    await ok(keyed, "get_node", {
      game: "nlmtt8",
      stack: 40,
      history: "UTG",
      objective: "chip_ev",
      format: "mtt",
      ante: 1,
      players: 8,
    });
    const badKey = await connect(running.url, "pr_not_a_real_key");
    expect(await fails(badKey, "get_node", { game: "nl/v2", stack: 100, history: "UTG" })).toMatchObject({
      status: 401,
    });
    await badKey.close();
  });

  it("compact nodes stay under 8000 characters across every node of the test packs", () => {
    const sizes: Record<string, { compact: number[]; full: number[] }> = {};
    for (const [game, stack] of [
      ["nl/v2", 100],
      ["nl/v2", 50],
      ["nlmtt8", 40],
    ] as const) {
      const s: { compact: number[]; full: number[] } = { compact: [], full: [] };
      sizes[`${game}@${stack}`] = s;
      for (const { history } of store.spots(game, stack).spots) {
        const full = store.node(game, stack, history);
        s.full.push(JSON.stringify(full).length);
        s.compact.push(JSON.stringify(compactNode(full, { threshold: COMPACT_FLOOR })).length);
      }
    }
    const stats = Object.fromEntries(
      Object.entries(sizes).map(([k, v]) => [
        k,
        {
          nodes: v.full.length,
          compactMax: Math.max(...v.compact),
          compactMean: Math.round(v.compact.reduce((a, b) => a + b, 0) / v.compact.length),
          fullMax: Math.max(...v.full),
          fullMean: Math.round(v.full.reduce((a, b) => a + b, 0) / v.full.length),
        },
      ]),
    );
    if (process.env.MCP_SIZES) console.log(JSON.stringify(stats, null, 1));
    for (const s of Object.values(stats)) expect(s.compactMax).toBeLessThan(8000);
  });
});

describe("PLO", () => {
  it("compact PLO nodes carry counts and representative classes, and stay small", async () => {
    const result = await call(keyed, "get_node", { game: "plo", stack: 100, history: "UTG" });
    const node = CompactNodeSchema.parse(result.structuredContent);
    expect(node.actions.map((a) => a.action)).toEqual(["Fold", "Open", "AI"]);
    if (process.env.MCP_SIZES) {
      const fullSize = JSON.stringify(store.node("plo", 100, "UTG")).length;
      console.log({ ploCompact: JSON.stringify(result.structuredContent).length, ploFull: fullSize });
    }
    for (const a of node.actions) {
      expect(a.range).toBeUndefined();
      expect(a.counts!.classes).toBe(a.counts!.pure + a.counts!.mixed);
      expect(a.representative!.pure.length).toBeLessThanOrEqual(8);
    }
    expect(JSON.stringify(result.structuredContent).length).toBeLessThan(8000);
    const full = NodeSchema.parse(
      await ok(keyed, "get_node", { game: "plo", stack: 100, history: "UTG", detail: "full", minFreq: 0.9 }),
    );
    expect(full.actions).toHaveLength(node.actions.length);
    expect(
      await fails(keyed, "get_node", { game: "plo", stack: 100, history: "UTG", detail: "full" }),
    ).toMatchObject({
      status: 400,
      code: "invalid_parameter",
    });
    expect(
      await fails(keyed, "get_range", { game: "plo", stack: 100, spot: "UTG_Open", detail: "full" }),
    ).toMatchObject({
      status: 400,
    });
    await ok(keyed, "get_range", {
      game: "plo",
      stack: 100,
      spot: "UTG_Open",
      detail: "full",
      hand: "AsKsAhKh",
    });
    const hand = CompactNodeSchema.parse(
      await ok(keyed, "get_node", { game: "plo", stack: 100, history: "UTG", combo: "AsKsAhKh" }),
    );
    expect(hand.hand).toBe("(AK)(AK)");
    expect(await fails(anon, "get_node", { game: "plo", stack: 100, history: "UTG" })).toMatchObject({
      status: 401,
    });
  });
});

describe("get_range", () => {
  it("compact, full and per hand", async () => {
    const compact = CompactRangeSchema.parse(
      await ok(anon, "get_range", { game: "nl/v2", stack: 100, spot: "UTG_60%" }),
    );
    expect(compact).toMatchObject({
      spot: "UTG_60%",
      actor: "UTG",
      action: "60%",
      kind: "raise",
      sizeBb: 2.5,
    });
    expect(compact.range).toBeTruthy();
    const full = RangeSchema.parse(
      await ok(anon, "get_range", { game: "nl/v2", stack: 100, spot: "UTG_60%", detail: "full" }),
    );
    expect(full).toEqual(store.range("nl/v2", 100, "UTG_60%"));
    const hand = CompactRangeSchema.parse(
      await ok(anon, "get_range", { game: "nl/v2", stack: 100, spot: "UTG_60%", hand: "AA" }),
    );
    expect(hand).toMatchObject({ hand: "AA", freq: full.weights.AA ?? 0, evSb: full.evs.AA });
    expect(hand.range).toBeUndefined();
  });

  it("answers errors for node paths and unknown tokens", async () => {
    expect(await fails(anon, "get_range", { game: "nl/v2", stack: 100, spot: "UTG" })).toMatchObject({
      status: 400,
      code: "malformed_path",
    });
    expect(await fails(anon, "get_range", { game: "nl/v2", stack: 100, spot: "UTG_50%" })).toMatchObject({
      status: 404,
      code: "action_not_available",
    });
    expect(await fails(anon, "get_range", { game: "nlmtt8", stack: 40, spot: "UTG_Open" })).toMatchObject({
      status: 401,
    });
    await ok(keyed, "get_range", { game: "nlmtt8", stack: 40, spot: "UTG_Open" });
  });

  it("nl (v1) has no EVs", async () => {
    const r = CompactRangeSchema.parse(
      await ok(anon, "get_range", { game: "nl", stack: 100, spot: "UTG_60%" }),
    );
    expect(r).toMatchObject({ evUnit: null, avgEvSb: null });
    expect(r.topEvsSb).toBeUndefined();
  });
});

describe("list_spots", () => {
  it("pages through every spot with nextCursor", async () => {
    const all = store.spots("nl/v2", 100).spots;
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = CompactSpotsSchema.parse(
        await ok(anon, "list_spots", {
          game: "nl/v2",
          stack: 100,
          limit: 200,
          ...(cursor ? { cursor } : {}),
        }),
      );
      expect(page.total).toBe(all.length);
      seen.push(...page.spots.map((s) => s.history));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(all.map((s) => s.history));
    expect(pages).toBe(Math.ceil(all.length / 200));
  });

  it("defaults to 50 rows and searches", async () => {
    const first = CompactSpotsSchema.parse(await ok(anon, "list_spots", { game: "nl/v2", stack: 100 }));
    expect(first.count).toBe(50);
    expect(first.nextCursor).toBeTruthy();
    const found = CompactSpotsSchema.parse(
      await ok(anon, "list_spots", { game: "nl/v2", stack: 100, query: "depth:3 actor:CO" }),
    );
    expect(found.total).toBeGreaterThan(0);
    for (const row of found.spots) expect(row).toMatchObject({ depth: 3, actor: "CO" });
    const full = FullSpotsSchema.parse(
      await ok(anon, "list_spots", { game: "nl/v2", stack: 100, query: "depth:3 actor:CO", detail: "full" }),
    );
    expect(SpotsSchema.parse(full).spots).toEqual(found.spots);
    expect(full.total).toBe(found.total);
  });

  it("rejects bad cursors and limits, nl and keyless nlmtt8", async () => {
    const first = CompactSpotsSchema.parse(await ok(anon, "list_spots", { game: "nl/v2", stack: 100 }));
    expect(
      await fails(anon, "list_spots", { game: "nl/v2", stack: 100, query: "BTN", cursor: first.nextCursor }),
    ).toMatchObject({
      status: 400,
    });
    expect((await call(anon, "list_spots", { game: "nl/v2", stack: 100, limit: 500 })).isError).toBe(true);
    expect(await fails(anon, "list_spots", { game: "nl", stack: 100 })).toMatchObject({
      status: 404,
      code: "not_found",
    });
    expect(await fails(anon, "list_spots", { game: "nlmtt8", stack: 40 })).toMatchObject({ status: 401 });
    const mtt = CompactSpotsSchema.parse(
      await ok(keyed, "list_spots", { game: "nlmtt8", stack: 40, query: "Limp" }),
    );
    expect(mtt.total).toBeGreaterThan(0);
  });
});

describe("dataset documentation", () => {
  it("list_datasets lists every pack with provenance", async () => {
    const out = ListDatasetsSchema.parse(await ok(anon, "list_datasets"));
    const keys = out.datasets.map((d) => `${d.game}@${d.stack}`).sort();
    expect(keys).toEqual(["nl/v2@100", "nl/v2@50", "nl@100", "nlmtt8@20", "nlmtt8@40", "plo@100"].sort());
    const v2 = out.datasets.find((d) => d.game === "nl/v2" && d.stack === 100)!;
    expect(v2).toMatchObject({
      status: "ok",
      source: "solver",
      iterations: 2000,
      solveSeconds: 12.5,
      nodeCount: packs.nodeCounts["nl/v2@100"],
      exploitability: { measured: true, seats: 6, maxMbbPerHand: 2 },
    });
    const imported = out.datasets.find((d) => d.game === "nlmtt8" && d.stack === 20)!;
    expect(imported).toMatchObject({ source: "import", exploitability: { measured: false } });
    const only = ListDatasetsSchema.parse(await ok(anon, "list_datasets", { game: "nlmtt8" }));
    expect(only.count).toBe(2);
  });

  it("get_tree_docs explains tokens and gives example paths from the pack", async () => {
    const docs = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "nl/v2" }));
    expect(docs).toMatchObject({ stack: 100, stacks: [50, 100], tokens: { style: "percent" } });
    expect(docs.examples.map((e) => e.depth)).toEqual([1, 1, 2, 3, 4]);
    expect(docs.examples[1]!.history).toBe("UTG_Fold_HJ");
    expect(docs.rangeExample).toBe("UTG_60%");
    for (const e of docs.examples) expect(() => store.node("nl/v2", 100, e.history)).not.toThrow();
    const mtt = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "nlmtt8", stack: 40 }));
    expect(mtt.tokens.allowed).toContain("Limp");
    expect(mtt.treeSizes).toEqual(["Open 50%", "3B 100%", "AI"]);
    const plo9 = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "plo9" }));
    expect(plo9).toMatchObject({ stack: null, examples: [] });
    expect(plo9.warnings[0]).toMatch(/No pack/);
    expect(await fails(anon, "get_tree_docs", { game: "nl/v2", stack: 30 })).toMatchObject({
      status: 404,
      code: "unknown_stack",
    });
  });

  it("get_tree_docs states the rake each pack was solved with, read from the pack", async () => {
    const docs = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "nl/v2" }));
    expect(docs.rake).toEqual(FIXTURE_RAKE);
    expect(docs.rakeNote).toBe(
      "5% of every pot that sees a flop (all-in or not), capped at 0.6bb; no rake when the hand ends preflop (no flop, no drop). The strategies and EVs were solved with this rake.",
    );
    expect(docs.warnings).toEqual([]);
    // Another stack of the same game with another rake: the tool reads each pack, nothing is hard-coded.
    const at50 = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "nl/v2", stack: 50 }));
    expect(at50.rake).toEqual(OTHER_RAKE);
    expect(at50.rakeNote).toMatch(
      /^3\.5% of every pot that sees a flop .*capped at 1\.25bb; no rake when the hand ends preflop/,
    );
    expect(at50.rake).toEqual(store.packMeta("nl/v2", 50).header.config.rake);

    const mtt = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "nlmtt8", stack: 40 }));
    expect(mtt.rake).toBeNull();
    expect(mtt.rakeNote).toMatch(/^No rake/);
    expect(mtt.warnings).toEqual([]);

    // A pack written before the rake was recorded, and an import: unknown, never "no rake".
    for (const [game, stack] of [
      ["nl", 100],
      ["nlmtt8", 20],
    ] as const) {
      const unknown = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game, stack }));
      expect(unknown.rake, game).toBeNull();
      expect(unknown.rakeNote, game).toMatch(/^Unknown: /);
      expect(unknown.rakeNote, game).not.toMatch(/^No rake/);
      expect(
        unknown.warnings.some((w) => /does not record the rake/.test(w)),
        game,
      ).toBe(true);
    }
    const legacy = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "nl", stack: 100 }));
    expect(legacy.rakeNote).toBe(`Unknown: ${RAKE_NOT_RECORDED.reason}`);

    const none = TreeDocsSchema.parse(await ok(anon, "get_tree_docs", { game: "plo9" }));
    expect(none).toMatchObject({ rake: null });
    expect(none.rakeNote).toMatch(/^Unknown: no pack/);
  });

  it("get_range_metadata gives provenance, checksum and classes", async () => {
    const meta = RangeMetadataSchema.parse(
      await ok(anon, "get_range_metadata", { game: "nl/v2", stack: 100 }),
    );
    const packMeta = store.packMeta("nl/v2", 100);
    expect(meta).toMatchObject({
      source: "solver",
      iterations: 2000,
      createdAt: "2025-01-01T00:00:00.000Z",
      checksum: packMeta.checksum,
      nodeCount: packMeta.nodeCount,
      classSet: "holdem169",
      classCount: 169,
      evUnit: "sb",
      evBaseline: "fold",
    });
    expect(meta.exploitability).toHaveLength(6);
    expect(JSON.stringify(meta)).not.toContain(packs.dir);
    expect(meta.rake).toEqual(FIXTURE_RAKE);
    expect(meta.rakeNote).toMatch(/^5% of every pot that sees a flop/);
    const v1 = RangeMetadataSchema.parse(await ok(anon, "get_range_metadata", { game: "nl", stack: 100 }));
    expect(v1).toMatchObject({ evUnit: null, evBaseline: null, rake: null });
    expect(v1.rakeNote).toMatch(/^Unknown: Pack written before rake was recorded/);
  });

  it("get_exploitability serves the measured numbers with method and caveat, or says none was measured", async () => {
    const e = ExploitabilitySchema.parse(await ok(anon, "get_exploitability", { game: "nl/v2", stack: 100 }));
    expect(e.measured).toBe(true);
    expect(e.perSeat[0]).toEqual({ seat: "UTG", mbbPerHand: 1.5, pctPot: 0.1 });
    expect(e.summary).toMatchObject({ maxMbbPerHand: 2, maxPctPot: 0.15 });
    expect(e.method).toMatch(/best response of each seat/i);
    expect(e.caveat).toMatch(/not exploitability against real postflop play/);
    const none = ExploitabilitySchema.parse(
      await ok(anon, "get_exploitability", { game: "nlmtt8", stack: 20 }),
    );
    expect(none).toMatchObject({ measured: false, perSeat: [], summary: null });
    expect(none.method).toMatch(/None was measured/);
  });
});

describe("compare_strategies", () => {
  it("with a hand: both strategies side by side with deltas, in the envelope", async () => {
    const env = ToolEnvelopeSchema.parse(
      await ok(anon, "compare_strategies", {
        domain: "preflop",
        baseline: { game: "nl/v2", stack: 100, history: "UTG", hand: "AKs" },
        comparison: { game: "nl/v2", stack: 50, history: "UTG", hand: "AKs" },
      }),
    );
    expect(env).toMatchObject({
      schemaVersion: "1.0",
      coverage: { status: "exact", dataClass: "preflop", objective: "cash_ev" },
    });
    const b = store.node("nl/v2", 100, "UTG");
    const c = store.node("nl/v2", 50, "UTG");
    const actions = env.result.actions as Array<Record<string, unknown>>;
    expect(actions.map((a) => a.action)).toEqual(["Fold", "60%", "AI"]);
    const open = actions[1]!;
    expect(open).toMatchObject({
      baseline: { freq: b.actions[1]!.weights.AKs ?? 0, evSb: b.actions[1]!.evs.AKs },
      comparison: { freq: c.actions[1]!.weights.AKs ?? 0, evSb: c.actions[1]!.evs.AKs },
    });
    expect(open.deltaFreq).toBeCloseTo(
      (c.actions[1]!.weights.AKs ?? 0) - (b.actions[1]!.weights.AKs ?? 0),
      4,
    );
    // Each side names the pack it was read from: solve time, iterations and exploitability.
    for (const [side, stack] of [
      ["baseline", 100],
      ["comparison", 50],
    ] as const) {
      const p = store.packMeta("nl/v2", stack).header.provenance;
      expect((env.context[side] as { provenance: unknown }).provenance).toEqual({
        source: p.source,
        algorithm: p.algorithm,
        solvedAt: p.createdAt,
        iterations: p.iterations,
        solveSeconds: p.solveSeconds,
        exploitabilityPct: Math.max(...p.exploitability!.map((s) => s.pctPot)),
        exploitabilityNote: expect.stringMatching(/best-response gain/),
      });
    }
  });

  it("without a hand: the largest per-class changes, top N", async () => {
    const env = ToolEnvelopeSchema.parse(
      await ok(anon, "compare_strategies", {
        domain: "preflop",
        baseline: { game: "nl/v2", stack: 100, history: "UTG_Fold_HJ" },
        comparison: { game: "nl", stack: 100, history: "UTG_Fold_HJ" },
        limit: 5,
      }),
    );
    const changes = env.result.changes as Array<{ deltaFreq: number; comparisonEvSb: number | null }>;
    expect(changes).toHaveLength(5);
    for (let i = 1; i < changes.length; i++) {
      expect(Math.abs(changes[i - 1]!.deltaFreq)).toBeGreaterThanOrEqual(Math.abs(changes[i]!.deltaFreq));
    }
    expect(changes.every((x) => x.comparisonEvSb === null)).toBe(true);
    expect(env.warnings.join(" ")).toMatch(/no EVs/);
  });

  it("postflop and out-of-scope sides answer unsupported; nlmtt8 needs a key; bad paths are labelled", async () => {
    const post = ToolEnvelopeSchema.parse(
      await ok(anon, "compare_strategies", {
        domain: "postflop",
        baseline: { pack: "btn-vs-bb", board: "AsKd7c", path: ["Check"], players: 3 },
        comparison: { pack: "btn-vs-bb-flop33", board: "AsKd7c", path: ["Check"] },
      }),
    );
    expect(post.coverage.status).toBe("unsupported");
    expect(post.coverage.dataClass).toBe("multiway_postflop");
    expect(post.result.substituted).toBeNull();
    const icm = ToolEnvelopeSchema.parse(
      await ok(anon, "compare_strategies", {
        domain: "preflop",
        baseline: { game: "nlmtt8", stack: 40, history: "UTG", objective: "icm" },
        comparison: { game: "nlmtt8", stack: 40, history: "UTG" },
      }),
    );
    expect(icm.coverage).toMatchObject({ status: "unsupported", objective: "icm" });
    const sides = {
      baseline: { game: "nlmtt8", stack: 40, history: "UTG" },
      comparison: { game: "nlmtt8", stack: 20, history: "UTG" },
    };
    expect(await fails(anon, "compare_strategies", { domain: "preflop", ...sides })).toMatchObject({
      status: 401,
    });
    const env = ToolEnvelopeSchema.parse(
      await ok(keyed, "compare_strategies", { domain: "preflop", ...sides }),
    );
    expect(env.coverage.objective).toBe("chip_ev");
    const bad = await fails(keyed, "compare_strategies", {
      domain: "preflop",
      baseline: { game: "nlmtt8", stack: 40, history: "UTG" },
      comparison: { game: "nlmtt8", stack: 40, history: "CO" },
    });
    expect(bad).toMatchObject({ status: 404, code: "missing_folds" });
    expect(bad.message).toMatch(/^comparison: /);
    expect(
      await fails(anon, "compare_strategies", {
        domain: "preflop",
        baseline: { game: "nl/v2" },
        comparison: {},
      }),
    ).toMatchObject({
      status: 400,
      code: "missing_parameter",
    });
  });
});

describe("reach", () => {
  const { game, stack, history } = UNREACHED;

  it("every get_node answer carries reach; a reached node has no warning", async () => {
    const root = CompactNodeSchema.parse(await ok(anon, "get_node", { game, stack, history: "UTG" }));
    expect(root.reach).toBe(1);
    expect(root.warnings).toEqual([]);
    for (const h of ["UTG_Fold_HJ", "UTG_60%_HJ", "UTG_Fold_HJ_60%_CO"]) {
      const expected = store.node(game, stack, h).reach;
      expect(expected, h).toBeGreaterThan(0);
      expect(expected, h).toBeLessThanOrEqual(1);
      const compact = CompactNodeSchema.parse(await ok(anon, "get_node", { game, stack, history: h }));
      expect(compact.reach, h).toBe(expected);
      expect(compact.warnings, h).toEqual([]);
      const full = FullNodeSchema.parse(
        await ok(anon, "get_node", { game, stack, history: h, detail: "full" }),
      );
      expect(full.reach, h).toBe(expected);
      expect(full.warnings, h).toEqual([]);
    }
  });

  it("a node no line reaches has reach 0 and says so in warnings (compact, full, one hand)", async () => {
    const compact = CompactNodeSchema.parse(await ok(anon, "get_node", { game, stack, history }));
    expect(compact.reach).toBe(0);
    expect(compact.warnings).toEqual([UNREACHED_WARNING]);
    expect(compact.warnings[0]).toMatch(/never reached .*published strategies.*reach 0/);
    const full = await ok(anon, "get_node", { game, stack, history, detail: "full" });
    expect(NodeSchema.parse(full)).toEqual(store.node(game, stack, history));
    expect(FullNodeSchema.parse(full)).toMatchObject({ reach: 0, warnings: [UNREACHED_WARNING] });
    const hand = CompactNodeSchema.parse(await ok(anon, "get_node", { game, stack, history, hand: "AA" }));
    expect(hand).toMatchObject({ reach: 0, warnings: [UNREACHED_WARNING] });
    // Below an unreached node everything is unreached too.
    const deeper = CompactNodeSchema.parse(
      await ok(anon, "get_node", { game, stack, history: `${history}_Call_CO` }),
    );
    expect(deeper).toMatchObject({ reach: 0, warnings: [UNREACHED_WARNING] });
  });

  it("get_range carries the reach of the node where the action is chosen", async () => {
    const open = CompactRangeSchema.parse(await ok(anon, "get_range", { game, stack, spot: "UTG_AI" }));
    expect(open).toMatchObject({ reach: 1, warnings: [] });
    const call = CompactRangeSchema.parse(
      await ok(anon, "get_range", { game, stack, spot: `${history}_Call` }),
    );
    expect(call).toMatchObject({ reach: 0, warnings: [UNREACHED_WARNING] });
    const full = FullRangeSchema.parse(
      await ok(anon, "get_range", { game, stack, spot: `${history}_Call`, detail: "full" }),
    );
    expect(full).toMatchObject({ reach: 0, warnings: [UNREACHED_WARNING] });
    expect(RangeSchema.parse(full)).toEqual(store.range(game, stack, `${history}_Call`));
  });

  it("compare_strategies gives each side's reach and warns for an unreached side", async () => {
    const env = ToolEnvelopeSchema.parse(
      await ok(anon, "compare_strategies", {
        domain: "preflop",
        baseline: { game, stack, history },
        comparison: { game, stack: 100, history },
      }),
    );
    const context = env.context as { baseline: { reach: number }; comparison: { reach: number } };
    expect(context.baseline.reach).toBe(0);
    expect(context.comparison.reach).toBe(store.node(game, 100, history).reach);
    expect(context.comparison.reach).toBeGreaterThan(0);
    expect(env.warnings).toContain(`baseline: ${UNREACHED_WARNING}`);
    expect(env.warnings.filter((w) => w.startsWith("comparison: "))).toEqual([]);
  });
});

describe("unsupported requests", () => {
  it.each([
    ["get_node", { game: "nlmtt8", stack: 40, history: "UTG", objective: "icm" }, "icm"],
    ["get_node", { game: "nlmtt8", stack: 40, history: "UTG", format: "pko" }, "pko"],
    ["get_node", { game: "nlmtt8", stack: 40, history: "UTG", format: "satellite" }, "satellite"],
    ["get_range", { game: "nlmtt8", stack: 40, spot: "UTG_Open", ante: 0.125 }, "ante_structure"],
    ["get_node", { game: "nlmtt8", stack: 40, history: "UTG", players: 9 }, "tournament_9max"],
    ["list_spots", { game: "nl9", stack: 100, format: "mtt", players: 9 }, "tournament_9max"],
    ["get_config", { game: "nlmtt8", stack: 40, players: 9 }, "tournament_9max"],
  ])("%s %j -> unsupported (%s), no data, even without a key", async (tool, args, topic) => {
    const env = ToolEnvelopeSchema.parse(await ok(anon, tool, args));
    expect(env.coverage.status).toBe("unsupported");
    expect(env.coverage.dataClass.split("+")).toContain(topic);
    expect(env.warnings.length).toBeGreaterThan(1);
    expect(String(env.result.reason)).toBeTruthy();
    expect(JSON.stringify(env)).not.toMatch(/"weights"|"range"|"actions"/);
  });

  it("chip_ev on a cash game is an error, not unsupported", async () => {
    expect(
      await fails(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG", objective: "chip_ev" }),
    ).toMatchObject({
      status: 400,
      code: "invalid_parameter",
    });
  });
});

describe("access metering", () => {
  it("keyless calls count per IP and answer 429 when the allowance is spent", async () => {
    const limited = await AccessStore.open(":memory:", { keylessDailyLimit: 2 });
    const server = await startMcpServer({ port: 0, host: "127.0.0.1", store, access: limited });
    const client = await connect(server.url);
    try {
      await ok(client, "get_node", { game: "nl/v2", stack: 100, history: "UTG" });
      await ok(client, "list_games");
      const spent = await fails(client, "get_node", { game: "nl/v2", stack: 100, history: "UTG" });
      expect(spent).toMatchObject({ status: 429, code: "rate_limited" });
      expect((spent.hint as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
      // Unsupported answers serve no data and are not counted.
      await ok(client, "get_node", { game: "nlmtt8", stack: 40, history: "UTG", objective: "icm" });
    } finally {
      await client.close();
      await server.close();
      await limited.close();
    }
  });

  it("keyed calls count on the key's meter, keyless ones on the IP", async () => {
    const { id, key: fresh } = await access.createKey({ name: "meter" });
    const client = await connect(running.url, fresh);
    const ipBefore = await access.usedToday({ ip: "127.0.0.1" });
    await ok(client, "get_node", { game: "nl/v2", stack: 100, history: "UTG" });
    await ok(client, "list_datasets");
    expect(await access.usedToday({ keyId: id })).toBe(2);
    expect(await access.usedToday({ ip: "127.0.0.1" })).toBe(ipBefore);
    await ok(anon, "get_started");
    expect(await access.usedToday({ ip: "127.0.0.1" })).toBe(ipBefore + 1);
    await client.close();
  });
});

describe("feature requests", () => {
  it("submit_request stores a request under the caller's key; list_my_requests shows only the caller's", async () => {
    const other = await access.createKey({ name: "other", dailyQuota: 0 });
    const otherClient = await connect(running.url, other.key);
    try {
      const filed = await ok(keyed, "submit_request", {
        kind: "data",
        text: "nl 6-max at 60bb",
        game: "nl",
        stack: 60,
      });
      expect(filed.request).toMatchObject({ kind: "data", text: "nl 6-max at 60bb", game: "nl", stack: 60 });
      // Free: a key whose quota is 0 may still file and list.
      const theirs = await ok(otherClient, "submit_request", { kind: "bug", text: "theirs" });
      const mine = (await ok(keyed, "list_my_requests")).requests as { id: string }[];
      expect(mine.map((r) => r.id)).toContain((filed.request as { id: string }).id);
      expect(mine.map((r) => r.id)).not.toContain((theirs.request as { id: string }).id);
      expect(((await ok(otherClient, "list_my_requests")).requests as unknown[]).length).toBe(1);
    } finally {
      await otherClient.close();
    }
  });

  it("needs a key (401 in the result) and refuses bad input", async () => {
    expect(await fails(anon, "submit_request", { kind: "feature", text: "x" })).toMatchObject({
      status: 401,
      code: "unauthorized",
    });
    expect(await fails(anon, "list_my_requests", {})).toMatchObject({ status: 401 });
    expect(await fails(keyed, "submit_request", { kind: "feature", text: "   " })).toMatchObject({
      status: 400,
      code: "invalid_parameter",
    });
  });
});

describe("HTTP surface", () => {
  it.each(["/mcp", "/api/mcp"])("GET and DELETE %s answer 405 with Allow: POST", async (path) => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const res = await fetch(`http://127.0.0.1:${running.port}${path}`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toMatchObject({
        schemaVersion: 1,
        error: { status: 405, code: "method_not_allowed" },
      });
    }
  });

  it("other paths are 404, bad JSON is a JSON-RPC parse error", async () => {
    const res = await fetch(`http://127.0.0.1:${running.port}/nope`, { method: "POST" });
    expect(res.status).toBe(404);
    const bad = await fetch(running.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: -32700 } });
  });

  it("a plain JSON-RPC POST (no session) lists the tools", async () => {
    const res = await fetch(running.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { tools: Array<{ name: string }> } };
    expect(body.result.tools).toHaveLength(TOOL_NAMES.length);
  });
});

describe("request bodies", () => {
  it("answers 413 to a body over 1 MiB", async () => {
    const res = await fetch(running.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { pad: "x".repeat(1_100_000) },
      }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: -32600 } });
  });
});
