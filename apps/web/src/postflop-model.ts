/**
 * What the board browser derives from the postflop API's answers: who acts at each step of a path (the
 * heads-up order: out of position first on every street), which request gives the other player's range at a
 * node, combos summed per hand class for the 13x13 grid, the cards, and the page's URL.
 */

import type { PfActionView, PfCombo } from "./postflop-api.js";
import { RANKS } from "./ranges.js";

export interface PfView {
  pack: string;
  board: string;
  path: string[];
}

/** `/postflop?pack=...&board=...&path=...` (the path's steps comma-joined, as the API takes them). */
export function postflopUrl(v: PfView): string {
  const q = new URLSearchParams({ pack: v.pack, board: v.board, path: v.path.join(",") });
  return `/postflop?${q.toString().replace(/%2C/g, ",").replace(/\+/g, "%20")}`;
}

export const isCard = (step: string): boolean => /^[2-9TJQKA][cdhs]$/i.test(step);

/** Cards of a board string (`AsQh6d` -> [As, Qh, 6d]). */
export const boardCards = (board: string): string[] => board.match(/../g) ?? [];

export const SUITS = "shdc";
export const ALL_CARDS: string[] = [...SUITS].flatMap((s) => [...RANKS].map((r) => `${r}${s}`));

/** Who takes each step: `oop`, `ip`, or `card` for a dealt card (after which OOP acts first again). */
export function stepActors(path: readonly string[]): ("oop" | "ip" | "card")[] {
  let next: "oop" | "ip" = "oop";
  return path.map((s) => {
    if (isCard(s)) {
      next = "oop";
      return "card";
    }
    const who = next;
    next = next === "oop" ? "ip" : "oop";
    return who;
  });
}

/**
 * The /range request that gives the player not to act its weights at a node: at the last node where that
 * player acted, the combos that took its action there (weightAfter), less those holding a card dealt since.
 * A player that has not acted yet (out of position to act first on the flop) has its whole range as its
 * reach at the next node: the request is then the node after the actor's first action, as it stands.
 */
export function otherRangeRequest(
  path: readonly string[],
  actor: "oop" | "ip",
  firstAction: string,
): { path: string[]; action: string | null; dealtSince: string[] } {
  const other = actor === "oop" ? "ip" : "oop";
  const who = stepActors(path);
  for (let j = path.length - 1; j >= 0; j--) {
    if (who[j] === other) {
      return { path: path.slice(0, j), action: path[j]!, dealtSince: path.slice(j + 1).filter(isCard) };
    }
  }
  return { path: [...path, firstAction], action: null, dealtSince: [] };
}

/** A combo's hold'em class: `AhKd` -> `AKo`, `QsQc` -> `QQ`. */
export function comboClass(combo: string): string {
  const [a, s1, b, s2] = [combo[0]!, combo[1]!, combo[2]!, combo[3]!];
  const [hi, lo] = RANKS.indexOf(a) <= RANKS.indexOf(b) ? [a, b] : [b, a];
  return hi === lo ? `${hi}${lo}` : `${hi}${lo}${s1 === s2 ? "s" : "o"}`;
}

/** A combo's weight in its range: after the action when the range is one action's, else its reach. */
export const comboWeight = (c: PfCombo): number => c.weightAfter ?? c.reach;

/** Combos summed per class (combos holding one of `dead` left out). */
export function classWeights(combos: readonly PfCombo[], dead: readonly string[] = []): Map<string, number> {
  const out = new Map<string, number>();
  const deadLower = dead.map((d) => d.toLowerCase());
  for (const c of combos) {
    const cards = [c.combo.slice(0, 2).toLowerCase(), c.combo.slice(2, 4).toLowerCase()];
    if (cards.some((x) => deadLower.includes(x))) continue;
    const k = comboClass(c.combo);
    out.set(k, (out.get(k) ?? 0) + comboWeight(c));
  }
  return out;
}

/** Whether an action ends its street's betting: a call, or the second check (in position). */
export const closesStreet = (a: PfActionView, actor: "oop" | "ip"): boolean =>
  a.kind === "call" || (a.kind === "check" && actor === "ip");

export const nextStreet = (street: string): string | null =>
  street === "flop" ? "turn" : street === "turn" ? "river" : null;

/** The solved flops an `unsupported` answer names as nearest (from its reason, as the API writes it). */
export function nearestBoards(reason: string): string[] {
  const m = /Nearest solved boards: ([^.]+)\./.exec(reason);
  return m ? m[1]!.split(",").map((s) => s.trim()) : [];
}

const RAISES = ["#eea236", "#d9443c", "#8f46b0", "#c2417e", "#5d3fa6"];

/** One colour per action: check and call green, fold blue, bets and raises amber to red, all-in deep red. */
export function pfColours(actions: readonly PfActionView[]): string[] {
  let r = 0;
  return actions.map((a) => {
    if (a.kind === "fold") return "#4a7bd0";
    if (a.kind === "check" || a.kind === "call") return "#3e9b5c";
    if (a.kind === "allin") return "#6b1a2a";
    return RAISES[Math.min(r++, RAISES.length - 1)]!;
  });
}
