import { defineConfig } from "tsup";
import { baseTsup } from "../../tsup.base.js";

export default defineConfig(baseTsup(["src/index.ts"]));
