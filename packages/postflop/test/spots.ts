/** Small spots the engine's tests solve (the solver's, the out-of-range values', the queries'). */

import { benchSpot, benchTurnSpot } from "../bench/spot.js";
import type { PostflopConfig } from "../src/config.js";

/** A small turn spot (river deals, suit isomorphism on the river: clubs and diamonds are off the board). */
export const turnSpot: PostflopConfig = {
  board: "Qs Jh 2h 7h",
  pot: 10,
  stack: 40,
  ranges: { oop: "AQ,KQ,JT,99,77,A5s,KhTh", ip: "AA,QJ,T9s,KK,88,A4s" },
  sizes: { turn: { bet: "50%", raise: "2.5x" }, river: { bet: ["50%", "100%"], raise: [] } },
  allInThreshold: 1,
  raiseCap: 1,
};

/** A small flop spot (turn and river deals). */
export const flopSpot: PostflopConfig = {
  board: "QsJh2h",
  pot: 10,
  stack: 40,
  ranges: { oop: "AQ,JT,99,A5s", ip: "AA,QJ,T9s,88" },
  sizes: {
    flop: { bet: "50%", raise: [] },
    turn: { bet: "75%", raise: [] },
    river: { bet: "75%", raise: [] },
  },
  allInThreshold: 0,
  raiseCap: 0,
};

/**
 * The benchmark's turn (bench/spot.ts: QsJh2h5d, a BTN-BB single-raised pot's ranges, 75% bets and raises to
 * 2.5x, OOP's leads): a spot with realistic ranges, where schedules are compared.
 */
export const benchTurn: PostflopConfig = benchTurnSpot(benchSpot("75%", true));
