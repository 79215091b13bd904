#!/usr/bin/env node
/**
 * Stops a root script (`pnpm start`, `pnpm test`, `pnpm build`, ...) at once when the running Node.js does not
 * satisfy the root package.json's `engines.node`, with a message that says which Node.js is needed, instead of
 * a confusing failure later on (`node:sqlite` needs 22.13; tsup 9 declares ^22.18.0 || ^24.11.0 || >=26.0.0).
 * `pnpm install` is stopped earlier by `engineStrict: true` in pnpm-workspace.yaml.
 *
 * Understands the ranges engines.node uses here: alternatives joined by `||`, each `>=X.Y.Z` or `^X.Y.Z`.
 * Dependency-free and plain, so it runs, and fails cleanly, on any Node.js that pnpm runs on.
 */

import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const range = String(manifest.engines?.node ?? "");

/** [major, minor, patch] of "v1.2.3", "1.2" or "1". */
const parse = (text) => {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : null;
};
const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

const alternatives = range.split("||").map((part) => {
  const m = /^\s*(>=|\^)\s*(\S+)\s*$/.exec(part);
  const version = m && parse(m[2]);
  return m && version ? { caret: m[1] === "^", version } : null;
});
if (!range || alternatives.some((alt) => alt === null)) {
  console.error(
    `check-node: cannot read engines.node "${range}" in package.json (expected ">=X.Y.Z" or "^X.Y.Z", joined by ||)`,
  );
  process.exit(1);
}

const have = parse(process.versions.node);
const ok = alternatives.some(
  ({ caret, version }) => compare(have, version) >= 0 && (!caret || have[0] === version[0]),
);

if (!ok) {
  const words = alternatives.map(({ caret, version }) =>
    caret ? `${version[0]}.x from ${version.join(".")}` : `${version.join(".")} or later`,
  );
  const wanted =
    words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words[0];
  console.error(
    [
      "",
      `preflop ranges needs Node.js ${range}, that is ${wanted}`,
      `(found ${process.version} at ${process.execPath}).`,
      "Install Node.js 24 (LTS), for example from https://nodejs.org or with `nvm install 24`,",
      "`fnm install 24` or `volta install node@24`, put it first on PATH and run the command again.",
      "",
    ].join("\n"),
  );
  process.exit(1);
}
