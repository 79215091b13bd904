/**
 * `pnpm solve-postflop-packs` — solve the repository's postflop packs (resumable; commits nothing).
 *
 * Reads the ranges, pot, stacks and rake of each pack from the nl/v2 100bb preflop pack, then solves every
 * board each pack lacks (or holds with other inputs), rewriting the pack file in the output directory after
 * each board. Stop it at any time; run it again to go on. Options: --out DIR (data/postflop), --packs-dir DIR
 * (data/packs), --packs id,id (all four), --boards N or a comma-separated list (the 30 representative flops),
 * --threads N (every core), --target PCT (0.5), --max-iterations N (1000), --max-seconds S (per board),
 * --list (print the jobs and exit).
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { RangeStore } from "@ranges/store";
import { nlv2PackJobs, runPackJob } from "./batch.js";
import { representativeFlops } from "./textures.js";

const { values } = parseArgs({
  options: {
    out: { type: "string", default: "data/postflop" },
    "packs-dir": { type: "string", default: "data/packs" },
    packs: { type: "string" },
    boards: { type: "string" },
    threads: { type: "string" },
    target: { type: "string" },
    "max-iterations": { type: "string" },
    "max-seconds": { type: "string" },
    list: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

const fail = (message: string): never => {
  process.stderr.write(`solve-postflop-packs: ${message}\n`);
  process.exit(1);
};
if (values.help) {
  process.stdout.write(
    "usage: pnpm solve-postflop-packs [--out data/postflop] [--packs-dir data/packs] [--packs id,id] [--boards N|QsJh2h,...]\n" +
      "       [--threads N] [--target PCT] [--max-iterations N] [--max-seconds S] [--list]\n",
  );
  process.exit(0);
}
const num = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0) fail(`--${name} must be a positive number, got "${raw}"`);
  return x;
};
let boards: string[] | undefined;
if (values.boards !== undefined) {
  boards = /^\d+$/.test(values.boards)
    ? representativeFlops(Number(values.boards)).map((f) => f.board)
    : values.boards.split(",").map((b) => b.trim());
}
const store = RangeStore.open({ packsDir: resolve(values["packs-dir"]!) });
let jobs: ReturnType<typeof nlv2PackJobs>;
try {
  jobs = nlv2PackJobs(store, boards);
} catch (error) {
  fail(`cannot read the nl/v2 100bb preflop pack: ${(error as Error).message}`);
  process.exit(1);
} finally {
  store.close();
}
if (values.packs) {
  const wanted = values.packs.split(",").map((p) => p.trim());
  const unknown = wanted.filter((w) => !jobs.some((j) => j.id === w));
  if (unknown.length > 0)
    fail(`unknown pack ${unknown.join(", ")}; packs: ${jobs.map((j) => j.id).join(", ")}`);
  jobs = jobs.filter((j) => wanted.includes(j.id));
}
if (values.list) {
  for (const j of jobs) {
    process.stdout.write(
      `${j.id}: ${j.line.description}; pot ${j.pot}bb, stack ${j.stack}bb; ${j.boards.length} boards\n`,
    );
  }
  process.exit(0);
}
const out = resolve(values.out!);
for (const job of jobs) {
  await runPackJob(job, out, {
    ...(values.threads ? { threads: num("threads", values.threads)! } : {}),
    ...(values.target ? { targetPct: num("target", values.target)! } : {}),
    ...(values["max-iterations"] ? { maxIterations: num("max-iterations", values["max-iterations"])! } : {}),
    ...(values["max-seconds"] ? { maxSeconds: num("max-seconds", values["max-seconds"])! } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
}
process.stdout.write(`done: ${jobs.map((j) => j.id).join(", ")} in ${out}\n`);
