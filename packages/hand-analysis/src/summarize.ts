/**
 * A parsed hand to its summary (see `types.ts`) and to the row the hand store keeps. Pure: the all-in
 * adjustment is computed by `equity.ts` and passed in (it needs the solver's evaluator, loaded only in the
 * parse thread).
 */

import type { HandRow } from "@ranges/access";
import { formatAmount, type Game, type Hand } from "@ranges/hand-history";
import { canonicalCards, classOfCards } from "./cards.js";
import type {
  AllInAdjustment,
  GameKey,
  HandSummary,
  PlayerPreflop,
  PlayerSummary,
  PreflopLine,
  PreflopStep,
} from "./types.js";

const round = (x: number, digits = 4): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** `nlhe`, `plo`, `plo5`, `plo-hilo` ... (see `GameKey`). */
export function gameKeyOf(game: Game): GameKey {
  const base =
    game.variant === "holdem"
      ? `${game.limit}he`
      : `${game.limit}o${game.holeCards === 4 ? "" : game.holeCards}`;
  return game.hiLo ? `${base}-hilo` : base;
}

/** Cash: the blinds (`$0.05/$0.10`); tournaments: the buy-in (`$10+$1`), `freeroll` or `unknown buy-in`. */
export function stakesOf(hand: Hand): string {
  const t = hand.tournament;
  if (t) {
    if (t.freeroll) return "freeroll";
    if (!t.buyIn || t.buyIn.length === 0) return "unknown buy-in";
    const c = t.currency as Parameters<typeof formatAmount>[1];
    return t.buyIn.map((part) => formatAmount(part, c)).join("+");
  }
  const c = hand.stakes.currency;
  return `${formatAmount(hand.stakes.sb, c)}/${formatAmount(hand.stakes.bb, c)}`;
}

/** The preflop line by the raises made before the flop (see `PreflopLine`). */
export function preflopLine(hand: Hand): PreflopLine {
  let raises = 0;
  let calls = 0;
  for (const a of hand.actions.preflop) {
    if (a.type === "raise" || a.type === "bet") raises++;
    else if (a.type === "call") calls++;
  }
  if (raises === 0) return calls > 0 ? "limped" : "walk";
  if (raises === 1) return "single_raised";
  if (raises === 2) return "three_bet";
  return "four_bet_plus";
}

const noPreflop = (): PlayerPreflop => ({
  vpip: false,
  pfr: false,
  rfiChance: false,
  rfi: false,
  limpChance: false,
  limp: false,
  threeBetChance: false,
  threeBet: false,
  foldToThreeBetChance: false,
  foldToThreeBet: false,
});

/** Each player's preflop flags (see `PlayerPreflop`), by name. */
function preflopFlags(hand: Hand): Map<string, PlayerPreflop> {
  const flags = new Map<string, PlayerPreflop>();
  const bb = new Set(hand.players.filter((p) => p.position === "BB").map((p) => p.name));
  for (const p of hand.players) if (p.dealtIn) flags.set(p.name, noPreflop());
  let raises = 0;
  let calls = 0;
  let opener: string | null = null;
  const acted = new Set<string>();
  const facedThreeBet = new Set<string>();
  for (const a of hand.actions.preflop) {
    const f = flags.get(a.player);
    if (!f) continue;
    const first = !acted.has(a.player);
    acted.add(a.player);
    const raise = a.type === "raise" || a.type === "bet";
    if (a.type === "call" || raise) f.vpip = true;
    if (raise) f.pfr = true;
    if (first && raises === 0 && calls === 0 && !bb.has(a.player)) {
      f.rfiChance = true;
      f.rfi = raise;
    }
    if (first && raises === 0 && !bb.has(a.player)) {
      f.limpChance = true;
      f.limp = a.type === "call";
    }
    if (raises === 1 && opener !== a.player && !f.threeBetChance) {
      f.threeBetChance = true;
      f.threeBet = raise;
    }
    if (raises === 2 && opener === a.player && !facedThreeBet.has(a.player)) {
      facedThreeBet.add(a.player);
      f.foldToThreeBetChance = true;
      f.foldToThreeBet = a.type === "fold";
    }
    if (raise) {
      raises++;
      if (raises === 1) opener = a.player;
    } else if (a.type === "call") {
      calls++;
    }
  }
  return flags;
}

/** Players who folded, on any street. */
function foldedPlayers(hand: Hand): Set<string> {
  const out = new Set<string>();
  for (const street of ["preflop", "flop", "turn", "river"] as const) {
    for (const a of hand.actions[street]) if (a.type === "fold") out.add(a.player);
  }
  return out;
}

/** The hero: the history's own (`Dealt to`), else the declared screen name when it is dealt in. */
export function heroOf(hand: Hand, declared: string | null): string | null {
  if (hand.hero !== null) return hand.hero;
  if (declared === null) return null;
  return hand.players.some((p) => p.name === declared && p.dealtIn) ? declared : null;
}

export interface SummarizeOptions {
  /** The uploader's screen name, for histories without a `Dealt to` line. */
  hero?: string | null;
  /** The all-in adjustment (from `allInAdjustment`), or the reason there is none. */
  allIn?: { adjustment: AllInAdjustment | null; note: string | null };
}

/** The summary of one parsed hand. */
export function summarizeHand(hand: Hand, o: SummarizeOptions = {}): HandSummary {
  const bb = hand.stakes.bb;
  const hero = heroOf(hand, o.hero ?? null);
  const flags = preflopFlags(hand);
  const folded = foldedPlayers(hand);
  const shown = new Set(hand.shows.map((s) => s.player));
  const dealt = hand.players.filter((p) => p.dealtIn);
  const players: PlayerSummary[] = dealt.map((p) => ({
    name: p.name,
    position: p.position,
    seat: p.seat,
    stackBb: round(p.stack / bb, 2),
    cards: p.cards,
    handClass: classOfCards(p.cards),
    showedDown: hand.wentToShowdown && !folded.has(p.name) && (shown.has(p.name) || p.cards !== null),
    net: p.net,
    preflop: flags.get(p.name) ?? noPreflop(),
  }));
  const index = new Map(players.map((p, i) => [p.name, i]));
  const preflop: PreflopStep[] = [];
  for (const a of hand.actions.preflop) {
    const i = index.get(a.player);
    if (i === undefined) continue;
    preflop.push({
      i,
      a: a.type,
      toBb: a.type === "raise" || a.type === "bet" ? round((a.to ?? a.amount) / bb, 4) : null,
      allIn: a.allIn,
    });
  }
  const antes = hand.posts.filter((p) => p.type === "ante");
  const antesBb = round(antes.reduce((s, p) => s + p.amount, 0) / bb, 4);
  const bbName = dealt.find((p) => p.position === "BB")?.name;
  const anteBy =
    antes.length === 0
      ? "none"
      : antes.every((p) => p.player === bbName) && antes.length === 1
        ? "bb"
        : "all";
  const heroIndex = hero === null ? null : (index.get(hero) ?? null);
  const heroPlayer = heroIndex === null ? null : players[heroIndex]!;
  const net = heroPlayer?.net ?? 0;
  const t = hand.tournament;
  const heroFinish = t && hero ? (t.finishes.find((f) => f.player === hero) ?? null) : null;
  return {
    v: 1,
    site: hand.site,
    id: hand.id,
    playedAt: hand.date,
    timeZone: hand.timeZone,
    game: gameKeyOf(hand.game),
    label: hand.game.label,
    format: hand.game.format,
    stakes: stakesOf(hand),
    sb: hand.stakes.sb,
    bb,
    ante: hand.stakes.ante,
    currency: hand.stakes.currency,
    table: hand.table,
    maxSeats: hand.maxSeats,
    dealt: dealt.length,
    tournament: t
      ? {
          id: t.id,
          name: t.name,
          buyIn: t.buyIn,
          currency: t.currency,
          freeroll: t.freeroll,
          level: t.level,
          knockout: t.knockout,
          heroFinish: heroFinish ? { place: heroFinish.place, prize: heroFinish.prize } : null,
        }
      : null,
    hero: heroIndex,
    line: preflopLine(hand),
    wentToShowdown: hand.wentToShowdown,
    heroShowdown: hero !== null && hand.wentToShowdown && !folded.has(hero),
    net,
    netBb: round(net / bb, 4),
    rake: hand.rake,
    allIn: hero === null ? null : (o.allIn?.adjustment ?? null),
    allInNote: hero === null ? null : (o.allIn?.note ?? null),
    players,
    preflop,
    forced: {
      antesBb,
      anteBy,
      straddle: hand.posts.some((p) => p.type === "straddle"),
      deadBlind: hand.posts.some((p) => p.type === "sb+bb" || p.type === "dead"),
      sbPosted: hand.posts.some((p) => p.type === "sb"),
    },
  };
}

/** The row the hand store keeps for a summary (and its parsed hand). */
export function rowOf(summary: HandSummary, hand: Hand): HandRow {
  const hero = summary.hero === null ? null : summary.players[summary.hero]!;
  return {
    site: summary.site,
    handId: summary.id,
    playedAt: summary.playedAt,
    game: summary.game,
    format: summary.format,
    stakes: summary.stakes,
    bb: summary.bb,
    currency: summary.currency,
    tableName: summary.table,
    tournamentId: summary.tournament?.id ?? null,
    hero: hero?.name ?? null,
    position: hero?.position ?? null,
    holeCards: hero?.cards ? canonicalCards(hero.cards) : null,
    handClass: hero?.handClass ?? null,
    line: summary.line,
    showdown: summary.heroShowdown,
    net: summary.net,
    netBb: summary.netBb,
    adjustedBb: summary.allIn?.adjustedBb ?? null,
    summary: JSON.stringify(summary),
    hand: JSON.stringify(hand),
  };
}
