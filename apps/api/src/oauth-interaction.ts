/**
 * The OAuth sign-in page's JSON routes (`/oauth/interaction/:uid/...`): the details the page shows, the
 * account holder's confirmation (a grant, and the API key that stands for it), and the refusal.
 */

import type Router from "@koa/router";
import type { AccessStore, AccountStore } from "@ranges/access";
import { RangesError } from "@ranges/core";
import type Koa from "koa";
import type Provider from "oidc-provider";
import { readJsonBody } from "./mcp-body.js";
import { MCP_SCOPE } from "./oauth-constants.js";
import {
  checkCsrf,
  checkSameOrigin,
  MAX_KEYS_PER_ACCOUNT,
  type SessionCookie,
  sessionOf,
} from "./session.js";

export interface InteractionDeps {
  readonly provider: Provider;
  readonly access: AccessStore;
  readonly accounts: AccountStore;
  readonly cookie: SessionCookie;
  readonly publicUrl: string | undefined;
  /** The MCP resource a sign-in is for when the client names none. */
  readonly defaultResource: string;
  /** Whether a resource indicator names this server's MCP endpoint. */
  readonly isOurResource: (indicator: string) => boolean;
}

export function registerInteractionRoutes(router: Router, d: InteractionDeps): void {
  const { provider, access, accounts, cookie, defaultResource, isOurResource } = d;
  const o = { publicUrl: d.publicUrl };
  /** The interaction of a request, or 404 when it expired or is unknown. */
  async function interactionOf(ctx: Koa.Context) {
    try {
      return await provider.interactionDetails(ctx.req, ctx.res);
    } catch {
      throw new RangesError(
        "not_found",
        "This sign-in request has expired or was already used: start the sign-in again from your MCP client.",
      );
    }
  }

  function checkUid(ctx: Koa.Context, uid: string): void {
    if (ctx.params.uid !== uid) {
      throw new RangesError(
        "not_found",
        "This sign-in request does not match this page: start the sign-in again.",
      );
    }
  }

  router.get("/oauth/interaction/:uid/details", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    const details = await interactionOf(ctx);
    checkUid(ctx, details.uid);
    const clientId = String(details.params.client_id ?? "");
    const client = await provider.Client.find(clientId);
    const session = await sessionOf(ctx, accounts, cookie);
    const scope = String(details.params.scope ?? "");
    const redirect = String(details.params.redirect_uri ?? "");
    let redirectHost = "";
    try {
      redirectHost = new URL(redirect).host || redirect;
    } catch {
      redirectHost = redirect;
    }
    ctx.body = {
      schemaVersion: 1,
      uid: details.uid,
      prompt: details.prompt.name,
      client: {
        id: clientId,
        name: (client?.clientName as string | undefined) ?? null,
        uri: (client?.clientUri as string | undefined) ?? null,
      },
      redirectHost,
      scopes: scope.split(" ").filter(Boolean),
      resource: typeof details.params.resource === "string" ? details.params.resource : defaultResource,
      account: session?.account ?? null,
      csrfToken: session?.csrfToken ?? null,
    };
  });

  router.post("/oauth/interaction/:uid/confirm", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    checkSameOrigin(ctx, o.publicUrl);
    const session = await sessionOf(ctx, accounts, cookie);
    if (!session)
      throw new RangesError("unauthorized", "Sign in first: this page signs you in with your account.");
    checkCsrf(ctx, session, "reload the page");
    await readJsonBody(ctx.req, 1024);
    const details = await interactionOf(ctx);
    checkUid(ctx, details.uid);
    const accountId = session.account.id;
    const clientId = String(details.params.client_id ?? "");
    const client = await provider.Client.find(clientId);
    if (!client) throw new RangesError("not_found", "The client of this sign-in is no longer registered.");

    // Reuse the grant of an earlier sign-in of this client while its key is live; otherwise a new one.
    let grant = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    if (
      grant &&
      (grant.accountId !== accountId ||
        grant.clientId !== clientId ||
        !(await access.keyIdForGrant(details.grantId!)))
    ) {
      grant = undefined;
    }
    // A new sign-in (another browser, an expired session) of a client the account allowed before: the
    // grant of its live key is reused, so the client keeps its key and what is stored under it (uploaded
    // hands, solves, requests) instead of getting a fresh "MCP: <client>" key.
    if (!grant) {
      for (const earlier of await access.grantKeysOf(accountId)) {
        const found = await provider.Grant.find(earlier.grantId);
        if (found && found.accountId === accountId && found.clientId === clientId) {
          grant = found;
          break;
        }
      }
    }
    if (!grant) {
      // A new key: it counts against the account's key limit like a key made in the account area.
      const live = (await access.listKeys({ accountId })).filter((k) => k.revokedAt === null);
      if (live.length >= MAX_KEYS_PER_ACCOUNT) {
        throw new RangesError(
          "invalid_parameter",
          `Your account holds ${MAX_KEYS_PER_ACCOUNT} live keys, the most it may hold, and allowing this client makes a key for it: revoke a key you no longer use in the account area (/account), then allow the client again.`,
        );
      }
    }
    grant ??= new provider.Grant({ accountId, clientId });
    // Requested scopes the server knows (openid, offline_access, mcp) are granted as asked; oidc-provider
    // checks them as "OIDC" scopes because they are in its `scopes`, and the resource's scope below.
    const requested = String(details.params.scope ?? "")
      .split(" ")
      .filter((s) => s === "openid" || s === "offline_access" || s === MCP_SCOPE);
    if (requested.length > 0) grant.addOIDCScope(requested.join(" "));
    const resources =
      typeof details.params.resource === "string"
        ? [details.params.resource]
        : Array.isArray(details.params.resource)
          ? (details.params.resource as string[])
          : [defaultResource];
    for (const resource of resources) {
      if (isOurResource(resource)) grant.addResourceScope(resource, MCP_SCOPE);
    }
    const grantId = await grant.save();
    if (!(await access.keyIdForGrant(grantId))) {
      const name = `MCP: ${(client.clientName as string | undefined) ?? clientId}`.slice(0, 100);
      await access.createKey({ name, accountId, oauthGrantId: grantId });
    }
    const redirectTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    ctx.body = { schemaVersion: 1, redirectTo };
  });

  router.post("/oauth/interaction/:uid/abort", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    checkSameOrigin(ctx, o.publicUrl);
    await readJsonBody(ctx.req, 1024);
    const details = await interactionOf(ctx);
    checkUid(ctx, details.uid);
    const redirectTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { error: "access_denied", error_description: "The account holder did not allow this client." },
      { mergeWithLastSubmission: false },
    );
    ctx.body = { schemaVersion: 1, redirectTo };
  });
}
