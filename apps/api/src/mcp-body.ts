/** Reads a JSON request body for the MCP endpoint, bounded in size. */

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
export function readJson(req: IncomingMessage, limit: number): Promise<JsonBody> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
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
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.on("end", () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString("utf8");
      if (text.trim().length === 0) return resolve({ kind: "empty" });
      try {
        resolve({ kind: "json", value: JSON.parse(text) });
      } catch {
        resolve({ kind: "invalid" });
      }
    });
    req.on("error", () => {
      if (done) return;
      done = true;
      reject(
        new RangesError("invalid_parameter", "The request body could not be read (connection aborted?)."),
      );
    });
  });
}
