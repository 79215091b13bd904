import type { TreeConfig } from "../src/tree/config.js";

const model = {
  name: "test-model",
  ipFactor: 1.06,
  oopFactor: 0.94,
  contestExponent: 1.6,
  suitedBonus: 0.05,
  connectedBonus: [0.04, 0.025, 0.01],
  pairBonus: 0.03,
  sprFull: 6,
  source: "test",
};

/** Heads-up jam/fold: the SB (button) shoves or folds, the BB calls or folds. */
export const headsUpJamFold: TreeConfig = {
  game: "nl",
  seats: ["SB", "BB"],
  description: "heads-up jam/fold",
  blinds: { sb: 0.5, bb: 1 },
  ante: 0,
  antePostedBy: null,
  limpSeats: [],
  allInThreshold: 0.4,
  profiles: [{ stacks: [5, 10, 20], jamOrFold: true, allInFrom: 1 }],
  model,
  solve: { maxIterations: 20000, maxSeconds: 60, targetPctPot: 0.0005, alternate: true },
};

/** Three-handed with opens, 3-bets and all-ins, played to the flop and to showdown. */
export const threeHanded: TreeConfig = {
  game: "nl",
  seats: ["BTN", "SB", "BB"],
  description: "three-handed toy",
  blinds: { sb: 0.5, bb: 1 },
  ante: 0,
  antePostedBy: null,
  limpSeats: ["SB"],
  allInThreshold: 0.4,
  profiles: [
    {
      stacks: [25],
      open: [40060],
      sbOpen: [40100],
      threeBetIp: [40080],
      threeBetOop: [40110],
      isoRaise: [40100],
      allInFrom: 2,
    },
  ],
  model,
  solve: { maxIterations: 20000, maxSeconds: 60, targetPctPot: 0.3, alternate: true },
};
