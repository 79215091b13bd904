/**
 * The benchmark spot of issue 10: BTN vs BB single-raised pot at 100bb, flop QsJh2h, bets 75% of the pot on
 * every street (`flopBet` on the flop), raises to 2.5x, all-in added at 1.5 pots or less, forced all-in at
 * 0.15 pots behind. `donkBets`: whether OOP may lead the turn or river into the previous street's bettor, with
 * the ordinary 75% size (the "no donk bets beyond the default", read as the reference solver's
 * default, which allows such leads at the ordinary sizes); false gives the smaller tree the packs use.
 */

import type { PostflopConfig } from "../src/index.js";

export const benchSpot = (flopBet: string, donkBets = true): PostflopConfig => ({
  board: "QsJh2h",
  pot: 5.5,
  stack: 97.5,
  ranges: {
    oop: "99-22,AJs-A2s,AJo-A2o,KQs-K2s,KQo-K8o,QJs-Q4s,QJo-Q9o,JTs-J6s,JTo-J9o,T9s-T6s,T9o,96s+,86s+,75s+,64s+,53s+,43s",
    ip: "22+,A2s+,A8o+,A5o-A2o,K5s+,KTo+,Q8s+,QTo+,J8s+,JTo,T7s+,97s+,86s+,75s+,65s,54s",
  },
  sizes: {
    flop: { bet: flopBet, raise: "2.5x" },
    turn: { bet: "75%", raise: "2.5x" },
    river: { bet: "75%", raise: "2.5x" },
  },
  donkBets,
  allInThreshold: 1.5,
  forceAllInThreshold: 0.15,
});

/** The turn spot of the bench scripts: a flop spot's ranges and sizes on QsJh2h5d, pot 13.75, 93.375 behind. */
export const benchTurnSpot = (flop: PostflopConfig): PostflopConfig => ({
  ...flop,
  board: "QsJh2h5d",
  pot: 13.75,
  stack: 93.375,
});
