/**
 * Hold'em hand evaluator for 5, 6 or 7 cards (card = rank * 4 + suit, rank 0 = deuce .. 12 = ace).
 *
 * A hand value is a small integer, higher is better, `category << 12 | order`: the category (0 high card ..
 * 8 straight flush) sits in the high bits and `order` ranks the hand inside its category. Two hands tie exactly
 * when their values are equal; the 2,598,960 five-card hands take 7,462 distinct values.
 *
 * How it is fast: every card adds a rank key and a suit nibble. The suit nibbles (one 4-bit counter per suit)
 * tell whether five cards share a suit; when none do, the sum of rank keys indexes a table built for every rank
 * multiset of that many cards. The rank keys are the smallest increasing integers whose sums never collide
 * among multisets of exactly 7 (or exactly 5) ranks with at most four of each, the constants SKPokerEval also
 * uses; a test checks there is no collision. Flushes are looked up by the 13-bit rank mask of the flush suit.
 * The tables (15.6 MB for seven cards, 0.7 MB for five, 16 KB for flushes) are allocated at load and filled by
 * `fillTables` (about 0.1 s): src/eval/evaluator.ts, which the package's code imports, fills them when it
 * loads; `@ranges/solver/hands` (src/hands.ts) fills them before its first evaluation, so a thread that
 * imports only that entry and never evaluates (a postflop solver's worker thread, which receives its
 * showdown orders) does not pay their memory.
 */

export const HAND_CATEGORY_NAMES = [
  "high card",
  "pair",
  "two pair",
  "three of a kind",
  "straight",
  "flush",
  "full house",
  "four of a kind",
  "straight flush",
] as const;

export type HandCategoryName = (typeof HAND_CATEGORY_NAMES)[number];

/** Category numbers, as `handCategory` returns them. */
export const HAND_CATEGORY = {
  highCard: 0,
  pair: 1,
  twoPair: 2,
  threeOfAKind: 3,
  straight: 4,
  flush: 5,
  fullHouse: 6,
  fourOfAKind: 7,
  straightFlush: 8,
} as const;

const { highCard, pair, twoPair, threeOfAKind, straight, flush, fullHouse, fourOfAKind, straightFlush } =
  HAND_CATEGORY;

/** Bits below the category in a hand value. */
export const CATEGORY_SHIFT = 12;

/** The category (0 high card .. 8 straight flush) of a hand value. */
export const handCategory = (value: number): number => value >> CATEGORY_SHIFT;

export const handCategoryName = (value: number): HandCategoryName =>
  HAND_CATEGORY_NAMES[handCategory(value)]!;

/** Per-rank keys whose sums are distinct over all multisets of exactly 7 ranks with at most 4 of each. */
const RANK_KEYS_7 = [0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181] as const;
/** The same for exactly 5 ranks (smaller, so the five-card table is small). */
const RANK_KEYS_5 = [0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415] as const;

/** Largest key sums: four aces and three (or one) kings. */
const MAX_RANK_KEY_7 = 4 * RANK_KEYS_7[12] + 3 * RANK_KEYS_7[11];
const MAX_RANK_KEY_5 = 4 * RANK_KEYS_5[12] + RANK_KEYS_5[11];

/** Adds 3 to every suit counter: a counter of 5 or more then has its top bit (0x8 of the nibble) set. */
const FLUSH_PROBE = 0x3333;
const FLUSH_BITS = 0x8888;

const CARD_RANK_KEY = new Int32Array(52);
const CARD_RANK_KEY_5 = new Int32Array(52);
const CARD_SUIT_BIT = new Int32Array(52);
for (let card = 0; card < 52; card++) {
  CARD_RANK_KEY[card] = RANK_KEYS_7[card >> 2]!;
  CARD_RANK_KEY_5[card] = RANK_KEYS_5[card >> 2]!;
  CARD_SUIT_BIT[card] = 1 << (4 * (card & 3));
}

// ---- Table construction (once, at module load) ----

/** Ranks (high first) packed into nibbles under the category, so plain comparison orders hands. */
function packStrength(category: number, ranks: readonly number[]): number {
  let payload = 0;
  for (let i = 0; i < 5; i++) payload = (payload << 4) | ((ranks[i] ?? -1) + 1);
  return category * 0x100000 + payload;
}

/** The top rank of the best straight in a 13-bit rank mask (3 for the A-5 wheel), or -1. */
function topStraightRank(mask: number): number {
  for (let top = 12; top >= 4; top--) {
    const window = 0x1f << (top - 4);
    if ((mask & window) === window) return top;
  }
  const wheel = (1 << 12) | 0xf;
  return (mask & wheel) === wheel ? 3 : -1;
}

function ranksOfMask(mask: number): number[] {
  const ranks: number[] = [];
  for (let rank = 12; rank >= 0; rank--) if (mask & (1 << rank)) ranks.push(rank);
  return ranks;
}

/** Best five-card strength of a flush suit's rank mask (five or more ranks). */
function flushStrength(mask: number): number {
  const top = topStraightRank(mask);
  return top >= 0 ? packStrength(straightFlush, [top]) : packStrength(flush, ranksOfMask(mask).slice(0, 5));
}

/** Best five-card strength of 5 to 7 cards without a flush, given how many cards of each rank there are. */
function rankCountStrength(counts: readonly number[]): number {
  const byCount: number[][] = [[], [], [], [], []];
  let mask = 0;
  for (let rank = 12; rank >= 0; rank--) {
    const count = counts[rank]!;
    if (count > 0) {
      byCount[count]!.push(rank);
      mask |= 1 << rank;
    }
  }
  const [, singles, pairs, trips, quads] = byCount as [number[], number[], number[], number[], number[]];
  if (quads.length > 0) {
    const quad = quads[0]!;
    const kicker = ranksOfMask(mask).find((rank) => rank !== quad)!;
    return packStrength(fourOfAKind, [quad, kicker]);
  }
  if (trips.length > 0 && trips.length + pairs.length >= 2) {
    return packStrength(fullHouse, [trips[0]!, Math.max(trips[1] ?? -1, pairs[0] ?? -1)]);
  }
  const top = topStraightRank(mask);
  if (top >= 0) return packStrength(straight, [top]);
  if (trips.length > 0) return packStrength(threeOfAKind, [trips[0]!, ...singles.slice(0, 2)]);
  if (pairs.length >= 2) {
    // With three pairs the third pair's rank competes with the singles for the kicker.
    return packStrength(twoPair, [pairs[0]!, pairs[1]!, Math.max(pairs[2] ?? -1, singles[0] ?? -1)]);
  }
  if (pairs.length === 1) return packStrength(pair, [pairs[0]!, ...singles.slice(0, 3)]);
  return packStrength(highCard, singles.slice(0, 5));
}

/** Calls `visit` with every rank-count vector of `total` cards, at most 4 of a rank. */
function forEachRankCounts(total: number, visit: (counts: readonly number[]) => void): void {
  const counts = new Array<number>(13).fill(0);
  const place = (rank: number, left: number): void => {
    if (rank === 13) {
      if (left === 0) visit(counts);
      return;
    }
    for (let count = 0; count <= Math.min(4, left); count++) {
      counts[rank] = count;
      place(rank + 1, left - count);
    }
    counts[rank] = 0;
  };
  place(0, total);
}

const popcount = (mask: number): number => {
  let bits = 0;
  for (; mask !== 0; mask &= mask - 1) bits++;
  return bits;
};

/** Compact value of every distinct five-card strength: `category << 12 | order within the category`. */
function compactValues(): Map<number, number> {
  const strengths = new Set<number>();
  forEachRankCounts(5, (counts) => strengths.add(rankCountStrength(counts)));
  for (let mask = 0; mask < 1 << 13; mask++) if (popcount(mask) === 5) strengths.add(flushStrength(mask));
  const compact = new Map<number, number>();
  let category = -1;
  let order = 0;
  for (const strength of [...strengths].sort((x, y) => x - y)) {
    const strengthCategory = Math.floor(strength / 0x100000);
    if (strengthCategory !== category) {
      category = strengthCategory;
      order = 0;
    }
    compact.set(strength, (category << CATEGORY_SHIFT) | order++);
  }
  return compact;
}

/** Distinct five-card hand values (7,462): the number of compact values `compactValues` hands out. */
export const DISTINCT_HAND_VALUES = 7462;

/**
 * Non-flush hands by rank-key sum, for seven and for five cards, and flush hands by the flush suit's 13-bit
 * rank mask (5 to 7 bits set). Allocated at load, filled by `fillTables`: the pages of a fresh typed array
 * that nothing writes take no memory. The evaluation functions below do not check that the tables are
 * filled (a check in them cost about half their speed in `bench/eval-bench.ts`, measured under load);
 * src/eval/evaluator.ts fills them when it loads, src/hands.ts before its first evaluation.
 */
const RANK_TABLE = new Uint16Array(MAX_RANK_KEY_7 + 1);
const RANK_TABLE_5 = new Uint16Array(MAX_RANK_KEY_5 + 1);
const FLUSH_TABLE = new Uint16Array(1 << 13);
let filled = false;

function fillTable(
  table: Uint16Array,
  cardCount: number,
  keys: readonly number[],
  compact: Map<number, number>,
): void {
  forEachRankCounts(cardCount, (counts) => {
    let key = 0;
    for (let rank = 0; rank < 13; rank++) key += counts[rank]! * keys[rank]!;
    table[key] = compact.get(rankCountStrength(counts))!;
  });
}

/** Fills the lookup tables (once; later calls return at once). */
export function fillTables(): void {
  if (filled) return;
  const compact = compactValues();
  if (compact.size !== DISTINCT_HAND_VALUES) {
    throw new Error(`the evaluator found ${compact.size} distinct hand values, not ${DISTINCT_HAND_VALUES}`);
  }
  for (let mask = 0; mask < 1 << 13; mask++) {
    if (popcount(mask) >= 5) FLUSH_TABLE[mask] = compact.get(flushStrength(mask))!;
  }
  fillTable(RANK_TABLE_5, 5, RANK_KEYS_5, compact);
  fillTable(RANK_TABLE, 7, RANK_KEYS_7, compact);
  filled = true;
}

// ---- Evaluation ----

/** The suit (0..3) whose counter reached five, from `(suitSum + FLUSH_PROBE) & FLUSH_BITS`. */
const flushSuitOf = (flushBits: number): number => (31 - Math.clz32(flushBits)) >> 2;

const suitRankBit = (card: number, suit: number): number => ((card & 3) === suit ? 1 << (card >> 2) : 0);

/** Value of a five-card hand. Cards must be distinct. */
export function evaluate5(a: number, b: number, c: number, d: number, e: number): number {
  const suits =
    CARD_SUIT_BIT[a]! + CARD_SUIT_BIT[b]! + CARD_SUIT_BIT[c]! + CARD_SUIT_BIT[d]! + CARD_SUIT_BIT[e]!;
  const flushBits = (suits + FLUSH_PROBE) & FLUSH_BITS;
  if (flushBits === 0) {
    return RANK_TABLE_5[
      CARD_RANK_KEY_5[a]! +
        CARD_RANK_KEY_5[b]! +
        CARD_RANK_KEY_5[c]! +
        CARD_RANK_KEY_5[d]! +
        CARD_RANK_KEY_5[e]!
    ]!;
  }
  return FLUSH_TABLE[
    (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2)) | (1 << (e >> 2))
  ]!;
}

/** Value of the best five-card hand among seven distinct cards. */
export function evaluate7(
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
  g: number,
): number {
  const suits =
    CARD_SUIT_BIT[a]! +
    CARD_SUIT_BIT[b]! +
    CARD_SUIT_BIT[c]! +
    CARD_SUIT_BIT[d]! +
    CARD_SUIT_BIT[e]! +
    CARD_SUIT_BIT[f]! +
    CARD_SUIT_BIT[g]!;
  const flushBits = (suits + FLUSH_PROBE) & FLUSH_BITS;
  if (flushBits === 0) {
    return RANK_TABLE[
      CARD_RANK_KEY[a]! +
        CARD_RANK_KEY[b]! +
        CARD_RANK_KEY[c]! +
        CARD_RANK_KEY[d]! +
        CARD_RANK_KEY[e]! +
        CARD_RANK_KEY[f]! +
        CARD_RANK_KEY[g]!
    ]!;
  }
  const suit = flushSuitOf(flushBits);
  return FLUSH_TABLE[
    suitRankBit(a, suit) |
      suitRankBit(b, suit) |
      suitRankBit(c, suit) |
      suitRankBit(d, suit) |
      suitRankBit(e, suit) |
      suitRankBit(f, suit) |
      suitRankBit(g, suit)
  ]!;
}

/** Value of the best five-card hand among 5, 6 or 7 distinct cards. */
export function evaluateCards(cards: ArrayLike<number>): number {
  const at = (index: number): number => cards[index]!;
  switch (cards.length) {
    case 5:
      return evaluate5(at(0), at(1), at(2), at(3), at(4));
    case 6: {
      // Six cards are rare here: take the best of the six five-card hands.
      const [a, b, c, d, e, f] = [at(0), at(1), at(2), at(3), at(4), at(5)];
      return Math.max(
        evaluate5(b, c, d, e, f),
        evaluate5(a, c, d, e, f),
        evaluate5(a, b, d, e, f),
        evaluate5(a, b, c, e, f),
        evaluate5(a, b, c, d, f),
        evaluate5(a, b, c, d, e),
      );
    }
    case 7:
      return evaluate7(at(0), at(1), at(2), at(3), at(4), at(5), at(6));
    default:
      throw new RangeError(`evaluateCards needs 5 to 7 cards, got ${cards.length}`);
  }
}

/**
 * A partial hand (for example a board) that two more cards complete to seven: lets a caller who evaluates many
 * hole-card pairs on one board skip re-adding the board's keys.
 */
export interface PartialHand {
  readonly rankKey: number;
  readonly suits: number;
  readonly cards: readonly number[];
}

export function partialHand(cards: ArrayLike<number>): PartialHand {
  let rankKey = 0;
  let suits = 0;
  const list: number[] = [];
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i]!;
    rankKey += CARD_RANK_KEY[card]!;
    suits += CARD_SUIT_BIT[card]!;
    list.push(card);
  }
  return { rankKey, suits, cards: list };
}

/** Value of `partial` (five cards) plus two hole cards. */
export function evaluateWith2(partial: PartialHand, a: number, b: number): number {
  const flushBits = (partial.suits + CARD_SUIT_BIT[a]! + CARD_SUIT_BIT[b]! + FLUSH_PROBE) & FLUSH_BITS;
  if (flushBits === 0) return RANK_TABLE[partial.rankKey + CARD_RANK_KEY[a]! + CARD_RANK_KEY[b]!]!;
  const suit = flushSuitOf(flushBits);
  let mask = suitRankBit(a, suit) | suitRankBit(b, suit);
  for (const card of partial.cards) mask |= suitRankBit(card, suit);
  return FLUSH_TABLE[mask]!;
}

/** Rank keys for seven and five cards, exposed for the collision test. */
export const EVALUATOR_RANK_KEYS: { readonly seven: readonly number[]; readonly five: readonly number[] } = {
  seven: RANK_KEYS_7,
  five: RANK_KEYS_5,
};
