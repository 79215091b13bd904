#!/usr/bin/env node
/**
 * Lints the OpenAPI document of the API with Redocly's recommended rules; any error fails.
 *
 *   pnpm lint:openapi                        (builds @ranges/schema first)
 *   node scripts/lint-openapi.mjs [--out openapi.json] [--cli @redocly/cli@latest]
 *
 * The document is the one the API serves at /api/v1/openapi.json: `buildOpenApiDocument()` of the built
 * @ranges/schema (packages/schema/dist). It is written to a temporary file (or `--out`) and checked with
 * `npx --yes @redocly/cli@latest lint <file>`, which needs the npm registry the first time.
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: { out: { type: "string" }, cli: { type: "string", default: "@redocly/cli@latest" } },
});

const { buildOpenApiDocument } = await import(
  pathToFileURL(join(root, "packages", "schema", "dist", "index.js")).href
);
const dir = values.out ? null : mkdtempSync(join(tmpdir(), "ranges-openapi-"));
const file = values.out ? resolve(values.out) : join(dir, "openapi.json");
writeFileSync(file, `${JSON.stringify(buildOpenApiDocument("/"), null, 2)}\n`);
const args = ["--yes", values.cli, "lint", file, "--format=stylish"];
process.stdout.write(`$ npx ${args.join(" ")}\n`);
let status = 0;
try {
  execFileSync("npx", args, { stdio: "inherit", env: { ...process.env, REDOCLY_TELEMETRY: "off" } });
} catch (error) {
  status = typeof error.status === "number" && error.status !== 0 ? error.status : 1;
} finally {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
