/** The rake of a pack, as the documentation tools state it: the Config's `rake` plus a sentence. */

import type { Rake } from "@ranges/schema";
import type { PackConfig } from "@ranges/store";

export interface RakeDoc {
  /** As `/config` serves it: null for no rake, and for an unknown rake (then `note` says so). */
  readonly rake: Rake | null;
  /** The rake in words: how much, capped where, when; "No rake."; or "Unknown: <reason>". */
  readonly note: string;
  /** Whether the pack records its rake (false: null means unknown, not "no rake"). */
  readonly known: boolean;
}

/** The rake recorded in a pack's config. Unknown when the config lists `rake` in `unverified`. */
export function rakeDoc(config: PackConfig): RakeDoc {
  const unknown = config.unverified.find((u) => u.field === "rake");
  if (config.rake === null) {
    return unknown
      ? { rake: null, note: `Unknown: ${unknown.reason}`, known: false }
      : { rake: null, note: "No rake: pots are won in full.", known: true };
  }
  const { percent, capBb } = config.rake;
  return {
    rake: { percent, capBb, noFlopNoDrop: true },
    note: `${percent}% of every pot that sees a flop (all-in or not), capped at ${capBb}bb; no rake when the hand ends preflop (no flop, no drop). The strategies and EVs were solved with this rake.`,
    known: true,
  };
}

/** For a game without a published pack: nothing is known. */
export const NO_PACK_RAKE: RakeDoc = {
  rake: null,
  note: "Unknown: no pack of this game is published, so its rake is not recorded anywhere.",
  known: false,
};
