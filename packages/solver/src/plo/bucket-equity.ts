/**
 * Heads-up all-in equity between PLO buckets (or any groups of concrete four-card hands), with card removal,
 * and its committed table `data/equity/plo-hu-buckets.bin`: the all-in terminal values of a PLO preflop solve
 * over the abstraction's buckets (src/plo/abstraction.ts).
 *
 * A bucket stands for the uniform distribution over its concrete hands (each class weighs its combos). For
 * buckets p and q:
 *
 * - `W(p, q)`: the number of ordered pairs (hand of p, hand of q) that share no card. Exact, not sampled
 *   (`ploBucketPairWeights`, by inclusion-exclusion over the one to four cards two hands can share), and
 *   normalized as game.ts documents for hold'em: every row sums to `combos[p] * 194,580`, the C(48, 4) hands
 *   left to an opponent by any one hand.
 * - `eq(p, q)`: p's share of the pot (wins plus half the ties) averaged over every deal of a hand of p, a
 *   disjoint hand of q and a board from the 44 cards left, each deal equally likely. Monte Carlo:
 *
 *   1. Boards are dealt uniformly from a seeded generator. On each board `OmahaBoard` rates every two-card
 *      pair once; each bucket's hands that miss the board are counted (n_p) and `handsPerBucket` (K) of them
 *      drawn uniformly with replacement.
 *   2. For every pair p < q, the K x K drawn pairs are compared; pairs that share a card are dropped
 *      (rejection, so card removal between the two hands is exact). With `met` pairs kept and `won` their
 *      wins plus half-ties, the board contributes D_b = n_p n_q met / K^2 (an unbiased count of the disjoint
 *      pairs the board allows) and N_b = n_p n_q won / K^2 (their summed shares).
 *   3. The board was dealt without looking at the hands, so weighting by those counts makes (hand, hand,
 *      board) uniform over every possible deal: eq = sum N_b / sum D_b, a ratio estimate whose standard error
 *      is the delta-method one over the B boards, sqrt(sum (N_b - eq D_b)^2 / (B (B - 1))) / mean(D_b).
 *      The K^2 comparisons of one board are correlated; the spread over boards accounts for that.
 *
 *   eq(q, p) = 1 - eq(p, q) and eq(p, p) = 1/2 exactly (the deals of a pair and of its swap are equally
 *   likely), so only p < q is sampled. The boards are split into `parts` independent parts, each with its
 *   own generator, so the result does not depend on how many threads run the parts.
 *
 * File format (little-endian), in the house style of `data/equity/holdem-hu.bin`:
 *
 *   offset  size        content
 *   0       4           magic "PLBE"
 *   4       4           u32 format version (1)
 *   8       4           u32 byte length L of the JSON header
 *   12      L           JSON header (UTF-8), then spaces up to a multiple of 4 bytes
 *   H       T*4         eq: f32 eq(p, q) for p < q, row-major (T = B (B - 1) / 2)
 *   ...     T*4         se: f32 standard error of each eq(p, q), same order
 *
 * The header holds { format, buckets, mapCrc32, order, method, boards, handsPerBucket, parts, seed, unmet,
 * maxSe, meanSe, crc32 } (unmet: pairs that never met, standard error NaN, eq 1/2; maxSe and meanSe over
 * the rest); crc32 covers every byte after the header (a mismatch is reported as a corrupt file), and
 * mapCrc32 is the checksum of the class-to-bucket map the table was built for (`encodePloBucketMap`'s), so a
 * table is never used with another abstraction. W is not stored: it is exact and rebuilt from the map (about
 * a second). Rebuilt by `node packages/solver/scripts/build-plo-bucket-equity.ts`.
 */

import { readFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { PLO_CLASS_COUNT, PLO_HAND_COUNT, seededRandom } from "@ranges/core";
import { findAbove } from "../data-file.js";
import { ploHandsOfClass } from "./equity.js";
import { OmahaBoard } from "./evaluator.js";

const MAGIC = "PLBE";
const FORMAT_VERSION = 1;

/** Where the committed table (of the default 512-bucket abstraction) lives, relative to the repository root. */
export const PLO_BUCKET_EQUITY_FILE = "data/equity/plo-hu-buckets.bin";

/** Hands an opponent may hold against any one four-card hand: C(48, 4). */
export const PLO_OPP_PER_COMBO = 194_580;

/**
 * The sizes the build script uses by default. Measured on 512 buckets (one core, shared with other work): a
 * board costs about 4 ms with one hand per bucket, 6.5 ms with two, 17 with four, 55 with eight, while the
 * variance of an entry per board falls only from 0.0019 to 0.0009, 0.0006 and 0.0004 (most of it is the
 * board's), so two hands per bucket give the smallest error per second. A run of 3,200 boards gave standard
 * errors of 0.0076 on average and 0.019 at most; they shrink as 1 / sqrt(boards), so the default 100,000
 * boards give about 0.0014 on average and 0.0033 at most, for about 11 core-minutes.
 */
export const PLO_BUCKET_EQUITY_DEFAULTS = {
  boards: 100_000,
  handsPerBucket: 2,
  parts: 16,
  seed: 7,
} as const;

/** Groups of concrete hands: group g holds hands start[g] .. start[g + 1] - 1, four cards each in `cards`. */
export interface PloHandGroups {
  readonly count: number;
  readonly start: Int32Array;
  readonly cards: Uint8Array;
}

/** The hands of every bucket of a class-to-bucket map, bucket by bucket (classes in index order). */
export function ploBucketGroups(classToBucket: ArrayLike<number>, bucketCount: number): PloHandGroups {
  checkMap(classToBucket, bucketCount);
  const hands: number[][][] = Array.from({ length: bucketCount }, () => []);
  for (let c = 0; c < PLO_CLASS_COUNT; c++) hands[classToBucket[c]!]!.push(...ploHandsOfClass(c));
  return ploHandGroups(hands);
}

/** Groups from explicit lists of concrete hands (tests, spot checks). A hand may sit in several groups. */
export function ploHandGroups(groups: readonly (readonly (readonly number[])[])[]): PloHandGroups {
  const start = new Int32Array(groups.length + 1);
  groups.forEach((g, i) => {
    start[i + 1] = start[i]! + g.length;
  });
  const cards = new Uint8Array(start[groups.length]! * 4);
  groups.forEach((g, i) => {
    g.forEach((h, j) => {
      if (h.length !== 4 || new Set(h).size !== 4 || h.some((c) => !Number.isInteger(c) || c < 0 || c > 51))
        throw new RangeError(`group ${i} hand ${j} is not four distinct cards 0..51`);
      cards.set(h, 4 * (start[i]! + j));
    });
  });
  return { count: groups.length, start, cards };
}

function checkMap(classToBucket: ArrayLike<number>, bucketCount: number): void {
  if (classToBucket.length !== PLO_CLASS_COUNT)
    throw new RangeError(`a class-to-bucket map has ${PLO_CLASS_COUNT} entries`);
  if (!Number.isInteger(bucketCount) || bucketCount < 1) throw new RangeError("bucketCount must be >= 1");
  for (let c = 0; c < PLO_CLASS_COUNT; c++) {
    const b = classToBucket[c]!;
    if (!Number.isInteger(b) || b < 0 || b >= bucketCount)
      throw new RangeError(`class ${c} has bucket ${b}, outside 0..${bucketCount - 1}`);
  }
}

/** Concrete hands per bucket (the engine's `combos`). */
export function ploBucketCombos(classToBucket: ArrayLike<number>, bucketCount: number): Float64Array {
  checkMap(classToBucket, bucketCount);
  const out = new Float64Array(bucketCount);
  for (let c = 0; c < PLO_CLASS_COUNT; c++) out[classToBucket[c]!]! += ploHandsOfClass(c).length;
  return out;
}

/** C(n, k) for the small numbers used here. */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return Math.round(r);
}

/** Index of the hand a < b < c < d among the C(52, 4) hands (combinatorial number system). */
const handIndex = (a: number, b: number, c: number, d: number): number =>
  CHOOSE[a * 5 + 1]! + CHOOSE[b * 5 + 2]! + CHOOSE[c * 5 + 3]! + CHOOSE[d * 5 + 4]!;
const CHOOSE = (() => {
  const t = new Int32Array(53 * 5);
  for (let n = 0; n <= 52; n++) for (let k = 0; k < 5; k++) t[n * 5 + k] = choose(n, k);
  return t;
})();

/**
 * Exact compatible-pair counts between buckets, row-major B x B: W[p * B + q] = the ordered pairs (hand of p,
 * hand of q) that share no card. By inclusion-exclusion over the shared cards S (one to four):
 *
 *   W(p, q) = n_p n_q - sum_|S|=1 A_S(p) A_S(q) + sum_|S|=2 ... - sum_|S|=3 ... + [p = q] n_p
 *
 * with A_S(p) the hands of p holding every card of S. Every row sums to n_p * 194,580.
 */
export function ploBucketPairWeights(classToBucket: ArrayLike<number>, bucketCount: number): Float64Array {
  checkMap(classToBucket, bucketCount);
  const B = bucketCount;
  const bucketOfHand = new Int32Array(PLO_HAND_COUNT).fill(-1);
  const n = new Float64Array(B);
  for (let c = 0; c < PLO_CLASS_COUNT; c++) {
    const b = classToBucket[c]!;
    for (const h of ploHandsOfClass(c)) {
      const [w, x, y, z] = [...h].sort((u, v) => u - v) as [number, number, number, number];
      bucketOfHand[handIndex(w, x, y, z)] = b;
      n[b]! += 1;
    }
  }
  const W = new Float64Array(B * B);
  for (let p = 0; p < B; p++) {
    for (let q = 0; q < B; q++) W[p * B + q] = n[p]! * n[q]!;
    W[p * B + p]! += n[p]!;
  }
  const hist = new Float64Array(B);
  const touched = new Int32Array(B);
  const cards: number[] = [];
  // Adds sign * sum over S of A_S(p) A_S(q), S running over the card sets of one size: `forEachSet` calls
  // back with the buckets of the hands holding S (one entry per hand).
  const addTerm = (
    sign: number,
    forEachSet: (visit: (buckets: (add: (b: number) => void) => void) => void) => void,
  ) => {
    forEachSet((fill) => {
      let m = 0;
      fill((b) => {
        if (hist[b] === 0) touched[m++] = b;
        hist[b]! += 1;
      });
      for (let i = 0; i < m; i++) {
        const p = touched[i]!;
        const hp = sign * hist[p]!;
        const row = p * B;
        for (let j = 0; j < m; j++) {
          const q = touched[j]!;
          W[row + q]! += hp * hist[q]!;
        }
      }
      for (let i = 0; i < m; i++) hist[touched[i]!] = 0;
    });
  };
  const bucketOf = (set: number[]): number => {
    const s = [...set].sort((u, v) => u - v) as [number, number, number, number];
    return bucketOfHand[handIndex(s[0], s[1], s[2], s[3])]!;
  };
  // The hands holding a card set S are S plus (4 - |S|) of the other cards.
  const completions = (fixed: number[], add: (b: number) => void) => {
    const need = 4 - fixed.length;
    const rest: number[] = [];
    for (let c = 0; c < 52; c++) if (!fixed.includes(c)) rest.push(c);
    const pick = (from: number, chosen: number[]) => {
      if (chosen.length === need) {
        add(bucketOf([...fixed, ...chosen]));
        return;
      }
      for (let i = from; i < rest.length; i++) {
        chosen.push(rest[i]!);
        pick(i + 1, chosen);
        chosen.pop();
      }
    };
    pick(0, []);
  };
  const sets = (size: number) => (visit: (buckets: (add: (b: number) => void) => void) => void) => {
    const go = (from: number) => {
      if (cards.length === size) {
        const fixed = [...cards];
        visit((add) => completions(fixed, add));
        return;
      }
      for (let c = from; c < 52; c++) {
        cards.push(c);
        go(c + 1);
        cards.pop();
      }
    };
    go(0);
  };
  addTerm(-1, sets(1));
  addTerm(1, sets(2));
  addTerm(-1, sets(3));
  return W;
}

export interface PloBucketEquityJob {
  /** This part's number (0 .. parts - 1) and the number of parts the boards are split into. */
  readonly part: number;
  readonly parts: number;
  /** Boards over all parts. */
  readonly boards: number;
  /** Hands drawn per group and board (K). */
  readonly handsPerBucket: number;
  readonly seed: number;
  readonly groups: PloHandGroups;
}

/** Sums of one part, per group pair p < q (row-major upper triangle). */
export interface PloBucketEquityPartial {
  readonly part: number;
  /** Boards this part dealt. */
  readonly boards: number;
  readonly sumN: Float64Array;
  readonly sumD: Float64Array;
  readonly sumNN: Float64Array;
  readonly sumND: Float64Array;
  readonly sumDD: Float64Array;
}

/** Pairs p < q of `count` groups. */
export const triangleSize = (count: number): number => (count * (count - 1)) / 2;

/** Boards of one part: the parts split `boards` as evenly as possible. */
const partBoards = (boards: number, part: number, parts: number): number =>
  Math.floor(((part + 1) * boards) / parts) - Math.floor((part * boards) / parts);

/** Seed of one part's generator (a murmur3-style mix of the seed and the part). */
function partSeed(seed: number, part: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(part + 0x632be5ab, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const lowBit = (c: number) => (c < 26 ? 1 << c : 0);
const highBit = (c: number) => (c < 26 ? 0 : 1 << (c - 26));

/** Runs one part (see the module comment). `onProgress` is called every 100 boards. */
export function computePloBucketEquityPart(
  job: PloBucketEquityJob,
  onProgress?: (done: number, total: number) => void,
): PloBucketEquityPartial {
  const { groups, part, parts } = job;
  const K = job.handsPerBucket;
  if (!Number.isInteger(K) || K < 1) throw new RangeError("handsPerBucket must be an integer >= 1");
  if (!Number.isInteger(parts) || parts < 1 || !Number.isInteger(part) || part < 0 || part >= parts)
    throw new RangeError(`part ${part} of ${parts}`);
  if (!Number.isInteger(job.boards) || job.boards < 2 * parts)
    throw new RangeError("boards must be an integer of at least two per part");
  const G = groups.count;
  const T = triangleSize(G);
  const total = groups.start[G]!;
  const lo = new Int32Array(total);
  const hi = new Int32Array(total);
  for (let h = 0; h < total; h++) {
    for (let i = 0; i < 4; i++) {
      const c = groups.cards[4 * h + i]!;
      lo[h]! |= lowBit(c);
      hi[h]! |= highBit(c);
    }
  }
  const sumN = new Float64Array(T);
  const sumD = new Float64Array(T);
  const sumNN = new Float64Array(T);
  const sumND = new Float64Array(T);
  const sumDD = new Float64Array(T);
  const compat = new Int32Array(total);
  const live = new Float64Array(G);
  const val = new Int32Array(G * K);
  const vLo = new Int32Array(G * K);
  const vHi = new Int32Array(G * K);
  const random = seededRandom(partSeed(job.seed, part));
  const boards = partBoards(job.boards, part, parts);
  const board = [0, 0, 0, 0, 0];
  const used = new Uint8Array(52);
  const invK2 = 1 / (K * K);
  for (let b = 0; b < boards; b++) {
    used.fill(0);
    let bLo = 0;
    let bHi = 0;
    for (let i = 0; i < 5; i++) {
      let c: number;
      do c = Math.floor(random() * 52);
      while (used[c]);
      used[c] = 1;
      board[i] = c;
      bLo |= lowBit(c);
      bHi |= highBit(c);
    }
    const rated = new OmahaBoard(board);
    for (let g = 0; g < G; g++) {
      const first = groups.start[g]!;
      let m = first;
      for (let h = first, end = groups.start[g + 1]!; h < end; h++)
        if ((lo[h]! & bLo) === 0 && (hi[h]! & bHi) === 0) compat[m++] = h;
      live[g] = m - first;
      if (m === first) continue;
      for (let k = 0; k < K; k++) {
        const h = compat[first + Math.floor(random() * (m - first))]!;
        const at = g * K + k;
        const cards = groups.cards;
        val[at] = rated.evaluate4(cards[4 * h]!, cards[4 * h + 1]!, cards[4 * h + 2]!, cards[4 * h + 3]!);
        vLo[at] = lo[h]!;
        vHi[at] = hi[h]!;
      }
    }
    let t = 0;
    for (let p = 0; p < G; p++) {
      const np = live[p]!;
      if (np === 0) {
        t += G - 1 - p;
        continue;
      }
      for (let q = p + 1; q < G; q++, t++) {
        const nq = live[q]!;
        if (nq === 0) continue;
        let won = 0;
        let met = 0;
        for (let i = p * K, iEnd = i + K; i < iEnd; i++) {
          const v = val[i]!;
          const l = vLo[i]!;
          const u = vHi[i]!;
          for (let j = q * K, jEnd = j + K; j < jEnd; j++) {
            if ((vLo[j]! & l) !== 0 || (vHi[j]! & u) !== 0) continue;
            met++;
            const w = val[j]!;
            won += v > w ? 2 : v === w ? 1 : 0;
          }
        }
        if (met === 0) continue;
        const scale = np * nq * invK2;
        const N = 0.5 * won * scale;
        const D = met * scale;
        sumN[t]! += N;
        sumD[t]! += D;
        sumNN[t]! += N * N;
        sumND[t]! += N * D;
        sumDD[t]! += D * D;
      }
    }
    if (onProgress && (b + 1) % 100 === 0) onProgress(b + 1, boards);
  }
  return { part, boards, sumN, sumD, sumNN, sumND, sumDD };
}

export interface PloBucketEquityTable {
  readonly buckets: number;
  /** crc32 of the class-to-bucket map the table was built for (as `encodePloBucketMap` computes it). */
  readonly mapCrc32: number;
  /** eq[p * B + q]: p's all-in share against q (row = hero bucket). */
  readonly eq: Float64Array;
  /**
   * Standard error of each entry (0 on the diagonal, which is exactly 1/2). NaN where the two buckets never
   * met on the boards dealt (their eq is then 1/2): pairs that cannot meet (W = 0) and, in small tables,
   * pairs that rarely do.
   */
  readonly se: Float64Array;
  readonly boards: number;
  readonly handsPerBucket: number;
  readonly parts: number;
  readonly seed: number;
}

/** Sums the parts and forms the ratio estimates and their standard errors (full B x B matrices). */
export function combinePloBucketEquityParts(
  partials: readonly PloBucketEquityPartial[],
  meta: { buckets: number; mapCrc32: number; handsPerBucket: number; seed: number },
): PloBucketEquityTable {
  const B = meta.buckets;
  const T = triangleSize(B);
  const sums = ["sumN", "sumD", "sumNN", "sumND", "sumDD"] as const;
  const acc = Object.fromEntries(sums.map((k) => [k, new Float64Array(T)])) as Record<
    (typeof sums)[number],
    Float64Array
  >;
  let boards = 0;
  // In part order, so the sums (and the file) do not depend on the order the parts finished in.
  for (const p of [...partials].sort((x, y) => x.part - y.part)) {
    boards += p.boards;
    for (const k of sums) {
      if (p[k].length !== T) throw new RangeError(`part ${p.part} has ${p[k].length} pairs, expected ${T}`);
      const a = acc[k];
      const x = p[k];
      for (let i = 0; i < T; i++) a[i]! += x[i]!;
    }
  }
  const eq = new Float64Array(B * B);
  const se = new Float64Array(B * B);
  let t = 0;
  for (let p = 0; p < B; p++) {
    eq[p * B + p] = 0.5;
    for (let q = p + 1; q < B; q++, t++) {
      const d = acc.sumD[t]!;
      if (!(d > 0)) {
        // Never met: the buckets cannot meet at all (W = 0, e.g. AAAA and a bucket of aces), or too few
        // boards were dealt. The entry is 1/2 with an unknown (NaN) standard error.
        eq[p * B + q] = 0.5;
        eq[q * B + p] = 0.5;
        se[p * B + q] = Number.NaN;
        se[q * B + p] = Number.NaN;
        continue;
      }
      const r = acc.sumN[t]! / d;
      const spread = Math.max(0, acc.sumNN[t]! - 2 * r * acc.sumND[t]! + r * r * acc.sumDD[t]!);
      const s = Math.sqrt(spread / (boards * (boards - 1))) / (d / boards);
      eq[p * B + q] = r;
      eq[q * B + p] = 1 - r;
      se[p * B + q] = s;
      se[q * B + p] = s;
    }
  }
  return {
    buckets: B,
    mapCrc32: meta.mapCrc32,
    eq,
    se,
    boards,
    handsPerBucket: meta.handsPerBucket,
    parts: partials.length,
    seed: meta.seed,
  };
}

/** crc32 of a class-to-bucket map's little-endian u16 bytes (the checksum `encodePloBucketMap` stores). */
export function ploBucketMapCrc32(classToBucket: ArrayLike<number>): number {
  const bytes = new Uint8Array(PLO_CLASS_COUNT * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < PLO_CLASS_COUNT; i++) view.setUint16(2 * i, classToBucket[i]!, true);
  return crc32(bytes);
}

export interface PloBucketEquityOptions {
  readonly classToBucket: ArrayLike<number>;
  readonly buckets: number;
  readonly boards?: number;
  readonly handsPerBucket?: number;
  readonly parts?: number;
  readonly seed?: number;
}

/** The whole table on this thread (tests, small tables); the build script runs the parts on workers. */
export function computePloBucketEquity(o: PloBucketEquityOptions): PloBucketEquityTable {
  const d = PLO_BUCKET_EQUITY_DEFAULTS;
  const parts = o.parts ?? d.parts;
  const handsPerBucket = o.handsPerBucket ?? d.handsPerBucket;
  const seed = o.seed ?? d.seed;
  const groups = ploBucketGroups(o.classToBucket, o.buckets);
  const partials = Array.from({ length: parts }, (_, part) =>
    computePloBucketEquityPart({ part, parts, boards: o.boards ?? d.boards, handsPerBucket, seed, groups }),
  );
  return combinePloBucketEquityParts(partials, {
    buckets: o.buckets,
    mapCrc32: ploBucketMapCrc32(o.classToBucket),
    handsPerBucket,
    seed,
  });
}

interface HeaderJson {
  format: string;
  buckets: number;
  mapCrc32: number;
  order: string;
  method: string;
  boards: number;
  handsPerBucket: number;
  parts: number;
  seed: number;
  /** Pairs that never met (standard error NaN); maxSe and meanSe are over the others. */
  unmet: number;
  maxSe: number;
  meanSe: number;
  crc32: number;
}

export function serializePloBucketEquity(table: PloBucketEquityTable): Uint8Array {
  const B = table.buckets;
  const T = triangleSize(B);
  if (table.eq.length !== B * B || table.se.length !== B * B)
    throw new RangeError(`a table of ${B} buckets has ${B * B} entries`);
  const body = new Uint8Array(T * 8);
  const view = new DataView(body.buffer);
  let maxSe = 0;
  let sumSe = 0;
  let unmet = 0;
  let t = 0;
  for (let p = 0; p < B; p++)
    for (let q = p + 1; q < B; q++, t++) {
      view.setFloat32(4 * t, table.eq[p * B + q]!, true);
      const s = Math.fround(table.se[p * B + q]!);
      view.setFloat32(4 * (T + t), s, true);
      if (Number.isNaN(s)) {
        unmet++;
        continue;
      }
      maxSe = Math.max(maxSe, s);
      sumSe += s;
    }
  const header: HeaderJson = {
    format: "PLO heads-up all-in equity between buckets: eq f32 then se f32, p < q row-major",
    buckets: B,
    mapCrc32: table.mapCrc32,
    order:
      "bucket ids of the class-to-bucket map whose crc32 is mapCrc32; eq(q, p) = 1 - eq(p, q), eq(p, p) = 0.5",
    method:
      "monte-carlo: boards from a seeded generator split into independent parts; per board handsPerBucket hands of each bucket drawn from those missing the board, every cross pair compared, pairs sharing a card dropped; boards weighted by the buckets' live hands (ratio estimate, delta-method standard error)",
    boards: table.boards,
    handsPerBucket: table.handsPerBucket,
    parts: table.parts,
    seed: table.seed,
    unmet,
    maxSe,
    meanSe: T > unmet ? sumSe / (T - unmet) : 0,
    crc32: crc32(body),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const headerBytes = new Uint8Array(json.length + ((4 - ((12 + json.length) % 4)) % 4)).fill(0x20);
  headerBytes.set(json);
  const file = new Uint8Array(12 + headerBytes.length + body.length);
  const fileView = new DataView(file.buffer);
  file.set(new TextEncoder().encode(MAGIC), 0);
  fileView.setUint32(4, FORMAT_VERSION, true);
  fileView.setUint32(8, headerBytes.length, true);
  file.set(headerBytes, 12);
  file.set(body, 12 + headerBytes.length);
  return file;
}

export function parsePloBucketEquity(bytes: Uint8Array): PloBucketEquityTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC)
    throw new Error("not a PLO bucket equity file (bad magic)");
  const version = view.getUint32(4, true);
  if (version !== FORMAT_VERSION) throw new Error(`unsupported PLO bucket equity format version ${version}`);
  const headerLength = view.getUint32(8, true);
  const bodyStart = 12 + headerLength;
  if (bytes.length < bodyStart) throw new Error("PLO bucket equity file is truncated");
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, bodyStart))) as HeaderJson;
  const B = header.buckets;
  if (!Number.isInteger(B) || B < 2) throw new Error(`PLO bucket equity file has ${B} buckets`);
  const T = triangleSize(B);
  if (bytes.length !== bodyStart + T * 8) throw new Error("PLO bucket equity file has the wrong length");
  if (crc32(bytes.subarray(bodyStart)) !== header.crc32)
    throw new Error("PLO bucket equity file is corrupt (crc32)");
  const eq = new Float64Array(B * B);
  const se = new Float64Array(B * B);
  let t = 0;
  for (let p = 0; p < B; p++) {
    eq[p * B + p] = 0.5;
    for (let q = p + 1; q < B; q++, t++) {
      const e = view.getFloat32(bodyStart + 4 * t, true);
      const s = view.getFloat32(bodyStart + 4 * (T + t), true);
      eq[p * B + q] = e;
      eq[q * B + p] = 1 - e;
      se[p * B + q] = s;
      se[q * B + p] = s;
    }
  }
  return {
    buckets: B,
    mapCrc32: header.mapCrc32,
    eq,
    se,
    boards: header.boards,
    handsPerBucket: header.handsPerBucket,
    parts: header.parts,
    seed: header.seed,
  };
}

/** Finds `data/equity/plo-hu-buckets.bin` in the nearest folder above this module that has it. */
export function defaultPloBucketEquityPath(): string {
  return findAbove(
    import.meta.url,
    PLO_BUCKET_EQUITY_FILE,
    "build it with node packages/solver/scripts/build-plo-bucket-equity.ts",
  );
}

/** Reads a PLO bucket equity table (the committed one unless `path` is given). */
export function loadPloBucketEquity(path: string = defaultPloBucketEquityPath()): PloBucketEquityTable {
  return parsePloBucketEquity(readFileSync(path));
}
