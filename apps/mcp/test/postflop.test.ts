/**
 * The postflop tools through the SDK's own client, on packs made here by real small solves (narrow river
 * spots, a fraction of a second each): every number checked against the pack file the solver wrote.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import {
  comboName,
  type PackJob,
  PostflopPackFile,
  PostflopPacks,
  packFile,
  runPackJob,
} from "@ranges/postflop";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import { writeFixturePacks } from "./fixtures.js";
import { call, connect, fails, ok } from "./helpers.js";

const BOARDS = ["Qs Jh 2h 7c 3d", "Ks 9d 5c 4h 2s", "8c 7c 6d 5s 2h"];

function job(id: string, tree: "75" | "flop33"): PackJob {
  return {
    id,
    basePack: "test-river",
    tree,
    line: {
      kind: "test",
      description: "a narrow river test spot",
      game: "nl/v2",
      stack: 100,
      oop: "BB",
      ip: "BTN",
      oopSpot: "test",
      ipSpot: "test",
    },
    pot: 10,
    stack: 40,
    rake: { percent: 5, capBb: 0.6 },
    ranges: { oop: "KK,QQ,JJ,AQs,T9s,98s", ip: "AA,KQs,QJs,87s,65s,A5s" },
    boards: BOARDS,
  };
}

let dir: string;
let emptyDir: string;
let running: RunningMcpServer;
let empty: RunningMcpServer;
let access: AccessStore;
let client: Client;
let anon: Client;
let emptyClient: Client;
let pack: PostflopPackFile;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-postflop-"));
  emptyDir = mkdtempSync(join(tmpdir(), "mcp-postflop-empty-"));
  await runPackJob(job("test-river", "75"), dir, { threads: 1, maxIterations: 300, targetPct: 0.3 });
  await runPackJob(job("test-river-flop33", "flop33"), dir, {
    threads: 1,
    maxIterations: 300,
    targetPct: 0.3,
  });
  pack = PostflopPackFile.open(packFile(dir, "test-river"));
  const store = RangeStore.open({ packsDir: (await writeFixturePacks()).dir });
  access = await AccessStore.open(":memory:");
  running = await startMcpServer({
    port: 0,
    host: "127.0.0.1",
    store,
    access,
    postflop: PostflopPacks.open({ dir }),
  });
  empty = await startMcpServer({
    port: 0,
    host: "127.0.0.1",
    store,
    access,
    postflop: PostflopPacks.open({ dir: emptyDir }),
  });
  const key = (await access.createKey({ name: "postflop" })).key;
  client = await connect(running.url, key);
  anon = await connect(running.url);
  emptyClient = await connect(empty.url, key);
});

afterAll(async () => {
  await client?.close();
  await anon?.close();
  await emptyClient?.close();
  await running?.close();
  await empty?.close();
  access?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
});

type Envelope = {
  schemaVersion: string;
  coverage: { status: string; dataClass: string; objective: string };
  context: Record<string, unknown>;
  result: Record<string, unknown>;
  warnings: string[];
};
const env = async (name: string, args: Record<string, unknown> = {}, c = client) =>
  (await ok(c, name, args)) as unknown as Envelope;

describe("list_postflop_packs", () => {
  it("lists the packs with line, pot, stack, boards and exploitability (free without a key)", async () => {
    const out = await env("list_postflop_packs", {}, anon);
    expect(out.coverage.status).toBe("exact");
    const packs = out.result.packs as Array<Record<string, unknown>>;
    expect(packs.map((p) => p.pack)).toEqual(["test-river", "test-river-flop33"]);
    expect(packs[0]).toMatchObject({ potBb: 10, stackBb: 40, boardsSolved: 3, available: true });
    const ex = packs[0]!.exploitabilityPct as { max: number };
    expect(ex.max).toBe(Math.max(...pack.header.boards.map((b) => b.provenance.exploitabilityPct)));
    expect(ex.max).toBeLessThanOrEqual(0.3);
  });

  it("get_started says postflop is published exactly where packs are installed", async () => {
    const guide = (await ok(anon, "get_started")) as { coverage: Record<string, string[]> };
    expect(guide.coverage.published!.join(" ")).toMatch(/postflop packs test-river, test-river-flop33/);
    const none = (await ok(emptyClient, "get_started")) as { coverage: Record<string, string[]> };
    expect(none.coverage.published!.join(" ")).not.toMatch(/postflop/);
    expect(none.coverage.notPublished!.join(" ")).toMatch(/no postflop pack is installed yet/);
  });

  it("lists zero packs cleanly when the directory is empty", async () => {
    const out = await env("list_postflop_packs", {}, emptyClient);
    expect(out.result).toEqual({ packs: [], count: 0 });
    expect(
      (await fails(emptyClient, "get_postflop_node", { pack: "test-river", board: "QsJh7d3c2h" })).code,
    ).toBe("not_found");
  });
});

describe("get_postflop_node", () => {
  it("answers the root exactly from the pack: chip additions, compare keys, frequencies, a combo", async () => {
    const out = await env("get_postflop_node", {
      pack: "test-river",
      board: "QsJh7d3c2h",
      path: [],
      combo: "KhKd",
    });
    expect(out.coverage).toEqual({
      status: "exact",
      dataClass: "postflop_heads_up_cash",
      objective: "cash_ev",
    });
    expect(out.context).toMatchObject({
      actor: "oop",
      actorSeat: "BB",
      solvedBoard: "QsJh7d3c2h",
      nodePotBb: 10,
    });
    const root = pack.header.nodes[0]!;
    const actions = out.result.actions as Array<Record<string, unknown>>;
    expect(actions.map((a) => a.action)).toEqual(root.actions.map((a) => a.label));
    const bet = actions.find((a) => a.kind === "bet")!;
    expect(bet).toMatchObject({ amountBb: 7.5, compareKey: "bet:75%" });
    expect(actions.reduce((s, a) => s + (a.frequency as number), 0)).toBeCloseTo(1, 3);
    // The combo's numbers are the pack's.
    const data = pack.board("QsJh7d3c2h");
    const combo = out.result.combo as { combo: string; strategy: Array<{ frequency: number; evBb: number }> };
    expect(combo.combo).toBe("KhKd");
    const h = [...data.hands[0]!].findIndex((c) => comboName(c) === "KhKd");
    expect(h).toBeGreaterThanOrEqual(0);
    root.actions.forEach((_, i) => {
      expect(combo.strategy[i]!.frequency).toBeCloseTo(data.nodes[0]!.strategy[i]![h]!, 4);
      expect(combo.strategy[i]!.evBb).toBeCloseTo(data.nodes[0]!.actionEv[i]![h]!, 3);
    });
  });

  it("answers a suit-isomorphic board from the solved one with the suits mapped back", async () => {
    const direct = await env("get_postflop_node", { pack: "test-river", board: "QsJh7d3c2h", combo: "KhKd" });
    // Swap spades and hearts: QhJs7d3c2s, and the combo KsKd.
    const mapped = await env("get_postflop_node", {
      pack: "test-river",
      board: "Qh Js 7d 3c 2s",
      combo: "KsKd",
    });
    expect(mapped.coverage.status).toBe("exact");
    expect(mapped.context.suitMapping).toBeTypeOf("string");
    const a = direct.result.combo as { strategy: unknown };
    const b = mapped.result.combo as { combo: string; strategy: unknown };
    expect(b.combo).toBe("KsKd");
    expect(b.strategy).toEqual(a.strategy);
  });

  it("answers unsupported for unsolved boards (naming the nearest), later streets, multiway and tournaments", async () => {
    const unsolved = await env("get_postflop_node", { pack: "test-river", board: "AsAd7c7h3d" });
    expect(unsolved.coverage.status).toBe("unsupported");
    expect(String(unsolved.result.reason)).toMatch(/Nearest solved boards: /);
    expect(unsolved.result.substituted).toBeNull();
    const multi = await env("get_postflop_node", { pack: "test-river", board: "QsJh7d3c2h", players: 3 });
    expect(multi.coverage.dataClass).toBe("multiway_postflop");
    const mtt = await env("get_postflop_node", { pack: "test-river", board: "QsJh7d3c2h", format: "mtt" });
    expect(mtt.coverage.dataClass).toBe("tournament_postflop");
    expect(mtt.coverage.status).toBe("unsupported");
  });

  it("gives actionable errors for bad input, and needs a key", async () => {
    const unknown = await fails(client, "get_postflop_node", { pack: "nope", board: "QsJh7d3c2h" });
    expect(unknown.code).toBe("not_found");
    expect(unknown.hint).toEqual({ packs: ["test-river", "test-river-flop33"] });
    expect((await fails(client, "get_postflop_node", { pack: "test-river", board: "QsJh" })).code).toBe(
      "invalid_parameter",
    );
    expect(
      (await fails(client, "get_postflop_node", { pack: "test-river", board: "QsJh7d3c2h", combo: "AKs" }))
        .code,
    ).toBe("invalid_hand");
    expect(
      (await fails(client, "get_postflop_node", { pack: "test-river", board: "QsJh7d3c2h", combo: "QsKd" }))
        .message,
    ).toMatch(/uses a card of the board/);
    const bad = await fails(client, "get_postflop_node", {
      pack: "test-river",
      board: "QsJh7d3c2h",
      path: ["raise"],
    });
    expect(bad.code).toBe("action_not_available");
    expect(bad.validActions).toEqual(pack.header.nodes[0]!.actions.map((a) => a.label));
    expect((await fails(anon, "get_postflop_node", { pack: "test-river", board: "QsJh7d3c2h" })).status).toBe(
      401,
    );
    const folded = await fails(client, "get_postflop_node", {
      pack: "test-river",
      board: "QsJh7d3c2h",
      path: ["bet", "fold"],
    });
    expect(folded.message).toMatch(/the hand is over/);
  });
});

describe("get_postflop_range", () => {
  it("lists every combo of the player to act, and one action's range", async () => {
    const node = await env("get_postflop_range", { pack: "test-river", board: "QsJh7d3c2h", path: "bet" });
    expect(node.context.actor).toBe("ip");
    const combos = node.result.combos as Array<{
      combo: string;
      frequencies: Record<string, number>;
      evBb: number;
    }>;
    expect(combos.length).toBe(pack.board("QsJh7d3c2h").hands[1]!.length);
    for (const c of combos) expect(Object.values(c.frequencies).reduce((s, x) => s + x, 0)).toBeCloseTo(1, 3);
    const bet = await env("get_postflop_range", {
      pack: "test-river",
      board: "QsJh7d3c2h",
      path: [],
      action: "bet",
    });
    const label = pack.header.nodes[0]!.actions.find((a) => a.kind === "bet")!.label;
    expect(bet.context.rangeOf).toBe(label);
    expect((bet.result.action as { amountBb: number }).amountBb).toBe(7.5);
    for (const c of bet.result.combos as Array<{ weightAfter: number }>)
      expect(c.weightAfter).toBeGreaterThan(0);
  });
});

describe("explain_combo", () => {
  it("explains strategy, EV per action, equity, hand category and range position in sentences", async () => {
    const out = await env("explain_combo", {
      pack: "test-river",
      board: "QsJh7d3c2h",
      path: [],
      combo: "QdQc",
    });
    expect(out.coverage.status).toBe("exact");
    expect(out.result.handCategory).toMatchObject({ made: "set" });
    const pos = out.result.rangePosition as { equityPercentile: number };
    expect(pos.equityPercentile).toBeGreaterThan(0.5);
    expect(String(out.result.explanation)).toMatch(/^QdQc \(set\) plays .* equity/);
    // The last sentence follows the EVs: a near-pure action is the clear choice, a mix within 1% of the pot
    // is an indifference, and a wider mix says how far apart its EVs are.
    const strategy = out.result.strategy as { frequency: number; evBb: number }[];
    const taken = strategy.filter((x) => x.frequency >= 0.005);
    const spread = Math.max(...taken.map((x) => x.evBb)) - Math.min(...taken.map((x) => x.evBb));
    const top = Math.max(...strategy.map((x) => x.frequency));
    const pot = (out.context as { nodePotBb: number }).nodePotBb;
    expect(String(out.result.explanation)).toMatch(
      taken.length > 1 && spread <= 0.01 * pot
        ? /worth about the same/
        : top >= 0.95
          ? /is the clear choice/
          : /mixes actions whose EVs differ by/,
    );
    expect(
      (await fails(client, "explain_combo", { pack: "test-river", board: "QsJh7d3c2h", combo: "AhAd" }))
        .message,
    ).toMatch(/not in OOP's range/);
  });
});

describe("get_board_report", () => {
  it("aggregates the solved boards equally, with counts, and filters by texture", async () => {
    const all = await env("get_board_report", { pack: "test-river", path: [] });
    expect(all.coverage.status).toBe("aggregated_report");
    expect(all.result.counts).toEqual({ solved: 3, matched: 3, analyzed: 3, unavailable: 0 });
    const boards = all.result.boards as Array<{ frequencies: Record<string, number> }>;
    const agg = all.result.aggregate as Array<{ action: string; frequency: number }>;
    for (const a of agg) {
      const mean = boards.reduce((s, b) => s + b.frequencies[a.action]!, 0) / boards.length;
      expect(a.frequency).toBeCloseTo(mean, 3);
    }
    const connected = await env("get_board_report", {
      pack: "test-river-flop33",
      path: [],
      filters: { connectivity: "connected" },
    });
    expect((connected.result.counts as { matched: number }).matched).toBeLessThan(3);
    const bad = await fails(client, "get_board_report", {
      pack: "test-river",
      filters: { pairedness: "double" },
    });
    expect(bad.message).toMatch(/unpaired, paired, trips/);
  });

  it("carries the provenance of the analyzed boards: solve times, iterations and exploitability", async () => {
    const all = await env("get_board_report", { pack: "test-river", path: [] });
    const solved = pack.header.boards.map((b) => b.provenance);
    expect(all.context.provenance).toEqual({
      boards: 3,
      solvedAt: {
        first: solved.map((p) => p.solvedAt).sort()[0],
        last: solved.map((p) => p.solvedAt).sort()[2],
      },
      iterations: {
        min: Math.min(...solved.map((p) => p.iterations)),
        max: Math.max(...solved.map((p) => p.iterations)),
      },
      solveSeconds: {
        total: Math.round(solved.reduce((s, p) => s + p.seconds, 0) * 1000) / 1000,
        max: Math.max(...solved.map((p) => p.seconds)),
      },
      exploitabilityPct: {
        max: Math.max(...solved.map((p) => p.exploitabilityPct)),
        mean: Math.round((solved.reduce((s, p) => s + p.exploitabilityPct, 0) / 3) * 10000) / 10000,
      },
      exploitabilityNote: expect.stringMatching(/percent of the pot/),
    });
  });
});

describe("compare_strategies postflop", () => {
  it("lists the largest per-combo frequency changes between two boards, and one combo side by side", async () => {
    const out = await env("compare_strategies", {
      domain: "postflop",
      baseline: { pack: "test-river", board: "QsJh7d3c2h", path: [] },
      comparison: { pack: "test-river", board: "Ks9d5c4h2s", path: [] },
      limit: 5,
    });
    expect(out.coverage.status).toBe("exact");
    const changes = out.result.changes as Array<{ deltaFreq: number }>;
    expect(changes.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < changes.length; i++) {
      expect(Math.abs(changes[i - 1]!.deltaFreq)).toBeGreaterThanOrEqual(Math.abs(changes[i]!.deltaFreq));
    }
    const one = await env("compare_strategies", {
      domain: "postflop",
      baseline: { pack: "test-river", board: "QsJh7d3c2h", path: [], combo: "AhQh" },
      comparison: { pack: "test-river-flop33", board: "QsJh7d3c2h", path: [] },
    });
    expect(one.result.mode).toBe("combo");
    // Each side's bet carries its exact chip addition next to the pot-normalized key.
    const bet = (
      one.result.actions as Array<{
        compareKey: string;
        baseline: { amountBb: number } | null;
        comparison: { amountBb: number } | null;
      }>
    ).find((a) => a.compareKey === "bet:75%")!;
    expect(bet.baseline?.amountBb).toBe(7.5);
    expect(bet.comparison?.amountBb).toBe(7.5);
    const multi = await call(client, "compare_strategies", {
      domain: "postflop",
      baseline: { pack: "test-river", board: "QsJh7d3c2h", players: 3 },
      comparison: { pack: "test-river", board: "QsJh7d3c2h" },
    });
    expect((multi.structuredContent as Envelope).coverage.status).toBe("unsupported");
    // What is published, for a postflop request: the postflop packs, not the preflop sets.
    const published = (multi.structuredContent as Envelope).result.published as string[];
    expect(published).toEqual([
      "Heads-up cash postflop packs: test-river, test-river-flop33 (flop decisions of their solved boards).",
    ]);
  });
});
