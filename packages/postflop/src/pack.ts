/**
 * Postflop pack format v1: one file per (preflop line, betting tree), every solved board of it inside, each
 * board's data a separately deflated and checksummed block, so a reader opens a pack by its header alone and
 * reads and verifies a board's block on first use. Layout (integers little-endian; docs/postflop-packs.md
 * describes every field):
 *
 *   0    8  magic 89 50 46 4C 4F 50 50 4B ("\x89PFLOPPK")
 *   8    4  u32 format version (1)
 *   12   4  u32 header length H (bytes of UTF-8 JSON)
 *   16   4  u32 data offset (from the start of the file; align8(64 + H))
 *   20   4  u32 data length D (every board block, stored bytes)
 *   24   8  zero
 *   32  32  SHA-256 of bytes [0, 32) + header: the pack checksum (it covers every block's SHA-256)
 *   64   H  header JSON (PostflopPackHeader, canonical: sorted keys, no whitespace)
 *           zero padding up to the data offset
 *        D  board blocks, each raw deflate of: the hands of OOP and IP (u16 combo numbers, then padding to
 *           4 bytes), their range weights (f32), then per node of the node table: the actor's strategy per
 *           action (u16, round(f * 65535), padded to 4 bytes), both players' reach (u16, padded), EV (f32, NaN
 *           where the hand meets no opponent hand), equity (f32, NaN likewise) and the actor's EV per action
 *           (f32)
 */

import { Buffer } from "node:buffer";
import { createHash, randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { BoardData, NodeData, PackNodeInfo } from "./extract.js";

export const POSTFLOP_PACK_FORMAT = "postflop-ranges-pack";
export const POSTFLOP_PACK_VERSION = 1;
export const POSTFLOP_PACK_MAGIC: Buffer = Buffer.from([0x89, 0x50, 0x46, 0x4c, 0x4f, 0x50, 0x50, 0x4b]);
/** File name extension of a postflop pack: `<pack id>.pfpack`. */
export const POSTFLOP_PACK_EXTENSION = ".pfpack";
const PREAMBLE = 64;
const FREQ_SCALE = 65535;
/** Largest difference between a stored frequency or reach and its decoded value. */
export const POSTFLOP_FREQ_MAX_ERROR = 0.5 / FREQ_SCALE;
const MAX_BLOCK_BYTES = 1 << 30;

export class PostflopPackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PostflopPackError";
  }
}

/** The preflop line a pack's ranges come from. */
export interface PreflopLine {
  /** Short name, e.g. `srp` (single-raised pot) or `3bp` (3-bet pot). */
  readonly kind: string;
  /** Plain words, e.g. "BTN opens 2.5bb, SB folds, BB calls (single-raised pot)". */
  readonly description: string;
  /** The preflop pack the ranges are read from. */
  readonly game: string;
  readonly stack: number;
  /** Seats: OOP (acts first after the flop) and IP. */
  readonly oop: string;
  readonly ip: string;
  /** Preflop action paths whose final actions make each player's range (`history` + action token). */
  readonly oopSpot: string;
  readonly ipSpot: string;
}

/** Provenance of one solved board. */
export interface BoardProvenance {
  /** ISO time the solve finished. */
  readonly solvedAt: string;
  readonly seconds: number;
  readonly iterations: number;
  readonly threads: number;
  /** Exploitability of the stored average strategies, percent of the pot at the start of the street. */
  readonly exploitabilityPct: number;
  readonly exploitabilityBb: number;
  /** The target it was solved to (percent of the pot). */
  readonly targetPct: number;
  /** SHA-256 of the solve's inputs (config and solver settings): a board with the same hash need not be solved again. */
  readonly inputsHash: string;
}

export interface BoardEntry {
  /** The board as solved (canonical text of its suit-isomorphism class for flops, e.g. `QsJh2h`). */
  readonly board: string;
  /** Offset of the block in the data section and its stored (deflated) length. */
  readonly offset: number;
  readonly length: number;
  readonly rawLength: number;
  /** Hex SHA-256 of the stored block. */
  readonly sha256: string;
  /** Number of hands of each player (their range's combos that the board does not block). */
  readonly hands: { readonly oop: number; readonly ip: number };
  /** Each range's EV at the root (bb, pot-share convention: they sum to the pot less rake). */
  readonly rootEv: { readonly oop: number; readonly ip: number };
  readonly provenance: BoardProvenance;
}

export interface PostflopPackHeader {
  readonly format: typeof POSTFLOP_PACK_FORMAT;
  readonly formatVersion: 1;
  /** The pack id (the file name without `.pfpack`): `<base>` for the 75% tree, `<base>-flop33` for the other. */
  readonly id: string;
  /** The id of the 75%-pot tree of the same line. */
  readonly basePack: string;
  /** `"75"`: 75% bets on every street; `"flop33"`: 33% on the flop, 75% on turn and river. */
  readonly tree: "75" | "flop33" | string;
  readonly line: PreflopLine;
  /** The street of the pack's boards (3 cards: flop, 4: turn, 5: river). */
  readonly street: "flop" | "turn" | "river";
  /** Pot at the start of the street and effective stack behind, bb. */
  readonly pot: number;
  readonly stack: number;
  /** Rake of the preflop game: percent of the final pot, capped, taken at the end of the hand. */
  readonly rake: { readonly percent: number; readonly capBb: number };
  /** The betting tree: the `PostflopConfig` fields other than board, pot, stack, ranges and rake. */
  readonly treeConfig: Record<string, unknown>;
  /** Each player's range at the start of the street, in `parseRange` notation with weights. */
  readonly ranges: { readonly oop: string; readonly ip: string };
  /** Solver and settings: algorithm, target. */
  readonly solver: { readonly algorithm: string; readonly targetPct: number; readonly isomorphism: boolean };
  /** Decisions of the street (the same for every board), in tree pre-order; node 0 is the root. */
  readonly nodes: readonly PackNodeInfo[];
  /** Solved boards, sorted by board text. */
  readonly boards: readonly BoardEntry[];
  /** ISO time the file was written. */
  readonly writtenAt: string;
}

/** A header without the board table and the write time: what the writer fills in. */
export type PackHeaderBase = Omit<PostflopPackHeader, "boards" | "writtenAt" | "format" | "formatVersion">;

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  return hash.digest();
};

/** JSON with sorted keys and no undefined members; non-finite numbers are refused. */
export function canonicalJson(value: unknown, where = "value"): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value))
        throw new PostflopPackError(`${where} is ${value}; only finite numbers fit.`);
      return JSON.stringify(value);
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value))
        return `[${value.map((v, i) => canonicalJson(v ?? null, `${where}[${i}]`)).join(",")}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k], `${where}.${k}`)}`).join(",")}}`;
    }
    default:
      throw new PostflopPackError(`${where} has type ${typeof value}, which JSON cannot hold.`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Board blocks

const pad4 = (n: number) => Math.ceil(n / 4) * 4;

/** Bytes of a board's raw block for a node table and hand counts. */
function blockLayout(nodes: readonly PackNodeInfo[], n0: number, n1: number): number {
  let size = pad4(2 * (n0 + n1)) + 4 * (n0 + n1);
  for (const node of nodes) {
    const nq = node.player === "oop" ? n0 : n1;
    const A = node.actions.length;
    size += pad4(2 * A * nq) + pad4(2 * (n0 + n1)) + 4 * (n0 + n1) * 2 + 4 * A * nq;
  }
  return size;
}

/** Encodes a board's data (raw, before deflate). */
export function encodeBoardBlock(nodes: readonly PackNodeInfo[], data: BoardData): Buffer {
  const [n0, n1] = [data.hands[0].length, data.hands[1].length];
  if (data.nodes.length !== nodes.length) {
    throw new PostflopPackError(
      `the board has ${data.nodes.length} nodes; the pack's node table has ${nodes.length}`,
    );
  }
  const buf = Buffer.alloc(blockLayout(nodes, n0, n1));
  let at = 0;
  const u16 = (v: ArrayLike<number>, scale: number) => {
    for (let i = 0; i < v.length; i++) {
      const x = scale === 1 ? v[i]! : Math.round(Math.min(1, Math.max(0, v[i]!)) * scale);
      buf.writeUInt16LE(x, at);
      at += 2;
    }
  };
  const f32 = (v: ArrayLike<number>) => {
    for (let i = 0; i < v.length; i++) {
      buf.writeFloatLE(v[i]!, at);
      at += 4;
    }
  };
  const align = () => {
    at = pad4(at);
  };
  u16(data.hands[0], 1);
  u16(data.hands[1], 1);
  align();
  f32(data.weights[0]);
  f32(data.weights[1]);
  nodes.forEach((node, k) => {
    const d = data.nodes[k]!;
    const nq = node.player === "oop" ? n0 : n1;
    if (d.strategy.length !== node.actions.length || d.strategy.some((s) => s.length !== nq)) {
      throw new PostflopPackError(
        `node ${k} (${node.path.join(" / ") || "root"}): strategy does not fit the node table`,
      );
    }
    for (const s of d.strategy) u16(s, FREQ_SCALE);
    align();
    u16(d.reach[0], FREQ_SCALE);
    u16(d.reach[1], FREQ_SCALE);
    align();
    f32(d.ev[0]);
    f32(d.ev[1]);
    f32(d.equity[0]);
    f32(d.equity[1]);
    for (const e of d.actionEv) f32(e);
  });
  if (at !== buf.length) throw new PostflopPackError(`board block layout mismatch (${at} != ${buf.length})`);
  return buf;
}

/** Decodes a raw board block. */
export function decodeBoardBlock(
  nodes: readonly PackNodeInfo[],
  n0: number,
  n1: number,
  raw: Buffer,
): BoardData {
  if (raw.length !== blockLayout(nodes, n0, n1)) {
    throw new PostflopPackError(
      `a board block is ${raw.length} bytes where the header describes ${blockLayout(nodes, n0, n1)}`,
    );
  }
  let at = 0;
  const u16 = (count: number): Int32Array => {
    const out = new Int32Array(count);
    for (let i = 0; i < count; i++) out[i] = raw.readUInt16LE(at + 2 * i);
    at += 2 * count;
    return out;
  };
  const freq = (count: number): Float32Array => {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = raw.readUInt16LE(at + 2 * i) / FREQ_SCALE;
    at += 2 * count;
    return out;
  };
  const f32 = (count: number): Float32Array => {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = raw.readFloatLE(at + 4 * i);
    at += 4 * count;
    return out;
  };
  const align = () => {
    at = pad4(at);
  };
  const hands: [Int32Array, Int32Array] = [u16(n0), u16(n1)];
  for (const h of hands)
    for (const c of h) if (c >= 1326) throw new PostflopPackError(`combo number ${c} is out of range`);
  align();
  const weights: [Float32Array, Float32Array] = [f32(n0), f32(n1)];
  const out: NodeData[] = nodes.map((node) => {
    const nq = node.player === "oop" ? n0 : n1;
    const strategy = node.actions.map(() => freq(nq));
    align();
    const reach: [Float32Array, Float32Array] = [freq(n0), freq(n1)];
    align();
    const ev: [Float32Array, Float32Array] = [f32(n0), f32(n1)];
    const equity: [Float32Array, Float32Array] = [f32(n0), f32(n1)];
    const actionEv = node.actions.map(() => f32(nq));
    return { strategy, reach, ev, equity, actionEv };
  });
  return { hands, weights, nodes: out };
}

/** A board ready for the writer: its table entry (without placement) and its stored (deflated) bytes. */
export interface StoredBoard {
  readonly entry: Omit<BoardEntry, "offset" | "length" | "sha256">;
  readonly bytes: Buffer;
}

/** Deflates a board's data into a `StoredBoard`. */
export function storeBoard(
  nodes: readonly PackNodeInfo[],
  board: string,
  data: BoardData,
  rootEv: { oop: number; ip: number },
  provenance: BoardProvenance,
): StoredBoard {
  const raw = encodeBoardBlock(nodes, data);
  return {
    entry: {
      board,
      rawLength: raw.length,
      hands: { oop: data.hands[0].length, ip: data.hands[1].length },
      rootEv,
      provenance,
    },
    bytes: deflateRawSync(raw, { level: 9 }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Whole files

/** Encodes a pack: the header base, then the boards (sorted by board text; one entry per board). */
export function encodePostflopPack(
  base: PackHeaderBase,
  boards: readonly StoredBoard[],
  writtenAt: string,
): Buffer {
  const sorted = [...boards].sort((a, b) =>
    a.entry.board < b.entry.board ? -1 : a.entry.board > b.entry.board ? 1 : 0,
  );
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.entry.board === sorted[i - 1]!.entry.board) {
      throw new PostflopPackError(`board ${sorted[i]!.entry.board} is in the pack twice`);
    }
  }
  let offset = 0;
  const entries: BoardEntry[] = sorted.map((b) => {
    const entry = { ...b.entry, offset, length: b.bytes.length, sha256: sha256(b.bytes).toString("hex") };
    offset += b.bytes.length;
    return entry;
  });
  const header: PostflopPackHeader = {
    ...base,
    format: POSTFLOP_PACK_FORMAT,
    formatVersion: POSTFLOP_PACK_VERSION,
    boards: entries,
    writtenAt,
  };
  const headerBytes = Buffer.from(canonicalJson(header, "header"), "utf8");
  const dataOffset = Math.ceil((PREAMBLE + headerBytes.length) / 8) * 8;
  const out = Buffer.alloc(dataOffset + offset);
  POSTFLOP_PACK_MAGIC.copy(out, 0);
  out.writeUInt32LE(POSTFLOP_PACK_VERSION, 8);
  out.writeUInt32LE(headerBytes.length, 12);
  out.writeUInt32LE(dataOffset, 16);
  out.writeUInt32LE(offset, 20);
  sha256(out.subarray(0, 32), headerBytes).copy(out, 32);
  headerBytes.copy(out, PREAMBLE);
  let at = dataOffset;
  for (const b of sorted) {
    b.bytes.copy(out, at);
    at += b.bytes.length;
  }
  return out;
}

/** Writes a pack atomically (a temporary file in the same directory, flushed, renamed over `path`). */
export async function writePostflopPack(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(tmp, "w");
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

function readExactly(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, position + done);
    if (n === 0) throw new PostflopPackError(`the file ends ${length - done} bytes early (truncated)`);
    done += n;
  }
  return buf;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function checkHeader(h: unknown): PostflopPackHeader {
  if (!isObj(h) || h.format !== POSTFLOP_PACK_FORMAT || h.formatVersion !== POSTFLOP_PACK_VERSION) {
    throw new PostflopPackError("the header is not a postflop pack header of version 1");
  }
  if (!Array.isArray(h.nodes) || h.nodes.length === 0 || !Array.isArray(h.boards)) {
    throw new PostflopPackError("the header lacks its node or board table");
  }
  if (typeof h.id !== "string" || typeof h.pot !== "number" || typeof h.stack !== "number") {
    throw new PostflopPackError("the header lacks id, pot or stack");
  }
  return h as unknown as PostflopPackHeader;
}

/**
 * One pack file, opened by its header (read and verified at once); each board's block is read, verified
 * against its SHA-256 and decoded on first use, then kept.
 */
export class PostflopPackFile {
  readonly path: string;
  readonly header: PostflopPackHeader;
  /** Hex SHA-256 of the preamble and header (which hold every block's SHA-256). */
  readonly checksum: string;
  readonly fileBytes: number;
  readonly dataOffset: number;
  private readonly boards = new Map<string, BoardData>();

  private constructor(
    path: string,
    header: PostflopPackHeader,
    checksum: string,
    fileBytes: number,
    dataOffset: number,
  ) {
    this.path = path;
    this.header = header;
    this.checksum = checksum;
    this.fileBytes = fileBytes;
    this.dataOffset = dataOffset;
  }

  /** Opens a pack: reads the preamble and header, checks the magic, lengths and checksum. */
  static open(path: string): PostflopPackFile {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch (error) {
      throw new PostflopPackError(`${path}: cannot be read (${(error as Error).message})`);
    }
    try {
      const size = fstatSync(fd).size;
      if (size < PREAMBLE) throw new PostflopPackError("the file is shorter than the 64-byte preamble");
      const pre = readExactly(fd, PREAMBLE, 0);
      if (!pre.subarray(0, 8).equals(POSTFLOP_PACK_MAGIC))
        throw new PostflopPackError("not a postflop pack (bad magic)");
      const version = pre.readUInt32LE(8);
      if (version !== POSTFLOP_PACK_VERSION)
        throw new PostflopPackError(`format version ${version} is not read by this reader (1)`);
      const headerLength = pre.readUInt32LE(12);
      const dataOffset = pre.readUInt32LE(16);
      const dataLength = pre.readUInt32LE(20);
      if (dataOffset !== Math.ceil((PREAMBLE + headerLength) / 8) * 8 || dataOffset + dataLength !== size) {
        throw new PostflopPackError(
          `the lengths in the preamble do not match the file's ${size} bytes (truncated or extended)`,
        );
      }
      const headerBytes = readExactly(fd, headerLength, PREAMBLE);
      const checksum = sha256(pre.subarray(0, 32), headerBytes);
      if (!checksum.equals(pre.subarray(32, 64)))
        throw new PostflopPackError("the header checksum does not match (corrupt file)");
      let parsed: unknown;
      try {
        parsed = JSON.parse(headerBytes.toString("utf8"));
      } catch {
        throw new PostflopPackError("the header is not JSON");
      }
      const header = checkHeader(parsed);
      let end = 0;
      for (const b of header.boards) {
        if (b.offset !== end || b.length <= 0)
          throw new PostflopPackError(`board ${b.board}: block offsets are not contiguous`);
        end += b.length;
      }
      if (end !== dataLength) throw new PostflopPackError("the board blocks do not fill the data section");
      return new PostflopPackFile(path, header, checksum.toString("hex"), size, dataOffset);
    } catch (error) {
      if (error instanceof PostflopPackError) throw new PostflopPackError(`${path}: ${error.message}`);
      throw error;
    } finally {
      closeSync(fd);
    }
  }

  entry(board: string): BoardEntry | undefined {
    return this.header.boards.find((b) => b.board === board);
  }

  /** The stored (deflated) bytes of a board's block, verified against its SHA-256. */
  storedBlock(board: string): Buffer {
    const entry = this.entry(board);
    if (!entry) throw new PostflopPackError(`${this.path}: board ${board} is not in the pack`);
    const fd = openSync(this.path, "r");
    try {
      if (fstatSync(fd).size !== this.fileBytes) {
        throw new PostflopPackError(`${this.path}: the file changed size since it was opened; reopen it`);
      }
      const bytes = readExactly(fd, entry.length, this.dataOffset + entry.offset);
      if (sha256(bytes).toString("hex") !== entry.sha256) {
        throw new PostflopPackError(
          `${this.path}: board ${board}: the block checksum does not match (corrupt file)`,
        );
      }
      return bytes;
    } finally {
      closeSync(fd);
    }
  }

  /** A board's data (read, verified and decoded on first use). */
  board(board: string): BoardData {
    const known = this.boards.get(board);
    if (known) return known;
    const entry = this.entry(board)!;
    const stored = this.storedBlock(board);
    let raw: Buffer;
    try {
      raw = inflateRawSync(stored, { maxOutputLength: MAX_BLOCK_BYTES });
    } catch {
      throw new PostflopPackError(
        `${this.path}: board ${board}: the block cannot be inflated (corrupt file)`,
      );
    }
    if (raw.length !== entry.rawLength) {
      throw new PostflopPackError(
        `${this.path}: board ${board}: the block inflates to ${raw.length} bytes, not ${entry.rawLength}`,
      );
    }
    const data = decodeBoardBlock(this.header.nodes, entry.hands.oop, entry.hands.ip, raw);
    this.boards.set(board, data);
    return data;
  }

  /** The boards as the writer takes them (blocks copied verbatim), to add or replace boards. */
  storedBoards(): StoredBoard[] {
    return this.header.boards.map((b) => {
      const { offset: _o, length: _l, sha256: _s, ...entry } = b;
      return { entry, bytes: this.storedBlock(b.board) };
    });
  }
}
