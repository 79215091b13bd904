/**
 * Builds the PLO bucket-against-bucket all-in equity table (src/plo/bucket-equity.ts) and writes
 * data/equity/plo-hu-buckets.bin.
 *
 *   node packages/solver/scripts/build-plo-bucket-equity.ts [--buckets 512] [--boards 100000] [--hands 2]
 *     [--parts 16] [--seed 7] [--threads 2] [--play] [--out PATH]
 *
 * `--play`: the play-aware abstraction (`PLO_PLAY_ABSTRACTION`: the play features of data/equity/plo-play.bin in
 * the clustering) instead of the packs' one.
 *
 * The abstraction of `--buckets` is built on the main thread (deterministic, about 2 s); the boards are split
 * into `--parts` independent parts, each with its own seeded generator, run on `--threads` worker threads.
 * The file is the same byte for byte whatever the number of threads (2 here, 16 on a bigger machine): keep
 * `--parts` fixed. Cost, measured on this 2-core machine under load: about 6.5 ms per board per core with two
 * hands per bucket, so the defaults take about 11 core-minutes (about 6 minutes on 2 threads, under one
 * on 16). Progress goes to stderr; run it in the background with `nice`, e.g.
 *
 *   nice -n 19 node packages/solver/scripts/build-plo-bucket-equity.ts --threads 2 > /tmp/plo-eq.log 2>&1 &
 *
 * Runs straight from the TypeScript sources on Node >= 22.18 / 24 (type stripping); @ranges/core must be
 * built (`pnpm build`). Each worker is this same file, started with its parts in workerData.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import "./run-from-source.ts";

type EquityModule = typeof import("../src/plo/bucket-equity.ts");
const equity: EquityModule = await import("../src/plo/bucket-equity.ts");
type Job = Parameters<EquityModule["computePloBucketEquityPart"]>[0];
type Partial = ReturnType<EquityModule["computePloBucketEquityPart"]>;
type WorkerMessage =
  | { kind: "progress"; part: number; done: number; total: number }
  | { kind: "done"; partial: Partial };

if (!isMainThread) {
  const jobs = workerData as Job[];
  for (const job of jobs) {
    const partial = equity.computePloBucketEquityPart(job, (done, total) =>
      parentPort!.postMessage({ kind: "progress", part: job.part, done, total } satisfies WorkerMessage),
    );
    parentPort!.postMessage({ kind: "done", partial } satisfies WorkerMessage);
  }
} else {
  await main();
}

function runJobs(
  jobs: Job[],
  onProgress: (part: number, done: number, total: number) => void,
  onPart: (part: number) => void,
): Promise<Partial[]> {
  return new Promise((resolveAll, reject) => {
    const out: Partial[] = [];
    const worker = new Worker(new URL(import.meta.url), { workerData: jobs });
    worker.on("message", (m: WorkerMessage) => {
      if (m.kind === "progress") {
        onProgress(m.part, m.done, m.total);
        return;
      }
      out.push(m.partial);
      onPart(m.partial.part);
      if (out.length === jobs.length) resolveAll(out);
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      if (code !== 0) reject(new Error(`PLO bucket equity worker exited with code ${code}`));
    });
  });
}

async function main(): Promise<void> {
  const d = equity.PLO_BUCKET_EQUITY_DEFAULTS;
  const { values } = parseArgs({
    options: {
      buckets: { type: "string", default: "512" },
      boards: { type: "string", default: String(d.boards) },
      hands: { type: "string", default: String(d.handsPerBucket) },
      parts: { type: "string", default: String(d.parts) },
      seed: { type: "string", default: String(d.seed) },
      threads: { type: "string", default: "2" },
      play: { type: "boolean", default: false },
      out: { type: "string" },
    },
  });
  const buckets = Number(values.buckets);
  const boards = Number(values.boards);
  const handsPerBucket = Number(values.hands);
  const parts = Number(values.parts);
  const seed = Number(values.seed);
  const threads = Math.max(1, Math.min(parts, Number(values.threads)));
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
  const out = resolve(values.out ?? resolve(repoRoot, equity.PLO_BUCKET_EQUITY_FILE));
  const started = performance.now();
  const elapsed = () => ((performance.now() - started) / 1000).toFixed(0);
  const { buildPloAbstraction, PLO_PLAY_ABSTRACTION }: typeof import("../src/plo/abstraction.ts") =
    await import("../src/plo/abstraction.ts");
  const abstraction = buildPloAbstraction(values.play ? { buckets, ...PLO_PLAY_ABSTRACTION } : { buckets });
  const groups = equity.ploBucketGroups(abstraction.classToBucket, abstraction.bucketCount);
  const mapCrc32 = equity.ploBucketMapCrc32(abstraction.classToBucket);
  process.stderr.write(
    `abstraction: ${abstraction.bucketCount} buckets, map crc32 ${mapCrc32}, ${elapsed()} s\n`,
  );
  const jobs: Job[] = Array.from({ length: parts }, (_, part) => ({
    part,
    parts,
    boards,
    handsPerBucket,
    seed,
    groups,
  }));
  const perThread = Array.from({ length: threads }, (_, t) => jobs.filter((_, i) => i % threads === t));
  const progress = new Float64Array(parts);
  let lastReport = 0;
  let finished = 0;
  const partials = (
    await Promise.all(
      perThread.map((js) =>
        runJobs(
          js,
          (part, done) => {
            progress[part] = done;
            const now = performance.now();
            if (now - lastReport < 10_000) return;
            lastReport = now;
            const doneBoards = progress.reduce((a, b) => a + b, 0);
            const rate = doneBoards / ((now - started) / 1000);
            process.stderr.write(
              `${doneBoards} of ${boards} boards after ${elapsed()} s, about ${((boards - doneBoards) / rate / 60).toFixed(1)} min left\n`,
            );
          },
          (part) => {
            finished++;
            process.stderr.write(`part ${part} done (${finished} of ${parts}) after ${elapsed()} s\n`);
          },
        ),
      ),
    )
  ).flat();
  const table = equity.combinePloBucketEquityParts(partials, {
    buckets: abstraction.bucketCount,
    mapCrc32,
    handsPerBucket,
    seed,
  });
  const bytes = equity.serializePloBucketEquity(table);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  const header = equity.parsePloBucketEquity(bytes);
  let maxSe = 0;
  let sumSe = 0;
  let met = 0;
  let unmet = 0;
  const B = header.buckets;
  for (let p = 0; p < B; p++)
    for (let q = p + 1; q < B; q++) {
      const s = header.se[p * B + q]!;
      if (Number.isNaN(s)) {
        unmet++;
        continue;
      }
      maxSe = Math.max(maxSe, s);
      sumSe += s;
      met++;
    }
  console.log(
    `${table.boards} boards, ${handsPerBucket} hands per bucket, ${parts} parts, seed ${seed}: SE mean ${(sumSe / met).toFixed(4)}, max ${maxSe.toFixed(4)}, ${unmet} pairs never met; ${threads} threads, ${elapsed()} s`,
  );
  console.log(`wrote ${out} (${bytes.length} bytes)`);
}
