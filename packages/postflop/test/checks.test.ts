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
  it("measures every `every` iterations far from the target, then where the fall predicts the target", () => {
    // 5000 / t^2 reaches 0.55 at t = 95.3: measured at 96, the first iteration at the target, not at 100.
    expect(measuredAt((t) => 5000 / t ** 2, 10, 0.55)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 96]);
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
      // Never more than `every` apart.
      const steps = at.map((t, i) => t - (i === 0 ? 0 : at[i - 1]!));
      expect(Math.max(...steps)).toBeLessThanOrEqual(10);
    }
  });

  it("keeps the full step while exploitability rises or holds", () => {
    const bumpy = (t: number) => (t === 30 ? 9 : 100 / t);
    expect(measuredAt(bumpy, 10, 0.5, 60)).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it.each([0, -1, 2.5, Number.NaN])("refuses every = %s", (every) => {
    expect(() => new CheckSchedule(every, 0.5)).toThrow(/checkEvery/);
  });
});
