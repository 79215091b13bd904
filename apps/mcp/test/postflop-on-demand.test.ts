/**
 * Turn and river nodes through the SDK's own client, on the committed 3-bet pot pack (data/postflop): the
 * postflop tools follow a path past the flop into the turn and river, each solved on demand, and say so.
 */

import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import { PostflopPacks } from "@ranges/postflop";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import { connect, fails, ok } from "./helpers.js";

const DATA = fileURLToPath(new URL("../../../data", import.meta.url));
const PACK = "3bp-bb-btn-100bb";

let running: RunningMcpServer;
let access: AccessStore;
let postflop: PostflopPacks;
let client: Client;

beforeAll(async () => {
  access = await AccessStore.open(":memory:");
  postflop = PostflopPacks.open({ dir: `${DATA}/postflop` });
  running = await startMcpServer({
    port: 0,
    host: "127.0.0.1",
    store: RangeStore.open({ packsDir: `${DATA}/packs` }),
    access,
    postflop,
  });
  client = await connect(running.url, (await access.createKey({ name: "on-demand" })).key);
});

afterAll(async () => {
  await client?.close();
  await running?.close();
  postflop?.close();
  access?.close();
});

type Envelope = {
  coverage: { status: string };
  context: Record<string, unknown>;
  result: Record<string, unknown>;
};

describe("postflop tools past the flop", () => {
  it.each([
    ["get_postflop_node", "XX"],
    ["get_postflop_node", "QsQc"],
    ["explain_combo", "9h9c"],
  ])("%s refuses the combo %s before solving anything", async (tool, combo) => {
    const solve = vi.spyOn(postflop.subgames, "solve");
    try {
      const error = await fails(client, tool, {
        pack: PACK,
        board: "Qs9h4d",
        path: ["bet", "call", "7c"],
        combo,
      });
      expect(error.code).toBe("invalid_hand");
      expect(solve).not.toHaveBeenCalled();
    } finally {
      solve.mockRestore();
    }
  });

  it("get_postflop_node answers a turn decision from the turn solved on demand", async () => {
    const env = (await ok(client, "get_postflop_node", {
      pack: PACK,
      board: "Qs9h4d",
      path: ["bet", "call", "2c"],
      combo: "AsQh",
    })) as unknown as Envelope;
    expect(env.coverage.status).toBe("exact");
    expect(env.context.nodeStreet).toBe("turn");
    expect(env.context.path).toEqual(["bet 14.85", "call", "2c"]);
    const solve = env.context.solve as { street: string; exploitabilityPct: number; potBb: number };
    expect(solve.street).toBe("turn");
    expect(solve.exploitabilityPct).toBeLessThanOrEqual(0.5);
    // The flop bet of 75% pot, called: the turn pot is the flop pot and twice the bet.
    expect(solve.potBb).toBeCloseTo(19.8 + 2 * 14.85, 6);
    const combo = env.result.combo as { combo: string; strategy: { frequency: number }[] };
    expect(combo.combo).toBe("AsQh");
    expect(combo.strategy.reduce((s, a) => s + a.frequency, 0)).toBeCloseTo(1, 3);
  });

  it("get_postflop_range and compare_strategies read the river the same way", async () => {
    const path = ["bet", "call", "2c", "check", "check", "7d"];
    const range = (await ok(client, "get_postflop_range", {
      pack: PACK,
      board: "Qs9h4d",
      path,
    })) as unknown as Envelope;
    expect(range.context.nodeStreet).toBe("river");
    expect((range.result.combos as unknown[]).length).toBeGreaterThan(20);
    const compare = (await ok(client, "compare_strategies", {
      domain: "postflop",
      baseline: { pack: PACK, board: "Qs9h4d", path },
      comparison: { pack: PACK, board: "Qs9h4d", path: ["bet", "call", "2c", "check", "check", "Ad"] },
    })) as unknown as Envelope;
    expect(compare.result.mode).toBe("largest_changes");
  });

  it("explains what to write when the path stops where the turn card goes", async () => {
    const error = await fails(client, "get_postflop_node", {
      pack: PACK,
      board: "Qs9h4d",
      path: ["check", "check"],
    });
    expect(error.code).toBe("invalid_parameter");
    expect(error.message).toMatch(/add the turn card/);
  });
});
