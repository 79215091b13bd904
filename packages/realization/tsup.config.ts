import { defineConfig } from "tsup";
import { baseTsup } from "../../tsup.base.js";

// The library and its CLI, ESM.
export default defineConfig({
  ...baseTsup([]),
  entry: { index: "src/index.ts", cli: "src/cli.ts", "plo-cli": "src/plo-cli.ts" },
});
