/**
 * The MCP endpoint (`POST /api/mcp`): the parsed JSON-RPC body goes to the MCP handler, which writes the
 * response itself. An OAuth access token (any bearer token that is not a `pr_` key) stands for its
 * account's key; without credentials a paid tool answers 401 with the challenge that starts sign-in.
 */

import { createHash } from "node:crypto";
import type Router from "@koa/router";
import { RangesError } from "@ranges/core";
import { subgameCaller } from "@ranges/postflop";
import { JSON_BODY_LIMIT } from "../http/bodies.js";
import { readJsonBody } from "../mcp-body.js";
import { challengeKeylessPaidCalls } from "../mcp-challenge.js";
import type { OAuthServer } from "../oauth.js";
import type { McpHandler, RequestState } from "../services.js";

export function registerMcpRoute(
  router: Router<RequestState>,
  { mcpHandler, oauth }: { mcpHandler: McpHandler | undefined; oauth: OAuthServer | undefined },
): void {
  router.post("/api/mcp", async (ctx) => {
    if (!mcpHandler) throw new RangesError("not_found", "The MCP endpoint is not enabled on this server.");
    const bearer = /^Bearer +(\S+)$/i.exec(ctx.get("authorization").trim())?.[1];
    let signedIn: { keyId: string } | undefined;
    if (oauth && bearer !== undefined && !bearer.startsWith("pr_")) {
      signedIn = { keyId: (await oauth.verify(ctx, bearer)).keyId };
    }
    const body = await readJsonBody(ctx.req, JSON_BODY_LIMIT);
    ctx.state.via = "mcp";
    if (oauth && !ctx.get("authorization")) challengeKeylessPaidCalls(ctx.res, oauth.challenge(ctx));
    // The handler meters by X-Forwarded-For (it is created with trustProxy): it gets the one address
    // resolved here, so both doors meter the same client.
    ctx.req.headers["x-forwarded-for"] = ctx.ip;
    ctx.respond = false;
    // The turn and river solver's share: per key (an OAuth token stands for its key), else per address.
    const caller = signedIn
      ? `key:${signedIn.keyId}`
      : bearer !== undefined
        ? `token:${createHash("sha256").update(bearer).digest("hex").slice(0, 24)}`
        : `ip:${ctx.ip}`;
    await subgameCaller.run(caller, () => mcpHandler(ctx.req, ctx.res, body, signedIn));
  });
}
