/** Default locations, resolved from this file so `pnpm start` works from the repository root or anywhere. */

import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: this file runs from apps/api/dist (or apps/api/src in tests). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

export const defaultPacksDir = (): string => process.env.PACKS_DIR || resolve(REPO_ROOT, "data/packs");
export const defaultAccessDb = (): string => process.env.ACCESS_DB || resolve(REPO_ROOT, "var/access.sqlite");
