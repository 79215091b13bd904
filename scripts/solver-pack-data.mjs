#!/usr/bin/env node
/**
 * The data `@ranges/solver` needs at run time when installed from its tarball, put in place for `pnpm pack`
 * / `pnpm publish` (the package's `prepack`) and removed again afterwards (`postpack`).
 *
 *   node scripts/solver-pack-data.mjs copy    data/equity/holdem-{hu,multiway}.bin -> packages/solver/dist/data/equity/
 *   node scripts/solver-pack-data.mjs clean   removes packages/solver/dist/data
 *
 * Only the equity tables ship (heads-up, about 280 KB; multiway, about 2.7 MB): `loadHeadsUpEquity()` and
 * `loadMultiwayTable()` (and so `solvePreflop` without `equity` and `multiway` options) find them under
 * `data/equity/` in the nearest folder above the module, which in the tarball is `dist/`. Tree configs (`data/trees`) and packs (`data/packs`) do not ship: `repoRoot`,
 * `treeConfigPath`, `defaultPacksDir` and the `pnpm solve` CLI work in a checkout of the repository only.
 * The copy lives under `dist/` (git-ignored, wiped by the next build) and only while packing, so solves in
 * the repository always read the committed table.
 */

import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const FILES = ["holdem-hu.bin", "holdem-multiway.bin"];

const command = process.argv[2];
if (command === "copy") {
  for (const file of FILES) {
    const source = join(root, "data", "equity", file);
    const target = join(root, "packages", "solver", "dist", "data", "equity", file);
    if (!existsSync(source)) {
      console.error(`solver-pack-data: ${source} is missing; it ships in @ranges/solver.`);
      process.exit(1);
    }
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target);
  }
} else if (command === "clean") {
  rmSync(join(root, "packages", "solver", "dist", "data"), { recursive: true, force: true });
} else {
  console.error("usage: node scripts/solver-pack-data.mjs copy|clean");
  process.exit(2);
}
