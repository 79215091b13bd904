/**
 * RangeStore: the packs of a directory, served as schema-typed objects and as cached JSON.
 *
 * `open` scans `<packsDir>/<gameDir>/<stack>.pack` and reads only the header and index of each file (their
 * checksum is verified then). The data section of a pack is read and verified on the first query that needs
 * it and kept in memory. A pack that fails either check is recorded and answers 503 `pack_unavailable`;
 * every other pack keeps serving, and `open` itself never throws for a bad pack or a missing directory.
 *
 * Queries are synchronous: after the one-time read of a pack's data they are pure computations, which the
 * JSON cache then short-circuits.
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
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
  type Range,
  SCHEMA_VERSION,
  type Spots,
  unitsFor,
} from "@ranges/schema";
import { LRUCache } from "lru-cache";
import { readPackDataSync, readPackMetaSync } from "./files.js";
import type { PackMetaData } from "./format.js";
import { gameDir, type PackHeader } from "./pack-types.js";
import { parseGameParam, parseMinFreqParam, parseStackParam } from "./params.js";
import {
  configView,
  type LoadedPack,
  loadPack,
  locateAction,
  locateNode,
  nextSeatAfter,
  nodeView,
  rangeView,
  spotsView,
} from "./views.js";

export interface RangeStoreOptions {
  /** Directory holding `<gameDir>/<stack>.pack` files, e.g. `data/packs`. */
  readonly packsDir: string;
  /** Bound of the JSON cache in bytes (default 64 MiB; 0 disables it). */
  readonly cacheBytes?: number;
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
  /** The serialized response object. */
  readonly body: string;
  /** Strong ETag (quoted), stable across restarts for the same packs and query. */
  readonly etag: string;
}

export interface CacheStats {
  readonly entries: number;
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
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
  /** Whether the data section has been read and verified. */
  readonly dataLoaded: boolean;
}

export interface PackMeta {
  readonly header: PackHeader;
  /** Hex SHA-256 over preamble, header and index (the preamble holds the data section's SHA-256). */
  readonly checksum: string;
  readonly nodeCount: number;
  readonly fileBytes: number;
  readonly path: string;
}

interface Entry {
  readonly game: GameId;
  readonly stack: number | null;
  readonly file: string;
  readonly path: string;
  error: string | null;
  meta: PackMetaData | null;
  fileBytes: number;
  loaded: LoadedPack | null;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
const STACK_NAME = /^(\d+(?:\.\d+)?)\.pack$/;
/** Bump when response bodies change for the same packs, so ETags change with them. */
const BODY_VERSION = "store-json-3";

const sha256hex = (text: string): string => createHash("sha256").update(text).digest("hex");
const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class RangeStore {
  readonly packsDir: string;
  private readonly entries: Entry[] = [];
  private readonly byGame = new Map<GameId, Map<number, Entry>>();
  private readonly cache: LRUCache<string, JsonResult> | null;
  private hits = 0;
  private misses = 0;
  private liveFingerprintMemo: string | null = null;

  private constructor(options: RangeStoreOptions) {
    this.packsDir = options.packsDir;
    const bytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
    this.cache =
      bytes > 0
        ? new LRUCache<string, JsonResult>({
            maxSize: bytes,
            sizeCalculation: (value, key) => Buffer.byteLength(value.body) + value.etag.length + key.length,
          })
        : null;
  }

  /** Scans the packs directory; never throws for a missing directory or a bad pack (see `packStatus`). */
  static open(options: RangeStoreOptions): RangeStore {
    const store = new RangeStore(options);
    for (const game of GAME_IDS) store.scanGame(game);
    return store;
  }

  private scanGame(game: GameId): void {
    const dir = join(this.packsDir, gameDir(game));
    let files: Dirent[];
    try {
      files = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // No directory: the game has no packs.
    }
    const stacks = new Map<number, Entry>();
    this.byGame.set(game, stacks);
    const names = files
      .filter((f) => (f.isFile() || f.isSymbolicLink()) && f.name.endsWith(".pack"))
      .map((f) => f.name)
      .sort();
    for (const name of names) {
      const m = STACK_NAME.exec(name);
      const stack = m ? Number(m[1]) : null;
      const entry: Entry = {
        game,
        stack,
        file: `${gameDir(game)}/${name}`,
        path: join(dir, name),
        error: null,
        meta: null,
        fileBytes: 0,
        loaded: null,
      };
      this.entries.push(entry);
      if (stack === null) {
        entry.error = "the file name is not <stack>.pack, e.g. 100.pack";
        continue;
      }
      if (stacks.has(stack)) {
        entry.error = `another file already holds ${game} at ${stack}bb (${stacks.get(stack)!.file})`;
        continue;
      }
      stacks.set(stack, entry);
      try {
        const { meta, fileBytes } = readPackMetaSync(entry.path);
        if (meta.header.game !== game || meta.header.stack !== stack) {
          throw new Error(
            `the header says ${meta.header.game} at ${meta.header.stack}bb but the file is ${entry.file}`,
          );
        }
        entry.meta = meta;
        entry.fileBytes = fileBytes;
      } catch (error) {
        entry.error = reasonOf(error);
      }
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Pack bookkeeping

  /** Sorted stacks of `game` whose pack is good (header verified, and data verified if already read). */
  liveStacks(game: GameId): number[] {
    const stacks = this.byGame.get(game);
    if (!stacks) return [];
    return [...stacks.values()]
      .filter((e) => e.error === null)
      .map((e) => e.stack!)
      .sort((a, b) => a - b);
  }

  /** Every `.pack` file found, with whether it serves and why not. */
  packStatus(): PackStatus[] {
    return this.entries.map((e) => ({
      game: e.game,
      stack: e.stack,
      file: e.file,
      path: e.path,
      ok: e.error === null,
      error: e.error,
      checksum: e.meta?.checksum ?? null,
      dataLoaded: e.loaded !== null,
    }));
  }

  private unavailable(entry: Entry): RangesError {
    return new RangesError(
      "pack_unavailable",
      `The pack for ${entry.game} at ${entry.stack}bb (${entry.file}) is unavailable: ${entry.error}. Other stacks and games keep serving; the pack must be regenerated or re-imported.`,
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
    if (entry.error !== null) throw this.unavailable(entry);
    return entry;
  }

  /** The pack for (game, stack), reading and verifying its data section on first use. */
  private pack(game: GameId, stack: number): { entry: Entry; pack: LoadedPack } {
    const entry = this.entryFor(game, stack);
    if (entry.loaded === null) {
      try {
        entry.loaded = loadPack(game, stack, entry.file, readPackDataSync(entry.path, entry.meta!));
      } catch (error) {
        entry.error = reasonOf(error);
        this.liveFingerprintMemo = null;
        throw this.unavailable(entry);
      }
    }
    return { entry, pack: entry.loaded };
  }

  /** Header facts of a pack for metadata tools; verifies the pack like a query does. */
  packMeta(game: GameId, stack: number): PackMeta {
    game = parseGameParam(game);
    const { entry } = this.pack(game, parseStackParam(game, stack));
    return {
      header: entry.meta!.header,
      checksum: entry.meta!.checksum,
      nodeCount: entry.meta!.nodes.length,
      fileBytes: entry.fileBytes,
      path: entry.path,
    };
  }

  /** Hash of every live pack's checksum: changes when a pack turns bad, so catalog ETags change too. */
  private liveFingerprint(): string {
    if (this.liveFingerprintMemo === null) {
      const lines = this.entries
        .filter((e) => e.error === null && e.meta !== null)
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
        };
      }),
    };
  }

  discovery(game: GameId): Discovery {
    game = parseGameParam(game);
    const info = GAMES[game];
    return {
      schemaVersion: SCHEMA_VERSION,
      units: unitsFor(info.hasEvs),
      game,
      stacks: this.liveStacks(game),
      positions: [...info.seats],
    };
  }

  node(game: GameId, stack: number, history: string, options: NodeQueryOptions = {}): Node {
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
    return nodeView(pack, node, {
      ...(hand === undefined ? {} : { hand: hand.index }),
      ...(minFreq === undefined ? {} : { minFreq }),
      full,
    });
  }

  range(game: GameId, stack: number, spot: string, options: RangeQueryOptions = {}): Range {
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
    return rangeView(pack, node, action, spot, {
      ...(hand === undefined ? {} : { hand }),
      ...(minFreq === undefined ? {} : { minFreq }),
    });
  }

  /** Every decision node of the pack with its betting depth and tokens; for games that serve /spots. */
  spots(game: GameId, stack: number): Spots {
    game = parseGameParam(game);
    this.requireServed(game, "spots");
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
   * The serialized response for a query and its strong ETag. Bodies are cached by normalized query in an LRU
   * bounded by bytes. Errors are thrown (RangesError), never cached.
   */
  json(query: StoreQuery): JsonResult {
    const normal = this.normalize(query);
    const cached = this.cache?.get(normal.key);
    if (cached) {
      this.hits += 1;
      return cached;
    }
    this.misses += 1;
    const body = JSON.stringify(normal.build());
    const etag = `"${sha256hex(`${BODY_VERSION}\n${normal.tag()}\n${normal.key}`).slice(0, 40)}"`;
    const result: JsonResult = { body, etag };
    this.cache?.set(normal.key, result);
    return result;
  }

  cacheStats(): CacheStats {
    return {
      entries: this.cache?.size ?? 0,
      bytes: this.cache?.calculatedSize ?? 0,
      hits: this.hits,
      misses: this.misses,
    };
  }

  /** A cache key that equal queries share, the builder, and what the ETag derives from besides the key. */
  private normalize(query: StoreQuery): { key: string; build: () => unknown; tag: () => string } {
    const kind = (query as { kind?: unknown }).kind;
    if (!["catalog", "discovery", "node", "range", "spots", "config"].includes(kind as string)) {
      throw new RangesError(
        "invalid_parameter",
        `Unknown query kind "${String(kind)}": use catalog, discovery, node, range, spots or config.`,
      );
    }
    if (kind === "catalog") {
      return { key: `catalog|${this.liveFingerprint()}`, build: () => this.catalog(), tag: () => "" };
    }
    const q = query as Exclude<StoreQuery, { kind: "catalog" }>;
    const game = parseGameParam(q.game);
    if (q.kind === "discovery") {
      return {
        key: `discovery|${game}|${this.liveFingerprint()}`,
        build: () => this.discovery(game),
        tag: () => "",
      };
    }
    if (q.kind === "spots" || q.kind === "config") this.requireServed(game, q.kind);
    const stack = parseStackParam(game, q.stack);
    const checksum = (): string => this.byGame.get(game)?.get(stack)?.meta?.checksum ?? "";
    if (q.kind === "spots") {
      return { key: `spots|${game}|${stack}`, build: () => this.spots(game, stack), tag: checksum };
    }
    if (q.kind === "config") {
      return {
        key: `config|${game}|${stack}|${this.liveFingerprint()}`,
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
      build: () =>
        q.kind === "node"
          ? this.node(game, stack, path, { ...opts, full })
          : this.range(game, stack, path, opts),
      tag: checksum,
    };
  }
}
