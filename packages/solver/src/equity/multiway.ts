/**
 * Board-conditioned duels: the multiway all-in model's table.
 *
 * Given the board and my hand, my opponents' hands are independent of each other (up to the cards they could
 * share), so my chance to beat all of them is the product of my chances against each one, averaged over the
 * boards:
 *
 *   P(I beat everyone | my combo h) = E_B[ prod_j P(h beats opponent j | h, B) ].
 *
 * The independent-duels model averages each factor over the boards first, which loses the correlation (a set
 * or a flush beats both opponents at once). This table keeps it in a compressed form: for each class a, the
 * (combo, board) pairs of a are split into `buckets` groups by my hand's strength on the board (the share of
 * all live opponent combos it beats, ties half), at per-class quantiles, and within bucket k the table stores
 * the duel share against every class b:
 *
 *   d_k(a, b) = E[ share of a against b | bucket k ],   pi_k(a) = P(bucket k | a),
 *   nu_k(a, b) = (live combos of b per hero sample in bucket k) / (the same over all buckets),
 *   P(a beats b, c, ... ) ~ sum_k pi_k(a) prod_j nu_k(a, b_j) d_k(a, b_j).
 *
 * nu is the likelihood of the opponent's class given the bucket: the board and the opponent's cards compete
 * for the same deck (on a board with a king, AK is less likely for my opponent), so holding b tells something
 * about the board. With it, sum_k pi_k(a) nu_k(a, b) = 1 and sum_k pi_k(a) nu_k(a, b) d_k(a, b) is exactly the
 * heads-up equity of a against b (Bayes' rule over the buckets).
 *
 * With one bucket this is the independent-duels model; with a bucket per (combo, board) it is exact (card
 * removal between opponents aside). Heads-up, sum_k pi_k d_k(a, b) is the heads-up equity, so nothing changes
 * for two players. docs/solver-model.md measures the error against direct simulation.
 *
 * Monte Carlo: a pilot pass over `pilotBoards` boards fixes each class's bucket edges; the main pass sweeps
 * `boards` boards, drawn from seeded streams in blocks so that worker threads can share them out. For every
 * board, every live combo is evaluated once; each hero combo's counts against every class come from one sweep
 * over the sorted values, with the combos that share a card with the hero taken back out.
 */

import { readFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { seededRandom } from "@ranges/core";
import { findAbove } from "../data-file.js";
import { evaluateWith2, partialHand } from "../eval/evaluator.js";
import {
  CLASS_COUNT,
  COMBO_CLASS,
  COMBO_COUNT,
  COMBO_HIGH_CARD,
  COMBO_LOW_CARD,
  COMBO_OF_CARDS,
} from "./combos.js";

const N = CLASS_COUNT;
const COMBO_BITS = 11;
const COMBO_MASK = (1 << COMBO_BITS) - 1;
/** Boards come in blocks, each from its own seeded stream. */
const BLOCK = 256;

export interface MultiwayJob {
  readonly part: number;
  readonly parts: number;
  /** Boards in the main pass, over all parts. */
  readonly boards: number;
  readonly buckets: number;
  readonly seed: number;
  /** Bucket edges per class, `edges[a * (buckets - 1) + i]`, from `multiwayBucketEdges`. */
  readonly edges: Float64Array;
}

/** Sums one part contributes. */
export interface MultiwayPartial {
  readonly part: number;
  readonly boards: number;
  /** Hero's summed share (wins + ties / 2) against class b, indexed `(a * buckets + k) * 169 + b`. */
  readonly share: Float64Array;
  /** Live opponent combos of class b summed the same way (the share's denominator). */
  readonly mass: Float64Array;
  /** (combo, board) pairs per `a * buckets + k`. */
  readonly count: Float64Array;
}

/**
 * The table: `eq[(a * buckets + k) * 169 + b]` = d_k(a, b), `nu` (same indexing) = nu_k(a, b),
 * `pi[a * buckets + k]` = pi_k(a).
 */
export interface MultiwayTable {
  readonly buckets: number;
  readonly pi: Float64Array;
  readonly eq: Float64Array;
  readonly nu: Float64Array;
  /**
   * Standard error of each d_k(a, b), from the spread of the parts' estimates (the boards are split into
   * independent parts; SE = sd over parts / sqrt(parts)).
   */
  readonly se: Float64Array;
  readonly parts: number;
  /** Bucket edges per class (strength quantiles), `edges[a * (buckets - 1) + i]`. */
  readonly edges: Float64Array;
  readonly boards: number;
  readonly pilotBoards: number;
  readonly seed: number;
}

function drawBoard(random: () => number, board: Int32Array): void {
  for (let i = 0; i < 5; i++) {
    let card: number;
    do card = Math.floor(random() * 52);
    while (board.subarray(0, i).includes(card));
    board[i] = card;
  }
}

/**
 * Sweeps one board. Every live combo is evaluated once and sorted; walking the groups of equal value upwards,
 * a hero combo beats everything counted below its group and ties its group, per class, less the combos that
 * share one of its cards (walked card by card: at most 2 x 46 of them).
 */
class HeroSweep {
  readonly value = new Int32Array(COMBO_COUNT);
  private readonly keys = new Int32Array(COMBO_COUNT);
  private readonly live = new Uint8Array(52);
  readonly liveCards = new Int32Array(52);
  liveCount = 0;
  /** Live combos per class on this board. */
  readonly liveByClass = new Float64Array(N);
  readonly below = new Float64Array(N);
  readonly group = new Float64Array(N);
  /** Combos holding each live card (index into liveCards), rebuilt per board. */
  private readonly cardCombos = new Int32Array(52 * 51);

  /**
   * For every live combo h, calls `onCombo(h, strength, sharesInto)`, where `sharesInto(share, mass, offset)`
   * adds h's share and live mass against every class at `offset`.
   */
  sweep(
    board: ArrayLike<number>,
    onCombo: (
      combo: number,
      strength: number,
      add: (share: Float64Array, mass: Float64Array, offset: number) => void,
    ) => void,
  ): void {
    const { value, keys, live, liveCards, liveByClass, below, group, cardCombos } = this;
    const partial = partialHand(board);
    live.fill(1);
    for (let i = 0; i < board.length; i++) live[board[i]!] = 0;
    let liveCount = 0;
    for (let card = 0; card < 52; card++) if (live[card]) liveCards[liveCount++] = card;
    this.liveCount = liveCount;
    liveByClass.fill(0);
    let total = 0;
    for (let i = 0; i < liveCount; i++) {
      const low = liveCards[i]!;
      for (let j = i + 1; j < liveCount; j++) {
        const high = liveCards[j]!;
        const combo = COMBO_OF_CARDS[low * 52 + high]!;
        const v = evaluateWith2(partial, low, high);
        value[combo] = v;
        keys[total++] = (v << COMBO_BITS) | combo;
        liveByClass[COMBO_CLASS[combo]!]!++;
      }
    }
    // Combos through each live card.
    for (let i = 0; i < liveCount; i++) {
      const card = liveCards[i]!;
      let n = 0;
      for (let j = 0; j < liveCount; j++)
        if (j !== i) cardCombos[card * 51 + n++] = COMBO_OF_CARDS[card * 52 + liveCards[j]!]!;
    }
    const others = liveCount - 1;
    const opponents = ((liveCount - 2) * (liveCount - 3)) / 2;
    const sorted = keys.subarray(0, total).sort();
    below.fill(0);
    let belowTotal = 0;
    let start = 0;
    let heroCombo = 0;
    let heroValue = 0;
    let groupSize = 0;
    const add = (share: Float64Array, mass: Float64Array, offset: number): void => {
      const heroClass = COMBO_CLASS[heroCombo]!;
      for (let b = 0; b < N; b++) {
        share[offset + b]! += below[b]! + 0.5 * group[b]!;
        mass[offset + b]! += liveByClass[b]!;
      }
      // A combo does not tie with itself; it is not its own opponent.
      share[offset + heroClass]! -= 0.5;
      mass[offset + heroClass]! -= 1;
      for (const card of [heroCards[0]!, heroCards[1]!]) {
        for (let p = 0; p < others; p++) {
          const x = cardCombos[card * 51 + p]!;
          if (x === heroCombo) continue;
          const cls = COMBO_CLASS[x]!;
          mass[offset + cls]! -= 1;
          const vx = value[x]!;
          if (vx < heroValue) share[offset + cls]! -= 1;
          else if (vx === heroValue) share[offset + cls]! -= 0.5;
        }
      }
    };
    const heroCards = new Int32Array(2);
    while (start < total) {
      const v = sorted[start]! >> COMBO_BITS;
      let end = start;
      while (end < total && sorted[end]! >> COMBO_BITS === v) {
        group[COMBO_CLASS[sorted[end]! & COMBO_MASK]!]!++;
        end++;
      }
      groupSize = end - start;
      for (let g = start; g < end; g++) {
        heroCombo = sorted[g]! & COMBO_MASK;
        heroValue = v;
        heroCards[0] = comboLow(heroCombo);
        heroCards[1] = comboHigh(heroCombo);
        // Strength: share of the live opponent combos beaten, ties half.
        let s = belowTotal + 0.5 * (groupSize - 1);
        for (const card of [heroCards[0]!, heroCards[1]!]) {
          for (let p = 0; p < others; p++) {
            const x = cardCombos[card * 51 + p]!;
            if (x === heroCombo) continue;
            const vx = value[x]!;
            if (vx < v) s -= 1;
            else if (vx === v) s -= 0.5;
          }
        }
        onCombo(heroCombo, s / opponents, add);
      }
      for (let g = start; g < end; g++) {
        const cls = COMBO_CLASS[sorted[g]! & COMBO_MASK]!;
        below[cls]!++;
        group[cls] = 0;
      }
      belowTotal += groupSize;
      start = end;
    }
  }
}

const comboLow = (combo: number): number => COMBO_LOW_CARD[combo]!;
const comboHigh = (combo: number): number => COMBO_HIGH_CARD[combo]!;

/** Bucket edges per class: the strength quantiles i / buckets (i = 1 .. buckets - 1) over `pilotBoards` boards. */
export function multiwayBucketEdges(buckets: number, pilotBoards: number, seed: number): Float64Array {
  const samples: number[][] = Array.from({ length: N }, () => []);
  const sweep = new HeroSweep();
  const random = seededRandom((seed ^ 0x5eed5eed) >>> 0);
  const board = new Int32Array(5);
  for (let i = 0; i < pilotBoards; i++) {
    drawBoard(random, board);
    sweep.sweep(board, (combo, strength) => samples[COMBO_CLASS[combo]!]!.push(strength));
  }
  const edges = new Float64Array(N * (buckets - 1));
  for (let a = 0; a < N; a++) {
    const s = samples[a]!.sort((x, y) => x - y);
    for (let i = 1; i < buckets; i++)
      edges[a * (buckets - 1) + i - 1] = s[Math.floor((i * s.length) / buckets)]!;
  }
  return edges;
}

/** The main pass over this part's share of the boards. */
export function computeMultiwayPart(
  job: MultiwayJob,
  onProgress?: (done: number, total: number) => void,
): MultiwayPartial {
  const K = job.buckets;
  const share = new Float64Array(N * K * N);
  const mass = new Float64Array(N * K * N);
  const count = new Float64Array(N * K);
  const sweep = new HeroSweep();
  const board = new Int32Array(5);
  const blocks = Math.ceil(job.boards / BLOCK);
  let boards = 0;
  const edges = job.edges;
  const E = K - 1;
  for (let block = job.part; block < blocks; block += job.parts) {
    const random = seededRandom((job.seed * 1_000_003 + block) >>> 0);
    const n = Math.min(BLOCK, job.boards - block * BLOCK);
    for (let i = 0; i < n; i++) {
      drawBoard(random, board);
      sweep.sweep(board, (combo, strength, add) => {
        const a = COMBO_CLASS[combo]!;
        let k = 0;
        while (k < E && strength >= edges[a * E + k]!) k++;
        count[a * K + k]!++;
        add(share, mass, (a * K + k) * N);
      });
      boards++;
    }
    onProgress?.(boards, Math.ceil(job.boards / job.parts));
  }
  return { part: job.part, boards, share, mass, count };
}

/** Sums the parts into the table. */
export function combineMultiwayParts(
  parts: readonly MultiwayPartial[],
  job: { buckets: number; seed: number; edges: Float64Array; pilotBoards: number },
): MultiwayTable {
  const K = job.buckets;
  const share = new Float64Array(N * K * N);
  const mass = new Float64Array(N * K * N);
  const count = new Float64Array(N * K);
  let boards = 0;
  for (const p of parts) {
    boards += p.boards;
    for (let i = 0; i < share.length; i++) {
      share[i]! += p.share[i]!;
      mass[i]! += p.mass[i]!;
    }
    for (let i = 0; i < count.length; i++) count[i]! += p.count[i]!;
  }
  const eq = new Float64Array(N * K * N);
  for (let i = 0; i < eq.length; i++) eq[i] = mass[i]! > 0 ? share[i]! / mass[i]! : 0.5;
  const se = new Float64Array(N * K * N);
  if (parts.length > 1) {
    for (let i = 0; i < eq.length; i++) {
      let sq = 0;
      for (const p of parts) {
        const x = p.mass[i]! > 0 ? p.share[i]! / p.mass[i]! : eq[i]!;
        sq += (x - eq[i]!) ** 2;
      }
      se[i] = Math.sqrt(sq / (parts.length - 1) / parts.length);
    }
  }
  const pi = new Float64Array(N * K);
  const nu = new Float64Array(N * K * N);
  for (let a = 0; a < N; a++) {
    let total = 0;
    for (let k = 0; k < K; k++) total += count[a * K + k]!;
    for (let k = 0; k < K; k++) pi[a * K + k] = count[a * K + k]! / total;
    for (let b = 0; b < N; b++) {
      let allMass = 0;
      for (let k = 0; k < K; k++) allMass += mass[(a * K + k) * N + b]!;
      for (let k = 0; k < K; k++) {
        const i = (a * K + k) * N + b;
        nu[i] = allMass > 0 && count[a * K + k]! > 0 ? mass[i]! / count[a * K + k]! / (allMass / total) : 0;
      }
    }
  }
  return {
    buckets: K,
    pi,
    eq,
    nu,
    se,
    parts: parts.length,
    edges: job.edges,
    boards,
    pilotBoards: job.pilotBoards,
    seed: job.seed,
  };
}

// ---- The file, data/equity/holdem-multiway.bin ----
//
//   offset  size              content
//   0       4                 magic "MWEQ"
//   4       4                 u32 format version (1)
//   8       4                 u32 byte length L of the JSON header
//   12      L                 JSON header (UTF-8), then spaces up to a multiple of 4 bytes
//   H       169*K*4           pi: f32, [a * K + k]
//   ...     169*K*169*4       eq: f32 d_k(a, b), [(a * K + k) * 169 + b]
//   ...     169*K*169*4       nu: f32 nu_k(a, b), the same indexing
//   ...     169*K*169*4       se: f32 standard error of each eq
//   ...     169*(K-1)*4       edges: f32 bucket edges (hero strength), [a * (K - 1) + i]
//
// The header holds { format, buckets, boards, pilotBoards, parts, seed, maxSe, crc32 }; crc32 covers every
// byte after the header.

const MAGIC = "MWEQ";
const FORMAT_VERSION = 1;

/** Where the committed table lives, relative to the repository root. */
export const MULTIWAY_EQUITY_FILE = "data/equity/holdem-multiway.bin";

interface MultiwayHeader {
  format: string;
  buckets: number;
  boards: number;
  pilotBoards: number;
  parts: number;
  seed: number;
  maxSe: number;
  crc32: number;
}

const bodyFloats = (K: number): number => N * K + 3 * N * K * N + N * (K - 1);

export function serializeMultiwayTable(table: MultiwayTable): Uint8Array {
  const K = table.buckets;
  const body = new Uint8Array(bodyFloats(K) * 4);
  const view = new DataView(body.buffer);
  let offset = 0;
  for (const arr of [table.pi, table.eq, table.nu, table.se, table.edges])
    for (const x of arr) view.setFloat32((offset += 4) - 4, x, true);
  const header: MultiwayHeader = {
    format: "holdem board-conditioned duels: pi, eq, nu, se, edges as f32 (see multiway.ts)",
    buckets: K,
    boards: table.boards,
    pilotBoards: table.pilotBoards,
    parts: table.parts,
    seed: table.seed,
    maxSe: table.se.reduce((m, x) => Math.max(m, x), 0),
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

export function parseMultiwayTable(bytes: Uint8Array): MultiwayTable & { readonly crc32: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC)
    throw new Error("not a multiway equity file (bad magic)");
  const version = view.getUint32(4, true);
  if (version !== FORMAT_VERSION) throw new Error(`unsupported multiway equity format version ${version}`);
  const bodyStart = 12 + view.getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, bodyStart))) as MultiwayHeader;
  const K = header.buckets;
  if (!(Number.isInteger(K) && K >= 1 && K <= 64)) throw new Error(`multiway equity file has ${K} buckets`);
  if (bytes.length !== bodyStart + bodyFloats(K) * 4)
    throw new Error("multiway equity file has the wrong length");
  if (crc32(bytes.subarray(bodyStart)) !== header.crc32)
    throw new Error("multiway equity file is corrupt (crc32)");
  let offset = bodyStart;
  const read = (count: number): Float64Array => {
    const out = new Float64Array(count);
    for (let i = 0; i < count; i++, offset += 4) out[i] = view.getFloat32(offset, true);
    return out;
  };
  const pi = read(N * K);
  const eq = read(N * K * N);
  const nu = read(N * K * N);
  const se = read(N * K * N);
  const edges = read(N * (K - 1));
  return {
    buckets: K,
    pi,
    eq,
    nu,
    se,
    edges,
    parts: header.parts,
    boards: header.boards,
    pilotBoards: header.pilotBoards,
    seed: header.seed,
    crc32: header.crc32,
  };
}

/** Finds `data/equity/holdem-multiway.bin` in the nearest folder above this module that has it. */
export function defaultMultiwayTablePath(): string {
  return findAbove(import.meta.url, MULTIWAY_EQUITY_FILE);
}

/** Reads the multiway table (the committed one unless `path` is given). */
export function loadMultiwayTable(path: string = defaultMultiwayTablePath()) {
  return parseMultiwayTable(readFileSync(path));
}
