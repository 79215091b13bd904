/**
 * The fit report: every line with enough solved boards, per player and class the solved realization beside
 * the v3 model's, the v4 fit's (all lines in the fit) and the out-of-sample fit's (the line left out), with
 * each one's range-weighted mean absolute gap and weighted correlation to the solves.
 */

import { HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES } from "@ranges/core";
import type { GroundedLine } from "@ranges/solver";
import {
  aggregate,
  compareSeries,
  type LineRealization,
  type ModelPrediction,
  type StoredBoard,
} from "./aggregate.js";
import type { PopulationSet } from "./estimator.js";
import {
  type ClassEffectBasis,
  type ClassWeighting,
  type EquityTable,
  type FitLine,
  fitLineOf,
  RealizationFit,
} from "./fit.js";
import {
  DEFAULT_LINE_RIDGE,
  fitLineEffects,
  groundedLine,
  type LineEffects,
  predictWithLineEffects,
} from "./line-effects.js";

export interface SeriesStats {
  readonly meanAbsGap: number;
  readonly correlation: number;
}

export interface ReportPlayer {
  readonly seat: string;
  readonly realizedSolved: number;
  /** With the regression estimator: what the line's realization curve explains (`PlayerRealization.curveR2`). */
  readonly curveR2?: number;
  readonly v3: SeriesStats | null;
  readonly inSample: SeriesStats | null;
  readonly outOfSample: SeriesStats | null;
  /**
   * The same two statistics weighed by combos instead of range (every class the solve holds counts by its
   * combos, in the range or not): how well the fit values the classes the preflop solver may move into the
   * range.
   */
  readonly inSampleByCombos: SeriesStats | null;
  readonly outOfSampleByCombos: SeriesStats | null;
  /**
   * The model with the line's own class effects (src/line-effects.ts): what the preflop solver is given for
   * this line. In sample by construction: the effects are fitted to these numbers (the halves of
   * scripts/board-split.mjs measure them on flops they were not fitted to).
   */
  readonly withLineEffects: SeriesStats | null;
  readonly withLineEffectsByCombos: SeriesStats | null;
  readonly classes: {
    class: string;
    weight: number;
    realizedSolved: number;
    realizedModel: number | null;
    realizedFit: number | null;
    realizedLeftOut: number | null;
    realizedWithLine: number | null;
  }[];
}

export interface ReportLine {
  readonly pack: string;
  readonly kind: string;
  readonly spr: number;
  readonly boards: number;
  /** How the solved realization per class was estimated (`LineRealization.estimator`). */
  readonly estimator: LineRealization["estimator"];
  readonly exploitabilityPct: LineRealization["exploitabilityPct"];
  readonly players: { readonly oop: ReportPlayer; readonly ip: ReportPlayer };
}

const CLASS_INDEX = new Map(HOLDEM_CLASSES.map((c, i) => [c, i]));
const r4 = (x: number) => Math.round(x * 10000) / 10000;
const r8 = (x: number) => Math.round(x * 1e8) / 1e8;

/**
 * The class effects' shrinkage the report uses: on round 0 (16 lines, 135 boards), leave-one-line-out averages were gap
 * 0.306 / r 0.25 without class effects, 0.226 / 0.71 at 0.01, 0.225 / 0.70 at 0.03, 0.230 / 0.69 at 0.1,
 * 0.269 / 0.54 at 1.
 */
export const DEFAULT_CLASS_RIDGE = 0.01;

function stats(
  rows: readonly { weight: number; realizedSolved: number }[],
  model: (number | null)[],
): SeriesStats | null {
  const keep = rows.map((r, i) => ({ r, m: model[i] })).filter((x) => x.m !== null && x.m !== undefined);
  if (keep.length < 2) return null;
  const s = compareSeries(
    keep.map((x) => x.r.realizedSolved),
    keep.map((x) => x.m!),
    keep.map((x) => x.r.weight),
  );
  return { meanAbsGap: r4(s.meanAbsGap), correlation: r4(s.correlation) };
}

/** The rows weighed by their class's combos instead of their range weight. */
const byCombos = <R extends { class: string; weight: number }>(rows: readonly R[]): R[] =>
  rows.map((r) => ({ ...r, weight: HOLDEM_CLASS_COMBOS[CLASS_INDEX.get(r.class)!]! }));

/**
 * The combos each player holds on a board's line as the pack plays it: a floored board's ranges less the
 * floor (the floor's classes are the solve's, not the pack's). A line whose range is nearly empty (v3.3
 * 4-bets 0.2 combos to 21.5bb on the BTN) is a pot the pack does not play.
 */
export function rangeCombos(board: StoredBoard): { oop: number; ip: number } {
  const floor = board.floorBy === "best-response" ? 0 : (board.rangeFloor ?? 0);
  const combos = (w: readonly number[]) =>
    w.reduce((sum, x, c) => sum + Math.max(0, x - floor) * HOLDEM_CLASS_COMBOS[c]!, 0);
  return { oop: combos(board.ranges.oop), ip: combos(board.ranges.ip) };
}

/** The bar of issue 26: in sample gap <= 0.05 and r >= 0.9; left out gap <= 0.10 and r >= 0.75. */
export const FIT_BAR = {
  inSample: { gap: 0.05, correlation: 0.9 },
  outOfSample: { gap: 0.1, correlation: 0.75 },
} as const;

/** Means over the report's (line, player) rows, and how many rows meet `FIT_BAR`. */
export interface FitSummary {
  readonly rows: number;
  readonly inSample: SeriesStats;
  readonly outOfSample: SeriesStats;
  readonly withLineEffects: SeriesStats;
  readonly atBar: {
    readonly inSample: number;
    readonly outOfSample: number;
    readonly withLineEffects: number;
  };
}

function summarize(lines: readonly ReportLine[]): FitSummary {
  const rows = lines.flatMap((l) => [l.players.oop, l.players.ip]);
  const mean = (pick: (p: ReportPlayer) => SeriesStats | null): SeriesStats => {
    const xs = rows.map(pick).filter((x): x is SeriesStats => x !== null);
    const avg = (f: (x: SeriesStats) => number) =>
      xs.length ? r4(xs.reduce((a, x) => a + f(x), 0) / xs.length) : 0;
    return { meanAbsGap: avg((x) => x.meanAbsGap), correlation: avg((x) => x.correlation) };
  };
  const meets = (x: SeriesStats | null, bar: { gap: number; correlation: number }) =>
    x !== null && x.meanAbsGap <= bar.gap && x.correlation >= bar.correlation;
  return {
    rows: rows.length,
    inSample: mean((p) => p.inSample),
    outOfSample: mean((p) => p.outOfSample),
    withLineEffects: mean((p) => p.withLineEffects),
    atBar: {
      inSample: rows.filter((p) => meets(p.inSample, FIT_BAR.inSample)).length,
      outOfSample: rows.filter((p) => meets(p.outOfSample, FIT_BAR.outOfSample)).length,
      withLineEffects: rows.filter((p) => meets(p.withLineEffects, FIT_BAR.inSample)).length,
    },
  };
}

export function fitReport(
  boards: readonly StoredBoard[],
  table: EquityTable,
  v3: ModelPrediction,
  options: {
    minBoards: number;
    ridge?: number;
    classRidge?: number;
    /** Lines where a player's range as the pack plays it holds fewer combos are left out (default 0). */
    minCombos?: number;
    /** How the fit weighs the classes (`ClassWeighting`, default "range"); the statistics always weigh by range. */
    weighting?: ClassWeighting;
    /** How the model's class effects span the roles (`ClassEffectBasis`, default "shared"). */
    classBasis?: ClassEffectBasis;
    /**
     * Grouped class effects (`RealizationFit.fit`'s `groupRidge`): each class's effect its group's plus its own
     * deviation, `classRidge` shrinking the deviations and this the groups'. Absent: ungrouped.
     */
    classGroupRidge?: number;
    /**
     * Smoothed class effects (`RealizationFit.fit`'s `smoothRidge`): neighbouring classes' effects pulled toward
     * each other with this weight. Absent: not smoothed.
     */
    classSmoothRidge?: number;
    /**
     * Fit the floor effect (`FittedModel.floorEffect`: what classes valued by a best response under the solves'
     * range floor realize beyond the range's classes) with this ridge. Absent: not fitted.
     */
    floorRidge?: number;
    /** Lines' populations: their classes' realization by the regression estimator (`estimator.ts`). */
    populations?: PopulationSet;
    /** The ridge of each line's own class effects (`DEFAULT_LINE_RIDGE`). */
    lineRidge?: number;
    /**
     * Grouped line effects (`fitLineEffects`' `groupRidge`): each class's effect its group's plus its own
     * deviation, `lineRidge` shrinking the deviations and this the groups' effects. Absent: ungrouped.
     */
    lineGroupRidge?: number;
    /** Smoothed line effects (`fitLineEffects`' `smoothRidge`): neighbouring classes pulled together. */
    lineSmoothRidge?: number;
    /**
     * Boards of earlier rounds (each solved with that round's ranges): their lines join the fit beside the
     * current ones (reported as `<pack>@earlier`), and a line's own effects are fitted over every round of it
     * at once, which averages a class's terminal value over the rounds (the damped update of
     * docs/solver-model.md). Only lines that the current boards hold, with other ranges, are taken.
     */
    earlier?: readonly StoredBoard[];
  },
): {
  method: string;
  ridge: number;
  classRidge: number;
  weighting: ClassWeighting;
  classBasis: ClassEffectBasis;
  classGroupRidge: number | null;
  classSmoothRidge: number | null;
  floorRidge: number | null;
  /** The fitted floor effect per CLASS_EFFECT_FEATURES (null: not fitted). */
  floorEffect: number[] | null;
  minBoards: number;
  lines: ReportLine[];
  summary: FitSummary;
  skipped: string[];
  /** The model fitted to every line of the report: a tree config's `model.grounded`. */
  params: {
    theta: number[];
    gamma: number[];
    classEffects: number[];
    /** Every line's own class effects, with the pack (game and stack) whose ranges it was solved with. */
    lines: (GroundedLine & { game: string; stack: number })[];
  };
} {
  const ridge = options.ridge ?? 1e-4;
  const classRidge = options.classRidge ?? DEFAULT_CLASS_RIDGE;
  const current = aggregate(boards, v3, options.populations);
  // An earlier round of a line is one solved with other ranges: boards with the current ranges are this round.
  const rangesOf = new Map<string, string>();
  for (const b of boards) rangesOf.set(`${b.game}/${b.stack}/${b.line}`, JSON.stringify(b.ranges));
  const earlierBoards = (options.earlier ?? []).filter((b) => {
    const now = rangesOf.get(`${b.game}/${b.stack}/${b.line}`);
    return now !== undefined && now !== JSON.stringify(b.ranges);
  });
  const earlier = earlierBoards.length > 0 ? aggregate(earlierBoards, v3, options.populations) : [];
  const lines = [...current, ...earlier];
  const isEarlier = (l: LineRealization) => earlier.includes(l);
  const label = (l: LineRealization) => (isEarlier(l) ? `${l.pack}@earlier` : l.pack);
  const minCombos = options.minCombos ?? 0;
  const boardOf = (l: LineRealization) =>
    (isEarlier(l) ? earlierBoards : boards).find((b) => `${b.game}/${b.stack}/${b.line}` === l.pack)!;
  const thin = (l: LineRealization): string | null => {
    const c = rangeCombos(boardOf(l));
    const least = Math.min(c.oop, c.ip);
    return least < minCombos ? `${label(l)} (a range of ${Math.round(least * 10) / 10} combos)` : null;
  };
  const used = lines.filter((l) => l.boards >= options.minBoards && thin(l) === null);
  const fitLines: FitLine[] = used.map((l) => ({ ...fitLineOf(l, boardOf(l)), key: label(l) }));
  /** Every round of a line (same game, stack and line). */
  const roundsOf = (l: LineRealization) => fitLines.filter((_, k) => used[k]!.pack === l.pack);
  const fit = new RealizationFit(table);
  const weighting = options.weighting ?? "range";
  const classBasis = options.classBasis ?? "shared";
  const classGroupRidge = options.classGroupRidge;
  const classSmoothRidge = options.classSmoothRidge;
  const floorRidge = options.floorRidge;
  /** The model fitted to some of the lines, with every setting of the report. */
  const fitTo = (lines: readonly FitLine[]) =>
    fit.fit(lines, ridge, classRidge, weighting, classBasis, classGroupRidge, classSmoothRidge, floorRidge);
  const all = fitTo(fitLines);
  const lineRidge = options.lineRidge ?? DEFAULT_LINE_RIDGE;
  // One set of effects per line, shared by its rounds.
  const byLine = new Map<string, LineEffects>();
  const effects = used.map((l) => {
    let e = byLine.get(l.pack);
    if (!e) {
      e = fitLineEffects(
        fit,
        table,
        all,
        roundsOf(l),
        weighting,
        lineRidge,
        options.lineGroupRidge,
        options.lineSmoothRidge,
      );
      byLine.set(l.pack, e);
    }
    return e;
  });
  const out: ReportLine[] = used.map((l, i) => {
    const fl = fitLines[i]!;
    const inSample = fit.predict(all, fl);
    const withLine = predictWithLineEffects(fit, table, all, fl, effects[i]!);
    // Left out: every round of the line.
    const rounds = roundsOf(l);
    const leftOut = fit.predict(fitTo(fitLines.filter((x) => !rounds.includes(x))), fl);
    const player = (side: "oop" | "ip"): ReportPlayer => {
      const p = l.players[side];
      const classes = p.classes.map((c, k) => {
        const cls = fl.solved[side][k]!.cls;
        const a = inSample[side].get(cls);
        const b = leftOut[side].get(cls);
        const d = withLine[side].get(cls);
        return {
          ...c,
          realizedFit: a === undefined ? null : r4(a),
          realizedLeftOut: b === undefined ? null : r4(b),
          realizedWithLine: d === undefined ? null : r4(d),
        };
      });
      return {
        seat: p.seat,
        realizedSolved: p.realizedSolved,
        ...(p.curveR2 === undefined ? {} : { curveR2: p.curveR2 }),
        v3: stats(
          classes,
          classes.map((c) => c.realizedModel),
        ),
        inSample: stats(
          classes,
          classes.map((c) => c.realizedFit),
        ),
        outOfSample: stats(
          classes,
          classes.map((c) => c.realizedLeftOut),
        ),
        inSampleByCombos: stats(
          byCombos(classes),
          classes.map((c) => c.realizedFit),
        ),
        outOfSampleByCombos: stats(
          byCombos(classes),
          classes.map((c) => c.realizedLeftOut),
        ),
        withLineEffects: stats(
          classes,
          classes.map((c) => c.realizedWithLine),
        ),
        withLineEffectsByCombos: stats(
          byCombos(classes),
          classes.map((c) => c.realizedWithLine),
        ),
        classes,
      };
    };
    return {
      pack: label(l),
      kind: l.kind,
      spr: l.spr,
      boards: l.boards,
      estimator: l.estimator,
      exploitabilityPct: l.exploitabilityPct,
      players: { oop: player("oop"), ip: player("ip") },
    };
  });
  return {
    method:
      "packages/realization (src/fit.ts): s_P(a,b) = e + 4e(1-e)(gamma(2e-1) + mu_P(a) - mu_Q(b)) + kappa(2e-1), mu = hand x player features + class effects, ridge least squares",
    ridge,
    classRidge,
    weighting,
    classBasis,
    classGroupRidge: classGroupRidge ?? null,
    classSmoothRidge: classSmoothRidge ?? null,
    floorRidge: floorRidge ?? null,
    floorEffect: all.floorEffect ? Array.from(all.floorEffect, r4) : null,
    minBoards: options.minBoards,
    lines: out,
    summary: summarize(out),
    skipped: [
      ...lines.filter((l) => l.boards < options.minBoards).map((l) => `${l.pack} (${l.boards} boards)`),
      ...lines.flatMap((l) => (l.boards >= options.minBoards ? [thin(l)].filter((x) => x !== null) : [])),
    ],
    params: {
      theta: Array.from(all.theta, r8),
      gamma: Array.from(all.gamma, r8),
      classEffects: Array.from(all.classEffects ?? [], r8),
      lines: used.flatMap((l, i) =>
        isEarlier(l)
          ? []
          : [
              {
                game: l.game,
                stack: l.stack,
                ...groundedLine(
                  l.line,
                  { oop: l.players.oop.seat, ip: l.players.ip.seat },
                  l.kind,
                  fitLines[i]!,
                  effects[i]!,
                ),
              },
            ],
      ),
    },
  };
}
