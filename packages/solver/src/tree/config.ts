/**
 * Tree configs (`data/trees/<game>.json`): the betting abstraction of a game, per group of stacks.
 *
 * Raise sizes are raise-size codes (`40000+pct`: raise by pct percent of the pot after calling, see
 * @ranges/core `PotState`). Raise number 1 is the open (first raise), 2 the 3-bet, 3 the 4-bet, 4 the 5-bet.
 *
 * The grammar, by example (one profile of `data/trees/nl-v2.json`):
 *
 * ```json
 * { "stacks": [100], "open": [40060], "sbOpen": [40100], "threeBetIp": [40080], "threeBetOop": [40110],
 *   "fourBet": [40060], "allInFrom": 3, "maxRaises": 4, "isoRaise": [40100] }
 * ```
 *
 * - First in, every seat may fold or open to 2.5bb (60% of the 2.5bb pot after calling 1bb: 1 + 0.6 x 2.5);
 *   the SB opens 100% (to 3bb). Only seats in `limpSeats` may call first in.
 * - Facing any raise a seat may fold, call, or raise with the next raise number's sizes: a 3-bet of 80% of the
 *   pot in position against the raiser or 110% out of position (squeezes use the same percentages of the
 *   bigger pot), then a 4-bet of 60%. From raise number 3 (`allInFrom`) all-in is offered beside the sized
 *   raises, and a sized raise above `allInThreshold` of the stack becomes all-in. After `maxRaises` raises
 *   the remaining seats may only fold or call.
 * - A cold 4-bet (raise number 3 or more from a seat that has put no chips in voluntarily, blinds excepted)
 *   is offered only with `"coldFourBet": true`. Nobody raises over an all-in.
 * - `"jamOrFold": true` (nlmtt8 10bb): every first-in decision is fold or all-in, facing an all-in fold or
 *   call.
 *
 * Rake (`"rake": { "percent": 5, "capBb": 0.6 }`) is taken from every pot that sees a flop (all-in or not);
 * a pot won preflop pays none. Leave it out (or `null`) for no rake.
 *
 * Pot-limit Omaha (`"betting": "pot-limit"`, required for the games plo, plo9, plo5 and plo6hu and refused
 * for hold'em). The same fields, with these differences (one profile of `data/trees/plo.json`):
 *
 * ```json
 * { "stacks": [100], "open": [40100], "sbOpen": [40100], "isoRaise": [40100],
 *   "threeBetIp": [40075, 40100], "threeBetOop": [40100], "fourBet": [40100],
 *   "allInFrom": 3, "maxRaises": 4, "maxCallersToRaise": 1 }
 * ```
 *
 * - Every sized raise is a percent of the pot, `40000+pct` with 1 <= pct <= 100: `40100` is the pot-size
 *   raise, the pot-limit maximum (raise-to = the bet + the pot after calling). Codes 3, 5 and 14 and
 *   `jamOrFold` are refused; `maxRaises` is required (a pot-limit tree needs a raise cap).
 * - All-in is offered only where it is legal, i.e. where the pot-size raise reaches the stack; there it
 *   replaces the sized raises that `allInFrom`, `allInThreshold` or the stacks would turn into an all-in.
 *   Where it is not legal, those sized raises stay as they are.
 * - Tokens: `Fold`, `Call` (a check or a complete too), `AI`, and the raise of its depth, `Open`, `3B`, `4B`,
 *   `5B`, `6B`. When a node offers more than one sized raise, each carries the size id `-<pct>`, the percent
 *   of the pot: above, a seat 3-betting in position chooses between `3B-75` and `3B-100`, while out of
 *   position the 3-bet is plain `3B`. A size id means the same percent everywhere in a tree;
 *   `potLimitSizeIds` lists them per raise depth.
 * - Examples of PLO paths built from that profile: `UTG_Open_HJ` (HJ facing a pot open to 3.5bb),
 *   `UTG_Open_HJ_3B-75` (HJ's 3-bet of 75% of the pot, to 9.88bb), `UTG_Open_HJ_3B-100_CO` (CO facing the
 *   pot-size 3-bet to 12bb), `UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_Call_BB` (BB after an SB complete; a pot
 *   raise there is `Open` to 3bb). At 100bb the pot 4-bet goes to 37.5bb, and facing it the pot-size raise
 *   would reach 114bb, so the 5-bet is `AI`.
 * - Refused configs (`validateTreeConfig` throws): a plo game without `"betting": "pot-limit"`, a hold'em
 *   game with it, a raise code above `40100` or not a percent code (`[40150]`, `[3]`, `[5]`), `jamOrFold`,
 *   a profile without `maxRaises`, an `allInThreshold` outside (0, 1].
 */

import { readFileSync } from "node:fs";
import { GAMES, type GameId, isGameId, PCT_CODE_BASE } from "@ranges/core";

export interface StackProfile {
  readonly stacks: readonly number[];
  /** Only all-in or fold for every first-in and facing decision (nlmtt8 10bb). */
  readonly jamOrFold?: boolean;
  /** Open codes for seats other than the SB. */
  readonly open?: readonly number[];
  /** Open codes for the SB. */
  readonly sbOpen?: readonly number[];
  /** 3-bet codes when the 3-bettor will be in position / out of position against the opener. */
  readonly threeBetIp?: readonly number[];
  readonly threeBetOop?: readonly number[];
  /** 3-bet codes over an open and one or more callers (default: the in/out of position 3-bet codes). */
  readonly squeeze?: readonly number[];
  readonly fourBet?: readonly number[];
  readonly fiveBet?: readonly number[];
  /** Raise number from which an all-in is offered beside the sized raises (1: open-shoves allowed). */
  readonly allInFrom: number;
  /** Open-size labels of the pack listing (nlmtt8 `/config`). */
  readonly openLabel?: string;
  readonly sbOpenLabel?: string;
  /** Raise codes against one or more limpers (the BB over an SB limp). */
  readonly isoRaise?: readonly number[];
  /** Most raises in a hand (default 5); after it every seat may only fold or call. */
  readonly maxRaises?: number;
  /**
   * Most callers of the current raise over which a re-raise is still offered (default: no limit). 1 allows
   * the squeeze over an open and one call but not over two callers.
   */
  readonly maxCallersToRaise?: number;
  /** Allow 4-bets and 5-bets from seats that have not yet put chips in voluntarily (default false). */
  readonly coldFourBet?: boolean;
  /**
   * The regret minimizer for these stacks (default `"dcfr"`). `"pcfr+"` (predictive CFR+) converges several
   * times faster on the deep multiway trees (nl 150bb: 0.35% of the pot after 400 iterations against 0.62%
   * for DCFR), where DCFR stalls; DCFR stays ahead on short and jam/fold trees. See docs/solver-model.md.
   */
  readonly algorithm?: SolverAlgorithm;
  /**
   * Least probability of every action while iterating (the trembling hand that gives unreached lines best
   * responses; default `PREFLOP_TREMBLE`, 1e-4). The published strategies are best responses to opponents who
   * tremble, so the tremble leaves a floor on their exploitability that grows with the stakes behind: at
   * 300bb, 1e-4 stalls nlmtt8 at 0.67% of the pot while 1e-5 keeps converging (0.47% after 350 iterations and
   * falling). Deep profiles set `1e-5`; in (0, 0.01].
   */
  readonly tremble?: number;
  /**
   * Which actions tremble (default `"untaken"`). `"untaken"`: only an action that no hand takes at a decision,
   * played then by every hand with probability `tremble`, so the lines that are taken keep exact ranges.
   * `"every"`: every action of every hand, the played strategy being (1 - k * tremble) * s + tremble for k
   * actions; it is continuous in the strategies, where `"untaken"` switches a line's range from its last few
   * hands to the whole range at once. The 200bb cash profiles need it: with `"untaken"`, nl/v2 200bb under
   * predictive CFR+ stalls at 0.75% of the pot (its iterates jump around iteration 550), with `"every"` it
   * keeps converging. An iteration costs about twice as much (no line's range is sparse any more).
   *
   * @example { "stacks": [200], "algorithm": "pcfr+", "tremble": 1e-5, "trembleScope": "every" }
   */
  readonly trembleScope?: TrembleScope;
}

/** Which actions the trembling hand touches while iterating (see `StackProfile.trembleScope`). */
export type TrembleScope = "untaken" | "every";

/** Regret minimizers the solver runs: discounted CFR, or predictive CFR+ (simultaneous updates only). */
export type SolverAlgorithm = "dcfr" | "pcfr+";

/** Rake on pots that see a flop: `percent` of the pot, at most `capBb`. */
export interface RakeConfig {
  readonly percent: number;
  readonly capBb: number;
}

export interface RealizationModel {
  readonly name: string;
  /** Equity-realization multipliers of the player in and out of position. */
  readonly ipFactor: number;
  readonly oopFactor: number;
  /** Exponent of the contest function (1: shares in proportion to scaled equity; > 1: favourites gain). */
  readonly contestExponent: number;
  /** Playability bonuses added to a class's multiplier. */
  readonly suitedBonus: number;
  /** Bonus by gap between the two ranks (index 0: connectors). */
  readonly connectedBonus: readonly number[];
  readonly pairBonus: number;
  /** Stack-to-pot ratio at which the multipliers apply in full; below it they shrink toward 1 linearly. */
  readonly sprFull: number;
  /** Where the parameter values come from. */
  readonly source: string;
  /**
   * Model v4: when present, a heads-up pot that reaches the flop with chips behind is shared by the grounded
   * model fitted to this project's postflop solves (src/model/grounded.ts; `realization fit --params-out` writes it),
   * and the contest fields above are not read. All-in pots are shared by equity either way.
   */
  readonly grounded?: GroundedParams;
}

/**
 * Parameters of the grounded model (src/model/grounded.ts): `theta` HAND_FEATURES x PLAYER_FEATURES
 * row-major, `gamma` the four GAMMA_TERMS (q(2e - 1) times a constant and ln SPR, then (2e - 1) times the
 * same), `classEffects` 169 x CLASS_EFFECT_FEATURES row-major (absent: none).
 *
 * ```json
 * { "theta": [0.01, ...104 numbers], "gamma": [-0.58, -0.38, 0.39, 0.39], "classEffects": [...1014 numbers] }
 * ```
 */
export interface GroundedParams {
  readonly theta: ArrayLike<number>;
  readonly gamma: ArrayLike<number>;
  readonly classEffects?: ArrayLike<number>;
  /** Lines solved with this pack's own ranges, whose class effects come from their own solves (absent: none). */
  readonly lines?: readonly GroundedLine[];
}

/**
 * A heads-up flop line solved directly (`@ranges/realization`): per class and player, what the line's own
 * solves say a class realizes beyond the fitted model, added to that player's mu (src/model/grounded.ts) in
 * every duel between these two seats with the same raise count and last raiser, at a stack-to-pot ratio within
 * a factor of the square root of 2 of the line's (an open of another size meets the same effects).
 *
 * ```json
 * { "id": "srp-btn-bb", "oop": "BB", "ip": "BTN", "raises": 1, "aggressor": "ip", "spr": 9.38,
 *   "effects": { "oop": [...169 numbers], "ip": [...169 numbers] } }
 * ```
 */
export interface GroundedLine {
  /** The line's name in reports (`srp-btn-bb`). */
  readonly id: string;
  /** The seat out of position after the flop, and the seat in position. */
  readonly oop: string;
  readonly ip: string;
  /** Raises before the flop: 0 a limped pot, 1 single-raised, 2 a 3-bet pot, 3 a 4-bet pot. */
  readonly raises: number;
  /** Who raised last (null: a limped pot). */
  readonly aggressor: "oop" | "ip" | null;
  /** The stack-to-pot ratio the line was solved at. */
  readonly spr: number;
  /** Per class (`HOLDEM_CLASSES` order), added to mu of that player. */
  readonly effects: { readonly oop: ArrayLike<number>; readonly ip: ArrayLike<number> };
}

/**
 * Playability bonuses of a PLO hand, added to its realization multiplier (1 + the sum), from the features of
 * `ploClassFeatures` (src/plo/abstraction.ts). A bucket's multiplier is the combo-weighted mean of its
 * classes'. Negative values are penalties.
 */
export interface PloPlayability {
  /** Two suited pairs (`ds`). */
  readonly doubleSuited: number;
  /** One suited pair and two other suits (`ss`). */
  readonly singleSuited: number;
  /** Three or four cards of one suit (`3s`, `4s`): one flush draw, partly blocked by the hand's own cards. */
  readonly threeFlush: number;
  /** An ace in a suited group (the nut flush draw), on top of the suit bonus. */
  readonly nutSuit: number;
  /** Per straight window holding three or more of the hand's ranks (`wrapWindows`, 0 to 4): wraps. */
  readonly wrap: number;
  /** Per paired rank (one pair or two pairs): set value. */
  readonly pair: number;
  /** Trips or quads: cards that block the hand's own sets and straights. */
  readonly trips: number;
  /** Per dangler (a card that works with no other: unpaired, unsuited, four or more ranks away). */
  readonly dangler: number;
}

/**
 * The terminal model of a PLO tree (`"betting": "pot-limit"`): the contest of `RealizationModel` (position
 * factors, exponent, `sprFull`), with PLO playability in place of hold'em's suited, connector and pair bonuses,
 * over the buckets of the PLO abstraction. Read it with `ploModelOf`.
 */
export interface PloRealizationModel {
  readonly name: string;
  readonly ipFactor: number;
  readonly oopFactor: number;
  readonly contestExponent: number;
  readonly sprFull: number;
  readonly playability: PloPlayability;
  /** Buckets of the abstraction the tree is solved over (`buildPloAbstraction({ buckets })`). */
  readonly buckets: number;
  readonly source: string;
}

const PLO_PLAYABILITY_KEYS: readonly (keyof PloPlayability)[] = [
  "doubleSuited",
  "singleSuited",
  "threeFlush",
  "nutSuit",
  "wrap",
  "pair",
  "trips",
  "dangler",
];

/**
 * The PLO model block of a pot-limit config, checked: positive position factors, an exponent of at least 1,
 * a positive `sprFull`, every playability bonus a finite number in [-0.5, 0.5], an integer bucket count, and
 * none of hold'em's bonus fields (they mean nothing over four-card hands).
 */
export function ploModelOf(config: Pick<TreeConfig, "model">, where = "tree config"): PloRealizationModel {
  const m = config.model as unknown as Partial<PloRealizationModel> & Record<string, unknown>;
  const fail = (why: string): never => {
    throw new Error(`${where}: PLO model ${why}`);
  };
  if (typeof m !== "object" || m === null) return fail("is missing");
  for (const key of ["suitedBonus", "connectedBonus", "pairBonus"])
    if (key in m) fail(`has the hold'em field ${key}; PLO playability goes in "playability"`);
  if (typeof m.name !== "string" || m.name === "") fail("needs a name");
  for (const key of ["ipFactor", "oopFactor", "sprFull"] as const)
    if (!(typeof m[key] === "number" && Number.isFinite(m[key]) && m[key] > 0)) fail(`${key} must be > 0`);
  if (!(typeof m.contestExponent === "number" && m.contestExponent >= 1))
    fail("contestExponent must be >= 1");
  if (!(typeof m.buckets === "number" && Number.isInteger(m.buckets) && m.buckets >= 2))
    fail("buckets must be an integer >= 2");
  if (typeof m.source !== "string") fail("needs a source");
  const p = m.playability as Record<string, unknown> | undefined;
  if (typeof p !== "object" || p === null) return fail("needs a playability block");
  for (const key of Object.keys(p))
    if (!(PLO_PLAYABILITY_KEYS as readonly string[]).includes(key))
      fail(`playability has an unknown field ${key}`);
  for (const key of PLO_PLAYABILITY_KEYS) {
    const x = p[key];
    if (!(typeof x === "number" && Number.isFinite(x) && Math.abs(x) <= 0.5))
      fail(`playability.${key} must be a number in [-0.5, 0.5]`);
  }
  return m as PloRealizationModel;
}

/** `no-limit` (hold'em, the default) or `pot-limit` (PLO: no raise above the pot, see the module comment). */
export type BettingStructure = "no-limit" | "pot-limit";

export interface TreeConfig {
  readonly game: GameId;
  /** Betting structure; absent means no-limit. Required `"pot-limit"` for the PLO games. */
  readonly betting?: BettingStructure;
  /** Seats in acting order; defaults to the game's seats (a custom spot may name fewer). */
  readonly seats?: readonly string[];
  /**
   * The seats dealt a hand, for a short-handed spot read with the game's own action paths (default: every
   * seat). The others fold first in without a choice, so every history keeps the game's grammar: with
   * `"dealtIn": ["SB", "BB"]` in nl, the SB's first decision is `UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB`. The
   * dealt-in seats must be the last ones to act preflop, blinds included (`["BTN", "SB", "BB"]` is a
   * three-handed spot; `["UTG", "BB"]` is refused), so nobody who is dealt out ever faces a raise.
   */
  readonly dealtIn?: readonly string[];
  readonly description: string;
  readonly blinds: { readonly sb: number; readonly bb: number };
  readonly ante: number;
  readonly antePostedBy: "BB" | "SB" | null;
  /** Seats allowed to call first in (SB completes). Every other first-in call is left out of the tree. */
  readonly limpSeats: readonly string[];
  /** A sized raise that would put in more than this fraction of the stack is replaced by all-in. */
  readonly allInThreshold: number;
  /** Cash-game rake (no flop, no drop); absent or null for none. */
  readonly rake?: RakeConfig | null;
  readonly profiles: readonly StackProfile[];
  /**
   * The terminal model. Hold'em: a `RealizationModel`. Pot-limit (PLO) configs hold a `PloRealizationModel`
   * here instead (checked by `validateTreeConfig`; read it with `ploModelOf`).
   */
  readonly model: RealizationModel;
  /** Iteration and time budget and the exploitability target (percent of the starting pot). */
  readonly solve: {
    readonly maxIterations: number;
    readonly maxSeconds: number;
    readonly targetPctPot: number;
    /** Alternating seat updates (see CfrParams). */
    readonly alternate: boolean;
  };
}

export function loadTreeConfig(path: string): TreeConfig {
  const raw = JSON.parse(readFileSync(path, "utf8")) as TreeConfig;
  return validateTreeConfig(raw, path);
}

export function validateTreeConfig(raw: TreeConfig, where = "tree config"): TreeConfig {
  if (!isGameId(raw.game)) throw new Error(`${where}: game must be a game, got ${String(raw.game)}`);
  const omaha = GAMES[raw.game].variant === "omaha";
  if (raw.betting !== undefined && raw.betting !== "no-limit" && raw.betting !== "pot-limit")
    throw new Error(
      `${where}: betting must be "no-limit" or "pot-limit", got ${JSON.stringify(raw.betting)}`,
    );
  if (omaha !== (raw.betting === "pot-limit")) {
    throw new Error(
      omaha
        ? `${where}: ${raw.game} is pot-limit Omaha, not hold'em: set "betting": "pot-limit"`
        : `${where}: ${raw.game} is no-limit hold'em: "betting": "pot-limit" is for the PLO games`,
    );
  }
  if (!Array.isArray(raw.profiles) || raw.profiles.length === 0)
    throw new Error(`${where}: profiles is empty`);
  if (raw.betting === "pot-limit") {
    validatePotLimit(raw, where);
    ploModelOf(raw, where);
  }
  if (raw.rake != null) {
    const { percent, capBb } = raw.rake;
    if (!(Number.isFinite(percent) && percent >= 0 && percent < 100))
      throw new Error(`${where}: rake.percent must be in [0, 100), got ${String(percent)}`);
    if (!(Number.isFinite(capBb) && capBb >= 0))
      throw new Error(`${where}: rake.capBb must be a number >= 0, got ${String(capBb)}`);
  }
  for (const p of raw.profiles) {
    if (p.algorithm !== undefined && p.algorithm !== "dcfr" && p.algorithm !== "pcfr+")
      throw new Error(`${where}: algorithm must be "dcfr" or "pcfr+", got ${JSON.stringify(p.algorithm)}`);
    if (p.algorithm === "pcfr+" && raw.solve?.alternate)
      throw new Error(`${where}: algorithm "pcfr+" runs with simultaneous updates (solve.alternate false)`);
    if (p.tremble !== undefined && !(typeof p.tremble === "number" && p.tremble > 0 && p.tremble <= 0.01))
      throw new Error(`${where}: tremble must be a number in (0, 0.01], got ${JSON.stringify(p.tremble)}`);
    if (p.trembleScope !== undefined && p.trembleScope !== "untaken" && p.trembleScope !== "every")
      throw new Error(
        `${where}: trembleScope must be "untaken" or "every", got ${JSON.stringify(p.trembleScope)}`,
      );
    if (p.maxRaises !== undefined && !(Number.isInteger(p.maxRaises) && p.maxRaises >= 1))
      throw new Error(`${where}: maxRaises must be an integer >= 1, got ${String(p.maxRaises)}`);
  }
  if (raw.dealtIn != null) {
    const seats = GAMES[raw.game].seats;
    const dealt = raw.dealtIn;
    const suffix = seats.slice(seats.length - (Array.isArray(dealt) ? dealt.length : 0));
    if (
      raw.seats !== undefined ||
      !Array.isArray(dealt) ||
      dealt.length < 2 ||
      dealt.length > seats.length ||
      dealt.some((s, i) => s !== suffix[i])
    ) {
      throw new Error(
        `${where}: dealtIn must list the last seats to act preflop in order, at least the blinds (${seats.slice(-2).join(", ")}; e.g. ${seats.slice(-3).join(", ")}), without "seats"; got ${JSON.stringify(dealt)?.slice(0, 80)}`,
      );
    }
  }
  for (const seat of raw.limpSeats) {
    if (!GAMES[raw.game].seats.includes(seat)) throw new Error(`${where}: limp seat ${seat} is not a seat`);
  }
  return raw;
}

/** The raise-code lists of a profile, by raise depth (1 = open, 2 = 3-bet, ...), with their field names. */
const RAISE_FIELDS: readonly (readonly [keyof StackProfile, number])[] = [
  ["open", 1],
  ["sbOpen", 1],
  ["isoRaise", 1],
  ["threeBetIp", 2],
  ["threeBetOop", 2],
  ["squeeze", 2],
  ["fourBet", 3],
  ["fiveBet", 4],
];

function validatePotLimit(raw: TreeConfig, where: string): void {
  if (!(Number.isFinite(raw.allInThreshold) && raw.allInThreshold > 0 && raw.allInThreshold <= 1))
    throw new Error(`${where}: allInThreshold must be in (0, 1], got ${String(raw.allInThreshold)}`);
  raw.profiles.forEach((p, k) => {
    const at = `${where}: profile ${k + 1} (${JSON.stringify(p.stacks)})`;
    if (p.jamOrFold) throw new Error(`${at}: jamOrFold is not pot-limit (an open shove is over the pot)`);
    if (p.maxRaises === undefined)
      throw new Error(`${at}: a pot-limit profile needs maxRaises (a raise cap)`);
    for (const [field] of RAISE_FIELDS) {
      const codes = p[field];
      if (codes === undefined) continue;
      if (!Array.isArray(codes)) throw new Error(`${at}: ${field} must be a list of raise codes`);
      for (const code of codes as unknown[]) {
        const pct = typeof code === "number" ? code - PCT_CODE_BASE : Number.NaN;
        if (!(Number.isInteger(pct) && pct >= 1 && pct <= 100)) {
          throw new Error(
            `${at}: ${field} has ${JSON.stringify(code)}; a pot-limit raise is a percent of the pot, 40001 to 40100 (40100 is the pot-size raise)`,
          );
        }
      }
      if (new Set(codes).size !== codes.length) throw new Error(`${at}: ${field} lists a size twice`);
    }
  });
}

/** One raise size of a pot-limit tree: its size id (the suffix of `Open-<id>`) and percent of the pot. */
export interface PotLimitSize {
  readonly id: string;
  readonly pct: number;
}

/** The depth tokens of raise numbers 1.. (`Open`, `3B`, `4B`, ...). */
export const depthToken = (raiseNumber: number): string =>
  raiseNumber === 1 ? "Open" : `${raiseNumber + 1}B`;

/** The size id of a pot-limit raise code: its percent of the pot (`40075` -> `75`). */
export const potLimitSizeId = (code: number): string => String(code - PCT_CODE_BASE);

/**
 * The raise sizes of a pot-limit profile by depth token, each with its size id: what `Open-<id>`, `3B-<id>`
 * ... mean in the tree. A node that offers one sized raise writes the bare token; one that offers several
 * writes every one with its suffix. E.g. `{ Open: [{ id: "100", pct: 100 }], "3B": [{ id: "75", pct: 75 },
 * { id: "100", pct: 100 }], "4B": [...] }`.
 */
export function potLimitSizeIds(profile: StackProfile): Record<string, PotLimitSize[]> {
  const out: Record<string, PotLimitSize[]> = {};
  for (const [field, raiseNumber] of RAISE_FIELDS) {
    const codes = profile[field] as readonly number[] | undefined;
    if (!codes || (profile.maxRaises !== undefined && raiseNumber > profile.maxRaises)) continue;
    const list = (out[depthToken(raiseNumber)] ??= []);
    for (const code of codes) {
      if (!list.some((s) => s.pct === code - PCT_CODE_BASE))
        list.push({ id: potLimitSizeId(code), pct: code - PCT_CODE_BASE });
    }
    list.sort((a, b) => a.pct - b.pct);
  }
  return out;
}

/** The config's rake, or null when it takes none. */
export function rakeOf(config: TreeConfig): RakeConfig | null {
  const r = config.rake;
  if (!r || (r.percent === 0 && r.capBb === 0)) return null;
  return r;
}

export function profileFor(config: TreeConfig, stack: number): StackProfile {
  const p = config.profiles.find((x) => x.stacks.includes(stack));
  if (!p) {
    const all = config.profiles.flatMap((x) => x.stacks);
    throw new Error(`${config.game} has no tree profile for ${stack}bb; stacks: ${all.join(", ")}`);
  }
  return p;
}

export const configStacks = (config: TreeConfig): number[] =>
  config.profiles.flatMap((p) => p.stacks).sort((a, b) => a - b);
