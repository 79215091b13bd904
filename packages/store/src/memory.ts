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

/** An item and its place in its kind's recency list. */
interface Entry<T> {
  readonly key: string;
  readonly item: T;
  prev: Entry<T> | null;
  next: Entry<T> | null;
}

/**
 * Entries of one kind, least recently used at the head. Recency lives in these links, not in the Map's
 * insertion order: marking a hot key as used by deleting and re-adding it to a Map leaves a deleted entry in
 * the key's hash chain each time, so with thousands of entries every lookup of that key walked thousands of
 * dead entries until the table was rebuilt (15 us per lookup of the current pack at 5,000 cached bodies),
 * and evicting from the Map's front skipped every deleted entry there.
 */
class RecencyList<T> {
  head: Entry<T> | null = null;
  tail: Entry<T> | null = null;

  push(e: Entry<T>): void {
    e.prev = this.tail;
    e.next = null;
    if (this.tail === null) this.head = e;
    else this.tail.next = e;
    this.tail = e;
  }

  unlink(e: Entry<T>): void {
    if (e.prev === null) this.head = e.next;
    else e.prev.next = e.next;
    if (e.next === null) this.tail = e.prev;
    else e.next.prev = e.prev;
    e.prev = null;
    e.next = null;
  }

  touch(e: Entry<T>): void {
    if (this.tail === e) return;
    this.unlink(e);
    this.push(e);
  }
}

export class MemoryBudget<T extends MemoryItem> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly lists = { body: new RecencyList<T>(), pack: new RecencyList<T>() };
  private bodyBytes = 0;
  private packBytes = 0;
  private bodyCount = 0;
  private packCount = 0;
  /** Key of the most recently used pack. */
  private lastPack: string | null = null;

  constructor(readonly budget: number) {}

  /** The item, marked as most recently used. */
  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.lists[e.item.kind].touch(e);
    if (e.item.kind === "pack") this.lastPack = key;
    return e.item;
  }

  /** The item without touching its recency. */
  peek(key: string): T | undefined {
    return this.entries.get(key)?.item;
  }

  /**
   * Adds or replaces an item as the most recently used, then evicts down to the budget. A body larger than
   * the whole budget is not kept; a pack always is (it becomes the protected most recent pack).
   */
  set(key: string, item: T): void {
    if (item.kind === "body" && item.bytes > this.budget) return;
    this.delete(key);
    const e: Entry<T> = { key, item, prev: null, next: null };
    this.entries.set(key, e);
    this.lists[item.kind].push(e);
    this.count(item, 1);
    if (item.kind === "pack") this.lastPack = key;
    this.evict();
  }

  /** Removes an item (its `evicted` is not called). */
  delete(key: string): boolean {
    const e = this.entries.get(key);
    if (e === undefined) return false;
    this.remove(e);
    if (this.lastPack === key) this.lastPack = null;
    return true;
  }

  /** Removes every item the predicate selects (their `evicted` is not called). */
  deleteWhere(select: (key: string, item: T) => boolean): void {
    for (const [key, e] of this.entries) if (select(key, e.item)) this.delete(key);
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

  private remove(e: Entry<T>): void {
    this.entries.delete(e.key);
    this.lists[e.item.kind].unlink(e);
    this.count(e.item, -1);
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
    const over = () => this.bodyBytes + this.packBytes > this.budget;
    while (over() && this.lists.body.head !== null) {
      const e = this.lists.body.head;
      this.remove(e);
      e.item.evicted?.();
    }
    let e = this.lists.pack.head;
    while (over() && e !== null) {
      const next = e.next;
      if (e.key !== this.lastPack && e.item.pinned?.() !== true) {
        this.remove(e);
        e.item.evicted?.();
      }
      e = next;
    }
  }
}
