/**
 * `raiseTo`, the one raise-to function of the package (design section 6): a pure function of the code, the
 * pot, the current bet, the seat's chips already in and its stack behind. The specification's two worked
 * examples, the posted blind paid once, rounding, and agreement with `PotState`.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CODE_ALLIN,
  CODE_CALL,
  CODE_FOLD,
  CODE_MIN_RAISE,
  CODE_RAISE_TO_3SB,
  GAMES,
  PotState,
  pctCode,
  raiseTo,
  roundBb,
} from "../src/index.js";
import { expectRangesError } from "./errors.js";

describe("the specification's worked examples", () => {
  it("9-max, no ante, 100bb: code for pct 120 gives sizeBb 4 and sizePctPot 120", () => {
    // UTG first in: blinds 0.5 + 1 in the pot, the bet is the big blind, UTG has nothing in.
    const d = raiseTo({ code: pctCode(120), pot: 1.5, currentBet: 1, chipsIn: 0, behind: 100 });
    expect(d).toMatchObject({ kind: "raise", sizeBb: 4, sizePctPot: 120, allIn: false });
    expect(d.toBb).toBeCloseTo(4, 12);
    expect(d.sizeReason).toBeUndefined();
  });

  it("nlmtt8 40bb: code for pct 34 gives sizeBb 2.19 (the 1bb BB ante is in the pot)", () => {
    // Pot: SB 0.5 + BB 1 + dead ante 1 = 2.5; 1 + 0.34 * (2.5 + 1) = 2.19.
    const d = raiseTo({ code: 40034, pot: 2.5, currentBet: 1, chipsIn: 0, behind: 40 });
    expect(d).toMatchObject({ kind: "raise", sizeBb: 2.19, sizePctPot: 34 });
    expect(d.addBb).toBeCloseTo(2.19, 12);
  });
});

describe("raiseTo", () => {
  it("a posted blind is not paid twice: the SB's 60% open to 2.8bb adds 2.3bb", () => {
    const d = raiseTo({ code: pctCode(60), pot: 2.5, currentBet: 1, chipsIn: 0.5, behind: 39.5 });
    // toCall = 1 - 0.5; raise-to = 1 + 0.6 * (2.5 + 0.5) = 2.8.
    expect(d).toMatchObject({ kind: "raise", sizeBb: 2.8, sizePctPot: 60 });
    expect(d.addBb).toBeCloseTo(2.3, 12);
    // Were the blind paid again, toCall would be 1 and the raise-to 3.1.
    expect(d.sizeBb).not.toBe(3.1);
  });

  it("rounds sizeBb to 2 decimals and keeps toBb exact", () => {
    // 1 + 0.33 * (1.5 + 1) = 1.825
    const d = raiseTo({ code: pctCode(33), pot: 1.5, currentBet: 1, chipsIn: 0, behind: 100 });
    expect(d.sizeBb).toBe(roundBb(d.toBb));
    expect(d.toBb).toBeCloseTo(1.825, 12);
    expect(d.sizeBb).toBe(1.83);
  });

  it("fold, call, all-in, min-raise and raise-to 1.5bb", () => {
    const at = { pot: 2.5, currentBet: 1, chipsIn: 0.5, behind: 39.5 };
    expect(raiseTo({ ...at, code: CODE_FOLD })).toMatchObject({ kind: "fold", addBb: 0, sizeBb: null });
    expect(raiseTo({ ...at, code: CODE_CALL })).toMatchObject({
      kind: "call",
      toBb: 1,
      addBb: 0.5,
      sizeBb: null,
    });
    expect(raiseTo({ ...at, code: CODE_ALLIN })).toMatchObject({
      kind: "allin",
      toBb: 40,
      sizeBb: 40,
      sizePctPot: null,
      allIn: true,
    });
    expect(raiseTo({ ...at, code: CODE_MIN_RAISE })).toMatchObject({
      kind: "raise",
      sizeBb: 2,
      sizePctPot: null,
    });
    expect(raiseTo({ ...at, code: CODE_MIN_RAISE, currentBet: 2.19, lastRaise: 1.19 }).sizeBb).toBe(3.38);
    expect(raiseTo({ ...at, code: CODE_RAISE_TO_3SB })).toMatchObject({
      kind: "raise",
      sizeBb: 1.5,
      addBb: 1,
    });
  });

  it("a raise past the stack is an all-in; a call is capped at the stack", () => {
    const d = raiseTo({ code: pctCode(500), pot: 2.5, currentBet: 1, chipsIn: 0, behind: 10 });
    expect(d).toMatchObject({ kind: "allin", sizeBb: 10, sizePctPot: null, allIn: true });
    expect(raiseTo({ code: CODE_CALL, pot: 20, currentBet: 12, chipsIn: 1, behind: 5 })).toMatchObject({
      kind: "call",
      toBb: 6,
      addBb: 5,
      allIn: true,
    });
  });

  it("unknown codes and impossible amounts are 400 invalid_parameter", () => {
    const at = { pot: 1.5, currentBet: 1, chipsIn: 0, behind: 100 };
    expectRangesError(() => raiseTo({ ...at, code: 2 }), 400, "invalid_parameter");
    expectRangesError(() => raiseTo({ ...at, code: 40000 }), 400, "invalid_parameter");
    expectRangesError(
      () => raiseTo({ ...at, code: CODE_RAISE_TO_3SB, currentBet: 2 }),
      400,
      "invalid_parameter",
    );
    expectRangesError(() => raiseTo({ ...at, code: 40050, pot: Number.NaN }), 400, "invalid_parameter");
    expectRangesError(() => raiseTo({ ...at, code: 40050, behind: -1 }), 400, "invalid_parameter");
  });

  it("is what PotState decodes, for any seat of a random betting round", () => {
    const seats = GAMES.nlmtt8.seats;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(CODE_FOLD, CODE_CALL, CODE_MIN_RAISE, 40034, 40060, 40100), {
          maxLength: 10,
        }),
        fc.constantFrom(CODE_CALL, CODE_ALLIN, CODE_MIN_RAISE, 40034, 40075, 40250),
        (line, next) => {
          const pot = new PotState({
            seats,
            stacks: seats.map(() => 40),
            sb: 0.5,
            bb: 1,
            ante: 1,
            antePostedBy: "BB",
          });
          let turn = 0;
          for (const code of line) pot.apply(seats[turn++ % seats.length]!, code);
          const seat = seats[turn % seats.length]!;
          const i = seats.indexOf(seat);
          if (pot.folded[i]) return;
          const direct = raiseTo({
            code: next,
            pot: pot.pot,
            currentBet: pot.currentBet,
            chipsIn: pot.contributed[i]!,
            behind: pot.behind[i]!,
            lastRaise: pot.lastRaise,
          });
          expect(pot.decode(seat, next)).toEqual(direct);
        },
      ),
      { numRuns: 300 },
    );
  });
});
