/**
 * Grounded terminal values (model v4; a tree config's `model.grounded`): how a heads-up pot that reaches the flop
 * with chips behind is shared, with parameters fitted to this project's own postflop solves
 * (`@ranges/realization`, which fits them with these same features).
 *
 * The row player P's share with class a against class b of the column player Q:
 *
 *   s_P(a, b) = e + q * (gamma * (2e - 1) + mu_P(a) - mu_Q(b)) + kappa * (2e - 1),
 *               e = equity of a against b,  q = 4e(1 - e)
 *   mu_P(a)   = sum_k sum_j theta[k][j] f_k(a) g_j(P)  +  sum_j delta[a][j] c_j(P)
 *   gamma     = gamma[0] + gamma[1] * ln(SPR),   kappa = gamma[2] + gamma[3] * ln(SPR)
 *
 * so s_P(a, b) + s_Q(b, a) = 1 for every deal: no chips are created. The share is net of what the hand puts
 * in after the flop, so it may exceed 1 (a set stacks an overpair) or fall below 0. `f` are hand features
 * (`handFeatures`), `g` player features in the pot (`playerFeatures`: in position, the last raiser, a limped
 * pot, ln SPR), `c` the class effects' features (`classEffectFeatures`: 1, the last raiser, in position, ln SPR,
 * the in-position last raiser, a limped pot, a pot of two raises or more). `gamma` lets favourites win more
 * than their equity where the matchup is close (q is largest at e = 1/2); `kappa` is the stacks' part that
 * grows with the favourite's edge all the way (an all-in at SPR r adds r(2e - 1) to the share), which dominates
 * shallow pots: in `nl/v2` 100bb's BTN-BB 4-bet pot the BTN's aces realize 2.1 times their equity
 * (data/realization/round-0-balanced).
 *
 * A line solved directly with the pack's own ranges (`lines`, `GroundedLine`) adds its own per-class effects to
 * mu in the duels between its two seats with its raise count and last raiser, near its SPR: there the values
 * are the line's solves, and the fitted model only carries them to sizes and depths nobody solved.
 *
 * ```json
 * { "theta": [...13 x 8...], "gamma": [-0.58, -0.38, 0.39, 0.39], "classEffects": [...169 x 7...],
 *   "lines": [{ "id": "srp-btn-bb", "oop": "BB", "ip": "BTN", "raises": 1, "aggressor": "ip", "spr": 9.4,
 *               "effects": { "oop": [...169...], "ip": [...169...] } }] }
 * ```
 */

import type { DuelKind } from "../tree/build.js";
import type { GroundedLine, GroundedParams } from "../tree/config.js";
import type { ShareMatrices } from "./realization.js";

const N = 169;

export const HAND_FEATURES = [
  "1",
  "pair",
  "suited",
  "high",
  "low",
  "pairRank",
  "connector",
  "oneGapper",
  "twoGapper",
  "suitedConnected",
  "ace",
  "equity",
  "equity^2",
] as const;

export const PLAYER_FEATURES = [
  "1",
  "ip",
  "aggressor",
  "ip*aggressor",
  "limped",
  "lnSPR",
  "lnSPR*ip",
  "lnSPR*aggressor",
] as const;

/**
 * The class effects' features: a constant, the last raiser, in position, ln SPR less ln 6 (a class's effect
 * moves with depth: suited connectors gain in deep pots, big offsuit cards in shallow ones), the in-position
 * last raiser and a limped pot (with the first three, each of the five roles in a heads-up pot has its own
 * effect: the raiser or the caller, in or out of position, and either player of a limped pot), and a pot of two
 * raises or more (3-bet and 4-bet pots: the same class realizes differently against a condensed range; the
 * fit with and without it is measured in docs/solver-model.md, "The per-line flops in, ...").
 */
export const CLASS_EFFECT_FEATURES = [
  "1",
  "aggressor",
  "ip",
  "lnSPR-ln6",
  "ip*aggressor",
  "limped",
  "reraised",
] as const;

/** The line terms (`gamma`): q(2e - 1) times a constant and ln SPR, then (2e - 1) times the same two. */
export const GAMMA_TERMS = ["q(2e-1)", "q(2e-1)*lnSPR", "(2e-1)", "(2e-1)*lnSPR"] as const;

/** The pot as one of its two players sees it. */
export interface PlayerSpot {
  readonly spr: number;
  readonly ip: boolean;
  /** This player made the last raise. */
  readonly aggressor: boolean;
  /** Nobody raised (a limped pot). */
  readonly limped: boolean;
  /** Two raises or more before the flop (a 3-bet or 4-bet pot). */
  readonly reraised: boolean;
}

/** Hand features of a hold'em class (169, `HOLDEM_CLASSES` order), given its equity against a random hand. */
export function handFeatures(cls: number, equityVsRandom: number): number[] {
  const row = Math.floor(cls / 13);
  const col = cls % 13;
  const pair = row === col ? 1 : 0;
  const suited = row < col ? 1 : 0;
  const hi = (12 - Math.min(row, col)) / 12;
  const lo = (12 - Math.max(row, col)) / 12;
  const gap = pair ? -1 : Math.abs(row - col) - 1;
  const conn = gap === 0 ? 1 : 0;
  const oneGap = gap === 1 ? 1 : 0;
  const twoGap = gap === 2 ? 1 : 0;
  const ace = !pair && row === 0 ? 1 : 0;
  const e = equityVsRandom;
  return [
    1,
    pair,
    suited,
    pair ? 0 : hi,
    pair ? 0 : lo,
    pair * hi,
    conn,
    oneGap,
    twoGap,
    suited * (conn + oneGap),
    ace,
    e - 0.5,
    (e - 0.5) ** 2,
  ];
}

export function playerFeatures(p: PlayerSpot): number[] {
  const ip = p.ip ? 1 : 0;
  const aggr = p.aggressor ? 1 : 0;
  const ls = Math.log(p.spr);
  return [1, ip, aggr, ip * aggr, p.limped ? 1 : 0, ls, ls * ip, ls * aggr];
}

export function classEffectFeatures(p: PlayerSpot): number[] {
  const ip = p.ip ? 1 : 0;
  const aggr = p.aggressor ? 1 : 0;
  return [1, aggr, ip, Math.log(p.spr / 6), ip * aggr, p.limped ? 1 : 0, p.reraised ? 1 : 0];
}

export function gammaFeatures(spr: number): number[] {
  return [1, Math.log(spr)];
}

/** Equity of each class against a uniform random hand (combo weighted), from the heads-up table. */
export function equityVsRandom(eq: Float64Array, w: Float64Array): Float64Array {
  const out = new Float64Array(N);
  for (let a = 0; a < N; a++) {
    let s = 0;
    let m = 0;
    for (let b = 0; b < N; b++) {
      s += w[a * N + b]! * eq[a * N + b]!;
      m += w[a * N + b]!;
    }
    out[a] = s / m;
  }
  return out;
}

export type { GroundedLine, GroundedParams };

/** mu of every class for a player in a pot. */
export function muOf(params: GroundedParams, features: readonly number[][], p: PlayerSpot): Float64Array {
  const g = playerFeatures(p);
  const c = classEffectFeatures(p);
  const J = PLAYER_FEATURES.length;
  const C = CLASS_EFFECT_FEATURES.length;
  const out = new Float64Array(N);
  for (let a = 0; a < N; a++) {
    let v = 0;
    const f = features[a]!;
    for (let k = 0; k < HAND_FEATURES.length; k++) {
      for (let j = 0; j < J; j++) v += params.theta[k * J + j]! * f[k]! * g[j]!;
    }
    if (params.classEffects) for (let j = 0; j < C; j++) v += params.classEffects[a * C + j]! * c[j]!;
    out[a] = v;
  }
  return out;
}

/** The stack-to-pot ratios at which grounded matrices are built; a pot takes the nearest in ln SPR. */
export const GROUNDED_SPR_POINTS = [0.75, 1.5, 3, 6, 12, 24, 48] as const;

/**
 * How far, in ln SPR, a duel may be from a line solved directly and still take that line's class effects:
 * half the spacing of GROUNDED_SPR_POINTS (a factor of the square root of 2).
 */
export const LINE_SPR_REACH = Math.log(2) / 2;

/** Who raised last: the IP player, the OOP player, nobody (a limped pot), or a third player (multiway). */
const INITIATIVES = ["ip", "oop", "limped", "other"] as const;

/** A single-raised (or limped) pot, then a pot with two raises or more (3-bet, 4-bet). */
const RAISE_LEVELS = [false, true] as const;

/**
 * Share matrices of the grounded model, laid out like the contest's: [0] all-in equity, then per SPR point,
 * initiative (the IP player raised last, the OOP player did, nobody raised, a third player did) and raise level
 * (one raise or none; two or more) an IP-row and an OOP-row matrix. `indexForKind` picks a duel's matrix.
 *
 * Multiway flop pots (three or more players; issue "Preflop model v4", item 3) are not solved: the engine
 * shares them by independent duels, the chance that a player wins every duel being the product of its duel
 * shares. That reading needs shares that are probabilities, so a duel in a multiway pot takes the same heads-up
 * share clipped to [0, 1] (and its complement), in a pair of matrices appended on first use. What the clip
 * loses: a heads-up share above 1 (a hand that wins more than the pot, stacking its opponent after the flop)
 * or below 0 counts as 1 or 0 in a multiway pot, so multiway pots understate how far strong and weak hands
 * drift from their equity; and a duel between two callers of a third player's raise takes the initiative "a
 * third player raised", fitted on no multiway solve.
 */
export function buildGroundedMatrices(
  params: GroundedParams,
  eq: Float64Array,
  w: Float64Array,
): ShareMatrices & { indexForKind(kind: DuelKind): number } {
  const er = equityVsRandom(eq, w);
  const features = Array.from({ length: N }, (_, a) => handFeatures(a, er[a]!));
  const allIn = new Float64Array(N * N);
  for (let i = 0; i < N * N; i++) allIn[i] = w[i]! * eq[i]!;
  const matrices: Float64Array[] = [allIn];
  /** The IP-row and OOP-row matrices of a pot at `spr` whose players' mu are `muIp` and `muOop`. */
  const pair = (spr: number, muIp: Float64Array, muOop: Float64Array): void => {
    const gf = gammaFeatures(spr);
    const gamma = params.gamma[0]! * gf[0]! + params.gamma[1]! * gf[1]!;
    const kappa = params.gamma[2]! * gf[0]! + params.gamma[3]! * gf[1]!;
    const ip = new Float64Array(N * N);
    const oop = new Float64Array(N * N);
    for (let a = 0; a < N; a++) {
      for (let b = 0; b < N; b++) {
        const e = eq[a * N + b]!;
        const q = 4 * e * (1 - e);
        const share = e + q * (gamma * (2 * e - 1) + muIp[a]! - muOop[b]!) + kappa * (2 * e - 1);
        ip[a * N + b] = w[a * N + b]! * share;
        oop[b * N + a] = w[b * N + a]! * (1 - share);
      }
    }
    matrices.push(ip, oop);
  };
  for (const spr of GROUNDED_SPR_POINTS) {
    for (const init of INITIATIVES) {
      const limped = init === "limped";
      for (const reraised of RAISE_LEVELS) {
        const muIp = muOf(params, features, { spr, ip: true, aggressor: init === "ip", limped, reraised });
        const muOop = muOf(params, features, { spr, ip: false, aggressor: init === "oop", limped, reraised });
        pair(spr, muIp, muOop);
      }
    }
  }
  // Lines solved directly: the model at the line's own SPR, plus the line's class effects.
  const lineBase: number[] = [];
  for (const line of params.lines ?? []) {
    const spot = (ip: boolean): PlayerSpot => ({
      spr: line.spr,
      ip,
      aggressor: line.aggressor === (ip ? "ip" : "oop"),
      limped: line.raises === 0,
      reraised: line.raises >= 2,
    });
    const muIp = muOf(params, features, spot(true));
    const muOop = muOf(params, features, spot(false));
    for (let a = 0; a < N; a++) {
      muIp[a] = muIp[a]! + line.effects.ip[a]!;
      muOop[a] = muOop[a]! + line.effects.oop[a]!;
    }
    lineBase.push(matrices.length);
    pair(line.spr, muIp, muOop);
  }
  const nearest = (spr: number): number => {
    let best = 0;
    for (let k = 1; k < GROUNDED_SPR_POINTS.length; k++) {
      if (
        Math.abs(Math.log(spr / GROUNDED_SPR_POINTS[k]!)) <
        Math.abs(Math.log(spr / GROUNDED_SPR_POINTS[best]!))
      )
        best = k;
    }
    return best;
  };
  /** Heads-up base index -> index of its clipped pair (multiway pots), built on first use. */
  const clipped = new Map<number, number>();
  const clippedPair = (base: number): number => {
    let at = clipped.get(base);
    if (at === undefined) {
      at = matrices.length;
      const ip = matrices[base]!;
      const cip = new Float64Array(N * N);
      const coop = new Float64Array(N * N);
      for (let a = 0; a < N; a++) {
        for (let b = 0; b < N; b++) {
          const wt = w[a * N + b]!;
          if (wt === 0) continue;
          const share = Math.min(1, Math.max(0, ip[a * N + b]! / wt));
          cip[a * N + b] = wt * share;
          coop[b * N + a] = w[b * N + a]! * (1 - share);
        }
      }
      matrices.push(cip, coop);
      clipped.set(base, at);
    }
    return at;
  };
  /** The matrix pair of a line solved directly that this duel (`raiser`: who raised last) belongs to, or -1. */
  const lineFor = (kind: DuelKind, raiser: "ip" | "oop" | null): number => {
    if ((kind.players ?? 2) !== 2 || kind.rowSeat === undefined || kind.colSeat === undefined) return -1;
    const ipSeat = kind.rowIsIp ? kind.rowSeat : kind.colSeat;
    const oopSeat = kind.rowIsIp ? kind.colSeat : kind.rowSeat;
    const lines = params.lines ?? [];
    for (let k = 0; k < lines.length; k++) {
      const l = lines[k]!;
      if (l.ip !== ipSeat || l.oop !== oopSeat || l.raises !== kind.raises || l.aggressor !== raiser)
        continue;
      if (Math.abs(Math.log(kind.spr / l.spr)) <= LINE_SPR_REACH) return lineBase[k]!;
    }
    return -1;
  };
  const indexForKind = (kind: DuelKind): number => {
    if (kind.allIn) return 0;
    const ipRaised = kind.initiative === (kind.rowIsIp ? "row" : "col");
    const oopRaised = kind.initiative === (kind.rowIsIp ? "col" : "row");
    const line = lineFor(kind, ipRaised ? "ip" : oopRaised ? "oop" : null);
    if (line >= 0) return kind.rowIsIp ? line : line + 1;
    const init = ipRaised ? 0 : oopRaised ? 1 : kind.raises === 0 ? 2 : 3;
    const level = kind.raises >= 2 ? 1 : 0;
    let base = 1 + 2 * ((nearest(kind.spr) * INITIATIVES.length + init) * RAISE_LEVELS.length + level);
    if ((kind.players ?? 2) >= 3) base = clippedPair(base);
    return kind.rowIsIp ? base : base + 1;
  };
  return {
    matrices,
    indexFor(isAllIn, spr, rowIsIp) {
      return indexForKind({ allIn: isAllIn, spr, rowIsIp, initiative: "none", raises: 1 });
    },
    indexForKind,
  };
}
