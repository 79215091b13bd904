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

/**
 * The build of a published package (`@ranges/core`, `schema`, `store`, `solver`): the ESM build of
 * `baseTsup` plus a CommonJS one, so both `import` and `require()` work on every supported Node.js
 * (`dist/index.js` + `index.d.ts` for `import`, `dist/index.cjs` + `index.d.cts` for `require`; see the
 * `exports` map of each package.json). `shims` gives the CommonJS build a working `import.meta.url` (the
 * solver finds its equity table with it). Entries that cannot be CommonJS (top-level await: the solver's
 * CLI) go through `baseTsup` instead.
 */
export const publicTsup = (entry: string[] | Record<string, string>): Options => ({
  ...baseTsup([]),
  entry,
  format: ["esm", "cjs"],
  shims: true,
});
