/**
 * What a caller may ask the queue to solve, and what it costs.
 *
 * A request is either a change to a library tree or a whole tree config:
 *
 *   { "game": "nl/v2", "stack": 85 }
 *       the library's nl/v2 tree (its rake, sizes and model) at 85bb; sizes come from the library profile
 *       nearest in depth (here 70bb's), unless `changes` say otherwise
 *   { "game": "nlmtt8", "stack": 40, "changes": { "open": [25] } }
 *       nlmtt8 40bb with a 2.5x open for every seat but the SB (raise codes: 25 = 2.5bb, 60% = percent of pot
 *       as the tree grammar writes them; see TreeConfig)
 *   { "game": "nl", "stack": 100, "changes": { "rake": null, "maxRaises": 3 } }
 *       no rake, at most three raises
 *   { "game": "nl", "stack": 10, "changes": { "dealtIn": ["SB", "BB"], "jamOrFold": true } }
 *       heads-up jam/fold, read with nl's paths: the SB's decision is UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB
 *   { "config": { ...a TreeConfig... }, "stack": 30 }
 *       any tree the solver can build (game family, seats, blinds, ante, rake, sizes)
 *
 * `changes` may set: open, sbOpen, threeBetIp, threeBetOop, squeeze, fourBet, fiveBet, isoRaise (arrays of
 * raise codes), allInFrom, maxRaises, maxCallersToRaise, jamOrFold, coldFourBet (the profile), and ante,
 * rake, limpSeats, allInThreshold, dealtIn (the table). Anything the tree builder refuses is a clear 400 before the
 * job is queued, and so is a tree or a time over the caller's plan (the answer carries the estimate).
 *
 * Sizing is bounded: field limits (`CHANGE_LIMITS`, the seat count) are checked before anything is built, the
 * build stops at `SIZING_BUDGET` showdown pairings, and servers size on `SpecSizer`'s thread (heap cap, time
 * limit) through `SolveQueue.size`, so no request builds a tree on the event loop.
 */

import { GAMES, type GameId, isGameId, RangesError } from "@ranges/core";
import {
  buildPreflopTree,
  countNodes,
  loadTreeConfig,
  type StackProfile,
  type TreeConfig,
  treeConfigPath,
  validateTreeConfig,
} from "@ranges/solver";

/** Hold'em games whose library trees can be changed. */
export const SOLVABLE_GAMES = ["nl", "nl/v2", "nl9", "nlmtt8"] as const satisfies readonly GameId[];

/** The profile fields that hold raise-size codes (the same names as a request's `changes`). */
export const RAISE_CODE_FIELDS = [
  "open",
  "sbOpen",
  "threeBetIp",
  "threeBetOop",
  "squeeze",
  "fourBet",
  "fiveBet",
  "isoRaise",
] as const;

const PROFILE_CHANGES = [
  ...RAISE_CODE_FIELDS,
  "allInFrom",
  "maxRaises",
  "maxCallersToRaise",
  "jamOrFold",
  "coldFourBet",
] as const;
const TABLE_CHANGES = ["ante", "rake", "limpSeats", "allInThreshold", "dealtIn"] as const;
const CODE_LISTS = new Set([
  "open",
  "sbOpen",
  "threeBetIp",
  "threeBetOop",
  "squeeze",
  "fourBet",
  "fiveBet",
  "isoRaise",
]);

/** What a plan may queue: decisions and seconds per solve, solves queued or running at once (`active`). */
export interface PlanLimits {
  readonly decisions: number;
  readonly seconds: number;
  readonly active: number;
}

/** The limits of each plan; unknown plans get the standard limits. */
export const PLAN_LIMITS: Record<string, PlanLimits> = {
  standard: { decisions: 4_000, seconds: 600, active: 5 },
  pro: { decisions: 20_000, seconds: 1800, active: 20 },
  bench: { decisions: 20_000, seconds: 1800, active: 20 },
};
export const limitsOf = (plan: string) => PLAN_LIMITS[plan] ?? PLAN_LIMITS.standard!;

/**
 * Seconds per decision and iteration on one core before any solve has finished on this machine: the committed
 * packs' (BENCHMARKS.md, two threads) give 2.7e-4 (nl/v2 100bb: 10,713 decisions, 725 iterations, 1,062 s)
 * to 5.7e-4 (nl 20bb: 694, 175, 34.9 s) core-seconds; the larger is taken. `SolveQueue` replaces it with
 * what the machine's own finished solves measured (`calibrate`).
 */
export const SECONDS_PER_DECISION_ITERATION = 5.7e-4;

/** Which iteration count a tree's solves share: jam/fold trees, and non-jam/fold trees by size. */
export type SizeClass = "jamOrFold" | "small" | "medium" | "large";

export function sizeClassOf(decisions: number, jamOrFold: boolean): SizeClass {
  if (jamOrFold) return "jamOrFold";
  return decisions < 500 ? "small" : decisions < 3000 ? "medium" : "large";
}

/**
 * Iterations a solve of this class needs to reach its target before this machine has finished one: the
 * committed packs took 50 (nlmtt8 10bb, jam/fold), 175 to 425 (694 to 1,002 decisions) and 125 to 1,325
 * (1,359 decisions and more); each class takes the upper end of what it saw, not the worst case.
 */
export const DEFAULT_ITERATIONS: Readonly<Record<SizeClass, number>> = {
  jamOrFold: 200,
  small: 500,
  medium: 800,
  large: 900,
};

/** Seconds on one core for `decisions` at `iterations` and a rate (seconds per decision-iteration). */
export const estimateFrom = (decisions: number, iterations: number, rate: number): number =>
  Math.max(1, Math.round(decisions * iterations * rate));

/** A validated request: the tree to solve, its size and the estimate. */
export interface ValidSpec {
  /** The request as given, normalized (what the job records). */
  readonly request: SolveRequest;
  readonly config: TreeConfig;
  readonly stack: number;
  readonly game: GameId;
  readonly decisions: number;
  readonly sizeClass: SizeClass;
  /** Estimated seconds on one core (the in-process worker's default). */
  readonly estimateSeconds: number;
}

export type SolveRequest =
  | { readonly game: string; readonly stack: number; readonly changes?: Record<string, unknown> }
  | { readonly config: TreeConfig; readonly stack: number };

const bad = (message: string) => new RangesError("invalid_parameter", message);

function checkStack(stack: unknown): number {
  if (typeof stack !== "number" || !Number.isFinite(stack) || stack < 2 || stack > 1000) {
    throw bad(
      `"stack" must be a number of big blinds from 2 to 1000, got ${JSON.stringify(stack)?.slice(0, 20)}.`,
    );
  }
  return Math.round(stack * 100) / 100;
}

/** The library profile nearest in depth to `stack` (ties: the deeper one). */
function nearestProfile(config: TreeConfig, stack: number): StackProfile {
  let best = config.profiles[0]!;
  let gap = Number.POSITIVE_INFINITY;
  for (const p of config.profiles) {
    for (const s of p.stacks) {
      const d = Math.abs(s - stack);
      if (d < gap || (d === gap && s > stack)) {
        gap = d;
        best = p;
      }
    }
  }
  return best;
}

/**
 * Cheap limits checked before any tree is built. The grammar has raise sizes up to the 5-bet and nobody
 * raises over an all-in, so a sixth raise never exists: `maxRaises` above 5 only makes the builder explore
 * more. `maxCallersToRaise` multiplies the multiway branches (nl9 100bb: 15,930 decisions at 1, 70,765 at 2,
 * 161,783 at 3), so it stays below the seat count.
 */
export const CHANGE_LIMITS = { maxRaises: 5, allInFrom: 6, sizesPerList: 6 } as const;

/**
 * Showdown pairings the sizing may build before it stops (each showdown of k seats counts k * (k - 1)): the
 * largest library tree (nl9, 15,930 decisions) has 128,522, so this leaves room for the pro plan's 20,000
 * decisions on any seat count while bounding the builder's time and memory.
 */
export const SIZING_BUDGET = 400_000;

/** Refuses profile values whose trees grow past any plan, before anything is built. */
function checkProfileBounds(profile: Record<string, unknown>, seats: number, where: string): void {
  const at = (key: string, value: unknown, min: number, max: number, why: string) => {
    if (value === undefined) return;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw bad(
        `${where}.${key} must be an integer from ${min} to ${max} (${why}), got ${JSON.stringify(value)?.slice(0, 20)}.`,
      );
    }
  };
  at(
    "maxRaises",
    profile.maxRaises,
    1,
    CHANGE_LIMITS.maxRaises,
    "sizes exist up to the 5-bet and nobody raises over an all-in",
  );
  at(
    "allInFrom",
    profile.allInFrom,
    1,
    CHANGE_LIMITS.allInFrom,
    "the raise number from which raises are all-in",
  );
  at(
    "maxCallersToRaise",
    profile.maxCallersToRaise,
    0,
    Math.max(0, seats - 2),
    `callers of a raise after which nobody re-raises; ${seats} seats`,
  );
  for (const key of CODE_LISTS) {
    const v = profile[key];
    if (v !== undefined && (!Array.isArray(v) || v.length > CHANGE_LIMITS.sizesPerList)) {
      throw bad(
        `${where}.${key} must be a list of up to ${CHANGE_LIMITS.sizesPerList} raise codes, got ${Array.isArray(v) ? `${v.length}` : JSON.stringify(v)?.slice(0, 20)}.`,
      );
    }
  }
}

/**
 * Builds the tree and counts its decisions, stopping once it has built `SIZING_BUDGET` showdown pairings:
 * a tree that large is over every plan, and building it whole could take the process's memory.
 */
function sizeTree(config: TreeConfig, stack: number): number {
  let pairings = 0;
  const tree = buildPreflopTree(config, stack, () => {
    if (++pairings > SIZING_BUDGET) throw new TreeTooLarge();
    return 0;
  });
  return countNodes(tree.root).decisions;
}

class TreeTooLarge extends Error {}

export const tooLargeMessage = (what: string) =>
  `This tree is too large to solve here: ${what} (the largest library tree, nl9, has 15,930 decisions; the largest plan allows ${Math.max(...Object.values(PLAN_LIMITS).map((l) => l.decisions))}). Fewer sizes (changes.open, changes.threeBetIp, ...), a lower changes.maxCallersToRaise or changes.maxRaises, or fewer seats make it smaller.`;

function applyChanges(
  config: TreeConfig,
  profile: StackProfile,
  stack: number,
  changes: Record<string, unknown>,
): TreeConfig {
  const p: Record<string, unknown> = { ...profile, stacks: [stack] };
  const t: Record<string, unknown> = { ...config };
  checkProfileBounds(changes, GAMES[config.game].seats.length, "changes");
  for (const [key, value] of Object.entries(changes)) {
    if ((PROFILE_CHANGES as readonly string[]).includes(key)) {
      if (CODE_LISTS.has(key)) {
        if (
          !Array.isArray(value) ||
          value.length > 6 ||
          !value.every((c) => typeof c === "number" && Number.isFinite(c) && c > 0)
        ) {
          throw bad(`changes.${key} must be a list of up to 6 positive raise codes (e.g. [25] for 2.5bb).`);
        }
      }
      p[key] = value;
    } else if ((TABLE_CHANGES as readonly string[]).includes(key)) {
      t[key] = value;
    } else {
      throw bad(
        `changes.${key.slice(0, 40)} is not something a solve can change: use ${[...PROFILE_CHANGES, ...TABLE_CHANGES].join(", ")}.`,
      );
    }
  }
  return { ...(t as unknown as TreeConfig), profiles: [p as unknown as StackProfile] };
}

/** Validates a request and sizes its tree. Throws `invalid_parameter` with what to fix. */
export function validateSolveRequest(raw: unknown): ValidSpec {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw bad(
      'A solve request is an object: {"game": "nl/v2", "stack": 85} or {"config": {...}, "stack": 30}.',
    );
  }
  const r = raw as Record<string, unknown>;
  const stack = checkStack(r.stack);
  let config: TreeConfig;
  let request: SolveRequest;
  if ("config" in r) {
    const extra = Object.keys(r).filter((k) => k !== "config" && k !== "stack");
    if (extra.length > 0) throw bad(`With "config", give only "stack" besides it (not ${extra.join(", ")}).`);
    const given = r.config as TreeConfig;
    if (typeof given !== "object" || given === null) throw bad('"config" must be a tree config object.');
    if (given.seats !== undefined && isGameId(given.game)) {
      const seats = GAMES[given.game].seats;
      if (given.seats.length !== seats.length || given.seats.some((s, i) => s !== seats[i])) {
        throw bad(
          `A queued solve is read with ${given.game}'s action paths, so its tree must keep the game's seats (${seats.join(", ")}); leave "seats" out. Fewer players: "dealtIn" names the seats dealt a hand, the last to act (["SB", "BB"] for heads-up), and the others fold first in.`,
        );
      }
    }
    config = {
      ...given,
      profiles: (given.profiles ?? []).map((p) => ({ ...p, stacks: [stack] })).slice(0, 1),
    };
    const first = config.profiles[0] as unknown as Record<string, unknown> | undefined;
    if (first && typeof first === "object" && isGameId(given.game)) {
      checkProfileBounds(first, GAMES[given.game].seats.length, "config.profiles[0]");
    }
    request = { config: given, stack };
  } else {
    const extra = Object.keys(r).filter((k) => !["game", "stack", "changes"].includes(k));
    if (extra.length > 0)
      throw bad(
        `Unknown field ${extra.map((k) => `"${k.slice(0, 30)}"`).join(", ")}: use game, stack, changes (or config, stack).`,
      );
    const game = r.game;
    if (
      typeof game !== "string" ||
      !isGameId(game) ||
      !(SOLVABLE_GAMES as readonly string[]).includes(game)
    ) {
      throw bad(
        `"game" must be one of ${SOLVABLE_GAMES.join(", ")} (the hold'em trees this solver builds), got ${JSON.stringify(game)?.slice(0, 20)}.`,
      );
    }
    const changes = r.changes ?? {};
    if (typeof changes !== "object" || changes === null || Array.isArray(changes))
      throw bad('"changes" must be an object.');
    const library = loadTreeConfig(treeConfigPath(game));
    config = applyChanges(library, nearestProfile(library, stack), stack, changes as Record<string, unknown>);
    request = {
      game,
      stack,
      ...(Object.keys(changes).length > 0 ? { changes: changes as Record<string, unknown> } : {}),
    };
  }
  let decisions: number;
  try {
    validateTreeConfig(config, "the tree");
    if (!GAMES[config.game].seats.length) throw new Error("no seats");
    // Tree configs also describe PLO (pot-limit) trees now; the solver solves hold'em only.
    if (GAMES[config.game].variant !== "holdem")
      throw new Error(`${config.game} is PLO: the solver builds its trees but solves hold'em only`);
    // Counting needs no equity: any matrix index builds the same tree.
    decisions = sizeTree(config, stack);
  } catch (error) {
    if (error instanceof RangesError) throw error;
    if (error instanceof TreeTooLarge) {
      throw bad(tooLargeMessage(`it has more than ${SIZING_BUDGET.toLocaleString("en")} showdown pairings`));
    }
    throw bad(`The solver cannot build this tree: ${(error as Error).message}`);
  }
  const jamOrFold = config.profiles[0]?.jamOrFold === true;
  const sizeClass = sizeClassOf(decisions, jamOrFold);
  const estimateSeconds = estimateFrom(
    decisions,
    DEFAULT_ITERATIONS[sizeClass],
    SECONDS_PER_DECISION_ITERATION,
  );
  return { request, config, stack, game: config.game, decisions, sizeClass, estimateSeconds };
}

/** Refuses a spec over the plan's limits, with the estimate. */
export function checkPlan(spec: ValidSpec, plan: string): void {
  const limit = limitsOf(plan);
  if (spec.decisions > limit.decisions || spec.estimateSeconds > limit.seconds) {
    throw new RangesError(
      "invalid_parameter",
      `This tree has ${spec.decisions} decisions and would take about ${spec.estimateSeconds} s; plan ${plan} allows ${limit.decisions} decisions and ${limit.seconds} s per solve. Fewer sizes (changes.open, changes.threeBetIp, ...), a raise cap (changes.maxRaises) or fewer seats make it smaller.`,
      { decisions: spec.decisions, estimateSeconds: spec.estimateSeconds, limit },
    );
  }
}
