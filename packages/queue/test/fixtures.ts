/** 6-max cash at 10bb, every decision all-in or fold: a spot that solves in seconds. */
export const JAM_FOLD = { game: "nl", stack: 10, changes: { jamOrFold: true, allInFrom: 1 } };
