/**
 * Opponents: everyone but the hero in the uploaded hands (in hands without a hero, everyone), by site and
 * screen name. Preflop statistics by the definitions of `PlayerPreflop` (each a count of chances and of
 * times taken), showdowns, limps by position with the classes shown after limping, and how their preflop
 * play differs from the published equilibrium: for each situation (unopened pot, facing a raise, a 3-bet,
 * a 4-bet or more) the share of folds, calls and raises they chose, beside the share the equilibrium's
 * range reaching the same nodes would choose (`equilibrium.ts`), over the hands that map onto a pack.
 */

import type { StoredHand } from "@ranges/access";
import {
  type ActionKind,
  type Comparison,
  compareHand,
  type NodeCache,
  SITUATIONS,
  type Situation,
} from "./equilibrium.js";
import { timeOf } from "./sessions.js";
import type { HandSummary, PlayerPreflop } from "./types.js";

export type Loaded = StoredHand & { s: HandSummary };

export interface Rate {
  /** Chances. */
  n: number;
  /** Times taken. */
  k: number;
  /** k / n, or null without chances. */
  freq: number | null;
}

export interface OpponentStats {
  site: string;
  player: string;
  /** Hands they were dealt in; with the hero among them. */
  hands: number;
  handsWithHero: number;
  vpip: Rate;
  pfr: Rate;
  rfi: Rate;
  limp: Rate;
  threeBet: Rate;
  foldToThreeBet: Rate;
  showdowns: number;
  /** Their own net over these hands, in bb. */
  netBb: number;
  lastSeen: string;
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const r2 = (x: number): number => Math.round(x * 100) / 100;
const rate = (n: number, k: number): Rate => ({ n, k, freq: n > 0 ? r4(k / n) : null });

class Counter {
  hands = 0;
  withHero = 0;
  acted = 0;
  vpip = 0;
  pfr = 0;
  rfiN = 0;
  rfi = 0;
  limpN = 0;
  limp = 0;
  tbN = 0;
  tb = 0;
  f3N = 0;
  f3 = 0;
  showdowns = 0;
  netBb = 0;
  last = "";
  lastT = Number.NEGATIVE_INFINITY;

  add(f: PlayerPreflop, acted: boolean, withHero: boolean, showed: boolean, netBb: number, at: string) {
    this.hands++;
    if (withHero) this.withHero++;
    if (acted) {
      this.acted++;
      if (f.vpip) this.vpip++;
      if (f.pfr) this.pfr++;
    }
    if (f.rfiChance) {
      this.rfiN++;
      if (f.rfi) this.rfi++;
    }
    if (f.limpChance) {
      this.limpN++;
      if (f.limp) this.limp++;
    }
    if (f.threeBetChance) {
      this.tbN++;
      if (f.threeBet) this.tb++;
    }
    if (f.foldToThreeBetChance) {
      this.f3N++;
      if (f.foldToThreeBet) this.f3++;
    }
    if (showed) this.showdowns++;
    this.netBb += netBb;
    const t = timeOf(at);
    if (t >= this.lastT) {
      this.lastT = t;
      this.last = at;
    }
  }
}

function statsOf(site: string, player: string, c: Counter): OpponentStats {
  return {
    site,
    player,
    hands: c.hands,
    handsWithHero: c.withHero,
    vpip: rate(c.acted, c.vpip),
    pfr: rate(c.acted, c.pfr),
    rfi: rate(c.rfiN, c.rfi),
    limp: rate(c.limpN, c.limp),
    threeBet: rate(c.tbN, c.tb),
    foldToThreeBet: rate(c.f3N, c.f3),
    showdowns: c.showdowns,
    netBb: r2(c.netBb),
    lastSeen: c.last,
  };
}

/** Each opponent player index of a hand: everyone but its hero. */
function opponentsIn(s: HandSummary): number[] {
  return s.players.map((_, i) => i).filter((i) => i !== s.hero);
}

/** Statistics of every opponent, most hands first (ties: name). */
export function opponentStats(rows: readonly Loaded[]): OpponentStats[] {
  const counters = new Map<string, { site: string; player: string; c: Counter }>();
  for (const r of rows) {
    const s = r.s;
    const actedSet = new Set(s.preflop.map((p) => p.i));
    for (const i of opponentsIn(s)) {
      const p = s.players[i]!;
      const key = `${s.site}|${p.name}`;
      let entry = counters.get(key);
      if (!entry) counters.set(key, (entry = { site: s.site, player: p.name, c: new Counter() }));
      entry.c.add(p.preflop, actedSet.has(i), s.hero !== null, p.showedDown, p.net / s.bb, s.playedAt);
    }
  }
  return [...counters.values()]
    .map((e) => statsOf(e.site, e.player, e.c))
    .sort((a, b) => b.hands - a.hands || a.player.localeCompare(b.player));
}

/** The rows a player was dealt in, with their index in each. */
export function handsOf(
  rows: readonly Loaded[],
  site: string | null,
  player: string,
): { r: Loaded; i: number }[] {
  const out: { r: Loaded; i: number }[] = [];
  for (const r of rows) {
    if (site !== null && r.site !== site) continue;
    const i = r.s.players.findIndex((p) => p.name === player);
    if (i >= 0 && i !== r.s.hero) out.push({ r, i });
  }
  return out;
}

export interface SituationGap {
  situation: Situation;
  /** Only for the unopened pot, which is looked at per position: the position; else null. */
  position: string | null;
  decisions: number;
  observed: Record<ActionKind, number>;
  equilibrium: Record<ActionKind, number>;
}

export interface EquilibriumProfile {
  /** Hands that map onto a pack, and hands that do not. */
  comparableHands: number;
  notComparableHands: number;
  decisions: number;
  situations: SituationGap[];
  /** The largest difference (fold, call or raise share) in a situation with at least 5 decisions. */
  largestGap: {
    situation: Situation;
    position: string | null;
    action: ActionKind;
    observed: number;
    equilibrium: number;
    decisions: number;
  } | null;
}

/** How a player's preflop decisions compare with the equilibrium (see the module comment). */
export function equilibriumProfile(
  hands: readonly { r: Loaded; i: number }[],
  cache: NodeCache,
): EquilibriumProfile {
  const groups = new Map<
    string,
    { situation: Situation; position: string | null; obs: number[]; eq: number[]; n: number }
  >();
  let comparable = 0;
  let not = 0;
  let decisions = 0;
  for (const { r, i } of hands) {
    const c: Comparison = compareHand(r.s, cache, i);
    if (c.status !== "compared") {
      not++;
      continue;
    }
    comparable++;
    for (const d of c.decisions) {
      if (d.player !== i) continue;
      decisions++;
      const position = d.situation === "unopened" ? d.position : null;
      const key = `${d.situation}|${position ?? ""}`;
      let g = groups.get(key);
      if (!g)
        groups.set(key, (g = { situation: d.situation, position, obs: [0, 0, 0], eq: [0, 0, 0], n: 0 }));
      g.n++;
      g.obs[KINDS.indexOf(d.kind)]!++;
      KINDS.forEach((k, j) => {
        g!.eq[j]! += d.rangeShare[k];
      });
    }
  }
  const situations: SituationGap[] = [...groups.values()]
    .sort(
      (a, b) =>
        SITUATIONS.indexOf(a.situation) - SITUATIONS.indexOf(b.situation) ||
        (a.position ?? "").localeCompare(b.position ?? ""),
    )
    .map((g) => ({
      situation: g.situation,
      position: g.position,
      decisions: g.n,
      observed: { fold: r4(g.obs[0]! / g.n), call: r4(g.obs[1]! / g.n), raise: r4(g.obs[2]! / g.n) },
      equilibrium: { fold: r4(g.eq[0]! / g.n), call: r4(g.eq[1]! / g.n), raise: r4(g.eq[2]! / g.n) },
    }));
  let largestGap: EquilibriumProfile["largestGap"] = null;
  for (const g of situations) {
    if (g.decisions < 5) continue;
    for (const k of KINDS) {
      const gap = Math.abs(g.observed[k] - g.equilibrium[k]);
      if (!largestGap || gap > Math.abs(largestGap.observed - largestGap.equilibrium)) {
        largestGap = {
          situation: g.situation,
          position: g.position,
          action: k,
          observed: g.observed[k],
          equilibrium: g.equilibrium[k],
          decisions: g.decisions,
        };
      }
    }
  }
  return { comparableHands: comparable, notComparableHands: not, decisions, situations, largestGap };
}

const KINDS: readonly ActionKind[] = ["fold", "call", "raise"];

export interface PositionLine {
  position: string;
  hands: number;
  vpip: Rate;
  pfr: Rate;
  rfi: Rate;
}

/** VPIP, PFR and raise-first-in per position. */
export function byPosition(hands: readonly { r: Loaded; i: number }[]): PositionLine[] {
  const m = new Map<string, Counter>();
  for (const { r, i } of hands) {
    const p = r.s.players[i]!;
    const pos = p.position ?? "unknown";
    let c = m.get(pos);
    if (!c) m.set(pos, (c = new Counter()));
    c.add(
      p.preflop,
      r.s.preflop.some((x) => x.i === i),
      r.s.hero !== null,
      p.showedDown,
      p.net / r.s.bb,
      r.s.playedAt,
    );
  }
  return [...m].map(([position, c]) => ({
    position,
    hands: c.hands,
    vpip: rate(c.acted, c.vpip),
    pfr: rate(c.acted, c.pfr),
    rfi: rate(c.rfiN, c.rfi),
  }));
}

export interface ShownHand {
  site: string;
  handId: string;
  playedAt: string;
  position: string | null;
  cards: string[];
  handClass: string | null;
  line: string;
  /** Their preflop actions, e.g. `call`, `raise 3bb`. */
  preflop: string[];
  netBb: number;
}

function describe(s: HandSummary, i: number): string[] {
  return s.preflop
    .filter((p) => p.i === i)
    .map((p) =>
      p.toBb !== null
        ? `${p.a} ${r2(p.toBb)}bb${p.allIn ? " all-in" : ""}`
        : `${p.a}${p.allIn ? " all-in" : ""}`,
    );
}

/** Hands where a player's cards became known, newest first. */
export function shownHands(hands: readonly { r: Loaded; i: number }[], limit: number): ShownHand[] {
  return hands
    .filter(({ r, i }) => r.s.players[i]!.cards !== null)
    .sort((a, b) => timeOf(b.r.playedAt) - timeOf(a.r.playedAt))
    .slice(0, limit)
    .map(({ r, i }) => {
      const p = r.s.players[i]!;
      return {
        site: r.site,
        handId: r.handId,
        playedAt: r.playedAt,
        position: p.position,
        cards: p.cards!,
        handClass: p.handClass,
        line: r.s.line,
        preflop: describe(r.s, i),
        netBb: r2(p.net / r.s.bb),
      };
    });
}

export interface LimpRange {
  byPosition: {
    position: string;
    chances: number;
    limps: number;
    freq: number | null;
    equilibrium: number | null;
    comparedChances: number;
  }[];
  /** Classes they showed after limping, most often first. */
  shownClasses: { handClass: string; times: number; positions: string[] }[];
  shown: ShownHand[];
}

/**
 * Limps by position (chances: first to act in a pot nobody had raised, not the big blind) and the classes
 * shown after a limp; `equilibrium` is the call share of the range at the same nodes, over the chances that
 * map onto a pack (`comparedChances`).
 */
export function limpRange(
  hands: readonly { r: Loaded; i: number }[],
  cache: NodeCache,
  shownLimit: number,
): LimpRange {
  const pos = new Map<string, { chances: number; limps: number; eq: number; compared: number }>();
  const limped: { r: Loaded; i: number }[] = [];
  for (const h of hands) {
    const p = h.r.s.players[h.i]!;
    if (!p.preflop.limpChance) continue;
    const key = p.position ?? "unknown";
    const e = pos.get(key) ?? { chances: 0, limps: 0, eq: 0, compared: 0 };
    e.chances++;
    if (p.preflop.limp) {
      e.limps++;
      limped.push(h);
    }
    const c = compareHand(h.r.s, cache, h.i);
    if (c.status === "compared") {
      const d = c.decisions.find((x) => x.player === h.i && x.situation === "unopened");
      if (d) {
        e.eq += d.rangeShare.call;
        e.compared++;
      }
    }
    pos.set(key, e);
  }
  const classes = new Map<string, { times: number; positions: Set<string> }>();
  for (const { r, i } of limped) {
    const p = r.s.players[i]!;
    if (p.handClass === null) continue;
    const e = classes.get(p.handClass) ?? { times: 0, positions: new Set<string>() };
    e.times++;
    e.positions.add(p.position ?? "unknown");
    classes.set(p.handClass, e);
  }
  return {
    byPosition: [...pos].map(([position, e]) => ({
      position,
      chances: e.chances,
      limps: e.limps,
      freq: e.chances > 0 ? r4(e.limps / e.chances) : null,
      equilibrium: e.compared > 0 ? r4(e.eq / e.compared) : null,
      comparedChances: e.compared,
    })),
    shownClasses: [...classes]
      .sort((a, b) => b[1].times - a[1].times || a[0].localeCompare(b[0]))
      .map(([handClass, e]) => ({ handClass, times: e.times, positions: [...e.positions] })),
    shown: shownHands(limped, shownLimit),
  };
}
