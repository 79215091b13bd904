import { defineConfig } from "tsup";
import { baseTsup } from "../../tsup.base.js";

// node:sqlite exists only under its node: name, so the prefix must survive the build.
export default defineConfig({ ...baseTsup(["src/index.ts"]), removeNodeProtocol: false });
