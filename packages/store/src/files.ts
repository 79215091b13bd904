/** Pack files on disk: where they live, atomic writes, and the two-step (meta, then data) reads of the store. */

import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { GameId } from "@ranges/core";
import {
  decodePack,
  decodePackData,
  decodePackMeta,
  encodePack,
  PackFormatError,
  type PackMetaData,
  PREAMBLE_BYTES,
  readPreamble,
} from "./format.js";
import { gameDir, type PackData } from "./pack-types.js";

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

/** Reads only the preamble, header and index of a pack file (synchronously) and verifies their checksum. */
export function readPackMetaSync(path: string): { meta: PackMetaData; fileBytes: number } {
  const fd = openSync(path, "r");
  try {
    const fileBytes = fstatSync(fd).size;
    const preamble = readExactly(fd, Math.min(PREAMBLE_BYTES, fileBytes), 0);
    const pre = readPreamble(preamble, fileBytes);
    const head = Buffer.concat([preamble, readExactly(fd, pre.dataOffset - PREAMBLE_BYTES, PREAMBLE_BYTES)]);
    return { meta: decodePackMeta(head, fileBytes), fileBytes };
  } finally {
    closeSync(fd);
  }
}

/** Reads the data section of a pack whose meta was read before, verifies its checksum and decodes it. */
export function readPackDataSync(path: string, meta: PackMetaData): PackData {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size !== meta.dataOffset + meta.dataLength) {
      throw new PackFormatError(
        `The file is now ${size} bytes; it was ${meta.dataOffset + meta.dataLength} when opened (changed or truncated).`,
      );
    }
    // A pack replaced since the store opened it must not be mixed with the old index.
    if (readExactly(fd, 32, 64).toString("hex") !== meta.checksum) {
      throw new PackFormatError("The file changed since the store opened it; reopen the store.");
    }
    return decodePackData(meta, readExactly(fd, meta.dataLength, meta.dataOffset));
  } finally {
    closeSync(fd);
  }
}
