/** Where the committed data files (`data/equity/*.bin`) are found, from the module that reads them. */

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Finds `relative` (a path from the repository root, e.g. `data/equity/holdem-hu.bin`) in the nearest folder
 * above `moduleUrl` (the caller's `import.meta.url`) that has it. Not found: an error naming the file and
 * where the search began, then `hint` (how to build the file) if given.
 */
export function findAbove(moduleUrl: string, relative: string, hint?: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`${relative} not found above ${fileURLToPath(moduleUrl)}${hint ? `: ${hint}` : ""}`);
    dir = parent;
  }
}
