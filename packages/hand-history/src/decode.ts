/**
 * Bytes of a hand-history file as text. Sites and operating systems save these files as UTF-8 (with or
 * without a byte order mark), as UTF-16 (Windows tools, usually with a byte order mark), or in the Windows
 * "ANSI" code page 1252 (older clients: `€` is byte 0x80, `é` 0xE9). Node's `TextDecoder` reads all three.
 */

export type HandHistoryEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

export interface DecodedHandHistory {
  text: string;
  encoding: HandHistoryEncoding;
}

/** UTF-16 without a byte order mark: most of the first bytes of one parity are zero (ASCII text). */
function utf16Without(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const n = Math.min(bytes.length - (bytes.length % 2), 400);
  if (n < 4) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero >= pairs * 0.7 && evenZero <= pairs * 0.1) return "utf-16le";
  if (evenZero >= pairs * 0.7 && oddZero <= pairs * 0.1) return "utf-16be";
  return null;
}

/**
 * Decodes a hand-history file: by its byte order mark (UTF-8, UTF-16 LE or BE), else UTF-16 recognised by
 * its zero bytes, else UTF-8 when the bytes are valid UTF-8, else Windows-1252. The byte order mark is
 * dropped. Throws an `Error` saying why when UTF-16 text is broken (an odd number of bytes, a lone surrogate).
 *
 * @example
 * const { text, encoding } = decodeHandHistory(readFileSync("HH20240316 Bordeaux.txt"));
 * parseHandHistories(text);
 */
export function decodeHandHistory(bytes: Uint8Array): DecodedHandHistory {
  let encoding: HandHistoryEncoding;
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) [encoding, start] = ["utf-8", 3];
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [encoding, start] = ["utf-16le", 2];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [encoding, start] = ["utf-16be", 2];
  else encoding = utf16Without(bytes) ?? "utf-8";
  const body = bytes.subarray(start);
  if (encoding === "utf-8") {
    try {
      return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body), encoding };
    } catch {
      // Not UTF-8: the Windows code page the older clients write.
      return { text: new TextDecoder("windows-1252").decode(body), encoding: "windows-1252" };
    }
  }
  try {
    return { text: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body), encoding };
  } catch {
    throw new Error(
      `the file starts as ${encoding === "utf-16le" ? "UTF-16 (little-endian)" : "UTF-16 (big-endian)"} text but is broken further on (cut off, or not text)`,
    );
  }
}
