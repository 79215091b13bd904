/**
 * The PLO card abstraction: features of each of the 16,432 classes and a deterministic clustering of the
 * classes into buckets, with one class-to-bucket map that a pack can store (design.md section 8). The method
 * and its limits are written up in docs/plo-abstraction.md.
 *
 * Features (`ploClassFeatures`), from the class's suit groups and ranks plus one measured number:
 * - `equity` (and `equitySe`): all-in equity against one random hand, Monte Carlo with card removal, from the
 *   committed table `data/equity/plo-random.bin` (see `random-equity.ts`; standard errors about 0.002);
 * - high cards: `highCard` (the mean rank, 0 for 2222 .. 1 for AAAA), `topRank`, `broadways` (cards T or up);
 * - suits: `suitPattern` (`ds` 2+2, `ss` 2+1+1, `rainbow`, `3s` three of a suit, `4s` monotone), the top rank
 *   of each suited group (`suitedTop`, `suitedTop2`) and `nutSuited` (an ace with a suited partner);
 * - pairs: `pairing` (`none`, `pair`, `two-pair`, `trips`, `quads`) and `pairRank` (the highest pair);
 * - straights: `straightWindows` (of the ten five-rank straights A-5 .. T-A, those holding at least two of
 *   the hand's ranks: an Omaha straight uses exactly two hole cards), `wrapWindows` (those holding three or
 *   more: wrap draws), `gaps` (ranks missing inside the span of the hand's distinct ranks);
 * - `danglers`: cards that work with no other card: unpaired, unsuited, and at least four ranks from every
 *   other rank of the hand, ace high (the 2 of `AKQ2` rainbow or of `(AK)Q2`; the wheel does not count).
 *
 * Optionally (`playWeights`, e.g. `PLO_PLAY_ABSTRACTION`'s; all 0 by default, and then unread) four measured
 * play features join the distance: `flopSd`, `riverSd`, `nutRate` and `strongRate` from the committed table
 * `data/equity/plo-play.bin` (src/plo/play-features.ts): how the class's equity is spread over flops and
 * runouts, how often it is the nuts and how often a straight or better that is not.
 *
 * Clustering (`buildPloAbstraction`): first the classes are split into strata by what must never share a
 * bucket: suit pattern x pairing (trips and quads together) x paired aces x nut-suited (32 non-empty
 * strata). Each non-empty stratum gets at
 * least one bucket, the rest of the budget in proportion to its classes (largest remainder, ties to the
 * earlier stratum). Inside a stratum, k-means (Lloyd) on standardized, weighted numeric features, centroids
 * weighted by combos, started from the members at evenly spaced quantiles of equity, ties broken by class
 * index, at most `iterations` rounds; an emptied bucket is re-seeded with the member farthest from its
 * centroid. The whole procedure is deterministic: the same options give the same map.
 *
 * Buckets are numbered stratum by stratum (in `PLO_STRATA` order), inside a stratum by mean equity, highest
 * first, and named `<stratum>.<n>` (e.g. `ds.two-pair.aa.nut.1`); each has a representative,
 * the member class nearest its centroid.
 */

import { PLO_CLASS_COUNT, ploClassComboCounts, ploClasses } from "@ranges/core";
import { allocate, kMeans } from "./clustering.js";
import { ploHandsOfClass } from "./equity.js";
import { loadPloPlayFeatures, type PloPlayColumn, type PloPlayFeaturesTable } from "./play-features.js";
import { loadPloRandomEquity, type PloRandomEquityTable } from "./random-equity.js";

export {
  type DecodedPloBucketMap,
  decodePloBucketMap,
  encodePloBucketMap,
  type PloBucketMapJson,
} from "./bucket-map.js";

export type PloSuitPattern = "ds" | "ss" | "rainbow" | "3s" | "4s";
export type PloPairing = "none" | "pair" | "two-pair" | "trips" | "quads";

export interface PloClassFeatures {
  readonly index: number;
  readonly name: string;
  readonly combos: number;
  /** Ranks 0 (deuce) .. 12 (ace), high to low. */
  readonly ranks: readonly number[];
  readonly suitPattern: PloSuitPattern;
  /** Top rank of the highest suited group, -1 without one. */
  readonly suitedTop: number;
  /** Top rank of the second suited group (double-suited hands only), -1 otherwise. */
  readonly suitedTop2: number;
  /** An ace in a suited group: the nut flush draw. */
  readonly nutSuited: boolean;
  readonly pairing: PloPairing;
  /** The highest rank held two or more times, -1 without one. */
  readonly pairRank: number;
  /** Mean rank / 12: 0 for 2222, 1 for AAAA. */
  readonly highCard: number;
  readonly topRank: number;
  /** Cards ten or higher. */
  readonly broadways: number;
  /** Straight windows (A-5 .. T-A) holding at least two of the hand's distinct ranks. */
  readonly straightWindows: number;
  /** Straight windows holding three or more (wrap potential). */
  readonly wrapWindows: number;
  /** Ranks missing inside the span of the distinct ranks (ace high). */
  readonly gaps: number;
  /** Cards that are unpaired, unsuited and at least four ranks from every other rank (ace high). */
  readonly danglers: number;
  /** Equity against one random hand, and its standard error. */
  readonly equity: number;
  readonly equitySe: number;
}

/** The ten straights as rank bit masks (ace plays low in A-5). */
const STRAIGHT_MASKS: readonly number[] = (() => {
  const out: number[] = [];
  const bit = (r: number) => 1 << (r === -1 ? 12 : r);
  for (let low = -1; low <= 8; low++) {
    let m = 0;
    for (let r = low; r < low + 5; r++) m |= bit(r);
    out.push(m);
  }
  return out;
})();

const popcount = (x: number): number => {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
};

/** Features of one class from one of its concrete hands (the features are suit-symmetric) and the table. */
function featuresOf(
  index: number,
  name: string,
  combos: number,
  equity: PloRandomEquityTable,
): PloClassFeatures {
  const hand = ploHandsOfClass(index)[0]!;
  const ranks = hand.map((c) => c >> 2).sort((a, b) => b - a);
  const suits = hand.map((c) => c & 3);
  const bySuit = [0, 1, 2, 3].map((s) =>
    hand
      .filter((c) => (c & 3) === s)
      .map((c) => c >> 2)
      .sort((a, b) => b - a),
  );
  const groups = bySuit.filter((g) => g.length > 0).sort((a, b) => b.length - a.length || b[0]! - a[0]!);
  const sizes = groups.map((g) => g.length).join("");
  const suitPattern: PloSuitPattern =
    sizes === "4" ? "4s" : sizes === "31" ? "3s" : sizes === "22" ? "ds" : sizes === "211" ? "ss" : "rainbow";
  const suited = groups.filter((g) => g.length >= 2);
  const suitedTop = suited[0]?.[0] ?? -1;
  const suitedTop2 = suited[1]?.[0] ?? -1;
  const nutSuited = suited.some((g) => g[0] === 12);
  const counts = new Map<number, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  const multiplicities = [...counts.values()].sort((a, b) => b - a).join("");
  const pairing: PloPairing =
    multiplicities === "4"
      ? "quads"
      : multiplicities === "31"
        ? "trips"
        : multiplicities === "22"
          ? "two-pair"
          : multiplicities === "211"
            ? "pair"
            : "none";
  const paired = [...counts.entries()].filter(([, n]) => n >= 2).map(([r]) => r);
  const pairRank = paired.length > 0 ? Math.max(...paired) : -1;
  const distinct = [...counts.keys()].sort((a, b) => b - a);
  let rankMask = 0;
  for (const r of distinct) rankMask |= 1 << r;
  let straightWindows = 0;
  let wrapWindows = 0;
  for (const m of STRAIGHT_MASKS) {
    const k = popcount(m & rankMask);
    if (k >= 2) straightWindows++;
    if (k >= 3) wrapWindows++;
  }
  const gaps = distinct[0]! - distinct[distinct.length - 1]! - (distinct.length - 1);
  let danglers = 0;
  for (let i = 0; i < 4; i++) {
    const r = ranks[i] ?? -1;
    const card = hand.find((c) => c >> 2 === r)!;
    if (counts.get(r)! > 1) continue;
    if (suits.filter((s) => s === (card & 3)).length > 1) continue;
    if (distinct.some((x) => x !== r && Math.abs(x - r) < 4)) continue;
    danglers++;
  }
  return {
    index,
    name,
    combos,
    ranks,
    suitPattern,
    suitedTop,
    suitedTop2,
    nutSuited,
    pairing,
    pairRank,
    highCard: ranks.reduce((a, b) => a + b, 0) / 48,
    topRank: ranks[0]!,
    broadways: ranks.filter((r) => r >= 8).length,
    straightWindows,
    wrapWindows,
    gaps,
    danglers,
    equity: equity.eq[index]!,
    equitySe: equity.se[index]!,
  };
}

const featureCache = new WeakMap<PloRandomEquityTable, readonly PloClassFeatures[]>();

/** Features of every class, in `ploClasses()` order (equity from the committed table unless given). */
export function ploClassFeatures(
  equity: PloRandomEquityTable = loadPloRandomEquity(),
): readonly PloClassFeatures[] {
  const cached = featureCache.get(equity);
  if (cached) return cached;
  if (equity.eq.length !== PLO_CLASS_COUNT)
    throw new RangeError(`the equity table needs ${PLO_CLASS_COUNT} classes`);
  const names = ploClasses();
  const combos = ploClassComboCounts();
  const out = names.map((name, i) => featuresOf(i, name, combos[i]!, equity));
  featureCache.set(equity, out);
  return out;
}

/** The strata, in bucket-numbering order: suit pattern x pairing x nut-suited. Empty ones are skipped. */
export const PLO_STRATA: readonly string[] = (() => {
  const out: string[] = [];
  for (const s of ["ds", "ss", "3s", "4s", "rainbow"] as const)
    for (const p of ["none", "pair", "two-pair", "trips"] as const)
      for (const aces of p === "none" ? [false] : [true, false])
        for (const nut of [true, false]) out.push(stratumKey(s, p, aces, nut));
  return out;
})();

function stratumKey(s: PloSuitPattern, p: PloPairing, aces: boolean, nut: boolean): string {
  const pairing = p === "quads" ? "trips" : p;
  return `${s}.${pairing}${aces ? ".aa" : ""}${nut ? ".nut" : ""}`;
}

/** The stratum of a class: `<pattern>.<pairing>[.aa][.nut]` (`.aa`: aces paired; `.nut`: a suited ace). */
export const stratumOf = (f: PloClassFeatures): string =>
  stratumKey(f.suitPattern, f.pairing, f.pairRank === 12, f.nutSuited);

/** Weights of the numeric features in the clustering distance (after standardizing each to unit spread). */
export interface PloFeatureWeights {
  readonly equity: number;
  readonly highCard: number;
  readonly topRank: number;
  readonly suitedTop: number;
  readonly suitedTop2: number;
  readonly pairRank: number;
  readonly straightWindows: number;
  readonly wrapWindows: number;
  readonly gaps: number;
  readonly danglers: number;
}

export const DEFAULT_PLO_FEATURE_WEIGHTS: PloFeatureWeights = {
  equity: 4,
  highCard: 2,
  topRank: 1,
  suitedTop: 1.5,
  suitedTop2: 1,
  pairRank: 1.5,
  straightWindows: 1.5,
  wrapWindows: 1,
  gaps: 0.5,
  danglers: 1,
};

const FEATURE_KEYS = Object.keys(DEFAULT_PLO_FEATURE_WEIGHTS) as (keyof PloFeatureWeights)[];

/**
 * Weights of the play features (`data/equity/plo-play.bin`, src/plo/play-features.ts) in the clustering
 * distance, standardized like the others. All 0 by default: the committed abstraction (the packs' map) is
 * built from the shape and equity features alone, and its map is unchanged by this option's existence.
 */
export type PloPlayWeights = { readonly [K in Exclude<PloPlayColumn, "equity">]: number };

export const NO_PLO_PLAY_WEIGHTS: PloPlayWeights = { flopSd: 0, riverSd: 0, nutRate: 0, strongRate: 0 };

const PLAY_KEYS = Object.keys(NO_PLO_PLAY_WEIGHTS) as (keyof PloPlayWeights)[];

/**
 * Where the buckets go (`PloAbstractionOptions.focus`): each class counts `floor + (1 - floor) * t` times
 * its combos, t its all-in equity against a random hand placed linearly between `low` (t = 0) and `high`
 * (t = 1) and clamped, both in the budget of its stratum and in the k-means centroids. Hands that every
 * seat folds share few buckets; the budget goes where strategies change from one hand to the next.
 *
 * @example { low: 0.44, high: 0.5, floor: 0.15 } // PLO_FOCUS: a class at 0.44 or below (a fifth of the
 *   classes: 9642 rainbow, 2222) counts 0.15 of one at 0.50 or above (half of them: JT98, (AK)72)
 */
export interface PloFocus {
  readonly low: number;
  readonly high: number;
  readonly floor: number;
}

/** The play-aware abstraction's focus (see `PloFocus`). */
export const PLO_FOCUS: PloFocus = { low: 0.44, high: 0.5, floor: 0.15 };

/** Each class's weight under `focus` (1 everywhere without one). */
export function ploFocusWeights(features: readonly PloClassFeatures[], focus?: PloFocus): Float64Array {
  if (!focus) return new Float64Array(features.length).fill(1);
  return Float64Array.from(features, (f) => {
    const t = Math.min(1, Math.max(0, (f.equity - focus.low) / (focus.high - focus.low)));
    return focus.floor + (1 - focus.floor) * t;
  });
}

export const PLO_MIN_BUCKETS = 64;
export const PLO_MAX_BUCKETS = 4096;
export const DEFAULT_PLO_BUCKETS = 512;

export interface PloAbstractionOptions {
  /** Number of buckets, an integer in [64, 4096] (default 512). */
  readonly buckets?: number;
  /** Lloyd rounds per stratum at most (default 50). */
  readonly iterations?: number;
  readonly weights?: Partial<PloFeatureWeights>;
  /** Weights of the play features (default all 0: not used, and the play table is not read). */
  readonly playWeights?: Partial<PloPlayWeights>;
  /** The equity table (default: the committed one). */
  readonly equity?: PloRandomEquityTable;
  /** The play-features table, read only where a play weight is above 0 (default: the committed one). */
  readonly play?: PloPlayFeaturesTable;
  /** Where the buckets go (default: in proportion to the classes, every class alike). */
  readonly focus?: PloFocus;
}

/**
 * The play-aware abstraction (issue 30, item 3): the shape and equity weights with equity weighed a little
 * less, plus how the equity is spread over flops and runouts and how often it is the nuts or a strong hand
 * that is not, with the budget focused on the hands that are played (`PLO_FOCUS`).
 */
export const PLO_PLAY_ABSTRACTION = {
  weights: { ...DEFAULT_PLO_FEATURE_WEIGHTS, equity: 3 },
  playWeights: { flopSd: 1.5, riverSd: 1, nutRate: 3, strongRate: 2 },
  focus: PLO_FOCUS,
} as const satisfies PloAbstractionOptions;

export interface PloBucket {
  readonly id: number;
  /** `<pattern>.<pairing>[.aa][.nut].<n>`, n = 1 for the highest mean equity of the stratum. */
  readonly name: string;
  readonly stratum: string;
  /** The member class nearest the bucket's centroid. */
  readonly representative: string;
  readonly classes: number;
  readonly combos: number;
  /** Combo-weighted mean equity against a random hand, and the members' lowest and highest. */
  readonly meanEquity: number;
  readonly minEquity: number;
  readonly maxEquity: number;
}

export interface PloAbstraction {
  readonly bucketCount: number;
  /** Bucket of each class, `ploClasses()` order. */
  readonly classToBucket: Uint16Array;
  readonly buckets: readonly PloBucket[];
  /** What built it (options with defaults filled in), for provenance. */
  readonly params: {
    readonly buckets: number;
    readonly iterations: number;
    readonly weights: PloFeatureWeights;
    readonly equity: { readonly boards: number; readonly opponentsPerBoard: number; readonly seed: number };
    /** Only with a focus. */
    readonly focus?: PloFocus;
    /** Only where a play weight is above 0: the weights and the play table's sizes. */
    readonly play?: {
      readonly weights: PloPlayWeights;
      readonly flops: number;
      readonly runoutsPerFlop: number;
      readonly opponentsPerBoard: number;
      readonly seed: number;
    };
  };
}

function checkWeights<T extends object>(given: T, keys: readonly string[]): T {
  for (const key of Object.keys(given)) {
    if (!keys.includes(key)) throw new RangeError(`unknown feature weight "${key}"`);
    const w = given[key as keyof T];
    if (typeof w !== "number" || !Number.isFinite(w) || w < 0)
      throw new RangeError(`feature weight ${key} must be a finite number >= 0, got ${String(w)}`);
  }
  return given;
}

function checkOptions(o: PloAbstractionOptions): {
  buckets: number;
  iterations: number;
  weights: PloFeatureWeights;
  playWeights: PloPlayWeights;
} {
  const buckets = o.buckets ?? DEFAULT_PLO_BUCKETS;
  if (!Number.isInteger(buckets) || buckets < PLO_MIN_BUCKETS || buckets > PLO_MAX_BUCKETS) {
    throw new RangeError(
      `buckets must be an integer from ${PLO_MIN_BUCKETS} to ${PLO_MAX_BUCKETS}, got ${String(buckets)}`,
    );
  }
  const iterations = o.iterations ?? 50;
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > 1000)
    throw new RangeError(`iterations must be an integer from 1 to 1000, got ${String(iterations)}`);
  const weights = checkWeights({ ...DEFAULT_PLO_FEATURE_WEIGHTS, ...(o.weights ?? {}) }, FEATURE_KEYS);
  const playWeights = checkWeights({ ...NO_PLO_PLAY_WEIGHTS, ...(o.playWeights ?? {}) }, PLAY_KEYS);
  const f = o.focus;
  if (
    f !== undefined &&
    !(
      [f.low, f.high, f.floor].every((x) => typeof x === "number" && Number.isFinite(x)) &&
      f.low < f.high &&
      f.floor > 0 &&
      f.floor <= 1
    )
  )
    throw new RangeError(`focus needs numbers low < high and 0 < floor <= 1, got ${JSON.stringify(f)}`);
  return { buckets, iterations, weights, playWeights };
}

/** Builds the abstraction (see the module comment). Deterministic for given options. */
export function buildPloAbstraction(options: PloAbstractionOptions = {}): PloAbstraction {
  const { buckets, iterations, weights, playWeights } = checkOptions(options);
  const table = options.equity ?? loadPloRandomEquity();
  const features = ploClassFeatures(table);
  const play = PLAY_KEYS.some((k) => playWeights[k] > 0)
    ? (options.play ?? loadPloPlayFeatures())
    : undefined;
  const keys: string[] = play ? [...FEATURE_KEYS, ...PLAY_KEYS] : FEATURE_KEYS;
  const weightOf = (key: string): number =>
    key in weights ? weights[key as keyof PloFeatureWeights] : playWeights[key as keyof PloPlayWeights];
  const dims = keys.length;
  // Standardized, weighted feature vectors.
  const raw = features.map((f, i) => [
    ...FEATURE_KEYS.map((k) => Number(f[k])),
    ...(play ? PLAY_KEYS.map((k) => play[k][i]!) : []),
  ]);
  if (play && raw.some((r) => r.some((x) => !Number.isFinite(x))))
    throw new RangeError("the play-features table must have every class computed");
  const vectors = new Float64Array(PLO_CLASS_COUNT * dims);
  for (let d = 0; d < dims; d++) {
    let mean = 0;
    for (const r of raw) mean += r[d]!;
    mean /= raw.length;
    let variance = 0;
    for (const r of raw) variance += (r[d]! - mean) ** 2;
    const sd = Math.sqrt(variance / raw.length) || 1;
    const w = Math.sqrt(weightOf(keys[d]!));
    for (let i = 0; i < raw.length; i++) vectors[i * dims + d] = (w * (raw[i]![d]! - mean)) / sd;
  }
  const members = new Map<string, number[]>();
  for (const f of features) {
    const key = stratumOf(f);
    if (!members.has(key)) members.set(key, []);
    members.get(key)!.push(f.index);
  }
  const strata = PLO_STRATA.filter((s) => members.has(s));
  for (const key of members.keys()) if (!strata.includes(key)) throw new Error(`unlisted stratum ${key}`);
  const focus = ploFocusWeights(features, options.focus);
  const counts = strata.map((s) => members.get(s)!.length);
  const perStratum = options.focus
    ? allocate(
        buckets,
        strata.map((s) => members.get(s)!.reduce((a, i) => a + focus[i]!, 0)),
        counts,
      )
    : allocate(buckets, counts);
  const byClass = {
    equity: Float64Array.from(features, (f) => f.equity),
    combos: Float64Array.from(features, (f) => f.combos),
  };
  const classToBucket = new Uint16Array(PLO_CLASS_COUNT);
  const out: PloBucket[] = [];
  strata.forEach((stratum, si) => {
    const list = members.get(stratum)!;
    const clusters = kMeans(
      list,
      perStratum[si]!,
      vectors,
      dims,
      byClass,
      iterations,
      options.focus && focus,
    );
    // Number the clusters of this stratum by mean equity, highest first (ties by lowest member index).
    const summaries = clusters.map((c) => {
      let combos = 0;
      let eq = 0;
      let lo = Number.POSITIVE_INFINITY;
      let hi = Number.NEGATIVE_INFINITY;
      for (const i of c.members) {
        const f = features[i]!;
        combos += f.combos;
        eq += f.combos * f.equity;
        lo = Math.min(lo, f.equity);
        hi = Math.max(hi, f.equity);
      }
      return { ...c, combos, mean: eq / combos, lo, hi };
    });
    summaries.sort((a, b) => b.mean - a.mean || a.members[0]! - b.members[0]!);
    summaries.forEach((c, j) => {
      const id = out.length;
      for (const i of c.members) classToBucket[i] = id;
      out.push({
        id,
        name: `${stratum}.${j + 1}`,
        stratum,
        representative: features[c.representative]!.name,
        classes: c.members.length,
        combos: c.combos,
        meanEquity: c.mean,
        minEquity: c.lo,
        maxEquity: c.hi,
      });
    });
  });
  return {
    bucketCount: out.length,
    classToBucket,
    buckets: out,
    params: {
      buckets,
      iterations,
      weights,
      equity: { boards: table.boards, opponentsPerBoard: table.opponentsPerBoard, seed: table.seed },
      ...(options.focus ? { focus: { ...options.focus } } : {}),
      ...(play
        ? {
            play: {
              weights: playWeights,
              flops: play.flops,
              runoutsPerFlop: play.runoutsPerFlop,
              opponentsPerBoard: play.opponentsPerBoard,
              seed: play.seed,
            },
          }
        : {}),
    },
  };
}
