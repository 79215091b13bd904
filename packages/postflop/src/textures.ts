/**
 * Board textures, the 1,755 strategically distinct flops, and the representative flops the postflop packs
 * solve.
 *
 * Two flops are strategically the same when a permutation of the suits maps one onto the other (the preflop
 * ranges are suit-symmetric, so every strategy maps across with the suits swapped): the 22,100 flops fall into
 * 1,755 such classes. `canonicalFlops()` enumerates them with their weights (how many of the 22,100 flops each
 * stands for).
 *
 * Texture classes (any board of 3 to 5 cards; the filters of `get_board_report`):
 *
 * | field           | values                                                                              |
 * | --------------- | ----------------------------------------------------------------------------------- |
 * | `pairedness`    | `unpaired` (all ranks differ), `paired` (a rank twice, or two pairs), `trips` (a rank three or more times) |
 * | `suitTexture`   | `rainbow` (no two cards of a suit), `two-tone` (at most two of a suit), `monotone` (three or more of a suit) |
 * | `connectivity`  | `connected` (three distinct ranks fit in five consecutive ranks, ace also low: a straight is possible), `semi-connected` (two do), `disconnected` (none do) |
 * | `highCardClass` | `ace-high`, `king-high`, `broadway` (queen or jack high), `middle` (ten to eight high), `low` (seven high or lower) |
 *
 * Representative flops (`representativeFlops`): the flops are split by pairedness and suit texture into six
 * strata (unpaired rainbow, unpaired two-tone, monotone, paired rainbow, paired two-tone, trips); each stratum
 * gets at least one flop and the rest of the count in proportion to its share of the 22,100 flops (largest
 * remainders). Inside a stratum the quota is spread the same way over high-card class and connectivity, and
 * each cell's pick is its member closest to the cell's weighted mean ranks. Then every one of the 1,755 flops is
 * represented by its nearest pick of the same stratum (`boardDistance`), and a pick's weight is the share of
 * the 22,100 flops it represents: the weights sum to 1.
 */

import { type Card, cardRank, cardSuit, formatCard, parseCard, RANK_CHARS } from "@ranges/core";

export type Pairedness = "unpaired" | "paired" | "trips";
export type SuitTexture = "rainbow" | "two-tone" | "monotone";
export type Connectivity = "connected" | "semi-connected" | "disconnected";
export type HighCardClass = "ace-high" | "king-high" | "broadway" | "middle" | "low";

export interface BoardTexture {
  readonly pairedness: Pairedness;
  readonly suitTexture: SuitTexture;
  readonly connectivity: Connectivity;
  readonly highCardClass: HighCardClass;
}

/** The values of each texture filter, in a fixed order. */
export const TEXTURE_VALUES = {
  pairedness: ["unpaired", "paired", "trips"],
  suitTexture: ["rainbow", "two-tone", "monotone"],
  connectivity: ["connected", "semi-connected", "disconnected"],
  highCardClass: ["ace-high", "king-high", "broadway", "middle", "low"],
} as const satisfies { readonly [K in keyof BoardTexture]: readonly BoardTexture[K][] };

/** Parses a board of 3 to 5 distinct cards (`"QsJh2h"`, spaces or commas allowed); null when it is not one. */
export function parseBoard(text: string): Card[] | null {
  const t = text.replace(/[\s,]+/g, "");
  if (t.length < 6 || t.length > 10 || t.length % 2 !== 0) return null;
  const cards: Card[] = [];
  for (let i = 0; i < t.length; i += 2) {
    const card = parseCard(t.slice(i, i + 2));
    if (card === null || cards.includes(card)) return null;
    cards.push(card);
  }
  return cards;
}

/** Cards high to low (ties: suits in s, h, d, c order), written together: `QsJh2h`. */
export function formatBoard(cards: readonly Card[]): string {
  return [...cards]
    .sort((a, b) => cardRank(b) - cardRank(a) || cardSuit(b) - cardSuit(a))
    .map(formatCard)
    .join("");
}

export function boardTexture(cards: readonly Card[]): BoardTexture {
  const counts = new Map<number, number>();
  const suits = [0, 0, 0, 0];
  for (const c of cards) {
    counts.set(cardRank(c), (counts.get(cardRank(c)) ?? 0) + 1);
    suits[cardSuit(c)]!++;
  }
  const most = Math.max(...counts.values());
  const pairedness: Pairedness = most >= 3 ? "trips" : most === 2 ? "paired" : "unpaired";
  const flush = Math.max(...suits);
  const suitTexture: SuitTexture = flush >= 3 ? "monotone" : flush === 2 ? "two-tone" : "rainbow";
  const ranks = [...counts.keys()];
  // Straight windows: five consecutive ranks, the ace also below the deuce (A2345).
  let best = 0;
  for (let low = -1; low <= 8; low++) {
    let inWindow = 0;
    for (const r of ranks) {
      const rr = r === 12 && low === -1 ? -1 : r;
      if (rr >= low && rr <= low + 4) inWindow++;
    }
    best = Math.max(best, inWindow);
  }
  const connectivity: Connectivity = best >= 3 ? "connected" : best === 2 ? "semi-connected" : "disconnected";
  const high = Math.max(...ranks);
  const highCardClass: HighCardClass =
    high === 12
      ? "ace-high"
      : high === 11
        ? "king-high"
        : high >= 9
          ? "broadway"
          : high >= 6
            ? "middle"
            : "low";
  return { pairedness, suitTexture, connectivity, highCardClass };
}

/** All 24 permutations of the four suits. */
export const SUIT_PERMUTATIONS: readonly (readonly number[])[] = (() => {
  const out: number[][] = [];
  const rec = (prefix: number[]) => {
    if (prefix.length === 4) {
      out.push(prefix);
      return;
    }
    for (let s = 0; s < 4; s++) if (!prefix.includes(s)) rec([...prefix, s]);
  };
  rec([]);
  return out;
})();

export const permuteCard = (card: Card, perm: readonly number[]): Card => (card & ~3) | perm[card & 3]!;

/**
 * The canonical text of a board's suit-isomorphism class: of the 24 suit permutations of the board, the one
 * whose `formatBoard` text is smallest when suits rank s < h < d < c (so a flop reads `QsJh2h`, `AsKsQs`).
 * Two boards are strategically the same exactly when their canonical texts are equal.
 */
export function canonicalBoard(cards: readonly Card[]): string {
  let best: string | null = null;
  for (const perm of SUIT_PERMUTATIONS) {
    const text = formatBoard(cards.map((c) => permuteCard(c, perm)));
    const key = sortKey(text);
    if (best === null || key < sortKey(best)) best = text;
  }
  return best!;
}

const SUIT_ORDER: Record<string, string> = { s: "0", h: "1", d: "2", c: "3" };
const sortKey = (text: string): string => text.replace(/[shdc]/g, (s) => SUIT_ORDER[s]!);

/**
 * The suit permutation that maps `from` onto `to` (the same cards in any order), or null when the boards are
 * not suit-isomorphic. `perm[s]` is the suit that suit `s` of `from` becomes.
 */
export function suitMapping(from: readonly Card[], to: readonly Card[]): readonly number[] | null {
  if (from.length !== to.length) return null;
  const target = new Set(to);
  for (const perm of SUIT_PERMUTATIONS) {
    if (from.every((c) => target.has(permuteCard(c, perm)))) return perm;
  }
  return null;
}

export interface FlopClass {
  /** Canonical text (`canonicalBoard`). */
  readonly board: string;
  readonly cards: readonly Card[];
  /** How many of the 22,100 flops the class stands for (its suit permutations that differ). */
  readonly count: number;
  readonly texture: BoardTexture;
}

let flopMemo: FlopClass[] | null = null;

/** The 1,755 strategically distinct flops, sorted by canonical text order (high ranks first). */
export function canonicalFlops(): readonly FlopClass[] {
  if (flopMemo) return flopMemo;
  const classes = new Map<string, { cards: Card[]; count: number }>();
  for (let a = 0; a < 52; a++) {
    for (let b = a + 1; b < 52; b++) {
      for (let c = b + 1; c < 52; c++) {
        const key = canonicalBoard([a, b, c]);
        const known = classes.get(key);
        if (known) known.count++;
        else classes.set(key, { cards: parseBoard(key)!, count: 1 });
      }
    }
  }
  flopMemo = [...classes.entries()]
    .map(([board, x]) => ({ board, cards: x.cards, count: x.count, texture: boardTexture(x.cards) }))
    .sort((x, y) => rankVectorCompare(x.cards, y.cards) || (sortKey(x.board) < sortKey(y.board) ? -1 : 1));
  return flopMemo;
}

const ranksDesc = (cards: readonly Card[]): number[] => cards.map(cardRank).sort((a, b) => b - a);

function rankVectorCompare(a: readonly Card[], b: readonly Card[]): number {
  const ra = ranksDesc(a);
  const rb = ranksDesc(b);
  for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return rb[i]! - ra[i]!;
  return 0;
}

/**
 * How far apart two boards of the same size are strategically (smaller is nearer): the sum of the rank
 * differences of their cards sorted high to low, plus 6 when pairedness differs, 4 when suit texture differs
 * and 2 when connectivity differs. Boards of different sizes are infinitely far apart.
 */
export function boardDistance(a: readonly Card[], b: readonly Card[]): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  const ra = ranksDesc(a);
  const rb = ranksDesc(b);
  let d = 0;
  for (let i = 0; i < ra.length; i++) d += Math.abs(ra[i]! - rb[i]!);
  const ta = boardTexture(a);
  const tb = boardTexture(b);
  if (ta.pairedness !== tb.pairedness) d += 6;
  if (ta.suitTexture !== tb.suitTexture) d += 4;
  if (ta.connectivity !== tb.connectivity) d += 2;
  return d;
}

/** The six strata of the flop selection: pairedness and suit texture (paired boards cannot be monotone). */
export type FlopStratum =
  | "unpaired rainbow"
  | "unpaired two-tone"
  | "monotone"
  | "paired rainbow"
  | "paired two-tone"
  | "trips";

export function flopStratum(t: BoardTexture): FlopStratum {
  if (t.pairedness === "trips") return "trips";
  if (t.suitTexture === "monotone") return "monotone";
  return `${t.pairedness} ${t.suitTexture}` as FlopStratum;
}

export interface RepresentativeFlop {
  /** Canonical text of the flop. */
  readonly board: string;
  readonly stratum: FlopStratum;
  readonly texture: BoardTexture;
  /** Share of the 22,100 flops this flop represents (the weights of a selection sum to 1). */
  readonly weight: number;
  /** How many of the 1,755 flop classes it represents. */
  readonly classes: number;
}

/** Splits `total` over `shares` in proportion (largest remainders; ties to the earlier entry). */
function apportion(total: number, shares: readonly number[], minimum = 0): number[] {
  const out = shares.map(() => minimum);
  let left = total - minimum * shares.length;
  const sum = shares.reduce((s, x) => s + x, 0);
  if (left <= 0 || sum === 0) return out;
  const exact = shares.map((s) => (s / sum) * left);
  for (let i = 0; i < out.length; i++) {
    const whole = Math.floor(exact[i]!);
    out[i]! += whole;
    left -= whole;
  }
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; k < left; k++) out[order[k % order.length]!.i]!++;
  return out;
}

const STRATA: readonly FlopStratum[] = [
  "unpaired rainbow",
  "unpaired two-tone",
  "monotone",
  "paired rainbow",
  "paired two-tone",
  "trips",
];

/**
 * `count` representative flops (at least 6, one per stratum) with their weights over the 22,100 flops; see
 * the module comment for the method. Deterministic; sorted by stratum, then high ranks first.
 */
export function representativeFlops(count = 30): RepresentativeFlop[] {
  if (!Number.isInteger(count) || count < STRATA.length || count > 1755) {
    throw new RangeError(`count must be a whole number from ${STRATA.length} to 1755, got ${count}`);
  }
  const flops = canonicalFlops();
  const byStratum = STRATA.map((s) => flops.filter((f) => flopStratum(f.texture) === s));
  const weightOf = (list: readonly FlopClass[]) => list.reduce((s, f) => s + f.count, 0);
  const quotas = apportion(count, byStratum.map(weightOf), 1);
  const picks: { flop: FlopClass; stratum: FlopStratum }[] = [];
  STRATA.forEach((stratum, si) => {
    const members = byStratum[si]!;
    const cells = new Map<string, FlopClass[]>();
    for (const f of members) {
      const key = `${TEXTURE_VALUES.highCardClass.indexOf(f.texture.highCardClass)}|${TEXTURE_VALUES.connectivity.indexOf(f.texture.connectivity)}`;
      cells.set(key, [...(cells.get(key) ?? []), f]);
    }
    const keys = [...cells.keys()].sort();
    const cellQuota = apportion(
      Math.min(quotas[si]!, members.length),
      keys.map((k) => weightOf(cells.get(k)!)),
    );
    keys.forEach((key, ki) => {
      const cell = cells.get(key)!;
      let q = cellQuota[ki]!;
      if (q === 0) return;
      // q picks spread over the cell: split its members (high ranks first) into q runs, pick each run's
      // member nearest the run's weighted mean ranks.
      const size = cell.length;
      for (let part = 0; part < q && part < size; part++) {
        const run = cell.slice(Math.floor((part * size) / q), Math.floor(((part + 1) * size) / q));
        const total = weightOf(run);
        const mean = [0, 0, 0];
        for (const f of run) {
          ranksDesc(f.cards).forEach((r, i) => {
            mean[i]! += (r * f.count) / total;
          });
        }
        let best = run[0]!;
        let bestD = Number.POSITIVE_INFINITY;
        for (const f of run) {
          const d = ranksDesc(f.cards).reduce((s, r, i) => s + (r - mean[i]!) ** 2, 0);
          if (d < bestD - 1e-12) {
            best = f;
            bestD = d;
          }
        }
        picks.push({ flop: best, stratum });
      }
      q = 0;
    });
  });
  // Every flop class is represented by its nearest pick of the same stratum (ties: the earlier pick).
  const weight = picks.map(() => 0);
  const classes = picks.map(() => 0);
  for (const f of flops) {
    const stratum = flopStratum(f.texture);
    let best = -1;
    let bestD = Number.POSITIVE_INFINITY;
    picks.forEach((p, i) => {
      if (p.stratum !== stratum) return;
      const d = boardDistance(f.cards, p.flop.cards);
      if (d < bestD) {
        best = i;
        bestD = d;
      }
    });
    weight[best]! += f.count / 22100;
    classes[best]!++;
  }
  return picks.map((p, i) => ({
    board: p.flop.board,
    stratum: p.stratum,
    texture: p.flop.texture,
    weight: weight[i]!,
    classes: classes[i]!,
  }));
}

/** A rank character for messages (`A`, `T`, `2`). */
export const rankChar = (rank: number): string => RANK_CHARS[rank]!;
