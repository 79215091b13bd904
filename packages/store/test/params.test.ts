import { describe, expect, it } from "vitest";
import {
  parseFullParam,
  parseGameParam,
  parseHandParam,
  parseMinFreqParam,
  parsePathParam,
  parseStackParam,
} from "../src/index.js";
import { expectRangesError } from "./fixtures.js";

describe("parseGameParam", () => {
  it("accepts the eight games", () => {
    for (const game of ["nl", "nl/v2", "nl9", "nlmtt8", "plo", "plo9", "plo5", "plo6hu"]) {
      expect(parseGameParam(game)).toBe(game);
    }
  });

  it.each([["nl10"], ["NL"], ["nl-v2"], [""], [undefined], [42]])("404 unknown_game for %j", (raw) => {
    const e = expectRangesError(() => parseGameParam(raw), 404, "unknown_game");
    expect(e.message).toContain("nlmtt8");
    expect(e.hint?.games).toHaveLength(8);
  });
});

describe("parseStackParam", () => {
  it("parses plain decimal numbers", () => {
    expect(parseStackParam("nlmtt8", "40")).toBe(40);
    expect(parseStackParam("nl/v2", "100.0")).toBe(100);
    expect(parseStackParam("nl/v2", "2.5")).toBe(2.5);
    expect(parseStackParam("nl/v2", 150)).toBe(150);
  });

  it.each([[undefined], [""], [null]])("400 missing_parameter for %j", (raw) => {
    expect(expectRangesError(() => parseStackParam("nlmtt8", raw), 400, "missing_parameter").message).toMatch(
      /stack=/,
    );
  });

  it.each([
    ["40bb"],
    ["abc"],
    ["-40"],
    ["0"],
    ["1e2"],
    ["0x28"],
    ["Infinity"],
    [Number.NaN],
    [["40", "50"]],
    [{}],
  ])("400 invalid_parameter for %j", (raw) => {
    expectRangesError(() => parseStackParam("nl/v2", raw), 400, "invalid_parameter");
  });

  it("requires integers for nlmtt8", () => {
    const e = expectRangesError(() => parseStackParam("nlmtt8", "40.5"), 400, "invalid_parameter");
    expect(e.message).toMatch(/integer/);
  });
});

describe("parseMinFreqParam", () => {
  it("accepts numbers in [0, 1] and absence", () => {
    expect(parseMinFreqParam(undefined)).toBeUndefined();
    expect(parseMinFreqParam("")).toBeUndefined();
    expect(parseMinFreqParam("0")).toBe(0);
    expect(parseMinFreqParam("0.05")).toBe(0.05);
    expect(parseMinFreqParam(".5")).toBe(0.5);
    expect(parseMinFreqParam("1")).toBe(1);
    expect(parseMinFreqParam(0.25)).toBe(0.25);
  });

  it.each([["1.5"], ["-0.1"], ["abc"], ["5%"], [2], [Number.NaN]])("400 invalid_parameter for %j", (raw) => {
    expect(expectRangesError(() => parseMinFreqParam(raw), 400, "invalid_parameter").message).toMatch(
      /from 0 to 1/,
    );
  });
});

describe("parseFullParam", () => {
  it("accepts only 1", () => {
    expect(parseFullParam(undefined)).toBe(false);
    expect(parseFullParam("1")).toBe(true);
    expect(parseFullParam(1)).toBe(true);
    expect(parseFullParam(true)).toBe(true);
    expect(parseFullParam(false)).toBe(false);
  });

  it.each([["0"], ["true"], [""], ["yes"], [0], [["1", "1"]]])("400 invalid_parameter for %j", (raw) => {
    expect(expectRangesError(() => parseFullParam(raw), 400, "invalid_parameter").message).toMatch(/full/);
  });
});

describe("parseHandParam and parsePathParam", () => {
  it("canonicalizes hands", () => {
    expect(parseHandParam("nlmtt8", "AhKh")).toBe("AKs");
    expect(parseHandParam("nlmtt8", undefined)).toBeUndefined();
    expect(parseHandParam("plo", "AsKsAhKh")).toBe("(AK)(AK)");
    expectRangesError(() => parseHandParam("plo", "AKs"), 400, "invalid_hand");
  });

  it("requires the path", () => {
    expect(parsePathParam("history", "UTG")).toBe("UTG");
    expect(expectRangesError(() => parsePathParam("spot", ""), 400, "missing_parameter").message).toMatch(
      /spot=/,
    );
    expect(
      expectRangesError(() => parsePathParam("history", undefined, "plo6hu"), 400, "missing_parameter")
        .message,
    ).toMatch(/history=SB/);
  });
});
