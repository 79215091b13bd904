/**
 * Every PLO class's all-in equity against one random hand, by Monte Carlo with a stated standard error, and
 * its committed table `data/equity/plo-random.bin` (the equity feature of the PLO abstraction).
 *
 * Method (`computePloRandomEquity`). Boards are dealt one at a time from a seeded generator; on each board
 * `OmahaBoard` rates every two-card pair once, and `opponentsPerBoard` random opponent hands are dealt from the
 * 47 cards off the board. Then for every class:
 *
 * - its concrete hands that miss the board are counted (n_b) and one of them is picked by a hash of (seed,
 *   board number, class), so a class's numbers do not depend on which other classes are computed;
 * - e_b is that hand's share against the opponents that share no card with it (wins plus half the ties).
 *   Dropping the conflicting opponents is rejection sampling, so the opponent is uniform over the hands the
 *   hero's and the board's cards allow: card removal is exact;
 * - the board was drawn without looking at the hero's hand, so each board is weighted by n_b: the pair (hand,
 *   board) is then uniform over every compatible deal, as at a real table. The equity is the ratio estimate
 *   sum(n_b e_b) / sum(n_b), and its standard error the delta-method one,
 *   sqrt(sum(n_b^2 (e_b - eq)^2) / (B (B - 1))) / mean(n_b), over the B boards.
 *
 * With 32,000 boards and 16 opponents per board the standard errors are about 0.002 (the file's header holds
 * the exact largest one); spot checks against `omahaEquity` (an independent Monte Carlo) are in the tests.
 *
 * File format (all numbers little-endian), in the house style of `data/equity/holdem-hu.bin`:
 *
 *   offset  size        content
 *   0       4           magic "PLRE"
 *   4       4           u32 format version (1)
 *   8       4           u32 byte length L of the JSON header
 *   12      L           JSON header (UTF-8), then spaces up to a multiple of 4 bytes
 *   H       16432*4     eq: f32 equity of each class against a random hand, `ploClasses()` order
 *   ...     16432*4     se: f32 standard error of each equity
 *
 * The header holds { format, classes, order, method, boards, opponentsPerBoard, seed, maxSe, meanSe, crc32 },
 * where crc32 covers every byte after the header; a mismatch is reported as a corrupt file. The file is
 * rebuilt, byte for byte, by `node packages/solver/scripts/build-plo-equity.ts` (same seed and sizes).
 */

import { readFileSync } from "node:fs";
import { PLO_CLASS_COUNT, seededRandom } from "@ranges/core";
import { findAbove } from "../data-file.js";
import { ploHandsOfClass } from "./equity.js";
import { OmahaBoard } from "./evaluator.js";
import { hash3, highBits, lowBits, readPloTable, writePloTable } from "./table-file.js";

const MAGIC = "PLRE";
const FORMAT_VERSION = 1;
const WHAT = "PLO equity file";

/** Where the committed table lives, relative to the repository root. */
export const PLO_RANDOM_EQUITY_FILE = "data/equity/plo-random.bin";

/** The sizes the committed table was built with (the build script's defaults). */
export const PLO_RANDOM_EQUITY_DEFAULTS = { boards: 32_000, opponentsPerBoard: 16, seed: 11 } as const;

export interface PloRandomEquityOptions {
  /** Boards to deal (default 32,000). */
  readonly boards?: number;
  /** Random opponent hands per board (default 16). */
  readonly opponentsPerBoard?: number;
  /** Seed of the generator (default 11). */
  readonly seed?: number;
  /** Class indices to compute (default: all 16,432); the others are left NaN. */
  readonly classes?: readonly number[];
  /** Called after every 100 boards. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface PloRandomEquityTable {
  /** Equity of each class against one random hand (ties split), `ploClasses()` order. */
  readonly eq: Float64Array;
  /** Standard error of each equity. */
  readonly se: Float64Array;
  readonly boards: number;
  readonly opponentsPerBoard: number;
  readonly seed: number;
}

/** Computes the table (see the module comment). Deterministic for given options. */
export function computePloRandomEquity(o: PloRandomEquityOptions = {}): PloRandomEquityTable {
  const boards = o.boards ?? PLO_RANDOM_EQUITY_DEFAULTS.boards;
  const perBoard = o.opponentsPerBoard ?? PLO_RANDOM_EQUITY_DEFAULTS.opponentsPerBoard;
  const seed = o.seed ?? PLO_RANDOM_EQUITY_DEFAULTS.seed;
  if (!Number.isInteger(boards) || boards < 2) throw new RangeError("boards must be an integer >= 2");
  if (!Number.isInteger(perBoard) || perBoard < 1)
    throw new RangeError("opponentsPerBoard must be an integer >= 1");
  const classes = o.classes ?? Array.from({ length: PLO_CLASS_COUNT }, (_, i) => i);
  for (const c of classes) {
    if (!Number.isInteger(c) || c < 0 || c >= PLO_CLASS_COUNT) throw new RangeError(`unknown PLO class ${c}`);
  }
  // Hands of the computed classes, flattened: cards and card masks.
  const start = new Int32Array(classes.length + 1);
  const handLists = classes.map((c) => ploHandsOfClass(c));
  for (let k = 0; k < classes.length; k++) start[k + 1] = start[k]! + handLists[k]!.length;
  const cards = new Uint8Array(start[classes.length]! * 4);
  const lo = new Int32Array(start[classes.length]!);
  const hi = new Int32Array(start[classes.length]!);
  for (let k = 0; k < classes.length; k++) {
    handLists[k]!.forEach((h, j) => {
      const at = start[k]! + j;
      cards.set(h, 4 * at);
      for (const c of h) {
        lo[at]! |= lowBits(c);
        hi[at]! |= highBits(c);
      }
    });
  }

  // Per class: sum n, sum n e, sum n^2, sum n^2 e, sum n^2 e^2 (for the delta-method variance).
  const sumN = new Float64Array(classes.length);
  const sumNE = new Float64Array(classes.length);
  const sumN2 = new Float64Array(classes.length);
  const sumN2E = new Float64Array(classes.length);
  const sumN2E2 = new Float64Array(classes.length);

  const random = seededRandom(seed);
  const board = [0, 0, 0, 0, 0];
  const oppValue = new Int32Array(perBoard);
  const oppLo = new Int32Array(perBoard);
  const oppHi = new Int32Array(perBoard);
  const used = new Uint8Array(52);
  const compatible = new Int32Array(64);
  for (let b = 0; b < boards; b++) {
    used.fill(0);
    for (let i = 0; i < 5; i++) {
      let c: number;
      do c = Math.floor(random() * 52);
      while (used[c]);
      used[c] = 1;
      board[i] = c;
    }
    const rated = new OmahaBoard(board);
    let boardLo = 0;
    let boardHi = 0;
    for (const c of board) {
      boardLo |= lowBits(c);
      boardHi |= highBits(c);
    }
    for (let p = 0; p < perBoard; p++) {
      const h = [0, 0, 0, 0];
      let mLo = 0;
      let mHi = 0;
      for (let i = 0; i < 4; i++) {
        let c: number;
        do c = Math.floor(random() * 52);
        while (used[c] || (lowBits(c) & mLo) !== 0 || (highBits(c) & mHi) !== 0);
        h[i] = c;
        mLo |= lowBits(c);
        mHi |= highBits(c);
      }
      oppValue[p] = rated.evaluate4(h[0]!, h[1]!, h[2]!, h[3]!);
      oppLo[p] = mLo;
      oppHi[p] = mHi;
    }
    for (let k = 0; k < classes.length; k++) {
      let n = 0;
      for (let at = start[k]!; at < start[k + 1]!; at++) {
        if ((lo[at]! & boardLo) === 0 && (hi[at]! & boardHi) === 0) compatible[n++] = at;
      }
      if (n === 0) continue; // weight 0: this board cannot come with any hand of the class
      const at = compatible[hash3(seed, b, classes[k]!) % n]!;
      const hLo = lo[at]!;
      const hHi = hi[at]!;
      const v = rated.evaluate4(cards[4 * at]!, cards[4 * at + 1]!, cards[4 * at + 2]!, cards[4 * at + 3]!);
      let won = 0;
      let met = 0;
      for (let p = 0; p < perBoard; p++) {
        if ((oppLo[p]! & hLo) !== 0 || (oppHi[p]! & hHi) !== 0) continue;
        met++;
        const w = oppValue[p]!;
        won += v > w ? 2 : v === w ? 1 : 0;
      }
      if (met === 0) continue; // every opponent conflicted: no information, the board is skipped
      const e = won / (2 * met);
      sumN[k]! += n;
      sumNE[k]! += n * e;
      sumN2[k]! += n * n;
      sumN2E[k]! += n * n * e;
      sumN2E2[k]! += n * n * e * e;
    }
    if (o.onProgress && (b + 1) % 100 === 0) o.onProgress(b + 1, boards);
  }
  const eq = new Float64Array(PLO_CLASS_COUNT).fill(Number.NaN);
  const se = new Float64Array(PLO_CLASS_COUNT).fill(Number.NaN);
  for (let k = 0; k < classes.length; k++) {
    const r = sumNE[k]! / sumN[k]!;
    // sum n^2 (e - r)^2 = sum n^2 e^2 - 2 r sum n^2 e + r^2 sum n^2
    const spread = Math.max(0, sumN2E2[k]! - 2 * r * sumN2E[k]! + r * r * sumN2[k]!);
    const meanN = sumN[k]! / boards;
    eq[classes[k]!] = r;
    se[classes[k]!] = Math.sqrt(spread / (boards * (boards - 1))) / meanN;
  }
  return { eq, se, boards, opponentsPerBoard: perBoard, seed };
}

export function serializePloRandomEquity(table: PloRandomEquityTable): Uint8Array {
  if (table.eq.length !== PLO_CLASS_COUNT || table.se.length !== PLO_CLASS_COUNT)
    throw new RangeError(`a PLO equity table has ${PLO_CLASS_COUNT} classes`);
  if (table.eq.some((x) => !Number.isFinite(x)))
    throw new RangeError("a PLO equity table to write must have every class computed");
  const header = {
    format: "PLO equity of each class against one random hand: eq f32, se f32; 16432 each",
    classes: PLO_CLASS_COUNT,
    order: "ploClasses() of @ranges/core",
    method:
      "monte-carlo: boards from a seeded generator, random opponents per board, one hand of each class per board, boards weighted by the class's compatible hands (ratio estimate, delta-method standard error)",
    boards: table.boards,
    opponentsPerBoard: table.opponentsPerBoard,
    seed: table.seed,
    // Of the stored (f32) values, so a file read and written again is the same bytes.
    maxSe: table.se.reduce((max, value) => Math.max(max, Math.fround(value)), 0),
    meanSe: table.se.reduce((a, b) => a + Math.fround(b), 0) / PLO_CLASS_COUNT,
  };
  return writePloTable(MAGIC, FORMAT_VERSION, header, [table.eq, table.se], PLO_CLASS_COUNT);
}

export function parsePloRandomEquity(bytes: Uint8Array): PloRandomEquityTable {
  const { header, columns } = readPloTable(bytes, MAGIC, FORMAT_VERSION, 2, PLO_CLASS_COUNT, WHAT);
  return {
    eq: columns[0]!,
    se: columns[1]!,
    boards: header.boards as number,
    opponentsPerBoard: header.opponentsPerBoard as number,
    seed: header.seed as number,
  };
}

/** Finds `data/equity/plo-random.bin` in the nearest folder above this module that has it. */
export function defaultPloRandomEquityPath(): string {
  return findAbove(import.meta.url, PLO_RANDOM_EQUITY_FILE);
}

let loaded: PloRandomEquityTable | undefined;

/** Reads the PLO equity-against-random table (the committed one unless `path` is given; that one cached). */
export function loadPloRandomEquity(path?: string): PloRandomEquityTable {
  if (path !== undefined) return parsePloRandomEquity(readFileSync(path));
  loaded ??= parsePloRandomEquity(readFileSync(defaultPloRandomEquityPath()));
  return loaded;
}
