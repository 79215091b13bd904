import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type BatchPlan, planToJson } from "../src/index.js";
import { toyLine } from "./ranges.js";

// The CLI as a user runs it (the built dist/cli.js), on a plan file: `solve --jobs FILE [--lines a,b]`.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "realization-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two lines of one toy spot (test/ranges.ts toyLine): solved in a few milliseconds. */
const plan: BatchPlan = {
  jobs: ["srp-co-bb", "srp-btn-bb"].map((id) => ({
    line: toyLine(id),
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
    const run = solve(join(dir, "all"));
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("solved 2 boards");
  });
});
