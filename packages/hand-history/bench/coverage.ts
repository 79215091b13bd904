/**
 * How many hands parse, per site, over every hand-history file under the folders given (default: this
 * package's fixtures, and ../shared/hand-histories beside the repository when present). Files are decoded
 * as `decodeHandHistory` does (UTF-8, UTF-16, Windows-1252); `.txt` and `.xml` files are read.
 *
 *   node packages/hand-history/bench/coverage.ts [--list] [folder ...]
 *
 * A hand counts once: parsed, or refused with its reason (the reasons are listed, most frequent first).
 * A hand met again (same site and hand number, in another file or twice in one) counts once, so sample sets
 * that copy each other's files do not weigh twice. Text that is no hand of any site (`no hand found`)
 * counts as one refused hand of site "unknown". `--list` also prints every refused hand: file, line,
 * message and the offending text.
 */

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { registerHooks } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const src = pathToFileURL(join(here, "..", "src")).href;
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.startsWith(src)) {
      return next(specifier.replace(/\.js$/, ".ts"), context);
    }
    return next(specifier, context);
  },
});
const lib: typeof import("../src/index.js") = await import(`${src}/index.ts`);

function listFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...listFiles(path));
    else if (/\.(txt|xml)$/i.test(name)) files.push(path);
  }
  return files;
}

const list = process.argv.includes("--list");
const args = process.argv.slice(2).filter((a) => a !== "--list");
const shared = resolve(here, "..", "..", "..", "..", "shared", "hand-histories");
const dirs =
  args.length > 0 ? args : [join(here, "..", "test", "fixtures"), ...(existsSync(shared) ? [shared] : [])];
const perSite = new Map<string, { parsed: number; refused: number; reasons: Map<string, number> }>();
const entry = (site: string) => {
  let e = perSite.get(site);
  if (!e) perSite.set(site, (e = { parsed: 0, refused: 0, reasons: new Map() }));
  return e;
};
const seen = new Set<string>();
const firstTime = (site: string | null, id: string | null) => {
  if (id === null) return true;
  const key = `${site ?? "unknown"} ${id}`;
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
};
const refusals: string[] = [];
let files = 0;
let repeats = 0;
for (const dir of dirs) {
  for (const file of listFiles(dir)) {
    files++;
    let text: string;
    try {
      text = lib.decodeHandHistory(readFileSync(file)).text;
    } catch (error) {
      const e = entry("unknown");
      e.refused++;
      e.reasons.set((error as Error).message, (e.reasons.get((error as Error).message) ?? 0) + 1);
      continue;
    }
    const { hands, errors } = lib.parseHandHistories(text);
    for (const h of hands) {
      if (firstTime(h.site, h.id)) entry(h.site).parsed++;
      else repeats++;
    }
    for (const err of errors) {
      if (!firstTime(err.site, err.handId)) {
        repeats++;
        continue;
      }
      if (list) refusals.push(`${file}:${err.line}: [${err.site ?? "unknown"}] ${err.message} (${err.text})`);
      const e = entry(err.site ?? "unknown");
      e.refused++;
      const reason = err.message.replace(/\d+(\.\d+)?/g, "N").replace(/"[^"]*"/g, '"…"');
      e.reasons.set(reason, (e.reasons.get(reason) ?? 0) + 1);
    }
  }
}
for (const line of refusals) process.stdout.write(`${line}\n`);
process.stdout.write(
  `coverage: ${files} files under ${dirs.join(", ")}${repeats > 0 ? ` (${repeats} hands met again, counted once)` : ""}\n`,
);
let parsed = 0;
let total = 0;
for (const [site, e] of [...perSite.entries()].sort()) {
  const n = e.parsed + e.refused;
  parsed += e.parsed;
  total += n;
  process.stdout.write(
    `  ${site.padEnd(11)} ${e.parsed}/${n} hands parse (${((100 * e.parsed) / n).toFixed(1)}%)\n`,
  );
  for (const [reason, count] of [...e.reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5)) {
    process.stdout.write(`      ${count} × ${reason}\n`);
  }
}
process.stdout.write(
  `  all         ${parsed}/${total} hands parse (${((100 * parsed) / total).toFixed(1)}%)\n`,
);
