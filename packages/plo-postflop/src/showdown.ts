/**
 * Exact card removal between two lists of four-card hands, in O(n + m) per terminal.
 *
 * The opponent reach that a hand h = {a, b, c, d} can meet is the reach of the opponent hands sharing no card
 * with h. By inclusion-exclusion over the cards two hands share:
 *
 *   compat(h) = total - sum_x S1[x] + sum_{x<y} S2[xy] - sum_{x<y<z} S3[xyz] + S4[h]
 *
 * where S1, S2, S3 are the reach of opponent hands holding that card, pair or triple of h's cards, and S4 the
 * reach of the opponent hand with exactly h's four cards (pairs and triples numbered densely over the two
 * ranges, `handTables`). Adding one opponent hand touches its 4 + 6 + 4
 * sums; reading one hand reads 14 of them and its twin. Showdowns sweep both lists in order of strength on
 * the final board: the sums then hold the opponent hands strictly weaker (and, after the equal ones, weaker or
 * equal), so wins, ties and losses against exactly the hands that can be dealt come out per hand.
 */

import { OmahaBoard } from "@ranges/solver";
import type { PloCombo } from "./range.js";

/** A player's hands laid out for the sums: 14 sum indices per hand and the opponent's identical hand. */
export interface HandTable {
  readonly n: number;
  readonly cards: Uint8Array;
  /** Per hand: 4 card indices (S1), 6 pair ids (S2), 4 triple ids (S3); ids shared by both players' tables. */
  readonly idx: Int32Array;
  /** Pair and triple ids in use (the sizes of S2 and S3). */
  readonly ids: { readonly pairs: number; readonly triples: number };
  /** Per hand: the index of the opponent hand with the same four cards, or -1. */
  twin: Int32Array;
}

/**
 * Both players' tables, with the pairs and triples of cards that occur in either range numbered densely (at
 * most 6 and 4 per hand), so the running sums stay small (a few thousand entries for a few hundred hands).
 */
export function handTables(c0: readonly PloCombo[], c1: readonly PloCombo[]): [HandTable, HandTable] {
  const pairIds = new Map<number, number>();
  const tripleIds = new Map<number, number>();
  const idOf = (m: Map<number, number>, key: number) => {
    let id = m.get(key);
    if (id === undefined) m.set(key, (id = m.size));
    return id;
  };
  const build = (combos: readonly PloCombo[]) => {
    const n = combos.length;
    const cards = new Uint8Array(4 * n);
    const idx = new Int32Array(14 * n);
    for (let h = 0; h < n; h++) {
      const [a, b, c, d] = combos[h]!.cards;
      cards.set([a, b, c, d], 4 * h);
      const pairs = [a * 52 + b, a * 52 + c, a * 52 + d, b * 52 + c, b * 52 + d, c * 52 + d];
      const triples = [
        a * 2704 + b * 52 + c,
        a * 2704 + b * 52 + d,
        a * 2704 + c * 52 + d,
        b * 2704 + c * 52 + d,
      ];
      idx.set(
        [a, b, c, d, ...pairs.map((k) => idOf(pairIds, k)), ...triples.map((k) => idOf(tripleIds, k))],
        14 * h,
      );
    }
    return { n, cards, idx, twin: new Int32Array(n).fill(-1) };
  };
  const t0 = build(c0);
  const t1 = build(c1);
  const ids = { pairs: pairIds.size, triples: tripleIds.size };
  return [
    { ...t0, ids },
    { ...t1, ids },
  ];
}

/** Links identical hands of the two players (`twin`). */
export function linkTwins(a: HandTable, b: HandTable, ka: readonly string[], kb: readonly string[]): void {
  const where = new Map(kb.map((k, i) => [k, i]));
  for (let i = 0; i < a.n; i++) {
    const j = where.get(ka[i]!);
    if (j !== undefined) {
      a.twin[i] = j;
      b.twin[j] = i;
    }
  }
}

/** The running sums of opponent reach per card, pair and triple. */
export class CardSums {
  private readonly s1 = new Float64Array(52);
  private readonly s2: Float64Array;
  private readonly s3: Float64Array;
  private total = 0;
  /** Which opponent hands are in the sums (for the twin term). */
  private readonly added: Uint8Array;

  constructor(private readonly opp: HandTable) {
    this.added = new Uint8Array(opp.n);
    this.s2 = new Float64Array(opp.ids.pairs);
    this.s3 = new Float64Array(opp.ids.triples);
  }

  add(j: number, w: number): void {
    const { idx } = this.opp;
    const o = 14 * j;
    this.total += w;
    this.added[j] = 1;
    const { s1, s2, s3 } = this;
    s1[idx[o]!]! += w;
    s1[idx[o + 1]!]! += w;
    s1[idx[o + 2]!]! += w;
    s1[idx[o + 3]!]! += w;
    for (let k = 4; k < 10; k++) s2[idx[o + k]!]! += w;
    for (let k = 10; k < 14; k++) s3[idx[o + k]!]! += w;
  }

  /** The reach in the sums of the opponent hands sharing no card with hand `i` of `own`. */
  compat(own: HandTable, i: number, oppReach: Float64Array): number {
    const { idx } = own;
    const o = 14 * i;
    const { s1, s2, s3 } = this;
    let v = this.total - (s1[idx[o]!]! + s1[idx[o + 1]!]! + s1[idx[o + 2]!]! + s1[idx[o + 3]!]!);
    v +=
      s2[idx[o + 4]!]! +
      s2[idx[o + 5]!]! +
      s2[idx[o + 6]!]! +
      s2[idx[o + 7]!]! +
      s2[idx[o + 8]!]! +
      s2[idx[o + 9]!]!;
    v -= s3[idx[o + 10]!]! + s3[idx[o + 11]!]! + s3[idx[o + 12]!]! + s3[idx[o + 13]!]!;
    const t = own.twin[i]!;
    if (t >= 0 && this.added[t]) v += oppReach[t]!;
    return Math.max(v, 0);
  }

  /** Empties the sums: the entries the listed hands touched, or every entry where that is fewer writes. */
  clear(list: ArrayLike<number>, count = list.length): void {
    const { idx } = this.opp;
    this.total = 0;
    if (14 * count > this.s2.length + this.s3.length) {
      this.s1.fill(0);
      this.s2.fill(0);
      this.s3.fill(0);
      this.added.fill(0);
      return;
    }
    for (let q = 0; q < count; q++) {
      const j = list[q]!;
      const o = 14 * j;
      this.added[j] = 0;
      for (let k = 0; k < 4; k++) this.s1[idx[o + k]!] = 0;
      for (let k = 4; k < 10; k++) this.s2[idx[o + k]!] = 0;
      for (let k = 10; k < 14; k++) this.s3[idx[o + k]!] = 0;
    }
  }
}

/** Both players' live hands on one five-card board, sorted by strength (weakest first). */
export interface FinalBoard {
  /** Per player: live hand indices by ascending strength. */
  readonly order: [Int32Array, Int32Array];
  /** Per player: strength per hand (-1: the hand holds a board card). */
  readonly strength: [Int32Array, Int32Array];
}

export function finalBoard(board: readonly number[], tables: readonly [HandTable, HandTable]): FinalBoard {
  const ob = new OmahaBoard(board);
  const onBoard = new Uint8Array(52);
  for (const c of board) onBoard[c] = 1;
  const strength: [Int32Array, Int32Array] = [new Int32Array(tables[0].n), new Int32Array(tables[1].n)];
  const order = [0, 1].map((p) => {
    const t = tables[p]!;
    const s = strength[p]!;
    const live: number[] = [];
    for (let h = 0; h < t.n; h++) {
      const c = t.cards;
      const o = 4 * h;
      if (onBoard[c[o]!] || onBoard[c[o + 1]!] || onBoard[c[o + 2]!] || onBoard[c[o + 3]!]) {
        s[h] = -1;
        continue;
      }
      s[h] = ob.evaluate4(c[o]!, c[o + 1]!, c[o + 2]!, c[o + 3]!);
      live.push(h);
    }
    live.sort((x, y) => s[x]! - s[y]!);
    return Int32Array.from(live);
  }) as [Int32Array, Int32Array];
  return { order, strength };
}

/**
 * One showdown sweep for player `me` against the opponent's reach: per live hand of `me`, the compatible
 * opponent reach strictly weaker (`below`), weaker or equal (`upto`) and in all (`total`). Dead hands get 0.
 */
export function sweepShowdown(
  fb: FinalBoard,
  me: 0 | 1,
  tables: readonly [HandTable, HandTable],
  sums: CardSums,
  oppReach: Float64Array,
  below: Float64Array,
  upto: Float64Array,
  total: Float64Array,
): void {
  const own = tables[me]!;
  const mine = fb.order[me];
  const theirs = fb.order[1 - me]!;
  const sMe = fb.strength[me];
  const sOpp = fb.strength[1 - me]!;
  below.fill(0);
  upto.fill(0);
  total.fill(0);
  let q = 0;
  let i = 0;
  while (i < mine.length) {
    const s = sMe[mine[i]!]!;
    let end = i;
    while (end < mine.length && sMe[mine[end]!] === s) end++;
    while (q < theirs.length && sOpp[theirs[q]!]! < s) {
      const j = theirs[q++]!;
      sums.add(j, oppReach[j]!);
    }
    for (let k = i; k < end; k++) below[mine[k]!] = sums.compat(own, mine[k]!, oppReach);
    const q0 = q;
    while (q < theirs.length && sOpp[theirs[q]!] === s) {
      const j = theirs[q++]!;
      sums.add(j, oppReach[j]!);
    }
    // no opponent hand of equal strength: weaker or equal is strictly weaker
    if (q === q0) for (let k = i; k < end; k++) upto[mine[k]!] = below[mine[k]!]!;
    else for (let k = i; k < end; k++) upto[mine[k]!] = sums.compat(own, mine[k]!, oppReach);
    i = end;
  }
  while (q < theirs.length) {
    const j = theirs[q++]!;
    sums.add(j, oppReach[j]!);
  }
  for (let k = 0; k < mine.length; k++) total[mine[k]!] = sums.compat(own, mine[k]!, oppReach);
  sums.clear(theirs);
}

/**
 * Per hand of `me`, the opponent reach that shares no card with it. `theirs`: the opponent hands to count
 * (the others must carry 0 reach); `mine`: the hands of `me` to compute (default all; the others get 0).
 */
export function compatTotals(
  me: 0 | 1,
  tables: readonly [HandTable, HandTable],
  sums: CardSums,
  oppReach: Float64Array,
  out: Float64Array,
  theirs: Int32Array,
  mine?: Int32Array,
): void {
  const own = tables[me]!;
  for (let j = 0; j < theirs.length; j++) sums.add(theirs[j]!, oppReach[theirs[j]!]!);
  if (mine) {
    out.fill(0);
    for (let k = 0; k < mine.length; k++) out[mine[k]!] = sums.compat(own, mine[k]!, oppReach);
  } else for (let i = 0; i < own.n; i++) out[i] = sums.compat(own, i, oppReach);
  sums.clear(theirs);
}
