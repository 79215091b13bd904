import { existsSync } from "node:fs";
import { defineConfig } from "tsup";
import { baseTsup, publicTsup } from "../../tsup.base.js";

// The solver's worker thread entry (src/engine/cfr-worker.ts) is built next to the chunks as
// dist/cfr-worker.js, where src/engine/parallel.ts looks for it (from the ESM build, the CommonJS build,
// whose import.meta.url is shimmed, and the CLI alike).
const entry: Record<string, string> = { index: "src/index.ts", hands: "src/hands.ts" };
if (existsSync("src/engine/cfr-worker.ts")) entry["cfr-worker"] = "src/engine/cfr-worker.ts";

// The library is ESM and CommonJS (published). The CLI (top-level await) is ESM only and stays in the
// repository; a second config builds it, and the first one's clean step keeps its files.
export default defineConfig([
  { ...publicTsup(entry), clean: ["!cli.js", "!cli.js.map"] },
  { ...baseTsup(["src/cli.ts"], false), clean: false },
]);
