/**
 * The heads-up equity file, `data/equity/holdem-hu.bin`. All numbers little-endian:
 *
 *   offset  size         content
 *   0       4            magic "HUEQ"
 *   4       4            u32 format version (1)
 *   8       4            u32 byte length L of the JSON header
 *   12      L            JSON header (UTF-8), then spaces up to a multiple of 4 bytes
 *   H       169*169*4    eq: f32 hero equity, row = hero class, column = villain class, grid order
 *   ...     169*169*4    se: f32 standard error of each equity (all 0 for the exact method)
 *   ...     169*169*2    w:  u16 non-conflicting ordered combo pairs
 *
 * The header holds { format, classes, order, method, samples, seed, maxSe, crc32 }, where crc32 covers every
 * byte after the header; a mismatch is reported as a corrupt file.
 */

import { readFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { findAbove } from "../data-file.js";
import { CLASS_COUNT, CLASS_PAIR_COUNT } from "./combos.js";
import type { HeadsUpEquityTable, HeadsUpMethod } from "./heads-up.js";

const MAGIC = "HUEQ";
const FORMAT_VERSION = 1;
const BODY_BYTES = CLASS_PAIR_COUNT * (4 + 4 + 2);

/** Where the committed table lives, relative to the repository root. */
export const HEADS_UP_EQUITY_FILE = "data/equity/holdem-hu.bin";

interface HeaderJson {
  format: string;
  classes: number;
  order: string;
  method: HeadsUpMethod;
  samples: number;
  seed: number;
  maxSe: number;
  crc32: number;
}

export function serializeHeadsUpEquity(table: HeadsUpEquityTable): Uint8Array {
  const body = new Uint8Array(BODY_BYTES);
  const view = new DataView(body.buffer);
  let offset = 0;
  for (const value of table.eq) view.setFloat32((offset += 4) - 4, value, true);
  for (const value of table.se) view.setFloat32((offset += 4) - 4, value, true);
  for (const value of table.w) view.setUint16((offset += 2) - 2, value, true);
  const header: HeaderJson = {
    format: "holdem heads-up equity: eq f32, se f32, w u16; 169 x 169 each, row = hero class",
    classes: CLASS_COUNT,
    order: "grid: row/column A..2, pairs on the diagonal, suited above, offsuit below",
    method: table.method,
    samples: table.samples,
    seed: table.seed,
    maxSe: table.se.reduce((max, value) => Math.max(max, value), 0),
    crc32: crc32(body),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  // Spaces pad the header so the f32 sections start 4-byte aligned.
  const headerBytes = new Uint8Array(json.length + ((4 - ((12 + json.length) % 4)) % 4)).fill(0x20);
  headerBytes.set(json);
  const file = new Uint8Array(12 + headerBytes.length + BODY_BYTES);
  const fileView = new DataView(file.buffer);
  file.set(new TextEncoder().encode(MAGIC), 0);
  fileView.setUint32(4, FORMAT_VERSION, true);
  fileView.setUint32(8, headerBytes.length, true);
  file.set(headerBytes, 12);
  file.set(body, 12 + headerBytes.length);
  return file;
}

export function parseHeadsUpEquity(bytes: Uint8Array): HeadsUpEquityTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC) {
    throw new Error("not a heads-up equity file (bad magic)");
  }
  const version = view.getUint32(4, true);
  if (version !== FORMAT_VERSION) throw new Error(`unsupported heads-up equity format version ${version}`);
  const headerLength = view.getUint32(8, true);
  const bodyStart = 12 + headerLength;
  if (bytes.length !== bodyStart + BODY_BYTES) throw new Error("heads-up equity file has the wrong length");
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, bodyStart))) as HeaderJson;
  if (header.classes !== CLASS_COUNT) throw new Error(`heads-up equity file has ${header.classes} classes`);
  if (crc32(bytes.subarray(bodyStart)) !== header.crc32)
    throw new Error("heads-up equity file is corrupt (crc32)");
  const eq = new Float64Array(CLASS_PAIR_COUNT);
  const se = new Float64Array(CLASS_PAIR_COUNT);
  const w = new Float64Array(CLASS_PAIR_COUNT);
  let offset = bodyStart;
  for (let i = 0; i < CLASS_PAIR_COUNT; i++, offset += 4) eq[i] = view.getFloat32(offset, true);
  for (let i = 0; i < CLASS_PAIR_COUNT; i++, offset += 4) se[i] = view.getFloat32(offset, true);
  for (let i = 0; i < CLASS_PAIR_COUNT; i++, offset += 2) w[i] = view.getUint16(offset, true);
  return { method: header.method, eq, w, se, samples: header.samples, seed: header.seed };
}

/** Finds `data/equity/holdem-hu.bin` in the nearest folder above this module that has it. */
export function defaultHeadsUpEquityPath(): string {
  return findAbove(import.meta.url, HEADS_UP_EQUITY_FILE);
}

/** Reads the heads-up equity table (the committed one unless `path` is given). */
export function loadHeadsUpEquity(path: string = defaultHeadsUpEquityPath()): HeadsUpEquityTable {
  return parseHeadsUpEquity(readFileSync(path));
}
