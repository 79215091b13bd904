/**
 * One flop of one line, solved: what each hand class of each player realizes there.
 *
 * Realization of a class on a board is `sum(reach * EV) / sum(reach * pot * equity)` over its combos, with EV
 * the combo's expected share of the pot (less what it still puts in, rake out) at the flop root under the
 * solved strategies and equity its showdown equity against the other range on that board. A batch keeps the
 * two sums per class (not the ratio), so boards add up by their weights.
 */

import { createHash } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  CheckSchedule,
  createPostflopSolver,
  type DcfrParams,
  describeDcfr,
  extractBoard,
  outOfRangeValues,
  PACK_DCFR,
  type PostflopConfig,
  type PostflopSolver,
} from "@ranges/postflop";
import { COMBO_CLASS } from "@ranges/solver";
import type { FlopLine } from "./lines.js";
import { rangeText } from "./lines.js";

/**
 * The betting tree of the realization solves: coarser than the served packs' (one flop size, no re-raise
 * on the river), which a test measures against the committed packs on the same line.
 */
export interface RealizationTree {
  readonly flopBet: string;
  readonly turnBet: string;
  readonly riverBet: string;
  readonly raise: string;
  /** The most raises per street (null: no cap, as the served packs). */
  readonly raiseCap: number | null;
}

export const REALIZATION_TREE: RealizationTree = {
  flopBet: "50%",
  turnBet: "75%",
  riverBet: "75%",
  raise: "2.5x",
  raiseCap: 1,
};

/** Refusal of a `--tree` text (`parseTree`). */
export class TreeSpecError extends Error {}

const TREE_KEYS = ["flop", "turn", "river", "raise", "cap"] as const;

/**
 * A betting tree from text (the CLI's `--tree`): comma-separated `key=value` pairs over `REALIZATION_TREE`,
 * keys `flop`, `turn`, `river` (a bet in percent of the pot), `raise` (a multiple of the bet faced) and `cap`
 * (the most raises per street, or `none`). Examples:
 *
 * - `flop=75%` (the realization tree with the served packs' flop bet)
 * - `flop=75%,cap=none` (the served packs' tree: 75% on every street, raises 2.5x, no cap)
 * - `flop=33%,turn=75%,river=75%,raise=3x,cap=2`
 *
 * Refused: an unknown or repeated key, a missing `=`, a bet that is not a positive percentage
 * (`flop=75`, `flop=0%`), a raise that is not a multiple above 1 (`raise=1x`, `raise=250%`), a cap that is
 * not a whole number or `none` (`cap=1.5`, `cap=-1`).
 */
export function parseTree(text: string): RealizationTree {
  const tree: { -readonly [K in keyof RealizationTree]: RealizationTree[K] } = { ...REALIZATION_TREE };
  const seen = new Set<string>();
  for (const part of text.split(",")) {
    const m = /^\s*([a-z]+)\s*=\s*(\S+)\s*$/.exec(part);
    if (!m) throw new TreeSpecError(`--tree: expected key=value, got "${part}"`);
    const key = m[1]!;
    const value = m[2]!;
    if (!(TREE_KEYS as readonly string[]).includes(key))
      throw new TreeSpecError(`--tree: unknown key "${key}" (keys: ${TREE_KEYS.join(", ")})`);
    if (seen.has(key)) throw new TreeSpecError(`--tree: "${key}" given twice`);
    seen.add(key);
    if (key === "cap") {
      if (value === "none") tree.raiseCap = null;
      else if (/^\d+$/.test(value)) tree.raiseCap = Number(value);
      else throw new TreeSpecError(`--tree: cap is a whole number of raises or "none", got "${value}"`);
    } else if (key === "raise") {
      const x = /^(\d+(?:\.\d+)?)x$/.exec(value);
      if (!x || !(Number(x[1]) > 1))
        throw new TreeSpecError(`--tree: raise is a multiple above 1 such as 2.5x, got "${value}"`);
      tree.raise = value;
    } else {
      const pct = /^(\d+(?:\.\d+)?)%$/.exec(value);
      if (!pct || !(Number(pct[1]) > 0))
        throw new TreeSpecError(`--tree: ${key} is a bet in percent of the pot such as 75%, got "${value}"`);
      if (key === "flop") tree.flopBet = value;
      else if (key === "turn") tree.turnBet = value;
      else tree.riverBet = value;
    }
  }
  return tree;
}

export interface SolveSettings {
  readonly tree: RealizationTree;
  /** Exploitability target, percent of the pot. */
  readonly targetPct: number;
  readonly maxIterations: number;
  readonly threads?: number;
  /**
   * Stop iterating once this many seconds have passed (a lent machine's window), then measure. Not part of
   * the inputs hash: a board stopped early keeps its iterations and exploitability in its file, and the fit
   * and the report read those (`BoardRealization.stoppedEarly` says which boards it stopped).
   */
  readonly maxSeconds?: number;
  /**
   * Every class of both players at least this weight (0 or absent: the pack's ranges as they are, below 0.5%
   * left out). The preflop solver needs the value of every class in every pot, also of the hands the pack
   * never puts there (the BTN's 72o after an open): with a floor of 0.005 (1% of a 600-combo range) each class
   * is solved as a hand that barely changes the equilibrium, and its realization is measured instead of
   * extrapolated by the fit.
   */
  readonly rangeFloor?: number;
  /**
   * How classes under the floor get their values. `solve` (the default): every class is in the solved
   * ranges at the floor weight, as above (the solve's cost grows with the hands: about 3.5 times on a deep
   * single-raised pot). `best-response`: the solve keeps the pack's ranges, and each class below the floor
   * (left out of the solve) takes the best-response value of its combos against the other player's solved
   * strategy (`outOfRangeValues` of @ranges/postflop: one more traversal), counted at the floor weight. A
   * best response is an upper bound: where only such hands go the solved opponent is not held to account
   * (the postflop package's test measures it on a toy spot; docs/solver-model.md on the realization lines).
   */
  readonly floorBy?: "solve" | "best-response";
}

/** A range with every class at least `floor`. */
export function withFloor(weights: Float64Array, floor: number | undefined): Float64Array {
  if (!floor) return weights;
  return Float64Array.from(weights, (w) => Math.max(w, floor));
}

/**
 * The schedule the realization solves run: DCFR with gamma 3 and positive regrets discounted one iteration
 * late (@ranges/postflop's `DcfrParams`), which reached the 1% target in 11% fewer iterations than the
 * packs' schedule on four of the batch's flops (docs/solver-model.md, "A delayed discount"). Part of each
 * board's inputs hash.
 */
export const REALIZATION_DCFR: DcfrParams = { alpha: 1.5, beta: 0, gamma: 3, delay: 1 };

/**
 * The schedule boards solved before 2026-11-29 ran (the packs', `PACK_DCFR`). Such a board, solved to the same
 * target, is as finished as one of `REALIZATION_DCFR` (`finished` in batch.ts accepts both hashes).
 */
export const EARLIER_DCFR: DcfrParams = PACK_DCFR;

export const DEFAULT_SETTINGS: SolveSettings = {
  tree: REALIZATION_TREE,
  targetPct: 1,
  maxIterations: 400,
};

/** Per-class sums of one player on one board. */
export interface ClassSums {
  /** sum of reach * EV (bb), per class. */
  readonly ev: number[];
  /** sum of reach * pot * equity (bb), per class. */
  readonly eq: number[];
}

export interface BoardRealization {
  readonly line: string;
  readonly game: string;
  readonly stack: number;
  readonly board: string;
  readonly inputsHash: string;
  readonly pot: number;
  readonly behind: number;
  readonly iterations: number;
  readonly exploitabilityPct: number;
  readonly seconds: number;
  /** Present (true) when `maxSeconds` stopped the solve before the target or the iteration cap. */
  readonly stoppedEarly?: true;
  /**
   * The two ranges' values at the flop root (bb; they add up to the pot less the expected rake). Absent in
   * files written before it was kept (round 0's first 135 boards).
   */
  readonly rootEv?: { readonly oop: number; readonly ip: number };
  readonly oop: ClassSums;
  readonly ip: ClassSums;
}

export function lineConfig(
  line: FlopLine,
  board: string,
  tree: RealizationTree,
  rangeFloor?: number,
): PostflopConfig {
  return {
    board,
    pot: line.pot,
    stack: line.behind,
    ranges: {
      oop: rangeText(withFloor(line.ranges.oop, rangeFloor)),
      ip: rangeText(withFloor(line.ranges.ip, rangeFloor)),
    },
    sizes: {
      flop: { bet: tree.flopBet, raise: tree.raise },
      turn: { bet: tree.turnBet, raise: tree.raise },
      river: { bet: tree.riverBet, raise: tree.raise },
    },
    donkBets: false,
    allInThreshold: 1.5,
    forceAllInThreshold: 0.15,
    raiseCap: tree.raiseCap,
    ...(line.rake ? { rake: { percent: line.rake.percent, cap: line.rake.capBb } } : {}),
  };
}

/** The floor the solve itself applies: none when classes under it take best-response values instead. */
const solvedFloor = (settings: SolveSettings): number | undefined =>
  settings.floorBy === "best-response" ? undefined : settings.rangeFloor;

/** The config a board of a line is solved with under `settings`. */
export function solveConfig(line: FlopLine, board: string, settings: SolveSettings): PostflopConfig {
  return lineConfig(line, board, settings.tree, solvedFloor(settings));
}

/** The ranges the solve plays (with the floor when the solve applies it), as a board's file records them. */
export function solvedRanges(
  line: FlopLine,
  settings: SolveSettings,
): { oop: Float64Array; ip: Float64Array } {
  const floor = solvedFloor(settings);
  return { oop: withFloor(line.ranges.oop, floor), ip: withFloor(line.ranges.ip, floor) };
}

export function inputsHash(
  config: PostflopConfig,
  settings: SolveSettings,
  dcfr: DcfrParams = REALIZATION_DCFR,
): string {
  const text = JSON.stringify({
    config,
    targetPct: settings.targetPct,
    maxIterations: settings.maxIterations,
    algorithm: describeDcfr(dcfr),
    ...(settings.floorBy === "best-response" && settings.rangeFloor
      ? { bestResponseFloor: settings.rangeFloor }
      : {}),
  });
  return createHash("sha256").update(text).digest("hex");
}

const CLASSES = 169;

/** Solves one board of a line to the settings' target and sums what each class realizes. */
export function solveBoard(line: FlopLine, board: string, settings: SolveSettings): BoardRealization {
  const config = solveConfig(line, board, settings);
  const hash = inputsHash(config, settings);
  const started = performance.now();
  const solver = createPostflopSolver(
    config,
    settings.threads === undefined
      ? { dcfr: REALIZATION_DCFR }
      : { threads: settings.threads, dcfr: REALIZATION_DCFR },
  );
  try {
    const checks = new CheckSchedule(10, settings.targetPct);
    let pct = Number.NaN;
    let measuredAt = -1;
    let stoppedEarly = false;
    while (solver.iteration < settings.maxIterations) {
      solver.iterate();
      if (checks.due(solver.iteration) || solver.iteration === settings.maxIterations) {
        pct = solver.exploitability().pctPot;
        measuredAt = solver.iteration;
        checks.record(measuredAt, pct);
        if (pct <= settings.targetPct) break;
      }
      if (settings.maxSeconds !== undefined && (performance.now() - started) / 1000 >= settings.maxSeconds) {
        stoppedEarly = solver.iteration < settings.maxIterations;
        break;
      }
    }
    if (measuredAt !== solver.iteration) pct = solver.exploitability().pctPot;
    if (pct <= settings.targetPct) stoppedEarly = false;
    const data = extractBoard(solver);
    const values = solver.values();
    const root = data.nodes[0]!;
    const sums = [0, 1].map((p) => {
      const ev = new Array<number>(CLASSES).fill(0);
      const eq = new Array<number>(CLASSES).fill(0);
      const hands = data.hands[p as 0 | 1];
      for (let i = 0; i < hands.length; i++) {
        const e = root.ev[p as 0 | 1][i]!;
        const q = root.equity[p as 0 | 1][i]!;
        if (!Number.isFinite(e) || !Number.isFinite(q)) continue;
        const c = COMBO_CLASS[hands[i]!]!;
        const r = root.reach[p as 0 | 1][i]!;
        ev[c] = ev[c]! + r * e;
        eq[c] = eq[c]! + r * line.pot * q;
      }
      if (settings.floorBy === "best-response" && settings.rangeFloor) {
        addOutOfRange(solver, p as 0 | 1, line, settings.rangeFloor, hands, ev, eq);
      }
      return { ev: ev.map(round6), eq: eq.map(round6) };
    });
    return {
      line: line.id,
      game: line.game,
      stack: line.stack,
      board,
      inputsHash: hash,
      pot: line.pot,
      behind: line.behind,
      iterations: solver.iteration,
      exploitabilityPct: Math.round(pct * 10000) / 10000,
      seconds: Math.round((performance.now() - started) / 10) / 100,
      ...(stoppedEarly ? { stoppedEarly: true as const } : {}),
      rootEv: { oop: round6(values[0]), ip: round6(values[1]) },
      oop: sums[0]!,
      ip: sums[1]!,
    };
  } finally {
    solver.close();
    closing.push(solver.closed());
  }
}

/** Solvers closed by `solveBoard` whose threads may not have exited yet (`released` waits for them). */
const closing: Promise<void>[] = [];

/**
 * Waits until the threads of every solver `solveBoard` closed have exited, then collects garbage, so the
 * next board's storage does not stack on the last ones' (a batch solves many boards in one process; a
 * terminated worker thread ends only when the event loop turns, and keeps its storage alive until then).
 */
export async function released(): Promise<void> {
  await Promise.all(closing.splice(0));
  collectGarbage();
}

/** `gc()` of V8, exposed for this purpose at the first call. */
let gcFunction: (() => void) | null = null;
function collectGarbage(): void {
  if (gcFunction === null) {
    setFlagsFromString("--expose-gc");
    gcFunction = runInNewContext("gc") as () => void;
  }
  gcFunction();
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Adds, for player p, the classes the solve left out (weight under the floor) at the floor weight: each
 * combo's best-response value against the other player's solved strategy and its equity against the solved
 * range.
 */
function addOutOfRange(
  solver: PostflopSolver,
  p: 0 | 1,
  line: FlopLine,
  floor: number,
  solvedHands: ArrayLike<number>,
  ev: number[],
  eq: number[],
): void {
  const side = p === 0 ? "oop" : "ip";
  const wide = outOfRangeValues(solver, p, rangeText(withFloor(line.ranges[side], floor)));
  const solved = new Set(Array.from(solvedHands));
  for (let h = 0; h < wide.hands.length; h++) {
    const combo = wide.hands[h]!;
    if (solved.has(combo)) continue;
    const e = wide.ev[h]!;
    const q = wide.equity[h]!;
    if (!Number.isFinite(e) || !Number.isFinite(q)) continue;
    const c = COMBO_CLASS[combo]!;
    ev[c] = ev[c]! + floor * e;
    eq[c] = eq[c]! + floor * line.pot * q;
  }
}
