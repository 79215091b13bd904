/**
 * The file layout of the PLO per-class tables (`data/equity/plo-random.bin`, `data/equity/plo-play.bin`), all
 * numbers little-endian:
 *
 *   offset  size  content
 *   0       4     magic (4 ASCII letters, one per table kind)
 *   4       4     u32 format version
 *   8       4     u32 byte length L of the JSON header
 *   12      L     JSON header (UTF-8), then spaces up to a multiple of 4 bytes
 *   12 + L  ...   the body: f32 columns of 16,432 values each, `ploClasses()` order
 *
 * The header's `crc32` covers every byte of the body; a mismatch is reported as a corrupt file.
 */

import { crc32 } from "node:zlib";

/** Writes `columns` (each `length` numbers, stored as f32) after the header; `header.crc32` is filled in. */
export function writePloTable(
  magic: string,
  version: number,
  header: Record<string, unknown>,
  columns: readonly ArrayLike<number>[],
  length: number,
): Uint8Array {
  const body = new Uint8Array(columns.length * length * 4);
  const view = new DataView(body.buffer);
  let offset = 0;
  for (const column of columns) {
    if (column.length !== length) throw new RangeError(`a column of this table has ${length} values`);
    for (let i = 0; i < length; i++, offset += 4) view.setFloat32(offset, column[i]!, true);
  }
  const json = new TextEncoder().encode(JSON.stringify({ ...header, crc32: crc32(body) }));
  const headerBytes = new Uint8Array(json.length + ((4 - ((12 + json.length) % 4)) % 4)).fill(0x20);
  headerBytes.set(json);
  const file = new Uint8Array(12 + headerBytes.length + body.length);
  const fileView = new DataView(file.buffer);
  file.set(new TextEncoder().encode(magic), 0);
  fileView.setUint32(4, version, true);
  fileView.setUint32(8, headerBytes.length, true);
  file.set(headerBytes, 12);
  file.set(body, 12 + headerBytes.length);
  return file;
}

/**
 * Reads a table written by `writePloTable`: its JSON header and `count` f32 columns of `length` values. `what`
 * names the table in errors ("PLO equity file").
 */
export function readPloTable(
  bytes: Uint8Array,
  magic: string,
  version: number,
  count: number,
  length: number,
  what: string,
): { header: Record<string, unknown>; columns: Float64Array[] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== magic)
    throw new Error(`not a ${what} (bad magic)`);
  const found = view.getUint32(4, true);
  if (found !== version) throw new Error(`unsupported ${what} format version ${found}`);
  const bodyStart = 12 + view.getUint32(8, true);
  if (bytes.length !== bodyStart + count * length * 4) throw new Error(`${what} has the wrong length`);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, bodyStart))) as Record<
    string,
    unknown
  >;
  if (header.classes !== length) throw new Error(`${what} has ${String(header.classes)} classes`);
  if (crc32(bytes.subarray(bodyStart)) !== header.crc32) throw new Error(`${what} is corrupt (crc32)`);
  const columns: Float64Array[] = [];
  let offset = bodyStart;
  for (let c = 0; c < count; c++) {
    const column = new Float64Array(length);
    for (let i = 0; i < length; i++, offset += 4) column[i] = view.getFloat32(offset, true);
    columns.push(column);
  }
  return { header, columns };
}

/** A 32-bit hash of three integers (murmur3-style finalizer), for per-(sample, class) hand choices. */
export function hash3(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) ^ Math.imul(c + 0x27d4eb2f, 0x165667b1);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Card sets as two 26-bit words (cards 0..25, 26..51): cheap conflict tests without BigInt. */
export const lowBits = (c: number): number => (c < 26 ? 1 << c : 0);
export const highBits = (c: number): number => (c < 26 ? 0 : 1 << (c - 26));
