import { defineConfig } from "tsup";
import { publicTsup } from "../../tsup.base.js";

// `pack-worker` is the store's helper process: `PackLoader` starts `dist/pack-worker.js` beside the library
// (from both the ESM and the CommonJS build).
export default defineConfig(publicTsup({ index: "src/index.ts", "pack-worker": "src/pack-worker.ts" }));
