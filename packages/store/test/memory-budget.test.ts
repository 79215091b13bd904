/**
 * The memory budget's order of eviction: bodies before packs, each least recently used first; the most
 * recently used pack and a pinned one stay. Recency lives in linked lists (src/memory.ts), so these cases
 * also guard the lists' links through gets, replacements, deletions and evictions.
 */

import { describe, expect, it } from "vitest";
import { MemoryBudget, type MemoryItem } from "../src/memory.js";

interface Item extends MemoryItem {
  readonly name: string;
}

function budget(bytes: number) {
  const evicted: string[] = [];
  const m = new MemoryBudget<Item>(bytes);
  const body = (name: string, size = 10): Item => ({
    kind: "body",
    name,
    bytes: size,
    evicted: () => evicted.push(name),
  });
  const pack = (name: string, size = 10, pinned = false): Item => ({
    kind: "pack",
    name,
    bytes: size,
    evicted: () => evicted.push(name),
    pinned: () => pinned,
  });
  return { m, evicted, body, pack };
}

describe("MemoryBudget", () => {
  it("evicts the least recently used body first; a get makes a body recent", () => {
    const { m, evicted, body } = budget(30);
    m.set("a", body("a"));
    m.set("b", body("b"));
    m.set("c", body("c"));
    expect(m.get("a")?.name).toBe("a");
    m.set("d", body("d"));
    expect(evicted).toEqual(["b"]);
    m.set("e", body("e"));
    expect(evicted).toEqual(["b", "c"]);
    expect(m.peek("a")?.name).toBe("a");
    expect(m.stats).toMatchObject({ bodies: 3, bodyBytes: 30, bytes: 30 });
  });

  it("peek does not change recency", () => {
    const { m, evicted, body } = budget(20);
    m.set("a", body("a"));
    m.set("b", body("b"));
    m.peek("a");
    m.set("c", body("c"));
    expect(evicted).toEqual(["a"]);
  });

  it("drops every body before any pack, then packs least recently used first", () => {
    const { m, evicted, body, pack } = budget(40);
    m.set("p1", pack("p1"));
    m.set("p2", pack("p2"));
    m.set("b1", body("b1"));
    m.set("b2", body("b2"));
    m.get("p1");
    m.set("p3", pack("p3", 20));
    // 60 bytes: both bodies go (oldest first), then p2, the least recently used pack.
    expect(evicted).toEqual(["b1", "b2"]);
    expect(m.stats).toMatchObject({ bodies: 0, packs: 3, bytes: 40 });
    m.set("p4", pack("p4"));
    expect(evicted).toEqual(["b1", "b2", "p2"]);
    expect(m.stats).toMatchObject({ packs: 3, bytes: 40 });
  });

  it("keeps the most recently used pack and pinned packs, even over the budget", () => {
    const { m, evicted, pack } = budget(15);
    m.set("pinned", pack("pinned", 10, true));
    m.set("big", pack("big", 30));
    expect(evicted).toEqual([]);
    expect(m.stats.bytes).toBe(40);
    m.get("pinned");
    m.set("small", pack("small", 1));
    // The last used pack is now "small": "big" goes, "pinned" stays.
    expect(evicted).toEqual(["big"]);
    expect(m.peek("pinned")?.name).toBe("pinned");
  });

  it("does not keep a body larger than the budget", () => {
    const { m, body } = budget(15);
    m.set("a", body("a", 16));
    expect(m.peek("a")).toBeUndefined();
    expect(m.stats.bodies).toBe(0);
  });

  it("replacing or deleting an item unlinks it without calling evicted", () => {
    const { m, evicted, body } = budget(30);
    m.set("a", body("a"));
    m.set("b", body("b"));
    m.set("a", body("a2", 10));
    expect(m.peek("a")?.name).toBe("a2");
    expect(m.delete("b")).toBe(true);
    expect(m.delete("b")).toBe(false);
    m.set("c", body("c"));
    m.set("d", body("d"));
    m.set("e", body("e"));
    // After the replacement "a" is the oldest, then c and d.
    expect(evicted).toEqual(["a2"]);
    m.deleteWhere((key) => key === "c" || key === "e");
    expect(m.stats).toMatchObject({ bodies: 1, bodyBytes: 10 });
    m.set("f", body("f"));
    m.set("g", body("g"));
    m.set("h", body("h"));
    expect(evicted).toEqual(["a2", "d"]);
  });

  it("stays consistent through many operations (the lists and the counts agree)", () => {
    const { m, body, pack } = budget(500);
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let k = 0; k < 5000; k++) {
      const key = `k${rand(80)}`;
      const op = rand(4);
      if (op === 0) m.get(key);
      else if (op === 1) m.delete(key);
      else m.set(key, rand(10) === 0 ? pack(key, 5 + rand(40)) : body(key, 1 + rand(30)));
      const s = m.stats;
      expect(s.bytes).toBe(s.bodyBytes + s.packBytes);
      // Over the budget only when nothing evictable is left: no body, and no pack but the last used.
      if (op >= 2) expect(s.bytes <= 500 || (s.bodies === 0 && s.packs === 1)).toBe(true);
    }
  });
});
