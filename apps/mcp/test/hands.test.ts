/**
 * The hand tools through the MCP SDK's own client against a real server: uploads inline (histories
 * written for the tests: observed hands and hands with a hero), dedup, one key holder never seeing another's hands, every
 * analysis tool, pagination, 401 without a key, and bad input answered with clear errors (never a 500).
 * The upload link over real HTTP is tested in apps/api (test/uploads.test.ts), where its endpoint lives.
 */

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore, HandStore } from "@ranges/access";
import { HandParser, HandUploads } from "@ranges/hand-analysis";
import { HandUploadSchema } from "@ranges/schema";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import { call, connect, fails, ok } from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../..");
const fixture = (name: string) =>
  readFileSync(join(root, "packages/hand-analysis/test/fixtures", name), "utf8");

let store: RangeStore;
let access: AccessStore;
let parser: HandParser;
let running: RunningMcpServer;
let alice: Client;
let bob: Client;
let anon: Client;
let aliceKey: string;
let uploads: HandUploads;

beforeAll(async () => {
  // The committed packs: the equilibrium comparisons read real strategies.
  store = RangeStore.open({ packsDir: join(root, "data/packs"), refreshMs: 0 });
  access = await AccessStore.open(":memory:");
  parser = new HandParser({ idleMs: 500 });
  uploads = new HandUploads(new HandStore(access.database), parser);
  running = await startMcpServer({
    port: 0,
    host: "127.0.0.1",
    store,
    access,
    hands: { uploads, linkBase: null },
  });
  aliceKey = (await access.createKey({ name: "alice" })).key;
  alice = await connect(running.url, aliceKey);
  bob = await connect(running.url, (await access.createKey({ name: "bob" })).key);
  anon = await connect(running.url);
});

afterAll(async () => {
  for (const c of [alice, bob, anon]) await c?.close();
  await running?.close();
  await parser?.close();
  await access?.close();
  store?.close();
});

type Envelope<R> = {
  schemaVersion: string;
  coverage: { status: string; dataClass: string };
  context: Record<string, unknown> & { total?: number; nextCursor?: string };
  result: R;
  warnings: string[];
};
const env = async <R>(client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await ok(client, name, args)) as unknown as Envelope<R>;

type HandRow = {
  site: string;
  handId: string;
  position: string | null;
  handClass: string | null;
  line: string;
  netBb: number;
  adjustedBb: number | null;
  vsEquilibrium: {
    status: string;
    reason?: string;
    game?: string;
    stack?: number;
    decisions?: { history: string; action: string; freq: number | null; evLossBb: number | null }[];
  };
};

const HAND_TOOLS = [
  ["get_upload_link", {}],
  ["upload_hand_history", { text: "x" }],
  ["find_hands", {}],
  ["get_hand_results", {}],
  ["list_my_sessions", {}],
  ["get_session_summary", { sessionId: "ses_MzB8cG9rZXJzdGFyc3wx" }],
  ["get_tournament_results", {}],
  ["list_my_opponents", {}],
  ["get_opponent_notes", { player: "Vera88" }],
  ["get_opponent_limp_range", { player: "Gorm" }],
] as const;

describe("uploads inline", () => {
  it("need a key: every hand tool answers 401 without one", async () => {
    for (const [name, args] of HAND_TOOLS) {
      const e = await fails(anon, name, args);
      expect(e, name).toMatchObject({ status: 401, code: "unauthorized" });
      expect(e.message).toMatch(/needs an API key/);
    }
  });

  it("stores the hands under the caller's key, deduplicated by site and hand number", async () => {
    const first = HandUploadSchema.parse(
      await ok(alice, "upload_hand_history", { text: fixture("hero-6max-cash.txt") }),
    );
    expect(first.upload).toMatchObject({
      via: "inline",
      hands: 5,
      stored: 5,
      duplicates: 0,
      withHero: 5,
      errors: 0,
    });
    expect(first.upload.sites).toEqual({ pokerstars: 5 });
    const again = HandUploadSchema.parse(
      await ok(alice, "upload_hand_history", { text: fixture("hero-6max-cash.txt") }),
    );
    expect(again.upload).toMatchObject({ hands: 5, stored: 0, duplicates: 5, totalHands: 5 });
    const mtt = HandUploadSchema.parse(
      await ok(alice, "upload_hand_history", { text: fixture("hero-8max-tournament.txt") }),
    );
    expect(mtt.upload).toMatchObject({ stored: 2, totalHands: 7 });
    // Observed hands without a hero line, with the uploader's screen name (in hands 1-4 of the 10).
    const observed = HandUploadSchema.parse(
      await ok(bob, "upload_hand_history", {
        text: fixture("observed-6max-cash.txt"),
        hero: "rivertilt",
      }),
    );
    expect(observed.upload).toMatchObject({ hands: 10, stored: 10, errors: 0, withHero: 4, warnings: [] });
  });

  it("reads the good hands of a text and reports the bad ones by line", async () => {
    const good = fixture("observed-flop-allin.txt");
    const bad = fixture("observed-plo-ante.txt").replace(/: raises/, ": dances");
    const r = HandUploadSchema.parse(await ok(bob, "upload_hand_history", { text: `${bad}\n\n\n${good}` }));
    expect(r.upload).toMatchObject({ hands: 1, stored: 1, errors: 1 });
    expect(r.upload.errorSamples[0]).toMatchObject({
      handId: "251000000201",
      line: 10,
      message: expect.stringMatching(/dances/),
    });
    expect(r.upload.errorSamples[0]!.line).toBeGreaterThan(1);
    // The good hand is stored; the bad one is not.
    const stored = await env<{ hands: HandRow[] }>(bob, "find_hands", { uploadId: r.upload.uploadId });
    expect(stored.result.hands.map((h) => h.handId)).toEqual(["251000000101"]);
  });

  it("refuses what is not a hand history with a clear message", async () => {
    expect(
      await fails(alice, "upload_hand_history", { text: "hello, this is not a hand history" }),
    ).toMatchObject({
      status: 400,
      code: "invalid_parameter",
      message: expect.stringMatching(/No hand could be read.*no hand found/),
    });
    const broken = await fails(alice, "upload_hand_history", {
      text: "PokerStars Hand #1:  Hold'em No Limit ($0.50/$1 USD) - 2024/03/01 10:00:00 ET\nnonsense\n",
    });
    expect(broken).toMatchObject({
      status: 400,
      message: expect.stringMatching(/No hand could be read.*line \d+/),
    });
    expect(await fails(alice, "upload_hand_history", { text: "PokerStars\u0000Hand" })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/NUL/),
    });
    // Over the inline cap: refused by the input schema before the tool runs, naming the way out.
    const big = await call(alice, "upload_hand_history", { text: "x".repeat(400_001) });
    expect(big.isError).toBe(true);
    expect(JSON.stringify(big.content)).toMatch(/get_upload_link/);
    // The standalone server has no upload endpoint: the link tool says so and names the inline tool.
    expect(await fails(alice, "get_upload_link", {})).toMatchObject({
      status: 404,
      message: expect.stringMatching(/upload_hand_history/),
    });
  });
});

describe("find_hands", () => {
  it("lists the caller's hands newest first; nobody sees another's", async () => {
    const mine = await env<{ hands: HandRow[] }>(alice, "find_hands", { limit: 100 });
    expect(mine.coverage).toMatchObject({ status: "exact", dataClass: "uploaded_hands" });
    expect(mine.context.total).toBe(7);
    expect(mine.result.hands.map((h) => h.handId)).toEqual([
      "250000000102",
      "250000000101",
      "250000000005",
      "250000000004",
      "250000000003",
      "250000000002",
      "250000000001",
    ]);
    const theirs = await env<{ hands: HandRow[] }>(bob, "find_hands", { limit: 100 });
    expect(theirs.context.total).toBe(11);
    expect(theirs.result.hands.some((h) => h.handId.startsWith("25000000"))).toBe(false);
    // Alice's all-in hand is hers alone, even by number.
    const byNumber = await env<{ hands: HandRow[] }>(bob, "find_hands", { handId: "250000000002" });
    expect(byNumber.result.hands).toEqual([]);
  });

  it("filters on position, class, line, showdown, result, dates, format and stakes", async () => {
    const ids = async (args: Record<string, unknown>) =>
      (await env<{ hands: HandRow[] }>(alice, "find_hands", { limit: 100, ...args })).result.hands.map((h) =>
        h.handId.slice(-3),
      );
    expect(await ids({ position: ["BTN"] })).toEqual(["001"]);
    expect(await ids({ handClass: "QQ+" })).toEqual(["004", "002"]);
    expect(await ids({ holeCards: "kdah" })).toEqual(["001"]);
    expect(await ids({ line: ["three_bet", "four_bet_plus"] })).toEqual(["102", "004", "002"]);
    expect(await ids({ showdown: true, format: "cash" })).toEqual(["005", "002"]);
    expect(await ids({ result: "lost", format: "cash" })).toEqual(["005", "002"]);
    expect(await ids({ from: "2024-03-02" })).toEqual(["102", "101"]);
    expect(await ids({ to: "2024-03-01", from: "2024-03-01T15:06" })).toEqual(["005", "004", "003"]);
    expect(await ids({ stakes: "$5+$0.50" })).toEqual(["102", "101"]);
    expect(await ids({ table: "Mizar III" })).toEqual(["005"]);
    expect(await ids({ game: "plo" })).toEqual([]);
  });

  it("pages with nextCursor; a cursor is bound to its filters", async () => {
    const first = await env<{ hands: HandRow[] }>(alice, "find_hands", { limit: 3, format: "cash" });
    expect(first.result.hands).toHaveLength(3);
    const cursor = first.context.nextCursor as string;
    const second = await env<{ hands: HandRow[] }>(alice, "find_hands", { limit: 3, format: "cash", cursor });
    expect(second.result.hands.map((h) => h.handId)).toEqual(["250000000002", "250000000001"]);
    expect(second.context.nextCursor).toBeUndefined();
    expect(await fails(alice, "find_hands", { limit: 3, cursor })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/not a cursor of this listing/),
    });
  });

  it("shows the hero's preflop decisions against the equilibrium where the hand maps onto a pack", async () => {
    const full = await env<{ hands: (HandRow & { detail: { preflop: string[] } })[] }>(alice, "find_hands", {
      handId: "250000000001",
      detail: "full",
    });
    const hand = full.result.hands[0]!;
    expect(hand.vsEquilibrium).toMatchObject({ status: "compared", game: "nl/v2", stack: 100 });
    const d = hand.vsEquilibrium.decisions![0]!;
    expect(d).toMatchObject({ history: "UTG_Fold_HJ_Fold_CO_Fold_BTN", action: "60%" });
    const node = store.node("nl/v2", 100, "UTG_Fold_HJ_Fold_CO_Fold_BTN", { hand: "AKo" });
    expect(d.freq).toBeCloseTo(node.actions.find((a) => a.action === "60%")!.weights.AKo ?? 0, 4);
    expect(hand.detail.preflop).toEqual([
      "UTG fold",
      "HJ fold",
      "CO fold",
      "BTN raise 2.5bb",
      "SB fold",
      "BB call",
    ]);
    // An observed hand (no hero named; July 2024, the only one of bob's that month): not comparable, and why.
    const bobs = await env<{ hands: HandRow[] }>(bob, "find_hands", { from: "2024-07-01", limit: 1 });
    expect(bobs.result.hands.map((h) => h.handId)).toEqual(["251000000101"]);
    expect(bobs.result.hands[0]!.vsEquilibrium.status).toBe("not_comparable");
    expect(bobs.result.hands[0]!.vsEquilibrium.reason).toMatch(/no hero/);
  });

  it("answers bad filters with 400s that name them", async () => {
    expect(await fails(alice, "find_hands", { from: "last tuesday" })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/from "last tuesday" is not a date/),
    });
    expect(await fails(alice, "find_hands", { handClass: "AXs" })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/not a hand class/),
    });
    expect(await fails(alice, "find_hands", { holeCards: "AhAh" })).toMatchObject({ status: 400 });
    const typo = await call(alice, "find_hands", { positon: ["BTN"] });
    expect(typo.isError).toBe(true);
    expect(JSON.stringify(typo.content)).toMatch(/did you mean \\"position\\"/);
  });
});

type ResultLine = { key: string; hands: number; netBb: number; bbPer100: number; adjustedBb: number };

describe("results, sessions, tournaments", () => {
  it("get_hand_results: totals, bb/100 by position and game, all-in adjusted, against the equilibrium", async () => {
    const r = await env<{
      total: ResultLine;
      byPosition: ResultLine[];
      byGame: ResultLine[];
      vsEquilibrium: { comparableHands: number; decisions: number; notComparableHands: number };
    }>(alice, "get_hand_results", { format: "cash" });
    expect(r.coverage.status).toBe("aggregated_report");
    expect(r.result.total).toMatchObject({ hands: 5, netBb: -103.75, bbPer100: -2075 });
    expect(r.result.total.adjustedBb).toBeGreaterThan(r.result.total.netBb);
    expect(r.result.byPosition.map((p) => p.key)).toEqual(["HJ", "CO", "BTN", "SB", "BB"]);
    expect(r.result.byGame.map((g) => g.key)).toEqual(["nlhe cash $0.50/$1"]);
    expect(r.result.vsEquilibrium.comparableHands).toBe(5);
    expect(r.result.vsEquilibrium.decisions).toBeGreaterThan(3);
  });

  it("sessions split at pauses; a session summary by id; nobody else's", async () => {
    const list = await env<{
      sessions: { id: string; hands: number; tables: { table: string }[]; netBb: number }[];
    }>(alice, "list_my_sessions", { format: "cash" });
    expect(list.result.sessions.map((s) => [s.hands, s.tables.map((t) => t.table), s.netBb])).toEqual([
      [1, ["Mizar III"], -10],
      [4, ["Alioth II"], -93.75],
    ]);
    const id = list.result.sessions[1]!.id;
    const summary = await env<{
      session: { hands: number };
      biggestLosses: { handId: string }[];
      biggestWins: { handId: string }[];
    }>(alice, "get_session_summary", { sessionId: id });
    expect(summary.result.session.hands).toBe(4);
    expect(summary.result.biggestLosses[0]!.handId).toBe("250000000002");
    expect(summary.result.biggestWins.map((h) => h.handId)).toEqual(["250000000004", "250000000001"]);
    for (const s of list.result.sessions) {
      expect(await fails(bob, "get_session_summary", { sessionId: s.id })).toMatchObject({ status: 404 });
    }
    expect(await fails(alice, "get_session_summary", { sessionId: "ses_nonsense!" })).toMatchObject({
      status: 400,
    });
    const joined = await env<{ sessions: unknown[] }>(alice, "list_my_sessions", {
      format: "cash",
      gapMinutes: 180,
    });
    expect(joined.result.sessions).toHaveLength(1);
  });

  it("a session id from a filtered list resolves to the same session, other hands interleaved", async () => {
    type S = { id: string; hands: number; start: string; netBb: number; tables: unknown[] };
    // Lost hands only: the first of them is not the first of the session of all hands, and won hands
    // come between them.
    const lost = await env<{ sessions: S[] }>(alice, "list_my_sessions", { format: "cash", result: "lost" });
    const all = await env<{ sessions: S[] }>(alice, "list_my_sessions", { format: "cash" });
    const older = lost.result.sessions.at(-1)!;
    expect(all.result.sessions.map((s) => s.start)).not.toContain(older.start);
    expect(older.hands).toBeLessThan(all.result.sessions.at(-1)!.hands);
    for (const s of lost.result.sessions) {
      const summary = await env<{ session: S; biggestWins: unknown[] }>(alice, "get_session_summary", {
        sessionId: s.id,
      });
      expect(summary.result.session).toEqual(s);
      expect(summary.result.biggestWins).toEqual([]);
      expect(summary.context.filters).toEqual({ format: "cash", result: "lost" });
    }
    // The unfiltered ids still resolve to their own sessions.
    const whole = await env<{ session: S }>(alice, "get_session_summary", {
      sessionId: all.result.sessions.at(-1)!.id,
    });
    expect(whole.result.session).toEqual(all.result.sessions.at(-1));
    // A hand that is not a session's first: 404.
    const second = `ses_${Buffer.from("30|pokerstars|250000000002").toString("base64url")}`;
    expect(await fails(alice, "get_session_summary", { sessionId: second })).toMatchObject({ status: 404 });
    // Filters that are not filters: 400.
    const bad = `ses_${Buffer.from('30|pokerstars|250000000001|{"nope":1}').toString("base64url")}`;
    expect(await fails(alice, "get_session_summary", { sessionId: bad })).toMatchObject({ status: 400 });
  });

  it("get_tournament_results: buy-in, finish, prize and ROI from the histories; the unknown said", async () => {
    const t = await env<{
      tournaments: { id: string; buyInTotal: number; finish: unknown; roi: number; unknown: string[] }[];
      totals: { byCurrency: unknown[] };
    }>(alice, "get_tournament_results", {});
    expect(t.result.tournaments).toEqual([
      expect.objectContaining({
        id: "3300000001",
        buyInTotal: 5.5,
        finish: { place: 7, prize: 8.25 },
        profit: 2.75,
        roi: 0.5,
      }),
    ]);
    expect(t.result.tournaments[0]!.unknown.join(" ")).toMatch(/re-entries/);
    expect(t.result.totals.byCurrency).toEqual([
      { currency: "USD", buyIns: 5.5, prizes: 8.25, profit: 2.75, roi: 0.5 },
    ]);
    expect(
      (await env<{ tournaments: unknown[] }>(bob, "get_tournament_results", {})).result.tournaments,
    ).toEqual([]);
  });
});

describe("the hands one call analyses are bounded", () => {
  it("reads at most maxAnalysedHands (the newest) and says so, with how to narrow", async () => {
    const small = await startMcpServer({
      port: 0,
      host: "127.0.0.1",
      store,
      access,
      hands: { uploads, linkBase: null, maxAnalysedHands: 2 },
    });
    const client = await connect(small.url, aliceKey);
    try {
      const r = await env<{ total: ResultLine }>(client, "get_hand_results", { format: "cash" });
      expect(r.context).toMatchObject({ hands: 2, capped: true });
      expect(r.result.total.hands).toBe(2);
      expect(r.warnings.join(" ")).toMatch(
        /only the newest 2 of the 5 hands that match.*narrow with from and to/,
      );
      const s = await env<{ sessions: { hands: number }[] }>(client, "list_my_sessions", { format: "cash" });
      expect(s.result.sessions.reduce((n, x) => n + x.hands, 0)).toBe(2);
      expect(s.warnings.join(" ")).toMatch(/newest 2 of the 5/);
      const o = await env<unknown>(client, "list_my_opponents", {});
      expect(o.warnings.join(" ")).toMatch(/newest 2 of the 7/);
      const t = await env<unknown>(client, "get_tournament_results", {});
      expect(t.warnings.join(" ")).not.toMatch(/newest/);
      // Under the bound nothing is said.
      const all = await env<unknown>(alice, "get_hand_results", { format: "cash" });
      expect(all.context).toMatchObject({ hands: 5, capped: false });
      expect(all.warnings.join(" ")).not.toMatch(/newest/);
    } finally {
      await client.close();
      await small.close();
    }
  });
});

describe("opponents", () => {
  it("list_my_opponents: hands together, VPIP, PFR, 3-bet, fold to 3-bet, and the largest gap to the equilibrium", async () => {
    const list = await env<{
      opponents: {
        player: string;
        hands: number;
        vpip: { freq: number };
        threeBet: { n: number; k: number };
        foldToThreeBet: { n: number; k: number };
        vsEquilibrium: { decisions: number };
      }[];
    }>(alice, "list_my_opponents", { format: "cash", limit: 50 });
    expect(list.result.opponents.some((o) => o.player === "Hero1")).toBe(false);
    const vera = list.result.opponents.find((o) => o.player === "Vera88")!;
    expect(vera).toMatchObject({
      hands: 4,
      vpip: { freq: 0.5 },
      threeBet: { n: 2, k: 1 },
      foldToThreeBet: { n: 1, k: 1 },
    });
    expect(vera.vsEquilibrium.decisions).toBeGreaterThan(0);
    // Bob's opponents are from his hands only.
    const bobs = await env<{ opponents: { player: string }[] }>(bob, "list_my_opponents", { limit: 50 });
    expect(bobs.result.opponents.some((o) => o.player === "Vera88")).toBe(false);
    const paged = await env<{ opponents: unknown[] }>(alice, "list_my_opponents", { limit: 2 });
    expect(paged.result.opponents).toHaveLength(2);
    expect(paged.context.nextCursor).toEqual(expect.any(String));
  });

  it("get_opponent_notes and get_opponent_limp_range; unknown players are 404s", async () => {
    const notes = await env<{
      stats: { hands: number };
      vsEquilibrium: {
        situations: { situation: string; position: string | null; observed: { raise: number } }[];
      };
      shownHands: { cards: string[] }[];
    }>(alice, "get_opponent_notes", { player: "Vera88" });
    expect(notes.result.stats.hands).toBe(4);
    expect(notes.result.shownHands[0]!.cards).toEqual(["Ks", "Kd"]);
    expect(
      notes.result.vsEquilibrium.situations.find((s) => s.situation === "unopened" && s.position === "UTG"),
    ).toMatchObject({ observed: { raise: 1 } });
    const limps = await env<{
      byPosition: { position: string; limps: number; freq: number }[];
      shownClasses: { handClass: string }[];
    }>(alice, "get_opponent_limp_range", { player: "Gorm" });
    expect(limps.result.byPosition.find((p) => p.position === "UTG")).toMatchObject({ limps: 1, freq: 1 });
    expect(limps.result.shownClasses.map((c) => c.handClass)).toEqual(["76s"]);
    expect(await fails(bob, "get_opponent_notes", { player: "Vera88" })).toMatchObject({
      status: 404,
      message: expect.stringMatching(/No hands with a player "Vera88"/),
    });
    expect(await fails(alice, "get_opponent_limp_range", { player: "Hero1" })).toMatchObject({ status: 404 });
  });
});
