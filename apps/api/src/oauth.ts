/**
 * OAuth for MCP clients, as the MCP authorization specification asks: the MCP endpoint is a protected
 * resource (RFC 9728 metadata at `/.well-known/oauth-protected-resource[/api/mcp]`), and the authorization
 * server is `oidc-provider` (an OpenID Certified implementation) mounted in this app under `/oauth/`, with its
 * metadata at `/.well-known/oauth-authorization-server` (RFC 8414) and `/.well-known/openid-configuration`,
 * dynamic client registration (RFC 7591, `/oauth/register`), the authorization code flow with PKCE (S256,
 * required for every client), resource indicators (RFC 8707: tokens are for `<origin>/api/mcp`) and refresh
 * tokens.
 *
 * Storage: every record of the provider (clients, grants, codes, tokens, sessions, interactions) and its own
 * cookie and token signing keys live in the account database (`oauth_records`, @ranges/access), so sign-ins
 * survive restarts and are shared by every API process on one PostgreSQL database. Nothing is kept in memory
 * beyond oidc-provider's caches of the configuration.
 *
 * Sign-in: `/oauth/authorize` sends the browser to the site's page `/oauth/interaction/<uid>`, which signs
 * the user in with their account (the site's session cookie) and asks them to allow the client. Allowing
 * creates a grant and an API key of the account that stands for it ("MCP: <client name>", listed and
 * revocable in the account area, metered like any key); an access token then acts as that key on
 * `POST /api/mcp`. Revoking the key ends the client's access at once (its tokens answer 401 invalid_token).
 * Allowing a client again while its key is live reuses that key (and its grant), so what is stored under
 * the key stays the client's; a new key counts against the account's limit (MAX_KEYS_PER_ACCOUNT).
 */

import { generateKeyPairSync, randomBytes } from "node:crypto";
import type Router from "@koa/router";
import { type AccessStore, AccountStore, OAuthRecords, secondsToUtcMidnight } from "@ranges/access";
import { RangesError } from "@ranges/core";
import type { ProtectedResourceMetadata } from "@ranges/schema";
import type Koa from "koa";
import Provider, { type Configuration, errors, type KoaContextWithOIDC } from "oidc-provider";
import { MCP_PATH, MCP_SCOPE } from "./oauth-constants.js";
import { registerInteractionRoutes } from "./oauth-interaction.js";
import { sessionCookie } from "./session.js";

export { MCP_PATH, MCP_SCOPE };
/** Client registrations per client address and UTC day unless configured (OAUTH_REGISTRATION_DAILY_LIMIT). */
export const DEFAULT_REGISTRATIONS_PER_IP = 20;
const PRM_PATH = "/.well-known/oauth-protected-resource";
/** The metadata documents this server serves (GET and HEAD only). */
const METADATA_PATHS = new Set([
  PRM_PATH,
  `${PRM_PATH}${MCP_PATH}`,
  "/.well-known/oauth-authorization-server",
  "/.well-known/openid-configuration",
]);

export interface OAuthOptions {
  access: AccessStore;
  /** The authorization server's issuer: PUBLIC_URL, or http://localhost:PORT for a local server. */
  issuer: string;
  /**
   * PUBLIC_URL, when set: the MCP resource is `<PUBLIC_URL>/api/mcp` only. Unset (a local server), the
   * resource is the MCP endpoint at whatever origin the client used (localhost or 127.0.0.1).
   */
  publicUrl?: string | undefined;
  /** Believe X-Forwarded-Proto (a TLS-terminating proxy is in front; TRUST_PROXY is set). */
  behindProxy?: boolean;
  /**
   * Client registrations (`POST /oauth/register`, RFC 7591) one client address (IPv6: one /64) may make per
   * UTC day (default 20; then 429 with Retry-After until 00:00 UTC). Every registration request counts.
   */
  registrationDailyLimit?: number;
  /** Days a registered client that never received a grant is kept before it is pruned (default 30). */
  unusedClientDays?: number;
  /** Lifetimes in seconds (tests shorten them). */
  ttl?: { accessToken?: number; refreshToken?: number };
}

export interface OAuthServer {
  readonly issuer: string;
  readonly provider: Provider;
  readonly records: OAuthRecords;
  /** Serves the provider's endpoints and both metadata documents; everything else goes to `next`. */
  readonly middleware: Koa.Middleware;
  /** The sign-in page's JSON routes (`/oauth/interaction/:uid/...`). */
  registerRoutes(router: Router): void;
  /** The MCP resource as a request to it names it (`<origin>/api/mcp`). */
  resourceOf(ctx: Koa.Context): string;
  /** The `WWW-Authenticate` challenge that points a client at the resource metadata. */
  challenge(ctx: Koa.Context, error?: { code: string; description: string }): string;
  /** The key an access token stands for; a 401 `RangesError` (challenge set on ctx) when it is not valid. */
  verify(ctx: Koa.Context, token: string): Promise<{ keyId: string; accountId: string; clientId: string }>;
  /** Ends the sign-in a key stands for (its grant, tokens and refresh tokens); nothing for other keys. */
  revokeKey(keyId: string): Promise<void>;
  close(): void;
}

const originOf = (url: string): string => new URL(url).origin;

/** Loopback host names as URL parses them. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export async function createOAuthServer(o: OAuthOptions): Promise<OAuthServer> {
  const issuer = o.issuer.replace(/\/+$/, "");
  const { access } = o;
  const accounts = new AccountStore(access.database);
  const records = new OAuthRecords(
    access.database,
    undefined,
    o.unusedClientDays === undefined ? {} : { unusedClientDays: o.unusedClientDays },
  );
  const registrationLimit = o.registrationDailyLimit ?? DEFAULT_REGISTRATIONS_PER_IP;
  if (!Number.isSafeInteger(registrationLimit) || registrationLimit < 1) {
    throw new RangeError(
      `registrationDailyLimit must be a positive integer, got ${o.registrationDailyLimit}`,
    );
  }
  const cookie = sessionCookie(o.publicUrl);
  const accessTokenTtl = o.ttl?.accessToken ?? 3600;
  const refreshTokenTtl = o.ttl?.refreshToken ?? 30 * 86_400;

  // Secrets made once and kept in the database: cookie signing keys and the RSA key that signs ID tokens.
  const cookieKeys = JSON.parse(
    await records.serverSecret("cookie-keys", () => JSON.stringify([randomBytes(32).toString("base64url")])),
  ) as string[];
  const signingKey = JSON.parse(
    await records.serverSecret("signing-key", () =>
      JSON.stringify(
        generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }),
      ),
    ),
  ) as Record<string, string>;
  await records.pruneExpired();

  const defaultResource = `${o.publicUrl ?? issuer}${MCP_PATH}`;
  const issuerPort = new URL(issuer).port;
  const publicHost = o.publicUrl ? new URL(o.publicUrl) : null;

  /** Whether a resource indicator names this server's MCP endpoint. */
  const isOurResource = (indicator: string): boolean => {
    let url: URL;
    try {
      url = new URL(indicator);
    } catch {
      return false;
    }
    if (url.pathname !== MCP_PATH || url.search || url.hash) return false;
    if (o.publicUrl) return url.origin === originOf(o.publicUrl);
    // A local server (no PUBLIC_URL): the MCP endpoint on this machine, by any loopback name, at the
    // issuer's port; never whatever host a request names.
    return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname) && url.port === issuerPort;
  };

  const configuration: Configuration = {
    adapter: (model: string) => records.adapterFor(model),
    // OAuth 2.1 and the MCP authorization specification: redirect URIs are https, or http on loopback only.
    extraClientMetadata: {
      properties: ["redirect_uris"],
      validator: (_ctx, key, value) => {
        if (key !== "redirect_uris" || !Array.isArray(value)) return;
        for (const uri of value as unknown[]) {
          const url = typeof uri === "string" ? URL.parse(uri) : null;
          if (url?.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
            throw Object.assign(new errors.InvalidRedirectUri(), {
              error_description: `redirect_uris must be https, or http on a loopback address (localhost, 127.0.0.1, [::1]); ${String(uri).slice(0, 80)} is neither`,
            });
          }
        }
      },
    },
    clients: [],
    jwks: { keys: [{ ...signingKey, use: "sig", alg: "RS256" }] },
    cookies: { keys: cookieKeys },
    scopes: ["openid", "offline_access", MCP_SCOPE],
    claims: { openid: ["sub"] },
    responseTypes: ["code"],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => defaultResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => {
          if (!isOurResource(indicator)) {
            throw new errors.InvalidTarget(`the only resource here is the MCP endpoint, ${defaultResource}`);
          }
          return {
            scope: MCP_SCOPE,
            audience: indicator,
            accessTokenTTL: accessTokenTtl,
            accessTokenFormat: "opaque",
          };
        },
      },
    },
    routes: {
      authorization: "/oauth/authorize",
      token: "/oauth/token",
      registration: "/oauth/register",
      jwks: "/oauth/jwks",
      revocation: "/oauth/revoke",
      end_session: "/oauth/session/end",
      userinfo: "/oauth/userinfo",
      introspection: "/oauth/introspect",
      code_verification: "/oauth/device",
      device_authorization: "/oauth/device/auth",
      backchannel_authentication: "/oauth/backchannel",
      pushed_authorization_request: "/oauth/par",
      challenge: "/oauth/challenge",
      credential: "/oauth/credential",
    },
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = await accounts.account(sub);
      return account ? { accountId: account.id, claims: () => ({ sub: account.id }) } : undefined;
    },
    // Tokens belong to the grant, not to the browser's sign-in session; refresh tokens without offline_access.
    expiresWithSession: () => false,
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    ttl: {
      AccessToken: accessTokenTtl,
      AuthorizationCode: 120,
      RefreshToken: refreshTokenTtl,
      Grant: 365 * 86_400,
      Interaction: 3600,
      Session: 14 * 86_400,
      IdToken: 3600,
    },
    // Browser-based MCP clients call the token endpoint from their own origin.
    clientBasedCORS: () => true,
  };

  const provider = new Provider(issuer, configuration);
  // With PUBLIC_URL the middleware sets the forwarded protocol itself (from PUBLIC_URL) before the provider reads it.
  provider.proxy = o.behindProxy === true || publicHost !== null;
  const callback = provider.callback();
  const prune = setInterval(() => void records.pruneExpired().catch(() => {}), 3600_000);
  prune.unref();

  const resourceOf = (ctx: Koa.Context): string =>
    `${o.publicUrl ?? `${ctx.protocol}://${ctx.host}`}${MCP_PATH}`;
  const metadataUrl = (ctx: Koa.Context): string =>
    `${o.publicUrl ?? `${ctx.protocol}://${ctx.host}`}${PRM_PATH}${MCP_PATH}`;

  const middleware: Koa.Middleware = async (ctx, next) => {
    const path = ctx.path;
    const read = ctx.method === "GET" || ctx.method === "HEAD";
    if (!read && METADATA_PATHS.has(path)) {
      // The metadata documents are read-only: 405 with Allow (an OPTIONS without CORS preflight: 204).
      ctx.set("Allow", "GET, HEAD");
      if (ctx.method === "OPTIONS") {
        ctx.status = 204;
        return;
      }
      throw new RangesError(
        "method_not_allowed",
        `${ctx.method} is not allowed on ${path}; use GET, HEAD (a metadata document).`,
        { allow: ["GET", "HEAD"] },
      );
    }
    if (read && (path === PRM_PATH || path === `${PRM_PATH}${MCP_PATH}`)) {
      ctx.set("Cache-Control", "public, max-age=300");
      const metadata: ProtectedResourceMetadata = {
        resource: resourceOf(ctx),
        authorization_servers: [issuer],
        scopes_supported: [MCP_SCOPE],
        bearer_methods_supported: ["header"],
        resource_name: "Preflop ranges MCP server",
      };
      ctx.body = metadata;
      return;
    }
    const wellKnownAs = path === "/.well-known/oauth-authorization-server";
    if (
      wellKnownAs ||
      path === "/.well-known/openid-configuration" ||
      (path.startsWith("/oauth/") && !path.startsWith("/oauth/interaction/"))
    ) {
      if (path === "/oauth/register" && ctx.method === "POST") {
        // Dynamic registration is open to anyone: limited per client address and UTC day.
        if (!(await records.countRegistration(ctx.ip, registrationLimit))) {
          const now = new Date();
          const reset = secondsToUtcMidnight(now);
          throw new RangesError(
            "rate_limited",
            `This network address has registered ${registrationLimit} OAuth clients today, the most one address may register per day. It resets at 00:00 UTC (in ${reset} s); reuse a client you registered.`,
            {
              limit: registrationLimit,
              meter: "oauth-register",
              retryAfterSeconds: reset,
              resetsAt: new Date(now.getTime() + reset * 1000).toISOString(),
            },
          );
        }
      }
      // The provider answers on the same request and response (RFC 8414 metadata is its discovery document).
      if (wellKnownAs) ctx.req.url = `/.well-known/openid-configuration${ctx.search}`;
      // With PUBLIC_URL, the provider builds its endpoints' URLs from the public origin, never from the
      // request's Host or X-Forwarded-Host (which anyone can set).
      if (publicHost) {
        ctx.req.headers.host = publicHost.host;
        delete ctx.req.headers["x-forwarded-host"];
        ctx.req.headers["x-forwarded-proto"] = publicHost.protocol.slice(0, -1);
      }
      ctx.state.via = "oauth";
      ctx.respond = false;
      await callback(ctx.req, ctx.res);
      return;
    }
    return next();
  };

  function challenge(ctx: Koa.Context, error?: { code: string; description: string }): string {
    const parts = [
      `Bearer realm="preflop-ranges"`,
      `resource_metadata="${metadataUrl(ctx)}"`,
      `scope="${MCP_SCOPE}"`,
    ];
    if (error)
      parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/"/g, "'")}"`);
    return parts.join(", ");
  }

  async function verify(ctx: Koa.Context, token: string) {
    const refuse = (description: string): never => {
      ctx.set("WWW-Authenticate", challenge(ctx, { code: "invalid_token", description }));
      throw new RangesError("unauthorized", `The access token is not valid: ${description} Sign in again.`);
    };
    if (token.length > 512) refuse("it is too long to be one of this server's tokens.");
    const found = await provider.AccessToken.find(token);
    if (!found) return refuse("it is unknown or expired.");
    // The token's audience must be this server's MCP endpoint as configured, whatever Host the request sends.
    const audiences = Array.isArray(found.aud) ? found.aud : [found.aud];
    if (!audiences.some((a) => typeof a === "string" && isOurResource(a)))
      refuse(`it was issued for another resource, not ${defaultResource}.`);
    if (!found.scope?.split(" ").includes(MCP_SCOPE)) refuse(`it lacks the "${MCP_SCOPE}" scope.`);
    const keyId = found.grantId ? await access.keyIdForGrant(found.grantId) : null;
    if (!keyId || !found.accountId) return refuse("the key of this sign-in was revoked in the account area.");
    return { keyId, accountId: found.accountId, clientId: found.clientId ?? "" };
  }

  const registerRoutes = (router: Router) =>
    registerInteractionRoutes(router, {
      provider,
      access,
      accounts,
      cookie,
      publicUrl: o.publicUrl,
      defaultResource,
      isOurResource,
    });

  return {
    issuer,
    provider,
    records,
    middleware,
    registerRoutes,
    resourceOf,
    challenge,
    verify,
    async revokeKey(keyId: string) {
      const grantId = await access.grantIdOfKey(keyId);
      if (!grantId) return;
      await records.adapterFor("AccessToken").revokeByGrantId(grantId);
      await records.adapterFor("Grant").destroy(grantId);
    },
    close: () => clearInterval(prune),
  };
}
