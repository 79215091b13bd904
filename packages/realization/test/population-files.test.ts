import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { aggregate, readBoards, readPopulations, writePopulations } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "population-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Six committed boards of one line (the best-response floor: out-of-range classes at the floor's reach).
const boards = readBoards(new URL("../../../data/realization/round-0-balanced-br", import.meta.url).pathname)
  .filter((b) => b.line === "srp-btn-bb")
  .slice(0, 6);

describe("population files", () => {
  it("are written once per line and ranges, and turn the line's estimator to regression", () => {
    expect(boards).toHaveLength(6);
    const written = writePopulations(boards, dir, () => {}, 12);
    expect(written).toHaveLength(1);
    expect(readdirSync(dir)).toHaveLength(1);
    // resumable: the line's ranges are there already
    expect(writePopulations(boards, dir, () => {}, 12)).toHaveLength(0);

    const populations = readPopulations(dir);
    const [plain] = aggregate(boards);
    const [withPopulation] = aggregate(boards, undefined, populations);
    expect(plain!.estimator).toBe("ratio");
    expect(withPopulation!.estimator).toBe("regression");
    for (const side of ["oop", "ip"] as const) {
      const p = withPopulation!.players[side];
      expect(p.curveR2).toBeGreaterThan(0.3);
      expect(p.classes.length).toBe(plain!.players[side].classes.length);
      // the estimates move, but stay realizations
      const moved = p.classes.filter(
        (c, i) => Math.abs(c.realizedSolved - plain!.players[side].classes[i]!.realizedSolved) > 0.01,
      );
      expect(moved.length).toBeGreaterThan(10);
      expect(p.realizedSolved).toBeGreaterThan(0.3);
      expect(p.realizedSolved).toBeLessThan(1.5);
    }
  });

  it("are not used for boards solved with other ranges", () => {
    const other = boards.map((b) => ({ ...b, ranges: { oop: b.ranges.ip, ip: b.ranges.oop } }));
    const [line] = aggregate(other, undefined, readPopulations(dir));
    expect(line!.estimator).toBe("ratio");
  });
});
