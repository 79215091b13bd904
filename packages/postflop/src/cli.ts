/**
 * `pnpm solve-postflop --spot spot.json --out result.json` — solve a heads-up postflop spot.
 *
 * The spot file is a `PostflopConfig` (see src/config.ts). Options: --threads N (default every core),
 * --max-iterations N (1000), --target PCT (exploitability in percent of the pot, 0.5), --max-seconds S,
 * --check-every N (10: iterations between the first exploitability measures; see CheckSchedule), --no-isomorphism,
 * --compressed (16-bit storage: half the memory), --quiet.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { PostflopConfigError } from "./config.js";
import { type PostflopProgress, solvePostflop } from "./solve.js";

const { values } = parseArgs({
  options: {
    spot: { type: "string" },
    out: { type: "string" },
    threads: { type: "string" },
    "max-iterations": { type: "string" },
    "max-seconds": { type: "string" },
    target: { type: "string" },
    "check-every": { type: "string" },
    "no-isomorphism": { type: "boolean", default: false },
    compressed: { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

const fail = (message: string): never => {
  process.stderr.write(`solve-postflop: ${message}\n`);
  process.exit(1);
};

if (values.help || !values.spot) {
  process.stdout.write(
    "usage: pnpm solve-postflop --spot spot.json [--out result.json] [--threads N] [--max-iterations N]\n" +
      "       [--target PCT] [--max-seconds S] [--check-every N] [--no-isomorphism] [--compressed] [--quiet]\n",
  );
  process.exit(values.help ? 0 : 1);
}

const num = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0) fail(`--${name} must be a positive number, got "${raw}"`);
  return x;
};

function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return "?";
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(Math.round(s % 60)).padStart(2, "0")}s` : `${Math.round(s)}s`;
}

let lastLength = 0;
function progress(p: PostflopProgress): void {
  if (values.quiet) return;
  const width = 24;
  const filled = Math.min(width, Math.round((p.iteration / p.maxIterations) * width));
  const expl = Number.isNaN(p.exploitability) ? "?" : `${p.exploitability.toFixed(3)}%`;
  const line = `solve-postflop [${"#".repeat(filled)}${"-".repeat(width - filled)}] it ${p.iteration} | exploitability ${expl} of the pot | ${formatDuration(p.elapsedSeconds)}`;
  if (process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(lastLength)}`);
  else if (p.measured) process.stderr.write(`${line}\n`);
  lastLength = line.length;
}

let config: unknown;
try {
  config = JSON.parse(readFileSync(values.spot, "utf8"));
} catch (error) {
  fail(`cannot read ${values.spot}: ${(error as Error).message}`);
}

try {
  const threads = num("threads", values.threads) ?? availableParallelism();
  const result = solvePostflop(config as never, {
    threads,
    maxIterations: num("max-iterations", values["max-iterations"]),
    targetExploitability: num("target", values.target),
    maxSeconds: num("max-seconds", values["max-seconds"]),
    checkEvery: num("check-every", values["check-every"]),
    isomorphism: !values["no-isomorphism"],
    compressed: values.compressed === true,
    onProgress: progress,
  });
  if (!values.quiet && process.stderr.isTTY) process.stderr.write("\n");
  const summary = `${result.iterations} iterations, exploitability ${result.exploitability.toFixed(3)}% of the pot, ${result.seconds.toFixed(1)} s on ${result.threads} threads; EV OOP ${result.ev.oop.toFixed(3)}, IP ${result.ev.ip.toFixed(3)}`;
  if (values.out) {
    writeFileSync(values.out, `${JSON.stringify(result)}\n`);
    process.stdout.write(`${summary}; wrote ${values.out}\n`);
  } else {
    process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
    process.stderr.write(`${summary}\n`);
  }
} catch (error) {
  if (error instanceof PostflopConfigError) fail(error.message);
  throw error;
}
