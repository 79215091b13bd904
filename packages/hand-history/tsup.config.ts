import { defineConfig } from "tsup";
import { publicTsup } from "../../tsup.base.js";

export default defineConfig(publicTsup(["src/index.ts"]));
