/**
 * The store's public types: the options of `RangeStore.open`, the queries it answers, and the shapes of its
 * JSON results, cache statistics and pack metadata.
 */

import type { Buffer } from "node:buffer";
import type { GameId } from "@ranges/core";
import type { PackHeader } from "./pack-types.js";

export interface RangeStoreOptions {
  /** Directory holding `<gameDir>/<stack>.pack` files, e.g. `data/packs`. */
  readonly packsDir: string;
  /**
   * Memory budget in bytes for cached response bodies and loaded packs together (default 64 MiB). 0 caches
   * no bodies and keeps only the most recently used pack loaded.
   */
  readonly cacheBytes?: number;
  /**
   * How often, in milliseconds, the store looks for new, replaced, removed and recovered pack files (default
   * 2000; 0 only when `refresh()` is called). The timer does not keep the process alive.
   */
  readonly refreshMs?: number;
  /**
   * Read, verify and re-compress packs in a helper process (default true), whose memory goes back to the
   * system when it exits (it stops after 10 s without work); false does it on the event loop.
   */
  readonly worker?: boolean;
  /**
   * Directory for the loaded packs' compressed blocks (default: the system's temporary directory). Each
   * pack's blocks go to a file that is deleted as soon as it is open, so they live in the OS page cache and
   * nothing is left behind; null keeps them in the process's memory (counted in the budget).
   */
  readonly spillDir?: string | null;
}

export interface NodeQueryOptions {
  /** One hand class (or concrete cards): restricts weights and EVs to it. */
  readonly hand?: string;
  /** Drop weights at or below this frequency (and their EVs); removes nothing when `full` is set. */
  readonly minFreq?: number;
  /** Hold'em only: every class with an explicit weight. */
  readonly full?: boolean;
}

export interface RangeQueryOptions {
  readonly hand?: string;
  readonly minFreq?: number;
}

/** One query of the JSON fast path; the fields mirror the API's query parameters. */
export type StoreQuery =
  | { readonly kind: "catalog" }
  | { readonly kind: "discovery"; readonly game: GameId }
  | {
      readonly kind: "node";
      readonly game: GameId;
      readonly stack: number;
      readonly history: string;
      readonly hand?: string;
      readonly minFreq?: number;
      readonly full?: boolean;
    }
  | {
      readonly kind: "range";
      readonly game: GameId;
      readonly stack: number;
      readonly spot: string;
      readonly hand?: string;
      readonly minFreq?: number;
    }
  | { readonly kind: "spots"; readonly game: GameId; readonly stack: number }
  | { readonly kind: "config"; readonly game: GameId; readonly stack: number };

export interface JsonResult {
  /** The serialized response object (decoded from `bytes` on each read: send `bytes`). */
  readonly body: string;
  /** The body as UTF-8, the form the cache holds. */
  readonly bytes: Buffer;
  /** Strong ETag (quoted), stable across restarts for the same packs and query. */
  readonly etag: string;
  /**
   * The cache key of the normalized query: `peek(key)` answers the same body while the cache holds it (a
   * server may remember a URL's key and skip parsing it again).
   */
  readonly key: string;
}

export interface CacheStats {
  /** Cached response bodies and their estimated bytes. */
  readonly entries: number;
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
  /** Loaded packs and their estimated bytes. */
  readonly packs: number;
  readonly packBytes: number;
  /** The budget that bodies and packs share (`cacheBytes`). */
  readonly budget: number;
}

export interface PackStatus {
  readonly game: GameId;
  /** Null when the file name is not `<stack>.pack`. */
  readonly stack: number | null;
  /** Path relative to the packs directory, e.g. `nlmtt8/40.pack`. */
  readonly file: string;
  readonly path: string;
  readonly ok: boolean;
  readonly error: string | null;
  /** Pack checksum (hex); null when the header could not be read. */
  readonly checksum: string | null;
  /** Whether the data section has been read and verified (and is in memory now). */
  readonly dataLoaded: boolean;
  /**
   * Set while the file on disk fails to verify but a version loaded before keeps serving (the pack stays
   * live); null otherwise.
   */
  readonly problem: string | null;
}

export interface PackMeta {
  readonly header: PackHeader;
  /** Hex SHA-256 over preamble, header and index (the preamble holds the data section's SHA-256). */
  readonly checksum: string;
  readonly nodeCount: number;
  readonly fileBytes: number;
  readonly path: string;
}

/** One live pack in the store's resident index (see `packSummaries`). */
export interface PackSummary extends PackMeta {
  readonly game: GameId;
  readonly stack: number;
  /** Whether the data section has been read and verified (the header and index always are). */
  readonly dataLoaded: boolean;
}
