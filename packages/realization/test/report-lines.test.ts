import { join } from "node:path";
import { loadHeadsUpEquity, repoRoot } from "@ranges/solver";
import { describe, expect, it } from "vitest";
import { fitReport, readBoards, type StoredBoard } from "../src/index.js";

// Committed solves: the nl/v2 100bb BTN-BB pot in round 0 (v3.3's ranges) and round 1 (prototype 5's), and
// the CO-BB pot in round 0.
const dir = (name: string) => join(repoRoot(), "data/realization", name);
const pick = (boards: StoredBoard[], line: string) => boards.filter((b) => b.line === line);
const round0 = readBoards(dir("round-0-balanced-br"));
const round1 = pick(readBoards(dir("round-1-balanced")), "srp-btn-bb");
const current = [...round1, ...pick(round0, "srp-co-bb")];
const table = loadHeadsUpEquity();

describe("the fit report's lines solved directly", () => {
  const report = fitReport(current, table, () => null, {
    minBoards: 6,
    weighting: "range",
    earlier: pick(round0, "srp-btn-bb"),
  });

  it("fits each line's own effects, pooled over its rounds, and writes them for the solver", () => {
    expect(report.lines.map((l) => l.pack).sort()).toEqual([
      "nl/v2/100/srp-btn-bb",
      "nl/v2/100/srp-btn-bb@earlier",
      "nl/v2/100/srp-co-bb",
    ]);
    expect(
      report.params.lines.map((l) => [l.id, l.oop, l.ip, l.raises, l.aggressor, l.game, l.stack]),
    ).toEqual(
      expect.arrayContaining([
        ["srp-btn-bb", "BB", "BTN", 1, "ip", "nl/v2", 100],
        ["srp-co-bb", "BB", "CO", 1, "ip", "nl/v2", 100],
      ]),
    );
    expect(report.params.lines).toHaveLength(2);
    for (const l of report.params.lines) {
      expect(l.effects.oop).toHaveLength(169);
      expect(l.effects.ip).toHaveLength(169);
    }
  });

  it("meets a line solved once far closer than the model alone does (in sample)", () => {
    const co = report.lines.find((l) => l.pack === "nl/v2/100/srp-co-bb")!;
    for (const side of ["oop", "ip"] as const) {
      const p = co.players[side];
      expect(p.withLineEffects!.meanAbsGap).toBeLessThan(0.5 * p.inSample!.meanAbsGap);
      expect(p.withLineEffects!.meanAbsGap).toBeLessThan(0.02);
    }
  });

  it("fits two rounds of a line with one set of effects, which meets neither round exactly", () => {
    const rounds = report.lines.filter((l) => l.pack.startsWith("nl/v2/100/srp-btn-bb"));
    const once = report.lines.find((l) => l.pack === "nl/v2/100/srp-co-bb")!;
    expect(rounds).toHaveLength(2);
    // Neither round is met exactly: the rounds' ranges differ and so do their numbers (their movement is
    // about 0.18), while the line solved once is met to its ridge.
    for (const l of rounds)
      for (const side of ["oop", "ip"] as const)
        expect(l.players[side].withLineEffects!.meanAbsGap).toBeGreaterThan(
          5 * once.players[side].withLineEffects!.meanAbsGap,
        );
  });

  it("takes no earlier round whose ranges are the current ones (the same round twice)", () => {
    const same = fitReport(current, table, () => null, { minBoards: 6, weighting: "range", earlier: round1 });
    expect(same.lines.map((l) => l.pack).sort()).toEqual(["nl/v2/100/srp-btn-bb", "nl/v2/100/srp-co-bb"]);
  });
});
