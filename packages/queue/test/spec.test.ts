import { readFileSync } from "node:fs";
import { treeConfigPath } from "@ranges/solver";
import { describe, expect, it } from "vitest";
import { checkPlan, validateSolveRequest } from "../src/spec.js";
import { HEADS_UP_JAM_FOLD, JAM_FOLD } from "./fixtures.js";

const nlmtt8 = JSON.parse(readFileSync(treeConfigPath("nlmtt8"), "utf8"));

describe("validateSolveRequest", () => {
  it("sizes a library change and a custom config", () => {
    const lib = validateSolveRequest({ game: "nlmtt8", stack: 12 });
    expect(lib).toMatchObject({ game: "nlmtt8", stack: 12 });
    expect(lib.decisions).toBeGreaterThan(10);
    const jam = validateSolveRequest(JAM_FOLD);
    expect(jam.decisions).toBeLessThan(100);
    expect(jam.estimateSeconds).toBeGreaterThanOrEqual(1);
    const changed = validateSolveRequest({ game: "nl/v2", stack: 85, changes: { maxRaises: 2, rake: null } });
    expect(changed.config.rake).toBeNull();
    expect(changed.config.profiles[0]!.maxRaises).toBe(2);
    expect(changed.decisions).toBeLessThan(validateSolveRequest({ game: "nl/v2", stack: 85 }).decisions);
    // Heads-up: the four dealt-out seats' folds, the SB's jam or fold, the BB's call or fold.
    const hu = validateSolveRequest(HEADS_UP_JAM_FOLD);
    expect(hu.config.dealtIn).toEqual(["SB", "BB"]);
    expect(hu.decisions).toBe(6);
  });

  it.each([
    [null, /is an object/],
    [{ game: "plo", stack: 100 }, /"game" must be one of nl, nl\/v2, nl9, nlmtt8/],
    [{ game: "nl", stack: 1 }, /"stack" must be a number of big blinds from 2 to 1000/],
    [{ game: "nl", stack: 100, extra: 1 }, /Unknown field "extra"/],
    [{ game: "nl", stack: 100, changes: { bogus: 1 } }, /changes\.bogus is not something a solve can change/],
    [{ game: "nl", stack: 100, changes: { open: ["x"] } }, /changes\.open must be a list/],
    [{ config: { ...nlmtt8, game: "plo" }, stack: 20 }, /cannot build this tree.*hold'em/],
    [{ config: { ...nlmtt8, limpSeats: ["XX"] }, stack: 20 }, /cannot build this tree.*limp seat XX/],
    [{ config: {}, stack: 20 }, /cannot build this tree/],
    [{ config: { ...nlmtt8, seats: ["SB", "BB"] }, stack: 10 }, /keep the game's seats.*dealtIn/],
    [{ game: "nl", stack: 10, changes: { dealtIn: ["UTG", "BB"] } }, /dealtIn must list the last seats/],
    [{ game: "nlmtt8", stack: 10, changes: { dealtIn: ["BB"] } }, /dealtIn must list the last seats/],
    [{ game: "nl", stack: 10, changes: { dealtIn: "SB BB" } }, /dealtIn must list the last seats/],
  ])("refuses bad request %#", (raw, message) => {
    expect(() => validateSolveRequest(raw)).toThrow(message);
  });

  it("refuses a tree over the plan with its size and estimate", () => {
    const big = validateSolveRequest({ game: "nl9", stack: 100 });
    expect(() => checkPlan(big, "standard")).toThrow(
      /decisions and would take about \d+ s; plan standard allows 4000/,
    );
    expect(() => checkPlan(validateSolveRequest(JAM_FOLD), "standard")).not.toThrow();
  });
});
