/**
 * Reading the store's pack files and keeping them current: the scan at open (heads only), loads in the
 * helper process or on the calling thread, switching to a verified new version, failures and their back-off,
 * the rescan of the directories (`refresh`), and reads of a file's head for the resident index.
 */

import { type Dirent, readdirSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { GAME_IDS, type GameId } from "@ranges/core";
import type { Item } from "./body-cache.js";
import { type CompactPack, compactPack, type PackLoader } from "./compact.js";
import { readPackHead, readPackHeadSync } from "./files.js";
import type { MemoryBudget } from "./memory.js";
import type { Entry, PackHead } from "./pack-entry.js";
import type { PackSet } from "./pack-set.js";
import { gameDir, type PackHeader } from "./pack-types.js";
import { closeBlocksFile, PackPrepareError, type PreparedPack, signatureOf } from "./pack-worker.js";

/** First retry of a failed pack whose file did not change; doubles per failure up to MAX_RETRY_MS. */
const RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const packKey = (entry: Entry): string => `pack\u0000${entry.path}`;
const isPackFile = (f: Dirent): boolean => (f.isFile() || f.isSymbolicLink()) && f.name.endsWith(".pack");

export class PackLoading {
  private refreshing: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly packs: PackSet,
    private readonly memory: MemoryBudget<Item>,
    private readonly loader: PackLoader,
  ) {}

  /** Stops the helper process and releases the loaded packs; reads that settle later change nothing. */
  close(): void {
    this.closed = true;
    this.loader.close();
    for (const entry of this.packs.entries) this.unload(entry);
  }

  /** Drops the entry's loaded data (and its budget item). */
  private unload(entry: Entry): void {
    this.memory.delete(packKey(entry));
    entry.loaded?.close();
    entry.loaded = null;
  }

  /** The scan at open: registers the game's files and reads their heads on this thread. */
  scanGame(game: GameId): void {
    let files: Dirent[];
    try {
      files = readdirSync(join(this.packs.packsDir, gameDir(game)), { withFileTypes: true });
    } catch {
      return; // No directory: the game has no packs.
    }
    for (const name of files
      .filter(isPackFile)
      .map((f) => f.name)
      .sort()) {
      const entry = this.packs.add(game, name);
      if (entry.permanent) continue;
      try {
        const { head, fileBytes, signature } = readPackHeadSync(entry.path);
        this.checkIdentity(entry, head.header);
        entry.meta = { ...head, nodeCount: null };
        entry.fileBytes = fileBytes;
        entry.signature = signature;
      } catch (error) {
        entry.error = reasonOf(error);
        entry.failures = 1;
        entry.retryAt = Date.now() + RETRY_MS;
      }
    }
  }

  private checkIdentity(entry: Entry, header: PackHeader): void {
    if (header.game !== entry.game || header.stack !== entry.stack) {
      throw new Error(`the header says ${header.game} at ${header.stack}bb but the file is ${entry.file}`);
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Loading, switching versions, retrying

  /** Whether a load may start now: not while failing, until the back-off ends (or the file changes). */
  mayLoad(entry: Entry): boolean {
    return !entry.permanent && !entry.removed && (entry.error === null || Date.now() >= entry.retryAt);
  }

  /** Reads, verifies and installs the file in the helper process; never rejects (failures are recorded). */
  load(entry: Entry): Promise<void> {
    if (entry.loading !== null) return entry.loading;
    const read = ++entry.reads;
    const loading = this.loader.prepare(entry.path).then(
      (prepared) => this.settle(entry, read, () => this.install(entry, prepared), prepared),
      (error: unknown) =>
        this.settle(entry, read, () => {
          this.fail(entry, error);
          return false;
        }),
    );
    const tracked: Promise<void> = loading.finally(() => {
      if (entry.loading === tracked) entry.loading = null;
    });
    entry.loading = tracked;
    return tracked;
  }

  /**
   * The same on the calling thread (the synchronous query API), without the block compression: the pack
   * serves inflated (and counted so) until the helper's compressed copy replaces it.
   */
  private loadSync(entry: Entry): void {
    const read = ++entry.reads;
    let prepared: PreparedPack;
    try {
      prepared = this.loader.prepareSync(entry.path);
    } catch (error) {
      this.settle(entry, read, () => {
        this.fail(entry, error);
        return false;
      });
      return;
    }
    this.settle(entry, read, () => this.install(entry, prepared), prepared);
    if (entry.loaded !== null && !entry.loaded.compressed && this.loader.threaded) void this.load(entry);
  }

  /**
   * Applies the outcome of read number `read` unless a later read was applied already. A prepared pack that
   * is not installed in the end has its blocks released.
   */
  private settle(
    entry: Entry,
    read: number,
    apply: () => boolean | undefined,
    prepared?: PreparedPack,
  ): void {
    let installed = false;
    if (!this.closed && !entry.removed && read >= entry.applied) {
      entry.applied = read;
      try {
        installed = apply() === true;
      } catch (error) {
        this.fail(entry, error);
      }
    }
    if (!installed && prepared?.storage.kind === "file") closeBlocksFile(prepared.storage);
  }

  /**
   * Switches the entry to a verified file; the old version's cached bodies go with it. Returns whether the
   * prepared pack is now the loaded one.
   */
  private install(entry: Entry, prepared: PreparedPack): boolean {
    const { index } = prepared;
    if (entry.meta === null || entry.meta.checksum !== index.checksum)
      this.checkIdentity(entry, index.header);
    const meta: PackHead = {
      header: index.header,
      checksum: index.checksum,
      nodeCount: index.nodes.length,
    };
    entry.signature = prepared.signature;
    entry.failures = 0;
    entry.problem = null;
    const compressed = prepared.storage.kind !== "memory" || prepared.storage.compressed;
    const same = entry.loaded !== null && entry.loaded.checksum === meta.checksum;
    if (same && (entry.loaded!.compressed || !compressed)) return false;
    const pack = compactPack({ game: entry.game, stack: entry.stack!, file: entry.file }, prepared);
    const changed = entry.meta?.checksum !== meta.checksum;
    entry.loaded?.close();
    entry.meta = meta;
    entry.fileBytes = prepared.fileBytes;
    entry.loaded = pack;
    if (entry.error !== null || changed) this.packs.forgetFingerprint();
    entry.error = null;
    this.memory.set(packKey(entry), {
      kind: "pack",
      entry,
      bytes: pack.bytes,
      evicted: () => {
        pack.close();
        if (entry.loaded === pack) entry.loaded = null;
      },
      pinned: () => entry.loaded === pack && entry.problem !== null,
    });
    if (changed) this.dropBodies(entry);
    return true;
  }

  /**
   * Records a failed read. A loaded version keeps serving (`problem`, and the budget will not evict it);
   * otherwise the pack leaves the live stacks until a retry succeeds.
   */
  private fail(entry: Entry, error: unknown): void {
    const signature = error instanceof PackPrepareError ? error.signature : null;
    if (signature !== null) entry.signature = signature;
    entry.failures += 1;
    entry.retryAt = Date.now() + Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** (entry.failures - 1));
    if (entry.loaded !== null) {
      entry.problem = reasonOf(error);
      return;
    }
    if (entry.error === null) this.packs.forgetFingerprint();
    entry.error = reasonOf(error);
  }

  private dropBodies(entry: Entry): void {
    this.memory.deleteWhere((_, item) => item.kind === "body" && item.owner === entry);
  }

  /** `RangeStore.refresh`: one rescan at a time; a call while one runs shares it. */
  refresh(): Promise<void> {
    if (this.refreshing === null) {
      this.refreshing = this.rescan().finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private async rescan(): Promise<void> {
    for (const game of GAME_IDS) {
      let names: string[];
      try {
        names = (await readdir(join(this.packs.packsDir, gameDir(game)), { withFileTypes: true }))
          .filter(isPackFile)
          .map((f) => f.name)
          .sort();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") continue; // Unreadable now: keep the packs.
        names = [];
      }
      const present = new Set(names);
      for (const entry of this.packs.entries.filter((e) => e.game === game)) {
        if (!present.has(basename(entry.path))) this.remove(entry);
      }
      const known = new Set(this.packs.entries.filter((e) => e.game === game).map((e) => basename(e.path)));
      for (const name of names) if (!known.has(name)) this.packs.add(game, name);
      for (const entry of this.packs.entries.filter((e) => e.game === game && !e.permanent)) {
        await this.check(entry);
      }
    }
  }

  private async check(entry: Entry): Promise<void> {
    let signature: string;
    try {
      signature = signatureOf(await stat(entry.path));
    } catch {
      return; // Gone since the listing: the next refresh removes it.
    }
    if (entry.removed) return;
    const changed = signature !== entry.signature;
    const failing = entry.meta === null || entry.error !== null || entry.problem !== null;
    if (failing) {
      if (changed || Date.now() >= entry.retryAt) await this.load(entry);
    } else if (changed) {
      if (entry.loaded !== null) {
        await this.load(entry);
      } else {
        // Not in memory: nothing to verify ahead of a query, but no cached body of the old file may serve,
        // and the resident index takes the new file's header and node count.
        this.dropBodies(entry);
        entry.signature = signature;
        await this.indexHead(entry);
      }
    }
  }

  private remove(entry: Entry): void {
    entry.removed = true;
    this.packs.delete(entry);
    this.unload(entry);
    this.dropBodies(entry);
    this.packs.forgetFingerprint();
  }

  /** `RangeStore.prepare`: loads the pack in the helper process unless it is in memory or may not load. */
  async prepare(game: GameId, stack: number): Promise<void> {
    const entry = this.packs.get(game, stack);
    if (entry !== undefined && entry.loaded === null && this.mayLoad(entry)) await this.load(entry);
  }

  // -------------------------------------------------------------------------------------------------------
  // Reads for queries and for the resident index

  /** The pack for (game, stack), reading and verifying it on this thread if it is not in memory. */
  pack(game: GameId, stack: number): { entry: Entry; pack: CompactPack } {
    const entry = this.packs.entryFor(game, stack);
    if (entry.loaded === null) {
      if (!this.mayLoad(entry)) throw this.packs.unavailable(entry);
      this.loadSync(entry);
      if (entry.loaded === null) throw this.packs.unavailable(entry);
    } else {
      this.memory.get(packKey(entry));
    }
    return { entry, pack: entry.loaded };
  }

  /**
   * Reads the head of the entry's file for the resident index. The same version: its node count is kept. A
   * new version of a pack that is neither loaded nor loading replaces the head (as the scan at open would);
   * a loaded pack switches only through a full load (`check`). A file that fails the read fails the entry
   * unless a load owns it.
   */
  indexHead(entry: Entry): Promise<void> {
    if (entry.indexing !== null) return entry.indexing;
    const indexing = readPackHead(entry.path)
      .then(({ head, nodeCount, fileBytes, signature }) => {
        if (this.closed || entry.removed || entry.meta === null) return;
        if (head.checksum === entry.meta.checksum) {
          entry.meta = { ...entry.meta, nodeCount };
          return;
        }
        if (entry.loaded !== null || entry.loading !== null) return;
        this.checkIdentity(entry, head.header);
        entry.meta = { ...head, nodeCount };
        entry.fileBytes = fileBytes;
        entry.signature = signature;
        this.packs.forgetFingerprint();
        this.dropBodies(entry);
      })
      .catch((error: unknown) => {
        if (this.closed || entry.removed || entry.loaded !== null || entry.loading !== null) return;
        this.fail(entry, error);
      });
    const tracked: Promise<void> = indexing.finally(() => {
      if (entry.indexing === tracked) entry.indexing = null;
    });
    entry.indexing = tracked;
    return tracked;
  }
}
