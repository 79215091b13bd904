/**
 * A doorkeeper for cache admission: whether a key was seen recently, in a fixed table of 32-bit hashes.
 *
 * Caches that keep every answer fill with one-off keys (a query with a new `minFreq`, a node asked once): each
 * is kept until it is evicted, long enough to outlive V8's young generation, so every one-off answer ends as
 * old-generation garbage and full mark-compact collections follow under load (BENCHMARKS.md, "One-off answers
 * not cached"). A cache that admits a key only on its second sight keeps what is asked again and lets one-off
 * answers die young. The table holds no strings and allocates nothing per call; a key whose slot another key
 * took since is seen as new again (it is admitted a sight later), which costs a rebuild, never a wrong answer.
 *
 * ```ts
 * const door = new Doorkeeper();
 * door.seen("a"); // false: first sight (now recorded)
 * door.seen("a"); // true
 * ```
 */
export class Doorkeeper {
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** `bits`: the table holds 2^bits hashes (default 2^16, 256 KiB). */
  constructor(bits = 16) {
    if (!Number.isInteger(bits) || bits < 1 || bits > 24)
      throw new RangeError(`bits must be a whole number from 1 to 24, got ${bits}`);
    this.slots = new Int32Array(1 << bits);
    this.mask = (1 << bits) - 1;
  }

  /** Whether `key` was seen since its slot was last taken by another key; records it either way. */
  seen(key: string): boolean {
    // FNV-1a over the UTF-16 code units, never 0 (0 marks an empty slot).
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    h |= 1;
    const slot = (h ^ (h >>> 15)) & this.mask;
    if (this.slots[slot] === h) return true;
    this.slots[slot] = h;
    return false;
  }
}
