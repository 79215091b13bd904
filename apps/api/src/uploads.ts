/**
 * POST /api/v1/uploads/{token}: a hand-history file through a single-use link made by the MCP tool
 * get_upload_link. The link is the credential (no Authorization header). In order:
 *
 *   1. the link is looked at without using it up (404 unknown, used or expired: the message says which);
 *   2. the body must be a raw text file: `Content-Type` text/plain, application/octet-stream or none
 *      (415 otherwise), at most LINK_UPLOAD_MAX_BYTES (413, refused from a declared length before any byte,
 *      or as soon as the stream passes it, reading no further); its bytes must be text (415);
 *   3. the link is claimed (one conditional UPDATE: of two uploads racing with one link, one wins), the
 *      text parsed in the parse thread and its hands stored under the key that made the link: 201 with what
 *      was read and stored.
 *
 * A file refused at step 2 leaves the link usable.
 */

import type { IncomingMessage } from "node:http";
import type Router from "@koa/router";
import { RangesError } from "@ranges/core";
import { decodeUploadText, type HandUploads, LINK_UPLOAD_MAX_BYTES } from "@ranges/hand-analysis";
import { readRawBody } from "./mcp-body.js";

export const UPLOAD_PATH = /^\/api\/v1\/uploads\/[^/]+$/;

const tooLarge = () =>
  new RangesError(
    "payload_too_large",
    `The file is larger than ${LINK_UPLOAD_MAX_BYTES / 1024 / 1024} MiB: split it (the sites export one file per table and day) and upload the parts, each with a new link.`,
    { limit: LINK_UPLOAD_MAX_BYTES },
  );

/** What an upload body read rejects with (see `readRawBody`). */
const UPLOAD_BODY_ERRORS = {
  tooLarge,
  aborted: () => new RangesError("bad_request", "The upload could not be read (connection aborted?)."),
};

const TEXT_TYPES = new Set(["text/plain", "application/octet-stream"]);

/** Whether a request is an upload whose body will be read (for `Expect: 100-continue`). */
export function readsUploadBody(req: IncomingMessage): boolean {
  if (req.method !== "POST" || !UPLOAD_PATH.test((req.url ?? "").split("?")[0] ?? "")) return false;
  const declared = Number(req.headers["content-length"]);
  return !(Number.isFinite(declared) && declared > LINK_UPLOAD_MAX_BYTES);
}

/** Registers the upload route; without `uploads` it answers that uploads are not enabled. */
export function registerUploadRoutes(
  router: Router<{ via?: string; code?: string }>,
  uploads: HandUploads | undefined,
): void {
  router.post("/api/v1/uploads/:token", async (ctx) => {
    if (!uploads) throw new RangesError("not_found", "Hand-history uploads are not enabled on this server.");
    const token = String(ctx.params.token ?? "");
    await uploads.hands.checkLink(token);
    const type = (ctx.get("content-type").split(";")[0] ?? "").trim().toLowerCase();
    if (type !== "" && !TEXT_TYPES.has(type)) {
      throw new RangesError(
        "unsupported_media_type",
        `Send the file itself as the body with "Content-Type: text/plain" (not ${type.slice(0, 40)}), e.g. curl --data-binary @HH.txt -H 'Content-Type: text/plain' <link>.`,
      );
    }
    const text = decodeUploadText(await readRawBody(ctx.req, LINK_UPLOAD_MAX_BYTES, UPLOAD_BODY_ERRORS));
    const { keyId, hero } = await uploads.hands.claimLink(token);
    const upload = await uploads.ingest(keyId, text, hero, "link");
    ctx.state.via = "upload";
    ctx.status = 201;
    ctx.set("Cache-Control", "no-store");
    ctx.body = { schemaVersion: 1, upload };
  });
}
