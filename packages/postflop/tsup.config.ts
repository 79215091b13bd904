import { defineConfig } from "tsup";
import { baseTsup } from "../../tsup.base.js";

// The library, its worker thread entries (dist/worker.js and dist/subgame-worker.js, next to the chunks, where src/parallel.ts looks for
// it) and the CLI, all ESM.
export default defineConfig({
  ...baseTsup([]),
  entry: {
    index: "src/index.ts",
    worker: "src/worker.ts",
    "subgame-worker": "src/subgame-worker.ts",
    cli: "src/cli.ts",
    "packs-cli": "src/packs-cli.ts",
  },
});
