import { defineConfig } from "tsup";
import { baseTsup } from "../../tsup.base.js";

// The library only, ESM with declarations.
export default defineConfig(baseTsup(["src/index.ts"]));
