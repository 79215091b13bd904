/**
 * Random hands for the property tests (not a test file: vitest only runs `*.test.ts`).
 *
 * A small table simulator written here, independent of the parser: it deals, posts, plays legal no-limit
 * betting rounds with random choices, runs the board out (sometimes twice), splits the pots among random
 * eligible winners, and builds the complete `Hand` the parser should read back, derived fields included
 * (positions, what each player put in and won, the pots). Amounts are whole cents (cash) or chips inside.
 */

import type {
  Action,
  Collection,
  Currency,
  Game,
  Hand,
  Player,
  Position,
  Post,
  Pot,
  Show,
  Street,
  Tournament,
} from "../src/index.js";

/** Deterministic PRNG (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The expected positions, first to act preflop first (the specification of `Position`). */
export const EXPECTED_POSITIONS: Record<number, Position[]> = {
  2: ["SB", "BB"],
  3: ["BTN", "SB", "BB"],
  4: ["CO", "BTN", "SB", "BB"],
  5: ["HJ", "CO", "BTN", "SB", "BB"],
  6: ["UTG", "HJ", "CO", "BTN", "SB", "BB"],
  7: ["UTG", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
  8: ["UTG", "UTG1", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
  9: ["UTG", "UTG1", "UTG2", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
  10: ["UTG", "UTG1", "UTG2", "UTG3", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
};

const NAMES = [
  "Hero",
  "kj_dealer",
  "Banjo Bill",
  "Jörg.99",
  "O'Neil",
  "黄继光在此",
  "zz-top",
  "Bob (UK)",
  "[bracket]",
  "Mr Smith Jr.",
  "a1b2c3d4",
  "x",
  "ends with space?",
  "UPPER_lower",
];
const TABLES = ["Hercules IV", "Rush 'n' Cash 7", "Skat III 100-250 bb, Ante", "Aase"];
const DESCRIPTIONS = [null, "a pair of Aces", "two pair, Kings and Fours", "HI: a straight, Nine to King"];
const ZONES: (string | null)[] = ["ET", "CET", "UTC", "CEST", null];
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const CASH_BLINDS = [
  [1, 2],
  [2, 5],
  [5, 10],
  [10, 25],
  [25, 50],
  [50, 100],
  [100, 200],
  [500, 1000],
];
const TOURNAMENT_BLINDS = [
  [10, 20],
  [25, 50],
  [100, 200],
  [250, 500],
  [1000, 2000],
];

interface Seat {
  player: Player;
  /** Chips behind, in units. */
  behind: number;
  street: number;
  total: number;
  folded: boolean;
  allIn: boolean;
  won: number;
  cards: string[];
}

export interface GeneratedHand {
  hand: Hand;
  seed: number;
}

export function generateHand(seed: number): Hand {
  const rnd = random(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  const chance = (p: number): boolean => rnd() < p;

  const tournamentFormat = chance(0.35);
  const cashCurrency: Currency | null = tournamentFormat
    ? null
    : pick(["USD", "EUR", "GBP", "USD", null] as const);
  const unit = tournamentFormat || cashCurrency === null ? 1 : 100;
  const money = (units: number): number => Math.round((units / unit) * 1e6) / 1e6;

  const gameKind = pick(["nlhe", "nlhe", "nlhe", "plo", "plo8", "plo5", "flhe"] as const);
  const game: Game = {
    variant: gameKind.endsWith("he") ? "holdem" : "omaha",
    holeCards: gameKind === "plo5" ? 5 : gameKind.startsWith("plo") ? 4 : 2,
    hiLo: gameKind === "plo8",
    limit: gameKind === "nlhe" ? "nl" : gameKind === "flhe" ? "fl" : "pl",
    format: tournamentFormat ? "tournament" : "cash",
    label: {
      nlhe: "Hold'em No Limit",
      plo: "Omaha Pot Limit",
      plo8: "Omaha Hi/Lo Pot Limit",
      plo5: "5 Card Omaha Pot Limit",
      flhe: "Hold'em Limit",
    }[gameKind],
  };

  const [sb, bb] = pick(tournamentFormat ? TOURNAMENT_BLINDS : CASH_BLINDS) as [number, number];
  const ante = tournamentFormat && chance(0.6) ? Math.max(1, Math.floor(bb / pick([8, 10]))) : 0;

  // Seats, players, the deck.
  const maxSeats = pick([2, 6, 6, 8, 9, 10]);
  // Room in the deck for everybody's cards and two full boards.
  const seatCount = int(2, Math.min(maxSeats, Math.floor(42 / game.holeCards)));
  const seatNumbers = Array.from({ length: maxSeats }, (_, i) => i + 1)
    .sort(() => rnd() - 0.5)
    .slice(0, seatCount)
    .sort((a, b) => a - b);
  const names = [...NAMES].sort(() => rnd() - 0.5);
  const deck: string[] = [];
  for (const r of RANKS) for (const s of SUITS) deck.push(r + s);
  deck.sort(() => rnd() - 0.5);
  const deal = (): string => deck.pop()!;

  const minStack = ante + 2 * bb + 1;
  const seats: Seat[] = seatNumbers.map((seat, i) => {
    const stack = chance(0.25) ? int(minStack, 20 * bb) : int(minStack, 150 * bb);
    return {
      player: {
        seat,
        name: names[i]!,
        stack: money(stack),
        dealtIn: true,
        position: null,
        bounty: tournamentFormat && chance(0.3) ? pick([5, 10, 12.5, 25]) : null,
        cards: null,
        invested: 0,
        won: 0,
        net: 0,
        allIn: false,
      },
      behind: stack,
      street: 0,
      total: 0,
      folded: false,
      allIn: false,
      won: 0,
      cards: [],
    };
  });
  if (seats.length >= 3 && chance(0.2)) pick(seats).player.dealtIn = false;
  const dealt = seats.filter((s) => s.player.dealtIn);
  const n = dealt.length;
  const buttonIndex = int(0, n - 1);
  const buttonSeat = dealt[buttonIndex]!.player.seat;
  // Clockwise from the seat after the button.
  const order = [...dealt.slice(buttonIndex + 1), ...dealt.slice(0, buttonIndex + 1)];
  const labels = EXPECTED_POSITIONS[n]!;
  if (n === 2) {
    order[1]!.player.position = "SB";
    order[0]!.player.position = "BB";
  } else {
    for (let i = 0; i < n; i++) order[(i + 2) % n]!.player.position = labels[i]!;
  }
  for (const s of dealt) s.cards = Array.from({ length: game.holeCards }, deal);

  // Posts.
  const posts: Post[] = [];
  const post = (s: Seat, type: Post["type"], amount: number, live: boolean): void => {
    const paid = Math.min(amount, s.behind);
    s.behind -= paid;
    s.total += paid;
    if (live) s.street += paid;
    if (s.behind === 0) s.allIn = s.player.allIn = true;
    posts.push({ player: s.player.name, type, amount: money(paid), allIn: s.behind === 0 });
  };
  const sbSeat = n === 2 ? order[1]! : order[0]!;
  const bbSeat = n === 2 ? order[0]! : order[1]!;
  post(sbSeat, "sb", sb, true);
  post(bbSeat, "bb", bb, true);
  let currentBet = bb;
  let firstToAct = n === 2 ? 1 : 2;
  if (n >= 4 && !tournamentFormat && chance(0.25) && order[2]!.behind > 2 * bb) {
    post(order[2]!, "straddle", 2 * bb, true);
    currentBet = 2 * bb;
    firstToAct = 3;
  }
  if (ante > 0) for (const s of dealt) post(s, "ante", ante, false);

  // Betting.
  const actions: Record<Street, Action[]> = { preflop: [], flop: [], turn: [], river: [] };
  const streets: Street[] = ["preflop", "flop", "turn", "river"];
  const board: string[] = [];
  const live = (): Seat[] => dealt.filter((s) => !s.folded);
  const canAct = (): Seat[] => live().filter((s) => !s.allIn);
  let ended = false;
  for (let st = 0; st < 4 && !ended; st++) {
    if (st > 0) {
      // Nobody left to bet against: the rest of the board is dealt below (once or twice).
      if (canAct().length <= 1) break;
      board.push(...Array.from({ length: st === 1 ? 3 : 1 }, deal));
      for (const s of dealt) s.street = 0;
      currentBet = 0;
    }
    const start = st === 0 ? firstToAct % n : 0;
    let queue = [...order.slice(start), ...order.slice(0, start)].filter((s) => !s.folded && !s.allIn);
    let minRaise = bb;
    while (queue.length > 0) {
      const s = queue.shift()!;
      if (s.folded || s.allIn) continue;
      if (live().length === 1) break;
      const toCall = currentBet - s.street;
      const list = actions[streets[st]!];
      const act = (type: Action["type"], amount: number, to: number | null): void => {
        list.push({
          player: s.player.name,
          type,
          amount: money(amount),
          to: to === null ? null : money(to),
          allIn: s.allIn,
        });
      };
      const othersCanAct = canAct().filter((o) => o !== s).length > 0;
      const roll = rnd();
      if (toCall > 0 && roll < 0.3) {
        s.folded = true;
        act("fold", 0, null);
        continue;
      }
      const raiseTo = (): number | null => {
        const most = s.street + s.behind;
        const least = currentBet + minRaise;
        if (!othersCanAct || most <= currentBet) return null;
        if (most <= least) return most;
        return chance(0.25) ? most : int(least, Math.min(most, least + 4 * (currentBet + bb)));
      };
      const to = roll > 0.75 ? raiseTo() : null;
      if (to !== null) {
        const added = to - s.street;
        s.behind -= added;
        s.total += added;
        s.street = to;
        if (s.behind === 0) s.allIn = s.player.allIn = true;
        const increment = to - currentBet;
        if (increment >= minRaise) minRaise = increment;
        if (currentBet === 0) act("bet", to, null);
        else act("raise", increment, to);
        currentBet = to;
        const at = order.indexOf(s);
        queue = [...order.slice(at + 1), ...order.slice(0, at)].filter((o) => !o.folded && !o.allIn);
        continue;
      }
      if (toCall === 0) {
        act("check", 0, null);
        continue;
      }
      const paid = Math.min(toCall, s.behind);
      s.behind -= paid;
      s.total += paid;
      s.street += paid;
      if (s.behind === 0) s.allIn = s.player.allIn = true;
      act("call", paid, null);
    }
    if (live().length === 1) ended = true;
  }

  // The uncalled part of the biggest contribution goes back.
  const uncalled: Hand["uncalled"] = [];
  const byTotal = [...dealt].sort((a, b) => b.total - a.total);
  const top = byTotal[0]!;
  const second = byTotal[1]!;
  if (top.total > second.total) {
    const back = top.total - second.total;
    top.total -= back;
    top.behind += back;
    uncalled.push({ player: top.player.name, amount: money(back) });
  }

  // Board(s): the rest of the cards when players are all in; sometimes twice in cash games.
  const contenders = live();
  const boards: string[][] = [board];
  const showdown = contenders.length >= 2;
  if (showdown && board.length < 5) {
    const runs = !tournamentFormat && chance(0.35) ? 2 : 1;
    const shared = [...board];
    boards.length = 0;
    for (let r = 0; r < runs; r++) {
      const b = [...shared];
      while (b.length < 5) b.push(deal());
      boards.push(b);
    }
  }

  // Shows: at a showdown each contender shows or not; a winner without showdown may show.
  const shows: Show[] = [];
  const knownCards = new Map<Seat, string[]>();
  const hero = chance(0.8) ? pick(dealt) : null;
  if (hero) knownCards.set(hero, hero.cards);
  for (const s of showdown ? contenders : chance(0.3) ? contenders : []) {
    if (showdown && chance(0.3)) continue;
    const cards = !showdown && chance(0.3) ? s.cards.slice(0, 1) : s.cards;
    shows.push({ player: s.player.name, cards, description: pick(DESCRIPTIONS) });
    if (cards.length === s.cards.length) knownCards.set(s, s.cards);
  }

  // Pots, oracle version: one level per distinct contribution of a contender.
  const totalPot = dealt.reduce((sum, s) => sum + s.total, 0);
  const levels = [...new Set(contenders.map((s) => s.total))].sort((a, b) => a - b);
  const potUnits: { amount: number; eligible: Seat[] }[] = [];
  let below = 0;
  for (const level of levels) {
    const amount = dealt.reduce((sum, s) => sum + Math.max(0, Math.min(s.total, level) - below), 0);
    const eligible = contenders.filter((s) => s.total >= level);
    if (amount > 0) {
      const last = potUnits[potUnits.length - 1];
      if (last && last.eligible.length === eligible.length) last.amount += amount;
      else potUnits.push({ amount, eligible });
    }
    below = level;
  }

  // Rake from pots that saw a flop (cash), then the pots split among random eligible winners per run.
  const rakeUnits = !tournamentFormat && board.length >= 3 ? Math.min(Math.floor(totalPot / 20), 3 * bb) : 0;
  const fees = [{ kind: "rake", amount: money(rakeUnits) }];
  let rake = rakeUnits;
  const collected: Collection[] = [];
  const shownNames = new Set(shows.filter((s) => s.cards.length === game.holeCards).map((s) => s.player));
  const potShares = potUnits.map((p) => {
    const taken = Math.min(rake, p.amount);
    rake -= taken;
    return p.amount - taken;
  });
  for (let r = 0; r < boards.length; r++) {
    potUnits.forEach((p, i) => {
      const share = Math.floor(potShares[i]! / boards.length) + (r < potShares[i]! % boards.length ? 1 : 0);
      const showers = p.eligible.filter((s) => shownNames.has(s.player.name));
      const pool = showers.length > 0 ? showers : p.eligible;
      const winners = pool.length >= 2 && chance(0.2) ? pool.slice(0, 2) : [pick(pool)];
      const each = Math.floor(share / winners.length);
      winners.forEach((w, k) => {
        const amount = k === 0 ? share - each * (winners.length - 1) : each;
        if (amount <= 0) return;
        w.won += amount;
        collected.push({
          player: w.player.name,
          amount: money(amount),
          pot: potUnits.length > 1 ? i : 0,
          board: r,
        });
      });
    });
  }

  // Losers who did not show sometimes have their cards written face up in the summary ("mucked [..]").
  if (showdown)
    for (const s of contenders)
      if (s.won === 0 && !knownCards.has(s) && chance(0.5)) knownCards.set(s, s.cards);

  const players: Player[] = seats.map((s) => ({
    ...s.player,
    cards: knownCards.get(s) ?? null,
    invested: money(s.total),
    won: money(s.won),
    net: Math.round((money(s.won) - money(s.total)) * 1e6) / 1e6,
  }));
  const pots: Pot[] = potUnits.map((p) => ({
    amount: money(p.amount),
    players: p.eligible.map((s) => s.player.name),
  }));

  // Tournament details, busted players included.
  let tournament: Tournament | null = null;
  if (tournamentFormat) {
    const freeroll = chance(0.2);
    const currency = freeroll ? null : pick(["USD", "EUR", "GBP"] as const);
    const busted = dealt.filter((s) => s.behind + s.won === 0);
    let place = int(2, 500);
    tournament = {
      id: String(int(1e8, 4e9)),
      name: !freeroll && chance(0.2) ? "Sunday Special" : null,
      buyIn: freeroll
        ? null
        : pick([
            [10, 1],
            [4.4, 4.5, 1.1],
            [100, 9],
            [0.98, 0.12],
          ]),
      currency,
      freeroll,
      level: pick(["I", "IV", "XII", "XXX", "7"]),
      knockout: false,
      finishes: busted.map((s) => ({
        player: s.player.name,
        place: place++,
        prize: chance(0.5) || currency === null ? null : pick([1.5, 20, 135.25]),
      })),
    };
  }

  // A bounty tournament: bounties on the players, or a bounty part in the buy-in.
  if (tournament) {
    tournament.knockout = tournament.buyIn?.length === 3 || players.some((p) => p.bounty !== null);
  }

  // A time in 2008..2030, on whole seconds; US zones keep clear of the repeated hour in November.
  const zone = pick(ZONES);
  let instant = Date.UTC(2008, 0, 1) + int(0, 23 * 365) * 86_400_000 + int(0, 86_399) * 1000;
  if (zone === "ET" && new Date(instant).getUTCMonth() === 10 && new Date(instant).getUTCDate() <= 9) {
    instant += 10 * 86_400_000;
  }
  // CET keeps clear of the hour repeated at the end of EU summer time (last Sunday of October).
  if (zone === "CET" && new Date(instant).getUTCMonth() === 9 && new Date(instant).getUTCDate() >= 25) {
    instant -= 10 * 86_400_000;
  }
  const iso = new Date(instant).toISOString();

  return {
    site: "pokerstars",
    id: chance(0.8) ? String(int(1e10, 9e11)) : `RC${int(1e6, 9e9)}`,
    line: 1,
    game,
    stakes: { sb: money(sb), bb: money(bb), ante: money(ante), currency: cashCurrency },
    date: zone === null ? iso.slice(0, 19) : iso,
    timeZone: zone,
    table: tournament ? `${tournament.id} ${int(1, 40)}` : pick(TABLES),
    maxSeats,
    buttonSeat,
    players,
    hero: hero ? hero.player.name : null,
    heroCards: hero ? hero.cards : null,
    posts,
    actions,
    boards,
    shows,
    wentToShowdown: showdown,
    uncalled,
    pots,
    totalPot: money(totalPot),
    collected,
    rake: money(rakeUnits),
    fees,
    cashouts: [],
    tournament,
    notes: [],
  };
}
