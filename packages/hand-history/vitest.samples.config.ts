import { defineConfig } from "vitest/config";

// The optional sample files beside the repository (../shared/hand-histories): the `test:samples` task, never
// cached by turbo (see turbo.json), so it reads the folder as it is on every run. It passes, saying so, when
// the folder is absent (a clone has none).
export default defineConfig({
  test: { include: ["test/samples.test.ts"], testTimeout: 300_000, hookTimeout: 300_000 },
});
