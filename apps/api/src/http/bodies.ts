/** Request bodies: whether one is sent, and the JSON object of a POST. */

import type { IncomingMessage } from "node:http";
import { RangesError } from "@ranges/core";
import { readJsonBody } from "../mcp-body.js";
import type { Ctx } from "../services.js";

/** The largest JSON body a POST may send (MCP messages, solve requests, feature requests). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** Whether a request carries a body: a non-zero Content-Length or any Transfer-Encoding. */
export const hasBody = (req: IncomingMessage): boolean =>
  req.headers["transfer-encoding"] !== undefined ||
  (req.headers["content-length"] !== undefined && Number(req.headers["content-length"]) !== 0);

/** The JSON object body of a POST, or a 400 that shows the shape expected (`example`). */
export async function jsonBody(ctx: Ctx, example: string, limit = JSON_BODY_LIMIT): Promise<unknown> {
  if (!ctx.is("application/json")) {
    throw new RangesError(
      "bad_request",
      `Send the body as JSON with "Content-Type: application/json", e.g. ${example}.`,
    );
  }
  const body = await readJsonBody(ctx.req, limit);
  if (body === undefined || typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new RangesError("invalid_parameter", `The body must be a JSON object, e.g. ${example}.`);
  }
  return body;
}
