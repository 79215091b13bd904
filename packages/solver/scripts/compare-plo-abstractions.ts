/**
 * The packs' PLO abstraction beside the play-aware one (issue 30, item 3; docs/plo-abstraction.md, "Buckets
 * that separate how hands play"): how tight the buckets are in each feature (the spread, highest minus lowest
 * member, per bucket: median, 90th percentile, largest), how many classes share a bucket among the hands that
 * are played and among those that are not, and which of a list of named hands share a bucket.
 *
 *   node packages/solver/scripts/compare-plo-abstractions.ts [--buckets 512] [--json OUT]
 *
 * Runs straight from the TypeScript sources (Node >= 22.18 / 24); @ranges/core must be built. A few seconds.
 */

import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import "./run-from-source.ts";

const solver: typeof import("../src/index.ts") = await import("../src/index.ts");
const { ploClassIndex } = await import("@ranges/core");
const { buildPloAbstraction, loadPloPlayFeatures, loadPloRandomEquity, PLO_PLAY_ABSTRACTION } = solver;

const { values } = parseArgs({
  options: { buckets: { type: "string", default: "512" }, json: { type: "string" } },
});
const buckets = Number(values.buckets);
const play = loadPloPlayFeatures();
const equity = loadPloRandomEquity();

/** Hands that should not share a bucket if buckets follow play (the examples first). */
const PAIRS: readonly (readonly [string, string])[] = [
  ["(98)(76)", "(87)(65)"],
  ["(87)(65)", "(76)(54)"],
  ["9876", "8765"],
  ["JT98", "AK72"],
  ["(JT)98", "(AK)72"],
  ["(T9)(87)", "(AQ)(72)"],
  ["(A6)54", "(A8)72"],
  ["(A5)43", "(A9)62"],
  ["QQQQ", "9642"],
];

const columns = {
  equity: equity.eq,
  flopSd: play.flopSd,
  riverSd: play.riverSd,
  nutRate: play.nutRate,
  strongRate: play.strongRate,
} as const;

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function describe(name: string, options: Parameters<typeof buildPloAbstraction>[0]) {
  const a = buildPloAbstraction(options);
  const spreads: Record<string, { median: number; p90: number; max: number }> = {};
  for (const [key, col] of Object.entries(columns)) {
    const lo = new Float64Array(a.bucketCount).fill(Number.POSITIVE_INFINITY);
    const hi = new Float64Array(a.bucketCount).fill(Number.NEGATIVE_INFINITY);
    a.classToBucket.forEach((b, c) => {
      lo[b] = Math.min(lo[b]!, col[c]!);
      hi[b] = Math.max(hi[b]!, col[c]!);
    });
    const s = Array.from(hi, (h, b) => h - lo[b]!).sort((x, y) => x - y);
    spreads[key] = { median: quantile(s, 0.5), p90: quantile(s, 0.9), max: s[s.length - 1]! };
  }
  // How many classes a class shares its bucket with (itself included), for the hands that are played and
  // for those that are not (all-in equity against a random hand at least 0.50, at most 0.44).
  const size = new Int32Array(a.bucketCount);
  for (const b of a.classToBucket) size[b]! += 1;
  const shared = (keep: (e: number) => boolean) => {
    let sum = 0;
    let n = 0;
    a.classToBucket.forEach((b, c) => {
      if (!keep(equity.eq[c]!)) return;
      sum += size[b]!;
      n++;
    });
    return sum / n;
  };
  const classesPerBucket = { above050: shared((e) => e >= 0.5), below044: shared((e) => e <= 0.44) };
  // Rundowns (four ranks in a row, unpaired): the combo share of their bucket-mates that cannot make a wrap
  // (at most one straight window holding three of their ranks), and how many share with another rundown.
  const features = solver.ploClassFeatures();
  const isRundown = (c: number) =>
    features[c]!.pairing === "none" && features[c]!.ranks[0]! - features[c]!.ranks[3]! === 3;
  const mates = new Map<number, number[]>();
  a.classToBucket.forEach((b, c) => {
    if (!mates.has(b)) mates.set(b, []);
    mates.get(b)!.push(c);
  });
  let noWrap = 0;
  let mateCombos = 0;
  let rundowns = 0;
  let withRundown = 0;
  for (let c = 0; c < features.length; c++) {
    if (!isRundown(c)) continue;
    rundowns++;
    const m = mates.get(a.classToBucket[c]!)!.filter((x) => x !== c);
    for (const x of m) {
      mateCombos += features[x]!.combos;
      if (features[x]!.wrapWindows <= 1) noWrap += features[x]!.combos;
    }
    if (m.some(isRundown)) withRundown++;
  }
  const rundownMates = { rundowns, cannotWrapShare: noWrap / mateCombos, sharingWithARundown: withRundown };
  const pairs = PAIRS.map(([x, y]) => {
    const [bx, by] = [x, y].map((h) => a.classToBucket[ploClassIndex(h)!]!);
    return { hands: [x, y], buckets: [a.buckets[bx!]!.name, a.buckets[by!]!.name], shared: bx === by };
  });
  return { name, buckets: a.bucketCount, spreads, classesPerBucket, rundownMates, pairs };
}

const rows = [
  describe("packs' abstraction (shape and equity)", { buckets }),
  describe("play features, budget as the packs'", {
    buckets,
    weights: PLO_PLAY_ABSTRACTION.weights,
    playWeights: PLO_PLAY_ABSTRACTION.playWeights,
  }),
  describe("play-aware (PLO_PLAY_ABSTRACTION: play features and focus)", {
    buckets,
    ...PLO_PLAY_ABSTRACTION,
  }),
];
const named = Object.fromEntries(
  [...new Set(PAIRS.flat())].map((h) => {
    const c = ploClassIndex(h)!;
    return [
      h,
      Object.fromEntries(Object.entries(columns).map(([k, col]) => [k, Number(col[c]!.toFixed(4))])),
    ];
  }),
);
for (const r of rows) {
  console.log(`${r.name}, ${r.buckets} buckets; spread within a bucket (median / p90 / largest):`);
  for (const [k, s] of Object.entries(r.spreads))
    console.log(`  ${k.padEnd(10)} ${s.median.toFixed(3)} / ${s.p90.toFixed(3)} / ${s.max.toFixed(3)}`);
  console.log(
    `  classes sharing a class's bucket: ${r.classesPerBucket.above050.toFixed(1)} at equity >= 0.50, ${r.classesPerBucket.below044.toFixed(1)} at <= 0.44`,
  );
  console.log(
    `  rundowns: ${r.rundownMates.rundowns}; their bucket-mates that cannot wrap: ${(100 * r.rundownMates.cannotWrapShare).toFixed(1)}% of the combos; ${r.rundownMates.sharingWithARundown} share a bucket with another rundown`,
  );
  for (const p of r.pairs)
    console.log(
      `  ${p.hands.join(" and ").padEnd(24)} ${p.shared ? "SHARE" : "apart"} (${p.buckets.join(", ")})`,
    );
}
console.log("named hands:");
for (const [h, f] of Object.entries(named)) console.log(`  ${h.padEnd(9)} ${JSON.stringify(f)}`);
if (values.json) writeFileSync(values.json, `${JSON.stringify({ rows, named }, null, 2)}\n`);
