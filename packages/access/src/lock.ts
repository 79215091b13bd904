/**
 * One metering process per SQLite file. SQLite meters are counted in the memory of the process that serves
 * the calls and written in batches, so limits are exact only while one process meters a file; a second API
 * or MCP server on the same file is refused at start with a message (PostgreSQL, via DATABASE_URL, is the
 * way to run several). The lock is a file beside the database, `<db>.lock`, holding the owner's pid; a lock
 * whose process is gone is taken over. Administration (the CLI) does not take it.
 */

import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";

export interface FileLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes `<path>.lock` for this process, or throws naming the process that holds it. */
export function lockDatabaseFile(path: string): FileLock {
  const lock = `${path}.lock`;
  const mine = `${lock}.${process.pid}`;
  writeFileSync(mine, `${process.pid} ${hostname()}\n`);
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(mine, lock); // atomic: fails when the lock exists
        let released = false;
        return {
          release: () => {
            if (released) return;
            released = true;
            try {
              if (readFileSync(lock, "utf8").startsWith(`${process.pid} `)) unlinkSync(lock);
            } catch {}
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      let holder = "";
      try {
        holder = readFileSync(lock, "utf8").trim();
      } catch {}
      const [pidText, host] = holder.split(" ");
      const pid = Number(pidText);
      const sameHost = host === undefined || host === hostname();
      if (Number.isInteger(pid) && pid > 0 && (!sameHost || alive(pid))) {
        throw new Error(
          `Another server process (pid ${pid}${sameHost ? "" : ` on ${host}`}) is metering calls on ${path}. SQLite limits are exact only with one such process per file: stop it, give this one its own ACCESS_DB, or set DATABASE_URL to a PostgreSQL database to run several servers on shared, exact limits.`,
        );
      }
      rmSync(lock, { force: true }); // its process is gone: take it over
    }
    throw new Error(`Could not take the lock ${lock}.`);
  } finally {
    rmSync(mine, { force: true });
  }
}
