/**
 * How each PLO class plays after the flop, as numbers the abstraction can cluster on (issue 30, item 3): two
 * classes of the same all-in equity can differ in how that equity is spread over the runouts and in how
 * often it is the nuts, and that decides how much of it they realize in a bet-and-fold game. The committed
 * table is `data/equity/plo-play.bin`.
 *
 * Per class, against one random hand, by Monte Carlo (`computePloPlayFeatures`):
 *
 * - `flopSd`: the spread over flops of the class's equity on the flop (its equity over every turn and river,
 *   estimated per flop from the sampled runouts): high when the hand flops big or flops nothing, like a
 *   rundown; low for a hand whose equity barely depends on the flop, like a high pair;
 * - `riverSd`: the spread over complete boards of its share against a random hand on that board;
 * - `nutRate`: how often it holds the nuts on the river: no two cards that the board and the class's own
 *   hand leave make a better Omaha hand (ties count as the nuts);
 * - `strongRate`: how often it makes a straight or better on the river without the nuts (the hands that
 *   lose big pots: the low end of a straight, a small flush, an underfull);
 * - `equity`: the mean, a check against `data/equity/plo-random.bin` (same quantity, another sample).
 *
 * Method. Flops are dealt from a seeded generator; each gets `runoutsPerFlop` turn and river cards and, per
 * complete board, `opponentsPerBoard` random opponent hands from the cards off the board (rated once by
 * `OmahaBoard`). For every class one of its concrete hands that miss the flop is picked per flop (by a hash
 * of seed, flop number and class, so a class's numbers do not depend on which others are computed), and
 * scored on each runout that misses it (rejection: the runout is then uniform over the cards the hand
 * leaves) against the opponents that share no card with it. The flop is weighted by the class's hands that
 * miss it (the flop was dealt without looking at the hand), and a flop's runouts equally. The sampling noise
 * is taken out of the spreads: a share against m opponents carries binomial noise whose variance
 * s(1 - s) / m is estimated without bias by e(1 - e) / (m - 1), and a flop mean over R runouts carries the
 * within-flop variance / R (ties count half, so the first correction is approximate).
 *
 * File format: `table-file.ts`, magic "PLPF", version 1, five f32 columns in `PLO_PLAY_COLUMNS` order; the
 * header holds { format, classes, order, method, flops, runoutsPerFlop, opponentsPerBoard, seed, crc32 }.
 * The file is rebuilt byte for byte by `node packages/solver/scripts/build-plo-play.ts`.
 */

import { readFileSync } from "node:fs";
import { PLO_CLASS_COUNT, seededRandom } from "@ranges/core";
import { findAbove } from "../data-file.js";
import { HAND_CATEGORY, handCategory } from "../eval/evaluator.js";
import { ploHandsOfClass } from "./equity.js";
import { OmahaBoard } from "./evaluator.js";
import { hash3, highBits, lowBits, readPloTable, writePloTable } from "./table-file.js";

const MAGIC = "PLPF";
const FORMAT_VERSION = 1;
const WHAT = "PLO play-features file";

/** Where the committed table lives, relative to the repository root. */
export const PLO_PLAY_FEATURES_FILE = "data/equity/plo-play.bin";

/** The sizes the committed table was built with (the build script's defaults). */
export const PLO_PLAY_FEATURES_DEFAULTS = {
  flops: 6000,
  runoutsPerFlop: 8,
  opponentsPerBoard: 12,
  seed: 13,
} as const;

/** The table's columns, in file order. */
export const PLO_PLAY_COLUMNS = ["equity", "flopSd", "riverSd", "nutRate", "strongRate"] as const;
export type PloPlayColumn = (typeof PLO_PLAY_COLUMNS)[number];

export interface PloPlayFeaturesOptions {
  /** Flops to deal (default 6,000). */
  readonly flops?: number;
  /** Turn and river pairs per flop (default 8; at least 2, for the within-flop spread). */
  readonly runoutsPerFlop?: number;
  /** Random opponent hands per complete board (default 12; at least 2). */
  readonly opponentsPerBoard?: number;
  readonly seed?: number;
  /** Class indices to compute (default: all 16,432); the others are left NaN. */
  readonly classes?: readonly number[];
  /** Called after every 100 flops. */
  readonly onProgress?: (done: number, total: number) => void;
}

export type PloPlayFeaturesTable = {
  readonly [K in PloPlayColumn]: Float64Array;
} & {
  readonly flops: number;
  readonly runoutsPerFlop: number;
  readonly opponentsPerBoard: number;
  readonly seed: number;
};

/**
 * The value of the best Omaha hand that any two cards outside `board` and the hand (`heroLo`, `heroHi`: its
 * card bits) make on `board`: the nuts that hand can face. `sorted` holds every pair off the board as
 * `value * 4096 + a * 52 + b` in descending order (`sortedPairs`).
 */
export function nutValueAgainst(sorted: Float64Array, heroLo: number, heroHi: number): number {
  for (let k = 0; k < sorted.length; k++) {
    const key = sorted[k]!;
    const cards = key % 4096;
    const a = Math.floor(cards / 52);
    const b = cards % 52;
    if ((lowBits(a) & heroLo) !== 0 || (highBits(a) & heroHi) !== 0) continue;
    if ((lowBits(b) & heroLo) !== 0 || (highBits(b) & heroHi) !== 0) continue;
    return Math.floor(key / 4096);
  }
  return -1;
}

/** Every two-card pair off the board with its value on the board, best first (see `nutValueAgainst`). */
export function sortedPairs(rated: OmahaBoard): Float64Array {
  const on = new Set(rated.board);
  const keys: number[] = [];
  for (let a = 0; a < 52; a++) {
    if (on.has(a)) continue;
    for (let b = a + 1; b < 52; b++) if (!on.has(b)) keys.push(rated.pair(a, b) * 4096 + a * 52 + b);
  }
  return Float64Array.from(keys).sort().reverse();
}

/** Computes the table (see the module comment). Deterministic for given options. */
export function computePloPlayFeatures(o: PloPlayFeaturesOptions = {}): PloPlayFeaturesTable {
  const d = PLO_PLAY_FEATURES_DEFAULTS;
  const flops = o.flops ?? d.flops;
  const runouts = o.runoutsPerFlop ?? d.runoutsPerFlop;
  const perBoard = o.opponentsPerBoard ?? d.opponentsPerBoard;
  const seed = o.seed ?? d.seed;
  if (!Number.isInteger(flops) || flops < 2) throw new RangeError("flops must be an integer >= 2");
  if (!Number.isInteger(runouts) || runouts < 2 || runouts > 40)
    throw new RangeError("runoutsPerFlop must be an integer from 2 to 40");
  if (!Number.isInteger(perBoard) || perBoard < 2)
    throw new RangeError("opponentsPerBoard must be an integer >= 2");
  const classes = o.classes ?? Array.from({ length: PLO_CLASS_COUNT }, (_, i) => i);
  for (const c of classes) {
    if (!Number.isInteger(c) || c < 0 || c >= PLO_CLASS_COUNT) throw new RangeError(`unknown PLO class ${c}`);
  }
  const K = classes.length;
  const start = new Int32Array(K + 1);
  const handLists = classes.map((c) => ploHandsOfClass(c));
  for (let k = 0; k < K; k++) start[k + 1] = start[k]! + handLists[k]!.length;
  const cards = new Uint8Array(start[K]! * 4);
  const lo = new Int32Array(start[K]!);
  const hi = new Int32Array(start[K]!);
  for (let k = 0; k < K; k++) {
    handLists[k]!.forEach((h, j) => {
      const at = start[k]! + j;
      cards.set(h, 4 * at);
      for (const c of h) {
        lo[at]! |= lowBits(c);
        hi[at]! |= highBits(c);
      }
    });
  }

  // Per class, weighted by the flop's weight w: sum w; sum w m_f; sum w m_f^2; sum w (within-flop variance /
  // R_f); sum w (mean over runouts of e^2); sum w (mean of the binomial noise term); sum w nut; sum w strong.
  const sums = Array.from({ length: 8 }, () => new Float64Array(K));
  const [sW, sM, sM2, sWithin, sE2, sNoise, sNut, sStrong] = sums as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];

  const random = seededRandom(seed);
  const used = new Uint8Array(52);
  const deal = (): number => {
    let c: number;
    do c = Math.floor(random() * 52);
    while (used[c]);
    return c;
  };
  const flop = [0, 0, 0];
  const turnRiver = new Int32Array(2 * runouts);
  const rated: OmahaBoard[] = [];
  const nuts: Float64Array[] = [];
  const oppValue = new Int32Array(runouts * perBoard);
  const oppLo = new Int32Array(runouts * perBoard);
  const oppHi = new Int32Array(runouts * perBoard);
  const compatible = new Int32Array(64);
  const e = new Float64Array(runouts);
  for (let f = 0; f < flops; f++) {
    used.fill(0);
    for (let i = 0; i < 3; i++) used[(flop[i] = deal())] = 1;
    let flopLo = 0;
    let flopHi = 0;
    for (const c of flop) {
      flopLo |= lowBits(c);
      flopHi |= highBits(c);
    }
    for (let r = 0; r < runouts; r++) {
      const t = deal();
      used[t] = 1;
      const v = deal();
      used[v] = 1;
      turnRiver[2 * r] = t;
      turnRiver[2 * r + 1] = v;
      rated[r] = new OmahaBoard([...flop, t, v]);
      nuts[r] = sortedPairs(rated[r]!);
      for (let p = 0; p < perBoard; p++) {
        const h = [0, 0, 0, 0];
        let mLo = 0;
        let mHi = 0;
        for (let i = 0; i < 4; i++) {
          let c: number;
          do c = Math.floor(random() * 52);
          while (
            c === t ||
            c === v ||
            (lowBits(c) & (mLo | flopLo)) !== 0 ||
            (highBits(c) & (mHi | flopHi)) !== 0
          );
          h[i] = c;
          mLo |= lowBits(c);
          mHi |= highBits(c);
        }
        oppValue[r * perBoard + p] = rated[r]!.evaluate4(h[0]!, h[1]!, h[2]!, h[3]!);
        oppLo[r * perBoard + p] = mLo;
        oppHi[r * perBoard + p] = mHi;
      }
      used[t] = 0;
      used[v] = 0;
    }
    for (let k = 0; k < K; k++) {
      let n = 0;
      for (let at = start[k]!; at < start[k + 1]!; at++) {
        if ((lo[at]! & flopLo) === 0 && (hi[at]! & flopHi) === 0) compatible[n++] = at;
      }
      if (n === 0) continue; // this flop cannot come with any hand of the class
      const at = compatible[hash3(seed, f, classes[k]!) % n]!;
      const hLo = lo[at]!;
      const hHi = hi[at]!;
      const c0 = cards[4 * at]!;
      const c1 = cards[4 * at + 1]!;
      const c2 = cards[4 * at + 2]!;
      const c3 = cards[4 * at + 3]!;
      let R = 0;
      let e2 = 0;
      let noise = 0;
      let nut = 0;
      let strong = 0;
      for (let r = 0; r < runouts; r++) {
        const t = turnRiver[2 * r]!;
        const v = turnRiver[2 * r + 1]!;
        if ((lowBits(t) & hLo) !== 0 || (highBits(t) & hHi) !== 0) continue;
        if ((lowBits(v) & hLo) !== 0 || (highBits(v) & hHi) !== 0) continue;
        const value = rated[r]!.evaluate4(c0, c1, c2, c3);
        let won = 0;
        let met = 0;
        for (let p = r * perBoard; p < (r + 1) * perBoard; p++) {
          if ((oppLo[p]! & hLo) !== 0 || (oppHi[p]! & hHi) !== 0) continue;
          met++;
          won += value > oppValue[p]! ? 2 : value === oppValue[p]! ? 1 : 0;
        }
        if (met < 2) continue; // too few opponents left for the noise correction: the runout is skipped
        const share = won / (2 * met);
        e[R++] = share;
        e2 += share * share;
        noise += (share * (1 - share)) / (met - 1);
        if (value >= nutValueAgainst(nuts[r]!, hLo, hHi)) nut++;
        else if (handCategory(value) >= HAND_CATEGORY.straight) strong++;
      }
      if (R < 2) continue; // no within-flop spread: the flop is skipped for this class
      let m = 0;
      for (let r = 0; r < R; r++) m += e[r]!;
      m /= R;
      let within = 0;
      for (let r = 0; r < R; r++) within += (e[r]! - m) ** 2;
      within /= R - 1;
      sW[k]! += n;
      sM[k]! += n * m;
      sM2[k]! += n * m * m;
      sWithin[k]! += (n * within) / R;
      sE2[k]! += (n * e2) / R;
      sNoise[k]! += (n * noise) / R;
      sNut[k]! += (n * nut) / R;
      sStrong[k]! += (n * strong) / R;
    }
    if (o.onProgress && (f + 1) % 100 === 0) o.onProgress(f + 1, flops);
  }
  const column = () => new Float64Array(PLO_CLASS_COUNT).fill(Number.NaN);
  const out = {
    equity: column(),
    flopSd: column(),
    riverSd: column(),
    nutRate: column(),
    strongRate: column(),
  };
  for (let k = 0; k < K; k++) {
    const w = sW[k]!;
    const m = sM[k]! / w;
    const c = classes[k]!;
    out.equity[c] = m;
    out.flopSd[c] = Math.sqrt(Math.max(0, sM2[k]! / w - m * m - sWithin[k]! / w));
    out.riverSd[c] = Math.sqrt(Math.max(0, sE2[k]! / w - m * m - sNoise[k]! / w));
    out.nutRate[c] = sNut[k]! / w;
    out.strongRate[c] = sStrong[k]! / w;
  }
  return { ...out, flops, runoutsPerFlop: runouts, opponentsPerBoard: perBoard, seed };
}

export function serializePloPlayFeatures(table: PloPlayFeaturesTable): Uint8Array {
  for (const key of PLO_PLAY_COLUMNS) {
    if (table[key].length !== PLO_CLASS_COUNT)
      throw new RangeError(`a PLO play-features table has ${PLO_CLASS_COUNT} classes`);
    if (table[key].some((x) => !Number.isFinite(x)))
      throw new RangeError("a PLO play-features table to write must have every class computed");
  }
  const header = {
    format: `PLO play features of each class against one random hand: ${PLO_PLAY_COLUMNS.join(", ")}; f32, 16432 each`,
    classes: PLO_CLASS_COUNT,
    order: "ploClasses() of @ranges/core",
    method:
      "monte-carlo: flops from a seeded generator, runouts per flop, random opponents per complete board, one hand of each class per flop, flops weighted by the class's compatible hands, sampling noise taken out of the spreads",
    flops: table.flops,
    runoutsPerFlop: table.runoutsPerFlop,
    opponentsPerBoard: table.opponentsPerBoard,
    seed: table.seed,
  };
  const columns = PLO_PLAY_COLUMNS.map((key) => table[key]);
  return writePloTable(MAGIC, FORMAT_VERSION, header, columns, PLO_CLASS_COUNT);
}

export function parsePloPlayFeatures(bytes: Uint8Array): PloPlayFeaturesTable {
  const n = PLO_PLAY_COLUMNS.length;
  const { header, columns } = readPloTable(bytes, MAGIC, FORMAT_VERSION, n, PLO_CLASS_COUNT, WHAT);
  const [equity, flopSd, riverSd, nutRate, strongRate] = columns as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  return {
    equity,
    flopSd,
    riverSd,
    nutRate,
    strongRate,
    flops: header.flops as number,
    runoutsPerFlop: header.runoutsPerFlop as number,
    opponentsPerBoard: header.opponentsPerBoard as number,
    seed: header.seed as number,
  };
}

/** Finds `data/equity/plo-play.bin` in the nearest folder above this module that has it. */
export function defaultPloPlayFeaturesPath(): string {
  return findAbove(import.meta.url, PLO_PLAY_FEATURES_FILE);
}

let loaded: PloPlayFeaturesTable | undefined;

/** Reads the play-features table (the committed one unless `path` is given; that one cached). */
export function loadPloPlayFeatures(path?: string): PloPlayFeaturesTable {
  if (path !== undefined) return parsePloPlayFeatures(readFileSync(path));
  loaded ??= parsePloPlayFeatures(readFileSync(defaultPloPlayFeaturesPath()));
  return loaded;
}
