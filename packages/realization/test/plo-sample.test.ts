import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PLO_CLASS_COUNT, ploClassIndex } from "@ranges/core";
import { ploClassFeatures, ploHandsOfClass } from "@ranges/solver";
import { afterAll, describe, expect, it } from "vitest";
import {
  type FlopLine,
  type PloSampleRecord,
  type PloSampleSettings,
  planPloSamples,
  ploCategory,
  ploLineCombos,
  ploSampleDone,
  ploSampleFile,
  poolPloSamples,
  readPloSamples,
  runPloSample,
} from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "realization-plo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A PLO single-raised pot with a handful of classes a side (shallow, for speed). */
function ploLine(oop: Record<string, number>, ip: Record<string, number>): FlopLine {
  const weights = (r: Record<string, number>) => {
    const w = new Float64Array(PLO_CLASS_COUNT);
    for (const [cls, x] of Object.entries(r)) w[ploClassIndex(cls)!] = x;
    return w;
  };
  return {
    id: "srp-btn-bb",
    kind: "srp-ip",
    game: "plo",
    stack: 100,
    history: "UTG_Fold_HJ_Fold_CO_Fold_BTN_Open_SB_Fold_BB_Call",
    description: "BTN raises to 3.5bb, BB calls",
    oop: "BB",
    ip: "BTN",
    aggressor: "ip",
    pot: 7.5,
    behind: 12, // a shallow pot: few bets, so the tests' flop solves take seconds

    rake: null,
    ranges: { oop: weights(oop), ip: weights(ip) },
    reach: 0.2,
  };
}

const LINE = ploLine({ "(98)(76)": 1, KK72: 0.5, "(A5)43": 1 }, { "(AK)(AK)": 1, JT98: 1, QQ63: 0.25 });
const SETTINGS: PloSampleSettings = {
  chunk: 8,
  seed: 3,
  targetPct: 5,
  maxIterations: 10,
  checkEvery: 10,
  betting: { bets: [1], raises: [1], raiseCap: 1 },
};

describe("PLO realization samples", () => {
  it("plans subgame-major: every line's flops once before any second subgame", () => {
    const jobs = planPloSamples(
      [
        { game: "plo", stack: 100, line: "srp-btn-bb" },
        { game: "plo", stack: 100, line: "3bp-bb-btn" },
      ],
      { boards: 3, subgames: 2 },
    );
    expect(jobs).toHaveLength(12);
    expect(jobs.slice(0, 6).every((j) => j.subgame === 0)).toBe(true);
    expect(jobs.slice(6).every((j) => j.subgame === 1)).toBe(true);
    // each line its own flops, the same in both subgames
    const flops = (line: string, s: number) =>
      jobs.filter((j) => j.line === line && j.subgame === s).map((j) => j.board);
    expect(flops("srp-btn-bb", 0)).toEqual(flops("srp-btn-bb", 1));
    expect(flops("srp-btn-bb", 0)).not.toEqual(flops("3bp-bb-btn", 0));
    expect(() => planPloSamples([], { boards: 3, subgames: 0 })).toThrow(/subgames/);
  });

  it("turns a line's class weights into every concrete hand of each class, at the class's weight", () => {
    const [oop, ip] = ploLineCombos(LINE);
    const hands = (cls: string) => ploHandsOfClass(ploClassIndex(cls)!).length;
    expect(oop).toHaveLength(hands("(98)(76)") + hands("KK72") + hands("(A5)43"));
    expect(ip).toHaveLength(hands("(AK)(AK)") + hands("JT98") + hands("QQ63"));
    expect(new Set(oop.filter((c) => c.cls === "KK72").map((c) => c.weight))).toEqual(new Set([0.5]));
    expect(() => ploLineCombos({ ...LINE, game: "nl/v2" })).toThrow(/not a PLO game/);
  });

  it("solves a subgame into a file, the same deal and numbers when run again, and pools it per class", () => {
    const [job] = planPloSamples([{ game: "plo", stack: 100, line: "srp-btn-bb" }], {
      boards: 1,
      subgames: 1,
    });
    const first = runPloSample(job!, LINE, SETTINGS, join(dir, "a"));
    const again = runPloSample(job!, LINE, SETTINGS, join(dir, "b"));
    expect(ploSampleDone(job!, join(dir, "a"))).toBe(true);
    expect(readdirSync(join(dir, "a"))).toEqual([ploSampleFile(job!)]);
    expect(again.combos).toEqual(first.combos);
    expect(first.combos.oop).toHaveLength(8);
    expect(first.combos.ip).toHaveLength(8);
    expect(first.iterations).toBeGreaterThan(0);
    const back = JSON.parse(readFileSync(join(dir, "a", ploSampleFile(job!)), "utf8")) as PloSampleRecord;
    expect(back.combos).toEqual(first.combos);
    const [pooled] = poolPloSamples(readPloSamples(join(dir, "a")));
    expect(pooled!.subgames).toBe(1);
    expect(pooled!.oop).toBe("BB");
    for (const side of [pooled!.classes.oop, pooled!.classes.ip]) {
      expect(side.reduce((a, c) => a + c.appearances, 0)).toBe(8);
      for (const c of side) expect(Number.isFinite(c.ev)).toBe(true);
    }
    // the two players' values add up to the pot, deal by deal: a check that EVs are in chips of this pot
    const mean = (rows: PloSampleRecord["combos"]["oop"]) => {
      let w = 0;
      let ev = 0;
      for (const [, compat, value] of rows) {
        w += compat;
        ev += compat * value;
      }
      return ev / w;
    };
    expect(mean(first.combos.oop) + mean(first.combos.ip)).toBeCloseTo(7.5, 6);
  });

  it("refuses to pool samples solved with other settings in one folder", () => {
    const [job] = planPloSamples([{ game: "plo", stack: 100, line: "srp-btn-bb" }], {
      boards: 1,
      subgames: 2,
    }).slice(1);
    runPloSample(job!, LINE, { ...SETTINGS, chunk: 6 }, join(dir, "a"));
    expect(() => poolPloSamples(readPloSamples(join(dir, "a")))).toThrow(/other settings/);
    expect(() => runPloSample(job!, { ...LINE, id: "srp-co-bb" }, SETTINGS, join(dir, "c"))).toThrow(
      /not the job's/,
    );
  });

  it.each([
    ["(98)(76)", "rundown ds"],
    ["(98)76", "rundown ss"],
    ["9876", "rundown other"],
    ["AAKK", "AAxx"],
    ["(AK)(AK)", "AAxx"],
    ["KK72", "paired"],
    ["(KQ)(J9)", "connected ds"],
    ["(A5)92", "suited ace"],
    ["K952", "other other"],
  ])("sorts %s as %s", (cls, category) => {
    expect(ploCategory(ploClassFeatures()[ploClassIndex(cls)!]!)).toBe(category);
  });
});

describe("plo-cli as a user runs it", () => {
  const cli = fileURLToPath(new URL("../dist/plo-cli.js", import.meta.url));
  const packsDir = fileURLToPath(new URL("../../../data/packs", import.meta.url));
  const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });

  it("samples a line of the committed plo pack, resumes, and pools it", () => {
    const out = join(dir, "cli");
    const args = [
      "sample",
      "--packs",
      "plo:50",
      "--packs-dir",
      packsDir,
      "--lines",
      "4bp-co-btn",
      "--boards",
      "1",
      "--subgames",
      "1",
      "--chunk",
      "6",
      "--target",
      "20",
      "--max-iterations",
      "2",
      "--check-every",
      "2",
      "--out",
      out,
    ];
    const first = run(...args);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/solved 1 subgames/);
    const second = run(...args);
    expect(second.status).toBe(0);
    expect(second.stderr).toMatch(/1 subgames, 0 not yet solved/);
    const pooled = run("pool", "--in", out, "--out", join(dir, "pooled.json"));
    expect(pooled.status, pooled.stderr).toBe(0);
    expect(pooled.stdout).toMatch(/plo 50bb 4bp-co-btn \(4bp-oop\): 1 flops, 1 subgames/);
    expect(JSON.parse(readFileSync(join(dir, "pooled.json"), "utf8"))).toHaveLength(1);
  });

  it.each([
    [["sample"], /sample needs --out/],
    [["sample", "--out", "x", "--chunk", "0"], /--chunk must be a positive whole number/],
    [["sample", "--out", "x", "--bets", "1.5"], /--bets takes pot fractions/],
    [["sample", "--out", "x", "--lines", "srp-xx"], /unknown line "srp-xx"/],
    [["sample", "--out", "x", "--shard", "2/2"], /--shard takes k\/n/],
    [["pool"], /pool needs --in/],
    [["sample", "--colour", "red"], /Unknown option/],
  ])("refuses %j with a clear message", (args, message) => {
    const r = run(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("creates no output folder when it refuses the options", () => {
    run("sample", "--out", join(dir, "refused"), "--chunk", "0");
    expect(readdirSync(dir)).not.toContain("refused");
  });
});
