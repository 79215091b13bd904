/**
 * The MCP surface as a client sees it (through the SDK's own client): published schemas that pass the
 * Inspector's strict checks, closed inputs, paged spot lists, error text in terms of tool arguments, ordered
 * top EVs, PLO availability read from the store, and the server's capabilities.
 */

import { rm } from "node:fs/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import { GAME_IDS } from "@ranges/core";
import { packPath, RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import {
  CompactNodeSchema,
  CompactRangeSchema,
  CompactSpotsSchema,
  FullSpotsSchema,
  GetStartedSchema,
} from "../src/schemas.js";
import { writeFixturePacks } from "./fixtures.js";
import { call, connect, fails, ok } from "./helpers.js";
import { strictFindings } from "./schemaLint.js";

let store: RangeStore;
let access: AccessStore;
let running: RunningMcpServer;
let anon: Client;
let keyed: Client;

beforeAll(async () => {
  store = RangeStore.open({ packsDir: (await writeFixturePacks()).dir });
  access = await AccessStore.open(":memory:");
  running = await startMcpServer({ port: 0, host: "127.0.0.1", store, access });
  anon = await connect(running.url);
  keyed = await connect(running.url, (await access.createKey({ name: "surface" })).key);
});

afterAll(async () => {
  await anon?.close();
  await keyed?.close();
  await running?.close();
  access?.close();
});

/** The text of an error result the SDK produced before the tool ran (input validation). */
async function rejected(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError, JSON.stringify(result)).toBe(true);
  // Rejected by the input schema: the SDK's text-only result, not an error body from the tool.
  expect(result.structuredContent).toBeUndefined();
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  expect(text).toMatch(/^MCP error -32602: Input validation error: Invalid arguments for tool /);
  return text;
}

describe("published schemas", () => {
  it("pass the Inspector's strict checks: 0 findings on every input and output schema", async () => {
    const { tools } = await anon.listTools();
    const findings = strictFindings(tools);
    const summary = findings.map((f) => `${f.tool} ${f.schema} ${f.path}: ${f.rule} ${f.message}`);
    expect(summary).toEqual([]);
  });

  it("game is an enum of the eight games, limits and bounds are real", async () => {
    const { tools } = await anon.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const props = (name: string) =>
      byName.get(name)!.inputSchema.properties as Record<string, Record<string, unknown>>;
    for (const tool of ["get_node", "get_range", "list_spots", "get_config", "get_tree_docs"]) {
      expect(props(tool).game?.enum, tool).toEqual([...GAME_IDS]);
      expect(byName.get(tool)!.inputSchema.additionalProperties, tool).toBe(false);
    }
    expect(props("list_spots").limit).toMatchObject({ type: "integer", minimum: 1, maximum: 200 });
    expect(props("compare_strategies").limit).toMatchObject({ type: "integer", minimum: 1, maximum: 50 });
    expect(props("get_node").minFreq).toMatchObject({ minimum: 0, maximum: 1 });
  });
});

describe("closed inputs", () => {
  it("reject unknown arguments and name the right spelling", async () => {
    const typo = await rejected(anon, "get_node", {
      game: "nl/v2",
      stack: 100,
      history: "UTG",
      minfreq: 0.5,
    });
    expect(typo).toMatch(/minfreq/);
    expect(typo).toMatch(/did you mean "minFreq"/);
    const hand = await rejected(anon, "get_range", {
      game: "nl/v2",
      stack: 100,
      spot: "UTG_60%",
      Hand: "AA",
    });
    expect(hand).toMatch(/"Hand".*did you mean "hand"/);
    const nested = await rejected(anon, "compare_strategies", {
      domain: "preflop",
      baseline: { game: "nl/v2", stack: 100, history: "UTG", hnad: "AKs" },
      comparison: { game: "nl/v2", stack: 50, history: "UTG" },
    });
    expect(nested).toMatch(/hnad/);
    await rejected(anon, "list_games", { verbose: true });
  });

  it("reject a game outside the enum, saying which games exist and what is not published", async () => {
    const unknown = await rejected(anon, "get_node", { game: "nl7", stack: 100, history: "UTG" });
    expect(unknown).toMatch(/"nl7" is not a game/);
    expect(unknown).toContain(GAME_IDS.join(", "));
    const nineMax = await rejected(anon, "get_node", { game: "nlmtt9", stack: 40, history: "UTG" });
    expect(nineMax).toMatch(/9-max tournaments are not published/);
    // The 9-max tournament request within the schema answers the unsupported envelope.
    const env = await ok(anon, "get_node", { game: "nlmtt8", stack: 40, history: "UTG", players: 9 });
    expect(env).toMatchObject({ coverage: { status: "unsupported" } });
  });

  it("reject out-of-range numbers before the tool runs", async () => {
    await rejected(anon, "list_spots", { game: "nl/v2", stack: 100, limit: 500 });
    await rejected(anon, "list_spots", { game: "nl/v2", stack: 100, limit: 0 });
    await rejected(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG", minFreq: 2 });
    await rejected(anon, "get_node", { game: "nl/v2", stack: -5, history: "UTG" });
    await rejected(anon, "compare_strategies", {
      domain: "preflop",
      baseline: { game: "nl/v2", stack: 100, history: "UTG" },
      comparison: { game: "nl/v2", stack: 50, history: "UTG" },
      limit: 51,
    });
  });
});

describe("list_spots detail full", () => {
  it("is paged like compact: limit rows, total and nextCursor", async () => {
    const all = store.spots("nl/v2", 100).spots;
    expect(all.length).toBeGreaterThan(50);
    const first = FullSpotsSchema.parse(
      await ok(anon, "list_spots", { game: "nl/v2", stack: 100, detail: "full" }),
    );
    expect(first).toMatchObject({ count: 50, total: all.length, units: { stack: "bb" } });
    expect(first.nextCursor).toBeTruthy();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = FullSpotsSchema.parse(
        await ok(anon, "list_spots", {
          game: "nl/v2",
          stack: 100,
          detail: "full",
          limit: 200,
          ...(cursor ? { cursor } : {}),
        }),
      );
      expect(page.count).toBe(page.spots.length);
      expect(page.count).toBeLessThanOrEqual(200);
      seen.push(...page.spots.map((s) => s.history));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((s) => s.history));
    // The same cursor pages compact and full alike.
    const compact = CompactSpotsSchema.parse(await ok(anon, "list_spots", { game: "nl/v2", stack: 100 }));
    const second = FullSpotsSchema.parse(
      await ok(anon, "list_spots", { game: "nl/v2", stack: 100, detail: "full", cursor: compact.nextCursor }),
    );
    expect(second.spots[0]).toEqual(all[50]);
  });
});

describe("error text speaks of tool arguments", () => {
  const HTTP =
    /\/node\b|\/range\b|\/spots\b|\/config\b|\/api\/|GET |\b(history|spot|stack|minFreq|hand|full)=|%25|%28|%29|\?\w+=|query string|percent-encod|URL|\bparameter\b/;

  it.each([
    ["get_node", { game: "nl/v2", stack: 100, history: "UTG_60%" }],
    ["get_range", { game: "nl/v2", stack: 100, spot: "UTG" }],
    ["get_range", { game: "nlmtt8", stack: 40, spot: "UTG_3B" }],
    ["get_node", { game: "nl/v2", stack: 100, history: "UTG_Raise_HJ" }],
    ["get_node", { game: "nl/v2", stack: 100, history: "" }],
    ["get_node", { game: "nl/v2", stack: "0", history: "UTG" }],
    ["get_node", { game: "nlmtt8", stack: 40.5, history: "UTG" }],
    ["get_node", { game: "plo", stack: 100, history: "UTG", hand: "ZZZZ" }],
    ["list_spots", { game: "nl", stack: 100 }],
    ["get_config", { game: "nl9", stack: 100 }],
    ["compare_strategies", { domain: "preflop", baseline: { game: "nl/v2" }, comparison: { game: "nl/v2" } }],
  ])("%s %j", async (tool, args) => {
    const error = await fails(keyed, tool, args);
    expect(error.message).not.toMatch(HTTP);
    expect(JSON.stringify(error.hint ?? {})).not.toMatch(/suggestedEndpoint/);
  });

  it("names the tool to call instead of the endpoint", async () => {
    const range = await fails(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG_60%" });
    expect(range.message).toMatch(/call get_range with spot "UTG_60%"/);
    expect(range.hint).toMatchObject({ suggestedTool: "get_range" });
    const node = await fails(anon, "get_range", { game: "nl/v2", stack: 100, spot: "UTG" });
    expect(node.message).toMatch(/Call get_node with history "UTG"/);
    expect(node.hint).toMatchObject({ suggestedTool: "get_node" });
    const spots = await fails(anon, "list_spots", { game: "nl", stack: 100 });
    expect(spots.message).toMatch(/^list_spots is served for /);
  });
});

describe("topEvsSb", () => {
  it("is an array of { hand, evSb } sorted by EV, highest first", async () => {
    const node = CompactNodeSchema.parse(
      await ok(anon, "get_node", { game: "nl/v2", stack: 100, history: "UTG" }),
    );
    const full = store.node("nl/v2", 100, "UTG");
    let checked = 0;
    node.actions.forEach((a, i) => {
      const top = a.topEvsSb;
      if (!top) return;
      expect(Array.isArray(top)).toBe(true);
      expect(top.length).toBeLessThanOrEqual(5);
      for (let k = 1; k < top.length; k++) expect(top[k - 1]!.evSb).toBeGreaterThanOrEqual(top[k]!.evSb);
      for (const { hand, evSb } of top) expect(full.actions[i]!.evs[hand]).toBeCloseTo(evSb, 2);
      // The best scored class above the threshold leads.
      const best = Object.entries(full.actions[i]!.evs)
        .filter(([h]) => (full.actions[i]!.weights[h] ?? 0) > 0.005)
        .reduce((m, [, ev]) => Math.max(m, ev), Number.NEGATIVE_INFINITY);
      expect(top[0]!.evSb).toBeCloseTo(best, 2);
      checked += 1;
    });
    expect(checked).toBeGreaterThan(0);
    const range = CompactRangeSchema.parse(
      await ok(anon, "get_range", { game: "nl/v2", stack: 100, spot: "UTG_60%" }),
    );
    expect(Array.isArray(range.topEvsSb)).toBe(true);
  });
});

describe("PLO availability comes from the store", () => {
  it("is not called published while no PLO pack is installed", async () => {
    const packs = await writeFixturePacks();
    await rm(packPath(packs.dir, "plo", 100));
    const bare = RangeStore.open({ packsDir: packs.dir });
    const server = await startMcpServer({ port: 0, host: "127.0.0.1", store: bare, access });
    const client = await connect(server.url);
    try {
      const guide = GetStartedSchema.parse(await ok(client, "get_started"));
      expect(guide.coverage.published.join(" ")).not.toMatch(/plo|PLO/);
      expect(guide.coverage.notPublished.join(" ")).toMatch(/plo, plo9, plo5, plo6hu/);
      expect(client.getInstructions()).not.toMatch(/and PLO\b|PLO\)/);
      expect(client.getInstructions()).toMatch(/no packs yet: (nl9, )?plo, plo9, plo5, plo6hu/);
      const env = await ok(client, "get_node", {
        game: "nlmtt8",
        stack: 40,
        history: "UTG",
        objective: "icm",
      });
      expect(JSON.stringify((env.result as { published: string[] }).published)).not.toMatch(/plo/i);
      // With the PLO pack installed it is published.
      const withPlo = GetStartedSchema.parse(await ok(anon, "get_started"));
      expect(withPlo.coverage.published.join(" ")).toMatch(/plo\b/);
      expect(anon.getInstructions()).toMatch(/PLO/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("capabilities", () => {
  it("a stateless server does not advertise tools.listChanged", () => {
    const caps = anon.getServerCapabilities();
    expect(caps?.tools).toBeDefined();
    expect(caps?.tools?.listChanged).not.toBe(true);
  });
});
