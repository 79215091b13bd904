/**
 * The store's registry of pack files: one `Entry` per `.pack` file found, the entry of each (game, stack),
 * and what follows from which packs are live (their stacks and headers, the fingerprint in catalog ETags,
 * the errors for an unknown stack or an unavailable pack). It reads no file: `pack-loading.ts` does.
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { type GameId, RangesError } from "@ranges/core";
import { type Entry, isLive } from "./pack-entry.js";
import { gameDir, type PackHeader } from "./pack-types.js";

const STACK_NAME = /^(\d+(?:\.\d+)?)\.pack$/;

const sha256hex = (text: string): string => createHash("sha256").update(text).digest("hex");

export class PackSet {
  /** Every `.pack` file found and not removed since, in the order found. */
  readonly entries: Entry[] = [];
  private readonly byGame = new Map<GameId, Map<number, Entry>>();
  private liveFingerprintMemo: string | null = null;

  constructor(readonly packsDir: string) {}

  /** Registers a file (not read yet: `meta` null). A bad name or a taken stack is a permanent error. */
  add(game: GameId, name: string): Entry {
    const m = STACK_NAME.exec(name);
    const stack = m ? Number(m[1]) : null;
    let stacks = this.byGame.get(game);
    if (stacks === undefined) {
      stacks = new Map();
      this.byGame.set(game, stacks);
    }
    const taken = stack === null ? undefined : stacks.get(stack);
    const error =
      stack === null
        ? "the file name is not <stack>.pack, e.g. 100.pack"
        : taken !== undefined
          ? `another file already holds ${game} at ${stack}bb (${taken.file})`
          : null;
    const entry: Entry = {
      game,
      stack,
      file: `${gameDir(game)}/${name}`,
      path: join(this.packsDir, gameDir(game), name),
      permanent: error !== null,
      meta: null,
      fileBytes: 0,
      error,
      loaded: null,
      loading: null,
      indexing: null,
      signature: null,
      problem: null,
      failures: 0,
      retryAt: 0,
      reads: 0,
      applied: 0,
      removed: false,
    };
    this.entries.push(entry);
    if (error === null) stacks.set(stack!, entry);
    return entry;
  }

  /** Takes an entry whose file is gone out of the registry (its stack is free again). */
  delete(entry: Entry): void {
    this.entries.splice(this.entries.indexOf(entry), 1);
    const stacks = this.byGame.get(entry.game);
    if (entry.stack !== null && stacks?.get(entry.stack) === entry) stacks.delete(entry.stack);
  }

  /** The entry that holds (game, stack), live or not. */
  get(game: GameId, stack: number): Entry | undefined {
    return this.byGame.get(game)?.get(stack);
  }

  /** Sorted stacks of `game` whose pack is good (header verified, and data verified if already read). */
  liveStacks(game: GameId): number[] {
    const stacks = this.byGame.get(game);
    if (!stacks) return [];
    return [...stacks.values()]
      .filter((e) => isLive(e))
      .map((e) => e.stack!)
      .sort((a, b) => a - b);
  }

  /** Headers of the live packs of `game`, by stack (read at open: no pack data is loaded). */
  liveHeaders(game: GameId): Array<{ stack: number; header: PackHeader }> {
    const stacks = this.byGame.get(game);
    if (!stacks) return [];
    return [...stacks.values()]
      .filter((e) => isLive(e))
      .map((e) => ({ stack: e.stack!, header: e.meta!.header }))
      .sort((a, b) => a.stack - b.stack);
  }

  /** The entries of the live packs of `game`, by stack. */
  liveEntries(game: GameId): Entry[] {
    return [...(this.byGame.get(game)?.values() ?? [])]
      .filter((e) => isLive(e))
      .sort((a, b) => a.stack! - b.stack!);
  }

  unavailable(entry: Entry): RangesError {
    const retry = entry.permanent
      ? "the file must be renamed or removed"
      : "the store tries it again when the file changes; the pack must be regenerated or re-imported if it stays bad";
    return new RangesError(
      "pack_unavailable",
      `The pack for ${entry.game} at ${entry.stack}bb (${entry.file}) is unavailable: ${entry.error}. Other stacks and games keep serving; ${retry}.`,
      { file: entry.file, stacks: this.liveStacks(entry.game) },
    );
  }

  entryFor(game: GameId, stack: number): Entry {
    const entry = this.byGame.get(game)?.get(stack);
    if (!entry) {
      const live = this.liveStacks(game);
      throw new RangesError(
        "unknown_stack",
        live.length > 0
          ? `${game} has no pack at ${stack}bb. Live stacks: ${live.join(", ")}; use one of them as stack.`
          : `${game} has no live stacks: no pack is installed for it.`,
        { stacks: live },
      );
    }
    return entry;
  }

  /** Hash of every live pack's checksum: changes when a pack turns bad, so catalog ETags change too. */
  liveFingerprint(): string {
    if (this.liveFingerprintMemo === null) {
      const lines = this.entries
        .filter((e) => isLive(e))
        .map((e) => `${e.file}:${e.meta!.checksum}`)
        .sort();
      this.liveFingerprintMemo = sha256hex(lines.join("\n"));
    }
    return this.liveFingerprintMemo;
  }

  /** Drops the memoized fingerprint: a pack joined or left the live packs, or a live pack changed. */
  forgetFingerprint(): void {
    this.liveFingerprintMemo = null;
  }
}
