import { describe, expect, it } from "vitest";
import type { LineRealization } from "../src/index.js";
import { MOVEMENT_BAR, roundMovement } from "../src/index.js";

/** A line with the given classes: [class, weight, realization] for both players alike. */
function line(pack: string, rows: [string, number, number][]): LineRealization {
  const player = (seat: string) => ({
    seat,
    realizedSolved: 1,
    realizedModel: null,
    meanAbsGap: null,
    correlation: null,
    classes: rows.map(([c, weight, realizedSolved]) => ({
      class: c,
      weight,
      realizedSolved,
      realizedModel: null,
    })),
  });
  return {
    pack,
    game: "nl/v2",
    stack: 100,
    line: pack,
    kind: "srp-ip",
    history: "h",
    potBb: 5.5,
    stackBb: 97.5,
    spr: 17.73,
    boards: 30,
    estimator: "ratio",
    boardWeight: 1,
    exploitabilityPct: { max: 1, median: 1 },
    players: { oop: player("BB"), ip: player("BTN") },
  };
}

describe("roundMovement", () => {
  it("is the later round's range-weighted mean absolute change, over the classes both rounds solved", () => {
    const before = [
      line("a", [
        ["AA", 0.5, 1.2],
        ["72o", 0.1, 0.3],
        ["KK", 0.2, 1.1],
      ]),
    ];
    // AA moves 0.02 at weight 0.3, 72o 0.2 at weight 0.1; QQ is new (not compared); KK is gone.
    const after = [
      line("a", [
        ["AA", 0.3, 1.22],
        ["72o", 0.1, 0.5],
        ["QQ", 0.4, 1.0],
      ]),
      line("b", [["AA", 1, 1]]),
    ];
    const m = roundMovement(before, after);
    expect(m.lines).toHaveLength(2);
    for (const l of m.lines) {
      expect(l.classes).toBe(2);
      expect(l.movement).toBeCloseTo((0.3 * 0.02 + 0.1 * 0.2) / 0.4, 4);
      expect(l.largest).toMatchObject({ class: "72o", before: 0.3, after: 0.5 });
    }
    expect(m.lines.map((l) => l.seat)).toEqual(["BB", "BTN"]);
    expect(m.onlyAfter).toEqual(["b"]);
    expect(m.max).toBeCloseTo(0.065, 4);
    expect(m.converged).toBe(false);
  });

  it("has converged when every line moved less than the bar (0.03), and not with nothing to compare", () => {
    const before = [
      line("a", [
        ["AA", 0.5, 1.2],
        ["KK", 0.5, 1.0],
      ]),
    ];
    const close = [
      line("a", [
        ["AA", 0.5, 1.2 + 0.029],
        ["KK", 0.5, 1.0 - 0.029],
      ]),
    ];
    expect(MOVEMENT_BAR).toBe(0.03);
    expect(roundMovement(before, close).converged).toBe(true);
    const far = [
      line("a", [
        ["AA", 0.5, 1.2 + 0.031],
        ["KK", 0.5, 1.0],
      ]),
    ];
    expect(roundMovement(before, far).max).toBeCloseTo(0.0155, 4);
    expect(
      roundMovement(before, [
        line("a", [
          ["AA", 0.5, 1.2 + 0.061],
          ["KK", 0.5, 1.0],
        ]),
      ]).converged,
    ).toBe(false);
    expect(roundMovement([], close).converged).toBe(false);
  });
});
