/**
 * RangeStore: the packs of a directory, served as schema-typed objects and as cached JSON.
 *
 * `open` scans `<packsDir>/<gameDir>/<stack>.pack` and reads only the header and index of each file (their
 * checksum is verified then). The data section of a pack is read, verified and kept in compact form
 * (`compact.ts`) when a query first needs it: in a helper process for `jsonAsync` and `prepare`, on the calling
 * thread for the synchronous queries. A pack that fails a check answers 503 `pack_unavailable` and leaves the
 * live stacks while every other pack keeps serving; `open` itself never throws for a bad pack or a missing
 * directory.
 *
 * Packs may change while the store runs. Every `refreshMs` (and on `refresh()`) the store looks at the
 * directories again: a new file is verified in full and joins the live stacks; a replaced file of a loaded
 * pack is verified in full before it is switched in (the old version serves until then, and keeps serving if
 * the new file fails); a removed file leaves; a failed pack is tried again when its file changes, and after
 * a back-off (1 s doubling to 60 s) for errors that leave the file as it was.
 *
 * Memory: one budget (`cacheBytes`) covers the cached response bodies and the loaded packs, counted at
 * estimates of their real size, least recently used out first (`memory.ts`).
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { type Dirent, readdirSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import {
  GAME_IDS,
  GAMES,
  type GameId,
  HOLDEM_CLASS_COUNT,
  PLO_CLASS_COUNT,
  parseHand,
  parsePath,
  RangesError,
} from "@ranges/core";
import {
  type Catalog,
  type Config,
  type Discovery,
  type Node,
  type PloGameDoc,
  type Range,
  SCHEMA_VERSION,
  type Spots,
  unitsFor,
} from "@ranges/schema";
import { type CompactPack, compactPack, PackLoader } from "./compact.js";
import { readPackHead, readPackHeadSync } from "./files.js";
import { bodyCost, MemoryBudget, type MemoryItem } from "./memory.js";
import { gameDir, type PackHeader } from "./pack-types.js";
import { closeBlocksFile, PackPrepareError, type PreparedPack, signatureOf } from "./pack-worker.js";
import { parseGameParam, parseMinFreqParam, parseStackParam } from "./params.js";
import { ploGameDoc } from "./plo-doc.js";
import {
  configView,
  locateAction,
  locateNode,
  nextSeatAfter,
  nodeBytes,
  nodeView,
  rangeBytes,
  rangeView,
  spotsView,
} from "./views.js";

export interface RangeStoreOptions {
  /** Directory holding `<gameDir>/<stack>.pack` files, e.g. `data/packs`. */
  readonly packsDir: string;
  /**
   * Memory budget in bytes for cached response bodies and loaded packs together (default 64 MiB). 0 caches
   * no bodies and keeps only the most recently used pack loaded.
   */
  readonly cacheBytes?: number;
  /**
   * How often, in milliseconds, the store looks for new, replaced, removed and recovered pack files (default
   * 2000; 0 only when `refresh()` is called). The timer does not keep the process alive.
   */
  readonly refreshMs?: number;
  /**
   * Read, verify and re-compress packs in a helper process (default true), whose memory goes back to the
   * system when it exits (it stops after 10 s without work); false does it on the event loop.
   */
  readonly worker?: boolean;
  /**
   * Directory for the loaded packs' compressed blocks (default: the system's temporary directory). Each
   * pack's blocks go to a file that is deleted as soon as it is open, so they live in the OS page cache and
   * nothing is left behind; null keeps them in the process's memory (counted in the budget).
   */
  readonly spillDir?: string | null;
}

export interface NodeQueryOptions {
  /** One hand class (or concrete cards): restricts weights and EVs to it. */
  readonly hand?: string;
  /** Drop weights at or below this frequency (and their EVs); removes nothing when `full` is set. */
  readonly minFreq?: number;
  /** Hold'em only: every class with an explicit weight. */
  readonly full?: boolean;
}

export interface RangeQueryOptions {
  readonly hand?: string;
  readonly minFreq?: number;
}

/** One query of the JSON fast path; the fields mirror the API's query parameters. */
export type StoreQuery =
  | { readonly kind: "catalog" }
  | { readonly kind: "discovery"; readonly game: GameId }
  | {
      readonly kind: "node";
      readonly game: GameId;
      readonly stack: number;
      readonly history: string;
      readonly hand?: string;
      readonly minFreq?: number;
      readonly full?: boolean;
    }
  | {
      readonly kind: "range";
      readonly game: GameId;
      readonly stack: number;
      readonly spot: string;
      readonly hand?: string;
      readonly minFreq?: number;
    }
  | { readonly kind: "spots"; readonly game: GameId; readonly stack: number }
  | { readonly kind: "config"; readonly game: GameId; readonly stack: number };

export interface JsonResult {
  /** The serialized response object (decoded from `bytes` on each read: send `bytes`). */
  readonly body: string;
  /** The body as UTF-8, the form the cache holds. */
  readonly bytes: Buffer;
  /** Strong ETag (quoted), stable across restarts for the same packs and query. */
  readonly etag: string;
  /**
   * The cache key of the normalized query: `peek(key)` answers the same body while the cache holds it (a
   * server may remember a URL's key and skip parsing it again).
   */
  readonly key: string;
}

export interface CacheStats {
  /** Cached response bodies and their estimated bytes. */
  readonly entries: number;
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
  /** Loaded packs and their estimated bytes. */
  readonly packs: number;
  readonly packBytes: number;
  /** The budget that bodies and packs share (`cacheBytes`). */
  readonly budget: number;
}

export interface PackStatus {
  readonly game: GameId;
  /** Null when the file name is not `<stack>.pack`. */
  readonly stack: number | null;
  /** Path relative to the packs directory, e.g. `nlmtt8/40.pack`. */
  readonly file: string;
  readonly path: string;
  readonly ok: boolean;
  readonly error: string | null;
  /** Pack checksum (hex); null when the header could not be read. */
  readonly checksum: string | null;
  /** Whether the data section has been read and verified (and is in memory now). */
  readonly dataLoaded: boolean;
  /**
   * Set while the file on disk fails to verify but a version loaded before keeps serving (the pack stays
   * live); null otherwise.
   */
  readonly problem: string | null;
}

export interface PackMeta {
  readonly header: PackHeader;
  /** Hex SHA-256 over preamble, header and index (the preamble holds the data section's SHA-256). */
  readonly checksum: string;
  readonly nodeCount: number;
  readonly fileBytes: number;
  readonly path: string;
}

/** One live pack in the store's resident index (see `packSummaries`). */
export interface PackSummary extends PackMeta {
  readonly game: GameId;
  readonly stack: number;
  /** Whether the data section has been read and verified (the header and index always are). */
  readonly dataLoaded: boolean;
}

/**
 * What the store keeps of a pack file whether or not it is loaded: its verified header and checksum, and the
 * node count of its index once known (at the first load, or read off the event loop by `packSummaries`).
 */
interface PackHead {
  readonly header: PackHeader;
  readonly checksum: string;
  readonly nodeCount: number | null;
}

interface Entry {
  readonly game: GameId;
  readonly stack: number | null;
  readonly file: string;
  readonly path: string;
  /** Never serves: the file name is not a stack, or another file holds the stack. */
  readonly permanent: boolean;
  /** Header and index of the version being served (verified); null before any file verified. */
  meta: PackHead | null;
  fileBytes: number;
  /** Why the pack does not serve now (it is not live); null when it does. */
  error: string | null;
  /** The data of `meta`, when in memory. */
  loaded: CompactPack | null;
  loading: Promise<void> | null;
  /** A read of the file's head for the resident index (`indexHead`), while one runs. */
  indexing: Promise<void> | null;
  /** Signature of the file as last read or stat'ed for a load; a change means the file changed. */
  signature: string | null;
  /** A newer file failed while `loaded` keeps serving. */
  problem: string | null;
  failures: number;
  /** No new attempt before this time (ms) unless the file changes. */
  retryAt: number;
  /** Reads started and the latest applied: an older read never overrides a newer one. */
  reads: number;
  applied: number;
  removed: boolean;
}

type Item =
  | (MemoryItem & { readonly kind: "body"; readonly result: CachedJson; readonly owner: Entry | null })
  | (MemoryItem & { readonly kind: "pack"; readonly entry: Entry });

/** A response body already serialized as UTF-8 (node and range bodies, `nodeBytes` and `rangeBytes`). */
class RawJson {
  constructor(readonly bytes: Buffer) {}
}

/** A cached response: the UTF-8 bytes in a buffer of their own (not a slice of a shared pool). */
class CachedJson implements JsonResult {
  constructor(
    readonly bytes: Buffer,
    readonly etag: string,
    readonly key: string,
  ) {}
  get body(): string {
    return this.bytes.toString("utf8");
  }
}

function utf8(text: string): Buffer {
  const out = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  out.write(text, "utf8");
  return out;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
const DEFAULT_REFRESH_MS = 2000;
/** First retry of a failed pack whose file did not change; doubles per failure up to MAX_RETRY_MS. */
const RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;
const STACK_NAME = /^(\d+(?:\.\d+)?)\.pack$/;
/** Pack heads `packSummaries` reads at once. */
const HEAD_READS_AT_ONCE = 4;
/** Bump when response bodies change for the same packs, so ETags change with them. */
const BODY_VERSION = "store-json-3";

const sha256hex = (text: string): string => createHash("sha256").update(text).digest("hex");
const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const packKey = (entry: Entry): string => `pack\u0000${entry.path}`;
const isPackFile = (f: Dirent): boolean => (f.isFile() || f.isSymbolicLink()) && f.name.endsWith(".pack");

/** A normalized query: its cache key, the pack it reads (if any), its builder and its ETag input. */
interface Normal {
  readonly key: string;
  readonly entry: Entry | null;
  readonly build: () => unknown;
  readonly tag: () => string;
}

export class RangeStore {
  readonly packsDir: string;
  private readonly entries: Entry[] = [];
  private readonly byGame = new Map<GameId, Map<number, Entry>>();
  private readonly memory: MemoryBudget<Item>;
  private readonly loader: PackLoader;
  private readonly timer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private closed = false;
  private hits = 0;
  private misses = 0;
  private liveFingerprintMemo: string | null = null;

  private constructor(options: RangeStoreOptions) {
    this.packsDir = options.packsDir;
    this.memory = new MemoryBudget<Item>(Math.max(0, options.cacheBytes ?? DEFAULT_CACHE_BYTES));
    this.loader = new PackLoader(
      options.worker ?? true,
      options.spillDir === undefined ? tmpdir() : options.spillDir,
    );
    const refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
    if (refreshMs > 0) {
      this.timer = setInterval(() => void this.refresh(), refreshMs);
      this.timer.unref();
    }
  }

  /** Scans the packs directory; never throws for a missing directory or a bad pack (see `packStatus`). */
  static open(options: RangeStoreOptions): RangeStore {
    const store = new RangeStore(options);
    for (const game of GAME_IDS) store.scanGame(game);
    return store;
  }

  /** Stops the refresh timer and the helper process and releases the loaded packs. */
  close(): void {
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.loader.close();
    for (const entry of this.entries) this.unload(entry);
  }

  /** Drops the entry's loaded data (and its budget item). */
  private unload(entry: Entry): void {
    this.memory.delete(packKey(entry));
    entry.loaded?.close();
    entry.loaded = null;
  }

  private scanGame(game: GameId): void {
    let files: Dirent[];
    try {
      files = readdirSync(join(this.packsDir, gameDir(game)), { withFileTypes: true });
    } catch {
      return; // No directory: the game has no packs.
    }
    for (const name of files
      .filter(isPackFile)
      .map((f) => f.name)
      .sort()) {
      const entry = this.addEntry(game, name);
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

  /** Registers a file (not read yet: `meta` null). A bad name or a taken stack is a permanent error. */
  private addEntry(game: GameId, name: string): Entry {
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

  private checkIdentity(entry: Entry, header: PackHeader): void {
    if (header.game !== entry.game || header.stack !== entry.stack) {
      throw new Error(`the header says ${header.game} at ${header.stack}bb but the file is ${entry.file}`);
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Loading, switching versions, retrying

  /** Whether a load may start now: not while failing, until the back-off ends (or the file changes). */
  private mayLoad(entry: Entry): boolean {
    return !entry.permanent && !entry.removed && (entry.error === null || Date.now() >= entry.retryAt);
  }

  /** Reads, verifies and installs the file in the helper process; never rejects (failures are recorded). */
  private load(entry: Entry): Promise<void> {
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
    if (entry.error !== null || changed) this.liveFingerprintMemo = null;
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
    if (entry.error === null) this.liveFingerprintMemo = null;
    entry.error = reasonOf(error);
  }

  private dropBodies(entry: Entry): void {
    this.memory.deleteWhere((_, item) => item.kind === "body" && item.owner === entry);
  }

  /**
   * Looks at the packs directory again (the timer calls it every `refreshMs`): new files are verified in full
   * and join the live stacks; a changed file of a loaded or failing pack is verified in full and switched in,
   * the loaded version serving until then; a changed file of a pack not in memory drops the pack's cached
   * bodies, so the next query reads the new file; removed files leave; failing packs whose back-off ended
   * are tried again. Resolves when the packs it started loading are settled; never rejects.
   */
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
        names = (await readdir(join(this.packsDir, gameDir(game)), { withFileTypes: true }))
          .filter(isPackFile)
          .map((f) => f.name)
          .sort();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") continue; // Unreadable now: keep the packs.
        names = [];
      }
      const present = new Set(names);
      for (const entry of this.entries.filter((e) => e.game === game)) {
        if (!present.has(basename(entry.path))) this.remove(entry);
      }
      const known = new Set(this.entries.filter((e) => e.game === game).map((e) => basename(e.path)));
      for (const name of names) if (!known.has(name)) this.addEntry(game, name);
      for (const entry of this.entries.filter((e) => e.game === game && !e.permanent)) {
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
    this.entries.splice(this.entries.indexOf(entry), 1);
    const stacks = this.byGame.get(entry.game);
    if (entry.stack !== null && stacks?.get(entry.stack) === entry) stacks.delete(entry.stack);
    this.unload(entry);
    this.dropBodies(entry);
    this.liveFingerprintMemo = null;
  }

  /**
   * Loads the pack of (game, stack) in the helper process if it is not in memory, so that the synchronous
   * queries that follow do not read it on the event loop. Never rejects; a failure shows in the query.
   */
  async prepare(game: GameId, stack: number): Promise<void> {
    const entry = this.byGame.get(game)?.get(stack);
    if (entry !== undefined && entry.loaded === null && this.mayLoad(entry)) await this.load(entry);
  }

  // -------------------------------------------------------------------------------------------------------
  // Pack bookkeeping

  private live(entry: Entry): boolean {
    return !entry.permanent && entry.meta !== null && entry.error === null;
  }

  /** Sorted stacks of `game` whose pack is good (header verified, and data verified if already read). */
  liveStacks(game: GameId): number[] {
    const stacks = this.byGame.get(game);
    if (!stacks) return [];
    return [...stacks.values()]
      .filter((e) => this.live(e))
      .map((e) => e.stack!)
      .sort((a, b) => a - b);
  }

  /** Headers of the live packs of `game`, by stack (read at open: no pack data is loaded). */
  private liveHeaders(game: GameId): Array<{ stack: number; header: PackHeader }> {
    const stacks = this.byGame.get(game);
    if (!stacks) return [];
    return [...stacks.values()]
      .filter((e) => this.live(e))
      .map((e) => ({ stack: e.stack!, header: e.meta!.header }))
      .sort((a, b) => a.stack - b.stack);
  }

  /** The PLO description of `game` (pot-limit tree, abstraction, exploitability); null for hold'em or no pack. */
  ploDoc(game: GameId): PloGameDoc | null {
    game = parseGameParam(game);
    return GAMES[game].variant === "omaha" ? ploGameDoc(this.liveHeaders(game)) : null;
  }

  /** Every `.pack` file found, with whether it serves and why not. */
  packStatus(): PackStatus[] {
    return this.entries.map((e) => ({
      game: e.game,
      stack: e.stack,
      file: e.file,
      path: e.path,
      ok: this.live(e),
      error: e.error,
      checksum: e.meta?.checksum ?? null,
      dataLoaded: e.loaded !== null,
      problem: e.problem,
    }));
  }

  private unavailable(entry: Entry): RangesError {
    const retry = entry.permanent
      ? "the file must be renamed or removed"
      : "the store tries it again when the file changes; the pack must be regenerated or re-imported if it stays bad";
    return new RangesError(
      "pack_unavailable",
      `The pack for ${entry.game} at ${entry.stack}bb (${entry.file}) is unavailable: ${entry.error}. Other stacks and games keep serving; ${retry}.`,
      { file: entry.file, stacks: this.liveStacks(entry.game) },
    );
  }

  private entryFor(game: GameId, stack: number): Entry {
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

  /** The pack for (game, stack), reading and verifying it on this thread if it is not in memory. */
  private pack(game: GameId, stack: number): { entry: Entry; pack: CompactPack } {
    const entry = this.entryFor(game, stack);
    if (entry.loaded === null) {
      if (!this.mayLoad(entry)) throw this.unavailable(entry);
      this.loadSync(entry);
      if (entry.loaded === null) throw this.unavailable(entry);
    } else {
      this.memory.get(packKey(entry));
    }
    return { entry, pack: entry.loaded };
  }

  /** Header facts of a pack for metadata tools; verifies the pack like a query does. */
  packMeta(game: GameId, stack: number): PackMeta {
    game = parseGameParam(game);
    const { entry, pack } = this.pack(game, parseStackParam(game, stack));
    return {
      header: entry.meta!.header,
      checksum: entry.meta!.checksum,
      nodeCount: pack.nodes.length,
      fileBytes: entry.fileBytes,
      path: entry.path,
    };
  }

  /**
   * The resident index of the live packs (of `game`, or of every game), in game order then by stack: header,
   * checksum, node count and file size, without reading any pack's data. The node count of a pack not loaded
   * yet is read once per file version, off the event loop (`readPackHead`); after that this answers from
   * memory. Never rejects; a pack whose file turns out bad on that read leaves the list (as after a query).
   */
  async packSummaries(game?: GameId): Promise<PackSummary[]> {
    const games = game === undefined ? GAME_IDS : [parseGameParam(game)];
    const liveEntries = () =>
      games.flatMap((g) =>
        [...(this.byGame.get(g)?.values() ?? [])]
          .filter((e) => this.live(e))
          .sort((a, b) => a.stack! - b.stack!),
      );
    // A few heads at a time: each read inflates an index of up to a few MB.
    const pending = liveEntries().filter((e) => e.meta!.nodeCount === null);
    for (let i = 0; i < pending.length; i += HEAD_READS_AT_ONCE) {
      await Promise.all(pending.slice(i, i + HEAD_READS_AT_ONCE).map((e) => this.indexHead(e)));
    }
    return liveEntries().map((e) => this.summaryOf(e));
  }

  /**
   * `packMeta` from the resident index: throws as a query does for an unknown stack or an unavailable pack,
   * but reads no pack data (only the head of a file whose node count is not known yet, off the event loop).
   */
  async packSummary(game: GameId, stack: number): Promise<PackSummary> {
    game = parseGameParam(game);
    const entry = this.entryFor(game, parseStackParam(game, stack));
    if (this.live(entry) && entry.meta!.nodeCount === null) await this.indexHead(entry);
    if (!this.live(entry)) throw this.unavailable(entry);
    return this.summaryOf(entry);
  }

  private summaryOf(entry: Entry): PackSummary {
    return {
      game: entry.game,
      stack: entry.stack!,
      header: entry.meta!.header,
      checksum: entry.meta!.checksum,
      nodeCount: entry.meta!.nodeCount ?? entry.loaded?.nodes.length ?? 0,
      fileBytes: entry.fileBytes,
      path: entry.path,
      dataLoaded: entry.loaded !== null,
    };
  }

  /**
   * Reads the head of the entry's file for the resident index. The same version: its node count is kept. A
   * new version of a pack that is neither loaded nor loading replaces the head (as the scan at open would);
   * a loaded pack switches only through a full load (`check`). A file that fails the read fails the entry
   * unless a load owns it.
   */
  private indexHead(entry: Entry): Promise<void> {
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
        this.liveFingerprintMemo = null;
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

  /** Hash of every live pack's checksum: changes when a pack turns bad, so catalog ETags change too. */
  private liveFingerprint(): string {
    if (this.liveFingerprintMemo === null) {
      const lines = this.entries
        .filter((e) => this.live(e))
        .map((e) => `${e.file}:${e.meta!.checksum}`)
        .sort();
      this.liveFingerprintMemo = sha256hex(lines.join("\n"));
    }
    return this.liveFingerprintMemo;
  }

  // -------------------------------------------------------------------------------------------------------
  // Queries

  /** Every game of the service with its live stacks (an empty list when no pack is installed). */
  catalog(): Catalog {
    return {
      schemaVersion: SCHEMA_VERSION,
      units: unitsFor(true),
      games: GAME_IDS.map((game) => {
        const info = GAMES[game];
        const plo = this.ploDoc(game);
        return {
          game,
          title: info.title,
          variant: info.variant,
          format: info.format,
          stacks: this.liveStacks(game),
          positions: [...info.seats],
          classCount: info.classSet === "plo16432" ? PLO_CLASS_COUNT : HOLDEM_CLASS_COUNT,
          tokens: info.tokenStyle,
          evUnit: info.hasEvs ? "sb" : null,
          keyless: [...info.keyless],
          operations: [...info.serves],
          ...(plo === null ? {} : { plo }),
        };
      }),
    };
  }

  discovery(game: GameId): Discovery {
    game = parseGameParam(game);
    const info = GAMES[game];
    const plo = this.ploDoc(game);
    return {
      schemaVersion: SCHEMA_VERSION,
      units: unitsFor(info.hasEvs),
      game,
      stacks: this.liveStacks(game),
      positions: [...info.seats],
      ...(plo === null ? {} : { plo }),
    };
  }

  node(game: GameId, stack: number, history: string, options: NodeQueryOptions = {}): Node {
    const q = this.nodeQuery(game, stack, history, options);
    return nodeView(q.pack, q.node, q.opts);
  }

  /** `JSON.stringify(node(...))`, built without the objects (the JSON path's builder). */
  private nodeText(game: GameId, stack: number, history: string, options: NodeQueryOptions): RawJson {
    const q = this.nodeQuery(game, stack, history, options);
    return new RawJson(nodeBytes(q.pack, q.node, q.opts));
  }

  /** A node query checked and located: the pack, the node and the view's options. */
  private nodeQuery(game: GameId, stack: number, history: string, options: NodeQueryOptions) {
    game = parseGameParam(game);
    stack = parseStackParam(game, stack);
    const hand =
      options.hand === undefined || options.hand === "" ? undefined : parseHand(game, options.hand);
    const minFreq = parseMinFreqParam(options.minFreq);
    const full = options.full === true;
    if (full && GAMES[game].variant !== "holdem") {
      throw new RangesError(
        "invalid_parameter",
        `full=1 is for hold'em games only; ${game} has 16,432 PLO classes. Leave full out and use minFreq (e.g. minFreq=0.05) to keep the response small.`,
        { parameter: "full" },
      );
    }
    const parsed = parsePath(game, history);
    if (parsed.kind !== "node") {
      const next = nextSeatAfter(game, parsed.steps);
      throw new RangesError(
        "malformed_path",
        `history must end in the seat to act, but "${history}" ends in the action "${parsed.steps.at(-1)!.action.token}"${next ? ` (the node after it is "${history}_${next}")` : ""}. To get that action's range, call /range with spot=${history}.`,
        { suggestedEndpoint: "range", ...(next ? { suggestedHistory: `${history}_${next}` } : {}) },
      );
    }
    const { pack } = this.pack(game, stack);
    const node = locateNode(pack, parsed.steps, parsed.actor);
    const opts = {
      ...(hand === undefined ? {} : { hand: hand.index }),
      ...(minFreq === undefined ? {} : { minFreq }),
      full,
    };
    return { pack, node, opts };
  }

  range(game: GameId, stack: number, spot: string, options: RangeQueryOptions = {}): Range {
    const q = this.rangeQuery(game, stack, spot, options);
    return rangeView(q.pack, q.node, q.action, spot, q.opts);
  }

  /** `JSON.stringify(range(...))`, built without the objects (the JSON path's builder). */
  private rangeText(game: GameId, stack: number, spot: string, options: RangeQueryOptions): RawJson {
    const q = this.rangeQuery(game, stack, spot, options);
    return new RawJson(rangeBytes(q.pack, q.node, q.action, spot, q.opts));
  }

  /** A range query checked and located: the pack, the node, the action and the view's options. */
  private rangeQuery(game: GameId, stack: number, spot: string, options: RangeQueryOptions) {
    game = parseGameParam(game);
    stack = parseStackParam(game, stack);
    const hand =
      options.hand === undefined || options.hand === "" ? undefined : parseHand(game, options.hand);
    const minFreq = parseMinFreqParam(options.minFreq);
    const parsed = parsePath(game, spot);
    if (parsed.kind !== "range") {
      throw new RangesError(
        "malformed_path",
        `spot must end in an action token, but "${spot}" ends in the seat ${parsed.actor}, so it names a decision node. Call /node with history=${spot} for its actions, then append one, e.g. spot=${spot}_Fold.`,
        { suggestedEndpoint: "node", validPrefix: spot },
      );
    }
    const last = parsed.steps.at(-1)!;
    const { pack } = this.pack(game, stack);
    const node = locateNode(pack, parsed.steps.slice(0, -1), last.seat);
    const action = locateAction(pack, node, last.action.token);
    const opts = {
      ...(hand === undefined ? {} : { hand }),
      ...(minFreq === undefined ? {} : { minFreq }),
    };
    return { pack, node, action, opts };
  }

  /** Every decision node of the pack with its betting depth and tokens; for games that serve /spots. */
  /**
   * Every decision node of a pack. The public API serves spot lists for some games only (`GAMES[game].serves`);
   * `anyGame` lifts that for a store of private packs (a finished solve of any game).
   */
  spots(game: GameId, stack: number, options: { readonly anyGame?: boolean } = {}): Spots {
    game = parseGameParam(game);
    if (options.anyGame !== true) this.requireServed(game, "spots");
    stack = parseStackParam(game, stack);
    return spotsView(this.pack(game, stack).pack);
  }

  /** Table facts of an nlmtt8 pack; unknown fields are null and listed in `unverified`. */
  config(game: GameId, stack: number): Config {
    game = parseGameParam(game);
    this.requireServed(game, "config");
    stack = parseStackParam(game, stack);
    return configView(this.pack(game, stack).pack, stack, this.liveStacks(game));
  }

  private requireServed(game: GameId, operation: "spots" | "config"): void {
    if (GAMES[game].serves.includes(operation)) return;
    const served = GAME_IDS.filter((g) => GAMES[g].serves.includes(operation));
    throw new RangesError(
      "not_found",
      `/${operation} is served for ${served.join(", ")} only, not for ${game}.`,
      { games: served },
    );
  }

  // -------------------------------------------------------------------------------------------------------
  // JSON fast path

  /**
   * The serialized response for a query and its strong ETag. Bodies are cached by normalized query under the
   * store's memory budget. Errors are thrown (RangesError), never cached. A pack not in memory is read on
   * this thread: servers use `jsonAsync`.
   */
  json(query: StoreQuery): JsonResult {
    const normal = this.normalize(query);
    return this.cached(normal) ?? this.finish(normal);
  }

  /**
   * `json`, reading a pack that is not in memory in the helper process first, so that a cold pack delays only
   * the queries that need it.
   */
  async jsonAsync(query: StoreQuery): Promise<JsonResult> {
    const normal = this.normalize(query);
    const hit = this.cached(normal);
    if (hit !== undefined) return hit;
    const entry = normal.entry;
    if (entry !== null && entry.loaded === null && this.mayLoad(entry)) {
      await this.load(entry);
      const again = this.cached(normal);
      if (again !== undefined) return again;
    }
    return this.finish(normal);
  }

  /**
   * The cached answer for a key a result of `json` or `jsonAsync` gave (`JsonResult.key`), or undefined when
   * the cache no longer holds it (evicted, or its pack was replaced or removed): then ask with the query.
   */
  peek(key: string): JsonResult | undefined {
    const item = this.memory.get(key);
    if (item?.kind !== "body") return undefined;
    this.hits += 1;
    return item.result;
  }

  private cached(normal: Normal): JsonResult | undefined {
    const item = this.memory.get(normal.key);
    if (item?.kind !== "body") return undefined;
    this.hits += 1;
    return item.result;
  }

  private finish(normal: Normal): JsonResult {
    this.misses += 1;
    const built = normal.build();
    const bytes = built instanceof RawJson ? built.bytes : utf8(JSON.stringify(built));
    // The tag is read after the build: a pack read by the build gives its own checksum.
    const etag = `"${sha256hex(`${BODY_VERSION}\n${normal.tag()}\n${normal.key}`).slice(0, 40)}"`;
    const result = new CachedJson(bytes, etag, normal.key);
    if (this.memory.budget > 0) {
      this.memory.set(normal.key, {
        kind: "body",
        bytes: bodyCost(bytes.length, normal.key),
        result,
        owner: normal.entry,
      });
    }
    return result;
  }

  cacheStats(): CacheStats {
    const m = this.memory.stats;
    return {
      entries: m.bodies,
      bytes: m.bodyBytes,
      hits: this.hits,
      misses: this.misses,
      packs: m.packs,
      packBytes: m.packBytes,
      budget: m.budget,
    };
  }

  /** A cache key that equal queries share, the builder, and what the ETag derives from besides the key. */
  private normalize(query: StoreQuery): Normal {
    const kind = (query as { kind?: unknown }).kind;
    if (!["catalog", "discovery", "node", "range", "spots", "config"].includes(kind as string)) {
      throw new RangesError(
        "invalid_parameter",
        `Unknown query kind "${String(kind)}": use catalog, discovery, node, range, spots or config.`,
      );
    }
    if (kind === "catalog") {
      return {
        key: `catalog|${this.liveFingerprint()}`,
        entry: null,
        build: () => this.catalog(),
        tag: () => "",
      };
    }
    const q = query as Exclude<StoreQuery, { kind: "catalog" }>;
    const game = parseGameParam(q.game);
    if (q.kind === "discovery") {
      return {
        key: `discovery|${game}|${this.liveFingerprint()}`,
        entry: null,
        build: () => this.discovery(game),
        tag: () => "",
      };
    }
    if (q.kind === "spots" || q.kind === "config") this.requireServed(game, q.kind);
    const stack = parseStackParam(game, q.stack);
    const entry = this.byGame.get(game)?.get(stack) ?? null;
    const checksum = (): string => entry?.meta?.checksum ?? "";
    if (q.kind === "spots") {
      return { key: `spots|${game}|${stack}`, entry, build: () => this.spots(game, stack), tag: checksum };
    }
    if (q.kind === "config") {
      return {
        key: `config|${game}|${stack}|${this.liveFingerprint()}`,
        entry,
        build: () => this.config(game, stack),
        tag: checksum,
      };
    }
    const hand = q.hand === undefined || q.hand === "" ? undefined : parseHand(game, q.hand).name;
    const minFreq = parseMinFreqParam(q.minFreq);
    const full = q.kind === "node" && q.full === true;
    const path = q.kind === "node" ? q.history : q.spot;
    const key = JSON.stringify([q.kind, game, stack, path, hand ?? null, minFreq ?? null, full]);
    const opts = {
      ...(hand === undefined ? {} : { hand }),
      ...(minFreq === undefined ? {} : { minFreq }),
    };
    return {
      key,
      entry,
      build: () =>
        q.kind === "node"
          ? this.nodeText(game, stack, path, { ...opts, full })
          : this.rangeText(game, stack, path, opts),
      tag: checksum,
    };
  }
}
