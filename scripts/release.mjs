#!/usr/bin/env node
/**
 * Publishes the public packages (`@ranges/core`, `@ranges/schema`, `@ranges/store`, `@ranges/solver`,
 * `@ranges/hand-history`) to npm.
 *
 *   pnpm version-packages            changeset version: bumps versions, writes CHANGELOG.md files, consumes
 *                                    .changeset/*.md; review and commit the result
 *   pnpm release [--dry-run] [--tag <dist-tag>] [--skip-pack-test]
 *
 * `pnpm release` (this script):
 * 1. refuses to run with unreleased changesets in .changeset/ (run `pnpm version-packages` first) or with
 *    uncommitted changes to tracked files (the git tags must name what was published);
 * 2. prints the publish order: dependencies first, from the packages' `dependencies`;
 * 3. runs `node scripts/test-packages.mjs`: builds, packs each package, checks that no `workspace:` range
 *    is left, installs the tarballs outside the workspace and uses them from ESM, CommonJS and TypeScript;
 * 4. runs `changeset publish`, which (checked in @changesets/cli 3.0.3, `getPublishPlan`/`sortReleases`):
 *    - asks the registry which versions exist (`pnpm info`) and publishes only the new ones;
 *    - orders the releases by the workspace dependency graph into chunks (core, then schema, then store,
 *      then solver) and publishes a chunk only after the one before it;
 *    - publishes each with `pnpm publish --access public --tag <tag> --no-git-checks` in the package's
 *      folder, because the repository is a pnpm workspace: pnpm runs `prepack` (the build, and the solver's
 *      equity table) and rewrites `workspace:*` to the exact version of the sibling, as `pnpm pack` does
 *      (step 3 checks the packed manifests);
 *    - creates a git tag per published package (`@ranges/core@0.2.0`); push them with
 *      `git push --follow-tags`.
 *
 * `--dry-run` stops before step 4 (and only warns about pending changesets or a dirty tree): nothing is
 * published and the registry is not asked. Publishing needs npm credentials with rights to the `@ranges`
 * scope (`npm login`, or NPM_TOKEN in ~/.npmrc; with 2FA, `--otp` via NPM_CONFIG_OTP).
 */

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    "dry-run": { type: "boolean", default: false },
    tag: { type: "string" },
    "skip-pack-test": { type: "boolean", default: false },
  },
});
const dryRun = values["dry-run"];

const fail = (text) => {
  process.stderr.write(`release: ${text}\n`);
  process.exit(1);
};
const problem = (text) => (dryRun ? process.stderr.write(`release: warning: ${text}\n`) : fail(text));

function run(cmd, args, options = {}) {
  process.stdout.write(`$ ${cmd} ${args.join(" ")}\n`);
  try {
    return execFileSync(cmd, args, {
      cwd: root,
      stdio: options.capture ? ["ignore", "pipe", "inherit"] : "inherit",
      encoding: "utf8",
    });
  } catch (error) {
    fail(`${cmd} ${args.join(" ")} exited with ${error.status ?? error.signal}`);
  }
}

/** Public workspace packages in publish order: every package after the packages it depends on. */
function publishOrder(packages) {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const order = [];
  const state = new Map();
  const visit = (p, trail) => {
    if (state.get(p.name) === "done") return;
    if (state.get(p.name) === "visiting") fail(`dependency cycle: ${[...trail, p.name].join(" -> ")}`);
    state.set(p.name, "visiting");
    for (const dep of Object.keys({ ...p.dependencies, ...p.peerDependencies })) {
      const sibling = byName.get(dep);
      if (sibling) visit(sibling, [...trail, p.name]);
    }
    state.set(p.name, "done");
    order.push(p);
  };
  for (const p of packages) visit(p, []);
  return order;
}

// 1. Nothing unreleased, nothing uncommitted.
const pending = readdirSync(join(root, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md");
if (pending.length > 0) {
  problem(
    `${pending.length} unreleased changeset(s) in .changeset/ (${pending.join(", ")}): run \`pnpm version-packages\`, review and commit, then release.`,
  );
}
const dirty = run("git", ["status", "--porcelain", "--untracked-files=no"], { capture: true }).trim();
if (dirty) problem(`uncommitted changes to tracked files:\n${dirty}`);

// 2. The order.
const packages = readdirSync(join(root, "packages"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => {
    try {
      return JSON.parse(readFileSync(join(root, "packages", d.name, "package.json"), "utf8"));
    } catch {
      return null;
    }
  })
  .filter((p) => p !== null && p.private !== true);
const order = publishOrder(packages);
process.stdout.write(`publish order: ${order.map((p) => `${p.name}@${p.version}`).join(" -> ")}\n`);
for (const p of order) {
  for (const [dep, range] of Object.entries(p.dependencies ?? {})) {
    if (packages.some((q) => q.name === dep) && range !== "workspace:*") {
      problem(
        `${p.name} depends on ${dep}@${range}; use "workspace:*" so the published range is the sibling's version.`,
      );
    }
  }
}

// 3. Pack, install and use the tarballs.
if (!values["skip-pack-test"]) run(process.execPath, [join(root, "scripts", "test-packages.mjs")]);

// 4. Publish.
const publishArgs = ["exec", "changeset", "publish", ...(values.tag ? ["--tag", values.tag] : [])];
if (dryRun) {
  process.stdout.write(`dry run: not publishing. A release runs: pnpm ${publishArgs.join(" ")}\n`);
} else {
  run("pnpm", publishArgs);
  process.stdout.write("published. Push the tags: git push --follow-tags\n");
}
