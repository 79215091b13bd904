/** Whatever a caller sends within the input schemas, no tool throws or answers 500, and every answer validates. */

import { AccessStore } from "@ranges/access";
import { GAME_IDS } from "@ranges/core";
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

beforeAll(async () => {
  store = RangeStore.open({ packsDir: (await writeFixturePacks()).dir });
  access = await AccessStore.open(":memory:", { keylessDailyLimit: 1_000_000 });
  key = (await access.createKey({ name: "fuzz", dailyQuota: null })).key;
});

afterAll(() => access.close());

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

const side = fc.record({
  game: opt(game),
  stack: opt(stack),
  history: opt(path),
  hand,
  ...scope,
});

const ARGS: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
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
};

describe("fuzz", () => {
  it("covers every tool", () => {
    expect(Object.keys(ARGS).sort()).toEqual(TOOL_SPECS.map((s) => s.name).sort());
  });

  it.each(TOOL_SPECS.map((s) => [s.name, s] as const))(
    "%s never throws and never answers 500",
    async (_name, spec) => {
      for (const authorization of [undefined, `Bearer ${key}`]) {
        const ctx = toolContext({ store, access }, { ip: "192.0.2.1", authorization });
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
          { numRuns: 150 },
        );
      }
    },
  );
});
