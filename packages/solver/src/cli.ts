/** `pnpm solve`: solve preflop spots and write packs. Usage: `USAGE` below (what `--help` prints). */

import { fork } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { GAMES, type GameId, HOLDEM_CLASSES, isGameId } from "@ranges/core";
import { type PackData, packPath, readPackFile, writePack } from "@ranges/store";
import { loadHeadsUpEquity } from "./equity/index.js";
import { loadPloBucketEquity, PLO_BUCKET_EQUITY_FILE } from "./plo/bucket-equity.js";
import {
  defaultPacksDir,
  PLO_SOLVED_GAMES,
  repoRelative,
  repoRoot,
  SOLVED_GAMES,
  treeConfigPath,
} from "./solve/files.js";
import { loadPloGameTables, ploIdentityOfTable, solvePlo, toPloPackData } from "./solve/plo.js";
import {
  recordedInputHash,
  type SolveProgress,
  solveInputHash,
  solvePreflop,
  toPackData,
} from "./solve/preflop.js";
import { configStacks, loadTreeConfig, type TreeConfig, validateTreeConfig } from "./tree/config.js";

/** What `--help` prints. */
const USAGE = `\`pnpm solve\` — solve preflop spots and write packs.

  pnpm solve --game nlmtt8 --stack 40        one pack into data/packs
  pnpm solve --game plo --stack 100          a PLO pack (solved over the buckets of the PLO abstraction;
                                             needs data/equity/plo-hu-buckets.bin, see below)
  pnpm solve --all [--jobs 1] [--force]      every committed pack whose inputs changed (resumable: a pack
                                             whose header records the same input hash is skipped); one
                                             pack at a time on every core by default, or --jobs packs at
                                             once sharing the cores; hold'em games first, then PLO
                                             (skipped with a note while the PLO equity table is missing)
  pnpm solve --spot spot.json --out x.json   a custom spot (tree config with one stack) to JSON or .pack
Options: --out DIR|FILE, --max-iterations N, --max-seconds S, --target PCT (exploitability, % of pot),
--quiet.

PLO solves read the bucket-against-bucket equity table data/equity/plo-hu-buckets.bin; build it once with
  nice -n 19 node packages/solver/scripts/build-plo-bucket-equity.ts --threads 2
`;

const { values } = parseArgs({
  options: {
    game: { type: "string" },
    stack: { type: "string" },
    all: { type: "boolean", default: false },
    force: { type: "boolean", default: false },
    only: { type: "string" },
    spot: { type: "string" },
    out: { type: "string" },
    jobs: { type: "string" },
    "max-iterations": { type: "string" },
    "max-seconds": { type: "string" },
    target: { type: "string" },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

const fail = (message: string): never => {
  process.stderr.write(`solve: ${message}\n`);
  process.exit(1);
};

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

/** A one-line progress bar on stderr: iteration, worst exploitability, time left. */
function progressBar(label: string, maxIterations: number) {
  let last = 0;
  return (p: SolveProgress) => {
    if (values.quiet) return;
    const width = 24;
    const filled = Math.min(width, Math.round((p.iteration / maxIterations) * width));
    const line = `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] it ${p.iteration} | worst seat ${p.worstPctPot.toFixed(3)}% pot (best ${p.bestPctPot.toFixed(3)}%) | ${formatDuration(p.elapsedSeconds)} elapsed | <= ${formatDuration(p.etaSeconds)} left`;
    if (process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(last)}`);
    else process.stderr.write(`${line}\n`);
    last = line.length;
  };
}

/** The PLO bucket equity table's path, or null (with what to run printed) when it is not built yet. */
function ploEquityPath(): string | null {
  const path = join(repoRoot(), PLO_BUCKET_EQUITY_FILE);
  if (existsSync(path)) return path;
  process.stderr.write(
    `solve: PLO solves need ${PLO_BUCKET_EQUITY_FILE}, which is not built yet. Build it once (about 6 minutes on 2 cores) with\n` +
      "  nice -n 19 node packages/solver/scripts/build-plo-bucket-equity.ts --threads 2\n" +
      "(pnpm build first: the script runs on the built @ranges/core).\n",
  );
  return null;
}

function solveOne(config: TreeConfig, configPath: string | null, stack: number, out: string): void {
  const omaha = GAMES[config.game].variant === "omaha";
  if (omaha && ploEquityPath() === null) process.exit(1);
  const maxIterations = num("max-iterations", values["max-iterations"]) ?? config.solve.maxIterations;
  const budget = {
    config,
    stack,
    maxIterations,
    maxSeconds: num("max-seconds", values["max-seconds"]) ?? config.solve.maxSeconds,
    // Left undefined, the solver picks the config's target (tighter for jam/fold trees).
    targetPctPot: num("target", values.target),
    onProgress: progressBar(`${config.game} ${stack}bb`, maxIterations),
  };
  const createdAt = new Date().toISOString();
  let pack: PackData;
  let result: ReturnType<typeof solvePreflop>;
  if (omaha) {
    const tables = loadPloGameTables(config);
    const plo = solvePlo({ ...budget, tables });
    result = plo;
    pack = toPloPackData(plo, config, { createdAt, configPath, seed: tables.equity.seed });
  } else {
    const equity = loadHeadsUpEquity();
    result = solvePreflop({ ...budget, equity });
    pack = toPackData(result, config, { createdAt, configPath, seed: equity.seed });
  }
  if (process.stderr.isTTY && !values.quiet) process.stderr.write("\n");
  const worst = Math.max(...result.seats.map((s) => s.pctPot));
  const summary = `${config.game} ${stack}bb: ${result.nodes.decisions} decisions, ${result.iterations} iterations${result.publishedIteration < result.iterations ? ` (published: the averages at ${result.publishedIteration})` : ""}, ${result.seconds.toFixed(1)}s, worst seat ${worst.toFixed(3)}% pot (${Math.max(...result.seats.map((s) => s.mbbPerHand)).toFixed(2)} mbb/hand)`;
  if (out.endsWith(".json")) {
    const json = {
      header: pack.header,
      // A PLO pack's values are per bucket: header.buckets holds the class-to-bucket map.
      ...(pack.header.buckets ? { buckets: pack.header.buckets.names } : { classes: HOLDEM_CLASSES }),
      nodes: pack.nodes.map((node) => ({
        ...node,
        actions: node.actions.map((a) => ({
          ...a,
          freqs: Array.from(a.freqs, (x) => Math.round(x * 1e4) / 1e4),
          evs: a.evs ? Array.from(a.evs, (x) => (Number.isNaN(x) ? null : Math.round(x * 1e4) / 1e4)) : null,
        })),
      })),
    };
    writeFileSync(out, `${JSON.stringify(json)}\n`);
    process.stdout.write(`${summary} -> ${out}\n`);
    return;
  }
  const file = out.endsWith(".pack") ? out : packPath(out, config.game, stack);
  writePack(file, pack).then(
    () => process.stdout.write(`${summary} -> ${file}\n`),
    (err: Error) => fail(err.message),
  );
}

/** `--all`: every (game, stack) of the committed configs, `jobs` child processes at a time. */
async function solveAll(out: string): Promise<void> {
  // One pack at a time, each solve using every core (the parallel solver); with several jobs the cores are
  // shared out among them.
  const jobs = Math.max(1, Math.floor(num("jobs", values.jobs) ?? 1));
  const threadsPerJob = Math.max(1, Math.floor(availableParallelism() / jobs));
  const queue: Array<{ game: GameId; stack: number }> = [];
  const seed = loadHeadsUpEquity().seed;
  // PLO inputs include the bucket equity table's identity (read once; the abstraction is pinned by the map
  // crc32 it records). Without the table the PLO games are skipped, with what to run to build it.
  const ploPath = PLO_SOLVED_GAMES.some((g) => !values.only || values.only.includes(`${g}:`))
    ? ploEquityPath()
    : null;
  const ploIdentity = ploPath === null ? null : ploIdentityOfTable(loadPloBucketEquity(ploPath));
  if (ploPath === null && !values.only) process.stderr.write("solve: --all goes on without the PLO games.\n");
  let skipped = 0;
  for (const game of [...SOLVED_GAMES, ...PLO_SOLVED_GAMES]) {
    const omaha = GAMES[game].variant === "omaha";
    if (omaha && ploIdentity === null) continue;
    const config = loadTreeConfig(treeConfigPath(game));
    for (const stack of configStacks(config)) {
      if (values.only && !values.only.split(",").includes(`${game}:${stack}`)) continue;
      const file = packPath(out, game, stack);
      if (!values.force && existsSync(file)) {
        try {
          const { header } = await readPackFile(file);
          const inputs = omaha
            ? solveInputHash(config, stack, ploIdentity!.equity.seed, ploIdentity!)
            : solveInputHash(config, stack, seed);
          if (recordedInputHash(header.provenance.notes) === inputs) {
            skipped++;
            continue;
          }
        } catch {
          // An unreadable pack is solved again.
        }
      }
      queue.push({ game, stack });
    }
  }
  // Smallest trees first, so packs land early.
  queue.sort((a, b) => a.stack - b.stack);
  process.stdout.write(
    `solving ${queue.length} packs with ${jobs} parallel jobs (${skipped} up to date, skipped)\n`,
  );
  const self = fileURLToPath(import.meta.url);
  let failed = 0;
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const args = ["--game", job.game, "--stack", String(job.stack), "--out", out, "--quiet"];
      for (const k of ["max-iterations", "max-seconds", "target"] as const) {
        if (values[k] !== undefined) args.push(`--${k}`, values[k]!);
      }
      const code = await new Promise<number>((resolve) =>
        fork(self, args, {
          env: {
            ...process.env,
            RANGES_SOLVER_THREADS: process.env.RANGES_SOLVER_THREADS ?? String(threadsPerJob),
          },
        }).on("exit", (c) => resolve(c ?? 1)),
      );
      if (code !== 0) failed++;
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  if (failed > 0) fail(`${failed} solve(s) failed`);
}

if (values.help) {
  process.stdout.write(USAGE);
} else if (values.all) {
  await solveAll(values.out ?? defaultPacksDir());
} else if (values.spot) {
  let raw: TreeConfig & { stack?: number };
  try {
    raw = JSON.parse(readFileSync(values.spot, "utf8"));
  } catch (err) {
    fail(`cannot read ${values.spot}: ${(err as Error).message}`);
    throw err;
  }
  const config = validateTreeConfig(raw, values.spot);
  const stacks = configStacks(config);
  const stack = num("stack", values.stack) ?? raw.stack ?? stacks[0] ?? fail("the spot names no stack");
  solveOne(
    config,
    values.spot,
    stack,
    values.out ?? fail("--spot needs --out (a .json or .pack file, or a folder)"),
  );
} else {
  const game = values.game ?? fail("give --game G --stack S, --all or --spot FILE (see --help)");
  if (!isGameId(game)) fail(`unknown game "${game}"`);
  const path = treeConfigPath(game as GameId);
  const config = loadTreeConfig(path);
  const stack = num("stack", values.stack) ?? fail("--stack is required");
  solveOne(config, repoRelative(path), stack, values.out ?? defaultPacksDir());
}
