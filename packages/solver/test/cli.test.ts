import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The CLI as a user runs it (`pnpm solve` runs the built dist/cli.js).
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

describe("pnpm solve --help", () => {
  it("prints the usage, not the program", () => {
    const out = execFileSync(process.execPath, [cli, "--help"], { encoding: "utf8" });
    expect(out).toContain("pnpm solve --game nlmtt8 --stack 40");
    expect(out).toContain("--max-iterations N");
    expect(out).not.toMatch(/\bimport\b|\bfunction\b|=>/);
    expect(out.length).toBeLessThan(2_000);
  });
});
