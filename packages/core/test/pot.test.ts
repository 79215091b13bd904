/**
 * Raise-size codes and pot arithmetic: the specification's worked examples, each code, and a property that
 * checks `PotState` against a chip-by-chip simulation written here from the specification's formula.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CODE_ALLIN,
  CODE_CALL,
  CODE_FOLD,
  CODE_MIN_RAISE,
  CODE_RAISE_TO_3SB,
  type DecodedAction,
  GAMES,
  isKnownCode,
  isRangesError,
  PCT_CODE_BASE,
  type PotSetup,
  PotState,
  pctCode,
  roundBb,
} from "../src/index.js";
import { expectRangesError } from "./errors.js";

const setupOf = (game: "nlmtt8" | "nl9" | "nl", stack: number): PotSetup => ({
  seats: GAMES[game].seats,
  stacks: GAMES[game].seats.map(() => stack),
  sb: 0.5,
  bb: 1,
  ante: GAMES[game].ante,
  antePostedBy: GAMES[game].antePostedBy,
});

/** nlmtt8 at `stack` bb after the seats before `seat` have folded. */
function foldedTo(seat: string, stack = 40): PotState {
  const pot = new PotState(setupOf("nlmtt8", stack));
  for (const s of pot.seats.slice(0, pot.seats.indexOf(seat))) pot.apply(s, CODE_FOLD);
  return pot;
}

describe("worked examples of the specification", () => {
  it("9-max, no ante, 100bb: UTG code 40120 raises to 4bb, 120% of the pot", () => {
    const pot = new PotState(setupOf("nl9", 100));
    expect(pot.pot).toBe(1.5);
    const d = pot.decode("UTG", 40120);
    expect(d).toMatchObject({ kind: "raise", sizeBb: 4, sizePctPot: 120, allIn: false });
    expect(d.toBb).toBeCloseTo(4, 12);
    expect(d.addBb).toBeCloseTo(4, 12);
  });

  it("nlmtt8 40bb: the BB posts the 1bb ante out of its stack", () => {
    const pot = new PotState(setupOf("nlmtt8", 40));
    expect(pot.pot).toBe(2.5);
    expect(pot.dead).toBe(1);
    expect(pot.currentBet).toBe(1);
    expect(pot.contributed).toEqual([0, 0, 0, 0, 0, 0, 0.5, 1]);
    expect(pot.behind).toEqual([40, 40, 40, 40, 40, 40, 39.5, 38]);
  });

  it("nlmtt8 40bb: UTG code 40034 raises to 2.19bb (the 2.2x label), 34% of the pot", () => {
    const d = new PotState(setupOf("nlmtt8", 40)).decode("UTG", 40034);
    expect(d).toMatchObject({ kind: "raise", sizeBb: 2.19, sizePctPot: 34 });
    expect(d.toBb).toBeCloseTo(2.19, 12);
    expect(d.sizeReason).toBeUndefined();
  });

  it("nlmtt8 40bb: the SB's code 40060 raises to 2.8bb, 60% of the pot, paying its posted blind once", () => {
    const pot = foldedTo("SB");
    expect(pot.pot).toBe(2.5);
    const d = pot.decode("SB", 40060);
    expect(d).toMatchObject({ kind: "raise", sizeBb: 2.8, sizePctPot: 60 });
    expect(d.addBb).toBeCloseTo(2.3, 12);
  });
});

describe("codes 0, 1, 3, 5 and 14", () => {
  it("0 folds: no chips, no size, a reason", () => {
    const pot = new PotState(setupOf("nlmtt8", 40));
    const d = pot.apply("UTG", CODE_FOLD);
    expect(d).toMatchObject({ kind: "fold", addBb: 0, sizeBb: null, sizePctPot: null, allIn: false });
    expect(d.sizeReason).toBeTruthy();
    expect(pot.folded[0]).toBe(true);
    expect(pot.pot).toBe(2.5);
  });

  it("1 calls the amount owed, counting a posted blind", () => {
    const limp = new PotState(setupOf("nlmtt8", 40)).decode("UTG", CODE_CALL);
    expect(limp).toMatchObject({
      kind: "call",
      toBb: 1,
      addBb: 1,
      sizeBb: null,
      sizePctPot: null,
      allIn: false,
    });
    expect(limp.sizeReason).toBeTruthy();

    const sb = foldedTo("SB");
    expect(sb.apply("SB", CODE_CALL)).toMatchObject({ toBb: 1, addBb: 0.5 });
    // The BB checks: a call of zero more.
    expect(sb.decode("BB", CODE_CALL)).toMatchObject({ kind: "call", toBb: 1, addBb: 0 });

    const open = new PotState(setupOf("nlmtt8", 40));
    open.apply("UTG", 40034);
    const bbCall = open.decode("BB", CODE_CALL);
    expect(bbCall.addBb).toBeCloseTo(1.19, 12);
    expect(open.decode("SB", CODE_CALL).addBb).toBeCloseTo(1.69, 12);
  });

  it("1 by a short stack calls all-in for what it has", () => {
    const setup = setupOf("nlmtt8", 40);
    const pot = new PotState({ ...setup, stacks: [40, 3, 40, 40, 40, 40, 40, 40] });
    pot.apply("UTG", CODE_ALLIN);
    expect(pot.decode("UTG1", CODE_CALL)).toMatchObject({ kind: "call", toBb: 3, addBb: 3, allIn: true });
  });

  it("3 goes all-in: raise-to is the stack, and the BB's all-in excludes its posted ante", () => {
    const pot = new PotState(setupOf("nlmtt8", 40));
    for (const [seat, to] of [
      ["UTG", 40],
      ["CO", 40],
      ["SB", 40],
      ["BB", 39],
    ] as const) {
      const d = pot.decode(seat, CODE_ALLIN);
      expect(d).toMatchObject({ kind: "allin", sizeBb: to, toBb: to, sizePctPot: null, allIn: true });
      expect(d.sizeReason).toMatch(/all-in/);
    }
    expect(pot.decode("BB", CODE_ALLIN).addBb).toBe(38);
    expect(pot.decode("SB", CODE_ALLIN).addBb).toBe(39.5);
  });

  it("5 min-raises by the last raise increment", () => {
    const pot = new PotState(setupOf("nlmtt8", 40));
    expect(pot.decode("UTG", CODE_MIN_RAISE)).toMatchObject({ kind: "raise", sizeBb: 2, sizePctPot: null });
    pot.apply("UTG", 40034); // to 2.19: an increment of 1.19
    const d = pot.apply("UTG1", CODE_MIN_RAISE);
    expect(d).toMatchObject({ kind: "raise", sizeBb: 3.38, sizePctPot: null });
    expect(d.sizeReason).toMatch(/min-raise/);
    expect(pot.decode("LJ", CODE_MIN_RAISE).sizeBb).toBe(4.57);
  });

  it("14 raises to 1.5bb (3 small blinds) first in", () => {
    const d = new PotState(setupOf("nl", 100)).decode("UTG", CODE_RAISE_TO_3SB);
    expect(d).toMatchObject({ kind: "raise", sizeBb: 1.5, toBb: 1.5, addBb: 1.5, sizePctPot: null });
    expect(d.sizeReason).toMatch(/1\.5bb/);
    expect(foldedTo("SB").decode("SB", CODE_RAISE_TO_3SB)).toMatchObject({ sizeBb: 1.5, addBb: 1 });
  });

  it("14 after a raise to 1.5bb or more is rejected (it would take chips back)", () => {
    const pot = new PotState(setupOf("nlmtt8", 40));
    pot.apply("UTG", 40034);
    pot.apply("UTG1", 40100);
    const before = pot.clone();
    expectRangesError(() => pot.decode("UTG", CODE_RAISE_TO_3SB), 400, "invalid_parameter");
    expectRangesError(() => pot.apply("UTG", CODE_RAISE_TO_3SB), 400, "invalid_parameter");
    expect(pot).toEqual(before);
  });

  it("a raise beyond the stack becomes an all-in with no percent and a reason", () => {
    const pot = new PotState(setupOf("nlmtt8", 10));
    const d = pot.decode("UTG", pctCode(500)); // 1 + 5 * 3.5 = 18.5 > 10
    expect(d).toMatchObject({
      code: 40500,
      kind: "allin",
      sizeBb: 10,
      toBb: 10,
      sizePctPot: null,
      allIn: true,
    });
    expect(d.sizeReason).toMatch(/all-in/);
    // Exactly the stack is all-in too.
    const exact = new PotState({ ...setupOf("nl9", 4), ante: 0 }).decode("UTG", 40120);
    expect(exact).toMatchObject({ kind: "allin", sizeBb: 4, sizePctPot: null });
    // A min-raise a short stack cannot make.
    const short = new PotState({ ...setupOf("nlmtt8", 40), stacks: [40, 2.5, 40, 40, 40, 40, 40, 40] });
    short.apply("UTG", 40034);
    expect(short.decode("UTG1", CODE_MIN_RAISE)).toMatchObject({ kind: "allin", sizeBb: 2.5 });
  });

  it.each([2, 4, 6, 13, 15, 40000, 50000, -1, 1.5, 40034.5, Number.NaN])(
    "unknown code %s is a 400",
    (code) => {
      expect(isKnownCode(code)).toBe(false);
      const error = expectRangesError(
        () => new PotState(setupOf("nlmtt8", 40)).decode("UTG", code),
        400,
        "invalid_parameter",
      );
      expect(error.message).toContain(String(code));
    },
  );

  it.each([0, 1, 3, 5, 14, 40001, 40034, 40100, 49999])("code %i is known", (code) => {
    expect(isKnownCode(code)).toBe(true);
  });

  it("an unknown seat is a 400", () => {
    expectRangesError(
      () => new PotState(setupOf("nl", 100)).decode("UTG1", CODE_CALL),
      400,
      "invalid_parameter",
    );
  });
});

describe("pot state", () => {
  it("apply moves chips and raises the bet; decode and clone leave the original alone", () => {
    const pot = new PotState(setupOf("nlmtt8", 40));
    const copy = pot.clone();
    pot.decode("UTG", 40034);
    expect(pot).toEqual(copy);
    pot.apply("UTG", 40034);
    expect(pot.currentBet).toBeCloseTo(2.19, 12);
    expect(pot.lastRaise).toBeCloseTo(1.19, 12);
    expect(pot.pot).toBeCloseTo(4.69, 12);
    expect(pot.behind[0]).toBeCloseTo(37.81, 12);
    expect(copy.pot).toBe(2.5);
    expect(copy.behind[0]).toBe(40);
  });

  it("a stack smaller than the ante and blind posts what it has and never goes negative", () => {
    const pot = new PotState({ ...setupOf("nlmtt8", 40), stacks: [40, 40, 40, 40, 40, 40, 0.25, 0.5] });
    expect(pot.behind.every((b) => b >= 0)).toBe(true);
    expect(pot.dead).toBe(0.5);
    expect(pot.contributed.slice(6)).toEqual([0.25, 0]);
    expect(pot.pot).toBe(0.75);
  });

  it("pctCode and roundBb", () => {
    expect(pctCode(34)).toBe(40034);
    expect(PCT_CODE_BASE).toBe(40000);
    expect(roundBb(2.189999)).toBe(2.19);
    expect(roundBb(2.806)).toBe(2.81);
    expect(roundBb(4)).toBe(4);
  });
});

/* ---------- Property: PotState against a chip-by-chip simulation ---------- */

interface Expected {
  kind: DecodedAction["kind"] | "error";
  to: number;
  add: number;
  pct: number | null;
}

/** A direct model of the specification: every seat's chips in front and behind, dead money, bet, increment. */
class Chips {
  readonly start: number[];
  readonly inFront: number[];
  readonly behind: number[];
  readonly out: boolean[];
  dead = 0;
  bet: number;
  increment: number;

  constructor(setup: PotSetup) {
    const n = setup.seats.length;
    this.start = [...setup.stacks];
    this.behind = [...setup.stacks];
    this.inFront = setup.seats.map(() => 0);
    this.out = setup.seats.map(() => false);
    if (setup.antePostedBy !== null) {
      const i = setup.seats.indexOf(setup.antePostedBy);
      const chips = Math.min(setup.ante, this.behind[i]!);
      this.behind[i]! -= chips;
      this.dead += chips;
    }
    for (const [i, blind] of [
      [n - 2, setup.sb],
      [n - 1, setup.bb],
    ] as const) {
      const chips = Math.min(blind, this.behind[i]!);
      this.behind[i]! -= chips;
      this.inFront[i]! += chips;
    }
    this.bet = setup.bb;
    this.increment = setup.bb;
  }

  get pot(): number {
    let total = this.dead;
    for (const c of this.inFront) total += c;
    return total;
  }

  /** What `code` does for seat i, per the specification's table and formula. */
  predict(i: number, code: number): Expected {
    const mine = this.inFront[i]!;
    const cap = mine + this.behind[i]!;
    if (code === 0) return { kind: "fold", to: mine, add: 0, pct: null };
    if (code === 1) {
      const add = Math.min(this.bet - mine, this.behind[i]!);
      return { kind: "call", to: mine + add, add, pct: null };
    }
    let target: number;
    let pct: number | null = null;
    if (code === 3) target = cap;
    else if (code === 5) target = this.bet + this.increment;
    else if (code === 14) target = 1.5;
    else {
      pct = code - 40000;
      const toCall = this.bet - mine;
      target = this.bet + (pct / 100) * (this.pot + toCall);
    }
    if (target >= cap - 1e-9) return { kind: "allin", to: cap, add: cap - mine, pct: null };
    if (target <= this.bet) return { kind: "error", to: mine, add: 0, pct: null };
    return { kind: "raise", to: target, add: target - mine, pct };
  }

  move(i: number, e: Expected): void {
    if (e.kind === "error") return;
    if (e.kind === "fold") {
      this.out[i] = true;
      return;
    }
    this.behind[i]! -= e.add;
    this.inFront[i]! += e.add;
    if (e.to > this.bet) {
      this.increment = Math.max(this.increment, e.to - this.bet);
      this.bet = e.to;
    }
  }
}

const SEAT_NAMES = ["S0", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"];

const arbStack = fc.oneof(
  fc.integer({ min: 1, max: 24 }).map((q) => q / 4), // short: may not cover the blinds or the ante
  fc.integer({ min: 5, max: 400 }),
  fc.integer({ min: 100, max: 40_000 }).map((c) => c / 100),
);

const arbSetup = fc.integer({ min: 2, max: 9 }).chain((n) =>
  fc.record({
    seats: fc.constant(SEAT_NAMES.slice(0, n)),
    stacks: fc.array(arbStack, { minLength: n, maxLength: n }),
    sb: fc.constant(0.5),
    bb: fc.constant(1),
    ante: fc.constantFrom(0, 0.5, 1, 2),
    antePostedBy: fc.constantFrom(null, SEAT_NAMES[n - 1]!, SEAT_NAMES[n - 2]!),
  }),
);

const arbCode = fc.oneof(
  fc.constantFrom(CODE_FOLD, CODE_CALL, CODE_ALLIN, CODE_MIN_RAISE, CODE_RAISE_TO_3SB),
  fc.integer({ min: 1, max: 300 }).map(pctCode),
  fc.integer({ min: 1, max: 9999 }).map(pctCode),
);

describe("pot property", () => {
  it("decodes every code as the chip-by-chip simulation does, conserving chips", () => {
    fc.assert(
      fc.property(
        arbSetup,
        fc.array(fc.tuple(fc.nat(), arbCode), { maxLength: 30 }),
        (setup: PotSetup, actions) => {
          const state = new PotState(setup);
          const chips = new Chips(setup);
          const check = () => {
            expect(state.pot).toBeCloseTo(chips.pot, 9);
            // Chips are conserved: the pot is exactly what left the stacks (antes included).
            const left = chips.start.reduce((sum, s, i) => sum + s - state.behind[i]!, 0);
            expect(state.pot).toBeCloseTo(left, 9);
            expect(state.dead).toBeCloseTo(chips.dead, 12);
            expect(state.currentBet).toBeCloseTo(chips.bet, 9);
            for (let i = 0; i < setup.seats.length; i++) {
              expect(state.behind[i]!).toBeGreaterThanOrEqual(-1e-9);
              expect(state.contributed[i]!).toBeCloseTo(chips.inFront[i]!, 9);
              expect(state.behind[i]!).toBeCloseTo(chips.behind[i]!, 9);
            }
          };
          check();
          for (const [pick, code] of actions) {
            const active = setup.seats.flatMap((_, i) => (!chips.out[i] && chips.behind[i]! > 0 ? [i] : []));
            if (active.length === 0) break;
            const i = active[pick % active.length]!;
            // Skip a raise-to-1.5bb whose legality hangs on float noise in the bet.
            if (code === CODE_RAISE_TO_3SB && Math.abs(chips.bet - 1.5) < 1e-6) continue;
            const want = chips.predict(i, code);
            const seat = setup.seats[i]!;
            if (want.kind === "error") {
              let thrown: unknown;
              try {
                state.apply(seat, code);
              } catch (error) {
                thrown = error;
              }
              expect(isRangesError(thrown) && thrown.status === 400).toBe(true);
              check();
              continue;
            }
            const got = state.apply(seat, code);
            chips.move(i, want);
            expect(got.kind).toBe(want.kind);
            expect(got.code).toBe(code);
            expect(got.toBb).toBeCloseTo(want.to, 9);
            expect(got.addBb).toBeCloseTo(want.add, 9);
            expect(got.addBb).toBeGreaterThanOrEqual(-1e-9);
            if (want.kind === "raise" || want.kind === "allin") {
              expect(Math.abs(got.sizeBb! - want.to)).toBeLessThanOrEqual(0.005 + 1e-9);
              expect(got.sizeBb).toBe(roundBb(got.sizeBb!));
            } else {
              expect(got.sizeBb).toBeNull();
            }
            expect(got.sizePctPot).toBe(want.kind === "raise" ? want.pct : null);
            expect(got.sizeReason === undefined).toBe(got.sizePctPot !== null);
            expect(got.allIn).toBe(want.kind === "allin" || (want.kind === "call" && chips.behind[i] === 0));
            check();
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
