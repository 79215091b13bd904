/**
 * The class-to-bucket map of a PLO abstraction as a pack stores it (`encodePloBucketMap`), and its strict
 * reader (`decodePloBucketMap`).
 */

import { crc32 } from "node:zlib";
import { PLO_CLASS_COUNT } from "@ranges/core";

/**
 * The class-to-bucket map as a pack stores it: JSON-safe, about 44 KB for 16,432 classes.
 *
 * ```json
 * { "format": "plo-bucket-map", "version": 1, "classes": 16432, "buckets": 512,
 *   "encoding": "u16le-base64", "map": "<base64 of 16,432 little-endian u16 bucket ids>",
 *   "names": ["ds.none.nut.1", ...], "representatives": ["(AK)(QJ)", ...], "crc32": 123456789 }
 * ```
 *
 * The map is in `ploClasses()` order; `names[b]` and `representatives[b]` describe bucket b; crc32 covers
 * the decoded map bytes. `decodePloBucketMap` refuses anything else: a wrong format or version, a class
 * count other than 16,432, a map of the wrong length, a bucket id out of range, an empty bucket, names or
 * representatives of the wrong length, or a checksum mismatch.
 */
export interface PloBucketMapJson {
  readonly format: "plo-bucket-map";
  readonly version: 1;
  readonly classes: number;
  readonly buckets: number;
  readonly encoding: "u16le-base64";
  readonly map: string;
  readonly names: readonly string[];
  readonly representatives: readonly string[];
  readonly crc32: number;
}

/** What the map holds of an abstraction (`PloAbstraction` has it). */
export interface PloBucketMapSource {
  readonly classToBucket: Uint16Array;
  readonly buckets: readonly { readonly name: string; readonly representative: string }[];
}

export function encodePloBucketMap(a: PloBucketMapSource): PloBucketMapJson {
  const bytes = new Uint8Array(PLO_CLASS_COUNT * 2);
  const view = new DataView(bytes.buffer);
  if (a.classToBucket.length !== PLO_CLASS_COUNT)
    throw new RangeError(`the map needs ${PLO_CLASS_COUNT} classes`);
  for (let i = 0; i < PLO_CLASS_COUNT; i++) view.setUint16(2 * i, a.classToBucket[i]!, true);
  return {
    format: "plo-bucket-map",
    version: 1,
    classes: PLO_CLASS_COUNT,
    buckets: a.buckets.length,
    encoding: "u16le-base64",
    map: Buffer.from(bytes).toString("base64"),
    names: a.buckets.map((b) => b.name),
    representatives: a.buckets.map((b) => b.representative),
    crc32: crc32(bytes),
  };
}

export interface DecodedPloBucketMap {
  readonly classToBucket: Uint16Array;
  readonly names: readonly string[];
  readonly representatives: readonly string[];
}

export function decodePloBucketMap(json: unknown): DecodedPloBucketMap {
  const fail = (why: string): never => {
    throw new Error(`invalid PLO bucket map: ${why}`);
  };
  if (typeof json !== "object" || json === null) return fail("not an object");
  const j = json as Partial<Record<keyof PloBucketMapJson, unknown>>;
  if (j.format !== "plo-bucket-map") fail(`format ${JSON.stringify(j.format)}`);
  if (j.version !== 1) fail(`version ${JSON.stringify(j.version)}`);
  if (j.classes !== PLO_CLASS_COUNT)
    fail(`classes ${JSON.stringify(j.classes)} (expected ${PLO_CLASS_COUNT})`);
  if (j.encoding !== "u16le-base64") fail(`encoding ${JSON.stringify(j.encoding)}`);
  const buckets = j.buckets;
  if (typeof buckets !== "number" || !Number.isInteger(buckets) || buckets < 1 || buckets > 65_536)
    return fail(`buckets ${JSON.stringify(buckets)}`);
  if (typeof j.map !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(j.map)) return fail("map is not base64");
  const bytes = new Uint8Array(Buffer.from(j.map, "base64"));
  if (bytes.length !== PLO_CLASS_COUNT * 2)
    fail(`map has ${bytes.length} bytes, expected ${PLO_CLASS_COUNT * 2}`);
  if (crc32(bytes) !== j.crc32) fail("checksum mismatch (crc32)");
  const strings = (x: unknown, what: string): string[] => {
    if (!Array.isArray(x) || x.length !== buckets || x.some((s) => typeof s !== "string"))
      return fail(`${what} must be ${buckets} strings`);
    return x as string[];
  };
  const names = strings(j.names, "names");
  const representatives = strings(j.representatives, "representatives");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const classToBucket = new Uint16Array(PLO_CLASS_COUNT);
  const used = new Uint8Array(buckets);
  for (let i = 0; i < PLO_CLASS_COUNT; i++) {
    const b = view.getUint16(2 * i, true);
    if (b >= buckets) fail(`class ${i} has bucket ${b}, but there are ${buckets} buckets`);
    classToBucket[i] = b;
    used[b] = 1;
  }
  const empty = used.indexOf(0);
  if (empty >= 0) fail(`bucket ${empty} has no class`);
  return { classToBucket, names, representatives };
}
