import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { encodePack, packPath, readPackFile } from "@ranges/store";
import { describe, expect, it } from "vitest";
import { loadHeadsUpEquity } from "../src/equity/index.js";
import { defaultPacksDir, treeConfigPath } from "../src/solve/files.js";
import { solvePreflop, toPackData } from "../src/solve/preflop.js";
import { loadTreeConfig } from "../src/tree/config.js";

// The smallest committed pack: nlmtt8 at 10bb (all-in or fold).
const file = packPath(defaultPacksDir(), "nlmtt8", 10);
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("committed packs are reproducible", () => {
  it("re-solving nlmtt8 10bb gives the committed file byte for byte", async () => {
    const committed = await readPackFile(file);
    const p = committed.header.provenance;
    const config = loadTreeConfig(treeConfigPath("nlmtt8"));
    // The committed solve stopped at its exploitability target; run exactly as many iterations.
    const result = solvePreflop({
      config,
      stack: 10,
      equity: loadHeadsUpEquity(),
      maxIterations: p.iterations!,
      maxSeconds: Number.POSITIVE_INFINITY,
      targetPctPot: -1,
    });
    const pack = toPackData(result, config, {
      createdAt: p.createdAt,
      configPath: p.treeConfig,
      seed: p.seed!,
      solveSeconds: p.solveSeconds!,
    });
    expect(pack.header.provenance.exploitability).toEqual(p.exploitability);
    expect(sha(encodePack(pack))).toBe(sha(readFileSync(file)));
  }, 120_000);
});
