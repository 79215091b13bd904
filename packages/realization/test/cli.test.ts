import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HOLDEM_CLASSES } from "@ranges/core";
import { afterAll, describe, expect, it } from "vitest";
import { type BatchPlan, type FlopLine, planToJson } from "../src/index.js";

// The CLI as a user runs it (the built dist/cli.js), on a plan file: `solve --jobs FILE [--lines a,b]`.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "realization-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const weights = (classes: string[]) => {
  const w = new Float64Array(169);
  for (const c of classes) w[HOLDEM_CLASSES.indexOf(c as (typeof HOLDEM_CLASSES)[number])] = 1;
  return w;
};
/** Two lines of one toy spot (OOP's full houses against IP's underpairs): solved in a few milliseconds. */
const line = (id: string): FlopLine => ({
  id,
  kind: "srp-oop",
  game: "nl/v2",
  stack: 100,
  history: id,
  description: "toy",
  oop: "SB",
  ip: "BB",
  aggressor: "oop",
  pot: 10,
  behind: 10,
  rake: null,
  ranges: { oop: weights(["AA", "KK"]), ip: weights(["QQ", "JJ"]) },
  reach: 1,
});
const plan: BatchPlan = {
  jobs: ["srp-co-bb", "srp-btn-bb"].map((id) => ({
    line: line(id),
    board: "AhAdKc",
    weight: 1,
    file: `nl-v2-100-${id}-AhAdKc.json`,
  })),
  skipped: [],
};
const planFile = join(dir, "plan.json");
writeFileSync(planFile, planToJson(plan));
const solve = (out: string, ...extra: string[]) =>
  spawnSync(
    process.execPath,
    [
      cli,
      "solve",
      "--jobs",
      planFile,
      "--out",
      out,
      "--target",
      "2",
      "--max-iterations",
      "60",
      "--threads",
      "1",
      ...extra,
    ],
    { encoding: "utf8" },
  );

describe("realization solve --jobs FILE --lines", () => {
  it("solves only the lines named", () => {
    const out = join(dir, "one");
    const run = solve(out, "--lines", "srp-co-bb");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("solved 1 boards");
    expect(readdirSync(out)).toEqual(["nl-v2-100-srp-co-bb-AhAdKc.json"]);
  });

  it("refuses a line the plan has no jobs for, and solves nothing", () => {
    const out = join(dir, "none");
    const run = solve(out, "--lines", "srp-co-bb,srp-utg-bb");
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("--lines with --jobs: the plan has no jobs for srp-utg-bb");
    expect(existsSync(join(out, "nl-v2-100-srp-co-bb-AhAdKc.json"))).toBe(false);
  });

  it("without --lines solves every job of the plan", () => {
    const out = join(dir, "all");
    expect(
      execFileSync(
        process.execPath,
        [
          cli,
          "solve",
          "--jobs",
          planFile,
          "--out",
          out,
          "--target",
          "2",
          "--max-iterations",
          "60",
          "--threads",
          "1",
        ],
        { encoding: "utf8" },
      ),
    ).toContain("solved 2 boards");
  });
});
