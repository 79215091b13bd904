/**
 * Raise-size codes and pot arithmetic, in big blinds.
 *
 *   0 fold   1 call   3 all-in (raise-to = the whole stack)   5 min-raise   14 raise-to 1.5bb
 *   40000+pct  raise by pct percent of the pot after calling:
 *              raiseTo = currentBet + pct/100 * (pot + toCall), toCall = currentBet - chipsAlreadyIn
 *
 * Blinds and dead antes are in the pot; a posted blind counts toward its owner's bet, so it is not paid
 * twice. `raiseTo` is the one function that decodes a code (pure, from pot, current bet, chips already in
 * and stack behind); `PotState` tracks a whole betting round and decodes through it.
 *
 * Worked examples (tests): 9-max, no ante, 100bb, UTG code 40120 raises to 4bb (120% of pot); nlmtt8 40bb
 * (BB posts a 1bb ante), UTG code 40034 raises to 2.19bb; the SB's 40060 raises to 2.8bb.
 */

import { RangesError } from "./errors.js";

export const CODE_FOLD = 0;
export const CODE_CALL = 1;
export const CODE_ALLIN = 3;
export const CODE_MIN_RAISE = 5;
export const CODE_RAISE_TO_3SB = 14;
export const PCT_CODE_BASE = 40000;

export const pctCode = (pct: number): number => PCT_CODE_BASE + pct;

export type CodeKind = "fold" | "call" | "raise" | "allin";

export function isKnownCode(code: number): boolean {
  return (
    code === CODE_FOLD ||
    code === CODE_CALL ||
    code === CODE_ALLIN ||
    code === CODE_MIN_RAISE ||
    code === CODE_RAISE_TO_3SB ||
    (Number.isInteger(code) && code > PCT_CODE_BASE && code < PCT_CODE_BASE + 10000)
  );
}

export interface PotSetup {
  /** Seats in acting order. */
  readonly seats: readonly string[];
  /** Starting stack of each seat in bb, in `seats` order, before blinds and antes are posted. */
  readonly stacks: readonly number[];
  readonly sb: number;
  readonly bb: number;
  /** Dead ante in bb, posted by `antePostedBy` (nlmtt8: 1bb by the BB) out of its starting stack. */
  readonly ante: number;
  readonly antePostedBy: string | null;
  /** Seats posting the blinds (default: the last two seats, SB then BB). */
  readonly sbSeat?: string;
  readonly bbSeat?: string;
}

export interface DecodedAction {
  readonly code: number;
  readonly kind: CodeKind;
  /** Chip total the seat has in front of it after the action (raise-to for raises), in bb. */
  readonly toBb: number;
  /** Chips the action adds, in bb. */
  readonly addBb: number;
  /** Raise-to in bb for raises and all-ins; null for fold and call. */
  readonly sizeBb: number | null;
  /** Percent of the pot after calling, for 40000+pct codes only. */
  readonly sizePctPot: number | null;
  /** Why sizeBb or sizePctPot is null. */
  readonly sizeReason?: string;
  /** True when the seat has no chips behind after the action. */
  readonly allIn: boolean;
}

/** Rounds a bb amount to 2 decimals, as every response does. */
export const roundBb = (x: number): number => Math.round(x * 100) / 100;

/** What `raiseTo` needs to know about the pot and the acting seat; every amount in big blinds. */
export interface RaiseToInput {
  /** Raise-size code: 0 fold, 1 call, 3 all-in, 5 min-raise, 14 raise-to 1.5bb, 40000+pct. */
  readonly code: number;
  /** Chips in the pot before the action: every bet of this round, the posted blinds and any dead ante. */
  readonly pot: number;
  /** The bet to match (1 in an unraised pot: the big blind). */
  readonly currentBet: number;
  /** Chips the acting seat already has in front of it this round (a posted blind, an earlier bet). */
  readonly chipsIn: number;
  /**
   * The acting seat's stack behind: chips it can still put in, i.e. its starting stack less what it has
   * posted (blind, ante) or bet. An all-in raises to `chipsIn + behind`.
   */
  readonly behind: number;
  /** The last raise increment, used by code 5 (min-raise). Default 1: the big blind of an unraised pot. */
  readonly lastRaise?: number;
}

const TOLERANCE = 1e-9;

function checkAmount(name: string, value: number): void {
  if (!Number.isFinite(value) || value < -TOLERANCE) {
    throw new RangesError(
      "invalid_parameter",
      `${name} must be a finite number of bb, at least 0 (got ${value}).`,
      {
        parameter: name,
      },
    );
  }
}

/**
 * The one raise-to function: decodes a raise-size code for the acting seat, in big blinds.
 *
 * - 0 folds and 1 calls (`sizeBb` null, with a `sizeReason`); a call is capped at the seat's chips.
 * - 3 raises to the whole stack, `chipsIn + behind`.
 * - 5 raises to `currentBet + lastRaise`; 14 raises to 1.5bb (an error when that is not above the bet).
 * - 40000+pct raises by pct percent of the pot after calling:
 *   `raiseTo = currentBet + pct/100 * (pot + toCall)` with `toCall = currentBet - chipsIn`, so a posted
 *   blind counts toward its owner's call and is not paid twice; blinds and dead antes are in `pot`.
 * - A raise that reaches the stack is an all-in (`kind` `allin`, `sizePctPot` null).
 *
 * `sizeBb` is rounded to 2 decimals (`roundBb`), as responses show it; `toBb` and `addBb` are exact, for
 * moving chips. Unknown codes and invalid amounts are 400 `invalid_parameter`.
 *
 * The specification's examples: 9-max without ante at 100bb, UTG first in with code 40120 (pot 1.5)
 * raises to 4bb, 120% of the pot; nlmtt8 at 40bb (pot 2.5 with the BB's 1bb ante), UTG's 40034 raises
 * to 2.19bb. For instance
 * `raiseTo({ code: 40034, pot: 2.5, currentBet: 1, chipsIn: 0, behind: 40 }).sizeBb === 2.19`.
 */
export function raiseTo(input: RaiseToInput): DecodedAction {
  const { code, pot, currentBet, chipsIn, behind } = input;
  const lastRaise = input.lastRaise ?? 1;
  checkAmount("pot", pot);
  checkAmount("currentBet", currentBet);
  checkAmount("chipsIn", chipsIn);
  checkAmount("behind", behind);
  checkAmount("lastRaise", lastRaise);
  const inFront = chipsIn;
  const maxTo = inFront + behind;
  if (code === CODE_FOLD) {
    return {
      code,
      kind: "fold",
      toBb: inFront,
      addBb: 0,
      sizeBb: null,
      sizePctPot: null,
      sizeReason: "fold",
      allIn: false,
    };
  }
  if (code === CODE_CALL) {
    const to = Math.min(currentBet, maxTo);
    return {
      code,
      kind: "call",
      toBb: to,
      addBb: to - inFront,
      sizeBb: null,
      sizePctPot: null,
      sizeReason: "call: no raise size",
      allIn: to === maxTo && maxTo > 0 && behind <= currentBet - inFront,
    };
  }
  let to: number;
  let pct: number | null = null;
  let reason: string | undefined;
  if (code === CODE_ALLIN) {
    to = maxTo;
    reason = "all-in: the size is the stack, not a fraction of the pot";
  } else if (code === CODE_MIN_RAISE) {
    to = currentBet + lastRaise;
    reason = "min-raise: an absolute size, not a fraction of the pot";
  } else if (code === CODE_RAISE_TO_3SB) {
    to = 1.5;
    reason = "raise-to 1.5bb: an absolute size, not a fraction of the pot";
  } else if (isKnownCode(code) && code > PCT_CODE_BASE) {
    pct = code - PCT_CODE_BASE;
    const toCall = currentBet - inFront;
    to = currentBet + (pct / 100) * (pot + toCall);
  } else {
    throw new RangesError("invalid_parameter", `Unknown raise-size code ${code}.`, {
      knownCodes: "0 fold, 1 call, 3 all-in, 5 min-raise, 14 raise-to 1.5bb, 40000+pct",
    });
  }
  if (to >= maxTo - TOLERANCE) {
    // A raise that reaches the stack is an all-in, whatever code asked for it.
    return {
      code,
      kind: "allin",
      toBb: maxTo,
      addBb: maxTo - inFront,
      sizeBb: roundBb(maxTo),
      sizePctPot: null,
      sizeReason: "all-in: the size is the stack, not a fraction of the pot",
      allIn: true,
    };
  }
  if (to <= currentBet) {
    // Only code 14 (raise-to 1.5bb) can land here: facing a bet of 1.5bb or more it is no raise at all.
    throw new RangesError(
      "invalid_parameter",
      `Raise-size code ${code} raises to ${roundBb(to)}bb, which is not above the current bet of ${roundBb(currentBet)}bb.`,
    );
  }
  const base = {
    code,
    kind: "raise" as const,
    toBb: to,
    addBb: to - inFront,
    sizeBb: roundBb(to),
    allIn: false,
  };
  return pct === null ? { ...base, sizePctPot: null, sizeReason: reason! } : { ...base, sizePctPot: pct };
}

/**
 * The state of a preflop pot: what each seat has put in this round, the dead money, the bet to match and
 * the size of the last raise. `apply` decodes a code for a seat and moves the chips.
 */
export class PotState {
  readonly seats: readonly string[];
  /** Chips in front of each seat this round (blinds count). */
  readonly contributed: number[];
  /** Chips each seat has behind. */
  readonly behind: number[];
  /** Dead money: antes. */
  dead: number;
  currentBet: number;
  /** The last raise increment (a min-raise raises by at least this). */
  lastRaise: number;
  readonly folded: boolean[];

  constructor(setup: PotSetup) {
    this.seats = setup.seats;
    const n = setup.seats.length;
    this.contributed = new Array<number>(n).fill(0);
    this.behind = [...setup.stacks];
    this.folded = new Array<boolean>(n).fill(false);
    this.dead = 0;
    if (setup.ante > 0 && setup.antePostedBy) {
      const i = this.seatIndex(setup.antePostedBy);
      // Like a blind, an ante larger than the stack posts what the stack has.
      const ante = Math.min(setup.ante, this.behind[i]!);
      this.behind[i]! -= ante;
      this.dead += ante;
    }
    const sbSeat = setup.sbSeat ?? setup.seats[n - 2]!;
    const bbSeat = setup.bbSeat ?? setup.seats[n - 1]!;
    this.post(this.seatIndex(sbSeat), setup.sb);
    this.post(this.seatIndex(bbSeat), setup.bb);
    this.currentBet = setup.bb;
    this.lastRaise = setup.bb;
  }

  clone(): PotState {
    const copy = Object.create(PotState.prototype) as PotState;
    Object.assign(copy, {
      seats: this.seats,
      contributed: [...this.contributed],
      behind: [...this.behind],
      folded: [...this.folded],
      dead: this.dead,
      currentBet: this.currentBet,
      lastRaise: this.lastRaise,
    });
    return copy;
  }

  private post(i: number, amount: number): void {
    const paid = Math.min(amount, this.behind[i]!);
    this.contributed[i]! += paid;
    this.behind[i]! -= paid;
  }

  seatIndex(seat: string): number {
    const i = this.seats.indexOf(seat);
    if (i < 0) throw new RangesError("invalid_parameter", `Unknown seat "${seat}".`);
    return i;
  }

  /** Total chips in the pot (all contributions plus dead money). */
  get pot(): number {
    return this.contributed.reduce((a, b) => a + b, 0) + this.dead;
  }

  /** Chips the seat must add to call. */
  toCall(seat: string): number {
    const i = this.seatIndex(seat);
    return Math.min(this.currentBet - this.contributed[i]!, this.behind[i]!);
  }

  /** Decodes `code` for `seat` without changing the state (through `raiseTo`). */
  decode(seat: string, code: number): DecodedAction {
    const i = this.seatIndex(seat);
    return raiseTo({
      code,
      pot: this.pot,
      currentBet: this.currentBet,
      chipsIn: this.contributed[i]!,
      behind: this.behind[i]!,
      lastRaise: this.lastRaise,
    });
  }

  /** Applies `code` for `seat`, returning the decoded action. */
  apply(seat: string, code: number): DecodedAction {
    const d = this.decode(seat, code);
    const i = this.seatIndex(seat);
    if (d.kind === "fold") {
      this.folded[i] = true;
      return d;
    }
    this.contributed[i]! += d.addBb;
    this.behind[i]! -= d.addBb;
    if (d.toBb > this.currentBet) {
      this.lastRaise = Math.max(this.lastRaise, d.toBb - this.currentBet);
      this.currentBet = d.toBb;
    }
    return d;
  }
}
