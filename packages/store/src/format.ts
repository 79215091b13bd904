/**
 * Pack format v2: the binary file behind one (game, stack). Layout (all integers little-endian; see
 * docs/pack-format.md for the full description):
 *
 *   0    8  magic 89 52 4E 47 50 41 43 4B ("\x89RNGPACK")
 *   8    4  u32 format version (2; version 1 is still read)
 *   12   4  u32 header length H (bytes of UTF-8 JSON)
 *   16   4  u32 index length I (bytes of UTF-8 JSON)
 *   20   4  u32 data offset (from the start of the file; a multiple of 8)
 *   24   4  u32 data length D
 *   28   4  u32 flags: bit 0 the index is deflated, bit 1 the data section is deflated (raw deflate)
 *   32  32  SHA-256 of the data section
 *   64  32  SHA-256 of bytes [0, 64) + header + index: the pack checksum
 *   96   H  header JSON (PackHeader, canonical: sorted keys, no whitespace)
 *        I  index JSON ({"nodes": [...]}, canonical)
 *           zero padding up to the data offset
 *        D  data: per action in index order, n u16 frequencies (round(f * 65535)), zero-padded to a
 *           multiple of 4 bytes, then, when the action has EVs, n EVs, where n is the class count, or the
 *           bucket count of a bucketed PLO pack (header.buckets, with its class-to-bucket map); version 2 stores each as an
 *           i32 in hundredths of the EV unit (round(ev * 100); -2^31 = unscored), byte-planed (all low bytes,
 *           then all second bytes, ...), which deflates about three times smaller than f32; version 1 stored
 *           f32 (NaN = unscored)
 *
 * Lengths, offsets of the sections and both checksums are of the bytes as stored (compressed); the offsets
 * inside the index (freqOffset, evOffset) are into the inflated data section. The writer deflates both, which
 * makes packs several times smaller (most frequencies are 0 or 1); the reader also reads uncompressed packs.
 *
 * The pack checksum covers the stored data checksum, so it changes whenever any byte of the file changes;
 * the store uses it for ETags without reading the data section.
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";
import {
  GAMES,
  HOLDEM_CLASS_COUNT,
  isGameId,
  PLO_CLASS_COUNT,
  parseActionToken,
  parsePath,
} from "@ranges/core";
import type { ActionKind, Unverified } from "@ranges/schema";
import {
  PACK_FORMAT,
  PACK_FORMAT_VERSION,
  PACK_FORMAT_VERSIONS,
  type PackAction,
  type PackBuckets,
  type PackConfig,
  type PackData,
  type PackHeader,
  type PackNode,
} from "./pack-types.js";

export const PACK_MAGIC: Buffer = Buffer.from([0x89, 0x52, 0x4e, 0x47, 0x50, 0x41, 0x43, 0x4b]);
export const PREAMBLE_BYTES = 96;
/** Frequencies are stored as round(f * FREQ_SCALE) in a u16: the error is at most 0.5 / 65535 < 7.7e-6. */
export const FREQ_SCALE = 65535;
/** Largest difference between a frequency and its decoded value. */
export const FREQ_MAX_ERROR = 0.5 / FREQ_SCALE;
/** Version 2 stores EVs as round(ev * EV_SCALE) in an i32: the error is at most 0.005 of the EV unit. */
export const EV_SCALE = 100;
/** The stored i32 of an unscored class. */
const EV_UNSCORED = -(2 ** 31);

const ACTION_KINDS: readonly ActionKind[] = ["fold", "call", "raise", "allin", "other"];
const MAX_U32 = 0xffff_ffff;
export const FLAG_INDEX_DEFLATED = 1;
export const FLAG_DATA_DEFLATED = 2;
/** Inflated sections are refused beyond this size: a corrupt length must not exhaust memory. */
const MAX_INFLATED_BYTES = 1 << 30;

function inflate(bytes: Uint8Array, what: string): Buffer {
  try {
    return inflateRawSync(bytes, { maxOutputLength: MAX_INFLATED_BYTES });
  } catch {
    throw new PackFormatError(`The pack's ${what} cannot be inflated: the file is corrupt.`);
  }
}

/** A pack that cannot be written or read: bad input to the writer, or a corrupt, truncated or foreign file. */
export class PackFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PackFormatError";
  }
}

/** Header fields of a pack plus what the reader needs to find and verify the data section. */
export interface PackMetaData {
  readonly header: PackHeader;
  readonly nodes: readonly IndexNode[];
  /** Hex SHA-256 of the preamble (which holds the data checksum), header and index. */
  readonly checksum: string;
  readonly dataOffset: number;
  readonly dataLength: number;
  readonly dataSha256: string;
  /** Whether the stored data section is deflated, and its inflated length. */
  readonly dataDeflated: boolean;
  readonly rawDataLength: number;
}

export interface IndexAction {
  readonly code: number;
  readonly token: string;
  readonly kind: ActionKind;
  readonly sizeBb: number | null;
  readonly sizePctPot: number | null;
  readonly sizeReason?: string;
  readonly freqOffset: number;
  readonly evOffset: number | null;
}

export interface IndexNode {
  readonly history: string;
  readonly actor: string;
  readonly depth: 1 | 2 | 3 | 4;
  readonly actions: readonly IndexAction[];
}

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  return hash.digest();
};

const align = (n: number, to: number): number => Math.ceil(n / to) * to;

/** Expected class count of a class set. */
export function classCountOf(classSet: string): number {
  return classSet === "plo16432" ? PLO_CLASS_COUNT : HOLDEM_CLASS_COUNT;
}

/**
 * Values stored per action in the data section: the class count, or the bucket count of a bucketed pack
 * (`header.buckets`, PLO). The index offsets and the data layout follow this count.
 */
export function storedValueCount(header: Pick<PackHeader, "classCount" | "buckets">): number {
  return header.buckets ? header.buckets.count : header.classCount;
}

const bucketMaps = new WeakMap<PackBuckets, Uint16Array>();

/**
 * The class-to-bucket map of a bucketed pack (bucket of each class, class-set order), decoded once per
 * header and checked (length, CRC-32, every entry below the bucket count); null for a pack stored per class.
 */
export function packClassToBucket(header: Pick<PackHeader, "classCount" | "buckets">): Uint16Array | null {
  const b = header.buckets;
  if (!b) return null;
  let map = bucketMaps.get(b);
  if (map) return map;
  const bytes = Buffer.from(b.map, "base64");
  if (bytes.length !== 2 * header.classCount)
    throw new PackFormatError(
      `header.buckets.map holds ${bytes.length} bytes; ${header.classCount} classes need ${2 * header.classCount}.`,
    );
  if (crc32(bytes) !== b.crc32)
    throw new PackFormatError("header.buckets.map does not match its crc32: the map is corrupt.");
  map = new Uint16Array(header.classCount);
  for (let c = 0; c < map.length; c++) {
    const v = bytes.readUInt16LE(2 * c);
    if (v >= b.count)
      throw new PackFormatError(`header.buckets.map gives class ${c} bucket ${v}; the pack has ${b.count}.`);
    map[c] = v;
  }
  bucketMaps.set(b, map);
  return map;
}

/** Per-class values from per-bucket values through a class-to-bucket map. */
export function expandToClasses(values: Float32Array, classToBucket: Uint16Array): Float32Array {
  const out = new Float32Array(classToBucket.length);
  for (let c = 0; c < out.length; c++) out[c] = values[classToBucket[c]!]!;
  return out;
}

/** `header.buckets`: absent, or a bucket count with a map, names and representatives per bucket. */
function checkBuckets(header: PackHeader): void {
  const b: unknown = header.buckets;
  if (b === undefined) return;
  const where = "header.buckets";
  if (!isObj(b)) throw new PackFormatError(`${where} must be an object when present.`);
  if (header.classSet !== "plo16432")
    throw new PackFormatError(`${where} is for PLO packs; ${header.classSet} packs store every class.`);
  const { count, encoding, map, crc32: crc, names, representatives, abstraction } = b;
  if (!(typeof count === "number" && Number.isInteger(count) && count >= 1 && count < header.classCount))
    throw new PackFormatError(
      `${where}.count must be an integer in [1, ${header.classCount}), got ${String(count)}.`,
    );
  if (encoding !== "u16le-base64")
    throw new PackFormatError(`${where}.encoding must be "u16le-base64", got ${String(encoding)}.`);
  if (typeof map !== "string" || !Number.isInteger(crc) || typeof abstraction !== "string")
    throw new PackFormatError(`${where} needs a map string, an integer crc32 and an abstraction string.`);
  for (const [what, list] of [
    ["names", names],
    ["representatives", representatives],
  ] as const) {
    if (!Array.isArray(list) || list.length !== count || list.some((x) => typeof x !== "string"))
      throw new PackFormatError(`${where}.${what} must be ${String(count)} strings.`);
  }
}

/**
 * JSON with object keys sorted and undefined members dropped, so equal values always give equal bytes.
 * Non-finite numbers are refused: JSON would silently turn them into null.
 */
export function canonicalJson(value: unknown, where = "value"): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value))
        throw new PackFormatError(`${where} is ${value}; only finite numbers fit.`);
      return JSON.stringify(value);
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) {
        return `[${value.map((v, i) => canonicalJson(v === undefined ? null : v, `${where}[${i}]`)).join(",")}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k], `${where}.${k}`)}`).join(",")}}`;
    }
    default:
      throw new PackFormatError(`${where} has type ${typeof value}, which JSON cannot hold.`);
  }
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The `unverified` entry of a header without `config.rake`: packs written before the rake was recorded read
 * as `rake: null` with this entry, so nothing claims "no rake" for them.
 */
export const RAKE_NOT_RECORDED: Unverified = {
  field: "rake",
  reason:
    "Pack written before rake was recorded; the rake it was solved with is unknown, so null here does not mean no rake.",
};

/** `config.rake`: absent (an older pack), null (no rake) or `{ percent in [0, 100), capBb >= 0, noFlopNoDrop: true }`. */
function checkRake(rake: unknown): void {
  if (rake === undefined || rake === null) return;
  const where = "header.config.rake";
  if (!isObj(rake)) throw new PackFormatError(`${where} must be null or an object, got ${String(rake)}.`);
  const { percent, capBb, noFlopNoDrop } = rake;
  if (!(typeof percent === "number" && Number.isFinite(percent) && percent >= 0 && percent < 100)) {
    throw new PackFormatError(`${where}.percent must be a number in [0, 100), got ${String(percent)}.`);
  }
  if (!(typeof capBb === "number" && Number.isFinite(capBb) && capBb >= 0)) {
    throw new PackFormatError(`${where}.capBb must be a number of bb >= 0, got ${String(capBb)}.`);
  }
  if (noFlopNoDrop !== true) {
    throw new PackFormatError(
      `${where}.noFlopNoDrop must be true (only pots that see a flop are raked), got ${String(noFlopNoDrop)}.`,
    );
  }
}

/** A config read from a pack written before the rake was recorded: rake unknown, so null and listed. */
function withUnknownRake(config: PackConfig): PackConfig {
  const listed = config.unverified.some((u) => isObj(u) && u.field === "rake");
  return {
    ...config,
    rake: null,
    unverified: listed ? config.unverified : [...config.unverified, RAKE_NOT_RECORDED],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Writer

function checkHeader(header: PackHeader): void {
  if (header.format !== PACK_FORMAT || !PACK_FORMAT_VERSIONS.includes(header.formatVersion)) {
    throw new PackFormatError(
      `header.format must be "${PACK_FORMAT}" version ${PACK_FORMAT_VERSIONS.join(" or ")}, got "${header.format}" version ${header.formatVersion}.`,
    );
  }
  if (!isGameId(header.game)) throw new PackFormatError(`header.game "${header.game}" is not a game.`);
  if (!(Number.isFinite(header.stack) && header.stack > 0)) {
    throw new PackFormatError(`header.stack must be a positive number of bb, got ${header.stack}.`);
  }
  const info = GAMES[header.game];
  if (header.classSet !== info.classSet) {
    throw new PackFormatError(
      `header.classSet of ${header.game} is "${info.classSet}", got "${header.classSet}".`,
    );
  }
  if (header.classCount !== classCountOf(header.classSet)) {
    throw new PackFormatError(
      `header.classCount of ${header.classSet} is ${classCountOf(header.classSet)}, got ${header.classCount}.`,
    );
  }
  if (header.evUnit !== "sb" && header.evUnit !== null) {
    throw new PackFormatError(`header.evUnit must be "sb" or null, got ${String(header.evUnit)}.`);
  }
  const config: unknown = header.config;
  if (isObj(config)) checkRake(config.rake);
  checkBuckets(header);
}

function checkNode(header: PackHeader, node: PackNode, seen: Set<string>): void {
  const where = `node "${node.history}"`;
  if (seen.has(node.history)) throw new PackFormatError(`${where} appears twice.`);
  seen.add(node.history);
  let parsed: ReturnType<typeof parsePath>;
  try {
    parsed = parsePath(header.game, node.history);
  } catch (error) {
    throw new PackFormatError(`${where} is not a path of ${header.game}: ${(error as Error).message}`);
  }
  if (parsed.kind !== "node" || parsed.actor !== node.actor) {
    throw new PackFormatError(`${where} must end in its actor ${node.actor}.`);
  }
  if (!Number.isInteger(node.depth) || node.depth < 1 || node.depth > 4) {
    throw new PackFormatError(`${where} has depth ${node.depth}; depth is 1..4.`);
  }
  if (node.actions.length === 0) throw new PackFormatError(`${where} has no actions.`);
  const tokens = new Set<string>();
  for (const action of node.actions) {
    const at = `${where} action "${action.token}"`;
    if (tokens.has(action.token)) throw new PackFormatError(`${at} appears twice.`);
    tokens.add(action.token);
    try {
      parseActionToken(header.game, action.token);
    } catch (error) {
      throw new PackFormatError(`${at}: ${(error as Error).message}`);
    }
    if (!Number.isInteger(action.code) || action.code < 0) {
      throw new PackFormatError(`${at} has code ${action.code}; codes are non-negative integers.`);
    }
    if (!ACTION_KINDS.includes(action.kind)) throw new PackFormatError(`${at} has kind "${action.kind}".`);
    const stored = storedValueCount(header);
    const unit = header.buckets ? "buckets" : "classes";
    if (action.freqs.length !== stored) {
      throw new PackFormatError(
        `${at} has ${action.freqs.length} frequencies; the pack has ${stored} ${unit}.`,
      );
    }
    if (action.evs !== null) {
      if (header.evUnit === null) throw new PackFormatError(`${at} has EVs but header.evUnit is null.`);
      if (action.evs.length !== stored) {
        throw new PackFormatError(`${at} has ${action.evs.length} EVs; the pack has ${stored} ${unit}.`);
      }
    }
  }
}

function quantize(f: number, at: string, cls: number): number {
  // Float32 noise just outside [0, 1] is clamped; anything further out is a bug in the producer.
  if (!(f >= -1e-6 && f <= 1 + 1e-6)) {
    throw new PackFormatError(`${at} class ${cls} has frequency ${f}; frequencies are in [0, 1].`);
  }
  return Math.round(Math.min(1, Math.max(0, f)) * FREQ_SCALE);
}

/** Encodes a pack. Deterministic: equal PackData (whatever its key order) gives byte-identical output. */
export function encodePack(data: PackData): Buffer {
  const { header } = data;
  checkHeader(header);
  if (data.nodes.length === 0) throw new PackFormatError("A pack needs at least one node.");
  const seen = new Set<string>();
  for (const node of data.nodes) checkNode(header, node, seen);
  packClassToBucket(header);

  const n = storedValueCount(header);
  const freqBytes = align(2 * n, 4);
  let cursor = 0;
  const indexNodes: IndexNode[] = data.nodes.map((node) => ({
    history: node.history,
    actor: node.actor,
    depth: node.depth,
    actions: node.actions.map((a) => {
      const freqOffset = cursor;
      cursor += freqBytes;
      const evOffset = a.evs === null ? null : cursor;
      if (a.evs !== null) cursor += 4 * n;
      return {
        code: a.code,
        token: a.token,
        kind: a.kind,
        sizeBb: a.sizeBb,
        sizePctPot: a.sizePctPot,
        sizeReason: a.sizeReason,
        freqOffset,
        evOffset,
      };
    }),
  }));
  const rawData = Buffer.alloc(cursor);
  data.nodes.forEach((node, ni) => {
    node.actions.forEach((action, ai) => {
      const entry = indexNodes[ni]!.actions[ai]!;
      const at = `node "${node.history}" action "${action.token}"`;
      for (let c = 0; c < n; c++) {
        rawData.writeUInt16LE(quantize(action.freqs[c]!, at, c), entry.freqOffset + 2 * c);
      }
      if (action.evs !== null && entry.evOffset !== null) {
        for (let c = 0; c < n; c++) {
          const ev = action.evs[c]!;
          let q = EV_UNSCORED;
          if (!Number.isNaN(ev)) {
            q = Math.round(ev * EV_SCALE);
            if (!Number.isFinite(ev) || Math.abs(q) >= 2 ** 31 - 1)
              throw new PackFormatError(`${at} class ${c} has EV ${ev}.`);
          }
          // Byte planes: byte j of class c's value at evOffset + j * n + c.
          const u = q >>> 0;
          for (let j = 0; j < 4; j++) rawData[entry.evOffset + j * n + c] = (u >>> (8 * j)) & 0xff;
        }
      }
    });
  });

  // Whatever version a pack was read as, it is written as the current one.
  const headerBuf = Buffer.from(
    canonicalJson({ ...header, formatVersion: PACK_FORMAT_VERSION }, "header"),
    "utf8",
  );
  const indexBuf = deflateRawSync(Buffer.from(canonicalJson({ nodes: indexNodes }, "index"), "utf8"), {
    level: 9,
  });
  const dataBuf = deflateRawSync(rawData, { level: 9 });
  const dataLength = dataBuf.length;
  const dataOffset = align(PREAMBLE_BYTES + headerBuf.length + indexBuf.length, 8);
  if (dataOffset + dataLength > MAX_U32) throw new PackFormatError("A pack must stay below 4 GiB.");

  const out = Buffer.alloc(dataOffset + dataLength);
  PACK_MAGIC.copy(out, 0);
  out.writeUInt32LE(PACK_FORMAT_VERSION, 8);
  out.writeUInt32LE(headerBuf.length, 12);
  out.writeUInt32LE(indexBuf.length, 16);
  out.writeUInt32LE(dataOffset, 20);
  out.writeUInt32LE(dataLength, 24);
  out.writeUInt32LE(FLAG_INDEX_DEFLATED | FLAG_DATA_DEFLATED, 28);
  sha256(dataBuf).copy(out, 32);
  headerBuf.copy(out, PREAMBLE_BYTES);
  indexBuf.copy(out, PREAMBLE_BYTES + headerBuf.length);
  sha256(out.subarray(0, 64), headerBuf, indexBuf).copy(out, 64);
  dataBuf.copy(out, dataOffset);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Reader

/** Sizes read from the fixed 96-byte preamble. */
export interface Preamble {
  readonly version: number;
  readonly headerLength: number;
  readonly indexLength: number;
  readonly dataOffset: number;
  readonly dataLength: number;
  readonly flags: number;
}

/** Reads and checks the preamble; `fileBytes` (when known) must match the layout exactly. */
export function readPreamble(buf: Uint8Array, fileBytes?: number): Preamble {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < PREAMBLE_BYTES) {
    throw new PackFormatError(
      `The file is ${b.length} bytes, shorter than the ${PREAMBLE_BYTES}-byte preamble.`,
    );
  }
  if (!b.subarray(0, 8).equals(PACK_MAGIC))
    throw new PackFormatError("The file is not a pack (bad magic bytes).");
  const version = b.readUInt32LE(8);
  if (!PACK_FORMAT_VERSIONS.includes(version)) {
    throw new PackFormatError(
      `The pack has format version ${version}; this reader reads versions ${PACK_FORMAT_VERSIONS.join(" and ")}.`,
    );
  }
  const headerLength = b.readUInt32LE(12);
  const indexLength = b.readUInt32LE(16);
  const dataOffset = b.readUInt32LE(20);
  const dataLength = b.readUInt32LE(24);
  const flags = b.readUInt32LE(28);
  if ((flags & ~(FLAG_INDEX_DEFLATED | FLAG_DATA_DEFLATED)) !== 0) {
    throw new PackFormatError(`The preamble's flags (${flags}) name features this reader does not know.`);
  }
  if (dataOffset !== align(PREAMBLE_BYTES + headerLength + indexLength, 8)) {
    throw new PackFormatError("The preamble's data offset does not follow the header and index.");
  }
  if (fileBytes !== undefined && fileBytes !== dataOffset + dataLength) {
    throw new PackFormatError(
      `The file is ${fileBytes} bytes but its preamble describes ${dataOffset + dataLength} bytes (truncated or extended).`,
    );
  }
  return {
    version,
    headerLength,
    indexLength,
    dataOffset,
    dataLength,
    flags,
  };
}

const isNumOrNull = (v: unknown): boolean => v === null || (typeof v === "number" && Number.isFinite(v));

function parseJson(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch {
    throw new PackFormatError(`The pack's ${what} is not valid JSON.`);
  }
}

function validateHeader(value: unknown): PackHeader {
  if (!isObj(value)) throw new PackFormatError("The pack header is not an object.");
  const h = value as unknown as PackHeader;
  try {
    checkHeader(h);
  } catch (error) {
    throw new PackFormatError(`The pack header is invalid: ${(error as Error).message}`);
  }
  if (!isObj(h.config) || !Array.isArray(h.config.unverified)) {
    throw new PackFormatError("The pack header has no config object with an unverified list.");
  }
  if (!isObj(h.provenance) || (h.provenance.source !== "solver" && h.provenance.source !== "import")) {
    throw new PackFormatError("The pack header has no provenance with source solver or import.");
  }
  try {
    packClassToBucket(h);
  } catch (error) {
    throw new PackFormatError(`The pack header is invalid: ${(error as Error).message}`);
  }
  // Written before the rake was recorded: unknown, not "no rake".
  if (h.config.rake === undefined) return { ...h, config: withUnknownRake(h.config) };
  return h;
}

/** Checks the index and returns its nodes with the data length they describe (`dataLength` when known). */
function validateIndex(
  value: unknown,
  header: PackHeader,
  dataLength: number | null,
): { nodes: IndexNode[]; rawLength: number } {
  if (!isObj(value) || !Array.isArray(value.nodes)) throw new PackFormatError("The pack index has no nodes.");
  const n = storedValueCount(header);
  const freqBytes = align(2 * n, 4);
  const seen = new Set<string>();
  let cursor = 0;
  for (const node of value.nodes as unknown[]) {
    if (
      !isObj(node) ||
      typeof node.history !== "string" ||
      typeof node.actor !== "string" ||
      !(node.depth === 1 || node.depth === 2 || node.depth === 3 || node.depth === 4) ||
      !Array.isArray(node.actions)
    ) {
      throw new PackFormatError("The pack index has a malformed node.");
    }
    if (seen.has(node.history)) throw new PackFormatError(`The pack index lists "${node.history}" twice.`);
    seen.add(node.history);
    for (const a of node.actions as unknown[]) {
      const ok =
        isObj(a) &&
        Number.isInteger(a.code) &&
        typeof a.token === "string" &&
        ACTION_KINDS.includes(a.kind as ActionKind) &&
        isNumOrNull(a.sizeBb) &&
        isNumOrNull(a.sizePctPot) &&
        (a.sizeReason === undefined || typeof a.sizeReason === "string") &&
        a.freqOffset === cursor &&
        (a.evOffset === null || a.evOffset === cursor + freqBytes) &&
        (a.evOffset === null || header.evUnit !== null);
      if (!ok) throw new PackFormatError(`The pack index has a malformed action at node "${node.history}".`);
      cursor += freqBytes + ((a as { evOffset: unknown }).evOffset === null ? 0 : 4 * n);
    }
  }
  if (dataLength !== null && cursor !== dataLength) {
    throw new PackFormatError(
      `The pack index describes ${cursor} data bytes but the preamble says ${dataLength}.`,
    );
  }
  return { nodes: value.nodes as IndexNode[], rawLength: cursor };
}

/**
 * Reads the preamble, header and index from the first bytes of a pack (at least `dataOffset` of them) and
 * verifies the header+index checksum. The data section is not touched.
 */
export function decodePackMeta(head: Uint8Array, fileBytes?: number): PackMetaData {
  const { pre, header, checksum, indexBytes } = verifyHead(head, fileBytes);
  const indexJson = pre.flags & FLAG_INDEX_DEFLATED ? inflate(indexBytes, "index") : indexBytes;
  const dataDeflated = (pre.flags & FLAG_DATA_DEFLATED) !== 0;
  const { nodes, rawLength } = validateIndex(
    parseJson(indexJson, "index"),
    header,
    dataDeflated ? null : pre.dataLength,
  );
  return {
    header,
    nodes,
    checksum,
    dataOffset: pre.dataOffset,
    dataLength: pre.dataLength,
    dataSha256: Buffer.from(head.buffer, head.byteOffset + 32, 32).toString("hex"),
    dataDeflated,
    rawDataLength: rawLength,
  };
}

/**
 * The header and pack checksum from the first `dataOffset` bytes of a pack, verified as `decodePackMeta`
 * verifies them (preamble, checksum over preamble, header and index, zero padding, header), without parsing
 * the index: for a reader that keeps only the headers of packs until they are used (the store).
 */
export function decodePackHead(
  head: Uint8Array,
  fileBytes?: number,
): { header: PackHeader; checksum: string } {
  const { header, checksum } = verifyHead(head, fileBytes);
  return { header, checksum };
}

/** The checks `decodePackMeta` and `decodePackHead` share, with the parsed header and the index bytes. */
function verifyHead(head: Uint8Array, fileBytes: number | undefined) {
  const pre = readPreamble(head, fileBytes);
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const headerEnd = PREAMBLE_BYTES + pre.headerLength;
  const indexEnd = headerEnd + pre.indexLength;
  if (b.length < pre.dataOffset) {
    throw new PackFormatError(`The file ends inside its header or index (needs ${pre.dataOffset} bytes).`);
  }
  const headerBytes = b.subarray(PREAMBLE_BYTES, headerEnd);
  const indexBytes = b.subarray(headerEnd, indexEnd);
  const checksum = sha256(b.subarray(0, 64), headerBytes, indexBytes);
  if (!checksum.equals(b.subarray(64, 96))) {
    throw new PackFormatError("The header/index checksum does not match: the file is corrupt.");
  }
  for (let i = indexEnd; i < pre.dataOffset; i++) {
    if (b[i] !== 0) throw new PackFormatError("The padding before the data section is not zero.");
  }
  const header = validateHeader(parseJson(headerBytes, "header"));
  if (header.formatVersion !== pre.version) {
    throw new PackFormatError(
      `The header says format version ${header.formatVersion} but the preamble says ${pre.version}.`,
    );
  }
  return { pre, header, checksum: checksum.toString("hex"), indexBytes };
}

/** Verifies the data section against its stored checksum and decodes it into the full PackData. */
export function decodePackData(meta: PackMetaData, dataBytes: Uint8Array): PackData {
  const stored = Buffer.from(dataBytes.buffer, dataBytes.byteOffset, dataBytes.byteLength);
  if (stored.length !== meta.dataLength) {
    throw new PackFormatError(
      `The data section is ${stored.length} bytes; the preamble says ${meta.dataLength}.`,
    );
  }
  if (sha256(stored).toString("hex") !== meta.dataSha256) {
    throw new PackFormatError("The data checksum does not match: the data section is corrupt.");
  }
  const d = meta.dataDeflated ? inflate(stored, "data section") : stored;
  if (d.length !== meta.rawDataLength) {
    throw new PackFormatError(
      `The data section inflates to ${d.length} bytes; the index describes ${meta.rawDataLength}.`,
    );
  }
  const n = storedValueCount(meta.header);
  const nodes: PackNode[] = meta.nodes.map((node) => ({
    history: node.history,
    actor: node.actor,
    depth: node.depth,
    actions: node.actions.map((a): PackAction => {
      const { freqs, evs } = decodeActionValues(d, a.freqOffset, a.evOffset, n, meta.header.formatVersion);
      const base = {
        code: a.code,
        token: a.token,
        kind: a.kind,
        sizeBb: a.sizeBb,
        sizePctPot: a.sizePctPot,
        freqs,
        evs,
      };
      return a.sizeReason === undefined ? base : { ...base, sizeReason: a.sizeReason };
    }),
  }));
  return { header: meta.header, nodes };
}

/**
 * One action's frequencies and EVs from inflated data bytes `d` (offsets into `d`): frequencies as u16 over
 * FREQ_SCALE; EVs as f32 (format 1) or byte-planed i32 hundredths with EV_UNSCORED for NaN (format 2).
 */
export function decodeActionValues(
  d: Buffer,
  freqOffset: number,
  evOffset: number | null,
  n: number,
  formatVersion: number,
): { freqs: Float32Array; evs: Float32Array | null } {
  const freqs = new Float32Array(n);
  // The bytes are read by index (faster than a bounds-checked read per value), so the bounds are checked once.
  if (freqOffset < 0 || freqOffset + 2 * n > d.length) throw new RangeError("action values out of bounds");
  for (let c = 0, o = freqOffset; c < n; c++, o += 2) freqs[c] = (d[o]! | (d[o + 1]! << 8)) / FREQ_SCALE;
  if (evOffset === null) return { freqs, evs: null };
  const evs = new Float32Array(n);
  const at = evOffset;
  if (formatVersion === 1) {
    for (let c = 0; c < n; c++) evs[c] = d.readFloatLE(at + 4 * c);
  } else {
    if (at < 0 || at + 4 * n > d.length) throw new RangeError("action values out of bounds");
    for (let c = 0; c < n; c++) {
      const q = d[at + c]! | (d[at + n + c]! << 8) | (d[at + 2 * n + c]! << 16) | (d[at + 3 * n + c]! << 24);
      evs[c] = q === EV_UNSCORED ? Number.NaN : q / EV_SCALE;
    }
  }
  return { freqs, evs };
}

/** Decodes a whole pack file, verifying both checksums and the layout. Throws PackFormatError. */
export function decodePack(buf: Uint8Array): PackData {
  const meta = decodePackMeta(buf, buf.byteLength);
  return decodePackData(meta, buf.subarray(meta.dataOffset, meta.dataOffset + meta.dataLength));
}

/** The pack checksum (hex SHA-256 over preamble, header and index) of an encoded pack; use it for ETags. */
export function packChecksum(buf: Uint8Array): string {
  readPreamble(buf);
  return Buffer.from(buf.buffer, buf.byteOffset + 64, 32).toString("hex");
}
