/**
 * All-in adjusted results, with this project's own equity code (@ranges/solver).
 *
 * When the money went in before the river and the betting was over (every player still in the hand but at
 * most one was all-in), the cards still to come decide the pot, not the players. The adjusted result
 * replaces the hero's collections by their expectation at that moment: for every pot, the hero's share of
 * the run-outs (wins plus split ties) among the players who contest it, times the pot less its share of the
 * rake; minus what the hero put in. Needs every contesting player's cards (shown at the showdown).
 *
 * - Hold'em: exact, every run-out of the remaining deck (`evaluate7`), where at most EXACT_MAX_BOARDS
 *   boards remain (any all-in from the flop on); heads-up all-ins before the flop with one pot go through
 *   `exactHeadsUpEquity` (1,712,304 boards, its own fast enumeration). Three or more players all-in before
 *   the flop (1,370,754 boards times one evaluation per player: about 120 ms a hand three-way, more with
 *   more players, so a file of them held the shared parse thread for minutes) are seeded Monte Carlo,
 *   HOLDEM_SAMPLES run-outs (about 7 ms three-way), with the standard error stated.
 * - Omaha (4 to 6 hole cards): exact with `evaluateOmaha` from the flop on; before the flop Monte Carlo,
 *   `omahaEquity` for four-card hands and up to three players, else the same sampling with `evaluateOmaha`,
 *   20,000 seeded run-outs, with the standard error stated.
 * - Not adjusted (and said why): Hi/Lo games (the evaluator rates high hands only), a contesting player's
 *   cards not shown, an incomplete board, and all-ins after an upload spent its equity time budget
 *   (EQUITY_BUDGET_MS, see upload-parse.ts).
 */

import { seededRandom } from "@ranges/core";
import type { Hand } from "@ranges/hand-history";
import { evaluate7, evaluateOmaha, exactHeadsUpEquity, omahaEquity } from "@ranges/solver";
import { cardNumbers } from "./cards.js";
import type { AllInAdjustment } from "./types.js";

/** Run-outs sampled when an exact enumeration is not used (Omaha before the flop). */
export const OMAHA_PREFLOP_SAMPLES = 20_000;
/** Run-outs sampled for hold'em all-ins with more boards left than EXACT_MAX_BOARDS (3+ players preflop). */
export const HOLDEM_SAMPLES = 50_000;
/** The most remaining boards enumerated exactly (hold'em): a flop all-in leaves at most 1,081. */
export const EXACT_MAX_BOARDS = 100_000;
/** The note of an all-in left unadjusted because the upload's equity time budget was spent. */
export const EQUITY_BUDGET_NOTE =
  "Not adjusted: this upload's time budget for all-in equities was spent on earlier hands (upload fewer all-in hands at a time to have them all adjusted).";
const SEED = 20_261_124;

type Street = "preflop" | "flop" | "turn" | "river";
const BOARD_AT: Record<Street, number> = { preflop: 0, flop: 3, turn: 4, river: 5 };

export interface AllInResult {
  adjustment: AllInAdjustment | null;
  /** Why a hand with an all-in has no adjustment; null when it has one or there was no all-in. */
  note: string | null;
}

const NONE: AllInResult = { adjustment: null, note: null };
const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;

interface Shares {
  /** The hero's share of each contender set. */
  shares: number[];
  standardErrors: number[];
  runouts: number;
  method: "exact" | "monte-carlo";
}

/**
 * The hero's (hand 0) share of each contender set (indices into `hands`, each holding 0) over the run-outs
 * of `board`. `rate(hand, board5)` values a hand: higher is better.
 */
function enumerate(
  hands: readonly number[][],
  board: readonly number[],
  sets: readonly number[][],
  rate: (hand: readonly number[], board: readonly number[]) => number,
): Shares {
  const used = new Set<number>([...board, ...hands.flat()]);
  const deck: number[] = [];
  for (let c = 0; c < 52; c++) if (!used.has(c)) deck.push(c);
  const need = 5 - board.length;
  const full = [...board, 0, 0, 0, 0, 0].slice(0, 5);
  const values = new Array<number>(hands.length).fill(0);
  const sums = new Array<number>(sets.length).fill(0);
  let runouts = 0;
  const visit = () => {
    for (let p = 0; p < hands.length; p++) values[p] = rate(hands[p]!, full);
    for (let s = 0; s < sets.length; s++) {
      const set = sets[s]!;
      let best = -1;
      let winners = 0;
      for (const p of set) {
        const v = values[p]!;
        if (v > best) {
          best = v;
          winners = 1;
        } else if (v === best) winners++;
      }
      if (values[0] === best) sums[s]! += 1 / winners;
    }
    runouts++;
  };
  const pick = (from: number, depth: number) => {
    if (depth === need) {
      visit();
      return;
    }
    for (let i = from; i <= deck.length - (need - depth); i++) {
      full[board.length + depth] = deck[i]!;
      pick(i + 1, depth + 1);
    }
  };
  pick(0, 0);
  return {
    shares: sums.map((x) => x / runouts),
    standardErrors: sets.map(() => 0),
    runouts,
    method: "exact",
  };
}

/** Seeded Monte Carlo of the same (Omaha before the flop, beyond what `omahaEquity` takes). */
function sample(
  hands: readonly number[][],
  board: readonly number[],
  sets: readonly number[][],
  rate: (hand: readonly number[], board: readonly number[]) => number,
  samples: number,
): Shares {
  const used = new Set<number>([...board, ...hands.flat()]);
  const deck: number[] = [];
  for (let c = 0; c < 52; c++) if (!used.has(c)) deck.push(c);
  const random = seededRandom(SEED);
  const full = [...board, 0, 0, 0, 0, 0].slice(0, 5);
  const need = 5 - board.length;
  const values = new Array<number>(hands.length).fill(0);
  const sum = new Array<number>(sets.length).fill(0);
  const sumSq = new Array<number>(sets.length).fill(0);
  const work = [...deck];
  for (let n = 0; n < samples; n++) {
    // A partial Fisher-Yates shuffle draws `need` distinct cards.
    for (let d = 0; d < need; d++) {
      const j = d + Math.floor(random() * (work.length - d));
      const t = work[d]!;
      work[d] = work[j]!;
      work[j] = t;
      full[board.length + d] = work[d]!;
    }
    for (let p = 0; p < hands.length; p++) values[p] = rate(hands[p]!, full);
    for (let s = 0; s < sets.length; s++) {
      let best = -1;
      let winners = 0;
      for (const p of sets[s]!) {
        const v = values[p]!;
        if (v > best) {
          best = v;
          winners = 1;
        } else if (v === best) winners++;
      }
      const share = values[0] === best ? 1 / winners : 0;
      sum[s]! += share;
      sumSq[s]! += share * share;
    }
  }
  return {
    shares: sum.map((x) => x / samples),
    standardErrors: sum.map((x, s) => {
      const mean = x / samples;
      return Math.sqrt(Math.max(0, sumSq[s]! / samples - mean * mean) / samples);
    }),
    runouts: samples,
    method: "monte-carlo",
  };
}

const holdemRate = (h: readonly number[], b: readonly number[]): number =>
  evaluate7(b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, h[0]!, h[1]!);
const omahaRate = (h: readonly number[], b: readonly number[]): number => evaluateOmaha(h, b);

function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return Math.round(c);
}

/** The hero's share of each contender set: the method fitting the game, street and players. */
function sharesOf(
  variant: "holdem" | "omaha",
  hands: readonly number[][],
  board: readonly number[],
  sets: readonly number[][],
): Shares {
  if (variant === "holdem") {
    if (board.length === 0 && hands.length === 2 && sets.length === 1 && sets[0]!.length === 2) {
      const r = exactHeadsUpEquity(hands[0] as [number, number], hands[1] as [number, number]);
      return { shares: [r.equity], standardErrors: [0], runouts: r.boards, method: "exact" };
    }
    const left = 52 - board.length - hands.length * 2;
    if (choose(left, 5 - board.length) > EXACT_MAX_BOARDS) {
      return sample(hands, board, sets, holdemRate, HOLDEM_SAMPLES);
    }
    return enumerate(hands, board, sets, holdemRate);
  }
  if (board.length >= 3) return enumerate(hands, board, sets, omahaRate);
  if (board.length === 0 && hands.every((h) => h.length === 4) && sets.every((s) => s.length <= 3)) {
    const shares: number[] = [];
    const standardErrors: number[] = [];
    for (const set of sets) {
      if (set.length === 1) {
        shares.push(1);
        standardErrors.push(0);
        continue;
      }
      const r = omahaEquity({
        hero: { hand: hands[0]! },
        opponents: set.filter((p) => p !== 0).map((p) => ({ hand: hands[p]! })),
        samples: OMAHA_PREFLOP_SAMPLES,
        seed: SEED,
      });
      shares.push(r.shares[0]!);
      standardErrors.push(r.standardErrors[0]!);
    }
    return { shares, standardErrors, runouts: OMAHA_PREFLOP_SAMPLES, method: "monte-carlo" };
  }
  return sample(hands, board, sets, omahaRate, OMAHA_PREFLOP_SAMPLES);
}

/**
 * The all-in adjustment of the hero's result in a hand (see the module comment), or why there is none.
 * `budgetSpent`: the upload's equity time is spent, so an all-in that needs computing is left unadjusted
 * (with EQUITY_BUDGET_NOTE).
 */
export function allInAdjustment(hand: Hand, hero: string | null, budgetSpent = false): AllInResult {
  if (hero === null) return NONE;
  const folded = new Set<string>();
  let last: Street | null = null;
  for (const street of ["preflop", "flop", "turn", "river"] as const) {
    for (const a of hand.actions[street]) if (a.type === "fold") folded.add(a.player);
    if (hand.actions[street].length > 0) last = street;
  }
  const live = hand.players.filter((p) => p.dealtIn && !folded.has(p.name));
  const heroPlayer = live.find((p) => p.name === hero);
  if (!heroPlayer || live.length < 2 || last === null || last === "river") return NONE;
  const allIn = live.filter((p) => p.allIn);
  if (allIn.length === 0 || live.length - allIn.length > 1) return NONE;
  // The money is in before the river with no betting left: the run-out decides.
  if (hand.game.hiLo) {
    return {
      adjustment: null,
      note: "Hi/Lo split pot: the equity code rates high hands only, so it is not adjusted.",
    };
  }
  const known = BOARD_AT[last];
  const boardCards = hand.boards[0] ?? [];
  if (boardCards.length < known)
    return { adjustment: null, note: "The board at the all-in is not in the history." };
  const board = cardNumbers(boardCards.slice(0, known));
  const order = [heroPlayer, ...live.filter((p) => p !== heroPlayer)];
  const hands: number[][] = [];
  for (const p of order) {
    const cards = p.cards ? cardNumbers(p.cards) : null;
    if (!cards || cards.length !== hand.game.holeCards) {
      return {
        adjustment: null,
        note: `${p.name === hero ? "The hero's" : `${p.name}'s`} cards were not shown, so the all-in equity cannot be computed.`,
      };
    }
    hands.push(cards);
  }
  if (board === null) return { adjustment: null, note: "The board at the all-in is not readable." };
  const variant = hand.game.variant;
  if (variant === "holdem" && hand.game.holeCards !== 2) return NONE;
  // Contender sets: for each pot, the live players who can win it (hand 0 is the hero).
  const indexOf = new Map(order.map((p, i) => [p.name, i]));
  const pots = hand.pots.map((pot) => ({
    amount: pot.amount,
    set: pot.players
      .map((name) => indexOf.get(name))
      .filter((i): i is number => i !== undefined)
      .sort((a, b) => a - b),
  }));
  const contested = pots.filter((p) => p.set.includes(0));
  if (contested.length === 0) return NONE;
  const keys = [...new Set(contested.map((p) => p.set.join(",")))];
  const sets = keys.map((k) => k.split(",").map(Number));
  const multi = sets.filter((s) => s.length > 1);
  if (budgetSpent && multi.length > 0) return { adjustment: null, note: EQUITY_BUDGET_NOTE };
  const result =
    multi.length > 0
      ? sharesOf(variant, hands, board, multi)
      : { shares: [], standardErrors: [], runouts: 0, method: "exact" as const };
  const shareOf = new Map<string, { share: number; se: number }>();
  multi.forEach((s, i) => {
    shareOf.set(s.join(","), { share: result.shares[i]!, se: result.standardErrors[i]! });
  });
  const afterRake = hand.totalPot > 0 ? (hand.totalPot - hand.rake) / hand.totalPot : 1;
  let expected = 0;
  let weighted = 0;
  let amount = 0;
  let variance = 0;
  for (const pot of contested) {
    const s = pot.set.length === 1 ? { share: 1, se: 0 } : shareOf.get(pot.set.join(","))!;
    expected += s.share * pot.amount * afterRake;
    weighted += s.share * pot.amount;
    amount += pot.amount;
    variance += (s.se * pot.amount) ** 2;
  }
  const adjustedNet = expected - heroPlayer.invested;
  return {
    adjustment: {
      street: last,
      players: live.length,
      equity: round(weighted / amount, 6),
      adjustedNet: round(adjustedNet, 6),
      adjustedBb: round(adjustedNet / hand.stakes.bb, 4),
      method: result.method,
      standardError: round(Math.sqrt(variance) / amount, 6),
      runouts: result.runouts,
    },
    note: null,
  };
}
