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

import { crc32 } from "node:zlib";
import { PLO_CLASS_COUNT, ploClassComboCounts, ploClasses } from "@ranges/core";
import { ploHandsOfClass } from "./equity.js";
import { loadPloRandomEquity, type PloRandomEquityTable } from "./random-equity.js";

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

export const PLO_MIN_BUCKETS = 64;
export const PLO_MAX_BUCKETS = 4096;
export const DEFAULT_PLO_BUCKETS = 512;

export interface PloAbstractionOptions {
  /** Number of buckets, an integer in [64, 4096] (default 512). */
  readonly buckets?: number;
  /** Lloyd rounds per stratum at most (default 50). */
  readonly iterations?: number;
  readonly weights?: Partial<PloFeatureWeights>;
  /** The equity table (default: the committed one). */
  readonly equity?: PloRandomEquityTable;
}

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
  };
}

function checkOptions(o: PloAbstractionOptions): {
  buckets: number;
  iterations: number;
  weights: PloFeatureWeights;
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
  const weights = { ...DEFAULT_PLO_FEATURE_WEIGHTS, ...(o.weights ?? {}) };
  for (const key of Object.keys(weights)) {
    if (!(FEATURE_KEYS as string[]).includes(key)) throw new RangeError(`unknown feature weight "${key}"`);
    const w = weights[key as keyof PloFeatureWeights];
    if (typeof w !== "number" || !Number.isFinite(w) || w < 0)
      throw new RangeError(`feature weight ${key} must be a finite number >= 0, got ${String(w)}`);
  }
  return { buckets, iterations, weights };
}

/** Splits `total` over `sizes` (each at least 1) in proportion, largest remainder, ties to the earlier. */
function allocate(total: number, sizes: readonly number[]): number[] {
  const n = sizes.length;
  const sum = sizes.reduce((a, b) => a + b, 0);
  const spare = total - n;
  const out = sizes.map((s) => 1 + Math.floor((spare * s) / sum));
  // Never more buckets than members.
  for (let i = 0; i < n; i++) out[i] = Math.min(out[i]!, sizes[i]!);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = sizes
    .map((s, i) => ({ i, r: (spare * s) / sum - Math.floor((spare * s) / sum) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  while (left > 0) {
    let moved = false;
    for (const { i } of order) {
      if (left === 0) break;
      if (out[i]! < sizes[i]!) {
        out[i]! += 1;
        left--;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return out;
}

/** Builds the abstraction (see the module comment). Deterministic for given options. */
export function buildPloAbstraction(options: PloAbstractionOptions = {}): PloAbstraction {
  const { buckets, iterations, weights } = checkOptions(options);
  const table = options.equity ?? loadPloRandomEquity();
  const features = ploClassFeatures(table);
  const dims = FEATURE_KEYS.length;
  // Standardized, weighted feature vectors.
  const raw = features.map((f) => FEATURE_KEYS.map((k) => Number(f[k])));
  const vectors = new Float64Array(PLO_CLASS_COUNT * dims);
  for (let d = 0; d < dims; d++) {
    let mean = 0;
    for (const r of raw) mean += r[d]!;
    mean /= raw.length;
    let variance = 0;
    for (const r of raw) variance += (r[d]! - mean) ** 2;
    const sd = Math.sqrt(variance / raw.length) || 1;
    const w = Math.sqrt(weights[FEATURE_KEYS[d]!]);
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
  const perStratum = allocate(
    buckets,
    strata.map((s) => members.get(s)!.length),
  );
  const classToBucket = new Uint16Array(PLO_CLASS_COUNT);
  const out: PloBucket[] = [];
  strata.forEach((stratum, si) => {
    const list = members.get(stratum)!;
    const clusters = kMeans(list, perStratum[si]!, vectors, dims, features, iterations);
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
    },
  };
}

interface Cluster {
  /** Class indices, ascending. */
  members: number[];
  representative: number;
}

/** Lloyd's k-means over `list` (class indices) with combo-weighted centroids; deterministic. */
function kMeans(
  list: readonly number[],
  k: number,
  vectors: Float64Array,
  dims: number,
  features: readonly PloClassFeatures[],
  iterations: number,
): Cluster[] {
  const n = list.length;
  const dist = (i: number, centers: Float64Array, c: number) => {
    let s = 0;
    for (let d = 0; d < dims; d++) {
      const x = vectors[i * dims + d]! - centers[c * dims + d]!;
      s += x * x;
    }
    return s;
  };
  // Start: the members at evenly spaced quantiles of equity (ties by index).
  const byEquity = [...list].sort((a, b) => features[b]!.equity - features[a]!.equity || a - b);
  const centers = new Float64Array(k * dims);
  for (let c = 0; c < k; c++) {
    const i = byEquity[Math.floor(((c + 0.5) * n) / k)]!;
    for (let d = 0; d < dims; d++) centers[c * dims + d] = vectors[i * dims + d]!;
  }
  const assign = new Int32Array(n).fill(-1);
  for (let round = 0; round < iterations; round++) {
    let changed = 0;
    for (let m = 0; m < n; m++) {
      const i = list[m]!;
      let best = 0;
      let bestD = dist(i, centers, 0);
      for (let c = 1; c < k; c++) {
        const x = dist(i, centers, c);
        if (x < bestD) {
          bestD = x;
          best = c;
        }
      }
      if (assign[m] !== best) changed++;
      assign[m] = best;
    }
    // Combo-weighted centroids.
    const sums = new Float64Array(k * dims);
    const mass = new Float64Array(k);
    for (let m = 0; m < n; m++) {
      const i = list[m]!;
      const c = assign[m]!;
      const w = features[i]!.combos;
      mass[c]! += w;
      for (let d = 0; d < dims; d++) sums[c * dims + d]! += w * vectors[i * dims + d]!;
    }
    for (let c = 0; c < k; c++) {
      if (mass[c]! > 0) {
        for (let d = 0; d < dims; d++) centers[c * dims + d] = sums[c * dims + d]! / mass[c]!;
        continue;
      }
      // An empty bucket takes the member farthest from its own centroid (ties: the earliest).
      let far = -1;
      let farD = -1;
      for (let m = 0; m < n; m++) {
        const x = dist(list[m]!, centers, assign[m]!);
        if (x > farD) {
          farD = x;
          far = m;
        }
      }
      assign[far] = c;
      mass[c] = 1;
      for (let d = 0; d < dims; d++) centers[c * dims + d] = vectors[list[far]! * dims + d]!;
      changed++;
    }
    if (changed === 0) break;
  }
  // A final assignment pass can still empty a bucket; fold such buckets away rather than emit an empty one.
  const clusters: Cluster[] = [];
  for (let c = 0; c < k; c++) {
    const memberList: number[] = [];
    for (let m = 0; m < n; m++) if (assign[m] === c) memberList.push(list[m]!);
    if (memberList.length === 0) continue;
    let rep = memberList[0]!;
    let repD = Number.POSITIVE_INFINITY;
    for (const i of memberList) {
      const x = dist(i, centers, c);
      if (x < repD) {
        repD = x;
        rep = i;
      }
    }
    clusters.push({ members: memberList.sort((a, b) => a - b), representative: rep });
  }
  return clusters;
}

/**
 * The class-to-bucket map as a pack stores it: JSON-safe, about 44 KB for 16,432 classes.
 *
 * ```json
 * { "format": "plo-bucket-map", "version": 1, "classes": 16432, "buckets": 512,
 *   "encoding": "u16le-base64", "map": "<base64 of 16,432 little-endian u16 bucket ids>",
 *   "names": ["ds.none.nut.1", ...], "representatives": ["(AK)(QJ)", ...], "crc32": 123456789 }
 * ```
 *
 * The map is in `ploClasses()` order; `names[b]` and `representatives[b]` describe bucket b; crc32 covers
 * the decoded map bytes. `decodePloBucketMap` refuses anything else: a wrong format or version, a class
 * count other than 16,432, a map of the wrong length, a bucket id out of range, an empty bucket, names or
 * representatives of the wrong length, or a checksum mismatch.
 */
export interface PloBucketMapJson {
  readonly format: "plo-bucket-map";
  readonly version: 1;
  readonly classes: number;
  readonly buckets: number;
  readonly encoding: "u16le-base64";
  readonly map: string;
  readonly names: readonly string[];
  readonly representatives: readonly string[];
  readonly crc32: number;
}

export function encodePloBucketMap(a: Pick<PloAbstraction, "classToBucket" | "buckets">): PloBucketMapJson {
  const bytes = new Uint8Array(PLO_CLASS_COUNT * 2);
  const view = new DataView(bytes.buffer);
  if (a.classToBucket.length !== PLO_CLASS_COUNT)
    throw new RangeError(`the map needs ${PLO_CLASS_COUNT} classes`);
  for (let i = 0; i < PLO_CLASS_COUNT; i++) view.setUint16(2 * i, a.classToBucket[i]!, true);
  return {
    format: "plo-bucket-map",
    version: 1,
    classes: PLO_CLASS_COUNT,
    buckets: a.buckets.length,
    encoding: "u16le-base64",
    map: Buffer.from(bytes).toString("base64"),
    names: a.buckets.map((b) => b.name),
    representatives: a.buckets.map((b) => b.representative),
    crc32: crc32(bytes),
  };
}

export interface DecodedPloBucketMap {
  readonly classToBucket: Uint16Array;
  readonly names: readonly string[];
  readonly representatives: readonly string[];
}

export function decodePloBucketMap(json: unknown): DecodedPloBucketMap {
  const fail = (why: string): never => {
    throw new Error(`invalid PLO bucket map: ${why}`);
  };
  if (typeof json !== "object" || json === null) return fail("not an object");
  const j = json as Partial<Record<keyof PloBucketMapJson, unknown>>;
  if (j.format !== "plo-bucket-map") fail(`format ${JSON.stringify(j.format)}`);
  if (j.version !== 1) fail(`version ${JSON.stringify(j.version)}`);
  if (j.classes !== PLO_CLASS_COUNT)
    fail(`classes ${JSON.stringify(j.classes)} (expected ${PLO_CLASS_COUNT})`);
  if (j.encoding !== "u16le-base64") fail(`encoding ${JSON.stringify(j.encoding)}`);
  const buckets = j.buckets;
  if (typeof buckets !== "number" || !Number.isInteger(buckets) || buckets < 1 || buckets > 65_536)
    return fail(`buckets ${JSON.stringify(buckets)}`);
  if (typeof j.map !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(j.map)) return fail("map is not base64");
  const bytes = new Uint8Array(Buffer.from(j.map, "base64"));
  if (bytes.length !== PLO_CLASS_COUNT * 2)
    fail(`map has ${bytes.length} bytes, expected ${PLO_CLASS_COUNT * 2}`);
  if (crc32(bytes) !== j.crc32) fail("checksum mismatch (crc32)");
  const strings = (x: unknown, what: string): string[] => {
    if (!Array.isArray(x) || x.length !== buckets || x.some((s) => typeof s !== "string"))
      return fail(`${what} must be ${buckets} strings`);
    return x as string[];
  };
  const names = strings(j.names, "names");
  const representatives = strings(j.representatives, "representatives");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const classToBucket = new Uint16Array(PLO_CLASS_COUNT);
  const used = new Uint8Array(buckets);
  for (let i = 0; i < PLO_CLASS_COUNT; i++) {
    const b = view.getUint16(2 * i, true);
    if (b >= buckets) fail(`class ${i} has bucket ${b}, but there are ${buckets} buckets`);
    classToBucket[i] = b;
    used[b] = 1;
  }
  const empty = used.indexOf(0);
  if (empty >= 0) fail(`bucket ${empty} has no class`);
  return { classToBucket, names, representatives };
}
