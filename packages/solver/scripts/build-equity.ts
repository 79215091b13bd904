/**
 * Builds the heads-up class-vs-class equity table and writes data/equity/holdem-hu.bin.
 *
 *   node packages/solver/scripts/build-equity.ts [--exact | --samples N --seed S] [--threads T] [--out PATH]
 *
 * Default: exact enumeration (every board, up to suit permutation) on 2 worker threads. Runs straight from
 * the TypeScript sources on Node >= 22.18 / 24 (type stripping); @ranges/core must be built (`pnpm build`).
 * Each worker is this same file, started with the job in workerData.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import "./run-from-source.ts";

type EquityModule = typeof import("../src/equity/index.ts");
const equity: EquityModule = await import("../src/equity/index.ts");

type Job = Parameters<EquityModule["computeHeadsUpPart"]>[0];
type PartSums = ReturnType<EquityModule["computeHeadsUpPart"]>;

type WorkerMessage = { kind: "progress"; done: number; total: number } | { kind: "done"; partial: PartSums };

if (!isMainThread) {
  const job = workerData as Job;
  const partial = equity.computeHeadsUpPart(job, (done, total) =>
    parentPort!.postMessage({ kind: "progress", done, total } satisfies WorkerMessage),
  );
  parentPort!.postMessage({ kind: "done", partial } satisfies WorkerMessage);
} else {
  await main();
}

function runPart(job: Job, onProgress: (done: number, total: number) => void): Promise<PartSums> {
  return new Promise((resolvePart, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "progress") onProgress(message.done, message.total);
      else resolvePart(message.partial);
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      if (code !== 0) reject(new Error(`equity worker ${job.part} exited with code ${code}`));
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      exact: { type: "boolean" },
      samples: { type: "string" },
      seed: { type: "string", default: "1" },
      threads: { type: "string", default: "2" },
      out: { type: "string" },
    },
  });
  const method = values.samples && !values.exact ? "monte-carlo" : "exact";
  const samples = Number(values.samples ?? 0);
  const seed = Number(values.seed);
  const parts = Math.max(1, Number(values.threads));
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
  const out = resolve(values.out ?? resolve(repoRoot, equity.HEADS_UP_EQUITY_FILE));

  const started = performance.now();
  const progress = new Array<number>(parts).fill(0);
  const totals = new Array<number>(parts).fill(1);
  let lastReport = 0;
  const report = (part: number, done: number, total: number): void => {
    progress[part] = done;
    totals[part] = total;
    const now = performance.now();
    if (now - lastReport < 5000) return;
    lastReport = now;
    const fraction =
      progress.reduce((sum, value) => sum + value, 0) / totals.reduce((sum, value) => sum + value, 0);
    console.log(`${(fraction * 100).toFixed(1)}% after ${((now - started) / 1000).toFixed(0)} s`);
  };
  const jobs: Job[] = Array.from({ length: parts }, (_, part) =>
    method === "exact" ? { method, part, parts } : { method, part, parts, samples, seed },
  );
  const partials = await Promise.all(
    jobs.map((job) => runPart(job, (done, total) => report(job.part, done, total))),
  );
  const table = equity.combineHeadsUpParts(method, partials, seed);
  const seconds = (performance.now() - started) / 1000;

  const bytes = equity.serializeHeadsUpEquity(table);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  const maxSe = table.se.reduce((max, value) => Math.max(max, value), 0);
  const boardsSwept = partials.reduce((sum, partial) => sum + partial.boards, 0);
  console.log(
    `${method}: ${boardsSwept} boards swept (${table.samples} boards represented), seed ${table.seed}, ` +
      `max SE ${(maxSe * 100).toFixed(4)} pp, ${parts} threads, ${seconds.toFixed(1)} s`,
  );
  console.log(`wrote ${out} (${bytes.length} bytes)`);
}
