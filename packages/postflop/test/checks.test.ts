import { describe, expect, it } from "vitest";
import { CheckSchedule } from "../src/checks.js";

/** The iterations a solve whose exploitability after t iterations is e(t) measures at, up to `max`. */
function measuredAt(e: (t: number) => number, every: number, target: number, max = 1000): number[] {
  const checks = new CheckSchedule(every, target);
  const at: number[] = [];
  for (let t = 1; t <= max; t++) {
    if (!checks.due(t)) continue;
    at.push(t);
    checks.record(t, e(t));
    if (e(t) <= target) break;
  }
  return at;
}

describe("CheckSchedule", () => {
  it("measures halfway to the predicted target while it is far, then where the fall predicts it", () => {
    // 5000 / t^2 reaches 0.55 at t = 95.3: measured at 96, the first iteration at the target, not at 100.
    expect(measuredAt((t) => 5000 / t ** 2, 10, 0.55)).toEqual([10, 20, 57, 76, 86, 96]);
    // A slow fall: never more than 4 * every apart.
    const slow = measuredAt((t) => 100 / t ** 0.5, 10, 0.5, 100_000);
    expect(slow.slice(0, 4)).toEqual([10, 20, 60, 100]);
  });

  it("stops within a measure or two of the first iteration at the target for falls it can only estimate", () => {
    for (const e of [
      (t: number) => 300 / t ** 1.5,
      (t: number) => 50 / t + 2 / Math.sqrt(t),
      (t: number) => 9000 / t ** 2.4,
    ]) {
      let first = 1;
      while (e(first) > 0.5) first++;
      const at = measuredAt(e, 10, 0.5);
      expect(at.at(-1)! - first).toBeGreaterThanOrEqual(0);
      expect(at.at(-1)! - first).toBeLessThanOrEqual(2);
      // Never more than 4 * every apart, and no more measures than one every 10 iterations.
      const steps = at.map((t, i) => t - (i === 0 ? 0 : at[i - 1]!));
      expect(Math.max(...steps)).toBeLessThanOrEqual(40);
      expect(at.length).toBeLessThanOrEqual(Math.ceil(first / 10));
    }
  });

  it("measures neither after every iteration nor far past the target when the fall stalls just above it", () => {
    // Smooth to 0.510 at 99, stuck at 0.5005 until 116, then below the target.
    const stall = (t: number) => (t <= 99 ? 5000 / t ** 2 : t < 116 ? 0.5005 : 0.49);
    const at = measuredAt(stall, 10, 0.5);
    const late = at.filter((t) => t > 99);
    expect(late.length).toBeLessThanOrEqual(6);
    expect(at.at(-1)! - 116).toBeGreaterThanOrEqual(0);
    expect(at.at(-1)! - 116).toBeLessThanOrEqual(10);
  });

  it("measures `every` on after exploitability rose", () => {
    const bumpy = (t: number) => (t === 60 ? 9 : 100 / t);
    expect(measuredAt(bumpy, 10, 0.5, 70)).toEqual([10, 20, 60, 70]);
  });

  it.each([0, -1, 2.5, Number.NaN])("refuses every = %s", (every) => {
    expect(() => new CheckSchedule(every, 0.5)).toThrow(/checkEvery/);
  });
});
