/**
 * Memory and time of exact flop solves: per spot, the regrets and strategy sums held (bytes), the process's
 * resident memory after the iterations, and CPU seconds per iteration (and wall seconds, which include what
 * other processes take from a loaded machine).
 *
 *   pnpm --filter @ranges/plo-postflop build
 *   nice -n 15 node packages/plo-postflop/scripts/measure-flop.ts [--spots srp100,3bp100] [--combos 200]
 *     [--iterations 2] [--exploitability] [--check 20] [--gamma 2] [--delay 0]
 *
 * Ranges: whole preflop classes drawn with a seeded generator until the range holds the number of combos,
 * then that many of its combos at random (a subsample, as `solveBySubsamples` gives a subgame). Pots and
 * stacks are in big blinds for 100bb pot-limit lines: a pot-sized open called by the big blind (pot 7.5,
 * 96.5 behind) and a pot-sized 3-bet called (pot 25.5, 88 behind); the 50bb and 200bb single-raised pots
 * have the same pot and 46.5 / 196.5 behind. Default betting: bets of half pot and pot, the pot-sized raise,
 * one raise per street, on every street.
 */

import { parseArgs } from "node:util";
import { ploClasses, seededRandom } from "@ranges/core";
import {
  DEFAULT_PLO_BETTING,
  PLO_DCFR,
  type PloCombo,
  PloSolver,
  parsePloBoard,
  parsePloRange,
  resolvePloSpot,
} from "../dist/index.js";

const SPOTS: Record<string, { pot: number; stack: number }> = {
  srp50: { pot: 7.5, stack: 46.5 },
  srp100: { pot: 7.5, stack: 96.5 },
  srp200: { pot: 7.5, stack: 196.5 },
  "3bp100": { pot: 25.5, stack: 88 },
};

const { values } = parseArgs({
  options: {
    spots: { type: "string", default: "srp100,3bp100" },
    board: { type: "string", default: "Qs9h6d" },
    combos: { type: "string", default: "200" },
    iterations: { type: "string", default: "2" },
    seed: { type: "string", default: "1" },
    exploitability: { type: "boolean", default: false },
    /** Also print the exploitability every this many iterations (a convergence trace; its CPU is not in the per-iteration times). */
    check: { type: "string", default: "0" },
    /** The DCFR schedule's gamma and delay (alpha 1.5, beta 0; default PLO_DCFR's). */
    gamma: { type: "string", default: String(PLO_DCFR.gamma) },
    delay: { type: "string", default: String(PLO_DCFR.delay ?? 0) },
  },
});

function subsample(board: number[], count: number, next: () => number): PloCombo[] {
  const names = ploClasses();
  const picked: string[] = [];
  let combos: PloCombo[] = [];
  while (combos.length < count) {
    picked.push(names[Math.floor(next() * names.length)]!);
    combos = parsePloRange(picked.join(","), board);
  }
  for (let i = combos.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [combos[i], combos[j]] = [combos[j]!, combos[i]!];
  }
  return combos.slice(0, count);
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const count = Number(values.combos);
console.log(
  `board ${values.board}, ${count} combos a side, betting ${JSON.stringify(DEFAULT_PLO_BETTING)}, gamma ${values.gamma}, delay ${values.delay}, node ${process.version}`,
);
console.log(
  "| spot | pot / stack (bb) | decisions (flop / turn / river) | storage | setup s | CPU s / iteration | wall s / iteration | RSS after | exploitability (% pot), CPU s to measure it |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const name of values.spots.split(",")) {
  const def = SPOTS[name];
  if (!def) throw new Error(`unknown spot ${name}: one of ${Object.keys(SPOTS).join(", ")}`);
  const next = seededRandom(Number(values.seed));
  const board = parsePloBoard(values.board);
  const ranges = { oop: subsample(board, count, next), ip: subsample(board, count, next) };
  const spot = resolvePloSpot({ board: values.board, pot: def.pot, stack: def.stack, ranges });
  let cpu = process.cpuUsage();
  const dcfr = { ...PLO_DCFR, gamma: Number(values.gamma), delay: Number(values.delay) };
  const solver = new PloSolver(spot, { dcfr });
  const built = process.cpuUsage(cpu);
  const setup = (built.user + built.system) / 1e6;
  const streets = [0, 0, 0];
  for (const d of solver.tree.decisions) streets[d.street]!++;
  const cpuPer: number[] = [];
  const wallPer: number[] = [];
  const trace: string[] = [];
  const check = Number(values.check);
  for (let i = 0; i < Number(values.iterations); i++) {
    cpu = process.cpuUsage();
    const wall = performance.now();
    solver.iterate();
    const used = process.cpuUsage(cpu);
    cpuPer.push((used.user + used.system) / 1e6);
    wallPer.push((performance.now() - wall) / 1000);
    if (check > 0 && (i + 1) % check === 0)
      trace.push(`${i + 1}: ${solver.exploitability().exploitability.toFixed(2)}%`);
  }
  if (trace.length) console.error(`${name} exploitability (% pot) by iteration: ${trace.join(", ")}`);
  let expl = "";
  if (values.exploitability) {
    cpu = process.cpuUsage();
    const e = solver.exploitability().exploitability;
    const used = process.cpuUsage(cpu);
    expl = `${e.toFixed(2)}%, ${((used.user + used.system) / 1e6).toFixed(1)} s`;
  }
  const f = (x: number) => x.toFixed(x < 10 ? 2 : 1);
  const list = (xs: number[]) =>
    xs.length > 4
      ? `${xs.slice(0, 2).map(f).join(", ")}, ..., mean ${f(xs.reduce((a, b) => a + b, 0) / xs.length)}`
      : xs.map(f).join(", ");
  console.log(
    `| ${name} | ${def.pot} / ${def.stack} | ${streets.join(" / ")} | ${mb(solver.storageBytes)} | ${setup.toFixed(1)} | ${list(cpuPer)} | ${list(wallPer)} | ${mb(process.memoryUsage().rss)} | ${expl} |`,
  );
}
