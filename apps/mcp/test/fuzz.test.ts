/** Whatever a caller sends within the input schemas, no tool throws or answers 500, and every answer validates. */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessStore, HandStore } from "@ranges/access";
import { GAME_IDS } from "@ranges/core";
import { HandParser, HandUploads } from "@ranges/hand-analysis";
import { PostflopPacks, runPackJob } from "@ranges/postflop";
import { ErrorBodySchema } from "@ranges/schema";
import { RangeStore } from "@ranges/store";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolContext } from "../src/context.js";
import { TOOL_SPECS } from "../src/server.js";
import { inputSchemaOf, runTool } from "../src/tool.js";
import { writeFixturePacks } from "./fixtures.js";

let store: RangeStore;
let access: AccessStore;
let key: string;
let parser: HandParser;
let uploads: HandUploads;
let postflop: PostflopPacks;
let postflopDir: string;

beforeAll(async () => {
  // One real postflop pack from a small river solve, so the postflop tools run past their lookups.
  postflopDir = mkdtempSync(join(tmpdir(), "mcp-fuzz-postflop-"));
  await runPackJob(
    {
      id: "fuzz-river",
      basePack: "fuzz-river",
      tree: "75",
      line: {
        kind: "test",
        description: "a narrow river spot for the fuzzer",
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
      ranges: { oop: "KK,QQ,AQs,T9s", ip: "AA,KQs,87s,A5s" },
      boards: ["Qs Jh 2h 7c 3d"],
    },
    postflopDir,
    { threads: 1, maxIterations: 50, targetPct: 1 },
  );
  postflop = PostflopPacks.open({ dir: postflopDir });
  store = RangeStore.open({ packsDir: (await writeFixturePacks()).dir });
  access = await AccessStore.open(":memory:", { keylessDailyLimit: 1_000_000 });
  const created = await access.createKey({ name: "fuzz", dailyQuota: null });
  key = created.key;
  parser = new HandParser();
  uploads = new HandUploads(new HandStore(access.database), parser);
  // Hands to analyse, so the hand tools run their analysis on whatever filters the fuzzer sends.
  const fixtures = join(import.meta.dirname, "../../../packages/hand-analysis/test/fixtures");
  for (const f of ["hero-6max-cash.txt", "hero-8max-tournament.txt"]) {
    await uploads.ingest(created.id, readFileSync(join(fixtures, f), "utf8"), null, "inline");
  }
});

afterAll(async () => {
  rmSync(postflopDir, { recursive: true, force: true });
  await parser.close();
  await access.close();
});

const seat = fc.constantFrom("UTG", "UTG1", "HJ", "CO", "BTN", "SB", "BB", "LJ", "XX");
const token = fc.constantFrom(
  "Fold",
  "Call",
  "Limp",
  "AI",
  "Open",
  "3B",
  "4B",
  "60%",
  "100%",
  "60%25",
  "%",
  "",
);
const path = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.array(fc.tuple(seat, token), { maxLength: 6 }).map((steps) => steps.flat().join("_")),
  fc
    .array(fc.tuple(seat, token), { maxLength: 6 })
    .chain((steps) => seat.map((s) => [...steps.flat(), s].join("_"))),
);
// Mostly values the input schemas accept (anything else is rejected before the tool runs and skipped).
const game = fc.oneof(
  { arbitrary: fc.constantFrom(...GAME_IDS), weight: 8 },
  { arbitrary: fc.oneof(fc.constantFrom("nlmtt9", "nl7"), fc.string({ maxLength: 8 })), weight: 1 },
);
const stack = fc.oneof(
  fc.constantFrom(100, 50, 40, 20, 10, 0, -1, 1e9, 0.5, 1000),
  fc.double({ min: 0, max: 1000, noNaN: true }),
  fc.double(),
  fc.string({ maxLength: 6 }),
  fc.constantFrom("100", "40", "1e2", " 40 ", "0", "40.5"),
);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const hand = opt(
  fc.oneof(
    fc.constantFrom("AA", "AKs", "AhKh", "72o", "(AK)(AK)", "AsKsAhKh", "ZZ"),
    fc.string({ maxLength: 8 }),
  ),
);
const scope = {
  objective: opt(fc.oneof(fc.constantFrom("chip_ev", "icm", "cash_ev"), fc.string({ maxLength: 6 }))),
  format: opt(fc.oneof(fc.constantFrom("mtt", "cash", "pko", "satellite"), fc.string({ maxLength: 6 }))),
  ante: opt(
    fc.oneof(fc.constantFrom(0, 1, 0.125), fc.double({ min: 0, max: 100, noNaN: true }), fc.double()),
  ),
  players: opt(fc.integer({ min: -2, max: 12 })),
};

/** The filters of the hand tools, mostly plausible values, plus `extra` fields. */
function handFilters<T extends Record<string, fc.Arbitrary<unknown>>>(extra: T) {
  return {
    from: opt(
      fc.oneof(
        fc.constantFrom("2024-03-01", "2024-03-01T15:06", "2024-13-40", "yesterday"),
        fc.string({ maxLength: 12 }),
      ),
    ),
    to: opt(fc.constantFrom("2024-03-02", "2024-03-01T15:06Z", "2023-01-01", "")),
    site: opt(fc.constantFrom("pokerstars", "ggpoker", "partypoker")),
    game: opt(fc.constantFrom("nlhe", "plo", "", "NLHE")),
    format: opt(fc.constantFrom("cash", "tournament", "sng")),
    stakes: opt(fc.constantFrom("$0.50/$1", "$5+$0.50", "x")),
    position: opt(fc.array(fc.constantFrom("BTN", "BB", "UTG", "XX"), { maxLength: 3 })),
    holeCards: opt(fc.oneof(fc.constantFrom("AhKd", "AhAh", "Ah", "AsKsQsJs"), fc.string({ maxLength: 8 }))),
    handClass: opt(
      fc.oneof(fc.constantFrom("QQ+", "A2s-A5s", "KQ", "AXs", "(AK)QJ", ",,"), fc.string({ maxLength: 8 })),
    ),
    line: opt(fc.array(fc.constantFrom("limped", "three_bet", "walk", "x"), { maxLength: 3 })),
    showdown: opt(fc.boolean()),
    result: opt(fc.constantFrom("won", "lost", "even", "x")),
    table: opt(fc.constantFrom("Alioth II", "")),
    tournamentId: opt(fc.constantFrom("3300000001", "")),
    uploadId: opt(fc.constantFrom("up_0123456789abcdef", "")),
    ...extra,
  };
}

const side = fc.record({
  game: opt(game),
  stack: opt(stack),
  history: opt(path),
  hand,
  ...scope,
});

const postflopPack = fc.oneof(
  fc.constantFrom("fuzz-river", "fuzz-river-flop33", "srp-btn-bb-100bb"),
  fc.string({ maxLength: 12 }),
);
const postflopBoard = fc.oneof(
  fc.constantFrom("QsJh2h7c3d", "Qs Jh 2h 7c 3d", "QdJc2c7s3h", "QsJh2h", "AsAs2h", "Ks9d5c4h2s"),
  fc.string({ minLength: 1, maxLength: 20 }),
);
const postflopAction = fc.oneof(
  fc.constantFrom("check", "bet", "call", "fold", "raise", "allin", "bet 75%", "bet 4.13", "x"),
  fc.string({ maxLength: 12 }),
);
const postflopPath = opt(
  fc.oneof(
    fc.array(postflopAction, { maxLength: 5 }),
    fc.array(postflopAction, { maxLength: 5 }).map((a) => a.join(",")),
  ),
);
const postflopCombo = fc.oneof(
  fc.constantFrom("AhAd", "KsKh", "QcQd", "9h8h", "AhKh", "Qs2c", "XxYy"),
  fc.string({ maxLength: 6 }),
);
const postflopScope = {
  players: opt(fc.integer({ min: 2, max: 10 })),
  format: opt(fc.constantFrom("cash", "mtt", "x")),
};
const texture = (values: readonly string[]) =>
  opt(fc.oneof(fc.constantFrom(...values, "any"), fc.string({ maxLength: 6 })));

const ARGS: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  list_postflop_packs: fc.constant({}),
  get_postflop_node: fc.record({
    pack: postflopPack,
    board: postflopBoard,
    path: postflopPath,
    combo: opt(postflopCombo),
    ...postflopScope,
  }),
  get_postflop_range: fc.record({
    pack: postflopPack,
    board: postflopBoard,
    path: postflopPath,
    action: opt(postflopAction),
    minReach: opt(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double())),
    ...postflopScope,
  }),
  explain_combo: fc.record({
    pack: postflopPack,
    board: postflopBoard,
    path: postflopPath,
    combo: postflopCombo,
    ...postflopScope,
  }),
  get_board_report: fc.record({
    pack: postflopPack,
    path: postflopPath,
    filters: opt(
      fc.record({
        pairedness: texture(["unpaired", "paired", "trips"]),
        suitTexture: texture(["rainbow", "two-tone", "monotone"]),
        connectivity: texture(["connected", "semi-connected", "disconnected"]),
        highCardClass: texture(["ace-high", "king-high", "broadway", "middle", "low"]),
      }),
    ),
    ...postflopScope,
  }),
  get_started: fc.constant({}),
  list_games: fc.constant({}),
  get_config: fc.record({ game, stack, ...scope }),
  list_spots: fc.record({
    game,
    stack,
    query: opt(fc.string({ maxLength: 12 })),
    cursor: opt(fc.oneof(fc.string({ maxLength: 16 }), fc.constant("MTAwLmFiY2RlZmdoaWo"))),
    limit: opt(fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: -5, max: 500 }))),
    detail: opt(fc.constantFrom("compact", "full")),
    ...scope,
  }),
  get_node: fc.record({
    game,
    stack,
    history: path,
    hand,
    combo: hand,
    minFreq: opt(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double())),
    detail: opt(fc.constantFrom("compact", "full")),
    ...scope,
  }),
  get_range: fc.record({
    game,
    stack,
    spot: path,
    hand,
    minFreq: opt(fc.double({ min: 0, max: 1 })),
    detail: opt(fc.constantFrom("compact", "full")),
    ...scope,
  }),
  list_datasets: fc.record({ game: opt(game) }),
  get_tree_docs: fc.record({ game, stack: opt(stack) }),
  get_range_metadata: fc.record({ game, stack }),
  get_exploitability: fc.record({ game, stack }),
  compare_strategies: fc.record({
    domain: fc.constantFrom("preflop", "postflop"),
    baseline: side,
    comparison: side,
    limit: opt(fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: -1, max: 60 }))),
  }),
  submit_request: fc.record({
    kind: fc.constantFrom("feature", "data", "bug", "other", "wish"),
    text: fc.string({ maxLength: 50 }),
    game: opt(game),
    stack: opt(stack),
    spot: opt(fc.string({ maxLength: 20 })),
  }),
  list_my_requests: fc.record({ limit: opt(fc.integer({ min: -2, max: 120 })) }),
  enqueue_solve: fc.record({
    game: opt(fc.constantFrom("nl", "nl/v2", "nl9", "nlmtt8", "plo")),
    stack: fc.oneof(fc.integer({ min: 2, max: 12 }), fc.double({ min: -5, max: 2000, noNaN: true })),
    changes: opt(
      fc.record({
        maxRaises: opt(fc.integer({ min: 0, max: 8 })),
        open: opt(fc.array(fc.integer({ min: -5, max: 200 }), { maxLength: 3 })),
      }),
    ),
    config: opt(fc.constantFrom("{", "{}", '{"game":"nl"}', "[]")),
  }),
  get_queued_solve: fc.record({
    id: fc.constantFrom("sol_0123456789abcdef", "sol_x", "nope"),
    cancel: opt(fc.boolean()),
  }),
  list_queued_solves: fc.record({
    status: opt(fc.constantFrom("queued", "done", "x")),
    limit: opt(fc.integer({ min: -1, max: 120 })),
  }),
  list_library_solutions: fc.record({}),
  get_upload_link: fc.record({ hero: opt(fc.string({ maxLength: 60 })) }),
  upload_hand_history: fc.record({
    text: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        "PokerStars Hand #1:  Hold'em No Limit ($0.50/$1 USD) - 2024/03/01 10:00:00 ET\n",
        "Poker Hand #RC1: Hold'em No Limit ($0.02/$0.05) - 2024/03/15 10:20:30\nTable 'x' 6-max Seat #1 is the button\n",
      ),
    ),
    hero: opt(fc.string({ maxLength: 60 })),
  }),
  find_hands: fc.record(
    handFilters({
      handId: opt(fc.oneof(fc.constantFrom("250000000001", "x"), fc.string({ maxLength: 12 }))),
      detail: opt(fc.constantFrom("compact", "full")),
      limit: opt(fc.integer({ min: -1, max: 120 })),
      cursor: opt(fc.oneof(fc.string({ maxLength: 16 }), fc.constant("MTAwLmFiY2RlZmdoaWo"))),
    }),
  ),
  get_hand_results: fc.record(handFilters({ equilibrium: opt(fc.boolean()) })),
  list_my_sessions: fc.record(
    handFilters({
      gapMinutes: opt(fc.integer({ min: 0, max: 800 })),
      limit: opt(fc.integer({ min: 0, max: 120 })),
    }),
  ),
  get_session_summary: fc.record({
    sessionId: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom("ses_MzB8cG9rZXJzdGFyc3wyNTAwMDAwMDAwMDE", "ses_MHx4fHk", "ses_"),
    ),
  }),
  get_tournament_results: fc.record(handFilters({ limit: opt(fc.integer({ min: 0, max: 120 })) })),
  list_my_opponents: fc.record(
    handFilters({
      minHands: opt(fc.integer({ min: -1, max: 10 })),
      limit: opt(fc.integer({ min: 0, max: 60 })),
    }),
  ),
  get_opponent_notes: fc.record(
    handFilters({
      player: fc.oneof(fc.constantFrom("Vera88", "Gorm", "Hero1", "nobody"), fc.string({ maxLength: 10 })),
      site: opt(fc.constantFrom("pokerstars", "ggpoker", "x")),
    }),
  ),
  get_opponent_limp_range: fc.record(
    handFilters({
      player: fc.oneof(fc.constantFrom("Vera88", "Gorm", "Hero1"), fc.string({ maxLength: 10 })),
      site: opt(fc.constantFrom("pokerstars", "ggpoker")),
    }),
  ),
};

describe("fuzz", () => {
  it("covers every tool", () => {
    expect(Object.keys(ARGS).sort()).toEqual(TOOL_SPECS.map((s) => s.name).sort());
  });

  it.each(TOOL_SPECS.map((s) => [s.name, s] as const))(
    "%s never throws and never answers 500",
    async (_name, spec) => {
      for (const authorization of [undefined, `Bearer ${key}`]) {
        const ctx = toolContext(
          { store, access, hands: { uploads, linkBase: "http://127.0.0.1:3000" }, postflop },
          { ip: "192.0.2.1", authorization },
        );
        await fc.assert(
          fc.asyncProperty(ARGS[spec.name]!, async (raw) => {
            // As the SDK does: JSON on the wire, then the tool's input schema.
            const args = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
            const parsed = inputSchemaOf(spec).safeParse(args);
            fc.pre(parsed.success);
            const result = await runTool(spec, parsed.data, ctx);
            if (result.isError) {
              const body = ErrorBodySchema.parse(result.structuredContent);
              expect(body.error.status, JSON.stringify({ args, body })).not.toBe(500);
            } else {
              expect(result.structuredContent).toBeDefined();
            }
          }),
          { numRuns: spec.name === "upload_hand_history" ? 40 : 150 },
        );
      }
    },
  );
});
