import { configDefaults, defineConfig } from "vitest/config";

// Generous limits: CI runs every package's tests at once on two cores, and no test may fail on speed alone.
// `test/samples.test.ts` reads files outside the repository (../shared/hand-histories, when present): it runs
// in its own task, `test:samples` (vitest.samples.config.ts), which turbo never caches, so a cached `test`
// never stands for a result that depended on those files.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "test/samples.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
