/**
 * `BodyWriter` writes a view's class objects as bytes; the body must equal `JSON.stringify` of the same view
 * with the objects built as objects, for any number `round4` can give (the writer formats them from integers).
 */

import { describe, expect, it } from "vitest";
import { BodyWriter, jsonKeyBytes } from "../src/json-body.js";

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** The body the writer gives for one distribution whose classes show `values` as weights and EVs. */
function written(names: string[], values: number[]): { bytes: string; expected: string } {
  const writer = new BodyWriter();
  const keys = jsonKeyBytes(names);
  const shown = values.map((v) => round4(v) + 0);
  // The writer is given each value times 1e4, rounded (-0 as 0), as the views pass it.
  const d = writer.distribution(keys, (visit) => {
    values.forEach((v, c) => {
      const v4 = Math.round(v * 1e4) + 0;
      visit(c, v4, c % 3 === 0 ? undefined : v4);
    });
    return 1.5;
  });
  const bytes = writer
    .finish({ head: "é ü", weights: d.weights, evs: d.evs, combos: d.combos })
    .toString("utf8");
  const weights: Record<string, number> = {};
  const evs: Record<string, number> = {};
  shown.forEach((v, c) => {
    weights[names[c]!] = v;
    if (c % 3 !== 0) evs[names[c]!] = v;
  });
  return { bytes, expected: JSON.stringify({ head: "é ü", weights, evs, combos: 1.5 }) };
}

describe("BodyWriter", () => {
  it("writes numbers exactly as JSON.stringify does", () => {
    const edge = [
      0,
      -0,
      1,
      -1,
      0.5,
      -0.5,
      0.00005,
      -0.00005,
      0.00004999,
      0.0001,
      -0.0001,
      0.1234,
      0.99995,
      0.12345,
      1.23456789,
      -17.6543,
      100,
      9999.9999,
      123456.7891,
      -98765.4321,
      // Around 2^31 / 1e4, where the writer leaves 32-bit integer arithmetic.
      214748.3647,
      214748.3648,
      -214748.3648,
      214748.3649,
      10.0001,
      99.999,
      2 ** 40 / 1e4,
      1e11,
      1e12,
      -3e12,
      1e21,
      1e300,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const values = [...edge];
    for (let k = 0; k < 20_000; k++) {
      const scale = [1, 10, 1000, 1e6, 1e9][k % 5]!;
      values.push((random() - 0.5) * scale);
    }
    // Not array indices: JSON.stringify would put those first (the views pass their own key order).
    const names = values.map((_, c) => (c % 7 === 0 ? `c${c}` : `c${c}"\\é`));
    const { bytes, expected } = written(names, values);
    expect(bytes).toBe(expected);
  });

  it("writes empty objects, and one body after another (the scratch is reused)", () => {
    const writer = new BodyWriter();
    const keys = jsonKeyBytes(["AA"]);
    for (let round = 0; round < 3; round++) {
      const empty = writer.distribution(keys, () => 0);
      const full = writer.distribution(keys, (visit) => {
        visit(0, round * 1e4, -round * 1e4 + 0);
        return round;
      });
      const body = writer.finish([empty.weights, empty.evs, full.weights, full.evs]).toString("utf8");
      expect(body).toBe(JSON.stringify([{}, {}, { AA: round }, { AA: -round + 0 }]));
    }
  });

  it("refuses a view string that looks like a placeholder, and is ready for the next body", () => {
    const writer = new BodyWriter();
    const keys = jsonKeyBytes(["AA"]);
    const d = writer.distribution(keys, () => 0);
    expect(() => writer.finish({ spot: "\u00001", weights: d.weights, evs: d.evs })).toThrow(/placeholder/);
    const e = writer.distribution(keys, () => 0);
    expect(writer.finish({ weights: e.weights, evs: e.evs }).toString()).toBe('{"weights":{},"evs":{}}');
  });

  it("grows past its first scratch and its EV arrays (a PLO-sized distribution)", () => {
    const names = Array.from({ length: 16_432 }, (_, c) => `Class${c}`);
    const values = names.map((_, c) => ((c * 7919) % 10_007) / 97);
    const { bytes, expected } = written(names, values);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    expect(bytes).toBe(expected);
  });
});
