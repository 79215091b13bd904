/**
 * The raise-size codes of a game's library tree, for get_tree_docs: the codes enqueue_solve's `changes` take
 * (open, sbOpen, threeBetIp, ...), read from the tree config the packs were solved from (data/trees), at the
 * profile of the stack asked for.
 */

import { type GameId, PCT_CODE_BASE } from "@ranges/core";
import { RAISE_CODE_FIELDS } from "@ranges/queue";
import { loadTreeConfig, type StackProfile, type TreeConfig, treeConfigPath } from "@ranges/solver";
import { z } from "zod";

/** How a code reads (core's pot.ts decodes it). */
export const CODE_GRAMMAR = `0 fold, 1 call, 3 all-in, 5 min-raise, 14 raise-to 1.5bb, ${PCT_CODE_BASE}+pct: a raise of pct percent of the pot after calling (${PCT_CODE_BASE + 60}: 60% of the pot).`;

/** The profile fields that hold raise codes: the same names as enqueue_solve's changes. */
export const CODE_FIELDS = RAISE_CODE_FIELDS;

export const RaiseCodesSchema = z.object({
  grammar: z.string(),
  tree: z
    .record(z.string(), z.array(z.number()))
    .nullable()
    .describe("The library tree's codes at this stack, by enqueue_solve change name; null when unknown."),
  treeConfig: z.string().nullable().describe("The tree config they come from, in the repository."),
});
export type RaiseCodes = z.infer<typeof RaiseCodesSchema>;

const configs = new Map<GameId, TreeConfig | null>();

/** The game's library tree config (read once); null when the repository has none for it. */
function configOf(game: GameId): TreeConfig | null {
  if (!configs.has(game)) {
    let config: TreeConfig | null = null;
    try {
      config = loadTreeConfig(treeConfigPath(game));
    } catch {
      config = null;
    }
    configs.set(game, config);
  }
  return configs.get(game) ?? null;
}

/**
 * The profile of `stack`, or of the nearest stack a profile lists, the deeper one on a tie: the profile a
 * queued solve at that stack starts from (@ranges/queue).
 */
function profileNear(config: TreeConfig, stack: number): StackProfile | null {
  let best: { profile: StackProfile; distance: number } | null = null;
  for (const profile of config.profiles) {
    for (const s of profile.stacks) {
      const distance = Math.abs(s - stack);
      if (best === null || distance < best.distance || (distance === best.distance && s > stack))
        best = { profile, distance };
    }
  }
  return best?.profile ?? null;
}

/** The codes of `game`'s library tree at `stack` (or the grammar alone when the tree is unknown). */
export function raiseCodesOf(game: GameId, stack: number | null): RaiseCodes {
  const config = configOf(game);
  const profile = config === null || stack === null ? null : profileNear(config, stack);
  if (profile === null) return { grammar: CODE_GRAMMAR, tree: null, treeConfig: null };
  const tree: Record<string, number[]> = {};
  for (const field of CODE_FIELDS) {
    const codes = profile[field];
    if (codes !== undefined) tree[field] = [...codes];
  }
  return { grammar: CODE_GRAMMAR, tree, treeConfig: `data/trees/${treeConfigPath(game).split("/").pop()}` };
}
