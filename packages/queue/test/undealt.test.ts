/** Paths into a solve that left seats out: the folds added in front, and errors in terms of the written path. */

import { RangesError } from "@ranges/core";
import { describe, expect, it } from "vitest";
import { readWithUndealtFolds, undealtSeats, withUndealtFolds } from "../src/index.js";

const HEADS_UP = undealtSeats("nl", { game: "nl", stack: 10, changes: { dealtIn: ["SB", "BB"] } });
const FOLDS = "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold";

describe("undealt seats", () => {
  it("are the seats dealtIn leaves out, in acting order; none without dealtIn", () => {
    expect(HEADS_UP).toEqual(["UTG", "HJ", "CO", "BTN"]);
    expect(undealtSeats("nl", { game: "nl", stack: 10 })).toEqual([]);
    expect(undealtSeats("nl", null)).toEqual([]);
  });

  it("fold in front of a path that starts at a dealt seat; a path that writes one of them is as written", () => {
    expect(withUndealtFolds("SB_AI_BB", HEADS_UP)).toBe(`${FOLDS}_SB_AI_BB`);
    expect(withUndealtFolds(`${FOLDS}_SB`, HEADS_UP)).toBe(`${FOLDS}_SB`);
    expect(withUndealtFolds("BTN_Fold_SB", HEADS_UP)).toBe("BTN_Fold_SB");
    expect(withUndealtFolds("SB", [])).toBe("SB");
    expect(withUndealtFolds("SB", undefined)).toBe("SB");
  });
});

describe("readWithUndealtFolds", () => {
  const refuse = (path: string): never => {
    throw new RangesError(
      "node_not_found",
      `SB cannot act at position 11 of "${path}": the next to act after "${FOLDS}" is SB.`,
      { validPrefix: FOLDS, suggestedPath: `${FOLDS}_SB`, seats: ["UTG", "SB"] },
    );
  };

  it("reads the completed path, synchronously or not", async () => {
    expect(readWithUndealtFolds("SB", HEADS_UP, (p) => p)).toBe(`${FOLDS}_SB`);
    expect(await readWithUndealtFolds("SB", HEADS_UP, async (p) => p)).toBe(`${FOLDS}_SB`);
  });

  it("words an error of the completed path in terms of the written one", async () => {
    const expected = {
      code: "node_not_found",
      status: 404,
      message:
        'SB cannot act at position 3 of "SB_AI_SB": the next to act after the folds of the seats not dealt in (UTG, HJ, CO, BTN) is SB.',
      hint: { validPrefix: "", suggestedPath: "SB", seats: ["UTG", "SB"] },
    };
    expect(() => readWithUndealtFolds("SB_AI_SB", HEADS_UP, refuse)).toThrow(
      expect.objectContaining(expected),
    );
    await expect(readWithUndealtFolds("SB_AI_SB", HEADS_UP, async (p) => refuse(p))).rejects.toMatchObject(
      expected,
    );
  });

  it("takes the folds off only where a path starts, not from inside the caller's own path", () => {
    const written = `SB_AI_BB_${FOLDS}_BB`;
    const error = (() => {
      try {
        return readWithUndealtFolds(written, HEADS_UP, refuse);
      } catch (e) {
        return e as RangesError;
      }
    })();
    expect(error.message).toBe(
      `SB cannot act at position 3 of "${written}": the next to act after the folds of the seats not dealt in (UTG, HJ, CO, BTN) is SB.`,
    );
    expect(error.hint).toMatchObject({ validPrefix: "", suggestedPath: "SB" });
  });

  it("escapes seat names that mean something in a pattern (nl9's UTG+1)", () => {
    const nine = ["UTG", "UTG+1", "UTG+2"];
    const folds = "UTG_Fold_UTG+1_Fold_UTG+2_Fold";
    const fail = (path: string): never => {
      throw new RangesError("node_not_found", `no node "${path}"`, { validPrefix: `${folds}_LJ` });
    };
    expect(() => readWithUndealtFolds("LJ_AI", nine, fail)).toThrow(
      expect.objectContaining({ message: 'no node "LJ_AI"', hint: { validPrefix: "LJ" } }),
    );
  });

  it("leaves errors of a path read as written, and other errors, as they are", () => {
    const asWritten = (() => {
      try {
        return readWithUndealtFolds("BTN_Fold_SB", HEADS_UP, refuse);
      } catch (error) {
        return error as RangesError;
      }
    })();
    expect(asWritten.message).toContain(`after "${FOLDS}"`);
    const other = new TypeError("boom");
    expect(() =>
      readWithUndealtFolds("SB", HEADS_UP, () => {
        throw other;
      }),
    ).toThrow(other);
  });
});
