import { defineConfig } from "tsup";
import { baseTsup } from "../../tsup.base.js";

// `parse-thread` is the worker thread uploads are parsed in: `HandParser` starts `dist/parse-thread.js` beside it.
export default defineConfig({
  ...baseTsup(["src/index.ts", "src/parse-thread.ts"]),
  removeNodeProtocol: false,
});
