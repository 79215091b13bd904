import { defineConfig } from "tsup";
import { baseTsup } from "../../tsup.base.js";

// `solve-thread` is the worker thread a solve runs in: `SolveWorker` starts `dist/solve-thread.js` beside it;
// `size-thread` is where `SpecSizer` builds and sizes requested trees.
export default defineConfig({
  ...baseTsup(["src/index.ts", "src/solve-thread.ts", "src/size-thread.ts"]),
  removeNodeProtocol: false,
});
