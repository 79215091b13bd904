/**
 * The action-path grammar, table-driven: inputs that must parse (with what they parse to) and inputs that
 * must fail (with the HTTP status and code they fail with).
 */

import { describe, expect, it } from "vitest";
import {
  assertPercentEncoded,
  bettingDepth,
  formatPath,
  type GameId,
  parseActionToken,
  parsePath,
  type RangesErrorCode,
} from "../src/index.js";
import { catchRangesError, expectRangesError } from "./errors.js";

interface Valid {
  game: GameId;
  path: string;
  kind: "node" | "range";
  actor: string;
  raisesBefore: number;
  steps: number;
}

const MTT_FOLDS_TO_SB = "UTG_Fold_UTG1_Fold_LJ_Fold_HJ_Fold_CO_Fold_BTN_Fold";
const MTT_3BET = "UTG_Open_UTG1_3B_LJ_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_Fold_BB_Fold";

const VALID: Valid[] = [
  // nl: 6-max cash, percent tokens.
  { game: "nl", path: "UTG", kind: "node", actor: "UTG", raisesBefore: 0, steps: 0 },
  { game: "nl", path: "UTG_Fold", kind: "range", actor: "UTG", raisesBefore: 0, steps: 1 },
  { game: "nl", path: "UTG_60%", kind: "range", actor: "UTG", raisesBefore: 0, steps: 1 },
  { game: "nl", path: "UTG_33.5%_HJ", kind: "node", actor: "HJ", raisesBefore: 1, steps: 1 },
  { game: "nl", path: "UTG_Fold_HJ_Fold_CO_Fold_BTN", kind: "node", actor: "BTN", raisesBefore: 0, steps: 3 },
  {
    game: "nl",
    path: "UTG_Fold_HJ_Fold_CO_Fold_BTN_60%_SB_Fold_BB",
    kind: "node",
    actor: "BB",
    raisesBefore: 1,
    steps: 5,
  },
  {
    game: "nl",
    path: "UTG_Fold_HJ_Fold_CO_Fold_BTN_60%_SB_Fold_BB_100%",
    kind: "range",
    actor: "BB",
    raisesBefore: 1,
    steps: 6,
  },
  {
    game: "nl",
    path: "UTG_Fold_HJ_Fold_CO_Fold_BTN_60%_SB_Fold_BB_100%_BTN",
    kind: "node",
    actor: "BTN",
    raisesBefore: 2,
    steps: 6,
  },
  { game: "nl", path: "UTG_AI_HJ_Call_CO", kind: "node", actor: "CO", raisesBefore: 1, steps: 2 },
  {
    game: "nl",
    path: "UTG_Call_HJ_Fold_CO_Fold_BTN_Fold_SB_Call_BB_Call",
    kind: "range",
    actor: "BB",
    raisesBefore: 0,
    steps: 6,
  },
  // nl/v2: same seats, richer tree.
  {
    game: "nl/v2",
    path: "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_Call_BB_250%_SB",
    kind: "node",
    actor: "SB",
    raisesBefore: 1,
    steps: 6,
  },
  {
    game: "nl/v2",
    path: "UTG_60%_HJ_100%_CO_Fold_BTN_Fold_SB_Fold_BB_Fold_UTG_AI_HJ",
    kind: "node",
    actor: "HJ",
    raisesBefore: 3,
    steps: 7,
  },
  // nl9: 9-max cash.
  {
    game: "nl9",
    path: "UTG_Fold_UTG1_Fold_UTG2_Fold_LJ_Fold_HJ_Fold_CO_Fold_BTN_250%",
    kind: "range",
    actor: "BTN",
    raisesBefore: 0,
    steps: 7,
  },
  {
    game: "nl9",
    path: "UTG_Fold_UTG1_Fold_UTG2_60%_LJ",
    kind: "node",
    actor: "LJ",
    raisesBefore: 1,
    steps: 3,
  },
  // nlmtt8: depth tokens, Limp.
  { game: "nlmtt8", path: "UTG", kind: "node", actor: "UTG", raisesBefore: 0, steps: 0 },
  { game: "nlmtt8", path: "UTG_Open", kind: "range", actor: "UTG", raisesBefore: 0, steps: 1 },
  {
    game: "nlmtt8",
    path: "UTG_Fold_UTG1_Fold_LJ_Open_HJ",
    kind: "node",
    actor: "HJ",
    raisesBefore: 1,
    steps: 3,
  },
  { game: "nlmtt8", path: `${MTT_3BET}_UTG`, kind: "node", actor: "UTG", raisesBefore: 2, steps: 8 },
  {
    game: "nlmtt8",
    path: `${MTT_3BET}_UTG_4B_UTG1_5B_UTG`,
    kind: "node",
    actor: "UTG",
    raisesBefore: 4,
    steps: 10,
  },
  {
    game: "nlmtt8",
    path: `${MTT_3BET}_UTG_4B_UTG1_AI`,
    kind: "range",
    actor: "UTG1",
    raisesBefore: 3,
    steps: 10,
  },
  {
    game: "nlmtt8",
    path: `${MTT_FOLDS_TO_SB}_SB_Limp_BB`,
    kind: "node",
    actor: "BB",
    raisesBefore: 0,
    steps: 7,
  },
  {
    game: "nlmtt8",
    path: `${MTT_FOLDS_TO_SB}_SB_Limp_BB_Call`,
    kind: "range",
    actor: "BB",
    raisesBefore: 0,
    steps: 8,
  },
  {
    game: "nlmtt8",
    path: `${MTT_FOLDS_TO_SB}_SB_Limp_BB_Open_SB_3B`,
    kind: "range",
    actor: "SB",
    raisesBefore: 1,
    steps: 9,
  },
  { game: "nlmtt8", path: "UTG_AI_UTG1_Call_LJ", kind: "node", actor: "LJ", raisesBefore: 1, steps: 2 },
  { game: "nlmtt8", path: "UTG_Limp_UTG1_Open", kind: "range", actor: "UTG1", raisesBefore: 0, steps: 2 },
  // plo: depth tokens with optional size-id suffixes, first-in call is Call.
  { game: "plo", path: "UTG_Open-2", kind: "range", actor: "UTG", raisesBefore: 0, steps: 1 },
  {
    game: "plo",
    path: "UTG_Fold_HJ_Open_CO_3B-a.1_BTN",
    kind: "node",
    actor: "BTN",
    raisesBefore: 2,
    steps: 3,
  },
  {
    game: "plo",
    path: "UTG_Open_HJ_3B_CO_Fold_BTN_Fold_SB_Fold_BB_Fold_UTG_4B_HJ_5B_UTG_6B_HJ",
    kind: "node",
    actor: "HJ",
    raisesBefore: 5,
    steps: 9,
  },
  {
    game: "plo",
    path: "UTG_Call_HJ_Fold_CO_Fold_BTN_Fold_SB_Fold_BB_Open_UTG",
    kind: "node",
    actor: "UTG",
    raisesBefore: 1,
    steps: 6,
  },
  // plo6hu: heads-up, SB first.
  { game: "plo6hu", path: "SB", kind: "node", actor: "SB", raisesBefore: 0, steps: 0 },
  { game: "plo6hu", path: "SB_Fold", kind: "range", actor: "SB", raisesBefore: 0, steps: 1 },
  { game: "plo6hu", path: "SB_Call_BB", kind: "node", actor: "BB", raisesBefore: 0, steps: 1 },
  { game: "plo6hu", path: "SB_Open_BB_3B_SB_4B-x_BB", kind: "node", actor: "BB", raisesBefore: 3, steps: 3 },
  { game: "plo6hu", path: "SB_AI_BB_Call", kind: "range", actor: "BB", raisesBefore: 1, steps: 2 },
];

interface Invalid {
  game: GameId;
  path: string;
  status: number;
  code: RangesErrorCode;
}

const bad = (status: number, code: RangesErrorCode, game: GameId, paths: string[]): Invalid[] =>
  paths.map((path) => ({ game, path, status, code }));

const INVALID: Invalid[] = [
  // Empty segments, leading and trailing underscores, over-long paths.
  ...bad(400, "malformed_path", "nl", ["", "_", "UTG_", "_UTG", "UTG__Fold", "UTG_Fold_", "__"]),
  ...bad(400, "malformed_path", "nlmtt8", ["UTG_Open__UTG1", `${"UTG_Fold_".repeat(60)}UTG`]),
  // Unknown seats (including seats of other games and wrong case).
  ...bad(400, "malformed_path", "nl", ["XX", "XX_Fold", "utg", "UTG1", "LJ", "UTG_Fold_Utg1"]),
  ...bad(400, "malformed_path", "nlmtt8", ["UTG2", "UTG_Fold_UTG2_Open"]),
  ...bad(400, "malformed_path", "plo6hu", ["BTN", "UTG_Open"]),
  // Seats and actions must alternate.
  ...bad(400, "malformed_path", "nl", ["Fold", "60%", "UTG_HJ", "UTG_Fold_Fold", "UTG_Fold_HJ_CO"]),
  // A seat out of acting order: acting again after folding, or after the action passed it.
  ...bad(400, "malformed_path", "nl", [
    "UTG_Fold_UTG",
    "UTG_Call_UTG",
    "UTG_Fold_HJ_60%_CO_Fold_BTN_Fold_SB_Fold_BB_100%_UTG",
  ]),
  ...bad(400, "malformed_path", "nlmtt8", [
    "UTG_Open_UTG1_Fold_LJ_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_Fold_BB_3B_UTG1",
  ]),
  ...bad(400, "malformed_path", "plo6hu", ["SB_Open_SB", "SB_Call_BB_Open_BB"]),
  // Tokens the game does not allow.
  ...bad(400, "invalid_token", "nlmtt8", [
    "UTG_60%",
    "UTG_Open-2",
    "UTG_Fold_UTG1_Open-big",
    "UTG_Raise",
    "UTG_6B",
  ]),
  ...bad(400, "invalid_token", "nl", [
    "UTG_Open",
    "UTG_Limp",
    "UTG_3B",
    "UTG_Raise",
    "UTG_fold",
    "UTG_0%",
    "UTG_0.0%",
    "UTG_60",
    "UTG_%60",
    "UTG_60%%",
    "UTG_-60%",
    "UTG_60.123%",
    "UTG_.5%",
    "UTG_Fold_HJ_Fold_CO_Fold_BTN_Open",
  ]),
  ...bad(400, "invalid_token", "nl/v2", ["UTG_Raise", "UTG_Open"]),
  ...bad(400, "invalid_token", "nl9", ["UTG_Raise", "UTG_Limp"]),
  ...bad(400, "invalid_token", "plo", [
    "UTG_Raise",
    "UTG_Limp",
    "UTG_60%",
    "UTG_Open-",
    "UTG_Open-abcdefghijklmnopq",
    "UTG_Open-2-3",
    "UTG_2B",
    "UTG_10B",
    "UTG_open",
  ]),
  ...bad(400, "invalid_token", "plo6hu", ["SB_Raise", "SB_Limp"]),
  // A seat reached without the folds before it.
  ...bad(404, "missing_folds", "nl", ["HJ", "CO", "HJ_Fold_UTG", "UTG_60%_BTN_Fold", "UTG_60%_HJ_Fold_SB"]),
  ...bad(404, "missing_folds", "nlmtt8", ["CO_Open", "UTG_Open_BB_3B", "UTG_Open_UTG1_3B_UTG"]),
  ...bad(404, "missing_folds", "plo", ["UTG_Open_HJ_3B_UTG"]),
  // Depth tokens at the wrong depth, Limp in a raised pot, Call for a first-in limp in nlmtt8.
  ...bad(404, "action_not_available", "nlmtt8", [
    "UTG_3B",
    "UTG_5B",
    "UTG_Open_UTG1_Open",
    "UTG_Open_UTG1_4B",
    "UTG_Open_UTG1_Limp",
    "UTG_Call",
    `${MTT_FOLDS_TO_SB}_SB_Limp_BB_3B`,
  ]),
  ...bad(404, "action_not_available", "plo", ["UTG_4B", "UTG_Open_HJ_Open-2", "UTG_Open_HJ_4B"]),
  ...bad(404, "action_not_available", "plo6hu", ["SB_3B", "SB_Call_BB_3B"]),
  // The path goes on after the action has closed (or every seat before the named one would fold).
  ...bad(404, "node_not_found", "nl", [
    "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_Fold_BB",
    "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_BB",
    "BB",
    "UTG_60%_HJ_Fold_CO_Fold_BTN_Fold_SB_Fold_BB_Fold_UTG",
    "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_Call_BB_Call_SB",
  ]),
  ...bad(404, "node_not_found", "nl9", ["BB"]),
  ...bad(404, "node_not_found", "nlmtt8", [`${MTT_FOLDS_TO_SB}_SB_Limp_BB_Call_SB`]),
  ...bad(404, "node_not_found", "plo6hu", ["BB", "SB_Fold_BB", "SB_Fold_BB_Call", "SB_Call_BB_Call_SB"]),
  ...bad(404, "node_not_found", "plo6hu", ["SB_AI_BB_Call_SB", "SB_AI_BB_AI_SB"]),
];

describe("parsePath: inputs that must parse", () => {
  it.each(VALID)("$game $path", ({ game, path, kind, actor, raisesBefore, steps }) => {
    const parsed = parsePath(game, path);
    expect(parsed).toMatchObject({ game, kind, actor, raisesBefore });
    expect(parsed.steps).toHaveLength(steps);
    expect(formatPath(parsed)).toBe(path);
  });

  it("keeps each step's seat and token in order", () => {
    const parsed = parsePath("plo", "UTG_Fold_HJ_Open_CO_3B-a.1");
    expect(parsed.steps.map((s) => [s.seat, s.action.token, s.action.kind])).toEqual([
      ["UTG", "Fold", "fold"],
      ["HJ", "Open", "raise"],
      ["CO", "3B-a.1", "raise"],
    ]);
    expect(parsed.steps[2]!.action).toMatchObject({ raiseNumber: 3, sizeId: "a.1" });
  });

  it("formats a node from its steps and actor", () => {
    const parsed = parsePath("nlmtt8", "UTG_Fold_UTG1_Fold_LJ_Open_HJ");
    expect(formatPath({ kind: "node", steps: parsed.steps, actor: "HJ" })).toBe(
      "UTG_Fold_UTG1_Fold_LJ_Open_HJ",
    );
    expect(formatPath({ kind: "range", steps: parsed.steps, actor: "LJ" })).toBe(
      "UTG_Fold_UTG1_Fold_LJ_Open",
    );
  });
});

describe("parsePath: inputs that must fail", () => {
  it.each(INVALID)("$game $path -> $status $code", ({ game, path, status, code }) => {
    expectRangesError(() => parsePath(game, path), status, code);
  });

  it("names the folds to write out and suggests a path that parses", () => {
    const cases: Array<[GameId, string, string[], string]> = [
      ["nl", "CO", ["UTG", "HJ"], "UTG_Fold_HJ_Fold_CO"],
      ["nlmtt8", "CO_Open", ["UTG", "UTG1", "LJ", "HJ"], "UTG_Fold_UTG1_Fold_LJ_Fold_HJ_Fold_CO_Open"],
      ["nl", "UTG_60%_BTN_Fold", ["HJ", "CO"], "UTG_60%_HJ_Fold_CO_Fold_BTN_Fold"],
      [
        "plo",
        "UTG_Open_HJ_3B_UTG",
        ["CO", "BTN", "SB", "BB"],
        "UTG_Open_HJ_3B_CO_Fold_BTN_Fold_SB_Fold_BB_Fold_UTG",
      ],
    ];
    for (const [game, path, folds, suggested] of cases) {
      const error = expectRangesError(() => parsePath(game, path), 404, "missing_folds");
      for (const seat of folds) expect(error.message).toContain(seat);
      expect(error.message).toContain(suggested);
      expect(error.hint).toMatchObject({ missingFolds: folds, suggestedPath: suggested });
      expect(formatPath(parsePath(game, suggested))).toBe(suggested);
    }
  });

  it("does not suggest folds that would end the hand before the named seat", () => {
    for (const [game, path] of [
      ["plo6hu", "BB"],
      ["nl", "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_BB"],
    ] as Array<[GameId, string]>) {
      const error = expectRangesError(() => parsePath(game, path), 404, "node_not_found");
      expect(error.hint?.suggestedPath).toBeUndefined();
    }
  });

  it("says which seat is next when a seat acts out of order", () => {
    const error = expectRangesError(() => parsePath("nl", "UTG_Fold_UTG"), 400, "malformed_path");
    expect(error.message).toContain("HJ");
    expect(error.hint).toMatchObject({ validPrefix: "UTG_Fold", nextToAct: "HJ" });
  });

  it("lists the seats for an unknown seat and the right raise for a wrong depth token", () => {
    const seat = expectRangesError(() => parsePath("nlmtt8", "UTG2"), 400, "malformed_path");
    expect(seat.message).toContain("UTG, UTG1, LJ, HJ, CO, BTN, SB, BB");
    const depth = expectRangesError(
      () => parsePath("nlmtt8", "UTG_Open_UTG1_4B"),
      404,
      "action_not_available",
    );
    expect(depth.message).toContain('"3B"');
    expect(depth.hint).toMatchObject({ validPrefix: "UTG_Open_UTG1" });
    const closed = expectRangesError(() => parsePath("plo6hu", "SB_Fold_BB"), 404, "node_not_found");
    expect(closed.hint).toMatchObject({ validPrefix: "SB_Fold" });
  });

  it("lists the allowed tokens for a token the game does not allow", () => {
    const error = expectRangesError(() => parsePath("nlmtt8", "UTG_60%"), 400, "invalid_token");
    expect(error.hint?.allowedTokens).toEqual(["Fold", "Call", "Limp", "AI", "Open", "3B", "4B", "5B"]);
    const nl = expectRangesError(() => parsePath("nl", "UTG_Open"), 400, "invalid_token");
    expect(nl.message).toContain("60%25");
  });
});

describe("parseActionToken", () => {
  it.each([
    ["nl", "Fold", { kind: "fold" }],
    ["nl", "Call", { kind: "call" }],
    ["nl", "AI", { kind: "allin" }],
    ["nl", "60%", { kind: "raise", pct: 60 }],
    ["nl", "33.5%", { kind: "raise", pct: 33.5 }],
    ["nl9", "0.25%", { kind: "raise", pct: 0.25 }],
    ["nlmtt8", "Limp", { kind: "call", limp: true }],
    ["nlmtt8", "Open", { kind: "raise", raiseNumber: 2 }],
    ["nlmtt8", "3B", { kind: "raise", raiseNumber: 3 }],
    ["nlmtt8", "5B", { kind: "raise", raiseNumber: 5 }],
    ["plo", "Open-2", { kind: "raise", raiseNumber: 2, sizeId: "2" }],
    ["plo", "7B", { kind: "raise", raiseNumber: 7 }],
    ["plo5", "4B-pot", { kind: "raise", raiseNumber: 4, sizeId: "pot" }],
  ] as Array<[GameId, string, object]>)("%s %s", (game, token, expected) => {
    expect(parseActionToken(game, token)).toMatchObject({ token, ...expected });
  });

  it.each([
    ["nl", "Limp"],
    ["nl", "Open"],
    ["nl", "0%"],
    ["nl", "12345%"],
    ["nlmtt8", "60%"],
    ["nlmtt8", "Open-2"],
    ["nlmtt8", "6B"],
    ["plo", "Limp"],
    ["plo", "Raise"],
    ["plo9", ""],
  ] as Array<[GameId, string]>)("%s rejects %j", (game, token) => {
    expectRangesError(() => parseActionToken(game, token), 400, "invalid_token");
  });
});

describe("bettingDepth", () => {
  it("counts raises made, not seats acted", () => {
    const depthOf = (game: GameId, path: string) => bettingDepth(parsePath(game, path).raisesBefore);
    // A fold-around to a BTN open is still an unraised pot for BTN.
    expect(parsePath("nl", "UTG_Fold_HJ_Fold_CO_Fold_BTN").raisesBefore).toBe(0);
    expect(depthOf("nl", "UTG_Fold_HJ_Fold_CO_Fold_BTN")).toBe(1);
    expect(depthOf("nlmtt8", "UTG")).toBe(1);
    expect(depthOf("nlmtt8", `${MTT_FOLDS_TO_SB}_SB_Limp_BB`)).toBe(1);
    // Facing an open.
    expect(depthOf("nl", "UTG_Fold_HJ_Fold_CO_Fold_BTN_60%_SB")).toBe(2);
    expect(depthOf("nlmtt8", "UTG_Fold_UTG1_Fold_LJ_Open_HJ")).toBe(2);
    // 3-bet, 4-bet and 5-bet pots.
    expect(depthOf("nlmtt8", `${MTT_3BET}_UTG`)).toBe(3);
    expect(depthOf("nlmtt8", `${MTT_3BET}_UTG_4B_UTG1`)).toBe(4);
    expect(depthOf("nlmtt8", `${MTT_3BET}_UTG_4B_UTG1_5B_UTG`)).toBe(4);
    expect(depthOf("plo", "UTG_Open_HJ_3B_CO_Fold_BTN_Fold_SB_Fold_BB_Fold_UTG_4B_HJ_5B_UTG_6B_HJ")).toBe(4);
  });

  it.each([
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 4],
    [4, 4],
    [9, 4],
  ])("%i raises -> depth %i", (raises, depth) => {
    expect(bettingDepth(raises)).toBe(depth);
  });
});

describe("assertPercentEncoded", () => {
  it.each(["60%25_BB", "%28AK%29QJ", "UTG_Fold", "", "100%25", "%2a%2A"])("accepts %j", (raw) => {
    expect(() => assertPercentEncoded("history", raw)).not.toThrow();
  });

  it.each(["60%_BB", "60%", "%", "%2", "%zz", "UTG_100%_HJ", "%28AK%29QJ%"])("rejects %j", (raw) => {
    const error = expectRangesError(() => assertPercentEncoded("history", raw), 400, "malformed_path");
    expect(error.message).toContain("%25");
    expect(error.message).toContain("history");
  });

  it("points at the first unencoded percent sign", () => {
    expect(catchRangesError(() => assertPercentEncoded("spot", "60%25_BB_60%")).message).toContain(
      "character 12",
    );
  });
});
