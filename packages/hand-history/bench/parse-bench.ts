/**
 * Parse speed on one core: hands per second over the sample files in `../shared/hand-histories` (beside
 * the repository), or over this package's own fixtures when that folder is absent.
 *
 *   node packages/hand-history/bench/parse-bench.ts [--seconds 3] [--rounds 5]
 *
 * Runs straight from the TypeScript sources (Node >= 22.18 / 24 strip types; a resolve hook maps the
 * sources' `./x.js` imports to `./x.ts`). The files are read once and joined into one text of at least
 * 2,000 hands; each round parses that text again and again for `--seconds`, and the best round is
 * reported (the others show the spread). Errors are counted and must be zero.
 */

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { registerHooks } from "node:module";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const src = pathToFileURL(join(here, "..", "src")).href;

// The sources import "./parse.js"; under type stripping the file is parse.ts.
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.startsWith(src)) {
      return next(specifier.replace(/\.js$/, ".ts"), context);
    }
    return next(specifier, context);
  },
});

const lib: typeof import("../src/index.js") = await import(`${src}/index.ts`);

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "3" },
    rounds: { type: "string", default: "5" },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);

function listFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...listFiles(path));
    else if (name.endsWith(".txt")) files.push(path);
  }
  return files.sort();
}

const shared = resolve(here, "..", "..", "..", "..", "shared", "hand-histories");
const fixtures = join(here, "..", "test", "fixtures");
const dir = existsSync(shared) ? shared : fixtures;
const files = listFiles(dir);
const texts = files.map((f) => readFileSync(f, "utf8"));

let perPass = 0;
for (const text of texts) {
  const { hands, errors } = lib.parseHandHistories(text);
  if (errors.length > 0 && dir === shared) {
    throw new Error(`sample files must parse cleanly: ${JSON.stringify(errors[0])}`);
  }
  perPass += hands.length;
}
if (perPass === 0) throw new Error(`no hands in ${dir}`);
const copies = Math.ceil(2000 / perPass);
const corpus = Array.from({ length: copies }, () => texts.join("\n\n")).join("\n\n");
const handsPerCorpus = perPass * copies;

process.stdout.write(
  `parse-bench: ${files.length} files from ${dir} (${perPass} hands), repeated to ${handsPerCorpus} hands ` +
    `(${(corpus.length / 1e6).toFixed(2)} MB); Node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"}\n`,
);

// Warm up the JIT.
for (let i = 0; i < 5; i++) lib.parseHandHistories(corpus);

const format = (rate: number): string => Math.round(rate).toLocaleString("en-US");
const wallRates: number[] = [];
const cpuRates: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  let hands = 0;
  let errors = 0;
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  let elapsed = 0;
  while (elapsed < SECONDS) {
    const result = lib.parseHandHistories(corpus);
    hands += result.hands.length;
    errors += result.errors.length;
    elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  }
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (errors > 0 && dir === shared) throw new Error(`${errors} parse errors`);
  wallRates.push(hands / elapsed);
  cpuRates.push(hands / cpuSeconds);
  process.stdout.write(
    `  round ${round + 1}: ${format(hands / elapsed)} hands/s wall clock, ` +
      `${format(hands / cpuSeconds)} hands per CPU second\n`,
  );
}
// CPU time counts this process only (its garbage-collection threads included), so it stays meaningful
// when other processes share the core; the wall clock is what a caller waits.
const best = Math.max(...wallRates);
process.stdout.write(
  `best: ${format(best)} hands/s wall clock ` +
    `(${((corpus.length / (handsPerCorpus / best)) * 1e-6).toFixed(1)} MB/s), ` +
    `${format(Math.max(...cpuRates))} hands per CPU second; ` +
    `load average ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores\n`,
);
