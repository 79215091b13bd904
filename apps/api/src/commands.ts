/**
 * The `ranges` administration commands (src/cli.ts runs them; tests call `runCli` directly).
 *   ranges keys create --name N [--plan P] [--quota Q|unmetered]
 *   ranges keys list
 *   ranges keys revoke <id>
 *   ranges import monker <folder> --game G --stack S [--out data/packs]
 *   ranges worker [--count N] [--threads T]   (SOLVE_STALE_SECONDS: when a silent worker's job is retried)
 * DATABASE_URL (PostgreSQL) or ACCESS_DB (SQLite, default <repo>/var/access.sqlite) selects the account
 * database.
 */

import { mkdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { AccessStore } from "@ranges/access";
import { SolveQueue, SolveWorker } from "@ranges/queue";
import { importMonker, packPath, parseGameParam, parseStackParam, writePack } from "@ranges/store";
import { defaultAccessDb, defaultPacksDir } from "./paths.js";

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const consoleIo: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) };

const USAGE = `Usage:
  ranges keys create --name <name> [--plan <plan>] [--quota <calls per day>|unmetered]
  ranges keys list
  ranges keys revoke <id>
  ranges import monker <folder> --game <game> --stack <bb> [--out <packs dir>]
  ranges worker [--count <solves at a time, default 1>] [--threads <threads per solve, default all cores>]

Keys and the solve queue live in the account database: DATABASE_URL (PostgreSQL) when set, else ACCESS_DB (default var/access.sqlite). A new key is printed once; only its hash is stored.`;

class UsageError extends Error {}

/** The account database: DATABASE_URL (PostgreSQL) when set, else the ACCESS_DB SQLite file. */
function openAccess(): Promise<AccessStore> {
  const url = process.env.DATABASE_URL?.trim();
  if (url) return AccessStore.open(url);
  const file = defaultAccessDb();
  mkdirSync(dirname(file), { recursive: true });
  return AccessStore.open(file);
}

function parseQuota(raw: string | undefined): number | null {
  if (raw === undefined || /^(unmetered|none|null)$/i.test(raw)) return null;
  if (!/^\d+$/.test(raw))
    throw new UsageError(`--quota must be a whole number of calls per day or "unmetered", got "${raw}".`);
  return Number(raw);
}

async function keys(args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === "create") {
    const { values } = parseArgs({
      args: rest,
      options: { name: { type: "string" }, plan: { type: "string" }, quota: { type: "string" } },
      strict: true,
    });
    if (!values.name) throw new UsageError("keys create needs --name.");
    const access = await openAccess();
    try {
      const quota = parseQuota(values.quota);
      const created = await access.createKey({
        name: values.name,
        dailyQuota: quota,
        ...(values.plan === undefined ? {} : { plan: values.plan }),
      });
      const info = (await access.listKeys()).find((k) => k.id === created.id)!;
      io.out(
        `Created key ${created.prefix} "${info.name}" (plan ${info.plan}, ${quota === null ? "unmetered" : `${quota} calls per UTC day`}).`,
      );
      io.out("The key is shown once; store it now:");
      io.out(created.key);
    } finally {
      await access.close();
    }
    return;
  }
  if (sub === "list") {
    if (rest.length > 0) throw new UsageError("keys list takes no arguments.");
    const access = await openAccess();
    try {
      const list = await access.listKeys();
      if (list.length === 0) {
        io.out("No keys yet. Create one with: ranges keys create --name <name>");
        return;
      }
      const rows = list.map((k) => [
        k.prefix,
        k.name,
        k.plan,
        k.dailyQuota === null ? "unmetered" : String(k.dailyQuota),
        String(k.usedToday),
        k.createdAt.slice(0, 19).replace("T", " "),
        k.revokedAt ? `revoked ${k.revokedAt.slice(0, 10)}` : "active",
      ]);
      const head = ["KEY", "NAME", "PLAN", "QUOTA/DAY", "USED TODAY", "CREATED (UTC)", "STATUS"];
      const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      for (const r of [head, ...rows])
        io.out(
          r
            .map((c, i) => c.padEnd(widths[i]!))
            .join("  ")
            .trimEnd(),
        );
    } finally {
      await access.close();
    }
    return;
  }
  if (sub === "revoke") {
    const [id, ...extra] = rest;
    if (!id || extra.length > 0) throw new UsageError("keys revoke takes one key id (or its pr_ prefix).");
    const access = await openAccess();
    try {
      if (!(await access.revokeKey(id)))
        throw new Error(`No active key with id ${id}; see ranges keys list.`);
      io.out(`Revoked ${id.startsWith("pr_") ? id : `pr_${id}`}. Calls with it now get 401.`);
    } finally {
      await access.close();
    }
    return;
  }
  throw new UsageError(`Unknown keys command "${sub ?? ""}".`);
}

async function importCommand(args: string[], io: CliIo): Promise<void> {
  const [format, ...rest] = args;
  if (format !== "monker")
    throw new UsageError(`Unknown import format "${format ?? ""}"; supported: monker.`);
  const { values, positionals } = parseArgs({
    args: rest,
    options: { game: { type: "string" }, stack: { type: "string" }, out: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new UsageError("import monker takes one folder.");
  if (!values.game || !values.stack) throw new UsageError("import monker needs --game and --stack.");
  const game = parseGameParam(values.game);
  const stack = parseStackParam(game, values.stack);
  const folder = resolve(positionals[0]!);
  const outDir = values.out ? resolve(values.out) : defaultPacksDir();
  const data = await importMonker(folder, { game, stack });
  const file = packPath(outDir, game, stack);
  mkdirSync(dirname(file), { recursive: true });
  await writePack(file, data);
  io.out(`Imported ${data.nodes.length} nodes for ${game} at ${stack}bb from ${folder} into ${file}.`);
}

/** Runs one command; resolves to the process exit code (0 success, 1 failure). Never throws. */
/**
 * `ranges worker`: solves queued jobs until SIGINT or SIGTERM, then hands its running jobs back to the
 * queue. Any number of these, on any machines sharing DATABASE_URL, take jobs from one queue; a job is
 * claimed by one conditional update, so no two workers run it.
 */
async function workerCommand(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { count: { type: "string" }, threads: { type: "string" } },
    strict: true,
  });
  const whole = (name: string, raw: string | undefined, fallback: number): number => {
    if (raw === undefined) return fallback;
    if (!/^[1-9]\d{0,2}$/.test(raw))
      throw new UsageError(`--${name} must be a whole number from 1, got "${raw}".`);
    return Number(raw);
  };
  const count = whole("count", values.count, 1);
  const threads = whole("threads", values.threads, Math.max(1, availableParallelism()));
  const access = await openAccess();
  const stale = Number(process.env.SOLVE_STALE_SECONDS ?? "");
  const queue = await SolveQueue.open(access.database, {
    ...(Number.isFinite(stale) && stale > 0 ? { staleSeconds: stale } : {}),
  });
  const workers = Array.from({ length: count }, () => new SolveWorker(queue, { threads, log: io.out }));
  for (const w of workers) w.start();
  io.out(
    `${count} solve worker${count > 1 ? "s" : ""} (${threads} thread${threads > 1 ? "s" : ""} per solve) on ${access.backend} ${access.where}; Ctrl-C stops and hands running jobs back to the queue.`,
  );
  // The workers' timers do not hold the process open (they also run inside the API): this does, until a signal.
  const alive = setInterval(() => {}, 60_000);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  clearInterval(alive);
  await Promise.all(workers.map((w) => w.stop()));
  await queue.close();
  await access.close();
  io.out("Stopped.");
}

export async function runCli(argv: string[], io: CliIo = consoleIo): Promise<number> {
  const [group, ...rest] = argv;
  try {
    if (group === undefined || group === "help" || group === "--help" || group === "-h") {
      io.out(USAGE);
      return group === undefined ? 1 : 0;
    }
    if (group === "keys") await keys(rest, io);
    else if (group === "import") await importCommand(rest, io);
    else if (group === "worker") await workerCommand(rest, io);
    else throw new UsageError(`Unknown command "${group}".`);
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    io.err(`Error: ${message}`);
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(`\n${USAGE}`);
    }
    return 1;
  }
}
