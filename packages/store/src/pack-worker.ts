/**
 * Preparing a pack for serving: read the whole file, verify it (`decodePackMeta` for the preamble, header
 * and index, then the data checksum), build its compact index, compute the reach of every node and the
 * pack-wide fold baseline, and re-compress the data section in independent blocks of whole nodes, kept in a
 * deleted temporary file (so in the OS page cache, not in the server's memory) or in memory. A query then
 * reads and inflates only the block that holds its node.
 *
 * This module runs in two places: imported by the store (`preparePackFile` on the calling thread), and as the
 * store's helper process (the message handler at the bottom, active only in a process started with
 * `PREFLOP_RANGES_PACK_WORKER=1` and an IPC channel). The helper does the heavy work (the whole file, the
 * inflated data, the parsed index JSON) in memory of its own, which goes back to the system when it exits;
 * the store receives only the results. It decodes EVs as `format.ts` does (the store's tests compare the
 * result with `decodePack` on every committed pack), and it and its imports use only erasable TypeScript,
 * so Node runs the sources in tests.
 */

import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { decodePackMeta, FREQ_SCALE, type IndexNode, storedValueCount } from "./format.js";
import { type PackIndex, packIndexOf } from "./pack-index.js";

const MAX_INFLATED = 1 << 30;
const EV_UNSCORED = -(2 ** 31);
/** EVs this close to 0 count as a zero fold EV (as in views.ts). */
const ZERO_EV = 5e-5;

/** Inflated bytes of whole nodes per block: one inflate of a few tens of microseconds per query. */
export const DEFAULT_BLOCK_BYTES = 8 * 1024;

/** Prior class weights (concrete combos per class) of the class sets, for the reach of every node. */
export interface Priors {
  readonly holdem169?: ArrayLike<number>;
  readonly plo16432?: ArrayLike<number>;
}

export interface PrepareOptions {
  readonly blockBytes?: number;
  /** Deflate the blocks (default true); false keeps the inflated data section as one in-memory block store. */
  readonly compress?: boolean;
  /**
   * Directory for the compressed blocks: they go to a file there that is deleted at once (the descriptor
   * keeps it readable, and nothing is left behind whatever happens to the process), so they live in the
   * OS page cache instead of the process's memory. Null, or a directory that cannot take the file, keeps
   * them in memory.
   */
  readonly spillDir?: string | null;
  /**
   * Write the blocks to a new file at this path and close it (instead of `spillDir`): the store's helper
   * process does, and the store opens and deletes the file.
   */
  readonly spillPath?: string | null;
  readonly priors?: Priors;
}

/** An open, already deleted blocks file; `path` is set where the file could not be deleted while open. */
export interface BlocksFile {
  readonly fd: number;
  readonly path: string | null;
}

/** A new blocks file name in `dir`: `preflop-ranges-<pid of the store>-<random>.blocks`. */
export const blocksPath = (dir: string): string =>
  join(dir, `preflop-ranges-${process.pid}-${randomBytes(8).toString("hex")}.blocks`);

/** Opens an existing blocks file and deletes it at once (the descriptor keeps it). */
export function openBlocksFile(path: string, flags = "r"): BlocksFile {
  const fd = openSync(path, flags, 0o600);
  try {
    unlinkSync(path);
    return { fd, path: null };
  } catch {
    return { fd, path }; // Deleted on close instead (systems that refuse it while open).
  }
}

/** Creates a blocks file in `dir` and deletes it at once (the descriptor keeps it); null when it cannot. */
export function createBlocksFile(dir: string): BlocksFile | null {
  try {
    mkdirSync(dir, { recursive: true });
    return openBlocksFile(blocksPath(dir), "wx+");
  } catch {
    return null;
  }
}

/** Closes (and, where it could not be deleted while open, deletes) a blocks file. */
export function closeBlocksFile(file: BlocksFile): void {
  try {
    closeSync(file.fd);
  } catch {}
  if (file.path !== null) rmSync(file.path, { force: true });
}

/** Where the blocks are. */
export type BlockStorage =
  | { readonly kind: "memory"; readonly blocks: Uint8Array; readonly compressed: boolean }
  | ({ readonly kind: "file"; readonly bytes: number } & BlocksFile)
  /** Written to `path` by the helper process and closed; the store opens it and deletes it. */
  | { readonly kind: "written"; readonly path: string; readonly bytes: number };

/** What the store needs to serve a pack file: its checksum, its data in independently readable blocks. */
export interface PreparedPack {
  /** `dev:ino:size:mtimeMs:ctimeMs` of the file as read (from the descriptor the bytes came from). */
  readonly signature: string;
  readonly fileBytes: number;
  /** Header, pack checksum and node table (compact), verified by `decodePackMeta`. */
  readonly index: PackIndex;
  readonly formatVersion: number;
  /** Values per action in the data section (the class count, or the bucket count of a bucketed pack). */
  readonly classCount: number;
  /** Block b is stored at `[blockEnds[b - 1] ?? 0, blockEnds[b])` of the storage. */
  readonly storage: BlockStorage;
  readonly blockEnds: Uint32Array;
  /** Offset in the inflated data section where each block starts, plus its total length at the end. */
  readonly blockStarts: Uint32Array;
  /** Largest inflated block, in bytes (0 when the blocks are stored inflated). */
  readonly maxBlockBytes: number;
  /**
   * The reach of every node (see `nodeReach`), computed exactly as `nodeReach` does; NaN where it is left
   * to the store (a node off the tree from the root, or a class set without priors).
   */
  readonly reach: Float64Array;
  /** Every stored fold EV of the pack is 0 (or unscored): the pack-wide `evBaseline: fold`. */
  readonly foldEvsZero: boolean;
}

/** A pack that cannot be prepared; `signature` is the file's when it could be opened. */
export class PackPrepareError extends Error {
  readonly signature: string | null;
  constructor(message: string, signature: string | null = null) {
    super(message);
    this.name = "PackPrepareError";
    this.signature = signature;
  }
}

const align = (n: number, to: number): number => Math.ceil(n / to) * to;

/** The signature of an open file: any replacement, write, truncation or chmod changes it. */
export function signatureOf(stat: {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

function fail(message: string): never {
  throw new PackPrepareError(message);
}

function inflate(bytes: Uint8Array, what: string): Buffer {
  try {
    return inflateRawSync(bytes, { maxOutputLength: MAX_INFLATED });
  } catch {
    return fail(`The pack's ${what} cannot be inflated: the file is corrupt.`);
  }
}

/** Whether every EV of one stored EV block is 0 or unscored. */
function evsZero(d: Buffer, at: number, n: number, version: number): boolean {
  if (version === 1) {
    for (let c = 0; c < n; c++) {
      const ev = d.readFloatLE(at + 4 * c);
      if (!Number.isNaN(ev) && Math.abs(ev) >= ZERO_EV) return false;
    }
    return true;
  }
  for (let c = 0; c < n; c++) {
    const q = d[at + c]! | (d[at + n + c]! << 8) | (d[at + 2 * n + c]! << 16) | (d[at + 3 * n + c]! << 24);
    if (q !== 0 && q !== EV_UNSCORED && Math.abs(q / 100) >= ZERO_EV) return false;
  }
  return true;
}

/**
 * The reach of every node, with the arithmetic of `reachIn` (reach.ts) in the same order, so the values are
 * identical: per seat a range vector starting at the priors, multiplied by the frequency of each action the
 * seat takes on the path; the seat's mass is the vector's sum over the priors' total; the reach is the
 * product of the masses (in the order the seats first act), clamped to [0, 1]; after a 0 everything is 0.
 * Walks the tree depth first from each root, so only one path of vectors is alive at a time.
 */
function allReaches(
  nodes: readonly IndexNode[],
  weights: ArrayLike<number> | null,
  freqAt: (offset: number, c: number) => number,
): Float64Array {
  const reach = new Float64Array(nodes.length).fill(Number.NaN);
  if (weights === null) return reach;
  const n = weights.length;
  let total = 0;
  for (let c = 0; c < n; c++) total += weights[c]!;
  const byHistory = new Map<string, number>();
  nodes.forEach((node, i) => {
    byHistory.set(node.history, i);
  });
  // Children of each node, by the action that leads to them.
  const children: { child: number; action: number }[][] = nodes.map(() => []);
  const roots: number[] = [];
  nodes.forEach((node, i) => {
    const parts = node.history.split("_");
    if (parts.length === 1) {
      roots.push(i);
      return;
    }
    if (parts.length % 2 === 0) return;
    const parent = byHistory.get(parts.slice(0, -2).join("_"));
    if (parent === undefined) return;
    const token = parts[parts.length - 2];
    const action = nodes[parent]!.actions.findIndex((a) => a.token === token);
    if (action >= 0) children[parent]!.push({ child: i, action });
  });
  interface State {
    readonly node: number;
    readonly ranges: Map<string, Float64Array>;
    readonly masses: Map<string, number>;
    readonly value: number;
  }
  const stack: State[] = roots.map((node) => ({ node, ranges: new Map(), masses: new Map(), value: 1 }));
  while (stack.length > 0) {
    const state = stack.pop()!;
    reach[state.node] = state.value;
    const node = nodes[state.node]!;
    const actor = node.actor;
    for (const { child, action } of children[state.node]!) {
      if (state.value === 0) {
        stack.push({ node: child, ranges: state.ranges, masses: state.masses, value: 0 });
        continue;
      }
      const offset = node.actions[action]!.freqOffset;
      const from = state.ranges.get(actor) ?? Float64Array.from(weights);
      const range = new Float64Array(n);
      let mass = 0;
      for (let c = 0; c < n; c++) {
        const v = from[c]! * freqAt(offset, c);
        range[c] = v;
        mass += v;
      }
      const ranges = new Map(state.ranges);
      ranges.set(actor, range);
      const masses = new Map(state.masses);
      masses.set(actor, mass / total);
      let value = 1;
      for (const m of masses.values()) value *= m;
      stack.push({ node: child, ranges, masses, value: Math.min(1, Math.max(0, value)) });
    }
  }
  return reach;
}

/** Writes the blocks into a blocks file; false when it cannot (the caller then keeps them in memory). */
function spill(parts: readonly Uint8Array[], file: BlocksFile): number | null {
  let bytes = 0;
  try {
    ftruncateSync(file.fd, 0);
    for (const part of parts) {
      let done = 0;
      while (done < part.length) done += writeSync(file.fd, part, done, part.length - done, bytes + done);
      bytes += part.length;
    }
    return bytes;
  } catch {
    return null;
  }
}

/**
 * Verifies a whole pack file (layout, pack checksum, data checksum, the index's description of the data),
 * computes the reach of every node and the pack-wide fold baseline, and stores its data section in blocks of
 * whole nodes of about `blockBytes` inflated bytes each (see `PrepareOptions`).
 */
export function preparePack(file: Uint8Array, signature: string, options: PrepareOptions = {}): PreparedPack {
  const blockBytes = options.blockBytes ?? DEFAULT_BLOCK_BYTES;
  const compress = options.compress ?? true;
  const b = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const meta = decodePackMeta(b, b.length);
  const stored = b.subarray(meta.dataOffset, meta.dataOffset + meta.dataLength);
  if (createHash("sha256").update(stored).digest("hex") !== meta.dataSha256) {
    fail("The data checksum does not match: the data section is corrupt.");
  }
  const d = meta.dataDeflated ? inflate(stored, "data section") : stored;
  if (d.length !== meta.rawDataLength) {
    fail(`The data section inflates to ${d.length} bytes; the index describes ${meta.rawDataLength}.`);
  }
  const { header } = meta;
  // Values per action: classes, or buckets for a bucketed (PLO) pack.
  const n = storedValueCount(header);
  const version = header.formatVersion;

  // Node extents in the inflated data, in index order (the writer lays the nodes out back to back, and
  // decodePackMeta checked the offsets).
  const nodeEnds: number[] = [];
  let cursor = 0;
  let foldEvsZero = true;
  for (const node of meta.nodes) {
    for (const a of node.actions) {
      cursor = a.freqOffset + align(2 * n, 4);
      if (a.evOffset !== null) {
        if (a.kind === "fold" && foldEvsZero) foldEvsZero = evsZero(d, a.evOffset, n, version);
        cursor = a.evOffset + 4 * n;
      }
    }
    nodeEnds.push(cursor);
  }

  const priors = options.priors;
  // A bucketed pack's reaches are left to the store (which walks them over the buckets on demand).
  const weights = header.buckets
    ? null
    : header.classSet === "holdem169" && n === 169
      ? (priors?.holdem169 ?? null)
      : header.classSet === "plo16432" && n === 16432
        ? (priors?.plo16432 ?? null)
        : new Float64Array(n).fill(1);
  const reach = allReaches(meta.nodes, weights?.length === n ? weights : null, (offset, c) =>
    Math.fround(d.readUInt16LE(offset + 2 * c) / FREQ_SCALE),
  );

  // Blocks of whole nodes.
  const starts: number[] = [0];
  for (const end of nodeEnds) {
    if (end - starts.at(-1)! >= blockBytes && end < d.length) starts.push(end);
  }
  starts.push(d.length);
  const common = {
    signature,
    fileBytes: b.length,
    index: packIndexOf(meta),
    formatVersion: version,
    classCount: n,
    blockStarts: Uint32Array.from(starts),
    reach,
    foldEvsZero,
  };
  if (!compress) {
    return {
      ...common,
      // A copy when `d` is the file's own bytes (an uncompressed data section), so the file can go.
      storage: { kind: "memory", blocks: d === stored ? new Uint8Array(d) : d, compressed: false },
      blockEnds: Uint32Array.from(starts.slice(1)),
      maxBlockBytes: 0,
    };
  }
  const parts: Buffer[] = [];
  const blockEnds = new Uint32Array(starts.length - 1);
  let total = 0;
  let maxBlockBytes = 0;
  for (let i = 0; i + 1 < starts.length; i++) {
    const raw = d.subarray(starts[i], starts[i + 1]);
    maxBlockBytes = Math.max(maxBlockBytes, raw.length);
    const part = deflateRawSync(raw, { level: 1 });
    parts.push(part);
    total += part.length;
    blockEnds[i] = total;
  }
  if (options.spillPath) {
    let fd: number | null = null;
    try {
      fd = openSync(options.spillPath, "wx", 0o600);
      const bytes = spill(parts, { fd, path: null });
      closeSync(fd);
      fd = null;
      if (bytes !== null) {
        return {
          ...common,
          storage: { kind: "written", path: options.spillPath, bytes },
          blockEnds,
          maxBlockBytes,
        };
      }
    } catch {}
    if (fd !== null) closeSync(fd);
    rmSync(options.spillPath, { force: true });
  } else if (options.spillDir) {
    const file = createBlocksFile(options.spillDir);
    const bytes = file === null ? null : spill(parts, file);
    if (file !== null && bytes !== null) {
      return { ...common, storage: { kind: "file", ...file, bytes }, blockEnds, maxBlockBytes };
    }
    if (file !== null) closeBlocksFile(file);
  }
  // One buffer of its own (not a slice of a shared pool).
  const blocks = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    blocks.set(part, at);
    at += part.length;
  }
  return { ...common, storage: { kind: "memory", blocks, compressed: true }, blockEnds, maxBlockBytes };
}

/** Reads a whole file through one descriptor, with the signature of what was read. */
export function readWholeFile(path: string): { bytes: Buffer; signature: string } {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new PackPrepareError(`cannot be read (${(error as Error).message}).`);
  }
  let signature: string | null = null;
  try {
    const stat = fstatSync(fd);
    signature = signatureOf(stat);
    const bytes = Buffer.allocUnsafeSlow(stat.size);
    let done = 0;
    while (done < bytes.length) {
      const read = readSync(fd, bytes, done, bytes.length - done, done);
      if (read === 0) throw new PackPrepareError("The file ends early (truncated while being read).");
      done += read;
    }
    return { bytes, signature };
  } catch (error) {
    if (error instanceof PackPrepareError) throw new PackPrepareError(error.message, signature);
    throw new PackPrepareError(`cannot be read (${(error as Error).message}).`, signature);
  } finally {
    closeSync(fd);
  }
}

/** Reads and prepares a pack file (see `preparePack`); errors carry the file's signature when known. */
export function preparePackFile(path: string, options: PrepareOptions = {}): PreparedPack {
  const { bytes, signature } = readWholeFile(path);
  try {
    return preparePack(bytes, signature, options);
  } catch (error) {
    throw new PackPrepareError((error as Error).message, signature);
  }
}

/** A request to the helper process, and its answer. */
export interface PrepareRequest {
  readonly id: number;
  readonly path: string;
  readonly blockBytes: number;
  readonly spillPath: string | null;
  readonly priors: Priors;
}
export type PrepareAnswer =
  | { readonly id: number; readonly ok: true; readonly pack: PreparedPack }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly signature: string | null };

/** The environment variable that makes this module the helper process. */
export const HELPER_ENV = "PREFLOP_RANGES_PACK_WORKER";

const send = process.send?.bind(process);
if (process.env[HELPER_ENV] === "1" && send !== undefined) {
  process.on("message", (request: PrepareRequest) => {
    let answer: PrepareAnswer;
    try {
      const pack = preparePackFile(request.path, {
        blockBytes: request.blockBytes,
        spillPath: request.spillPath,
        priors: request.priors,
      });
      answer = { id: request.id, ok: true, pack };
    } catch (error) {
      answer = {
        id: request.id,
        ok: false,
        message: (error as Error).message,
        signature: error instanceof PackPrepareError ? error.signature : null,
      };
    }
    // A store that went away meanwhile closed the channel: then there is nobody to answer.
    send(answer, undefined, {}, (error: Error | null) => {
      if (error) process.exit(0);
    });
  });
  // The store went away (or let the helper go): nothing more to do.
  process.on("disconnect", () => process.exit(0));
}
