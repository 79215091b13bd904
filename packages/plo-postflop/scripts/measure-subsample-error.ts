/**
 * The subsampling method's error where the truth is known: flop, turn and river spots small enough to solve
 * exactly per combo, solved exactly and by `solveBySubsamples` at several part sizes, compared per class
 * (preflop class) and by the lifted strategy's exploitability in the exact game.
 *
 *   pnpm --filter @ranges/plo-postflop build
 *   node packages/plo-postflop/scripts/measure-subsample-error.ts [--spots river1,river2,turn1,flop1] [--rounds 4]
 *     [--target 0.1] [--chunks 100,200]
 *
 * Ranges: whole preflop classes drawn from `ploClasses()` with a seeded generator (each class a random weight
 * in [0.3, 1]) until the range holds the spot's number of combos; so most classes hold several combos.
 */

import { parseArgs } from "node:util";
import { ploClasses, seededRandom } from "@ranges/core";
import {
  type PloClassEstimate,
  type PloCombo,
  PloSolver,
  poolClasses,
  resolvePloSpot,
  solveBySubsamples,
  solveResolvedSpot,
} from "../dist/index.js";

interface SpotDef {
  readonly name: string;
  readonly board: string;
  readonly pot: number;
  readonly stack: number;
  readonly combos: number;
  readonly chunks: readonly number[];
  readonly seed: number;
}

const SPOTS: SpotDef[] = [
  { name: "river1", board: "Kc8d5h2s7c", pot: 10, stack: 20, combos: 400, chunks: [50, 100, 200], seed: 1 },
  { name: "river2", board: "AhTd6s6c3h", pot: 10, stack: 30, combos: 400, chunks: [50, 100, 200], seed: 2 },
  { name: "river3", board: "Jh9c4d4s2c", pot: 10, stack: 20, combos: 1200, chunks: [100, 200, 400], seed: 4 },
  { name: "turn1", board: "Qs9h6d3c", pot: 10, stack: 20, combos: 60, chunks: [20, 30], seed: 3 },
  { name: "turn2", board: "Th8h5c2d", pot: 10, stack: 20, combos: 150, chunks: [50, 75], seed: 5 },
  { name: "flop1", board: "Ks8h4d", pot: 10, stack: 20, combos: 40, chunks: [10, 20], seed: 6 },
];

const BETTING = { bets: [0.5, 1], raises: [1], raiseCap: 1 };

const { values } = parseArgs({
  options: {
    spots: { type: "string", default: SPOTS.map((s) => s.name).join(",") },
    rounds: { type: "string", default: "4" },
    target: { type: "string", default: "0.1" },
    /** Part sizes to measure instead of each spot's own list, e.g. --chunks 100,200. */
    chunks: { type: "string" },
  },
});
const rounds = Number(values.rounds);
const target = Number(values.target);

const pct = (x: number) => `${x.toFixed(2)}%`;
console.log(
  "| spot | combos (OOP/IP), classes | truth: exact solve | parts of | subgames | worst subgame | pooled: per-class EV error mean / 90th pct / max (% pot), classes within 1% | lifted played in the full game: same | lifted exploitability | CPU s |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const def of SPOTS.filter((s) => values.spots.split(",").includes(s.name))) {
  const next = seededRandom(def.seed);
  const ranges = { oop: pick(def, next), ip: pick(def, next) };
  const spot = resolvePloSpot({ board: def.board, pot: def.pot, stack: def.stack, ranges, betting: BETTING });
  let cpu = process.cpuUsage();
  // The truth is solved to a quarter of the target; an exact solve at the target itself gives the noise floor.
  const exact = solveResolvedSpot(spot, {
    targetExploitability: target / 4,
    maxIterations: 20_000,
    checkEvery: 25,
  });
  const exactCpu = process.cpuUsage(cpu).user / 1e6;
  const truth = ([0, 1] as const).map((p) =>
    poolClasses(
      spot.combos[p],
      exact.solver.compatWeights(p),
      exact.solver.equities(p),
      [Float64Array.from(exact.combos[p], (c) => c.ev)],
      spot.pot,
      (c: PloCombo) => c.cls,
    ),
  );
  const nClasses = truth[0]!.length + truth[1]!.length;
  const label = `${def.name} ${def.board} pot ${def.pot} stack ${def.stack} | ${spot.combos[0].length}/${spot.combos[1].length}, ${nClasses} | ${pct(exact.exploitability)} in ${exact.iterations} it, ${exactCpu.toFixed(1)} s`;
  {
    const loose = solveResolvedSpot(spot, {
      targetExploitability: target,
      maxIterations: 5000,
      checkEvery: 25,
    });
    const classes = ([0, 1] as const).map((p) =>
      poolClasses(
        spot.combos[p],
        loose.solver.compatWeights(p),
        loose.solver.equities(p),
        [Float64Array.from(loose.combos[p], (c) => c.ev)],
        spot.pot,
        (c: PloCombo) => c.cls,
      ),
    ) as [PloClassEstimate[], PloClassEstimate[]];
    console.log(
      `| ${label} | exact (floor) | 1 | ${pct(loose.exploitability)} | ${summaryOf(classes, truth, spot.pot)} | | ${pct(loose.exploitability)} | |`,
    );
  }
  for (const chunk of values.chunks ? values.chunks.split(",").map(Number) : def.chunks) {
    cpu = process.cpuUsage();
    const pooled = solveBySubsamples(spot, {
      chunk,
      rounds,
      seed: def.seed * 100 + chunk,
      solve: { targetExploitability: target, maxIterations: 5000, checkEvery: 25 },
      lift: true,
      evaluateLifted: true,
    });
    const lifted = new PloSolver(spot, { storage: false }).exploitability(pooled.lifted);
    const secs = process.cpuUsage(cpu).user / 1e6;
    console.log(
      `| ${label} | ${chunk} | ${pooled.subgames} | ${pct(pooled.worstSubgameExploitability)} | ${summaryOf(pooled.classes, truth, spot.pot)} | ${summaryOf(pooled.liftedClasses!, truth, spot.pot)} | ${pct(lifted.exploitability)} | ${secs.toFixed(1)} |`,
    );
  }
}

/** Per-class EV error against the truth: mean / 90th percentile / largest in percent of the pot, and the share within 1%. */
function summaryOf(
  est: readonly PloClassEstimate[][],
  truth: readonly PloClassEstimate[][],
  pot: number,
): string {
  const errors: number[] = [];
  for (const p of [0, 1] as const) {
    const byCls = new Map<string, PloClassEstimate>(est[p]!.map((c) => [c.cls, c]));
    for (const t of truth[p]!) {
      const e = byCls.get(t.cls);
      if (e) errors.push((Math.abs(e.ev - t.ev) / pot) * 100);
    }
  }
  errors.sort((x, y) => x - y);
  const mean = errors.reduce((x, y) => x + y, 0) / errors.length;
  const p90 = errors[Math.floor(0.9 * (errors.length - 1))]!;
  const within = errors.filter((e) => e <= 1).length / errors.length;
  return `${mean.toFixed(2)} / ${p90.toFixed(2)} / ${errors.at(-1)!.toFixed(2)}, ${(within * 100).toFixed(0)}%`;
}

function pick(def: SpotDef, next: () => number): string {
  const names = ploClasses();
  const out: string[] = [];
  const used = new Set<number>();
  while (true) {
    const k = Math.floor(next() * names.length);
    if (used.has(k)) continue;
    used.add(k);
    out.push(`${names[k]}:${(0.3 + 0.7 * next()).toFixed(3)}`);
    const n = resolvePloSpot({
      board: def.board,
      pot: 1,
      stack: 1,
      ranges: { oop: out.join(","), ip: out.join(",") },
    }).combos[0].length;
    if (n >= def.combos) return out.join(",");
  }
}
