/**
 * Pot-limit Omaha all-in equity (four-card hands, five-card boards), with exact card removal.
 *
 * - `exactOmahaEquity(a, b)`: two concrete hands over every one of the C(44, 5) = 1,086,008 boards (a
 *   reference: about a second).
 * - `omahaEquity({ hero, opponents, samples, seed })`: Monte Carlo. The hero is a concrete hand or a class;
 *   each opponent is a random hand or a range of class weights. A sample deals the hero a hand of its class,
 *   each opponent a hand from its range, then a board, all from one deck, so every card-removal effect between
 *   the players and the board is exact; hands drawn into a conflict are redrawn (rejection), which samples
 *   exactly the range restricted to what the dead cards allow. The answer is the hero's share of the pot
 *   (ties split) with its standard error, sqrt(variance / samples), and the same for every opponent; the
 *   shares sum to 1.
 *
 * Classes are those of `@ranges/core` (`ploClasses()`: 16,432 suit-isomorphism classes); a class's concrete
 * hands are all equally likely.
 */

import { PLO_CLASS_COUNT, ploClasses, ploClassIndex, ploClassNameOfCards, seededRandom } from "@ranges/core";
import { evaluate5 } from "../eval/evaluator.js";

/** Concrete hands of every class: `cards[4 * i ..]` for i in [start[c], start[c + 1]). */
interface ClassHands {
  readonly start: Int32Array;
  readonly cards: Uint8Array;
}

let classHands: ClassHands | undefined;

/** All 270,725 four-card hands grouped by class (built once, about 0.2 s). */
function allClassHands(): ClassHands {
  if (classHands) return classHands;
  const names = ploClasses();
  const index = new Map(names.map((n, i) => [n, i]));
  const byClass: number[][] = Array.from({ length: PLO_CLASS_COUNT }, () => []);
  const hand = [0, 0, 0, 0];
  for (let a = 0; a < 52; a++)
    for (let b = a + 1; b < 52; b++)
      for (let c = b + 1; c < 52; c++)
        for (let d = c + 1; d < 52; d++) {
          hand[0] = a;
          hand[1] = b;
          hand[2] = c;
          hand[3] = d;
          byClass[index.get(ploClassNameOfCards(hand))!]!.push(a, b, c, d);
        }
  const start = new Int32Array(PLO_CLASS_COUNT + 1);
  for (let c = 0; c < PLO_CLASS_COUNT; c++) start[c + 1] = start[c]! + byClass[c]!.length / 4;
  const cards = new Uint8Array(start[PLO_CLASS_COUNT]! * 4);
  for (let c = 0; c < PLO_CLASS_COUNT; c++) cards.set(byClass[c]!, start[c]! * 4);
  classHands = { start, cards };
  return classHands;
}

/** The concrete hands of a class (by index or canonical name), four cards each. */
export function ploHandsOfClass(cls: number | string): number[][] {
  const index = typeof cls === "number" ? cls : ploClassIndex(cls);
  if (index === undefined || !Number.isInteger(index) || index < 0 || index >= PLO_CLASS_COUNT) {
    throw new RangeError(`unknown PLO class ${String(cls)}`);
  }
  const { start, cards } = allClassHands();
  const out: number[][] = [];
  for (let h = start[index]!; h < start[index + 1]!; h++)
    out.push(Array.from(cards.subarray(4 * h, 4 * h + 4)));
  return out;
}

/** The best Omaha hand of four hole cards on five board cards (no checks: the hot path). */
function omaha(h: ArrayLike<number>, b: ArrayLike<number>): number {
  let best = -1;
  for (let i = 0; i < 4; i++) {
    for (let j = i + 1; j < 4; j++) {
      const x = h[i]!;
      const y = h[j]!;
      for (let p = 0; p < 5; p++)
        for (let q = p + 1; q < 5; q++)
          for (let r = q + 1; r < 5; r++) {
            const v = evaluate5(x, y, b[p]!, b[q]!, b[r]!);
            if (v > best) best = v;
          }
    }
  }
  return best;
}

function distinct(cards: readonly number[], what: string): void {
  const seen = new Set<number>();
  for (const c of cards) {
    if (!Number.isInteger(c) || c < 0 || c > 51) throw new RangeError(`${what}: card ${c} is not 0..51`);
    if (seen.has(c)) throw new RangeError(`${what}: card ${c} appears twice`);
    seen.add(c);
  }
}

export interface ExactEquity {
  /** The first hand's share of the pot (wins plus half the ties). */
  readonly equity: number;
  readonly win: number;
  readonly tie: number;
  readonly boards: number;
}

/** Two concrete four-card hands over every five-card board of the 44 cards left. */
export function exactOmahaEquity(a: readonly number[], b: readonly number[]): ExactEquity {
  if (a.length !== 4 || b.length !== 4) throw new RangeError("exactOmahaEquity takes two four-card hands");
  distinct([...a, ...b], "exactOmahaEquity");
  const rest: number[] = [];
  for (let c = 0; c < 52; c++) if (!a.includes(c) && !b.includes(c)) rest.push(c);
  let win = 0;
  let tie = 0;
  let boards = 0;
  const board = [0, 0, 0, 0, 0];
  const n = rest.length;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (let k = j + 1; k < n; k++)
        for (let l = k + 1; l < n; l++)
          for (let m = l + 1; m < n; m++) {
            board[0] = rest[i]!;
            board[1] = rest[j]!;
            board[2] = rest[k]!;
            board[3] = rest[l]!;
            board[4] = rest[m]!;
            const va = omaha(a, board);
            const vb = omaha(b, board);
            if (va > vb) win++;
            else if (va === vb) tie++;
            boards++;
          }
  return { equity: (win + tie / 2) / boards, win: win / boards, tie: tie / boards, boards };
}

/** A player in a Monte Carlo equity run. */
export type OmahaPlayer =
  /** Four concrete cards. */
  | { readonly hand: readonly number[] }
  /** One class (index or canonical name): each sample deals one of its hands, uniformly. */
  | { readonly class: number | string }
  /** A range: a weight per class (16,432, table order), each class's hands equally likely. */
  | { readonly weights: ArrayLike<number> }
  /** Any four cards. */
  | { readonly random: true };

export interface OmahaEquityOptions {
  readonly hero: OmahaPlayer;
  /** One or two opponents (heads-up or three-way). */
  readonly opponents: readonly OmahaPlayer[];
  /** Boards to deal (default 100,000). */
  readonly samples?: number;
  /** Seed of the deterministic generator (default 1). */
  readonly seed?: number;
}

export interface OmahaEquityResult {
  /** Pot share of the hero, then of each opponent: wins plus split ties; they sum to 1. */
  readonly shares: readonly number[];
  /** Standard error of each share: sqrt(sample variance / samples). */
  readonly standardErrors: readonly number[];
  readonly samples: number;
  /** Deals redrawn because a hand conflicted with cards already dealt (a measure of card removal). */
  readonly redraws: number;
}

/** A sampler of one player's hand: writes four cards into `out` (conflicts are the caller's to check). */
type Dealer = (random: () => number, out: number[]) => void;

function dealerOf(player: OmahaPlayer, what: string): Dealer {
  if ("hand" in player) {
    if (player.hand.length !== 4) throw new RangeError(`${what}: a hand has four cards`);
    distinct([...player.hand], what);
    const h = [...player.hand];
    return (_r, out) => {
      out[0] = h[0]!;
      out[1] = h[1]!;
      out[2] = h[2]!;
      out[3] = h[3]!;
    };
  }
  if ("random" in player) {
    return (random, out) => {
      for (let i = 0; i < 4; i++) {
        let c = Math.floor(random() * 52);
        while ((i > 0 && out[0] === c) || (i > 1 && out[1] === c) || (i > 2 && out[2] === c)) {
          c = Math.floor(random() * 52);
        }
        out[i] = c;
      }
    };
  }
  const { start, cards } = allClassHands();
  if ("class" in player) {
    const index = typeof player.class === "number" ? player.class : ploClassIndex(player.class);
    if (index === undefined || !Number.isInteger(index) || index < 0 || index >= PLO_CLASS_COUNT) {
      throw new RangeError(`${what}: unknown PLO class ${String(player.class)}`);
    }
    const first = start[index]!;
    const count = start[index + 1]! - first;
    return (random, out) => {
      const h = 4 * (first + Math.floor(random() * count));
      out[0] = cards[h]!;
      out[1] = cards[h + 1]!;
      out[2] = cards[h + 2]!;
      out[3] = cards[h + 3]!;
    };
  }
  const w = player.weights;
  if (w.length !== PLO_CLASS_COUNT) throw new RangeError(`${what}: a range has ${PLO_CLASS_COUNT} weights`);
  // Cumulative weight over concrete hands: a class weighs its weight times its hand count.
  const cumulative = new Float64Array(PLO_CLASS_COUNT);
  let total = 0;
  for (let c = 0; c < PLO_CLASS_COUNT; c++) {
    const x = w[c]!;
    if (!(x >= 0) || !Number.isFinite(x))
      throw new RangeError(`${what}: weight ${c} is not a finite number >= 0`);
    total += x * (start[c + 1]! - start[c]!);
    cumulative[c] = total;
  }
  if (total <= 0) throw new RangeError(`${what}: the range is empty`);
  return (random, out) => {
    const target = random() * total;
    let lo = 0;
    let hi = PLO_CLASS_COUNT - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    const first = start[lo]!;
    const h = 4 * (first + Math.floor(random() * (start[lo + 1]! - first)));
    out[0] = cards[h]!;
    out[1] = cards[h + 1]!;
    out[2] = cards[h + 2]!;
    out[3] = cards[h + 3]!;
  };
}

/** Redraws allowed for one player before the run gives up (the ranges cannot coexist with the dead cards). */
const MAX_REDRAWS = 10_000;

/** Monte Carlo all-in equity of the hero against one or two opponents (see the module comment). */
export function omahaEquity(o: OmahaEquityOptions): OmahaEquityResult {
  const samples = o.samples ?? 100_000;
  if (!Number.isInteger(samples) || samples < 2) throw new RangeError("samples must be an integer >= 2");
  if (o.opponents.length < 1 || o.opponents.length > 2) throw new RangeError("one or two opponents");
  const dealers = [dealerOf(o.hero, "hero"), ...o.opponents.map((p, i) => dealerOf(p, `opponent ${i + 1}`))];
  const players = dealers.length;
  const random = seededRandom(o.seed ?? 1);
  const hands = dealers.map(() => [0, 0, 0, 0]);
  const board = [0, 0, 0, 0, 0];
  const used = new Uint8Array(52);
  const sum = new Float64Array(players);
  const sumSq = new Float64Array(players);
  const values = new Int32Array(players);
  let redraws = 0;
  for (let s = 0; s < samples; s++) {
    used.fill(0);
    for (let p = 0; p < players; p++) {
      const hand = hands[p]!;
      let tries = 0;
      for (;;) {
        dealers[p]!(random, hand);
        if (!used[hand[0]!] && !used[hand[1]!] && !used[hand[2]!] && !used[hand[3]!]) break;
        redraws++;
        if (++tries > MAX_REDRAWS) {
          throw new RangeError(`player ${p + 1}'s range has no hand compatible with the cards already dealt`);
        }
      }
      for (const c of hand) used[c] = 1;
    }
    for (let i = 0; i < 5; i++) {
      let c: number;
      do c = Math.floor(random() * 52);
      while (used[c]);
      used[c] = 1;
      board[i] = c;
    }
    let best = -1;
    let winners = 0;
    for (let p = 0; p < players; p++) {
      const v = omaha(hands[p]!, board);
      values[p] = v;
      if (v > best) {
        best = v;
        winners = 1;
      } else if (v === best) winners++;
    }
    for (let p = 0; p < players; p++) {
      const share = values[p] === best ? 1 / winners : 0;
      sum[p] = sum[p]! + share;
      sumSq[p] = sumSq[p]! + share * share;
    }
  }
  const shares = Array.from(sum, (x) => x / samples);
  const standardErrors = shares.map((mean, p) => {
    const variance = (sumSq[p]! / samples - mean * mean) * (samples / (samples - 1));
    return Math.sqrt(Math.max(0, variance) / samples);
  });
  return { shares, standardErrors, samples, redraws };
}
