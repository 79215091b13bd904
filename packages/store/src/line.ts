/**
 * Replays a line of raise-size codes from the start of a hand: who acts next (by the same betting order as
 * the path grammar, so histories built here always parse), the pot, and the token, kind and size of each
 * code. The importer builds its tree with it; tests build synthetic trees with it.
 */

import {
  BettingOrder,
  bettingDepth,
  CODE_ALLIN,
  CODE_MIN_RAISE,
  CODE_RAISE_TO_3SB,
  GAMES,
  type GameId,
  isKnownCode,
  PCT_CODE_BASE,
  type PotSetup,
  PotState,
} from "@ranges/core";

export interface LineAction {
  readonly code: number;
  /** Token as the grammar writes it, before any PLO size suffix (`Fold`, `Limp`, `60%`, `Open`, `AI`). */
  readonly token: string;
  readonly kind: "fold" | "call" | "raise" | "allin";
  readonly sizeBb: number | null;
  readonly sizePctPot: number | null;
  readonly sizeReason?: string;
  /** Suffix that tells apart several sizes of one depth token at a PLO node (`Open-60`). */
  readonly sizeId?: string;
}

/** The table every pack of a game is built on: blinds 0.5/1, the registry's ante, every seat at `stack`. */
export function potSetupFor(game: GameId, stack: number): PotSetup {
  const info = GAMES[game];
  return {
    seats: info.seats,
    stacks: info.seats.map(() => stack),
    sb: 0.5,
    bb: 1,
    ante: info.ante,
    antePostedBy: info.antePostedBy,
  };
}

const CODE_HELP = "known codes: 0 fold, 1 call, 3 all-in, 5 min-raise, 14 raise-to 1.5bb, 40000+pct";
const round2 = (x: number): number => Math.round(x * 100) / 100;

export class LineReplay {
  readonly game: GameId;
  private readonly pot: PotState;
  private readonly order: BettingOrder;

  constructor(game: GameId, stack: number) {
    this.game = game;
    this.pot = new PotState(potSetupFor(game, stack));
    this.order = new BettingOrder(GAMES[game].seats);
  }

  /** Replays `codes` from the root; throws an Error naming the position of the first code that fails. */
  static of(game: GameId, stack: number, codes: readonly number[]): LineReplay {
    const line = new LineReplay(game, stack);
    codes.forEach((code, i) => {
      try {
        line.apply(code);
      } catch (error) {
        throw new Error(`code ${i + 1} (${code}): ${(error as Error).message}`);
      }
    });
    return line;
  }

  /** Seat to act, or null when the betting is closed. */
  get actor(): string | null {
    return this.order.nextToAct();
  }

  /** Raises made so far (an all-in counts, as in the grammar). */
  get raises(): number {
    return this.order.raises;
  }

  get depth(): 1 | 2 | 3 | 4 {
    return bettingDepth(this.order.raises);
  }

  /** What `code` means for the seat to act, without applying it. */
  describe(code: number): LineAction {
    const seat = this.actor;
    if (seat === null) throw new Error("the betting is closed here, so no seat acts");
    if (!isKnownCode(code)) throw new Error(`unknown raise-size code ${code} (${CODE_HELP})`);
    const info = GAMES[this.game];
    const d = this.pot.decode(seat, code);
    const raises = this.order.raises;
    if (d.kind === "fold") {
      return { code, token: "Fold", kind: "fold", sizeBb: null, sizePctPot: null, sizeReason: "fold" };
    }
    if (d.kind === "call") {
      // nlmtt8 writes a first-in call as Limp; the BB completing nothing is a check, written Call.
      const token = info.limpToken && raises === 0 && seat !== "BB" ? "Limp" : "Call";
      return { code, token, kind: "call", sizeBb: null, sizePctPot: null, sizeReason: "call: no raise size" };
    }
    if (code === CODE_ALLIN || d.kind === "allin") {
      return {
        code,
        token: "AI",
        kind: "allin",
        sizeBb: d.sizeBb,
        sizePctPot: null,
        sizeReason: d.sizeReason ?? "all-in: the size is the stack, not a fraction of the pot",
      };
    }
    if (d.toBb <= this.pot.currentBet + 1e-9) {
      throw new Error(
        `code ${code} raises to ${round2(d.toBb)}bb, which is not above the bet of ${round2(this.pot.currentBet)}bb`,
      );
    }
    const base = { code, kind: "raise" as const, sizeBb: d.sizeBb, sizePctPot: d.sizePctPot };
    const withReason = d.sizeReason === undefined ? base : { ...base, sizeReason: d.sizeReason };
    if (info.tokenStyle === "percent") {
      // Absolute sizes (min-raise, 1.5bb) have no pct code; their token is the percent they amount to.
      const pct =
        code > PCT_CODE_BASE
          ? code - PCT_CODE_BASE
          : round2(((d.toBb - this.pot.currentBet) / (this.pot.pot + this.pot.toCall(seat))) * 100);
      return { ...withReason, token: `${pct}%` };
    }
    if (raises + 2 > 9) throw new Error("more raises than the token grammar names (9B is the deepest)");
    const sizeId =
      code > PCT_CODE_BASE
        ? String(code - PCT_CODE_BASE)
        : code === CODE_MIN_RAISE
          ? "min"
          : code === CODE_RAISE_TO_3SB
            ? "1.5bb"
            : String(code);
    return { ...withReason, token: raises === 0 ? "Open" : `${raises + 2}B`, sizeId };
  }

  /** Applies `code` for the seat to act and returns what it meant. */
  apply(code: number): LineAction {
    const seat = this.actor;
    const action = this.describe(code);
    this.pot.apply(seat!, code);
    this.order.apply(seat!, action.kind, action.kind === "raise" || action.kind === "allin");
    return action;
  }
}

/**
 * Final tokens for the actions of one node: PLO nodes with several sizes of one depth token get `-<sizeId>`
 * suffixes (`Open-60`, `Open-100`); elsewhere two actions with one token are an error (returned as the
 * pair of codes that clash).
 */
export function finalTokens(
  game: GameId,
  actions: readonly LineAction[],
): { tokens: string[] } | { clash: [number, number] } {
  const count = new Map<string, number>();
  for (const a of actions) if (a.kind === "raise") count.set(a.token, (count.get(a.token) ?? 0) + 1);
  const omaha = GAMES[game].variant === "omaha";
  const tokens = actions.map((a) =>
    omaha && a.kind === "raise" && (count.get(a.token) ?? 0) > 1 && a.sizeId !== undefined
      ? `${a.token}-${a.sizeId}`
      : a.token,
  );
  const first = new Map<string, number>();
  for (let i = 0; i < tokens.length; i++) {
    const prev = first.get(tokens[i]!);
    if (prev !== undefined) return { clash: [actions[prev]!.code, actions[i]!.code] };
    first.set(tokens[i]!, i);
  }
  return { tokens };
}
