import { HOLDEM_CLASSES } from "@ranges/core";
import { buildGroundedMatrices, loadHeadsUpEquity } from "@ranges/solver";
import { describe, expect, it } from "vitest";
import {
  CLASS_GROUPS,
  CLASS_NEIGHBOURS,
  compareSeries,
  type FitLine,
  fitLineEffects,
  groundedLine,
  predictWithLineEffects,
  RealizationFit,
  raisesOfKind,
} from "../src/index.js";
import { range } from "./ranges.js";

const table = loadHeadsUpEquity();
const fit = new RealizationFit(table);
const N = 169;

const model = {
  theta: new Float64Array(13 * 8).map((_, i) => 0.04 * Math.sin(1 + 3 * i)),
  gamma: new Float64Array([0.4, -0.1, 0.3, 0.05]),
  ridge: 0,
};

/** A line whose "solved" realizations are the model's with known per-class effects added to both players. */
function lineWithEffects(truth: { oop: Float64Array; ip: Float64Array }): FitLine {
  const ranges = { oop: range(3, 0.6, 0.005), ip: range(11, 0.45, 0.005) };
  const blank: FitLine = {
    key: "nl/v2/100/srp-btn-bb",
    spr: 9,
    aggressor: "ip",
    ranges,
    solved: {
      oop: Array.from({ length: N }, (_, cls) => ({ cls, weight: ranges.oop[cls]!, realized: 1 })),
      ip: Array.from({ length: N }, (_, cls) => ({ cls, weight: ranges.ip[cls]!, realized: 1 })),
    },
  };
  const p = predictWithLineEffects(fit, table, model, blank, truth);
  const rows = (side: "oop" | "ip") =>
    blank.solved[side].map((r) => ({ ...r, realized: p[side].get(r.cls)! }));
  return { ...blank, solved: { oop: rows("oop"), ip: rows("ip") } };
}

const truth = {
  oop: new Float64Array(N).map((_, a) => 0.15 * Math.sin(2 * a)),
  ip: new Float64Array(N).map((_, a) => 0.12 * Math.cos(5 * a)),
};

/** Range-weighted mean absolute gap of a prediction to the line's solved numbers. */
function gap(line: FitLine, p: { oop: Map<number, number>; ip: Map<number, number> }, side: "oop" | "ip") {
  const rows = line.solved[side];
  return compareSeries(
    rows.map((r) => r.realized),
    rows.map((r) => p[side].get(r.cls)!),
    rows.map((r) => r.weight),
  );
}

describe("a line's own class effects", () => {
  const line = lineWithEffects(truth);

  it("bring the model to the line's solved realizations (in sample, by construction)", () => {
    const before = gap(line, fit.predict(model, line), "ip");
    expect(before.meanAbsGap).toBeGreaterThan(0.03);
    const effects = fitLineEffects(fit, table, model, line, "mixed", 1e-9);
    const after = predictWithLineEffects(fit, table, model, line, effects);
    for (const side of ["oop", "ip"] as const) {
      for (const r of line.solved[side]) expect(after[side].get(r.cls)!).toBeCloseTo(r.realized, 5);
    }
    // The effects are the truth up to one constant added to both players (the shares do not see it).
    const shift = effects.ip[0]! - truth.ip[0]!;
    for (let a = 0; a < N; a++) {
      expect(effects.ip[a]! - truth.ip[a]!).toBeCloseTo(shift, 4);
      expect(effects.oop[a]! - truth.oop[a]!).toBeCloseTo(shift, 4);
    }
  });

  it("shrink toward the fitted model as the ridge grows, the lightest classes first", () => {
    const loose = fitLineEffects(fit, table, model, line, "range", 1e-9);
    const tight = fitLineEffects(fit, table, model, line, "range", 1);
    const size = (e: { oop: Float64Array; ip: Float64Array }) =>
      [...e.oop, ...e.ip].reduce((s, x) => s + Math.abs(x), 0);
    expect(size(tight)).toBeLessThan(0.05 * size(loose));
    const mid = fitLineEffects(fit, table, model, line, "range", 1e-3);
    const ip = Array.from(line.ranges.ip);
    const floorClass = ip.indexOf(0.005);
    const heavy = ip.indexOf(Math.max(...ip));
    const kept = (a: number) => Math.abs(mid.ip[a]! / (loose.ip[a]! || 1e-12));
    expect(kept(floorClass)).toBeLessThan(kept(heavy));
  });

  it("grouped: a class's effect leans to its group's as its own deviation is shrunk", () => {
    // Group-level truth plus per-class noise: the grouped fit with a tight class ridge keeps the group level
    // and drops most of the noise; the ungrouped fit with the same ridge shrinks everything toward 0.
    const groupTruth = (side: number) => (g: number) => 0.1 * Math.sin(3 * g + side);
    const noisy = {
      oop: new Float64Array(N).map((_, a) => groupTruth(0)(CLASS_GROUPS[a]!) + 0.05 * Math.sin(7 * a)),
      ip: new Float64Array(N).map((_, a) => groupTruth(1)(CLASS_GROUPS[a]!) + 0.05 * Math.cos(11 * a)),
    };
    const l = lineWithEffects(noisy);
    const exact = fitLineEffects(fit, table, model, l, "mixed", 1e-9, 1e-9);
    const grouped = fitLineEffects(fit, table, model, l, "mixed", 1, 1e-9);
    const plain = fitLineEffects(fit, table, model, l, "mixed", 1);
    // With no ridge the grouped fit meets the numbers as the plain one does.
    const p = predictWithLineEffects(fit, table, model, l, exact);
    for (const r of l.solved.ip) expect(p.ip.get(r.cls)!).toBeCloseTo(r.realized, 4);
    // Classes of one group: spread within the group small when the deviations are shrunk hard.
    const spread = (e: Float64Array, g: number) => {
      const v = Array.from(e).filter((_, a) => CLASS_GROUPS[a] === g);
      return Math.max(...v) - Math.min(...v);
    };
    const groups = Math.max(...CLASS_GROUPS) + 1;
    expect(groups).toBeGreaterThan(60);
    expect(groups).toBeLessThan(100);
    let tight = 0;
    let loose = 0;
    let level = 0;
    for (let g = 0; g < groups; g++) {
      tight += spread(grouped.ip, g);
      loose += spread(exact.ip, g);
      // The group's level survives in the grouped fit (relative to the one constant the shares cannot see).
      level += Math.abs(grouped.ip.filter((_, a) => CLASS_GROUPS[a] === g)[0]! - grouped.ip[0]!);
    }
    expect(tight).toBeLessThan(0.2 * loose);
    expect(level).toBeGreaterThan(0.5);
    const size = (e: Float64Array) => e.reduce((s, x) => s + Math.abs(x - e[0]!), 0);
    expect(size(plain.ip)).toBeLessThan(0.5 * size(grouped.ip));
  });

  it("smoothed: neighbouring classes' effects pulled together, a smooth truth kept", () => {
    // A smooth truth (a function of the grid position) plus noise that changes from class to class.
    const rowCol = (a: number) => [Math.floor(a / 13), a % 13] as const;
    const smoothTruth = (a: number, s: number) =>
      0.08 * Math.sin(0.4 * rowCol(a)[0] + 0.3 * rowCol(a)[1] + s);
    const noisy = {
      oop: new Float64Array(N).map((_, a) => smoothTruth(a, 0) + 0.04 * Math.sin(7.3 * a)),
      ip: new Float64Array(N).map((_, a) => smoothTruth(a, 1) + 0.04 * Math.cos(5.1 * a)),
    };
    const l = lineWithEffects(noisy);
    const plain = fitLineEffects(fit, table, model, l, "mixed", 1e-6);
    const smooth = fitLineEffects(fit, table, model, l, "mixed", 1e-6, undefined, 1e-2);
    const roughness = (e: Float64Array) =>
      CLASS_NEIGHBOURS.reduce((s, [a, b]) => s + Math.abs(e[a]! - e[b]!), 0) / CLASS_NEIGHBOURS.length;
    // Without smoothing the fit follows the noise; with it, neighbours differ about half as much (the truth's
    // own neighbours differ by about 0.02).
    expect(roughness(plain.ip)).toBeGreaterThan(0.04);
    expect(roughness(smooth.ip)).toBeLessThan(0.5 * roughness(plain.ip));
    // What is left is close to the smooth truth (up to the one constant the shares cannot see).
    const centred = (xs: ArrayLike<number>) => {
      const m = Array.from(xs).reduce((s, x) => s + x, 0) / N;
      return Array.from(xs, (x) => x - m);
    };
    const truthIp = centred(Array.from({ length: N }, (_, a) => smoothTruth(a, 1)));
    const gapTo = (e: Float64Array) => centred(e).reduce((s, x, a) => s + Math.abs(x - truthIp[a]!), 0) / N;
    expect(gapTo(smooth.ip)).toBeLessThan(0.75 * gapTo(plain.ip));
  });

  it("groups AA alone, the deuce-to-four pairs together, A5o-A2o with ATo-A6o, T8o with T7o", () => {
    const g = (name: string) => CLASS_GROUPS[HOLDEM_CLASSES.indexOf(name)];
    expect(HOLDEM_CLASSES.filter((c) => CLASS_GROUPS[HOLDEM_CLASSES.indexOf(c)] === g("AA"))).toEqual(["AA"]);
    expect(g("22")).toBe(g("44"));
    expect(g("44")).not.toBe(g("55"));
    expect(g("A2o")).toBe(g("ATo"));
    expect(g("A2o")).not.toBe(g("A2s"));
    expect(g("AKo")).not.toBe(g("AQo"));
    expect(g("T8o")).toBe(g("T7o"));
    expect(g("T9o")).not.toBe(g("T8o"));
  });

  it("fitted over two rounds of the line, average what each round says (the damped update)", () => {
    const negative = {
      oop: truth.oop.map((x) => -x),
      ip: truth.ip.map((x) => -x),
    };
    const other = lineWithEffects(negative);
    const pooled = fitLineEffects(fit, table, model, [line, other], "mixed", 1e-9);
    const one = fitLineEffects(fit, table, model, line, "mixed", 1e-9);
    const spread = (e: { oop: Float64Array; ip: Float64Array }) => {
      const xs = [...e.oop, ...e.ip];
      const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
      return xs.reduce((s, x) => s + Math.abs(x - mean), 0);
    };
    // The two rounds pull every class in opposite directions by the same amount: nearly nothing is left.
    expect(spread(pooled)).toBeLessThan(0.02 * spread(one));
  });

  it("give the solver's line matrices the realizations they predict", () => {
    const effects = fitLineEffects(fit, table, model, line, "mixed");
    const grounded = buildGroundedMatrices(
      { ...model, lines: [groundedLine("srp-btn-bb", { oop: "BB", ip: "BTN" }, "srp-ip", line, effects)] },
      table.eq,
      table.w,
    );
    const p = predictWithLineEffects(fit, table, model, line, effects);
    for (const side of ["oop", "ip"] as const) {
      const rowIsIp = side === "ip";
      const m =
        grounded.matrices[
          grounded.indexForKind({
            allIn: false,
            spr: 9,
            rowIsIp,
            initiative: rowIsIp ? "row" : "col",
            raises: 1,
            players: 2,
            rowSeat: rowIsIp ? "BTN" : "BB",
            colSeat: rowIsIp ? "BB" : "BTN",
          })
        ]!;
      const opp = line.ranges[rowIsIp ? "oop" : "ip"];
      for (let a = 0; a < N; a += 3) {
        let share = 0;
        let eq = 0;
        for (let b = 0; b < N; b++) {
          share += opp[b]! * m[a * N + b]!;
          eq += opp[b]! * table.w[a * N + b]! * table.eq[a * N + b]!;
        }
        // Rounded to 8 decimals in the file; the OOP-row matrix takes 1 - e(b, a) (the table's rounding).
        expect(share / eq).toBeCloseTo(p[side].get(a)!, 5);
      }
    }
  });

  it.each([
    ["srp-ip", 1],
    ["srp-oop", 1],
    ["3bp-ip", 2],
    ["3bp-oop", 2],
    ["4bp-ip", 3],
    ["limp", 0],
  ] as const)("counts the raises of a %s line: %d", (kind, raises) => {
    expect(raisesOfKind(kind)).toBe(raises);
  });
  it.each(["5bp-ip", "srp", "", "3bp"])("refuses the kind %j", (kind) => {
    expect(() => raisesOfKind(kind)).toThrow(/unknown line kind/);
  });
});
