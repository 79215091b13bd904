/** Feature and data requests of key holders: submit_request and list_my_requests. */

import { REQUEST_KINDS } from "@ranges/access";
import { FeatureRequestCreatedSchema, FeatureRequestListSchema } from "@ranges/schema";
import { z } from "zod";
import { defineTool, type Outcome } from "../tool.js";

export const submitRequest = defineTool({
  name: "submit_request",
  title: "File a request",
  description:
    "Use when data or a feature is missing or looks wrong: files a request for the team. Key; free.",
  input: {
    kind: z.enum(REQUEST_KINDS).describe("What kind of request."),
    text: z.string().min(1).max(4000).describe("What you would like, in your words."),
    game: z.string().min(1).max(32).optional().describe("The game it concerns."),
    stack: z.number().gt(0).max(10_000).optional().describe("The stack in bb."),
    spot: z.string().min(1).max(500).optional().describe("An action path."),
  },
  variants: [FeatureRequestCreatedSchema],
  // It writes a record (each call files a new request), in this service only.
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, ctx): Promise<Outcome> {
    const keyId = await ctx.keyHolder("submit_request");
    const request = await ctx.access.submitRequest(keyId, args);
    return { schema: FeatureRequestCreatedSchema, value: { schemaVersion: 1, request } };
  },
});

export const listMyRequests = defineTool({
  name: "list_my_requests",
  title: "Your requests",
  description:
    "Use to see the requests you filed with submit_request, newest first, with their status. Key; free.",
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
  async run(args, ctx): Promise<Outcome> {
    const keyId = await ctx.keyHolder("list_my_requests");
    const requests = await ctx.access.listRequests(keyId, args.limit ?? 100);
    return { schema: FeatureRequestListSchema, value: { schemaVersion: 1, requests } };
  },
});
