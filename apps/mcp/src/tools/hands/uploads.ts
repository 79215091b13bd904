/** Uploading hand histories: get_upload_link (a single-use link for a file) and upload_hand_history (text). */

import { RangesError } from "@ranges/core";
import { heroName, INLINE_UPLOAD_MAX_CHARS, LINK_UPLOAD_MAX_BYTES } from "@ranges/hand-analysis";
import { HandUploadSchema } from "@ranges/schema";
import { z } from "zod";
import { invalidParameter } from "../../errors.js";
import { defineTool, type Outcome } from "../../tool.js";
import { needHands } from "./load.js";

const UploadLinkSchema = z.object({
  schemaVersion: z.literal(1),
  link: z.object({
    url: z.string().describe("POST the file here, once, before expiresAt."),
    method: z.literal("POST"),
    expiresAt: z.string(),
    maxBytes: z.number().int(),
    contentType: z.string().describe("Send the file as the raw body with this Content-Type."),
    hero: z.string().nullable().describe("The screen name named for histories without a `Dealt to` line."),
    example: z.string().describe("A curl command that uploads a file."),
  }),
  next: z.string(),
});

export const getUploadLink = defineTool({
  name: "get_upload_link",
  title: "Upload link",
  description:
    "Use to upload a hand-history file (up to 8 MiB): a single-use URL for one POST of the file, valid 15 minutes. Key; free.",
  input: {
    hero: z
      .string()
      .max(50)
      .optional()
      .describe("Your screen name as the histories write it, for histories that do not say who you are."),
  },
  variants: [UploadLinkSchema],
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, ctx): Promise<Outcome> {
    const hands = needHands(ctx);
    const keyId = await ctx.keyHolder("get_upload_link");
    const hero = heroName(args.hero);
    const base = hands.linkBase === "request" ? (ctx.caller.origin ?? null) : hands.linkBase;
    if (base === null) {
      throw new RangesError(
        "not_found",
        "This MCP server has no upload endpoint (it runs without the API): use upload_hand_history with the text inline, or the MCP endpoint of the API (/api/mcp).",
      );
    }
    const link = await hands.uploads.hands.createLink(keyId, hands.uploads.linkTtlSeconds, hero);
    const url = `${base.replace(/\/+$/, "")}/api/v1/uploads/${link.token}`;
    return {
      schema: UploadLinkSchema,
      value: {
        schemaVersion: 1,
        link: {
          url,
          method: "POST",
          expiresAt: link.expiresAt,
          maxBytes: LINK_UPLOAD_MAX_BYTES,
          contentType: "text/plain",
          hero,
          example: `curl --data-binary @HH.txt -H 'Content-Type: text/plain' '${url}'`,
        },
        next: "After the upload, its answer has an uploadId; find_hands with uploadId lists those hands.",
      },
    };
  },
});

export const uploadHandHistory = defineTool({
  name: "upload_hand_history",
  title: "Upload hands as text",
  description:
    "Use to upload a few hands as text (up to 400,000 characters; files via get_upload_link), stored under your key. Key; free.",
  input: {
    text: z
      .string()
      .min(1)
      .max(INLINE_UPLOAD_MAX_CHARS, {
        error: `text is over ${INLINE_UPLOAD_MAX_CHARS} characters: upload larger files with get_upload_link`,
      })
      .describe("The hand histories as the sites export them."),
    hero: z
      .string()
      .max(50)
      .optional()
      .describe("Your screen name, for histories without a `Dealt to` line."),
  },
  variants: [HandUploadSchema],
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, ctx): Promise<Outcome> {
    const hands = needHands(ctx);
    const keyId = await ctx.keyHolder("upload_hand_history");
    if (args.text.includes("\u0000")) {
      throw invalidParameter("text holds a NUL character: send the text of hand-history files.", {
        parameter: "text",
      });
    }
    const upload = await hands.uploads.ingest(keyId, args.text, heroName(args.hero), "inline");
    return { schema: HandUploadSchema, value: { schemaVersion: 1, upload } };
  },
});
