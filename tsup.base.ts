import type { Options } from "tsup";

/** Shared build for every package: ESM with declarations, one entry per public file. */
export const baseTsup = (entry: string[], dts = true): Options => ({
  entry,
  format: ["esm"],
  dts,
  sourcemap: true,
  clean: true,
  target: "node22",
  platform: "node",
});
