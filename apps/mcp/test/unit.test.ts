import { GAMES, type GameId, HOLDEM_CLASSES, holdemClassIndex, isGameId, RangesError } from "@ranges/core";
import { ErrorBodySchema, NodeSchema, ToolEnvelopeSchema } from "@ranges/schema";
import { parseGameParam } from "@ranges/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bucketOf,
  COMPACT_FLOOR,
  compactNode,
  holdemRangeNotation,
  holdemRangeString,
} from "../src/compact.js";
import { pathArg } from "../src/context.js";
import { errorBody, toolWording } from "../src/errors.js";
import { reachWarnings, UNREACHED_WARNING } from "../src/reach.js";
import { CompactNodeSchema } from "../src/schemas.js";
import { checkScope, unsupportedEnvelope } from "../src/scope.js";
import { suggestArgument, unknownArgumentsMessage } from "../src/tool.js";
import { decodeCursor, encodeCursor, spotMatcher } from "../src/tools/retrieval.js";

const idx = (names: string[]): number[] => names.map((n) => holdemClassIndex(n)!);

/** Expands range notation back to class names (the inverse of holdemRangeNotation). */
function expand(notation: string): string[] {
  if (notation === "") return [];
  const R = "AKQJT98765432";
  const out: string[] = [];
  for (const part of notation.split(",")) {
    let m = /^([AKQJT2-9])\1\+$/.exec(part);
    if (m) {
      for (let p = R.indexOf(m[1]!); p >= 0; p--) out.push(R[p]! + R[p]!);
      continue;
    }
    m = /^([AKQJT2-9])\1-([AKQJT2-9])\2$/.exec(part);
    if (m) {
      for (let p = R.indexOf(m[1]!); p <= R.indexOf(m[2]!); p++) out.push(R[p]! + R[p]!);
      continue;
    }
    m = /^([AKQJT2-9])([AKQJT2-9])([so])\+$/.exec(part);
    if (m) {
      const h = R.indexOf(m[1]!);
      for (let k = h + 1; k <= R.indexOf(m[2]!); k++) out.push(`${m[1]}${R[k]}${m[3]}`);
      continue;
    }
    m = /^([AKQJT2-9])([AKQJT2-9])([so])-([AKQJT2-9])([AKQJT2-9])([so])$/.exec(part);
    if (m) {
      for (let k = R.indexOf(m[2]!); k <= R.indexOf(m[5]!); k++) out.push(`${m[1]}${R[k]}${m[3]}`);
      continue;
    }
    out.push(part);
  }
  return out;
}

describe("range notation", () => {
  it.each([
    [["AA", "KK", "QQ"], "QQ+"],
    [["TT", "99", "88", "77"], "TT-77"],
    [["AA", "TT", "99"], "AA,TT-99"],
    [["AKs", "AQs", "AJs", "ATs"], "ATs+"],
    [["AKs"], "AKs"],
    [["K9s", "K8s", "K7s", "K6s"], "K9s-K6s"],
    [["KQo", "KJo", "AKo", "A5o"], "AKo,A5o,KJo+"],
    [["AA", "AKs", "AKo", "72o", "32s"], "AA,AKs,32s,AKo,72o"],
    [[], ""],
  ])("%j -> %s", (names, notation) => {
    expect(holdemRangeNotation(idx(names))).toBe(notation);
  });

  it("round-trips any set of classes", () => {
    fc.assert(
      fc.property(fc.subarray([...HOLDEM_CLASSES]), (names) => {
        const text = holdemRangeNotation(idx(names));
        expect(new Set(expand(text))).toEqual(new Set(names));
      }),
    );
  });

  it("buckets frequencies to 0.05 steps, pure only at >= 0.995", () => {
    expect(bucketOf(1)).toBe(1);
    expect(bucketOf(0.996)).toBe(1);
    expect(bucketOf(0.99)).toBe(0.95);
    expect(bucketOf(0.42)).toBe(0.4);
    expect(bucketOf(0.43)).toBe(0.45);
    expect(bucketOf(0.006)).toBe(0.05);
  });

  it("groups classes by bucket, highest first, dropping those at or below the threshold", () => {
    const weights = { AA: 1, KK: 1, AKs: 0.42, "72o": 0.004, A5s: 0.41 };
    expect(holdemRangeString(weights, 0.005)).toBe("KK+:1; AKs,A5s:0.4");
    expect(holdemRangeString(weights, 0.5)).toBe("KK+:1");
  });
});

describe("scope", () => {
  const check = (req: Parameters<typeof checkScope>[0]) => checkScope(req, parseGameParam);
  const topics = (req: Parameters<typeof checkScope>[0]) => {
    const v = check(req);
    return v.kind === "gaps" ? v.gaps.map((g) => g.topic) : [];
  };

  it("passes what is published", () => {
    expect(check({ game: "nl/v2" })).toEqual({ kind: "ok", game: "nl/v2" });
    expect(check({ game: "nlmtt8", format: "mtt", objective: "chip_ev", ante: 1, players: 8 })).toEqual({
      kind: "ok",
      game: "nlmtt8",
    });
    expect(check({ game: "nl", format: "cash", ante: 0, players: 6 })).toEqual({ kind: "ok", game: "nl" });
  });

  it.each([
    [{ game: "nlmtt8", objective: "icm" }, ["icm"]],
    [{ game: "nlmtt8", objective: "ICM_EV" }, ["icm"]],
    [{ game: "nlmtt8", format: "pko" }, ["pko"]],
    [{ game: "nlmtt8", format: "satellite" }, ["satellite"]],
    [{ game: "nlmtt8", ante: 0.125 }, ["ante_structure"]],
    [{ game: "nl/v2", ante: 0.5 }, ["ante_structure"]],
    [{ game: "nlmtt9" }, ["tournament_9max"]],
    [{ game: "nl9", format: "mtt" }, ["tournament_9max"]],
    [{ game: "nlmtt8", players: 9 }, ["tournament_9max"]],
    [{ game: "nlmtt8", objective: "icm", format: "pko" }, ["icm", "pko"]],
    [{ game: "nlmtt8", objective: "dollar_ev" }, ["objective"]],
  ])("%j is unsupported (%j)", (req, expected) => {
    expect(topics(req)).toEqual(expected);
  });

  it.each([
    [{ game: "nl/v2", objective: "chip_ev" }, "invalid_parameter"],
    [{ game: "nl/v2", format: "mtt" }, "invalid_parameter"],
    [{ game: "nlmtt8", format: "cash" }, "invalid_parameter"],
    [{ game: "nl/v2", format: "zoom" }, "invalid_parameter"],
    [{ game: "nl", players: 9 }, "invalid_parameter"],
    [{ game: "holdem" }, "unknown_game"],
  ])("%j is an error (%s)", (req, code) => {
    expect(() => check(req)).toThrow(RangesError);
    try {
      check(req);
    } catch (error) {
      expect((error as RangesError).code).toBe(code);
    }
  });

  it("builds an envelope that discloses the gap and substitutes nothing", () => {
    const v = check({ game: "nlmtt8", objective: "icm" });
    if (v.kind !== "gaps") throw new Error("expected gaps");
    const env = unsupportedEnvelope(
      "get_node",
      { game: "nlmtt8", objective: "icm", hand: undefined },
      v.gaps,
      ["Tournament preflop: nlmtt8."],
      "icm",
    );
    expect(ToolEnvelopeSchema.parse(env)).toEqual(env);
    expect(env.coverage).toEqual({ status: "unsupported", dataClass: "icm", objective: "icm" });
    expect(env.result.substituted).toBeNull();
    expect(env.warnings.join(" ")).toMatch(/ICM/);
    expect(env.context.request).toEqual({ game: "nlmtt8", objective: "icm" });
  });

  it("never throws anything but a RangesError on arbitrary input", () => {
    fc.assert(
      fc.property(
        fc.record({
          game: fc.oneof(fc.constantFrom("nl", "nl/v2", "nlmtt8", "nl9", "plo", "nlmtt9"), fc.string()),
          format: fc.option(fc.string(), { nil: undefined }),
          objective: fc.option(fc.string(), { nil: undefined }),
          ante: fc.option(fc.double({ noNaN: true }), { nil: undefined }),
          players: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
        }),
        (req) => {
          try {
            const v = check(req);
            if (v.kind === "ok") expect(isGameId(v.game)).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(RangesError);
          }
        },
      ),
    );
  });
});

describe("list_spots helpers", () => {
  const rows = [
    { history: "UTG", actor: "UTG", depth: 1, actions: ["Fold", "60%", "AI"] },
    { history: "UTG_60%_HJ", actor: "HJ", depth: 2, actions: ["Fold", "100%", "AI"] },
    { history: "UTG_60%_HJ_100%_CO", actor: "CO", depth: 3, actions: ["Fold", "Call", "AI"] },
  ];

  it("filters by terms that must all match", () => {
    const hits = (q: string) => rows.filter(spotMatcher(q)).map((r) => r.history);
    expect(hits("")).toHaveLength(3);
    expect(hits("depth:2")).toEqual(["UTG_60%_HJ"]);
    expect(hits("actor:co")).toEqual(["UTG_60%_HJ_100%_CO"]);
    expect(hits("60% call")).toEqual(["UTG_60%_HJ_100%_CO"]);
    expect(hits("action:100%")).toEqual(["UTG_60%_HJ"]);
    expect(hits("BTN")).toEqual([]);
  });

  it("round-trips cursors and rejects foreign ones", () => {
    const c = encodeCursor(50, "nl/v2", 100, "depth:2");
    expect(decodeCursor(c, "nl/v2", 100, "depth:2")).toBe(50);
    expect(() => decodeCursor(c, "nl/v2", 100, "depth:3")).toThrow(/cursor/);
    expect(() => decodeCursor("garbage", "nl/v2", 100, "")).toThrow(/cursor/);
  });
});

describe("errors and inputs", () => {
  it("lifts validPrefix, validActions and stacks out of the hint", () => {
    const body = errorBody(
      new RangesError("action_not_available", "no", { validPrefix: "UTG", validActions: ["Fold"], other: 1 }),
    );
    expect(ErrorBodySchema.parse(body)).toEqual({
      schemaVersion: 1,
      error: {
        status: 404,
        code: "action_not_available",
        message: "no",
        validPrefix: "UTG",
        validActions: ["Fold"],
        hint: { other: 1 },
      },
    });
    expect(errorBody(new Error("secret internals")).error).toMatchObject({
      status: 500,
      code: "internal_error",
    });
    expect(JSON.stringify(errorBody(new Error("secret internals")))).not.toMatch(/secret/);
  });

  it("rewrites the API's HTTP wording into tool calls and arguments", () => {
    const cases: Array<[string, string]> = [
      [
        'history must end in the seat to act, but "UTG_Open" ends in the action "Open". To get that action\'s range, call /range with spot=UTG_Open.',
        'history must end in the seat to act, but "UTG_Open" ends in the action "Open". To get that action\'s range, call get_range with spot "UTG_Open".',
      ],
      [
        'spot must end in an action token, but "UTG" ends in the seat UTG, so it names a decision node. Call /node with history=UTG for its actions, then append one, e.g. spot=UTG_Fold.',
        'spot must end in an action token, but "UTG" ends in the seat UTG, so it names a decision node. Call get_node with history "UTG" for its actions, then append one, e.g. spot "UTG_Fold".',
      ],
      [
        "/spots is served for nl/v2, nlmtt8 only, not for nl.",
        "list_spots is served for nl/v2, nlmtt8 only, not for nl.",
      ],
      [
        "The stack parameter is required: the stack depth in big blinds, e.g. stack=100. GET /api/v1/ranges/nl9 lists the live stacks.",
        "The stack argument is required: the stack depth in big blinds, e.g. stack 100. list_games lists the live stacks.",
      ],
      [
        'minFreq must be a number from 0 to 1, e.g. minFreq=0.05; got "2".',
        'minFreq must be a number from 0 to 1, e.g. minFreq 0.05; got "2".',
      ],
      [
        '"X" is not an action token of nl. Use Fold, Call, AI or a raise size in percent of the pot such as 60% (sent as 60%25).',
        '"X" is not an action token of nl. Use Fold, Call, AI or a raise size in percent of the pot such as 60%.',
      ],
      [
        '"Z" is not a PLO hand class. Use suit-group notation such as (AK)(AK), with "(" and ")" sent as %28 and %29, or four cards such as AsKsQdJc.',
        '"Z" is not a PLO hand class. Use suit-group notation such as (AK)(AK), or four cards such as AsKsQdJc.',
      ],
      [
        '"nl7" is not a game. Games: nl, nl/v2 (nl/v2 is two path segments).',
        '"nl7" is not a game. Games: nl, nl/v2.',
      ],
      [
        'The history parameter has an unencoded "%" at character 6: send "%" as "%25" (e.g. 60%25), "(" as "%28" and ")" as "%29".',
        'The history argument has a "%" at character 6 that is not part of a percent raise token such as 60%.',
      ],
      [
        "full=1 is for hold'em games only; plo has 16,432 PLO classes.",
        'detail "full" is for hold\'em games only; plo has 16,432 PLO classes.',
      ],
    ];
    for (const [api, tool] of cases) expect(toolWording(api)).toBe(tool);
    const body = errorBody(
      new RangesError("malformed_path", "x", { suggestedEndpoint: "range", suggestedHistory: "UTG_Open_HJ" }),
    );
    expect(body.error.hint).toEqual({ suggestedTool: "get_range", suggestedHistory: "UTG_Open_HJ" });
  });

  it("suggests the argument a typo meant", () => {
    const known = ["game", "stack", "history", "hand", "minFreq", "detail"];
    expect(suggestArgument("minfreq", known)).toBe("minFreq");
    expect(suggestArgument("Hand", known)).toBe("hand");
    expect(suggestArgument("histroy", known)).toBe("history");
    expect(suggestArgument("stak", known)).toBe("stack");
    expect(suggestArgument("foo", known)).toBeUndefined();
    expect(unknownArgumentsMessage("get_node", ["minfreq"], known)).toBe(
      'Unknown argument "minfreq" (did you mean "minFreq"?): get_node takes game, stack, history, hand, minFreq, detail.',
    );
  });

  it("decodes paths that arrive URL-encoded", () => {
    expect(pathArg("UTG_60%_HJ")).toBe("UTG_60%_HJ");
    expect(pathArg(" UTG_60%25_HJ ")).toBe("UTG_60%_HJ");
  });
});

describe("reach warnings", () => {
  const node = NodeSchema.parse({
    schemaVersion: 1,
    units: { stack: "bb", sizeBb: "bb", sizePctPot: "percent_of_pot_after_call", evs: "none" },
    game: "nl",
    stack: 100,
    history: "UTG_AI_HJ",
    actor: "HJ",
    depth: 2,
    evUnit: null,
    evBaseline: null,
    reach: 0,
    actions: [
      {
        action: "Fold",
        kind: "fold",
        sizeBb: null,
        sizePctPot: null,
        combos: 1326,
        weights: { AA: 1 },
        evs: {},
      },
    ],
  });

  it("warn exactly when reach is 0, labelled when asked", () => {
    expect(reachWarnings(0)).toEqual([UNREACHED_WARNING]);
    expect(reachWarnings(0, "baseline")).toEqual([`baseline: ${UNREACHED_WARNING}`]);
    expect(reachWarnings(3.2e-7)).toEqual([]);
    expect(reachWarnings(1)).toEqual([]);
    expect(UNREACHED_WARNING).toMatch(
      /never reached .* \(reach 0\).*not an equilibrium frequency.*compare the EVs/,
    );
  });

  it("compact nodes carry reach and the warning", () => {
    const unreached = CompactNodeSchema.parse(compactNode(node, { threshold: COMPACT_FLOOR }));
    expect(unreached.reach).toBe(0);
    expect(unreached.warnings).toEqual([UNREACHED_WARNING]);
    const reached = CompactNodeSchema.parse(
      compactNode({ ...node, reach: 0.5 }, { threshold: COMPACT_FLOOR }),
    );
    expect(reached.reach).toBe(0.5);
    expect(reached.warnings).toEqual([]);
  });
});

describe("games", () => {
  it("the keyless retrieval games are exactly nl and nl/v2", () => {
    const free = (Object.keys(GAMES) as GameId[]).filter((g) => GAMES[g].keyless.includes("node"));
    expect(free).toEqual(["nl", "nl/v2"]);
  });
});

describe("compact size bound", () => {
  it.each([
    [["Fold", "Call", "50%", "75%", "100%", "AI"], 0.05],
    [["Fold", "Call", "33%", "50%", "75%", "100%", "125%", "150%", "AI"], 0.1],
  ])("a fully mixed hold'em node with actions %j stays under 8000 characters", (tokens, step) => {
    let seed = 9;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const weights = tokens.map(() => ({}) as Record<string, number>);
    const evs = tokens.map(() => ({}) as Record<string, number>);
    for (const hand of HOLDEM_CLASSES) {
      const raw = tokens.map(() => random() + 0.02);
      const sum = raw.reduce((a, b) => a + b, 0);
      raw.forEach((x, i) => {
        weights[i]![hand] = Math.round((x / sum) * 1e4) / 1e4;
        evs[i]![hand] = i === 0 ? 0 : Math.round((random() * 20 - 5) * 1e4) / 1e4;
      });
    }
    const node = NodeSchema.parse({
      schemaVersion: 1,
      units: { stack: "bb", sizeBb: "bb", sizePctPot: "percent_of_pot_after_call", evs: "sb" },
      game: "nl/v2",
      stack: 100,
      history: "UTG_Fold_HJ_Fold_CO_60%_BTN",
      actor: "BTN",
      depth: 2,
      evUnit: "sb",
      evBaseline: "fold",
      reach: 3.2e-7,
      actions: tokens.map((action, i) => ({
        action,
        kind: i === 0 ? "fold" : i === 1 ? "call" : action === "AI" ? "allin" : "raise",
        sizeBb: i < 2 ? null : 10 + i,
        sizePctPot: i < 2 || action === "AI" ? null : 50,
        combos: 221,
        weights: weights[i],
        evs: evs[i],
      })),
    });
    const full = JSON.stringify(node).length;
    const built = compactNode(node, { threshold: COMPACT_FLOOR });
    const compact = JSON.stringify(built).length;
    if (process.env.MCP_SIZES)
      console.log({ actions: tokens.length, worstCaseCompact: compact, worstCaseFull: full });
    expect(compact).toBeLessThan(8000);
    expect(built.rangeFormat).toContain(`nearest ${step} `);
  });
});
