/**
 * One pack file as the store tracks it (`Entry`): the verified head of the version it serves, its data while
 * loaded, and the state of its loads, failures and retries.
 */

import type { GameId } from "@ranges/core";
import type { CompactPack } from "./compact.js";
import type { PackHeader } from "./pack-types.js";

/**
 * What the store keeps of a pack file whether or not it is loaded: its verified header and checksum, and the
 * node count of its index once known (at the first load, or read off the event loop by `packSummaries`).
 */
export interface PackHead {
  readonly header: PackHeader;
  readonly checksum: string;
  readonly nodeCount: number | null;
}

export interface Entry {
  readonly game: GameId;
  readonly stack: number | null;
  readonly file: string;
  readonly path: string;
  /** Never serves: the file name is not a stack, or another file holds the stack. */
  readonly permanent: boolean;
  /** Header and index of the version being served (verified); null before any file verified. */
  meta: PackHead | null;
  fileBytes: number;
  /** Why the pack does not serve now (it is not live); null when it does. */
  error: string | null;
  /** The data of `meta`, when in memory. */
  loaded: CompactPack | null;
  loading: Promise<void> | null;
  /** A read of the file's head for the resident index (`indexHead`), while one runs. */
  indexing: Promise<void> | null;
  /** Signature of the file as last read or stat'ed for a load; a change means the file changed. */
  signature: string | null;
  /** A newer file failed while `loaded` keeps serving. */
  problem: string | null;
  failures: number;
  /** No new attempt before this time (ms) unless the file changes. */
  retryAt: number;
  /** Reads started and the latest applied: an older read never overrides a newer one. */
  reads: number;
  applied: number;
  removed: boolean;
}

/** Whether the entry serves: a stack of its own, a verified head, and no failure that took it out. */
export const isLive = (entry: Entry): boolean =>
  !entry.permanent && entry.meta !== null && entry.error === null;
