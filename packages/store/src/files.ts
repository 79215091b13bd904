/** Pack files on disk: where they live, atomic writes, and the meta read of the store at open. */

import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { inflateRaw } from "node:zlib";
import type { GameId } from "@ranges/core";
import {
  decodePack,
  decodePackHead,
  encodePack,
  FLAG_INDEX_DEFLATED,
  PackFormatError,
  PREAMBLE_BYTES,
  readPreamble,
} from "./format.js";
import { gameDir, type PackData, type PackHeader } from "./pack-types.js";
import { signatureOf } from "./pack-worker.js";

/** `<packsDir>/<gameDir(game)>/<stack>.pack`, e.g. `data/packs/nl-v2/100.pack`. */
export function packPath(packsDir: string, game: GameId, stack: number): string {
  return join(packsDir, gameDir(game), `${stack}.pack`);
}

/**
 * Encodes and writes a pack atomically: the bytes go to a temporary file in the same directory, are flushed,
 * and the file is renamed over `path`, so a reader never sees half a pack. Creates missing directories.
 */
export async function writePack(path: string, data: PackData): Promise<void> {
  const bytes = encodePack(data);
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

const withPath = (path: string, error: unknown): Error =>
  error instanceof PackFormatError
    ? new PackFormatError(`${path}: ${error.message}`)
    : new PackFormatError(`${path}: cannot be read (${(error as Error).message}).`);

/** Reads and fully verifies a pack file. Throws PackFormatError naming the file. */
export async function readPackFile(path: string): Promise<PackData> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (error) {
    throw withPath(path, error);
  }
  try {
    return decodePack(buf);
  } catch (error) {
    throw withPath(path, error);
  }
}

function readExactly(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, position + done);
    if (n === 0) throw new PackFormatError(`The file ends ${length - done} bytes early (truncated).`);
    done += n;
  }
  return buf;
}

/**
 * Reads the preamble, header and index bytes of a pack file (synchronously), verifies their checksum and the
 * header, and returns the header and checksum (the index is not parsed; the store reads it when the pack is
 * used). `signature` identifies the file version read (see `signatureOf`).
 */
export function readPackHeadSync(path: string): {
  head: { header: PackHeader; checksum: string };
  fileBytes: number;
  signature: string;
} {
  const fd = openSync(path, "r");
  try {
    const stat = fstatSync(fd);
    const fileBytes = stat.size;
    const preamble = readExactly(fd, Math.min(PREAMBLE_BYTES, fileBytes), 0);
    const pre = readPreamble(preamble, fileBytes);
    const head = Buffer.concat([preamble, readExactly(fd, pre.dataOffset - PREAMBLE_BYTES, PREAMBLE_BYTES)]);
    return { head: decodePackHead(head, fileBytes), fileBytes, signature: signatureOf(stat) };
  } finally {
    closeSync(fd);
  }
}

const inflateRawAsync = promisify(inflateRaw);
/** An inflated index beyond this is refused (as the full reader refuses it). */
const MAX_INDEX_BYTES = 1 << 30;
/** The key that only node objects of a pack index carry (actions have none). */
const NODE_KEY = Buffer.from('"history":');

/**
 * The number of nodes in a pack's index JSON, counted without parsing it: the writer writes the index as
 * canonical JSON where every node object carries the key `history` once and nothing else carries it, and a
 * quote inside a JSON string is escaped, so the key's spelling with its quotes and colon occurs exactly once
 * per node. (The store's tests compare the count with the decoded node table of every committed pack.)
 */
export function countIndexNodes(indexJson: Buffer): number {
  let count = 0;
  for (
    let at = indexJson.indexOf(NODE_KEY);
    at !== -1;
    at = indexJson.indexOf(NODE_KEY, at + NODE_KEY.length)
  ) {
    count++;
  }
  return count;
}

/**
 * `readPackHeadSync` without blocking the event loop, plus the node count of the index: the file is read
 * with asynchronous I/O and the index inflated on libuv's thread pool; what runs on the calling thread is
 * the checksum over the preamble, header and index, the header's JSON and a byte scan of the index.
 */
export async function readPackHead(path: string): Promise<{
  head: { header: PackHeader; checksum: string };
  nodeCount: number;
  fileBytes: number;
  signature: string;
}> {
  const handle = await open(path, "r");
  try {
    const stat = await handle.stat();
    const fileBytes = stat.size;
    const preamble = Buffer.alloc(Math.min(PREAMBLE_BYTES, fileBytes));
    await readFully(handle, preamble, 0);
    const pre = readPreamble(preamble, fileBytes);
    const rest = Buffer.alloc(pre.dataOffset - PREAMBLE_BYTES);
    await readFully(handle, rest, PREAMBLE_BYTES);
    const bytes = Buffer.concat([preamble, rest]);
    const head = decodePackHead(bytes, fileBytes);
    const start = PREAMBLE_BYTES + pre.headerLength;
    const stored = bytes.subarray(start, start + pre.indexLength);
    let index: Buffer;
    try {
      index =
        pre.flags & FLAG_INDEX_DEFLATED
          ? await inflateRawAsync(stored, { maxOutputLength: MAX_INDEX_BYTES })
          : stored;
    } catch {
      throw new PackFormatError("The pack's index cannot be inflated: the file is corrupt.");
    }
    return { head, nodeCount: countIndexNodes(index), fileBytes, signature: signatureOf(stat) };
  } finally {
    await handle.close();
  }
}

async function readFully(
  handle: Awaited<ReturnType<typeof open>>,
  buf: Buffer,
  position: number,
): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesRead } = await handle.read(buf, done, buf.length - done, position + done);
    if (bytesRead === 0)
      throw new PackFormatError(`The file ends ${buf.length - done} bytes early (truncated).`);
    done += bytesRead;
  }
}
