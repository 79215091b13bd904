import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOLDEM_CLASSES } from "@ranges/core";
import { afterAll, describe, expect, it } from "vitest";
import {
  aggregate,
  type BatchPlan,
  blendPlan,
  DEFAULT_SETTINGS,
  EARLIER_DCFR,
  type FlopLine,
  inputsHash,
  lineConfig,
  planFromJson,
  planLines,
  planToJson,
  REALIZATION_DCFR,
  readBoards,
  runBatch,
  type SolveSettings,
  withFloor,
} from "../src/index.js";
import { toyLine, weights } from "./ranges.js";

const dir = mkdtempSync(join(tmpdir(), "realization-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** OOP holds a full house or better on the board, IP two underpairs that can barely win. */
const line: FlopLine = toyLine();
const settings: SolveSettings = { ...DEFAULT_SETTINGS, targetPct: 2, maxIterations: 60, threads: 1 };
const plan = (): BatchPlan => ({
  jobs: [{ line, board: "AhAdKc", weight: 1, file: join(dir, "toy-AhAdKc.json") }],
  skipped: [],
});

describe("the realization batch", () => {
  it("solves a board, then skips it when its file holds the same inputs", async () => {
    expect(await runBatch(plan(), settings)).toBe(1);
    expect(await runBatch(plan(), settings)).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, "toy-AhAdKc.json"), "utf8"));
    expect(stored.exploitabilityPct).toBeLessThanOrEqual(2);
    expect(stored.ranges.oop[0]).toBe(1);
    // No rake: the two ranges' root values add up to the pot.
    expect(stored.rootEv.oop + stored.rootEv.ip).toBeCloseTo(10, 3);
    // Other inputs (a tighter target) solve it again.
    expect(await runBatch(plan(), { ...settings, targetPct: 1 })).toBe(1);
  });

  it("keeps a board solved with the earlier schedule (the packs') and solves one of another schedule again", async () => {
    const file = join(dir, "schedules", "toy-AhAdKc.json");
    const one = (): BatchPlan => ({ jobs: [{ ...plan().jobs[0]!, file }], skipped: [] });
    mkdirSync(join(dir, "schedules"));
    expect(await runBatch(one(), settings)).toBe(1);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    const config = lineConfig(line, "AhAdKc", settings.tree);
    expect(stored.inputsHash).toBe(inputsHash(config, settings, REALIZATION_DCFR));
    // Rewritten as if the packs' schedule had solved it: still finished.
    const earlier = inputsHash(config, settings, EARLIER_DCFR);
    expect(earlier).not.toBe(stored.inputsHash);
    writeFileSync(file, JSON.stringify({ ...stored, inputsHash: earlier }));
    expect(await runBatch(one(), settings)).toBe(0);
    // A third schedule's board is not.
    writeFileSync(
      file,
      JSON.stringify({
        ...stored,
        inputsHash: inputsHash(config, settings, { alpha: 2, beta: 0, gamma: 2 }),
      }),
    );
    expect(await runBatch(one(), settings)).toBe(1);
  });

  it("stops a board at its time limit, says so in its file, and solves it again on the next run", async () => {
    const file = join(dir, "late", "toy-AhAdKc.json");
    const late = (): BatchPlan => ({ jobs: [{ ...plan().jobs[0]!, file }], skipped: [] });
    mkdirSync(join(dir, "late"));
    const strict = { ...settings, targetPct: 0.0001, maxIterations: 1000 };
    expect(await runBatch(late(), { ...strict, maxSeconds: 0.001 })).toBe(1);
    const stopped = JSON.parse(readFileSync(file, "utf8"));
    expect(stopped.stoppedEarly).toBe(true);
    expect(stopped.iterations).toBeLessThan(1000);
    expect(stopped.exploitabilityPct).toBeGreaterThan(0.0001);
    // Same inputs hash, but stopped early: solved again.
    expect(await runBatch(late(), { ...strict, maxSeconds: 0.001 })).toBe(1);
    // A board that reaches its target within the limit is finished.
    expect(await runBatch(late(), { ...settings, maxSeconds: 600 })).toBe(1);
    expect(JSON.parse(readFileSync(file, "utf8")).stoppedEarly).toBeUndefined();
    expect(await runBatch(late(), settings)).toBe(0);
  });

  it("with a range floor puts every class of both players in the solve, as other inputs", () => {
    const floored = lineConfig(line, "AhAdKc", settings.tree, 0.005);
    for (const side of ["oop", "ip"] as const) {
      const classes = floored.ranges[side].split(",");
      expect(classes).toHaveLength(169);
      expect(classes).toContain("72o:0.005");
    }
    // The pack's own classes keep their weight; without a floor the range is the pack's alone.
    expect(floored.ranges.oop.split(",")).toContain("AA");
    expect(lineConfig(line, "AhAdKc", settings.tree).ranges.oop).toBe("AA,KK");
    const hash = (floor?: number) => inputsHash(lineConfig(line, "AhAdKc", settings.tree, floor), settings);
    expect(hash()).not.toBe(hash(0.005));
    expect(Math.min(...withFloor(line.ranges.ip, 0.005))).toBe(0.005);
    expect(withFloor(line.ranges.ip, 0)).toBe(line.ranges.ip);
  });

  it("with best-response floors solves the pack's ranges and counts every other class at the floor weight", async () => {
    const br: SolveSettings = { ...settings, rangeFloor: 0.005, floorBy: "best-response" };
    mkdirSync(join(dir, "br"), { recursive: true });
    const file = join(dir, "br", "toy-AhAdKc.json");
    const one = (): BatchPlan => ({ jobs: [{ line, board: "AhAdKc", weight: 1, file }], skipped: [] });
    expect(await runBatch(one(), br)).toBe(1);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored).toMatchObject({ rangeFloor: 0.005, floorBy: "best-response" });
    // The solve held the pack's ranges only (the file records those), so the inputs differ from a floored
    // solve's and from an unfloored one's.
    expect(stored.ranges.oop.filter((w: number) => w > 0)).toHaveLength(2);
    expect(stored.inputsHash).not.toBe(inputsHash(lineConfig(line, "AhAdKc", settings.tree), settings));
    expect(await runBatch(one(), br)).toBe(0);
    const at = (c: string) => HOLDEM_CLASSES.indexOf(c as (typeof HOLDEM_CLASSES)[number]);
    for (const side of ["oop", "ip"] as const) {
      // Every class that can be dealt on the board has sums, the pack's own at their reach.
      const held = stored[side].eq.filter((x: number) => x > 0).length;
      expect(held).toBeGreaterThan(150);
    }
    // IP's 72o (left out) against OOP's full houses: nothing to win, and a best response never pays more in.
    expect(stored.ip.ev[at("72o")]).toBeCloseTo(0, 3);
    // OOP's 22 (left out) makes a full house too: it gets its equity's worth or more against the underpairs.
    const r22 = stored.oop.ev[at("22")] / stored.oop.eq[at("22")];
    expect(r22).toBeGreaterThan(0.9);
  });

  it("gives the nut range its whole pot and the drawing-dead range nothing", () => {
    const [agg] = aggregate(readBoards(dir));
    expect(agg!.players.oop.realizedSolved).toBeGreaterThan(0.97);
    expect(agg!.players.oop.realizedSolved).toBeLessThan(1.2);
    expect(agg!.players.ip.realizedSolved).toBeLessThan(0.1);
    expect(agg!.spr).toBe(1);
  });

  it("shards jobs by index and keeps a plan through JSON", async () => {
    const two: BatchPlan = {
      jobs: [plan().jobs[0]!, { ...plan().jobs[0]!, board: "2c3d4h", file: join(dir, "x.json") }],
      skipped: [],
    };
    const back = planFromJson(planToJson(two), "/elsewhere");
    expect(back.jobs.map((j) => j.file)).toEqual(["/elsewhere/toy-AhAdKc.json", "/elsewhere/x.json"]);
    expect(Array.from(back.jobs[0]!.line.ranges.oop)).toEqual(Array.from(line.ranges.oop));
    // Shard 0 of 2 owns only the first job, already solved with these inputs; the second is shard 1's.
    expect(await runBatch(two, { ...settings, targetPct: 1 }, { shard: { index: 0, count: 2 } })).toBe(0);
  });

  it("keeps the jobs of the lines asked for, in the plan's order, and refuses a line the plan lacks", () => {
    const job = (id: string, board: string) => ({ ...plan().jobs[0]!, line: { ...line, id }, board });
    const three: BatchPlan = {
      jobs: [job("a", "AhAdKc"), job("b", "2c3d4h"), job("a", "7s7h2d")],
      skipped: [{ game: "nl/v2", stack: 100, line: "c", why: "none" }],
    };
    const kept = planLines(three, ["a"]);
    expect(kept.jobs.map((j) => `${j.line.id} ${j.board}`)).toEqual(["a AhAdKc", "a 7s7h2d"]);
    expect(kept.skipped).toEqual(three.skipped);
    expect(planLines(three, ["b", "a"]).jobs.map((j) => j.board)).toEqual(["AhAdKc", "2c3d4h", "7s7h2d"]);
    expect(() => planLines(three, ["a", "srp-co-bb"])).toThrow(/no jobs for srp-co-bb; its lines: a, b/);
    expect(() => planLines({ jobs: [], skipped: [] }, ["a"])).toThrow(/its lines: none/);
  });

  it("blends a plan's ranges with an earlier plan's, line by line", () => {
    const later = weights(["AA", "KK"]);
    const earlierOop = weights(["AA", "QQ"]);
    const make = (oop: Float64Array, reach: number, boards: string[]): BatchPlan => ({
      jobs: boards.map((board) => ({
        line: { ...line, ranges: { oop, ip: line.ranges.ip }, reach },
        board,
        weight: 1,
        file: join(dir, `blend-${board}.json`),
      })),
      skipped: [],
    });
    const now = make(later, 0.2, ["AhAdKc", "2c3d4h"]);
    const before = make(earlierOop, 0.4, ["7s7h2d"]);
    const blended = blendPlan(now, before, 0.25);
    const at = (r: ArrayLike<number>, c: string) =>
      r[HOLDEM_CLASSES.indexOf(c as (typeof HOLDEM_CLASSES)[number])];
    // Boards and files stay the later plan's; every job of a line gets the same blended ranges.
    expect(blended.jobs.map((j) => j.board)).toEqual(["AhAdKc", "2c3d4h"]);
    expect(blended.jobs[1]!.file).toBe(now.jobs[1]!.file);
    for (const j of blended.jobs) {
      expect(at(j.line.ranges.oop, "AA")).toBeCloseTo(1, 12);
      expect(at(j.line.ranges.oop, "KK")).toBeCloseTo(0.75, 12);
      expect(at(j.line.ranges.oop, "QQ")).toBeCloseTo(0.25, 12);
      expect(at(j.line.ranges.oop, "JJ")).toBe(0);
      expect(at(j.line.ranges.ip, "QQ")).toBe(1);
      expect(j.line.reach).toBeCloseTo(0.25, 12);
    }
    // The inputs are not changed.
    expect(at(now.jobs[0]!.line.ranges.oop, "QQ")).toBe(0);
    // A share of 0 gives the later plan's ranges back.
    expect(Array.from(blendPlan(now, before, 0).jobs[0]!.line.ranges.oop)).toEqual(Array.from(later));
  });

  it("refuses a blend the two plans do not support", () => {
    const one: BatchPlan = plan();
    const other = (change: Partial<FlopLine>): BatchPlan => ({
      jobs: [{ ...plan().jobs[0]!, line: { ...line, ...change } }],
      skipped: [],
    });
    for (const share of [1, 1.5, -0.1, Number.NaN])
      expect(() => blendPlan(one, one, share)).toThrow(/share must be at least 0 and below 1/);
    expect(() => blendPlan(one, other({ id: "other" }), 0.5)).toThrow(
      /earlier plan has no line nl\/v2\/100\/toy/,
    );
    expect(() => blendPlan(one, other({ stack: 40 }), 0.5)).toThrow(/earlier plan has no line/);
    expect(() => blendPlan(one, other({ pot: 12 }), 0.5)).toThrow(/differs between the plans/);
    expect(() => blendPlan(one, other({ behind: 8 }), 0.5)).toThrow(/differs between the plans/);
    expect(() => blendPlan(one, other({ history: "else" }), 0.5)).toThrow(/differs between the plans/);
  });
});
