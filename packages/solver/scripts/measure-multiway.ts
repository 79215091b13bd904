/**
 * Measures the solver's multiway showdown model (board-conditioned duels, src/model/multiway.ts, and the
 * independent duels it replaced; see src/engine/cfr.ts) against direct simulation of multiway all-ins, and the
 * error of drawing each opponent's hand independently against mine.
 *
 *   node packages/solver/scripts/measure-multiway.ts [--seed S] [--class-samples N] [--range-samples N]
 *     [--multiway PATH]   (a board-conditioned table other than data/equity/holdem-multiway.bin)
 *
 * Runs straight from the TypeScript sources on Node >= 22.18 / 24 (type stripping); @ranges/core must be built
 * (`pnpm build`). Prints a markdown report on stdout (progress on stderr). Deterministic for a given seed
 * (only the runtime in the last line changes). Defaults: 4,000,000 deals per fixed-hand matchup, 1,000,000 per
 * class of player 1's range; about 260 million deals, under a minute on one core.
 *
 * 1. Fixed hands: players hold fixed classes; combos are dealt uniformly among those that share no card, the
 *    board uniformly from the rest, and the pot split among the best hands. Compared with the independent
 *    duels' share s_i = prod_j d_ij + (1 - sum_m prod_{l != m} d_ml) / k, d_ij the class table's heads-up
 *    equity, and the board-conditioned one, P_i = sum_k pi_k(a_i) prod_j d^k_ij in place of prod_j d_ij.
 * 2. Ranges: for each class of player 1's range, the same simulation with the opponents' combos drawn from
 *    their ranges (no card shared by anyone: exact joint card removal). Compared with
 *      E: the independent duels' engine formula (each opponent drawn against my class with W, the cycle term
 *         taken from opponent m's duels against opponent l's range with card removal against m's class),
 *      B: the same with board-conditioned duels (the solver's model since v3.3),
 *      I: the exact expectation of s_i with the opponents drawn independently against my class,
 *      J: the exact expectation of s_i with the opponents' classes weighted by exact combo-level joint card
 *         removal,
 *    so J - truth is the error of the duels model itself, I - J that of independent card removal and E - I
 *    that of the engine's cycle term.
 * 3. Joint card removal: the chance that every opponent holds a hand of its range given my hand, exact
 *    (their combos share no card with mine or each other's) vs the product of the heads-up chances, the total
 *    variation distance between the two distributions of the opponents' classes, and the resulting error in
 *    my expected share (I vs J).
 *
 * src/engine/cfr.ts is not imported: `engineShare` re-implements CfrSolver.potShare (checked against the
 * engine's showdown values to 1e-17 when written).
 */

import { parseArgs } from "node:util";
import { HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES, holdemComboCards, seededRandom } from "@ranges/core";
import "./run-from-source.ts";

const { evaluate7 } = await import("../src/eval/evaluator.ts");
const { loadHeadsUpEquity, loadMultiwayTable } = await import("../src/equity/index.ts");
const { buildBucketedDuels } = await import("../src/model/multiway.ts");

const { values: args } = parseArgs({
  options: {
    seed: { type: "string", default: "1" },
    "class-samples": { type: "string", default: "4000000" },
    "range-samples": { type: "string", default: "1000000" },
    multiway: { type: "string" },
  },
});
const SEED = Number(args.seed);
const CLASS_SAMPLES = Number(args["class-samples"]);
const RANGE_SAMPLES = Number(args["range-samples"]);

const started = performance.now();
const N = 169;
/** Opponent combos compatible with one of mine, and a second opponent's given the first's. */
const OPP1 = 1225;
const OPP2 = 1128;
const table = loadHeadsUpEquity();
const EQ = table.eq;
const W = table.w;
const COMBOS = HOLDEM_CLASS_COMBOS;
const NORM = Float64Array.from({ length: N }, (_, a) => 1 / (COMBOS[a]! * OPP1));

const CLASS_INDEX = new Map(HOLDEM_CLASSES.map((name, index) => [name, index]));
function classOf(name: string): number {
  const index = CLASS_INDEX.get(name);
  if (index === undefined) throw new Error(`unknown class ${name}`);
  return index;
}

// ---- Random numbers and combo pools ----

/** Concrete combos a player may hold: two cards and the class of each. */
interface Pool {
  readonly first: Uint8Array;
  readonly second: Uint8Array;
  readonly cls: Uint8Array;
  readonly size: number;
}

function poolOf(classes: readonly number[]): Pool {
  const cards = classes.flatMap((c) => holdemComboCards(c).map(([x, y]) => [x, y, c] as const));
  return {
    first: Uint8Array.from(cards, (t) => t[0]),
    second: Uint8Array.from(cards, (t) => t[1]),
    cls: Uint8Array.from(cards, (t) => t[2]),
    size: cards.length,
  };
}

/** Sums of each player's pot share and of its square over the deals. */
interface SimSums {
  deals: number;
  sum: Float64Array;
  sumSq: Float64Array;
}

/**
 * Deals `samples` showdowns: one combo per player from its pool, uniformly among the tuples in which no card is
 * shared (whole-deal rejection), then five board cards uniformly from the rest; the pot goes to the best hand,
 * split equally on ties.
 */
function simulate(pools: readonly Pool[], samples: number, random: () => number): SimSums {
  const k = pools.length;
  const used = new Int32Array(52);
  let stamp = 0;
  const hole1 = new Int32Array(k);
  const hole2 = new Int32Array(k);
  const value = new Int32Array(k);
  const sum = new Float64Array(k);
  const sumSq = new Float64Array(k);
  for (let deal = 0; deal < samples; deal++) {
    let ok = false;
    while (!ok) {
      stamp++;
      ok = true;
      for (let p = 0; p < k; p++) {
        const pool = pools[p]!;
        const pick = Math.floor(random() * pool.size);
        const x = pool.first[pick]!;
        const y = pool.second[pick]!;
        if (used[x] === stamp || used[y] === stamp) {
          ok = false;
          break;
        }
        used[x] = stamp;
        used[y] = stamp;
        hole1[p] = x;
        hole2[p] = y;
      }
    }
    let b0 = 0;
    let b1 = 0;
    let b2 = 0;
    let b3 = 0;
    let b4 = 0;
    for (let i = 0; i < 5; i++) {
      let c: number;
      do c = Math.floor(random() * 52);
      while (used[c] === stamp);
      used[c] = stamp;
      if (i === 0) b0 = c;
      else if (i === 1) b1 = c;
      else if (i === 2) b2 = c;
      else if (i === 3) b3 = c;
      else b4 = c;
    }
    let best = -1;
    let winners = 0;
    for (let p = 0; p < k; p++) {
      const v = evaluate7(hole1[p]!, hole2[p]!, b0, b1, b2, b3, b4);
      value[p] = v;
      if (v > best) {
        best = v;
        winners = 1;
      } else if (v === best) winners++;
    }
    const share = 1 / winners;
    for (let p = 0; p < k; p++) {
      if (value[p] === best) {
        sum[p]! += share;
        sumSq[p]! += share * share;
      }
    }
  }
  return { deals: samples, sum, sumSq };
}

const meanOf = (s: SimSums, p: number): number => s.sum[p]! / s.deals;
function seOf(s: SimSums, p: number): number {
  const m = meanOf(s, p);
  return Math.sqrt(Math.max(0, s.sumSq[p]! / s.deals - m * m) / (s.deals - 1));
}

// ---- The model ----

/**
 * The board-conditioned duels of the engine's all-in pots: the committed table (or `--multiway PATH`) recentred
 * on the exact heads-up table as the solver does (src/model/multiway.ts), as shares d_k(a, b).
 */
const MW = (() => {
  const t = args.multiway ? loadMultiwayTable(args.multiway) : loadMultiwayTable();
  const allIn = new Float64Array(N * N);
  for (let i = 0; i < N * N; i++) allIn[i] = W[i]! * EQ[i]!;
  const duels = buildBucketedDuels(t, W, [allIn]);
  const eq = new Float64Array(N * t.buckets * N);
  for (let a = 0; a < N; a++)
    for (let k = 0; k < t.buckets; k++)
      for (let b = 0; b < N; b++)
        eq[(a * t.buckets + k) * N + b] =
          W[a * N + b]! > 0 ? duels.matrices[k]![a * N + b]! / W[a * N + b]! : 0;
  return { buckets: t.buckets, pi: duels.pi, eq, boards: t.boards, seed: t.seed };
})();
const KB = MW.buckets;
const dk = (a: number, k: number, b: number): number => MW.eq[(a * KB + k) * N + b]!;
const pik = (a: number, k: number): number => MW.pi[a * KB + k]!;

/** Board-conditioned duels share of every player for fixed classes. */
function bucketShares(classes: readonly number[]): number[] {
  const n = classes.length;
  const sweep = classes.map((a, i) => {
    let p = 0;
    for (let k = 0; k < KB; k++) {
      let prod = pik(a, k);
      classes.forEach((b, j) => {
        if (j !== i) prod *= dk(a, k, b);
      });
      p += prod;
    }
    return p;
  });
  const cycle = 1 - sweep.reduce((x, y) => x + y, 0);
  return sweep.map((s) => s + cycle / n);
}

const eq = (a: number, b: number): number => EQ[a * N + b]!;

/** Independent-duels share of every player for fixed classes. */
function duelShares(classes: readonly number[]): number[] {
  const k = classes.length;
  const sweep = classes.map((a, i) => classes.reduce((prod, b, j) => (j === i ? prod : prod * eq(a, b)), 1));
  const cycle = 1 - sweep.reduce((x, y) => x + y, 0);
  return sweep.map((s) => s + cycle / k);
}

type Range = Float64Array;

/** proj_r(x) and u_r(x) for every class x (the engine's heads-up projections, mass units). */
interface RangeVectors {
  readonly r: Range;
  readonly proj: Float64Array;
  readonly u: Float64Array;
}

function rangeVectors(r: Range): RangeVectors {
  const proj = new Float64Array(N);
  const u = new Float64Array(N);
  for (let x = 0; x < N; x++) {
    let p = 0;
    let v = 0;
    for (let b = 0; b < N; b++) {
      if (r[b] === 0) continue;
      const w = W[x * N + b]! * r[b]!;
      p += w;
      v += w * EQ[x * N + b]!;
    }
    proj[x] = p * NORM[x]!;
    u[x] = v * NORM[x]!;
  }
  return { r, proj, u };
}

/**
 * The engine's expected share for hero class a against the opponents' ranges (CfrSolver.potShare), divided by
 * the opponents' mass prod_j proj_j(a) so it is a share of the pot; and that mass.
 */
function engineShare(a: number, opps: readonly RangeVectors[]): { share: number; mass: number } {
  const k = opps.length + 1;
  let prodU = 1;
  let prodP = 1;
  for (const o of opps) {
    prodU *= o.u[a]!;
    prodP *= o.proj[a]!;
  }
  let out = prodU + (prodP - prodU) / k;
  for (const m of opps) {
    const rest = opps.filter((o) => o !== m);
    let tm = 0;
    for (let x = 0; x < N; x++) {
      if (m.r[x] === 0) continue;
      let g = m.r[x]!;
      for (const l of rest) g *= l.proj[x]! > 0 ? l.u[x]! / l.proj[x]! : 0;
      tm += W[a * N + x]! * EQ[x * N + a]! * g;
    }
    tm *= NORM[a]!;
    for (const l of rest) tm *= l.proj[a]!;
    out -= tm / k;
  }
  return { share: out / prodP, mass: prodP };
}

/**
 * The engine's board-conditioned formula: as `engineShare`, with the duel shares taken per strength bucket of
 * the player whose chance to beat everyone is being computed.
 */
function bucketEngineShare(a: number, opps: readonly RangeVectors[]): { share: number; mass: number } {
  const k = opps.length + 1;
  // u^b_j(x) for every bucket b and class x (mass units).
  const uOf = (o: RangeVectors): Float64Array[] =>
    Array.from({ length: KB }, (_, kb) => {
      const u = new Float64Array(N);
      for (let x = 0; x < N; x++) {
        let v = 0;
        for (let b = 0; b < N; b++) if (o.r[b] !== 0) v += W[x * N + b]! * o.r[b]! * dk(x, kb, b);
        u[x] = v * NORM[x]!;
      }
      return u;
    });
  const us = opps.map(uOf);
  let prodP = 1;
  for (const o of opps) prodP *= o.proj[a]!;
  let prodU = 0;
  for (let kb = 0; kb < KB; kb++) {
    let p = pik(a, kb);
    for (const u of us) p *= u[kb]![a]!;
    prodU += p;
  }
  let out = prodU + (prodP - prodU) / k;
  opps.forEach((m, mi) => {
    const rest = opps.map((_, i) => i).filter((i) => i !== mi);
    let tm = 0;
    for (let x = 0; x < N; x++) {
      if (m.r[x] === 0) continue;
      let px = 0;
      for (let kb = 0; kb < KB; kb++) {
        let g = pik(x, kb) * dk(x, kb, a);
        for (const l of rest) g *= opps[l]!.proj[x]! > 0 ? us[l]![kb]![x]! / opps[l]!.proj[x]! : 0;
        px += g;
      }
      tm += W[a * N + x]! * m.r[x]! * px;
    }
    tm *= NORM[a]!;
    for (const l of rest) tm *= opps[l]!.proj[a]!;
    out -= tm / k;
  });
  return { share: out / prodP, mass: prodP };
}

/** Exact expectation of s_hero with each opponent's class drawn independently against hero class a. */
function independentShare(a: number, opps: readonly RangeVectors[]): number {
  const k = opps.length + 1;
  // P_j(x | a) for every opponent.
  const dist = opps.map((o) => {
    const p = new Float64Array(N);
    let total = 0;
    for (let x = 0; x < N; x++) total += p[x] = W[a * N + x]! * o.r[x]!;
    for (let x = 0; x < N; x++) p[x]! /= total;
    return p;
  });
  let prodU = 1;
  for (const o of opps) prodU *= o.u[a]! / o.proj[a]!;
  let cycle = 1 - prodU;
  for (let m = 0; m < opps.length; m++) {
    const pm = dist[m]!;
    let t = 0;
    for (let x = 0; x < N; x++) {
      if (pm[x] === 0) continue;
      let v = pm[x]! * eq(x, a);
      for (let l = 0; l < opps.length; l++) {
        if (l === m) continue;
        const pl = dist[l]!;
        let e = 0;
        for (let c = 0; c < N; c++) if (pl[c] !== 0) e += pl[c]! * eq(x, c);
        v *= e;
      }
      t += v;
    }
    cycle -= t;
  }
  return prodU + cycle / k;
}

/** The opponents' classes given one combo of hero class a, counted exactly (no card shared by anyone). */
interface JointWeights {
  /**
   * Combo tuples (one per opponent) sharing no card with each other or with the hero combo, by the opponents'
   * classes: key b * N + c (two opponents) or (b * N + c) * N + d (three).
   */
  readonly J: Map<number, number>;
  /** Exact chance that every opponent holds a hand of its range, given one hero combo of class a. */
  readonly mass: number;
}

const cardBit = (card: number): number => (card < 26 ? 1 << card : 0);
const cardBitHigh = (card: number): number => (card >= 26 ? 1 << (card - 26) : 0);

/** Live combos of a pool given the hero's cards, as two card masks (cards 0..25 and 26..51) and a class. */
function livePool(pool: Pool, heroLo: number, heroHi: number) {
  const lo: number[] = [];
  const hi: number[] = [];
  const cls: number[] = [];
  for (let i = 0; i < pool.size; i++) {
    const x = pool.first[i]!;
    const y = pool.second[i]!;
    const l = cardBit(x) | cardBit(y);
    const h = cardBitHigh(x) | cardBitHigh(y);
    if ((l & heroLo) | (h & heroHi)) continue;
    lo.push(l);
    hi.push(h);
    cls.push(pool.cls[i]!);
  }
  return { lo: Int32Array.from(lo), hi: Int32Array.from(hi), cls: Int32Array.from(cls) };
}

function jointWeights(a: number, opps: readonly Pool[]): JointWeights {
  // Every combo of a class is the same up to a suit permutation, which maps each class (so each range) onto
  // itself: one representative combo gives the exact counts.
  const [h1, h2] = holdemComboCards(a)[0]!;
  const live = opps.map((pool) =>
    livePool(pool, cardBit(h1) | cardBit(h2), cardBitHigh(h1) | cardBitHigh(h2)),
  );
  const J = new Map<number, number>();
  let total = 0;
  const add = (key: number) => {
    J.set(key, (J.get(key) ?? 0) + 1);
    total++;
  };
  const y = live[0]!;
  const z = live[1]!;
  const w = live[2];
  for (let i = 0; i < y.lo.length; i++) {
    const lo = y.lo[i]!;
    const hi = y.hi[i]!;
    const row = y.cls[i]! * N;
    for (let j = 0; j < z.lo.length; j++) {
      if ((lo & z.lo[j]!) | (hi & z.hi[j]!)) continue;
      if (!w) {
        add(row + z.cls[j]!);
        continue;
      }
      const lo2 = lo | z.lo[j]!;
      const hi2 = hi | z.hi[j]!;
      const row2 = (row + z.cls[j]!) * N;
      for (let m = 0; m < w.lo.length; m++) if (!((lo2 & w.lo[m]!) | (hi2 & w.hi[m]!))) add(row2 + w.cls[m]!);
    }
  }
  // Deals of the opponents' hands: 1225 for the first, 1128 for the second, 1035 for the third.
  const deals = [OPP1, OPP2, 1035].slice(0, opps.length).reduce((x, y) => x * y, 1);
  return { J, mass: total / deals };
}

/** Expectation of s_hero over the opponents' classes weighted by J. */
function jointShare(a: number, J: Map<number, number>, opponents: number): number {
  let total = 0;
  let s = 0;
  for (const [key, w] of J) {
    const classes = [a];
    let rest = key;
    for (let i = 0; i < opponents; i++) {
      classes.splice(1, 0, rest % N);
      rest = Math.floor(rest / N);
    }
    total += w;
    s += w * duelShares(classes)[0]!;
  }
  return s / total;
}

/**
 * Total variation distance between the opponents' class distribution given hero class a under exact joint
 * card removal (J) and drawn independently (product of W-weighted heads-up chances).
 */
function totalVariation(a: number, J: Map<number, number>, opps: readonly RangeVectors[]): number {
  const dist = opps.map((o) => {
    const p = new Float64Array(N);
    let t = 0;
    for (let x = 0; x < N; x++) t += p[x] = W[a * N + x]! * o.r[x]!;
    for (let x = 0; x < N; x++) p[x]! /= t;
    return p;
  });
  let total = 0;
  for (const w of J.values()) total += w;
  // Tuples missing from J (impossible jointly, e.g. AA for two opponents when I hold two aces) add their
  // independent weight, 1 - covered.
  let tv = 0;
  let covered = 0;
  for (const [key, w] of J) {
    let ind = 1;
    let rest = key;
    for (let i = opps.length - 1; i >= 0; i--) {
      ind *= dist[i]![rest % N]!;
      rest = Math.floor(rest / N);
    }
    covered += ind;
    tv += Math.abs(w / total - ind);
  }
  return (tv + (1 - covered)) / 2;
}

// ---- Ranges by strength ----

/** Heads-up equity of each class against a random hand. */
const VS_RANDOM = Float64Array.from({ length: N }, (_, a) => {
  let w = 0;
  let v = 0;
  for (let b = 0; b < N; b++) {
    w += W[a * N + b]!;
    v += W[a * N + b]! * EQ[a * N + b]!;
  }
  return v / w;
});
const BY_STRENGTH = Array.from({ length: N }, (_, a) => a).sort((x, y) => VS_RANDOM[y]! - VS_RANDOM[x]!);

/** The strongest classes (by equity against a random hand) up to `percent` of the 1326 combos. */
function topRange(percent: number): number[] {
  const target = (percent / 100) * 1326;
  const out: number[] = [];
  let combos = 0;
  for (const a of BY_STRENGTH) {
    if (combos + COMBOS[a]! / 2 > target) break;
    out.push(a);
    combos += COMBOS[a]!;
  }
  return out;
}

const rangeOf = (classes: readonly number[]): Range => {
  const r = new Float64Array(N);
  for (const c of classes) r[c] = 1;
  return r;
};
const combosIn = (classes: readonly number[]): number => classes.reduce((s, c) => s + COMBOS[c]!, 0);

// ---- Formatting ----

const pp = (x: number, digits = 2): string => (100 * x).toFixed(digits);
const signedPp = (x: number, digits = 2): string => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(digits)}`;
const out: string[] = [];
const print = (line = ""): void => {
  out.push(line);
};
const progress = (text: string): void => {
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${text}\n`);
};

// ---- 1. Fixed hands ----

const MATCHUPS: readonly string[][] = [
  ["AA", "KK", "QQ"],
  ["AKs", "QQ", "JTs"],
  ["AA", "72o", "32o"],
  ["22", "AKo", "QJs"],
  ["KK", "AQs", "AJo"],
  ["87s", "99", "55"],
  ["76s", "AA", "KK"],
  ["AKo", "AQo", "AJo"],
  ["AA", "AKs", "KQs"],
  ["TT", "AKo", "AQs"],
  ["KQo", "KJo", "QJo"],
  ["JJ", "TT", "99"],
  ["A5s", "KK", "66"],
  ["AA", "KK", "QQ", "JJ"],
  ["AKs", "QQ", "JTs", "22"],
  ["AA", "KQs", "87s", "65s"],
  ["AKo", "AQo", "KQo", "JTs"],
];

function fixedHands(): void {
  const random = seededRandom(SEED);
  print("## 1. Fixed hands: direct simulation vs independent and board-conditioned duels");
  print();
  print(
    `${CLASS_SAMPLES.toLocaleString("en-US")} deals per matchup (combos uniform among those sharing no card, ` +
      "board uniform from the rest, ties split). Shares in % of the pot; SE is the simulation's standard " +
      "error; error = model - simulation.",
  );
  print();
  print("| matchup | player | simulation (SE) | duels | error | board-conditioned | error |");
  print("|---|---|---|---|---|---|---|");
  const errors: { k: number; err: number; errB: number; label: string }[] = [];
  let maxSe = 0;
  for (const names of MATCHUPS) {
    const classes = names.map(classOf);
    const sims = simulate(
      classes.map((c) => poolOf([c])),
      CLASS_SAMPLES,
      random,
    );
    const model = duelShares(classes);
    const bucketed = bucketShares(classes);
    names.forEach((name, p) => {
      const truth = meanOf(sims, p);
      const se = seOf(sims, p);
      maxSe = Math.max(maxSe, se);
      const err = model[p]! - truth;
      const errB = bucketed[p]! - truth;
      errors.push({ k: names.length, err, errB, label: `${name} in ${names.join("/")}` });
      print(
        `| ${p === 0 ? names.join(" / ") : ""} | ${name} | ${pp(truth)} (${pp(se)}) | ${pp(model[p]!)} | ${signedPp(err)} | ${pp(bucketed[p]!)} | ${signedPp(errB)} |`,
      );
    });
    progress(`fixed hands ${names.join("/")}`);
  }
  print();
  print("| players | model | max abs error (pp) | at | mean abs error (pp) |");
  print("|---|---|---|---|---|");
  for (const k of [3, 4]) {
    for (const key of ["err", "errB"] as const) {
      const e = errors.filter((x) => x.k === k);
      const worst = e.reduce((x, y) => (Math.abs(y[key]) > Math.abs(x[key]) ? y : x));
      const mean = e.reduce((s, x) => s + Math.abs(x[key]), 0) / e.length;
      print(
        `| ${k} | ${key === "err" ? "independent duels" : `board-conditioned (${KB} buckets)`} | ${pp(Math.abs(worst[key]))} | ${worst.label} | ${pp(mean)} |`,
      );
    }
  }
  print();
  print(`Largest simulation SE: ${pp(maxSe, 3)} pp.`);
  print();
}

// ---- 2 and 3. Ranges ----

interface Scenario {
  readonly name: string;
  /** Percent of hands in each player's range; player 1 is the hero whose classes are measured. */
  readonly percents: readonly number[];
}

const SCENARIOS: readonly Scenario[] = [
  { name: "three top-10% ranges", percents: [10, 10, 10] },
  { name: "top 5% vs top 15% vs top 25%", percents: [5, 15, 25] },
  { name: "top 25% vs top 15% vs top 5%", percents: [25, 15, 5] },
  { name: "jam 35% vs calls 12% and 8%", percents: [35, 12, 8] },
  { name: "call 12% vs jam 35% and call 8%", percents: [12, 35, 8] },
  { name: "four top-10% ranges", percents: [10, 10, 10, 10] },
];

interface ClassRow {
  a: number;
  truth: number[];
  se: number[];
  engine: number;
  bucketed: number;
  independent: number;
  joint: number;
  engineMass: number;
  jointMass: number;
  /** Total variation distance between the opponents' joint and independent class distributions. */
  tv: number;
}

interface ScenarioResult {
  scenario: Scenario;
  rows: ClassRow[];
  /** Range-average shares of every player: simulation (SE), engine. */
  avgTruth: number[];
  avgSe: number[];
  avgEngine: number[];
  avgBucketed: number[];
  avgIndependent: number;
  avgJoint: number;
  deals: number;
}

function runScenario(scenario: Scenario, random: () => number): ScenarioResult {
  const k = scenario.percents.length;
  const ranges = scenario.percents.map(topRange);
  const pools = ranges.map(poolOf);
  const vectors = ranges.map((r) => rangeVectors(rangeOf(r)));
  const rows: ClassRow[] = [];
  let deals = 0;
  for (const a of ranges[0]!) {
    const sims = simulate([poolOf([a]), ...pools.slice(1)], RANGE_SAMPLES, random);
    deals += sims.deals;
    const { share: engine, mass: engineMass } = engineShare(a, vectors.slice(1));
    const bucketed = bucketEngineShare(a, vectors.slice(1)).share;
    const independent = independentShare(a, vectors.slice(1));
    const jw = jointWeights(a, pools.slice(1));
    const joint = jointShare(a, jw.J, k - 1);
    const tv = totalVariation(a, jw.J, vectors.slice(1));
    rows.push({
      a,
      truth: Array.from({ length: k }, (_, p) => meanOf(sims, p)),
      se: Array.from({ length: k }, (_, p) => seOf(sims, p)),
      engine,
      bucketed,
      independent,
      joint,
      engineMass,
      jointMass: jw.mass,
      tv,
    });
  }
  // Range averages. The hero's classes were sampled equally often: weight each by its true chance (combos
  // times the exact joint mass).
  const trueWeight = rows.map((row) => COMBOS[row.a]! * row.jointMass);
  const totalTrue = trueWeight.reduce((s, w) => s + w, 0);
  const avgTruth: number[] = [];
  const avgSe: number[] = [];
  for (let p = 0; p < k; p++) {
    let m = 0;
    let v = 0;
    rows.forEach((row, i) => {
      const w = trueWeight[i]! / totalTrue;
      m += w * row.truth[p]!;
      v += w * w * row.se[p]! ** 2;
    });
    avgTruth.push(m);
    avgSe.push(Math.sqrt(v));
  }
  // The engine's range average for every player: its per-class share weighted by its (independent) mass.
  const avgEngine: number[] = [];
  const avgBucketed: number[] = [];
  for (let p = 0; p < k; p++) {
    const opps = vectors.filter((_, j) => j !== p);
    let m = 0;
    let mb = 0;
    let total = 0;
    for (const a of ranges[p]!) {
      const e = engineShare(a, opps);
      const w = COMBOS[a]! * e.mass;
      m += w * e.share;
      mb += w * bucketEngineShare(a, opps).share;
      total += w;
    }
    avgEngine.push(m / total);
    avgBucketed.push(mb / total);
  }
  const engineWeight = rows.map((row) => COMBOS[row.a]! * row.engineMass);
  const totalEngine = engineWeight.reduce((s, w) => s + w, 0);
  const avgIndependent = rows.reduce(
    (s, row, i) => s + (engineWeight[i]! / totalEngine) * row.independent,
    0,
  );
  const avgJoint = rows.reduce((s, row, i) => s + (trueWeight[i]! / totalTrue) * row.joint, 0);
  return { scenario, rows, avgTruth, avgSe, avgEngine, avgBucketed, avgIndependent, avgJoint, deals };
}

function describeRanges(scenario: Scenario): string {
  return scenario.percents
    .map((pct, p) => {
      const r = topRange(pct);
      return `P${p + 1} top ${pct}% (${r.length} classes, ${combosIn(r)} combos)`;
    })
    .join("; ");
}

function rangeReport(results: readonly ScenarioResult[]): void {
  print("## 2. Ranges: direct simulation vs the engine's formula");
  print();
  print(
    "Ranges are the strongest classes by heads-up equity against a random hand (from the class table), " +
      `whole classes, up to the given share of the 1326 combos. Each class of P1's range is simulated with ` +
      `${RANGE_SAMPLES.toLocaleString("en-US")} deals (P1 combo uniform in the class, opponents' combos uniform ` +
      "in their ranges, no card shared by anyone, board uniform). E = independent duels' engine formula " +
      "(CfrSolver.potShare re-implemented: independent opponents, cycle term from opponent m's duels against " +
      "opponent l's range with card removal against m's class); B = the same with board-conditioned duels, " +
      "the solver's model; I = exact expectation of the duel shares with independent " +
      "opponents; J = exact expectation with exact joint card removal of the opponents' combos. Errors are model - simulation in percentage points of the pot; per-class errors over P1's " +
      "classes (mean weighted by each class's true probability), range averages weighted by each class's " +
      "probability (true for the simulation and J, the engine's independent mass for E and I).",
  );
  print();
  for (const res of results) {
    const { scenario, rows } = res;
    const k = scenario.percents.length;
    print(`### ${scenario.name}`);
    print();
    print(`${describeRanges(scenario)}. ${res.deals.toLocaleString("en-US")} deals.`);
    print();
    const seMax = Math.max(...rows.map((r) => r.se[0]!));
    const seMean = rows.reduce((s, r) => s + r.se[0]!, 0) / rows.length;
    const weights = rows.map((r) => COMBOS[r.a]! * r.jointMass);
    const totalW = weights.reduce((s, w) => s + w, 0);
    const models = ["engine", "bucketed", "independent", "joint"] as const;
    print(
      "| model | per-class max abs error (pp) | at class | per-class mean abs error (pp) | P1 range-average error (pp) |",
    );
    print("|---|---|---|---|---|");
    for (const model of models) {
      let worst = rows[0]!;
      let mean = 0;
      rows.forEach((row, i) => {
        const e = Math.abs(row[model] - row.truth[0]!);
        if (e > Math.abs(worst[model] - worst.truth[0]!)) worst = row;
        mean += (weights[i]! / totalW) * e;
      });
      const avg =
        model === "engine"
          ? res.avgEngine[0]!
          : model === "bucketed"
            ? res.avgBucketed[0]!
            : model === "independent"
              ? res.avgIndependent
              : res.avgJoint;
      print(
        `| ${{ engine: "E", bucketed: "B", independent: "I", joint: "J" }[model]} | ` +
          `${pp(Math.abs(worst[model] - worst.truth[0]!))} | ${HOLDEM_CLASSES[worst.a]} (sim ${pp(worst.truth[0]!)}, ` +
          `model ${pp(worst[model])}) | ${pp(mean)} | ${signedPp(avg - res.avgTruth[0]!, 3)} |`,
      );
    }
    print();
    print(`Per-class simulation SE: mean ${pp(seMean, 3)} pp, max ${pp(seMax, 3)} pp.`);
    print();
    print(
      "| player | range-average share, simulation (SE) | duels (E) | error (pp) | board-conditioned (B) | error (pp) |",
    );
    print("|---|---|---|---|---|---|");
    for (let p = 0; p < k; p++) {
      print(
        `| P${p + 1} | ${pp(res.avgTruth[p]!, 3)} (${pp(res.avgSe[p]!, 3)}) | ${pp(res.avgEngine[p]!, 3)} | ` +
          `${signedPp(res.avgEngine[p]! - res.avgTruth[p]!, 3)} | ${pp(res.avgBucketed[p]!, 3)} | ` +
          `${signedPp(res.avgBucketed[p]! - res.avgTruth[p]!, 3)} |`,
      );
    }
    const sumOf = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
    print(
      `| sum | ${pp(sumOf(res.avgTruth), 3)} | ${pp(sumOf(res.avgEngine), 3)} | | ${pp(sumOf(res.avgBucketed), 3)} | |`,
    );
    print();
    const worstRows = [...rows]
      .sort((x, y) => Math.abs(y.engine - y.truth[0]!) - Math.abs(x.engine - x.truth[0]!))
      .slice(0, 5);
    print("Largest engine errors among P1's classes:");
    print();
    print("| class | simulation (SE) | E | I | J | E error |");
    print("|---|---|---|---|---|---|");
    for (const row of worstRows) {
      print(
        `| ${HOLDEM_CLASSES[row.a]} | ${pp(row.truth[0]!)} (${pp(row.se[0]!)}) | ${pp(row.engine)} | ` +
          `${pp(row.independent)} | ${pp(row.joint)} | ${signedPp(row.engine - row.truth[0]!)} |`,
      );
    }
    print();
  }
}

function jointReport(results: readonly ScenarioResult[]): void {
  print("## 3. Card removal between opponents: independent vs exact joint");
  print();
  print(
    "For each class a of P1's range (one combo; every combo of a class gives the same counts): mass = chance " +
      "that every opponent holds a hand of its range given P1's hand, exact (combo tuples sharing no card " +
      `with each other or P1 / (${OPP1} x ${OPP2} [x 1035])) vs the engine's product of the heads-up chances ` +
      `(W-weighted, / ${OPP1} each); relative error = independent / exact - 1. TV = total variation distance ` +
      "between the opponents' class distributions given a (exact joint vs independent product). Share " +
      "error = I - J, the duel-model share under independent vs exact joint weights of the opponents' " +
      "classes. Means over P1's classes weighted by their true probability; the range mass error compares " +
      "sum_a combos(a) x mass(a); the range-average share error weights I by the independent mass and J by " +
      "the exact mass. All exact (no sampling).",
  );
  print();
  print(
    "| scenario | mass rel. error max | at | mass rel. error mean | P1 range mass rel. error | TV max | TV mean | share error max (pp) | at | share error mean (pp) | range-average share error (pp) |",
  );
  print("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const res of results) {
    const rows = res.rows;
    const weights = rows.map((r) => COMBOS[r.a]! * r.jointMass);
    const totalW = weights.reduce((s, w) => s + w, 0);
    const rel = rows.map((r) => r.engineMass / r.jointMass - 1);
    const shareErr = rows.map((r) => r.independent - r.joint);
    const argmax = (xs: number[]) =>
      xs.reduce((best, x, i) => (Math.abs(x) > Math.abs(xs[best]!) ? i : best), 0);
    const iMass = argmax(rel);
    const iShare = argmax(shareErr);
    const meanAbs = (xs: number[]) => xs.reduce((s, x, i) => s + (weights[i]! / totalW) * Math.abs(x), 0);
    const rangeMassRel =
      rows.reduce((s, r) => s + COMBOS[r.a]! * r.engineMass, 0) /
        rows.reduce((s, r) => s + COMBOS[r.a]! * r.jointMass, 0) -
      1;
    print(
      `| ${res.scenario.name} | ${signedPp(rel[iMass]!)}% | ${HOLDEM_CLASSES[rows[iMass]!.a]} | ${pp(meanAbs(rel))}% | ` +
        `${signedPp(rangeMassRel)}% | ${pp(Math.max(...rows.map((r) => r.tv)), 2)}% | ` +
        `${pp(meanAbs(rows.map((r) => r.tv)), 2)}% | ${signedPp(shareErr[iShare]!, 3)} | ${HOLDEM_CLASSES[rows[iShare]!.a]} | ` +
        `${pp(meanAbs(shareErr), 3)} | ${signedPp(res.avgIndependent - res.avgJoint, 3)} |`,
    );
  }
  print();
}

// ---- Main ----

print("# Multiway all-in showdowns: the duels models vs direct simulation");
print();
print(
  `Seed ${SEED}; heads-up class table: ${table.method}` +
    `${table.method === "exact" ? "" : ` (${table.samples} boards, seed ${table.seed})`}; board-conditioned ` +
    `table: ${KB} buckets, ${MW.boards.toLocaleString("en-US")} boards, seed ${MW.seed}. Hand values from evaluate7.`,
);
print();
fixedHands();
const random = seededRandom(SEED + 1);
const results = SCENARIOS.map((scenario) => {
  const res = runScenario(scenario, random);
  progress(`ranges: ${scenario.name}`);
  return res;
});
rangeReport(results);
jointReport(results);
const totalDeals = MATCHUPS.length * CLASS_SAMPLES + results.reduce((s, r) => s + r.deals, 0);
print(
  `Total ${totalDeals.toLocaleString("en-US")} simulated deals; ${((performance.now() - started) / 1000).toFixed(0)} s ` +
    `on Node ${process.versions.node}.`,
);
process.stdout.write(`${out.join("\n")}\n`);
