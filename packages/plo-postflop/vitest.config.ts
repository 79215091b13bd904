import { defineConfig } from "vitest/config";

// Generous limits: CI runs every package's tests at once on two cores, and no test may fail on speed alone.
export default defineConfig({
  test: { include: ["test/**/*.test.ts"], testTimeout: 300_000, hookTimeout: 300_000 },
});
