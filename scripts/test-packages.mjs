#!/usr/bin/env node
/**
 * Packs every public package and uses the tarballs the way a user of the npm registry would:
 *
 *   node scripts/test-packages.mjs [--keep] [--skip-threads]
 *
 * 1. `pnpm pack` in packages/core, schema, store, solver and hand-history (their `prepack` builds them
 *    through turbo; the solver's also adds the heads-up equity table). pnpm rewrites `workspace:*` to the
 *    version, as `pnpm publish` and `changeset publish` do.
 * 2. Checks each tarball: no `workspace:` left, our dependencies pinned to the sibling versions, README,
 *    LICENSE, the ESM and CommonJS builds and both declaration files present, no sources or tests, and
 *    nothing the package.json does not point at missing.
 * 3. Installs the tarballs together with npm into a temporary project outside the workspace, so
 *    dependencies between our packages resolve to the sibling tarballs (checked in package-lock.json) and
 *    third-party ones (zod, lru-cache) come from the registry, and uses them:
 *    - from ESM (`import`) and from CommonJS (`require()`): a raise size, an unknown game answered with
 *      `RangesError` `unknown_game`, the OpenAPI document, a short solve with the shipped equity table
 *      written as a pack, read back by `RangeStore` and validated by `NodeSchema`, a hand history parsed,
 *      written back in PokerStars' format and parsed again;
 *    - from TypeScript: `tsc --noEmit` with `moduleResolution` `node16` (an ESM .ts and a CommonJS .cts
 *      file) and `bundler`.
 *
 * When the solver has a worker-thread entry (src/engine/cfr-worker.ts), the tarball must hold
 * dist/cfr-worker.js and a solve on 2 threads runs from the installed package too (`--skip-threads` skips
 * that solve, not the file check).
 *
 * Needs the npm registry for zod, lru-cache and @types/node. Exits non-zero on the first failure. The
 * temporary folder is removed unless `--keep` is given.
 */

import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");

/** Public packages, dependencies first. */
const PUBLIC_PACKAGES = ["core", "schema", "store", "solver", "hand-history"];

const started = Date.now();
const step = (text) =>
  process.stdout.write(`\n[test-packages ${((Date.now() - started) / 1000).toFixed(1)}s] ${text}\n`);
const fail = (text) => {
  process.stderr.write(`\ntest-packages: FAILED: ${text}\n`);
  process.exit(1);
};
const check = (ok, text) => {
  if (!ok) fail(text);
};

/** Environment for npm and tsc: without the lowercase npm_config_* variables pnpm sets for its scripts. */
function cleanEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("npm_config_") && k !== "npm_config_registry" && k !== "npm_config_cache") continue;
    if (k.startsWith("npm_package_") || k.startsWith("npm_lifecycle_")) continue;
    env[k] = v;
  }
  return env;
}

function run(cmd, args, cwd, options = {}) {
  const where = cwd.startsWith(root) ? relative(root, cwd) || "." : cwd;
  process.stdout.write(`$ (cd ${where}) ${cmd} ${args.join(" ")}\n`);
  try {
    return execFileSync(cmd, args, {
      cwd,
      stdio: options.capture ? ["ignore", "pipe", "inherit"] : "inherit",
      encoding: "utf8",
      env: options.env ?? process.env,
    });
  } catch (error) {
    fail(`${cmd} ${args.join(" ")} exited with ${error.status ?? error.signal}`);
  }
}

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const manifests = Object.fromEntries(
  PUBLIC_PACKAGES.map((dir) => [dir, readJson(join(root, "packages", dir, "package.json"))]),
);
// The solver's worker-thread entry, when the sources have one (then a solve on 2 threads is tried too).
const parallel = existsSync(join(root, "packages", "solver", "src", "engine", "cfr-worker.ts"));
const threads = parallel && !process.argv.includes("--skip-threads");
const versions = Object.fromEntries(Object.values(manifests).map((m) => [m.name, m.version]));

const work = mkdtempSync(join(tmpdir(), "ranges-packages-"));
check(!work.startsWith(root), "the temporary folder must be outside the workspace");
process.on("exit", () => {
  if (!keep) rmSync(work, { recursive: true, force: true });
  else process.stdout.write(`kept ${work}\n`);
});

// 1. Build once (dependencies first, cached), then pack each package; `prepack` finds the build cached.
step("build and pack");
run(
  "pnpm",
  [
    "exec",
    "turbo",
    "run",
    "build",
    ...PUBLIC_PACKAGES.map((d) => `--filter=${manifests[d].name}`),
    "--output-logs=errors-only",
  ],
  root,
);
const tarballs = {};
for (const dir of PUBLIC_PACKAGES) {
  const dest = join(work, "tarballs", dir);
  mkdirSync(dest, { recursive: true });
  run("pnpm", ["pack", "--pack-destination", dest], join(root, "packages", dir));
  const files = readdirSync(dest).filter((f) => f.endsWith(".tgz"));
  check(files.length === 1, `pnpm pack of ${dir} wrote ${files.length} tarballs`);
  tarballs[dir] = join(dest, files[0]);
}
check(
  !existsSync(join(root, "packages", "solver", "dist", "data")),
  "the solver's postpack left dist/data behind",
);

// 2. The tarballs' contents and manifests.
step("check tarball contents");
for (const dir of PUBLIC_PACKAGES) {
  const listing = run("tar", ["-tzf", tarballs[dir]], work, { capture: true })
    .split("\n")
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ""));
  const packed = JSON.parse(
    run("tar", ["-xzOf", tarballs[dir], "package/package.json"], work, { capture: true }),
  );
  const name = packed.name;
  const text = JSON.stringify(packed);
  check(!text.includes("workspace:"), `${name}: "workspace:" left in the packed package.json`);
  for (const [dep, range] of Object.entries(packed.dependencies ?? {})) {
    if (dep in versions)
      check(range === versions[dep], `${name}: ${dep} is "${range}", not ${versions[dep]}`);
  }
  for (const field of [
    "description",
    "license",
    "homepage",
    "repository",
    "bugs",
    "keywords",
    "sideEffects",
    "exports",
  ]) {
    check(packed[field] !== undefined, `${name}: package.json has no "${field}"`);
  }
  check(manifests[dir].scripts?.prepack !== undefined, `${name}: no prepack script`);
  // pnpm drops the pack lifecycle scripts from the packed manifest: they point into the repository.
  check(
    !/\.\.\//.test(JSON.stringify(packed.scripts ?? {})),
    `${name}: a packed script points outside the package`,
  );
  for (const file of [
    "README.md",
    "LICENSE",
    "package.json",
    "dist/index.js",
    "dist/index.cjs",
    "dist/index.d.ts",
    "dist/index.d.cts",
  ]) {
    check(listing.includes(file), `${name}: ${file} is not in the tarball`);
  }
  const targets = [];
  const collect = (node) => {
    if (typeof node === "string") targets.push(node.replace(/^\.\//, ""));
    else if (node && typeof node === "object") for (const v of Object.values(node)) collect(v);
  };
  collect(packed.exports);
  for (const field of ["main", "module", "types"]) if (packed[field]) collect(packed[field]);
  for (const target of targets)
    check(listing.includes(target), `${name}: ${target} (from package.json) is not in the tarball`);
  const stray = listing.filter(
    (f) => /^(src|test|bench|scripts)\//.test(f) || f.endsWith(".test.js") || f.includes("tsup.config"),
  );
  check(stray.length === 0, `${name}: sources or tests in the tarball: ${stray.join(", ")}`);
  if (dir === "solver") {
    for (const table of ["holdem-hu.bin", "holdem-multiway.bin"])
      check(
        listing.includes(`dist/data/equity/${table}`),
        `${name}: the equity table ${table} is not in the tarball`,
      );
    check(
      !listing.some((f) => f.startsWith("data/packs") || f.includes(".pack")),
      `${name}: packs in the tarball`,
    );
    check(!listing.includes("dist/cli.js"), `${name}: the repository CLI is in the tarball`);
    if (parallel)
      check(listing.includes("dist/cfr-worker.js"), `${name}: the worker entry is not in the tarball`);
  }
  process.stdout.write(
    `${name}@${packed.version}: ${listing.length} files, dependencies ${JSON.stringify(packed.dependencies ?? {})}\n`,
  );
}

// 3. A project outside the workspace that installs the tarballs together.
step("npm install the tarballs into a fresh project");
const app = join(work, "consumer");
mkdirSync(app);
const typesNode = readJson(join(root, "package.json")).devDependencies["@types/node"];
writeFileSync(
  join(app, "package.json"),
  `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`,
);
const env = cleanEnv();
run(
  "npm",
  [
    "install",
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
    "--loglevel=error",
    ...PUBLIC_PACKAGES.map((d) => tarballs[d]),
    `@types/node@${typesNode}`,
  ],
  app,
  { env },
);
const lock = readJson(join(app, "package-lock.json"));
for (const [path, entry] of Object.entries(lock.packages)) {
  const m = /(?:^|\/)node_modules\/(@ranges\/[^/]+)$/.exec(path);
  if (!m) continue;
  check(path === `node_modules/${m[1]}`, `${m[1]} installed twice (${path}): a sibling tarball was not used`);
  check(
    typeof entry.resolved === "string" &&
      entry.resolved.startsWith("file:") &&
      entry.resolved.endsWith(".tgz"),
    `${m[1]} resolved to ${entry.resolved}, not to its tarball`,
  );
}
for (const dir of PUBLIC_PACKAGES) {
  check(
    existsSync(join(app, "node_modules", manifests[dir].name, "package.json")),
    `${manifests[dir].name} not installed`,
  );
}
// The tree config a user of the solver brings along (tree configs do not ship with the package).
writeFileSync(join(app, "nlmtt8.json"), readFileSync(join(root, "data", "trees", "nlmtt8.json")));

const USE = (importLine) => `${importLine}

function assert(ok, text) {
  if (!ok) throw new Error(text);
}

// core: the one raise-to function and the game registry.
assert(core.raiseTo({ code: 40034, pot: 2.5, currentBet: 1, chipsIn: 0, behind: 40 }).sizeBb === 2.19, "raiseTo");
assert(core.gameInfo("nlmtt8").seats.length === 8, "gameInfo");
let caught;
try {
  core.gameInfo("nope");
} catch (error) {
  caught = error;
}
assert(caught instanceof core.RangesError && caught.code === "unknown_game" && caught.status === 404, "unknown_game");
assert(core.isRangesError(caught), "isRangesError");

// schema: the OpenAPI document and a schema.
const doc = schema.buildOpenApiDocument("https://example.test");
assert(doc.openapi === "3.1.0" && doc.paths["/api/v1/ranges/nl/v2/node"], "openapi");

// solver + store + schema: a short solve (the shipped equity table), written as a pack, served back.
const config = solver.validateTreeConfig(JSON.parse(fs.readFileSync("nlmtt8.json", "utf8")), "nlmtt8.json");
const equity = solver.loadHeadsUpEquity();
assert(solver.defaultHeadsUpEquityPath().includes("node_modules"), "equity table from the package");
const result = solver.solvePreflop({ config, stack: 10, equity, maxIterations: 8, maxSeconds: 60 });
if (${threads}) {
  // Worker threads start dist/cfr-worker.js from the installed package.
  const threaded = solver.solvePreflop({ config, stack: 10, equity, maxIterations: 8, maxSeconds: 60, threads: 2 });
  assert(threaded.iterations === result.iterations, "a solve on 2 threads");
}
const pack = solver.toPackData(result, config, { createdAt: "2026-01-01T00:00:00.000Z", configPath: null, seed: equity.seed });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ranges-consumer-"));
try {
  await store.writePack(store.packPath(dir, "nlmtt8", 10), pack);
  const ranges = store.RangeStore.open({ packsDir: dir });
  const node = ranges.node("nlmtt8", 10, "UTG");
  schema.NodeSchema.parse(node);
  assert(node.actions.length >= 2, "node actions");
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
// hand-history: a hand parsed, written back in PokerStars' format, parsed again.
const hhText = [
  "PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD) - 2020/07/01 12:00:00 ET",
  "Table 'T' 2-max Seat #1 is the button",
  "Seat 1: p1 ($100 in chips)",
  "Seat 2: p2 ($100 in chips)",
  "p1: posts small blind $1",
  "p2: posts big blind $2",
  "*** HOLE CARDS ***",
  "Dealt to p1 [Ah Kd]",
  "p1: folds",
  "Uncalled bet ($1) returned to p2",
  "p2 collected $2 from pot",
  "*** SUMMARY ***",
  "Total pot $2 | Rake $0",
].join("\\n");
const hhParsed = hh.parseHandHistories(hhText);
assert(hhParsed.errors.length === 0 && hhParsed.hands[0].hero === "p1" && hhParsed.hands[0].players[1].net === 1, "parseHandHistories");
assert(hh.parseHandHistories(hh.writeHandHistory(hhParsed.hands[0])).hands[0].date === "2020-07-01T16:00:00.000Z", "writeHandHistory");
console.log("ok");
`;

step("ESM: import");
writeFileSync(
  join(app, "use.mjs"),
  USE(`import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as core from "@ranges/core";
import * as schema from "@ranges/schema";
import * as solver from "@ranges/solver";
import * as store from "@ranges/store";
import * as hh from "@ranges/hand-history";`),
);
run(process.execPath, ["use.mjs"], app, { env });

step("CommonJS: require()");
writeFileSync(
  join(app, "use.cjs"),
  `(async () => {
${USE(`const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const core = require("@ranges/core");
const schema = require("@ranges/schema");
const solver = require("@ranges/solver");
const store = require("@ranges/store");
const hh = require("@ranges/hand-history");
assert(require.resolve("@ranges/core").endsWith("index.cjs"), "require() loads the CommonJS build");`)}
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`,
);
run(process.execPath, ["use.cjs"], app, { env });

step("ESM and CommonJS copies together: isRangesError knows both");
writeFileSync(
  join(app, "mixed.mjs"),
  `import { createRequire } from "node:module";
import * as esm from "@ranges/core";
const cjs = createRequire(import.meta.url)("@ranges/core");
let thrown;
try { cjs.parsePath("nope", "UTG"); } catch (error) { thrown = error; }
if (!esm.isRangesError(thrown) || thrown.code !== "unknown_game") throw new Error("brand check");
console.log("ok");
`,
);
run(process.execPath, ["mixed.mjs"], app, { env });

step("TypeScript: tsc --noEmit with moduleResolution node16 and bundler");
const TS_BODY = `
const d = raiseTo({ code: 40120, pot: 1.5, currentBet: 1, chipsIn: 0, behind: 100 });
const size: number | null = d.sizeBb;
const info: GameInfo = gameInfo("nlmtt8");
const error: RangesError | null = isRangesError(size) ? size : null;
const doc: Record<string, unknown> = buildOpenApiDocument("/");
const node: Node | null = null;
const parsed = NodeSchema.safeParse(node);
const open: (o: RangeStoreOptions) => RangeStore = (o) => RangeStore.open(o);
const solve: typeof solvePreflop = solvePreflop;
const equity: HeadsUpEquityTable | null = null;
const hands: Hand[] = parseHandHistories("", { site: "auto" }).hands;
export const used = [size, info, error, doc, parsed.success, open, solve, equity, hands];
`;
const TS_IMPORTS = `import { type GameInfo, gameInfo, isRangesError, type RangesError, raiseTo } from "@ranges/core";
import { buildOpenApiDocument, type Node, NodeSchema } from "@ranges/schema";
import { type HeadsUpEquityTable, solvePreflop } from "@ranges/solver";
import { RangeStore, type RangeStoreOptions } from "@ranges/store";
import { type Hand, parseHandHistories } from "@ranges/hand-history";
`;
writeFileSync(join(app, "use.ts"), TS_IMPORTS + TS_BODY);
// A CommonJS TypeScript file: resolved through the "require" condition to the .d.cts declarations.
writeFileSync(join(app, "use-cjs.cts"), TS_IMPORTS + TS_BODY);
const compilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  target: "ES2023",
  lib: ["ES2023"],
  types: ["node"],
  verbatimModuleSyntax: false,
};
writeFileSync(
  join(app, "tsconfig.node16.json"),
  JSON.stringify({
    compilerOptions: { ...compilerOptions, module: "node16", moduleResolution: "node16" },
    files: ["use.ts", "use-cjs.cts"],
  }),
);
writeFileSync(
  join(app, "tsconfig.bundler.json"),
  JSON.stringify({
    compilerOptions: { ...compilerOptions, module: "esnext", moduleResolution: "bundler" },
    files: ["use.ts"],
  }),
);
const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
for (const project of ["tsconfig.node16.json", "tsconfig.bundler.json"]) {
  run(process.execPath, [tsc, "-p", project], app, { env });
}

step(
  `all checks passed for ${PUBLIC_PACKAGES.map((d) => `${manifests[d].name}@${manifests[d].version}`).join(", ")}`,
);
