/**
 * Hole cards: their class (hold'em 169, PLO 16,432 with @ranges/core's names), a canonical spelling for
 * matching, and the hand-class filter (`AKs`, `TT+`, `A2s-A5s`, `KQo,JJ`).
 */

import {
  formatCard,
  HOLDEM_CLASSES,
  holdemClassIndex,
  holdemClassOfCards,
  parseCard,
  parsePloHand,
  ploClassNameOfCards,
  RangesError,
} from "@ranges/core";

/** Cards as numbers (rank * 4 + suit); null when any is not a card. */
export function cardNumbers(cards: readonly string[]): number[] | null {
  const out: number[] = [];
  for (const c of cards) {
    const n = parseCard(c);
    if (n === null) return null;
    out.push(n);
  }
  return out;
}

/** The cards high to low (rank, then suit c d h s), as one string: `["Kd", "Ah"]` -> `AhKd`. */
export function canonicalCards(cards: readonly string[]): string | null {
  const numbers = cardNumbers(cards);
  if (numbers === null || new Set(numbers).size !== numbers.length) return null;
  return numbers
    .sort((a, b) => b - a)
    .map(formatCard)
    .join("");
}

/** The class of known hole cards: hold'em (2 cards) `AKo`, Omaha with 4 cards in suit-group notation; else null. */
export function classOfCards(cards: readonly string[] | null): string | null {
  if (!cards) return null;
  const numbers = cardNumbers(cards);
  if (numbers === null || new Set(numbers).size !== numbers.length) return null;
  if (numbers.length === 2) return HOLDEM_CLASSES[holdemClassOfCards(numbers[0]!, numbers[1]!)]!;
  if (numbers.length === 4) return ploClassNameOfCards(numbers);
  return null;
}

/** Cards written together or apart (`AhKd`, `Ah Kd`, `ah,kd`): canonical, or null when they are not cards. */
export function parseHoleCards(text: string): string | null {
  const compact = text.replace(/[\s,]+/g, "");
  if (compact.length % 2 !== 0 || compact.length < 4 || compact.length > 12) return null;
  const cards: string[] = [];
  for (let i = 0; i < compact.length; i += 2) {
    cards.push(compact[i]!.toUpperCase() + compact[i + 1]!.toLowerCase());
  }
  return canonicalCards(cards);
}

const RANKS = "23456789TJQKA";

/** Hold'em classes of one term: `AKs`, `TT+`, `ATs+`, `22-55`, `A2s-A5s`, `KQ` (suited and offsuit). */
function holdemTerm(term: string): string[] | null {
  const t = term.trim();
  const one = (name: string) => (holdemClassIndex(name) === undefined ? null : [name]);
  const m = /^([2-9TJQKA])([2-9TJQKA])([so])?(\+)?$/i.exec(t);
  if (m) {
    const hi = m[1]!.toUpperCase();
    const lo = m[2]!.toUpperCase();
    const kind = m[3]?.toLowerCase() ?? "";
    const plus = m[4] === "+";
    const hiR = RANKS.indexOf(hi);
    const loR = RANKS.indexOf(lo);
    if (hi === lo) {
      if (kind) return null;
      if (!plus) return [`${hi}${lo}`];
      return RANKS.slice(hiR)
        .split("")
        .map((r) => `${r}${r}`);
    }
    if (loR > hiR) return holdemTerm(`${lo}${hi}${kind}${plus ? "+" : ""}`);
    const kinds = kind ? [kind] : ["s", "o"];
    const kickers = plus ? RANKS.slice(loR, hiR).split("") : [lo];
    return kickers.flatMap((k) => kinds.map((s) => `${hi}${k}${s}`));
  }
  const range = /^([2-9TJQKA]{2}[so]?)-([2-9TJQKA]{2}[so]?)$/i.exec(t);
  if (range) {
    const a = range[1]!.toUpperCase().replace(/[SO]$/, (x) => x.toLowerCase());
    const b = range[2]!.toUpperCase().replace(/[SO]$/, (x) => x.toLowerCase());
    if (a[0] === a[1] && b[0] === b[1]) {
      const [x, y] = [RANKS.indexOf(a[0]!), RANKS.indexOf(b[0]!)].sort((p, q) => p - q);
      return RANKS.slice(x, y! + 1)
        .split("")
        .map((r) => `${r}${r}`);
    }
    if (a[0] !== b[0] || (a[2] ?? "") !== (b[2] ?? "") || a[0] === a[1] || b[0] === b[1]) return null;
    const [x, y] = [RANKS.indexOf(a[1]!), RANKS.indexOf(b[1]!)].sort((p, q) => p - q);
    if (y! >= RANKS.indexOf(a[0]!)) return null;
    const kinds = a[2] ? [a[2]] : ["s", "o"];
    return RANKS.slice(x, y! + 1)
      .split("")
      .flatMap((k) => kinds.map((s) => `${a[0]}${k}${s}`));
  }
  return one(t);
}

/**
 * The classes a hand-class filter names, for hold'em (comma-separated terms: `AKs`, `TT+`, `ATs+`, `KQ`,
 * `22-55`, `A2s-A5s`) or PLO (one class in suit-group notation, or four cards). Throws a 400 naming the term
 * it cannot read.
 */
export function expandClassFilter(text: string): string[] {
  const terms = text
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  if (terms.length === 0) {
    throw new RangesError("invalid_parameter", "handClass is empty: give classes such as AKs, TT+, A2s-A5s.");
  }
  const out = new Set<string>();
  for (const term of terms) {
    const holdem = holdemTerm(term);
    if (holdem) {
      for (const c of holdem) out.add(c);
      continue;
    }
    const plo = parsePloHand(term);
    if (plo) {
      out.add(plo);
      continue;
    }
    throw new RangesError(
      "invalid_parameter",
      `handClass term "${term.slice(0, 40)}" is not a hand class: hold'em AKs, AKo, QQ, TT+, ATs+, 22-55, A2s-A5s, KQ (both); PLO (AK)QJ-style or four cards.`,
      { parameter: "handClass" },
    );
  }
  return [...out];
}
