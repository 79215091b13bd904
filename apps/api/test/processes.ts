/**
 * Real processes of this app run from its TypeScript sources (Node strips the types; a resolve hook maps
 * `./x.js` imports to `./x.ts`), for tests of several servers or workers on one account database.
 * PostgreSQL availability and the skip/REQUIRE_POSTGRES rule come from the account tests' own helper.
 */

import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SOURCE_EXEC_ARGV } from "@ranges/store";

export {
  dropSchemas,
  POSTGRES_AVAILABLE,
  TEST_DATABASE_URL,
} from "../../../packages/access/test/backends.js";

const started: ChildProcess[] = [];

/** Runs `src/<script>.ts` with `args` and extra environment; the process is tracked for `killAll`. */
export function spawnSource(
  script: "main" | "cli",
  args: readonly string[],
  env: Record<string, string>,
  stdio: StdioOptions,
): ChildProcess {
  const file = fileURLToPath(new URL(`../src/${script}.ts`, import.meta.url));
  const child = spawn(process.execPath, [...SOURCE_EXEC_ARGV, file, ...args], {
    env: { ...process.env, ...env },
    stdio,
  });
  started.push(child);
  return child;
}

/** Kills every process `spawnSource` started (call from afterAll). */
export function killAll(): void {
  for (const c of started.splice(0)) c.kill("SIGKILL");
}

/** A connection string for `url` whose connections use `schema` (pg reads `options` from the URL). */
export const withSearchPath = (url: string, schema: string): string =>
  `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
