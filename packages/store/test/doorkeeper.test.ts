import { describe, expect, it } from "vitest";
import { Doorkeeper } from "../src/index.js";

describe("Doorkeeper", () => {
  it("sees a key from its second call on", () => {
    const door = new Doorkeeper();
    expect(door.seen("/node?history=UTG")).toBe(false);
    expect(door.seen("/node?history=UTG")).toBe(true);
    expect(door.seen("/node?history=UTG")).toBe(true);
    expect(door.seen("/node?history=HJ")).toBe(false);
    expect(door.seen("")).toBe(false);
    expect(door.seen("")).toBe(true);
  });

  it("forgets a key whose slot another key took, and nothing else goes wrong", () => {
    // A table of 2 slots: of three keys at least two share a slot.
    const door = new Doorkeeper(1);
    const keys = ["a", "b", "c", "d", "e"];
    for (const k of keys) door.seen(k);
    const again = keys.map((k) => door.seen(k));
    expect(again.filter((x) => !x).length).toBeGreaterThan(0);
    // Whatever it forgot, a key seen just now is seen.
    for (const k of keys) {
      door.seen(k);
      expect(door.seen(k)).toBe(true);
    }
  });

  it("many one-off keys in a large table are (nearly) all new", () => {
    const door = new Doorkeeper();
    let seen = 0;
    for (let k = 0; k < 10_000; k++) if (door.seen(`minFreq=${k}`)) seen++;
    expect(seen).toBeLessThan(10);
  });

  it("rejects a table size out of range", () => {
    for (const bits of [0, 25, 1.5, Number.NaN]) expect(() => new Doorkeeper(bits)).toThrow(RangeError);
  });
});
