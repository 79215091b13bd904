/** Where configs and packs live in the repository, found from this module's location. */

import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { GameId } from "@ranges/core";
import { gameDir } from "@ranges/store";

/** The repository root: the nearest folder above this module holding `data/trees`. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "data", "trees"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("data/trees not found above the solver package");
    dir = parent;
  }
}

export const treeConfigPath = (game: GameId, root = repoRoot()): string =>
  join(root, "data", "trees", `${gameDir(game)}.json`);

export const defaultPacksDir = (root = repoRoot()): string => join(root, "data", "packs");

export const repoRelative = (path: string, root = repoRoot()): string => relative(root, path);

/** Games with a committed tree config, in the order `--all` solves them. */
export const SOLVED_GAMES: readonly GameId[] = ["nlmtt8", "nl", "nl/v2", "nl9"];

/** PLO games with a committed tree config, in the order `--all` solves them (after the hold'em games). */
export const PLO_SOLVED_GAMES: readonly GameId[] = ["plo6hu", "plo5", "plo", "plo9"];
