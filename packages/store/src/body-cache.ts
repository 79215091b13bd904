/**
 * The JSON fast path's cache of response bodies: a normalized query (`Normal`) answered from the memory
 * budget or built, serialized and tagged, and kept under the budget that loaded packs share (`Item`); with
 * the hit and miss counts of `cacheStats`.
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { Doorkeeper } from "./doorkeeper.js";
import { bodyCost, type MemoryBudget, type MemoryItem } from "./memory.js";
import type { Entry } from "./pack-entry.js";
import type { CacheStats, JsonResult } from "./store-types.js";

/** What the store's memory budget holds: cached bodies (with the pack they came from) and loaded packs. */
export type Item =
  | (MemoryItem & { readonly kind: "body"; readonly result: CachedJson; readonly owner: Entry | null })
  | (MemoryItem & { readonly kind: "pack"; readonly entry: Entry });

/** A response body already serialized as UTF-8 (node and range bodies, `nodeBytes` and `rangeBytes`). */
export class RawJson {
  constructor(readonly bytes: Buffer) {}
}

/** A cached response: the UTF-8 bytes in a buffer of their own (not a slice of a shared pool). */
class CachedJson implements JsonResult {
  constructor(
    readonly bytes: Buffer,
    readonly etag: string,
    readonly key: string,
  ) {}
  get body(): string {
    return this.bytes.toString("utf8");
  }
}

function utf8(text: string): Buffer {
  const out = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  out.write(text, "utf8");
  return out;
}

/** Bump when response bodies change for the same packs, so ETags change with them. */
const BODY_VERSION = "store-json-3";

const sha256hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A normalized query: its cache key, the pack it reads (if any), its builder and its ETag input. */
export interface Normal {
  readonly key: string;
  readonly entry: Entry | null;
  readonly build: () => unknown;
  readonly tag: () => string;
}

/**
 * Bodies are kept from a key's second miss on (`Doorkeeper`): a one-off query is answered without being
 * cached.
 */
export class BodyCache {
  private hits = 0;
  private misses = 0;
  private readonly door = new Doorkeeper();

  constructor(private readonly memory: MemoryBudget<Item>) {}

  /** `RangeStore.peek`: the cached answer for a `JsonResult.key`, or undefined. */
  peek(key: string): JsonResult | undefined {
    const item = this.memory.get(key);
    if (item?.kind !== "body") return undefined;
    this.hits += 1;
    return item.result;
  }

  cached(normal: Normal): JsonResult | undefined {
    const item = this.memory.get(normal.key);
    if (item?.kind !== "body") return undefined;
    this.hits += 1;
    return item.result;
  }

  finish(normal: Normal): JsonResult {
    this.misses += 1;
    const built = normal.build();
    const bytes = built instanceof RawJson ? built.bytes : utf8(JSON.stringify(built));
    // The tag is read after the build: a pack read by the build gives its own checksum.
    const etag = `"${sha256hex(`${BODY_VERSION}\n${normal.tag()}\n${normal.key}`).slice(0, 40)}"`;
    const result = new CachedJson(bytes, etag, normal.key);
    if (this.memory.budget > 0 && this.door.seen(normal.key)) {
      this.memory.set(normal.key, {
        kind: "body",
        bytes: bodyCost(bytes.length, normal.key),
        result,
        owner: normal.entry,
      });
    }
    return result;
  }

  cacheStats(): CacheStats {
    const m = this.memory.stats;
    return {
      entries: m.bodies,
      bytes: m.bodyBytes,
      hits: this.hits,
      misses: this.misses,
      packs: m.packs,
      packBytes: m.packBytes,
      budget: m.budget,
    };
  }
}
