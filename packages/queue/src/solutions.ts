/**
 * Finished solves as private packs: a solution is read exactly like a library pack (node, range, spots), from
 * a `RangeStore` over a directory of its own holding the one pack, written from the bytes the worker stored.
 * Only the job's owner can open it. The most recently used stores stay open (`MAX_OPEN`).
 */

import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type GameId, RangesError } from "@ranges/core";
import { packPath, RangeStore } from "@ranges/store";
import type { SolveJob, SolveQueue } from "./queue.js";

const MAX_OPEN = 8;

export interface OpenSolution {
  readonly job: SolveJob;
  readonly store: RangeStore;
  readonly game: GameId;
  readonly stack: number;
}

export class SolutionPacks {
  private readonly open = new Map<string, Promise<OpenSolution>>();

  constructor(
    private readonly queue: SolveQueue,
    /** Where solution packs are unpacked (one directory per solution). */
    private readonly dir: string,
  ) {}

  /** The caller's finished solution, ready to query; 404 when it is not theirs, 409-style 400 when not done. */
  async get(keyId: string, id: string): Promise<OpenSolution> {
    const job = await this.queue.require(keyId, id);
    if (job.status === "cancelled" || job.status === "failed") {
      throw new RangesError(
        "invalid_parameter",
        job.status === "cancelled"
          ? `Solve ${id} was cancelled before it finished: it has no strategies to read. Enqueue it again to solve it.`
          : `Solve ${id} failed (${job.error ?? "no reason recorded"}): it has no strategies to read. Enqueue it again, with a smaller tree if it ran out of time.`,
      );
    }
    if (job.status !== "done") {
      throw new RangesError(
        "invalid_parameter",
        `Solve ${id} is ${job.status}${job.status === "running" && job.progress ? ` (iteration ${job.progress.iteration}, worst seat ${job.progress.worstPctPot.toFixed(2)}% pot)` : ""}: its strategies can be read once it is done (get_queued_solve shows its progress).`,
      );
    }
    const key = `${keyId}/${id}`;
    let entry = this.open.get(key);
    if (entry === undefined) {
      entry = this.load(keyId, job);
      this.open.set(key, entry);
      entry.catch(() => this.open.delete(key));
      while (this.open.size > MAX_OPEN) {
        const [oldest, value] = this.open.entries().next().value as [string, Promise<OpenSolution>];
        this.open.delete(oldest);
        value.then(
          (s) => s.store.close(),
          () => {},
        );
      }
    } else {
      this.open.delete(key);
      this.open.set(key, entry);
    }
    return entry;
  }

  private async load(keyId: string, job: SolveJob): Promise<OpenSolution> {
    const bytes = await this.queue.resultPack(keyId, job.id);
    if (!bytes)
      throw new RangesError("pack_unavailable", `The pack of solve ${job.id} is missing; enqueue it again.`);
    const root = join(this.dir, job.id);
    const game = job.game as GameId;
    const file = packPath(root, game, job.stack);
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, bytes);
    const store = RangeStore.open({ packsDir: root, refreshMs: 0 });
    return { job, store, game, stack: job.stack };
  }

  /** Closes the open stores and removes the unpacked files. */
  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    for (const p of all) {
      try {
        (await p).store.close();
      } catch {}
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}
