/**
 * Showdown counts of every class pair on one five-card board, with combo-level card removal.
 *
 * For a board, every live combo (1,081 of them) is evaluated once and sorted by value. Sweeping the values
 * upwards, each group of equal hands wins against everything counted below it, per villain class. That count
 * still includes villain combos that share a card with the hero combo; those are taken back out card by card:
 * two distinct combos share at most one card, so walking the 46 live combos that hold card c, pair by pair,
 * finds each conflicting pair exactly once. Cost per board is about (groups x classes) + 47 x C(46, 2).
 */

import { evaluateWith2, partialHand } from "../eval/evaluator.js";
import { CLASS_COUNT, COMBO_CLASS, COMBO_COUNT, COMBO_OF_CARDS } from "./combos.js";

/** Bits for the combo number in a sort key (`value << COMBO_BITS | combo`). */
const COMBO_BITS = 11;
const COMBO_MASK = (1 << COMBO_BITS) - 1;

export class BoardSweep {
  private readonly sortKeys = new Int32Array(COMBO_COUNT);
  private readonly comboValue = new Int32Array(COMBO_COUNT);
  private readonly liveCards = new Uint8Array(52);
  private readonly countBelow = new Float64Array(CLASS_COUNT);
  private readonly groupCount = new Int32Array(CLASS_COUNT);
  private readonly groupClasses = new Int32Array(CLASS_COUNT);
  private readonly cardCombos = new Int32Array(52);

  /**
   * Adds `weight` times the board's showdown counts: `wins[a * 169 + b]` gets the ordered non-conflicting
   * combo pairs (hero in class a, villain in class b) where hero's hand is better, `ties[a * 169 + b]` those
   * where the hands are equal. Board cards must be distinct.
   */
  accumulate(board: ArrayLike<number>, weight: number, wins: Float64Array, ties: Float64Array): void {
    const { sortKeys, comboValue, liveCards, countBelow, groupCount, groupClasses, cardCombos } = this;
    const partial = partialHand(board);
    const dead = new Uint8Array(52);
    for (let i = 0; i < board.length; i++) dead[board[i]!] = 1;
    let liveCount = 0;
    for (let card = 0; card < 52; card++) if (dead[card] === 0) liveCards[liveCount++] = card;

    let comboTotal = 0;
    for (let i = 0; i < liveCount; i++) {
      const low = liveCards[i]!;
      for (let j = i + 1; j < liveCount; j++) {
        const high = liveCards[j]!;
        const combo = COMBO_OF_CARDS[low * 52 + high]!;
        const value = evaluateWith2(partial, low, high);
        comboValue[combo] = value;
        sortKeys[comboTotal++] = (value << COMBO_BITS) | combo;
      }
    }
    const sorted = sortKeys.subarray(0, comboTotal).sort();

    // Sweep groups of equal value upwards; counts include conflicting pairs, corrected below.
    countBelow.fill(0);
    let start = 0;
    while (start < comboTotal) {
      const value = sorted[start]! >> COMBO_BITS;
      let end = start;
      let distinct = 0;
      while (end < comboTotal && sorted[end]! >> COMBO_BITS === value) {
        const heroClass = COMBO_CLASS[sorted[end]! & COMBO_MASK]!;
        if (groupCount[heroClass]!++ === 0) groupClasses[distinct++] = heroClass;
        end++;
      }
      for (let g = 0; g < distinct; g++) {
        const heroClass = groupClasses[g]!;
        const heroCount = groupCount[heroClass]! * weight;
        const row = heroClass * CLASS_COUNT;
        for (let villain = 0; villain < CLASS_COUNT; villain++)
          wins[row + villain]! += heroCount * countBelow[villain]!;
        for (let h = 0; h < distinct; h++) {
          const villainClass = groupClasses[h]!;
          // Ordered pairs of distinct combos: a combo does not tie with itself.
          const pairs = groupCount[villainClass]! - (villainClass === heroClass ? 1 : 0);
          ties[row + villainClass]! += heroCount * pairs;
        }
      }
      for (let g = 0; g < distinct; g++) {
        const heroClass = groupClasses[g]!;
        countBelow[heroClass]! += groupCount[heroClass]!;
        groupCount[heroClass] = 0;
      }
      start = end;
    }

    // Take back the pairs that share a card.
    for (let i = 0; i < liveCount; i++) {
      const card = liveCards[i]!;
      let held = 0;
      for (let j = 0; j < liveCount; j++) {
        if (j !== i) cardCombos[held++] = COMBO_OF_CARDS[card * 52 + liveCards[j]!]!;
      }
      for (let p = 0; p < held; p++) {
        const comboP = cardCombos[p]!;
        const valueP = comboValue[comboP]!;
        const classP = COMBO_CLASS[comboP]!;
        for (let q = p + 1; q < held; q++) {
          const comboQ = cardCombos[q]!;
          const valueQ = comboValue[comboQ]!;
          const classQ = COMBO_CLASS[comboQ]!;
          if (valueP > valueQ) wins[classP * CLASS_COUNT + classQ]! -= weight;
          else if (valueP < valueQ) wins[classQ * CLASS_COUNT + classP]! -= weight;
          else {
            ties[classP * CLASS_COUNT + classQ]! -= weight;
            ties[classQ * CLASS_COUNT + classP]! -= weight;
          }
        }
      }
    }
  }
}
