/**
 * Builds the board-conditioned duels table (src/equity/multiway.ts) and writes data/equity/holdem-multiway.bin.
 *
 *   node packages/solver/scripts/build-multiway.ts [--buckets 4] [--boards 200000] [--pilot 4000]
 *     [--parts 8] [--seed 1] [--threads 2] [--out PATH]
 *
 * A pilot pass (main thread) fixes each class's bucket edges; the boards of the main pass are split into
 * `parts` independent parts (their spread gives each entry's standard error), run on `threads` worker threads.
 * Deterministic for given arguments, whatever the number of threads. Runs straight from the TypeScript sources
 * on Node >= 22.18 / 24; @ranges/core must be built (`pnpm build`). Each worker is this same file.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import "./run-from-source.ts";

type EquityModule = typeof import("../src/equity/index.ts");
const equity: EquityModule = await import("../src/equity/index.ts");
type Job = Parameters<EquityModule["computeMultiwayPart"]>[0];
type Partial = ReturnType<EquityModule["computeMultiwayPart"]>;

if (!isMainThread) {
  const jobs = workerData as Job[];
  for (const job of jobs) parentPort!.postMessage(equity.computeMultiwayPart(job));
} else {
  await main();
}

function runJobs(jobs: Job[], onPart: () => void): Promise<Partial[]> {
  return new Promise((resolveAll, reject) => {
    const out: Partial[] = [];
    const worker = new Worker(new URL(import.meta.url), { workerData: jobs });
    worker.on("message", (p: Partial) => {
      out.push(p);
      onPart();
      if (out.length === jobs.length) resolveAll(out);
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      if (code !== 0) reject(new Error(`multiway worker exited with code ${code}`));
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      buckets: { type: "string", default: "4" },
      boards: { type: "string", default: "200000" },
      pilot: { type: "string", default: "4000" },
      parts: { type: "string", default: "8" },
      seed: { type: "string", default: "1" },
      threads: { type: "string", default: "2" },
      out: { type: "string" },
    },
  });
  const buckets = Number(values.buckets);
  const boards = Number(values.boards);
  const pilotBoards = Number(values.pilot);
  const parts = Number(values.parts);
  const seed = Number(values.seed);
  const threads = Math.max(1, Math.min(parts, Number(values.threads)));
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
  const out = resolve(values.out ?? resolve(repoRoot, equity.MULTIWAY_EQUITY_FILE));
  const started = performance.now();
  const edges = equity.multiwayBucketEdges(buckets, pilotBoards, seed);
  console.log(`pilot: ${pilotBoards} boards, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const jobs: Job[] = Array.from({ length: parts }, (_, part) => ({
    part,
    parts,
    boards,
    buckets,
    seed,
    edges,
  }));
  let done = 0;
  const perThread = Array.from({ length: threads }, (_, t) => jobs.filter((_, i) => i % threads === t));
  const partials = (
    await Promise.all(
      perThread.map((js) =>
        runJobs(js, () => {
          done++;
          console.log(
            `${done} of ${parts} parts after ${((performance.now() - started) / 1000).toFixed(0)} s`,
          );
        }),
      ),
    )
  )
    .flat()
    .sort((x, y) => x.part - y.part);
  const table = equity.combineMultiwayParts(partials, { buckets, seed, edges, pilotBoards });
  const bytes = equity.serializeMultiwayTable(table);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  const maxSe = table.se.reduce((m, x) => Math.max(m, x), 0);
  let meanSe = 0;
  for (const x of table.se) meanSe += x / table.se.length;
  console.log(
    `${table.boards} boards, ${buckets} buckets, ${parts} parts, seed ${seed}: SE max ${(maxSe * 100).toFixed(3)} pp, ` +
      `mean ${(meanSe * 100).toFixed(3)} pp; ${threads} threads, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(`wrote ${out} (${bytes.length} bytes)`);
}
