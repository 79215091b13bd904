/**
 * Loaded packs in compact form, and the helper process that prepares them.
 *
 * A loaded pack keeps its index (parsed when the store opened the file), the reach of every node, and its
 * data section re-compressed in blocks of whole nodes of about 8 KiB inflated (`pack-worker.ts`), stored in
 * a deleted temporary file: the process holds offsets, not data, and the OS page cache holds the blocks (or,
 * where no temporary file can be made, memory holds them at about the size of the pack file). A query reads
 * and inflates the one block that holds its node (the last few stay inflated) and decodes that node's
 * frequencies and EVs exactly as `decodePackData` does.
 *
 * `PackLoader` prepares pack files in a helper process, so a cold pack costs the event loop only the few
 * milliseconds of building its history map; without a usable worker (or for the synchronous query API) it
 * does the same on the calling thread.
 */

import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, readdirSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inflateRawSync } from "node:zlib";
import {
  type GameId,
  HOLDEM_CLASS_COMBOS,
  HOLDEM_CLASSES,
  ploClassComboCounts,
  ploClasses,
  RangesError,
} from "@ranges/core";
import { decodeActionValues, expandToClasses, packClassToBucket, storedValueCount } from "./format.js";
import { actionOffsets, type StoredNode } from "./pack-index.js";
import type { PackAction, PackNode } from "./pack-types.js";
import {
  type BlocksFile,
  blocksPath,
  closeBlocksFile,
  DEFAULT_BLOCK_BYTES,
  HELPER_ENV,
  openBlocksFile,
  PackPrepareError,
  type PrepareAnswer,
  type PreparedPack,
  type PrepareRequest,
  type Priors,
  preparePackFile,
} from "./pack-worker.js";
import { classWeights, type ReachSource, reachIn } from "./reach.js";
import { siblingScript } from "./sibling-script.js";
import type { LoadedPack } from "./views.js";

/** Inflated blocks kept per pack (a walk over ancestors for a reach the loader left to us reuses them). */
const BLOCK_CACHE = 4;
/**
 * Estimated bytes per node besides its history's characters: the node object, its action list (shared where
 * equal, counted anyway), the history string's header, the history map's entry and the reach slot.
 */
const PER_NODE = 200;
const FIXED = 4096;

/** A loaded pack, with its estimated memory in bytes. */
export interface CompactPack extends LoadedPack {
  readonly bytes: number;
  readonly checksum: string;
  /** False for a pack loaded synchronously and kept inflated until the helper process compresses it. */
  readonly compressed: boolean;
  /** Releases the blocks (closes their file). The store calls it when the pack leaves memory. */
  close(): void;
}

/** The nearest index `i` with `sorted[i] <= at` (sorted ascending; 0 when none). */
function floorIndex(sorted: Uint32Array, at: number, last = sorted.length - 1): number {
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Builds the loaded pack of a prepared file. `meta` must be the meta of the same checksum (the store
 * decodes it from `prepared.head` when the file is new to it).
 */
export function compactPack(
  id: { game: GameId; stack: number; file: string },
  prepared: PreparedPack,
): CompactPack {
  const meta = prepared.index;
  const { header } = meta;
  const omaha = header.classSet === "plo16432";
  // Values per action as stored: classes, or buckets (expanded to classes through the map when served).
  const n = storedValueCount(header);
  const classToBucket = packClassToBucket(header);
  const v1 = prepared.formatVersion === 1;
  const { blockEnds, blockStarts } = prepared;
  const storage = prepared.storage;
  if (storage.kind === "written") throw new PackPrepareError("The blocks file was not opened.");
  const byHistory = new Map<string, StoredNode>(meta.nodes.map((node) => [node.history, node]));
  const cache: { block: number; raw: Buffer }[] = [];
  let closed = false;

  const stored = (block: number): Uint8Array => {
    const start = block === 0 ? 0 : blockEnds[block - 1]!;
    const end = blockEnds[block]!;
    if (storage.kind === "memory") return storage.blocks.subarray(start, end);
    const out = Buffer.allocUnsafe(end - start);
    let done = 0;
    while (done < out.length) {
      const read = readSync(storage.fd, out, done, out.length - done, start + done);
      if (read === 0) throw new Error(`the blocks of ${id.file} end early`);
      done += read;
    }
    return out;
  };

  const inflated = (block: number): Buffer => {
    if (closed) {
      throw new RangesError(
        "pack_unavailable",
        `The pack for ${id.game} at ${id.stack}bb (${id.file}) was unloaded during the query; ask again.`,
      );
    }
    for (let i = 0; i < cache.length; i++) {
      const hit = cache[i]!;
      if (hit.block === block) {
        if (i > 0) {
          cache.splice(i, 1);
          cache.unshift(hit);
        }
        return hit.raw;
      }
    }
    const bytes = stored(block);
    if (storage.kind === "memory" && !storage.compressed) {
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    const raw = inflateRawSync(bytes);
    cache.unshift({ block, raw });
    if (cache.length > BLOCK_CACHE) cache.pop();
    return raw;
  };

  /** The node as stored: per class, or per bucket for a bucketed pack. */
  const decodeStored = (node: StoredNode): PackNode => {
    const offsets = actionOffsets(node, n);
    const block = floorIndex(blockStarts, node.start, blockStarts.length - 2);
    const raw = node.actions.length === 0 ? Buffer.alloc(0) : inflated(block);
    const base = blockStarts[block]!;
    return {
      history: node.history,
      actor: node.actor,
      depth: node.depth,
      actions: node.actions.map((a, i): PackAction => {
        const { freqOffset, evOffset } = offsets[i]!;
        const { freqs, evs } = decodeActionValues(
          raw,
          freqOffset - base,
          evOffset === null ? null : evOffset - base,
          n,
          v1 ? 1 : 2,
        );
        const fields = {
          code: a.code,
          token: a.token,
          kind: a.kind,
          sizeBb: a.sizeBb,
          sizePctPot: a.sizePctPot,
          freqs,
          evs,
        };
        return a.sizeReason === undefined ? fields : { ...fields, sizeReason: a.sizeReason };
      }),
    };
  };

  const decode = (node: StoredNode): PackNode => {
    const stored = decodeStored(node);
    if (classToBucket === null) return stored;
    return {
      ...stored,
      actions: stored.actions.map((a) => ({
        ...a,
        freqs: expandToClasses(a.freqs, classToBucket),
        evs: a.evs === null ? null : expandToClasses(a.evs, classToBucket),
      })),
    };
  };

  // Reaches the loader could not compute (NaN) are walked on demand, like `nodeReach` (over the buckets of
  // a bucketed pack, with `classWeights` giving each bucket its hands).
  const source: ReachSource<StoredNode> = {
    where: `${id.game} at ${id.stack}bb`,
    ...classWeights(header),
    node: (history) => byHistory.get(history),
    freqs: (node, action) => decodeStored(node).actions[action]!.freqs,
    values: new Map(),
  };
  const reach = (node: StoredNode): number => {
    const r = meta.nodes[node.index] === node ? prepared.reach[node.index] : undefined;
    return r === undefined || Number.isNaN(r) ? reachIn(source, node.history) : r;
  };

  let historyChars = 0;
  for (const node of meta.nodes) historyChars += node.history.length;
  const bytes =
    (storage.kind === "memory" ? storage.blocks.byteLength : 0) +
    blockEnds.byteLength +
    blockStarts.byteLength +
    prepared.reach.byteLength +
    BLOCK_CACHE * prepared.maxBlockBytes +
    meta.nodes.length * PER_NODE +
    historyChars +
    FIXED;

  return {
    game: id.game,
    stack: id.stack,
    file: id.file,
    header,
    nodes: meta.nodes,
    byHistory,
    classNames: omaha ? ploClasses() : HOLDEM_CLASSES,
    classCombos: omaha ? ploClassComboCounts() : HOLDEM_CLASS_COMBOS,
    baseline: header.evUnit !== null && prepared.foldEvsZero ? "fold" : null,
    decode,
    reach,
    bytes,
    checksum: meta.checksum,
    compressed: storage.kind !== "memory" || storage.compressed,
    close: () => {
      if (closed) return;
      closed = true;
      cache.length = 0;
      if (storage.kind === "file") closeBlocksFile(storage);
    },
  };
}

interface Waiter {
  readonly request: PrepareRequest;
  readonly resolve: (pack: PreparedPack) => void;
  readonly reject: (error: unknown) => void;
}

/** Prior weights the loader computes reaches with: the hold'em combo counts (PLO reaches are walked on demand). */
const PRIORS: Priors = { holdem169: Array.from(HOLDEM_CLASS_COMBOS) };
/** The helper process exits after this long without work. */
const HELPER_IDLE_MS = 10_000;

/**
 * Prepares pack files in a helper process (one file at a time), started on first use and stopped when idle:
 * reading, verifying, inflating and re-compressing a pack takes memory several times its size, which then
 * returns to the system with the process instead of staying in the server's heap and allocator. The helper
 * writes the blocks to a file that the store opens and deletes at once. Where no helper can run, the work
 * happens on the calling thread in a later turn of the event loop.
 */
export class PackLoader {
  private helper: ChildProcess | null = null;
  /** No helper can be started here: prepare on the calling thread instead. */
  private broken: boolean;
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;
  private cleaned = false;

  constructor(
    useHelper = true,
    /** Where compressed blocks go (see `PrepareOptions.spillDir`); null keeps them in memory. */
    private readonly spillDir: string | null = null,
    private readonly blockBytes: number = DEFAULT_BLOCK_BYTES,
  ) {
    this.broken = !useHelper;
  }

  /** Whether `prepare` runs in the helper process (false once it proved unusable, or when disabled). */
  get threaded(): boolean {
    return !this.broken;
  }

  /** Prepares `path` off the event loop; rejects with a `PackPrepareError`. */
  prepare(path: string): Promise<PreparedPack> {
    return new Promise<PreparedPack>((resolve, reject) => {
      const helper = this.start();
      const request: PrepareRequest = {
        id: this.nextId++,
        path,
        blockBytes: this.blockBytes,
        spillPath: helper !== null && this.spillDir !== null ? this.newBlocksPath() : null,
        priors: PRIORS,
      };
      const waiter: Waiter = { request, resolve, reject };
      if (helper === null) {
        this.inThread(waiter);
        return;
      }
      this.waiting.set(request.id, waiter);
      this.busy(helper);
      helper.send(request, (error) => {
        if (error && this.waiting.delete(request.id)) this.answer(waiter, { error });
      });
    });
  }

  /**
   * Prepares `path` on the calling thread, without the block compression (the slow part): for a
   * synchronous query that waits on it. The blocks stay inflated in memory.
   */
  prepareSync(path: string): PreparedPack {
    return preparePackFile(path, {
      blockBytes: this.blockBytes,
      compress: false,
      priors: PRIORS,
    });
  }

  close(): void {
    this.broken = true;
    const helper = this.helper;
    this.helper = null;
    if (this.idle !== null) clearTimeout(this.idle);
    const closed = new PackPrepareError("The store was closed.");
    for (const waiter of this.takeWaiting()) this.answer(waiter, { error: closed });
    helper?.kill();
  }

  /** A blocks path in the spill directory; on first use, files a crashed server left there are removed. */
  private newBlocksPath(): string {
    const dir = this.spillDir!;
    if (!this.cleaned) {
      this.cleaned = true;
      try {
        mkdirSync(dir, { recursive: true });
        for (const name of readdirSync(dir)) {
          const m = /^preflop-ranges-(\d+)-[0-9a-f]+\.blocks$/.exec(name);
          if (m && !alive(Number(m[1]))) rmSync(join(dir, name), { force: true });
        }
      } catch {}
    }
    return blocksPath(dir);
  }

  /** Hands the outcome to the waiter: a blocks file the helper wrote is opened and deleted (or removed). */
  private answer(waiter: Waiter, outcome: { pack: PreparedPack } | { error: unknown }): void {
    const spill = waiter.request.spillPath;
    if ("pack" in outcome) {
      const { pack } = outcome;
      if (pack.storage.kind === "written") {
        let file: BlocksFile;
        try {
          file = openBlocksFile(pack.storage.path);
        } catch (error) {
          rmSync(pack.storage.path, { force: true });
          waiter.reject(
            new PackPrepareError(`The blocks file cannot be opened: ${(error as Error).message}`),
          );
          return;
        }
        waiter.resolve({ ...pack, storage: { kind: "file", ...file, bytes: pack.storage.bytes } });
        return;
      }
      waiter.resolve(pack);
      return;
    }
    if (spill !== null) rmSync(spill, { force: true });
    waiter.reject(outcome.error);
  }

  /** The fallback without a helper: the same work on this thread, in a later turn of the event loop. */
  private inThread(waiter: Waiter): void {
    setImmediate(() => {
      const { path } = waiter.request;
      let pack: PreparedPack;
      try {
        pack = preparePackFile(path, {
          blockBytes: this.blockBytes,
          spillDir: this.spillDir,
          priors: PRIORS,
        });
      } catch (error) {
        this.answer(waiter, { error });
        return;
      }
      this.answer(waiter, { pack });
    });
  }

  private takeWaiting(): Waiter[] {
    const waiters = [...this.waiting.values()];
    this.waiting.clear();
    return waiters;
  }

  /** Keeps the event loop alive while work is pending; stops the helper once idle for a while. */
  private busy(helper: ChildProcess): void {
    if (this.idle !== null) {
      clearTimeout(this.idle);
      this.idle = null;
    }
    helper.ref();
    (helper.channel as { ref?: () => void } | null | undefined)?.ref?.();
  }

  private rest(helper: ChildProcess): void {
    helper.unref();
    (helper.channel as { unref?: () => void } | null | undefined)?.unref?.();
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.helper === helper && this.waiting.size === 0) {
        this.helper = null;
        helper.disconnect();
      }
    }, HELPER_IDLE_MS);
    this.idle.unref();
  }

  private start(): ChildProcess | null {
    if (this.helper !== null) return this.helper;
    if (this.broken) return null;
    let helper: ChildProcess;
    try {
      const { url, execArgv } = siblingScript("pack-worker", import.meta.url);
      helper = fork(fileURLToPath(url), [], {
        env: { ...process.env, [HELPER_ENV]: "1" },
        execArgv,
        serialization: "advanced",
        stdio: ["ignore", "ignore", "inherit", "ipc"],
      });
    } catch {
      this.broken = true;
      return null;
    }
    let answered = false;
    helper.on("message", (answer: PrepareAnswer) => {
      answered = true;
      const waiter = this.waiting.get(answer.id);
      if (waiter === undefined) {
        if (answer.ok && answer.pack.storage.kind === "written")
          rmSync(answer.pack.storage.path, { force: true });
        return;
      }
      this.waiting.delete(answer.id);
      if (answer.ok) this.answer(waiter, { pack: answer.pack });
      else this.answer(waiter, { error: new PackPrepareError(answer.message, answer.signature) });
      if (this.waiting.size === 0 && this.helper === helper) this.rest(helper);
    });
    const lost = (reason: string) => {
      if (this.helper === helper) this.helper = null;
      const waiters = this.takeWaiting();
      if (waiters.length === 0) return;
      if (answered) {
        const stopped = new PackPrepareError(`The pack loader stopped: ${reason}`);
        for (const w of waiters) this.answer(w, { error: stopped });
        return;
      }
      // A helper that never answered cannot run here: prepare on this thread from now on.
      this.broken = true;
      for (const w of waiters) {
        if (w.request.spillPath !== null) rmSync(w.request.spillPath, { force: true });
        this.inThread({ ...w, request: { ...w.request, spillPath: null } });
      }
    };
    helper.on("error", (error) => lost(error.message));
    helper.on("exit", (code, signal) => lost(`the helper process exited (${signal ?? code})`));
    this.helper = helper;
    return helper;
  }
}

/** Whether a process with this id exists (a signal 0 probe). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
