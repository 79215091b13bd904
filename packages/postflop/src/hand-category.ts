/**
 * What a combo holds on a board, in words: its made hand (overpair, top pair, set, flush, ...), its draws
 * (flush draws, straight draws, backdoor flush draws on the flop, overcards) and its blockers (the best flush
 * card of a suit the board shows two or more of, held without a flush or flush draw of its own).
 */

import { type Card, cardRank, cardSuit } from "@ranges/core";
import { evaluateCards, HAND_CATEGORY, handCategory } from "@ranges/solver/hands";

export interface HandCategory {
  /** The made hand: `flush`, `set`, `top pair`, `overpair`, `ace high`, ... */
  readonly made: string;
  readonly draws: readonly string[];
  readonly blockers: readonly string[];
}

const RANK_NAMES = [
  "deuce",
  "trey",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "jack",
  "queen",
  "king",
  "ace",
];
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];

/** Whether a rank mask (bit r for rank r, 0 = deuce) holds five consecutive ranks, the ace also low. */
function hasStraight(mask: number): boolean {
  const shifted = ((mask & 0x1fff) << 1) | ((mask >> 12) & 1);
  for (let start = 0; start <= 9; start++) if (((shifted >> start) & 0x1f) === 0x1f) return true;
  return false;
}

const rankMask = (cards: readonly Card[]) => cards.reduce((m, c) => m | (1 << cardRank(c)), 0);

export function handCategoryOf(hole: readonly [Card, Card], board: readonly Card[]): HandCategory {
  const all = [...hole, ...board];
  const value = all.length >= 5 ? evaluateCards(all) : -1;
  const category = value >= 0 ? handCategory(value) : -1;
  const boardRanks = [...new Set(board.map(cardRank))].sort((a, b) => b - a);
  const [h1, h2] = [cardRank(hole[0]), cardRank(hole[1])].sort((a, b) => b - a) as [number, number];
  const pocketPair = h1 === h2;
  const hits = [h1, h2].filter((r) => boardRanks.includes(r));
  let made: string;
  switch (category) {
    case HAND_CATEGORY.straightFlush:
      made = "straight flush";
      break;
    case HAND_CATEGORY.fourOfAKind:
      made = "quads";
      break;
    case HAND_CATEGORY.fullHouse:
      made = "full house";
      break;
    case HAND_CATEGORY.flush:
      made = "flush";
      break;
    case HAND_CATEGORY.straight:
      made = "straight";
      break;
    case HAND_CATEGORY.threeOfAKind:
      made =
        pocketPair && hits.length > 0 ? "set" : hits.length > 0 ? "trips" : "three of a kind on the board";
      break;
    case HAND_CATEGORY.twoPair:
      made =
        pocketPair && hits.length === 0
          ? h1 > boardRanks[0]!
            ? "overpair (the board is paired)"
            : "pocket pair (the board is paired)"
          : hits.length === 2
            ? "two pair"
            : hits.length === 1
              ? `${pairName(hits[0]!, boardRanks)} (the board is paired)`
              : "two pair on the board";
      break;
    case HAND_CATEGORY.pair:
      if (pocketPair)
        made =
          h1 > boardRanks[0]!
            ? "overpair"
            : h1 < boardRanks[boardRanks.length - 1]!
              ? "underpair"
              : "middle pocket pair";
      else if (hits.length === 1) made = pairName(hits[0]!, boardRanks);
      else made = highName(h1, "the board pair");
      break;
    default:
      made = highName(h1);
  }
  const draws: string[] = [];
  if (board.length < 5 && category < HAND_CATEGORY.straight) {
    for (let s = 0; s < 4; s++) {
      const inHole = hole.filter((c) => cardSuit(c) === s);
      const count = all.filter((c) => cardSuit(c) === s).length;
      if (inHole.length === 0) continue;
      if (count === 4) {
        const missing = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0].find(
          (r) => !board.some((c) => cardSuit(c) === s && cardRank(c) === r),
        )!;
        draws.push(inHole.some((c) => cardRank(c) === missing) ? "nut flush draw" : "flush draw");
      } else if (count === 3 && board.length === 3) {
        draws.push("backdoor flush draw");
      }
    }
    const mask = rankMask(all);
    const boardMask = rankMask(board);
    if (!hasStraight(mask)) {
      let outs = 0;
      for (let r = 0; r < 13; r++) {
        if (mask & (1 << r)) continue;
        if (hasStraight(mask | (1 << r)) && !hasStraight(boardMask | (1 << r))) outs++;
      }
      if (outs >= 2) draws.push("open-ended straight draw");
      else if (outs === 1) draws.push("gutshot");
    }
  }
  if (category <= HAND_CATEGORY.highCard && h2 > boardRanks[0]!) draws.push("two overcards");
  const blockers: string[] = [];
  for (let s = 0; s < 4; s++) {
    const onBoard = board.filter((c) => cardSuit(c) === s);
    if (onBoard.length < 2) continue;
    const best = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0].find(
      (r) => !onBoard.some((c) => cardRank(c) === r),
    )!;
    const held = hole.find((c) => cardSuit(c) === s && cardRank(c) === best);
    if (
      held !== undefined &&
      !draws.some((d) => d.endsWith("flush draw") && !d.startsWith("backdoor")) &&
      category !== HAND_CATEGORY.flush
    ) {
      blockers.push(
        `the ${RANK_NAMES[best]} of ${SUIT_NAMES[s]} (the best ${onBoard.length >= 3 ? "flush" : "flush draw"} card)`,
      );
    }
  }
  return { made, draws, blockers };
}

function pairName(rank: number, boardRanks: readonly number[]): string {
  const i = boardRanks.indexOf(rank);
  return i === 0 ? "top pair" : i === 1 && boardRanks.length > 2 ? "second pair" : "bottom pair";
}

function highName(rank: number, extra?: string): string {
  return `${RANK_NAMES[rank]} high${extra ? ` (only ${extra})` : ""}`;
}
