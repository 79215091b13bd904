import { existsSync } from "node:fs";
import { defineConfig } from "tsup";
import { publicTsup } from "../../tsup.base.js";

// `pack-worker` is the store's loader thread: `PackLoader` starts `dist/pack-worker.js` beside the library
// (from both the ESM and the CommonJS build). Built when the sources have it.
const entry: Record<string, string> = { index: "src/index.ts" };
if (existsSync("src/pack-worker.ts")) entry["pack-worker"] = "src/pack-worker.ts";

export default defineConfig(publicTsup(entry));
