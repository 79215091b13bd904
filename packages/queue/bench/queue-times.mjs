/**
 * Time from enqueue to a readable result through the solve queue, on SQLite with the built-in worker (one
 * solve at a time on one thread, as the API runs it) or on PostgreSQL (DATABASE_URL).
 *
 *   pnpm build && node packages/queue/bench/queue-times.mjs [--spot hu|6max40|both] [--threads 1]
 *
 * Spots: `hu` is heads-up jam/fold at 10bb (nl with the SB and BB dealt in), `6max40` the library's nl tree
 * at 40bb. Prints, per spot, the tree size, the solve's iterations and worst seat, and the seconds from
 * enqueue to the first node read from the finished private pack.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AccessStore } from "@ranges/access";
import { SolutionPacks, SolveQueue, SolveWorker, validateSolveRequest } from "../dist/index.js";

const { values } = parseArgs({
  options: { spot: { type: "string", default: "both" }, threads: { type: "string", default: "1" } },
});
const SPOTS = {
  hu: {
    label: "heads-up jam/fold, 10bb",
    request: { game: "nl", stack: 10, changes: { jamOrFold: true, allInFrom: 1, dealtIn: ["SB", "BB"] } },
    read: "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB",
  },
  "6max40": { label: "6-max nl, 40bb (library tree)", request: { game: "nl", stack: 40 }, read: "UTG" },
};
const chosen = values.spot === "both" ? Object.keys(SPOTS) : [values.spot];
for (const s of chosen) if (!SPOTS[s]) throw new Error(`--spot must be hu, 6max40 or both, got ${s}`);

const url = process.env.DATABASE_URL;
const access = await AccessStore.open(url ?? ":memory:");
const queue = await SolveQueue.open(access.database);
const dir = mkdtempSync(join(tmpdir(), "queue-times-"));
const solutions = new SolutionPacks(queue, dir);
const worker = new SolveWorker(queue, { threads: Number(values.threads), pollMs: 100, heartbeatMs: 500 });
worker.start();
console.log(
  `queue times on ${url ? "PostgreSQL" : "SQLite (in memory)"}, ${values.threads} solver thread(s); ${cpus().length} cores (${cpus()[0]?.model}), load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
const key = "benchbenchbe";
try {
  for (const name of chosen) {
    const spot = SPOTS[name];
    const spec = validateSolveRequest(spot.request);
    const t0 = performance.now();
    const job = await queue.enqueue(key, spec, 3600);
    let done;
    for (;;) {
      done = await queue.get(key, job.id);
      if (done.status === "done" || done.status === "failed") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (done.status !== "done") throw new Error(`${name}: ${done.status} ${done.error}`);
    const { store, game, stack } = await solutions.get(key, job.id);
    await store.jsonAsync({ kind: "node", game, stack, history: spot.read, full: true });
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `${spot.label}: ${spec.decisions} decisions, ${done.summary.iterations} iterations, worst seat ${done.summary.worstPctPot.toFixed(3)}% pot; enqueue to result ${seconds.toFixed(1)} s`,
    );
  }
} finally {
  await worker.stop();
  await solutions.close();
  await queue.close();
  await access.close();
  rmSync(dir, { recursive: true, force: true });
}
