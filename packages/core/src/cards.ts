/**
 * Cards are integers 0..51: `rank * 4 + suit`, rank 0 = deuce .. 12 = ace, suit 0..3 = c d h s.
 * Every package (evaluator, equities, classes) uses this one encoding.
 */

export const RANK_CHARS = "23456789TJQKA";
export const SUIT_CHARS = "cdhs";

export type Card = number;

export const cardRank = (card: Card): number => card >> 2;
export const cardSuit = (card: Card): number => card & 3;
export const makeCard = (rank: number, suit: number): Card => rank * 4 + suit;

/** Parses `Ah`, `td` (rank case-insensitive, suit lower or upper case) to a card, or null. */
export function parseCard(text: string): Card | null {
  if (text.length !== 2) return null;
  const rank = RANK_CHARS.indexOf(text[0]!.toUpperCase());
  const suit = SUIT_CHARS.indexOf(text[1]!.toLowerCase());
  return rank < 0 || suit < 0 ? null : makeCard(rank, suit);
}

export function formatCard(card: Card): string {
  return RANK_CHARS[cardRank(card)]! + SUIT_CHARS[cardSuit(card)]!;
}

/**
 * Parses a run of concrete cards such as `AhKh` or `AsKdQc2h`; null when the text is not exactly `count`
 * distinct cards.
 */
export function parseCards(text: string, count: number): Card[] | null {
  if (text.length !== count * 2) return null;
  const cards: Card[] = [];
  for (let i = 0; i < text.length; i += 2) {
    const card = parseCard(text.slice(i, i + 2));
    if (card === null || cards.includes(card)) return null;
    cards.push(card);
  }
  return cards;
}
