/** Reads request bodies bounded in size: raw bytes (uploads) or JSON (MCP, account, OAuth). */

import type { IncomingMessage } from "node:http";
import { RangesError } from "@ranges/core";

const tooLarge = (limit: number) =>
  new RangesError("payload_too_large", `The request body is larger than ${limit} bytes.`, { limit });

/** A JSON body as read: none (empty or only white space), a parsed value, or text that is not JSON. */
export type JsonBody = { kind: "empty" } | { kind: "json"; value: unknown } | { kind: "invalid" };

/**
 * Resolves the parsed JSON body, or undefined when the body is empty or not JSON (the MCP handler answers
 * those with a JSON-RPC parse error). Rejects with 413 beyond `limit` bytes, without reading further: the
 * app answers and closes the connection (a declared length over the limit is refused before any byte).
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const body = await readJson(req, limit);
  return body.kind === "json" ? body.value : undefined;
}

/** As `readJsonBody`, telling an empty body from one that is not JSON. */
export async function readJson(req: IncomingMessage, limit: number): Promise<JsonBody> {
  const text = (await readRawBody(req, limit)).toString("utf8");
  if (text.trim().length === 0) return { kind: "empty" };
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch {
    return { kind: "invalid" };
  }
}

/** The errors `readRawBody` rejects with: over the limit, and a connection that broke off. */
export interface RawBodyErrors {
  readonly tooLarge: () => RangesError;
  readonly aborted: () => RangesError;
}

const defaultErrors = (limit: number): RawBodyErrors => ({
  tooLarge: () => tooLarge(limit),
  aborted: () =>
    new RangesError("invalid_parameter", "The request body could not be read (connection aborted?)."),
});

/**
 * The raw body, up to `limit` bytes. Rejects with `errors.tooLarge()` as soon as it is larger, without
 * reading further (a declared length over the limit is refused before any byte), and with
 * `errors.aborted()` when the connection breaks off.
 */
export function readRawBody(
  req: IncomingMessage,
  limit: number,
  errors: RawBodyErrors = defaultErrors(limit),
): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(errors.tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        chunks.length = 0;
        req.off("data", onData);
        req.pause();
        reject(errors.tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.on("end", () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks));
    });
    req.on("error", () => {
      if (done) return;
      done = true;
      reject(errors.aborted());
    });
  });
}
