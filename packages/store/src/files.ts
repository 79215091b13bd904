/** Pack files on disk: where they live, atomic writes, and the meta read of the store at open. */

import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { GameId } from "@ranges/core";
import {
  decodePack,
  decodePackHead,
  encodePack,
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
