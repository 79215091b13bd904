/** Feature and data requests of key holders: submit_request and list_my_requests. */

import { REQUEST_KINDS } from "@ranges/access";
import { FeatureRequestCreatedSchema, FeatureRequestListSchema } from "@ranges/schema";
import { z } from "zod";
import { defineTool, type Outcome } from "../tool.js";

export const submitRequest = defineTool({
  name: "submit_request",
  title: "File a feature or data request",
  description:
    "Use when the data or a feature you need is missing (a game, stack, sizing or spot we do not publish, a tool you wish existed) or something looks wrong: files a request the team reads, stored under your API key. Needs a key (`Authorization: Bearer <key>`); free: not counted on the key's meter. Returns the stored request with its id; list_my_requests shows yours.",
  input: {
    kind: z
      .enum(REQUEST_KINDS)
      .describe("feature (a new capability), data (a game, stack or spot we lack), bug, or other."),
    text: z.string().min(1).max(4000).describe("What you would like, in your words (1 to 4000 characters)."),
    game: z.string().min(1).max(32).optional().describe("Optional: the game it concerns, e.g. nl or nlmtt8."),
    stack: z.number().gt(0).max(10_000).optional().describe("Optional: the stack depth in bb."),
    spot: z.string().min(1).max(500).optional().describe("Optional: an action path, e.g. UTG_2.5_HJ."),
  },
  variants: [FeatureRequestCreatedSchema],
  // It writes a record (each call files a new request), in this service only.
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  outputDescription: "The stored request, or an error body.",
  async run(args, ctx): Promise<Outcome> {
    const keyId = await ctx.keyHolder("submit_request");
    const request = await ctx.access.submitRequest(keyId, args);
    return { schema: FeatureRequestCreatedSchema, value: { schemaVersion: 1, request } };
  },
});

export const listMyRequests = defineTool({
  name: "list_my_requests",
  title: "Your feature and data requests",
  description:
    "Use to see the requests you filed with submit_request, newest first (at most 100), with their status. Needs a key; free. Nobody sees another key's requests.",
  input: {
    limit: z
      .number()
      .int()
      .min(1, { error: "limit must be 1 to 100" })
      .max(100, { error: "limit must be 1 to 100" })
      .optional()
      .describe("How many, 1 to 100; default 100."),
  },
  variants: [FeatureRequestListSchema],
  outputDescription: "The caller's requests, or an error body.",
  async run(args, ctx): Promise<Outcome> {
    const keyId = await ctx.keyHolder("list_my_requests");
    const requests = await ctx.access.listRequests(keyId, args.limit ?? 100);
    return { schema: FeatureRequestListSchema, value: { schemaVersion: 1, requests } };
  },
});
