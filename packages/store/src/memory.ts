/**
 * One memory budget for what the store keeps between queries: serialized response bodies and loaded packs,
 * each counted at an estimate of the memory it really holds (see `bodyCost` and `CompactPack.bytes`).
 *
 * Bodies go first, least recently used first, then packs the same way, until the total fits the budget: a
 * body is built again in well under a millisecond (a PLO node's 680 KB in about 11 ms), a pack is read
 * again in about a second, and while PLO bodies could push every pack out of a 64 MiB budget, 200 clients
 * over 35 packs waited on reloads for seconds. Two packs always stay: the most recently used (a budget
 * smaller than one pack still serves that pack without reading it again for every query), and one that is
 * `pinned` (a newer file of it failed to verify, so its loaded version is the only one that can serve).
 */

export interface MemoryItem {
  readonly kind: "body" | "pack";
  readonly bytes: number;
  /** Called when the budget drops the item (not when it is deleted or replaced by its owner). */
  readonly evicted?: () => void;
  /** A pack that must not be dropped now. */
  readonly pinned?: () => boolean;
}

/** Fixed cost of a cached body beyond its bytes and key: map entry, result object, Buffer, ETag string. */
export const BODY_OVERHEAD = 480;

/** Estimated memory of a cached body: its UTF-8 bytes, its key (one byte per character) and the overhead. */
export const bodyCost = (bodyBytes: number, key: string): number => bodyBytes + key.length + BODY_OVERHEAD;

export class MemoryBudget<T extends MemoryItem> {
  private readonly items = new Map<string, T>();
  private bodyBytes = 0;
  private packBytes = 0;
  private bodyCount = 0;
  private packCount = 0;
  /** Key of the most recently used pack. */
  private lastPack: string | null = null;

  constructor(readonly budget: number) {}

  /** The item, marked as most recently used. */
  get(key: string): T | undefined {
    const item = this.items.get(key);
    if (item === undefined) return undefined;
    this.items.delete(key);
    this.items.set(key, item);
    if (item.kind === "pack") this.lastPack = key;
    return item;
  }

  /** The item without touching its recency. */
  peek(key: string): T | undefined {
    return this.items.get(key);
  }

  /**
   * Adds or replaces an item as the most recently used, then evicts down to the budget. A body larger than
   * the whole budget is not kept; a pack always is (it becomes the protected most recent pack).
   */
  set(key: string, item: T): void {
    if (item.kind === "body" && item.bytes > this.budget) return;
    this.delete(key);
    this.items.set(key, item);
    this.count(item, 1);
    if (item.kind === "pack") this.lastPack = key;
    this.evict();
  }

  /** Removes an item (its `evicted` is not called). */
  delete(key: string): boolean {
    const item = this.items.get(key);
    if (item === undefined) return false;
    this.items.delete(key);
    this.count(item, -1);
    if (this.lastPack === key) this.lastPack = null;
    return true;
  }

  /** Removes every item the predicate selects (their `evicted` is not called). */
  deleteWhere(select: (key: string, item: T) => boolean): void {
    for (const [key, item] of this.items) if (select(key, item)) this.delete(key);
  }

  get stats(): {
    bodies: number;
    bodyBytes: number;
    packs: number;
    packBytes: number;
    bytes: number;
    budget: number;
  } {
    return {
      bodies: this.bodyCount,
      bodyBytes: this.bodyBytes,
      packs: this.packCount,
      packBytes: this.packBytes,
      bytes: this.bodyBytes + this.packBytes,
      budget: this.budget,
    };
  }

  private count(item: T, sign: 1 | -1): void {
    if (item.kind === "body") {
      this.bodyBytes += sign * item.bytes;
      this.bodyCount += sign;
    } else {
      this.packBytes += sign * item.bytes;
      this.packCount += sign;
    }
  }

  private evict(): void {
    for (const kind of ["body", "pack"] as const) {
      if (this.bodyBytes + this.packBytes <= this.budget) return;
      for (const [key, item] of this.items) {
        if (this.bodyBytes + this.packBytes <= this.budget) return;
        if (item.kind !== kind) continue;
        if (item.kind === "pack" && (key === this.lastPack || item.pinned?.() === true)) continue;
        this.items.delete(key);
        this.count(item, -1);
        item.evicted?.();
      }
    }
  }
}
