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
 *
 * This class is the facade; the parts live beside it: the public types (`store-types.ts`), the registry of
 * pack files (`pack-set.ts`, `pack-entry.ts`), reading and refreshing them (`pack-loading.ts`), metadata
 * answers (`pack-meta.ts`), the queries (`queries.ts`), and the JSON fast path (`normalize.ts`,
 * `body-cache.ts`).
 */

import { tmpdir } from "node:os";
import { GAME_IDS, type GameId } from "@ranges/core";
import type { Catalog, Config, Discovery, Node, PloGameDoc, Range, Spots } from "@ranges/schema";
import { BodyCache, type Item } from "./body-cache.js";
import { PackLoader } from "./compact.js";
import { MemoryBudget } from "./memory.js";
import { normalize } from "./normalize.js";
import { PackLoading } from "./pack-loading.js";
import { packMeta, packStatus, packSummaries, packSummary } from "./pack-meta.js";
import { PackSet } from "./pack-set.js";
import { StoreQueries } from "./queries.js";
import type {
  CacheStats,
  JsonResult,
  NodeQueryOptions,
  PackMeta,
  PackStatus,
  PackSummary,
  RangeQueryOptions,
  RangeStoreOptions,
  StoreQuery,
} from "./store-types.js";

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
const DEFAULT_REFRESH_MS = 2000;

export class RangeStore {
  readonly packsDir: string;
  /** The helper process that prepares packs, used by `loading` (tests reach it here as `loader`). */
  private readonly loader: PackLoader;
  private readonly packs: PackSet;
  private readonly loading: PackLoading;
  private readonly queries: StoreQueries;
  private readonly bodies: BodyCache;
  private readonly timer: NodeJS.Timeout | null = null;

  private constructor(options: RangeStoreOptions) {
    this.packsDir = options.packsDir;
    const memory = new MemoryBudget<Item>(Math.max(0, options.cacheBytes ?? DEFAULT_CACHE_BYTES));
    this.loader = new PackLoader(
      options.worker ?? true,
      options.spillDir === undefined ? tmpdir() : options.spillDir,
    );
    this.packs = new PackSet(this.packsDir);
    this.loading = new PackLoading(this.packs, memory, this.loader);
    this.queries = new StoreQueries(this.packs, this.loading);
    this.bodies = new BodyCache(memory);
    const refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
    if (refreshMs > 0) {
      this.timer = setInterval(() => void this.refresh(), refreshMs);
      this.timer.unref();
    }
  }

  /** Scans the packs directory; never throws for a missing directory or a bad pack (see `packStatus`). */
  static open(options: RangeStoreOptions): RangeStore {
    const store = new RangeStore(options);
    for (const game of GAME_IDS) store.loading.scanGame(game);
    return store;
  }

  /** Stops the refresh timer and the helper process and releases the loaded packs. */
  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.loading.close();
  }

  /**
   * Looks at the packs directory again (the timer calls it every `refreshMs`): new files are verified in full
   * and join the live stacks; a changed file of a loaded or failing pack is verified in full and switched in,
   * the loaded version serving until then; a changed file of a pack not in memory drops the pack's cached
   * bodies, so the next query reads the new file; removed files leave; failing packs whose back-off ended
   * are tried again. Resolves when the packs it started loading are settled; never rejects.
   */
  refresh(): Promise<void> {
    return this.loading.refresh();
  }

  /**
   * Loads the pack of (game, stack) in the helper process if it is not in memory, so that the synchronous
   * queries that follow do not read it on the event loop. Never rejects; a failure shows in the query.
   */
  prepare(game: GameId, stack: number): Promise<void> {
    return this.loading.prepare(game, stack);
  }

  // -------------------------------------------------------------------------------------------------------
  // Pack bookkeeping

  /** Sorted stacks of `game` whose pack is good (header verified, and data verified if already read). */
  liveStacks(game: GameId): number[] {
    return this.packs.liveStacks(game);
  }

  /** The PLO description of `game` (pot-limit tree, abstraction, exploitability); null for hold'em or no pack. */
  ploDoc(game: GameId): PloGameDoc | null {
    return this.queries.ploDoc(game);
  }

  /** Every `.pack` file found, with whether it serves and why not. */
  packStatus(): PackStatus[] {
    return packStatus(this.packs);
  }

  /** Header facts of a pack for metadata tools; verifies the pack like a query does. */
  packMeta(game: GameId, stack: number): PackMeta {
    return packMeta(this.loading, game, stack);
  }

  /**
   * The resident index of the live packs (of `game`, or of every game), in game order then by stack: header,
   * checksum, node count and file size, without reading any pack's data. The node count of a pack not loaded
   * yet is read once per file version, off the event loop (`readPackHead`); after that this answers from
   * memory. Never rejects; a pack whose file turns out bad on that read leaves the list (as after a query).
   */
  packSummaries(game?: GameId): Promise<PackSummary[]> {
    return packSummaries(this.packs, this.loading, game);
  }

  /**
   * `packMeta` from the resident index: throws as a query does for an unknown stack or an unavailable pack,
   * but reads no pack data (only the head of a file whose node count is not known yet, off the event loop).
   */
  packSummary(game: GameId, stack: number): Promise<PackSummary> {
    return packSummary(this.packs, this.loading, game, stack);
  }

  // -------------------------------------------------------------------------------------------------------
  // Queries

  /** Every game of the service with its live stacks (an empty list when no pack is installed). */
  catalog(): Catalog {
    return this.queries.catalog();
  }

  discovery(game: GameId): Discovery {
    return this.queries.discovery(game);
  }

  node(game: GameId, stack: number, history: string, options: NodeQueryOptions = {}): Node {
    return this.queries.node(game, stack, history, options);
  }

  range(game: GameId, stack: number, spot: string, options: RangeQueryOptions = {}): Range {
    return this.queries.range(game, stack, spot, options);
  }

  /** Every decision node of the pack with its betting depth and tokens; for games that serve /spots. */
  /**
   * Every decision node of a pack. The public API serves spot lists for some games only (`GAMES[game].serves`);
   * `anyGame` lifts that for a store of private packs (a finished solve of any game).
   */
  spots(game: GameId, stack: number, options: { readonly anyGame?: boolean } = {}): Spots {
    return this.queries.spots(game, stack, options);
  }

  /** Table facts of an nlmtt8 pack; unknown fields are null and listed in `unverified`. */
  config(game: GameId, stack: number): Config {
    return this.queries.config(game, stack);
  }

  // -------------------------------------------------------------------------------------------------------
  // JSON fast path

  /**
   * The serialized response for a query and its strong ETag. Bodies are cached by normalized query under the
   * store's memory budget. Errors are thrown (RangesError), never cached. A pack not in memory is read on
   * this thread: servers use `jsonAsync`.
   */
  json(query: StoreQuery): JsonResult {
    const normal = normalize(query, this.packs, this.queries);
    return this.bodies.cached(normal) ?? this.bodies.finish(normal);
  }

  /**
   * `json`, reading a pack that is not in memory in the helper process first, so that a cold pack delays only
   * the queries that need it.
   */
  async jsonAsync(query: StoreQuery): Promise<JsonResult> {
    const normal = normalize(query, this.packs, this.queries);
    const hit = this.bodies.cached(normal);
    if (hit !== undefined) return hit;
    const entry = normal.entry;
    if (entry !== null && entry.loaded === null && this.loading.mayLoad(entry)) {
      await this.loading.load(entry);
      const again = this.bodies.cached(normal);
      if (again !== undefined) return again;
    }
    return this.bodies.finish(normal);
  }

  /**
   * The cached answer for a key a result of `json` or `jsonAsync` gave (`JsonResult.key`), or undefined when
   * the cache no longer holds it (evicted, or its pack was replaced or removed): then ask with the query.
   */
  peek(key: string): JsonResult | undefined {
    return this.bodies.peek(key);
  }

  cacheStats(): CacheStats {
    return this.bodies.cacheStats();
  }
}
