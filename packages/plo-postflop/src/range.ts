/**
 * Ranges of concrete four-card Omaha hands with weights, and boards.
 *
 * A range is given as a list of entries, each a concrete hand (`"AsKsQhJh"`), a PLO class in the notation of
 * `@ranges/core` (`"(AK)(QJ)"`, every concrete hand of the class) or either with a weight after a colon
 * (`"AsKsQhJh:0.5"`), or as an array of `{ cards, weight }`. Hands that touch the board are dropped (they
 * cannot be dealt); a hand listed twice keeps the last weight. Weights are in [0, 1]; zero-weight hands are
 * dropped.
 *
 * ```ts
 * parsePloRange("AsKsQhJh, (T9)(87):0.5", parsePloBoard("Kc8d5h")); // a flop; 4 or 5 cards: a turn, a river
 * ```
 */

import { formatCard, parseCards, ploClassNameOfCards } from "@ranges/core";
import { ploHandsOfClass } from "@ranges/solver";

/** One concrete hand of a range: its four cards ascending, its weight and its preflop class name. */
export interface PloCombo {
  readonly cards: readonly [number, number, number, number];
  readonly weight: number;
  /** The preflop class (`ploClassNameOfCards`), e.g. `(AK)(QJ)`. */
  readonly cls: string;
}

/** What a range may be given as. */
export type PloRangeInput =
  | string
  | readonly (string | { readonly cards: string; readonly weight: number })[];

/**
 * Parses a board of 3 (flop), 4 (turn) or 5 (river) distinct cards, e.g. `Kc8d5h`, `Kc8d5h2s`; spaces are
 * ignored. Throws a RangeError saying what is wrong: the count, a card that is not a card, a card twice.
 */
export function parsePloBoard(text: string): number[] {
  const compact = text.replace(/\s+/g, "");
  const n = compact.length / 2;
  if (n !== 3 && n !== 4 && n !== 5) {
    throw new RangeError(
      `board "${text}": give 3 (flop), 4 (turn) or 5 (river) distinct cards such as Kc8d5h, Kc8d5h2s`,
    );
  }
  const cards = parseCards(compact, n);
  if (cards) return cards;
  const seen = new Set<number>();
  for (let i = 0; i < compact.length; i += 2) {
    const one = parseCards(compact.slice(i, i + 2), 1);
    if (!one) throw new RangeError(`board "${text}": "${compact.slice(i, i + 2)}" is not a card such as Kc`);
    if (seen.has(one[0]!)) throw new RangeError(`board "${text}": ${compact.slice(i, i + 2)} appears twice`);
    seen.add(one[0]!);
  }
  throw new RangeError(`board "${text}" is not ${n} distinct cards such as Kc8d5h2s`);
}

/** A hand's key: its four cards ascending, formatted (`2c5d8hKs`). */
export function comboKey(cards: readonly number[]): string {
  return [...cards]
    .sort((a, b) => a - b)
    .map(formatCard)
    .join("");
}

function sorted4(cards: readonly number[]): [number, number, number, number] {
  const s = [...cards].sort((a, b) => a - b);
  return [s[0]!, s[1]!, s[2]!, s[3]!];
}

function parseEntry(entry: string): { hands: number[][]; weight: number } {
  const [body, w, extra] = entry.split(":");
  if (extra !== undefined || !body) throw new RangeError(`range entry "${entry}": write HAND or HAND:WEIGHT`);
  const weight = w === undefined ? 1 : Number(w);
  if (!Number.isFinite(weight) || weight < 0 || weight > 1) {
    throw new RangeError(`range entry "${entry}": the weight must be a number in [0, 1]`);
  }
  const cards = parseCards(body, 4);
  if (cards) return { hands: [cards], weight };
  try {
    return { hands: ploHandsOfClass(body), weight };
  } catch {
    throw new RangeError(
      `range entry "${entry}": not four distinct cards (AsKsQhJh) nor a PLO class ((AK)(QJ), AAKK, (T98)7)`,
    );
  }
}

/** Parses a range against a board (hands touching the board are dropped). Throws a RangeError naming the entry. */
export function parsePloRange(input: PloRangeInput, board: readonly number[]): PloCombo[] {
  const entries: { hands: number[][]; weight: number }[] = [];
  const list = typeof input === "string" ? input.split(",") : input;
  for (const raw of list) {
    if (typeof raw === "string") {
      const text = raw.trim();
      if (text) entries.push(parseEntry(text));
    } else {
      const parsed = parseEntry(raw.cards.trim());
      if (!Number.isFinite(raw.weight) || raw.weight < 0 || raw.weight > 1) {
        throw new RangeError(`range entry "${raw.cards}": the weight must be a number in [0, 1]`);
      }
      entries.push({ hands: parsed.hands, weight: raw.weight });
    }
  }
  const boardSet = new Set(board);
  const byKey = new Map<string, PloCombo>();
  for (const { hands, weight } of entries) {
    for (const hand of hands) {
      if (hand.some((c) => boardSet.has(c))) continue;
      const cards = sorted4(hand);
      byKey.set(comboKey(cards), { cards, weight, cls: ploClassNameOfCards(cards) });
    }
  }
  const out = [...byKey.values()].filter((c) => c.weight > 0);
  if (out.length === 0)
    throw new RangeError("the range has no hand that misses the board with a positive weight");
  return out;
}

/** Combos from already-parsed hands (used by the subsampling method; no checks beyond the board). */
export function combosOf(hands: readonly { cards: readonly number[]; weight: number }[]): PloCombo[] {
  return hands.map((h) => {
    const cards = sorted4(h.cards);
    return { cards, weight: h.weight, cls: ploClassNameOfCards(cards) };
  });
}
