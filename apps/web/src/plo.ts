/**
 * What the PLO view derives from a /node response: the classes of the 16,432 (suit-group notation, as in
 * @ranges/core), their categories by suit structure and by shape, each category's combos per action, and
 * the class list's search and sort. Every figure is a sum over the API's per-class frequencies times the
 * class's concrete hands (270,725 in all), the same weighting as the API's own `combos` per action.
 */

import { parsePloHand, ploClassComboCounts, ploClasses, RANK_CHARS } from "@ranges/core";
import type { Node } from "@ranges/schema";

/** A class's suit groups: ranks (chars, high to low) per suit; bare ranks are groups of one. */
export function ploGroups(name: string): string[][] {
  const groups: string[][] = [];
  for (const m of name.matchAll(/\(([2-9TJQKA]+)\)|([2-9TJQKA])/g)) {
    groups.push([...(m[1] ?? m[2]!)]);
  }
  return groups;
}

const rankValue = (r: string): number => RANK_CHARS.indexOf(r);

export interface Category {
  id: string;
  label: string;
  test: (groups: string[][]) => boolean;
}

const sizes = (g: string[][]): string =>
  g
    .map((x) => x.length)
    .sort((a, b) => b - a)
    .join("");

/** Suit structure: a partition of the classes. */
export const SUIT_CATEGORIES: Category[] = [
  { id: "ds", label: "Double-suited", test: (g) => sizes(g) === "22" },
  { id: "ss", label: "Single-suited", test: (g) => sizes(g) === "211" },
  { id: "rb", label: "Rainbow", test: (g) => sizes(g) === "1111" },
  { id: "three", label: "Three of a suit", test: (g) => sizes(g) === "31" },
  { id: "mono", label: "Monotone", test: (g) => sizes(g) === "4" },
];

/** Ranks of a class, high to low. */
const ranksOf = (g: string[][]): number[] =>
  g
    .flat()
    .map(rankValue)
    .sort((a, b) => b - a);

/**
 * Gaps of four distinct ranks as a rundown: the ranks spanned less four, with the ace also low (A-2-3-4
 * has none); null when ranks repeat.
 */
export function rundownGaps(g: string[][]): number | null {
  const r = ranksOf(g);
  if (new Set(r).size !== 4) return null;
  const span = r[0]! - r[3]! + 1 - 4;
  if (r[0] !== 12) return span;
  const low = [...r.slice(1), -1].sort((a, b) => b - a);
  return Math.min(span, low[0]! - low[3]! + 1 - 4);
}

const isBroadway = (g: string[][]): boolean => new Set(ranksOf(g)).size === 4 && ranksOf(g)[3]! >= 8;
const aces = (g: string[][]): number => ranksOf(g).filter((r) => r === 12).length;
const paired = (g: string[][]): boolean => new Set(ranksOf(g)).size < 4;

/** Shape: a partition of the classes (the first that fits, in this order). */
export const SHAPE_CATEGORIES: Category[] = [
  { id: "aa", label: "AAxx (two or more aces)", test: (g) => aces(g) >= 2 },
  { id: "pair", label: "Other pairs", test: (g) => aces(g) < 2 && paired(g) },
  { id: "broadway", label: "Broadway (four of T-A)", test: (g) => !paired(g) && isBroadway(g) },
  { id: "rd0", label: "Rundown, no gap", test: (g) => !isBroadway(g) && rundownGaps(g) === 0 },
  { id: "rd1", label: "Rundown, one gap", test: (g) => !isBroadway(g) && rundownGaps(g) === 1 },
  { id: "rd2", label: "Rundown, two gaps", test: (g) => !isBroadway(g) && rundownGaps(g) === 2 },
  {
    id: "other",
    label: "Other unpaired",
    test: (g) => !paired(g) && !isBroadway(g) && (rundownGaps(g) ?? 3) >= 3,
  },
];

/** Across shapes: an ace with another card of its suit. */
export const SUITED_ACE: Category = {
  id: "sa",
  label: "Suited ace (any shape)",
  test: (g) => g.some((x) => x.length > 1 && x.includes("A")),
};

export const ALL_CATEGORIES: Category[] = [...SUIT_CATEGORIES, ...SHAPE_CATEGORIES, SUITED_ACE];

export interface ClassRow {
  name: string;
  /** Position in the class table (strongest-looking first), the list's default order. */
  order: number;
  combos: number;
  /** Frequency per action (index as node.actions); omitted weights are 0. */
  freqs: number[];
  /** EV per action in the node's evUnit; undefined where the data has none. */
  evs: (number | undefined)[];
  /** Category ids the class is in. */
  cats: Set<string>;
}

/** One row per class of the node (all 16,432, in table order). */
export function classRows(node: Node): ClassRow[] {
  const names = ploClasses();
  const combos = ploClassComboCounts();
  return names.map((name, i) => {
    const g = ploGroups(name);
    const cats = new Set<string>();
    for (const c of ALL_CATEGORIES) if (c.test(g)) cats.add(c.id);
    return {
      name,
      order: i,
      combos: combos[i]!,
      freqs: node.actions.map((a) => a.weights[name] ?? 0),
      evs: node.actions.map((a) => a.evs[name]),
      cats,
    };
  });
}

export interface CategoryStat {
  id: string;
  label: string;
  /** Concrete hands in the category (of 270,725). */
  hands: number;
  /** Combos per action: the sum over its classes of frequency times hands. */
  combos: number[];
}

export function categoryStats(rows: ClassRow[], categories: Category[], actions: number): CategoryStat[] {
  return categories.map((c) => {
    const combos = new Array<number>(actions).fill(0);
    let hands = 0;
    for (const r of rows) {
      if (!r.cats.has(c.id)) continue;
      hands += r.combos;
      for (let i = 0; i < actions; i++) combos[i]! += r.freqs[i]! * r.combos;
    }
    return { id: c.id, label: c.label, hands, combos };
  });
}

/** A search: one exact class (a name in the spec's notation or four cards), a pattern, or an error. */
export type Search =
  | { kind: "all" }
  | { kind: "exact"; name: string }
  | { kind: "pattern"; groups: string[][]; loose: string[] }
  | { kind: "invalid"; message: string };

/**
 * Reads the search box: a class such as `(AK)(QJ)` or four cards such as `AsKsQhJh` name one class; else a
 * pattern of ranks (`x` for any rank) and parenthesised suited groups, e.g. `AAxx`, `(AK)`, `(Ax)KK`.
 */
export function parseSearch(text: string): Search {
  const t = text.replace(/\s+/g, "");
  if (t === "") return { kind: "all" };
  const exact = parsePloHand(t);
  if (exact !== null) return { kind: "exact", name: exact };
  const up = t.toUpperCase();
  if (!/^(\([2-9TJQKAX]{1,4}\)|[2-9TJQKAX])+$/.test(up)) {
    return {
      kind: "invalid",
      message: `"${text.trim()}" is not a class, four cards or a pattern: write (AK)(QJ), AsKsQhJh, AAxx or (AK).`,
    };
  }
  const groups: string[][] = [];
  const loose: string[] = [];
  for (const m of up.matchAll(/\(([2-9TJQKAX]+)\)|([2-9TJQKAX])/g)) {
    if (m[1] !== undefined) groups.push([...m[1]]);
    else loose.push(m[2]!);
  }
  if (groups.flat().length + loose.length > 4) {
    return { kind: "invalid", message: `"${text.trim()}" has more than four cards.` };
  }
  return { kind: "pattern", groups, loose };
}

/** Takes `want` (ranks, `X` any) out of `have`; the rest, or null when `have` lacks one. */
function take(have: string[], want: string[]): string[] | null {
  const rest = [...have];
  for (const w of [...want].sort((a, b) => (a === "X" ? 1 : 0) - (b === "X" ? 1 : 0))) {
    const i = w === "X" ? 0 : rest.indexOf(w);
    if (i < 0 || rest.length === 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

/** Whether a class matches a pattern: each group within its own suit group, loose ranks among the rest. */
export function matchesPattern(name: string, groups: string[][], loose: string[]): boolean {
  const cls = ploGroups(name);
  const fit = (gi: number, used: Set<number>, left: string[][]): boolean => {
    if (gi === groups.length) return take(left.flat(), loose) !== null;
    for (let k = 0; k < cls.length; k++) {
      if (used.has(k) || cls[k]!.length < 2) continue;
      const rest = take(cls[k]!, groups[gi]!);
      if (rest === null) continue;
      const next = left.map((g, j) => (j === k ? rest : g));
      if (fit(gi + 1, new Set([...used, k]), next)) return true;
    }
    return false;
  };
  return fit(0, new Set(), cls);
}

export type SortKey = "order" | "combos" | `freq:${number}` | `ev:${number}`;

/** Rows in the chosen order (stable: ties keep the class table's order); missing EVs sort last. */
export function sortRows(rows: ClassRow[], key: SortKey, descending: boolean): ClassRow[] {
  const value = (r: ClassRow): number | undefined => {
    if (key === "order") return r.order;
    if (key === "combos") return r.combos;
    const [kind, i] = key.split(":") as [string, string];
    return kind === "freq" ? r.freqs[Number(i)] : r.evs[Number(i)];
  };
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === undefined || y === undefined) {
      if (x === y) return a.order - b.order;
      return x === undefined ? 1 : -1;
    }
    return x === y ? a.order - b.order : sign * (x - y);
  });
}
