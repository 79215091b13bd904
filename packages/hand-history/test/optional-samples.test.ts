/**
 * The optional sample files beside the repository (../shared/hand-histories) stay optional: only
 * `test/samples.test.ts` reads them, it is left out of the cached `test` task and runs in `test:samples`,
 * which turbo never caches; no test of the packages that read hand histories refers to ../shared.
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import config from "../vitest.config.js";
import samplesConfig from "../vitest.samples.config.js";
import { REPO_ROOT } from "./helpers.js";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    return statSync(path).isDirectory() ? files(path) : /\.(ts|mjs|js)$/.test(name) ? [path] : [];
  });
}

describe("optional samples", () => {
  it("no test of hand-history, hand-analysis, the API or the MCP server reads ../shared, except samples.test.ts", () => {
    const dirs = [
      "packages/hand-history/test",
      "packages/hand-analysis/test",
      "apps/api/test",
      "apps/mcp/test",
    ];
    const readers = dirs
      .flatMap((d) => files(join(REPO_ROOT, d)))
      .filter((f) => /\.\.\/shared|"shared", "hand-histories"|SHARED_SAMPLES/.test(readFileSync(f, "utf8")))
      .map((f) => f.slice(REPO_ROOT.length + 1));
    expect(readers.sort()).toEqual([
      "packages/hand-history/test/helpers.ts",
      "packages/hand-history/test/optional-samples.test.ts",
      "packages/hand-history/test/samples.test.ts",
    ]);
  });

  it("samples.test.ts is out of the cached test task and in test:samples, which turbo never caches", () => {
    expect(config.test?.exclude).toContain("test/samples.test.ts");
    expect(samplesConfig.test?.include).toEqual(["test/samples.test.ts"]);
    const turbo = JSON.parse(readFileSync(join(REPO_ROOT, "packages/hand-history/turbo.json"), "utf8"));
    expect(turbo.tasks["test:samples"].cache).toBe(false);
    expect(turbo.tasks.test.dependsOn).toContain("test:samples");
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "packages/hand-history/package.json"), "utf8"));
    expect(pkg.scripts["test:samples"]).toBe("vitest run --config vitest.samples.config.ts");
  });
});
