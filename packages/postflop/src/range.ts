/**
 * Hold'em ranges in the usual text notation, parsed to a weight per concrete combo.
 *
 * A range is a comma-separated list of items; each item names hands and may end in `:weight`, a number from 0
 * to 1 (default 1). Whitespace around items and around the colon is ignored. Ranks are `23456789TJQKA` (either
 * case); `s` means suited, `o` offsuit, no suffix both.
 *
 * | item          | hands                                                             |
 * | ------------- | ----------------------------------------------------------------- |
 * | `QQ`          | the 6 combos of queens                                            |
 * | `22+`         | every pair from 22 up to AA                                       |
 * | `99-22`       | pairs 99 down to 22 (`22-99` means the same)                      |
 * | `AKs`, `AKo`  | the 4 suited / 12 offsuit combos of ace-king                      |
 * | `AK`          | all 16 combos of ace-king                                         |
 * | `A2s+`        | A2s, A3s, ..., AKs: the second rank rises up to one below the first |
 * | `K8o+`, `T7+` | the same for offsuit, or both                                     |
 * | `AJs-A2s`     | AJs down to A2s: same first rank and suffix, second ranks between   |
 * | `AsKs`        | one concrete combo (`AhAd`, `7c6c`)                               |
 * | `AKs:0.5`     | any item with a weight                                            |
 *
 * Example: `"99-22,AJs-A2s,KQo-K8o,T9s-T6s,96s+,A5o-A2o,AKs:0.5,AsAh:0.25"`. When two items name the same combo
 * the later one wins (so `"AK,AKo:0.5"` keeps the suited combos at 1 and halves the offsuit ones). An empty
 * string is the empty range. Anything else (an unknown rank, `AAs`, `AKx`, `AK-QJ`, a weight outside 0..1, an
 * empty item, a card repeated in a combo) throws a `RangeParseError` naming the item.
 */

import { COMBO_COUNT, COMBO_HIGH_CARD, COMBO_LOW_CARD, COMBO_OF_CARDS } from "@ranges/solver/hands";

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

export class RangeParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RangeParseError";
  }
}

type Suitedness = "s" | "o" | "";

const rankOf = (ch: string): number => RANKS.indexOf(ch.toUpperCase());

/** The combos of ranks hi >= lo with the given suitedness (pairs ignore it). */
function classCombos(hi: number, lo: number, suited: Suitedness): number[] {
  const out: number[] = [];
  for (let s1 = 0; s1 < 4; s1++) {
    for (let s2 = 0; s2 < 4; s2++) {
      if (hi === lo) {
        if (s2 <= s1) continue;
      } else if ((suited === "s" && s1 !== s2) || (suited === "o" && s1 === s2)) continue;
      out.push(COMBO_OF_CARDS[(hi * 4 + s1) * 52 + lo * 4 + s2]!);
    }
  }
  return out;
}

interface ClassToken {
  hi: number;
  lo: number;
  suited: Suitedness;
}

/** `AKs`, `QQ`, `T9`: two ranks and an optional suffix, or null. */
function parseClassToken(text: string): ClassToken | null {
  const match = /^([2-9TJQKAtjqka])([2-9TJQKAtjqka])([so]?)$/.exec(text);
  if (!match) return null;
  let hi = rankOf(match[1]!);
  let lo = rankOf(match[2]!);
  if (lo > hi) [hi, lo] = [lo, hi];
  const suited = match[3] as Suitedness;
  if (hi === lo && suited !== "") return null;
  return { hi, lo, suited };
}

function parseComboToken(text: string): number | null {
  const match = /^([2-9TJQKAtjqka])([cdhs])([2-9TJQKAtjqka])([cdhs])$/.exec(text);
  if (!match) return null;
  const a = rankOf(match[1]!) * 4 + SUITS.indexOf(match[2]!);
  const b = rankOf(match[3]!) * 4 + SUITS.indexOf(match[4]!);
  if (a === b) return null;
  return COMBO_OF_CARDS[a * 52 + b]!;
}

/** The combos named by one item without its weight. */
function itemCombos(body: string, item: string): number[] {
  const combo = parseComboToken(body);
  if (combo !== null) return [combo];
  const fail = (why: string): never => {
    throw new RangeParseError(`range item "${item}": ${why}`);
  };
  if (body.endsWith("+")) {
    const token = parseClassToken(body.slice(0, -1));
    if (!token) return fail("expected a hand class before '+', like 22+ or A2s+");
    const out: number[] = [];
    if (token.hi === token.lo) {
      for (let r = token.hi; r < 13; r++) out.push(...classCombos(r, r, ""));
    } else {
      for (let lo = token.lo; lo < token.hi; lo++) out.push(...classCombos(token.hi, lo, token.suited));
    }
    return out;
  }
  const dash = body.indexOf("-");
  if (dash >= 0) {
    const from = parseClassToken(body.slice(0, dash));
    const to = parseClassToken(body.slice(dash + 1));
    if (!from || !to) return fail("both ends of a span must be hand classes, like 99-22 or AJs-A2s");
    const out: number[] = [];
    if (from.hi === from.lo || to.hi === to.lo) {
      if (from.hi !== from.lo || to.hi !== to.lo) return fail("a span of pairs must have pairs at both ends");
      const [a, b] = from.hi < to.hi ? [from.hi, to.hi] : [to.hi, from.hi];
      for (let r = a; r <= b; r++) out.push(...classCombos(r, r, ""));
      return out;
    }
    if (from.hi !== to.hi) return fail("both ends of a span must have the same first rank (AJs-A2s)");
    if (from.suited !== to.suited) return fail("both ends of a span must have the same suffix");
    const [a, b] = from.lo < to.lo ? [from.lo, to.lo] : [to.lo, from.lo];
    for (let lo = a; lo <= b; lo++) out.push(...classCombos(from.hi, lo, from.suited));
    return out;
  }
  const token = parseClassToken(body);
  if (!token) return fail("not a hand class (AKs, QQ, T9), a span (99-22) or a combo (AsKs)");
  return classCombos(token.hi, token.lo, token.suited);
}

/**
 * Parses a range (grammar above) to a weight per combo, indexed like `@ranges/solver`'s combo tables
 * (`COMBO_OF_CARDS[low * 52 + high]`).
 */
export function parseRange(text: string): Float64Array {
  const weights = new Float64Array(COMBO_COUNT);
  if (text.trim() === "") return weights;
  for (const raw of text.split(",")) {
    const item = raw.trim();
    if (item === "") throw new RangeParseError(`empty item in range "${text}"`);
    const colon = item.indexOf(":");
    let weight = 1;
    let body = item;
    if (colon >= 0) {
      body = item.slice(0, colon).trim();
      const w = item.slice(colon + 1).trim();
      if (!/^(\d+(\.\d*)?|\.\d+)$/.test(w)) {
        throw new RangeParseError(`range item "${item}": the weight "${w}" is not a number`);
      }
      weight = Number(w);
      if (weight > 1) throw new RangeParseError(`range item "${item}": the weight ${w} is above 1`);
    }
    for (const combo of itemCombos(body, item)) weights[combo] = weight;
  }
  return weights;
}

/** Combo text, high card first (`AsKs`, `Td9d`). */
export function comboName(combo: number): string {
  const hi = COMBO_HIGH_CARD[combo]!;
  const lo = COMBO_LOW_CARD[combo]!;
  return RANKS[hi >> 2]! + SUITS[hi & 3]! + RANKS[lo >> 2]! + SUITS[lo & 3]!;
}

/** The number of combos with a positive weight, and the weighted count. */
export function rangeSize(weights: ArrayLike<number>): { combos: number; weighted: number } {
  let combos = 0;
  let weighted = 0;
  for (let i = 0; i < weights.length; i++) {
    if (weights[i]! > 0) {
      combos++;
      weighted += weights[i]!;
    }
  }
  return { combos, weighted };
}
