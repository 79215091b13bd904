/**
 * Per-class realization of each solved line over its flops, beside what a preflop terminal model predicts.
 *
 *   realized(class) = sum_b w_b * evSum_b(class) / sum_b w_b * eqSum_b(class)
 *
 * with w_b the flop's representative weight. The range's overall realization weighs every class by its
 * equity mass. The comparison uses the same statistics the issue names: the range-weighted mean absolute
 * gap and the weighted correlation between the solved and the modelled numbers.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HOLDEM_CLASSES } from "@ranges/core";
import { type PopulationSet, populationKey, regressionEstimate, solvedReach } from "./estimator.js";
import type { BoardRealization } from "./solve.js";

export interface StoredBoard extends BoardRealization {
  readonly weight: number;
  readonly kind: string;
  readonly seats: { readonly oop: string; readonly ip: string };
  readonly history: string;
  /** The two preflop ranges the board was solved with (class weights, `HOLDEM_CLASSES` order). */
  readonly ranges: { readonly oop: readonly number[]; readonly ip: readonly number[] };
  /** The range floor of the run (`SolveSettings.rangeFloor`), when it had one. */
  readonly rangeFloor?: number;
  /** Present when the classes under the floor took best-response values (`SolveSettings.floorBy`). */
  readonly floorBy?: "best-response";
}

export interface ClassRow {
  readonly class: string;
  /** The class's equity mass at the flop in pots (its share of the range, weighted by equity). */
  readonly weight: number;
  readonly realizedSolved: number;
  readonly realizedModel: number | null;
}

export interface PlayerRealization {
  readonly seat: string;
  readonly realizedSolved: number;
  readonly realizedModel: number | null;
  /** Range-weighted mean absolute gap, model against solve (classes with a model value). */
  readonly meanAbsGap: number | null;
  /** Weighted correlation, model against solve. */
  readonly correlation: number | null;
  /**
   * With the regression estimator: the share of the per-flop realization's variance that the line's
   * realization curve explains on the solved flops (`estimator.ts`).
   */
  readonly curveR2?: number;
  readonly classes: ClassRow[];
}

export interface LineRealization {
  readonly pack: string;
  readonly game: string;
  readonly stack: number;
  readonly line: string;
  readonly kind: string;
  readonly history: string;
  readonly potBb: number;
  readonly stackBb: number;
  readonly spr: number;
  readonly boards: number;
  readonly boardWeight: number;
  /**
   * How the per-class realization was estimated: `ratio` over the solved flops, or `regression` with every
   * flop's equity (`estimator.ts`; when a population of the line's ranges is given).
   */
  readonly estimator: "ratio" | "regression";
  readonly exploitabilityPct: { readonly max: number; readonly median: number };
  readonly players: { readonly oop: PlayerRealization; readonly ip: PlayerRealization };
}

/** What a terminal model predicts for a class: `(line, player, class index) => realization or null`. */
export type ModelPrediction = (line: StoredBoard, side: "oop" | "ip", cls: number) => number | null;

export function readBoards(dir: string): StoredBoard[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as StoredBoard);
}

/**
 * The boards of several folders, each one a set of flops (8 or 30 representative flops): where two folders
 * hold the same line (game, stack, line), the later folder's boards replace the earlier's, so no line mixes
 * two flop sets (their weights each sum to 1).
 */
export function readBoardSets(dirs: readonly string[]): StoredBoard[] {
  const byLine = new Map<string, StoredBoard[]>();
  for (const dir of dirs) {
    const here = new Map<string, StoredBoard[]>();
    for (const b of readBoards(dir)) {
      const key = `${b.game}/${b.stack}/${b.line}`;
      here.set(key, [...(here.get(key) ?? []), b]);
    }
    for (const [key, list] of here) byLine.set(key, list);
  }
  return [...byLine.values()].flat();
}

/**
 * The factor that puts a board's values back gross of the postflop rake: the solve's two root values add up to
 * the pot less the rake it expects, and the preflop engine takes its own rake from the pot it shares, so the
 * realization it is given shares the whole pot. 1 for boards solved before `rootEv` was kept (round 0's first
 * 135, raked lines at SPR <= 6 with the rake capped at 0.6bb).
 */
export function grossOfRake(b: Pick<BoardRealization, "pot" | "rootEv">): number {
  if (!b.rootEv) return 1;
  const net = b.rootEv.oop + b.rootEv.ip;
  return net > 0 ? b.pot / net : 1;
}

/** Weighted mean absolute gap and weighted correlation of two series. */
export function compareSeries(
  solved: readonly number[],
  model: readonly number[],
  weights: readonly number[],
): { meanAbsGap: number; correlation: number } {
  let W = 0;
  let gap = 0;
  let ms = 0;
  let mm = 0;
  for (let i = 0; i < solved.length; i++) {
    W += weights[i]!;
    gap += weights[i]! * Math.abs(solved[i]! - model[i]!);
    ms += weights[i]! * solved[i]!;
    mm += weights[i]! * model[i]!;
  }
  ms /= W;
  mm /= W;
  let cov = 0;
  let vs = 0;
  let vm = 0;
  for (let i = 0; i < solved.length; i++) {
    const ds = solved[i]! - ms;
    const dm = model[i]! - mm;
    cov += weights[i]! * ds * dm;
    vs += weights[i]! * ds * ds;
    vm += weights[i]! * dm * dm;
  }
  return { meanAbsGap: gap / W, correlation: vs > 0 && vm > 0 ? cov / Math.sqrt(vs * vm) : 0 };
}

const r4 = (x: number) => Math.round(x * 10000) / 10000;

/**
 * Groups the boards by (game, stack, line) and sums them up: per class the ratio estimate, or the regression
 * estimate where `populations` holds the line's ranges (`estimator.ts`).
 */
export function aggregate(
  boards: readonly StoredBoard[],
  predict?: ModelPrediction,
  populations?: PopulationSet,
): LineRealization[] {
  const groups = new Map<string, StoredBoard[]>();
  for (const b of boards) {
    const key = `${b.game}/${b.stack}/${b.line}`;
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  const out: LineRealization[] = [];
  for (const [key, list] of [...groups.entries()].sort()) {
    const first = list[0]!;
    const population = populations?.get(populationKey(first));
    const total = list.reduce((s, b) => s + b.weight, 0);
    const players = {} as Record<"oop" | "ip", PlayerRealization>;
    for (const side of ["oop", "ip"] as const) {
      // each board's values gross of rake, once
      const grossEv = list.map((b) => {
        const gross = grossOfRake(b);
        return b[side].ev.map((x) => x * gross);
      });
      const ev = new Float64Array(HOLDEM_CLASSES.length);
      const eq = new Float64Array(HOLDEM_CLASSES.length);
      list.forEach((b, i) => {
        for (let c = 0; c < HOLDEM_CLASSES.length; c++) {
          ev[c] = ev[c]! + b.weight * grossEv[i]![c]!;
          eq[c] = eq[c]! + b.weight * b[side].eq[c]!;
        }
      });
      const estimate = population
        ? regressionEstimate(
            list.map((b, i) => ({
              board: b.board,
              weight: b.weight / total,
              pot: b.pot,
              ev: grossEv[i]!,
              eq: b[side].eq,
            })),
            solvedReach(first)[side],
            population[side],
          )
        : null;
      const rows: ClassRow[] = [];
      let evAll = 0;
      let eqAll = 0;
      let modelShare = 0;
      let modelEq = 0;
      const sSeries: number[] = [];
      const mSeries: number[] = [];
      const wSeries: number[] = [];
      for (let c = 0; c < HOLDEM_CLASSES.length; c++) {
        if (!(eq[c]! > 0)) continue;
        // the regression estimate where the population has the class (it always has where the solve does)
        const regression = estimate !== null && Number.isFinite(estimate.realized[c]!);
        const solved = regression ? estimate.realized[c]! : ev[c]! / eq[c]!;
        const model = predict ? predict(first, side, c) : null;
        const weight = regression ? estimate.weight[c]! : eq[c]! / total / first.pot;
        evAll += solved * weight;
        eqAll += weight;
        if (model !== null) {
          modelShare += model * weight;
          modelEq += weight;
          sSeries.push(solved);
          mSeries.push(model);
          wSeries.push(weight);
        }
        rows.push({
          class: HOLDEM_CLASSES[c]!,
          weight: Math.round(weight * 1e6) / 1e6,
          realizedSolved: r4(solved),
          realizedModel: model === null ? null : r4(model),
        });
      }
      const stats = sSeries.length > 1 ? compareSeries(sSeries, mSeries, wSeries) : null;
      players[side] = {
        seat: first.seats[side],
        realizedSolved: r4(evAll / eqAll),
        realizedModel: modelEq > 0 ? r4(modelShare / modelEq) : null,
        meanAbsGap: stats ? r4(stats.meanAbsGap) : null,
        correlation: stats ? r4(stats.correlation) : null,
        ...(estimate ? { curveR2: r4(estimate.r2) } : {}),
        classes: rows,
      };
    }
    const expl = list.map((b) => b.exploitabilityPct).sort((a, b) => a - b);
    out.push({
      pack: key,
      game: first.game,
      stack: first.stack,
      line: first.line,
      kind: first.kind,
      history: first.history,
      potBb: first.pot,
      stackBb: first.behind,
      spr: Math.round((first.behind / first.pot) * 100) / 100,
      boards: list.length,
      boardWeight: r4(list.reduce((s, b) => s + b.weight, 0)),
      estimator: population ? "regression" : "ratio",
      exploitabilityPct: { max: expl[expl.length - 1]!, median: expl[Math.floor(expl.length / 2)]! },
      players,
    });
  }
  return out;
}
