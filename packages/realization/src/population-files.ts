/**
 * The population files of `realization population`: one per line and pair of ranges, under
 * `data/realization/population/` (`<game>-<stack>-<line>-<rangesKey>.json`), each holding the moments of
 * `populationMoments` for both players on all 1,755 flops (or every k-th of them, for a quick check: the
 * file's `flops` says how many).
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalFlops } from "@ranges/postflop";
import type { StoredBoard } from "./aggregate.js";
import { type LinePopulation, POPULATION_DEGREE, populationKey, readPopulations } from "./estimator.js";
import { populationMoments, rangesKey } from "./population.js";

const r12 = (x: number) => Number(x.toPrecision(12));

/** Writes the population of every line of `boards` whose ranges `dir` does not hold yet; returns the files. */
export function writePopulations(
  boards: readonly StoredBoard[],
  dir: string,
  log: (line: string) => void = () => {},
  /**
   * Every k-th of the 1,755 flops (in `canonicalFlops` order, each weighed by its count), about this many: a
   * cheaper population. The committed files of the balanced lines use all; those of round 0's other depths
   * every second (878).
   */
  flopCount?: number,
): string[] {
  mkdirSync(dir, { recursive: true });
  const have = readPopulations(dir);
  const todo = new Map<string, StoredBoard>();
  for (const b of boards) {
    const key = populationKey(b);
    if (!have.has(key) && !todo.has(key)) todo.set(key, b);
  }
  const lines = [...todo.values()];
  if (lines.length === 0) return [];
  log(`computing ${lines.length} lines' populations: ${lines.map((l) => l.line).join(", ")}`);
  const started = performance.now();
  const all = canonicalFlops();
  const step = flopCount ? Math.max(1, Math.floor(all.length / flopCount)) : 1;
  const flops = all.filter((_, i) => i % step === 0);
  const moments = populationMoments(
    lines.map((l) => l.ranges),
    {
      degree: POPULATION_DEGREE,
      flops,
      progress: (done, total) => {
        if (done % 100 === 0 || done === total)
          log(`${done} of ${total} flops (${Math.round((performance.now() - started) / 1000)} s)`);
      },
    },
  );
  return lines.map((l, i) => {
    const file: LinePopulation = {
      game: l.game,
      stack: l.stack,
      line: l.line,
      rangesKey: rangesKey(l.ranges),
      flops: flops.length,
      degree: POPULATION_DEGREE,
      oop: moments[i]!.oop.map((row) => row.map(r12)),
      ip: moments[i]!.ip.map((row) => row.map(r12)),
    };
    const name = join(dir, `${l.game.replace(/\//g, "-")}-${l.stack}-${l.line}-${file.rangesKey}.json`);
    writeFileSync(name, `${JSON.stringify(file)}\n`);
    return name;
  });
}
