/** 6-max cash at 10bb, every decision all-in or fold: a spot that solves in seconds. */
export const JAM_FOLD = { game: "nl", stack: 10, changes: { jamOrFold: true, allInFrom: 1 } };

/** Heads-up (SB against BB) jam/fold at 10bb in nl's grammar: the four seats before the SB are dealt out. */
export const HEADS_UP_JAM_FOLD = {
  game: "nl",
  stack: 10,
  changes: { jamOrFold: true, allInFrom: 1, dealtIn: ["SB", "BB"] },
};
