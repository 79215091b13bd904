/// <reference lib="dom" />
/**
 * OAuth for MCP clients, end to end: the MCP SDK's own client (StreamableHTTPClientTransport with an
 * OAuthClientProvider) meets a 401 on a paid tool, discovers the resource and authorization server metadata,
 * registers itself (RFC 7591) and starts the authorization code flow with PKCE; a person signs up and allows
 * it in Chromium; the client exchanges the code and calls the keyed tool with its access token, which is
 * metered on the account's "MCP: <client>" key. Without a browser only the HTTP half runs.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import {
  AuthorizationServerMetadataSchema,
  ErrorBodySchema,
  ProtectedResourceMetadataSchema,
} from "@ranges/schema";
import { webRoot } from "@ranges/web";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePacksDir, freePort, start, type TestServer } from "../helpers.js";
import { BROWSER_AVAILABLE, launchChromium } from "./chromium.js";

let server: TestServer;
let removePacks: () => void;
let browser: Browser | undefined;

beforeAll(async () => {
  const packs = await fixturePacksDir(false);
  removePacks = packs.remove;
  const port = await freePort();
  server = await start({ packsDir: packs.dir, webRoot, oauth: true, port });
  if (BROWSER_AVAILABLE) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  removePacks?.();
});

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
};
const call = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: { name, arguments: args },
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.base}/api/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe("OAuth metadata and the MCP endpoint's challenge", () => {
  it("publishes protected resource and authorization server metadata", async () => {
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/api/mcp",
    ]) {
      const prm = await (await fetch(`${server.base}${path}`)).json();
      expect(prm).toMatchObject({
        resource: `${server.base}/api/mcp`,
        authorization_servers: [server.base],
        scopes_supported: ["mcp"],
      });
    }
    const as = await (await fetch(`${server.base}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: server.base,
      authorization_endpoint: `${server.base}/oauth/authorize`,
      token_endpoint: `${server.base}/oauth/token`,
      registration_endpoint: `${server.base}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
    });
    expect(as.response_types_supported).toContain("code");
    // The documents are the OpenAPI document's schemas, and read-only (405 with Allow, never a 404).
    AuthorizationServerMetadataSchema.parse(as);
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/api/mcp",
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
    ]) {
      const got = await fetch(`${server.base}${path}`);
      expect(got.status, path).toBe(200);
      const body = await got.json();
      if (path.includes("protected")) ProtectedResourceMetadataSchema.strict().parse(body);
      else expect(body).toEqual(as);
      const posted = await fetch(`${server.base}${path}`, { method: "POST", body: "{}" });
      expect(posted.status, path).toBe(405);
      expect(posted.headers.get("allow"), path).toBe("GET, HEAD");
      expect(ErrorBodySchema.parse(await posted.json()).error.code).toBe("method_not_allowed");
    }
  });

  it("refuses the sign-in page's confirm from another site or without the CSRF token (403)", async () => {
    const confirm = (headers: Record<string, string>) =>
      fetch(`${server.base}/oauth/interaction/not-a-real-uid/confirm`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: "{}",
      });
    const foreign = await confirm({ origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(ErrorBodySchema.parse(await foreign.json()).error.code).toBe("forbidden");
    expect((await confirm({})).status).toBe(401);
    const up = await fetch(`${server.base}/api/v1/account/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "confirm-csrf@example.com", password: "a long enough password" }),
    });
    const cookie = up.headers.get("set-cookie")!.split(";")[0]!;
    const noToken = await confirm({ cookie });
    expect(noToken.status).toBe(403);
    expect(ErrorBodySchema.parse(await noToken.json()).error.message).toContain("X-CSRF-Token");
    const { csrfToken } = (await up.json()) as { csrfToken: string };
    // With the token, the unknown sign-in request is a 404.
    expect((await confirm({ cookie, "x-csrf-token": csrfToken })).status).toBe(404);
  });

  it("keeps free tools keyless and answers a keyless paid call with 401 and the challenge", async () => {
    expect((await post(INIT)).status).toBe(200);
    const free = await post(call("get_node", { game: "nl/v2", stack: 100, history: "UTG" }));
    expect(free.status).toBe(200);
    expect(JSON.parse(free.text).result.isError).not.toBe(true);

    const paid = await post(call("get_node", { game: "nlmtt8", stack: 40, history: "UTG" }));
    expect(paid.status).toBe(401);
    const challenge = paid.headers.get("www-authenticate")!;
    expect(challenge).toContain(
      `resource_metadata="${server.base}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    expect(challenge).toMatch(/^Bearer /);
    // The tool's own message is still in the body, for clients without OAuth.
    expect(JSON.parse(paid.text).result.structuredContent.error.status).toBe(401);

    // A pr_ key keeps working as before; a bad OAuth token is a 401 invalid_token.
    const bad = await post(call("get_node", { game: "nl/v2", stack: 100, history: "UTG" }), {
      authorization: "Bearer not-a-token",
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("refuses a registration with a bad redirect URI and an authorization without PKCE", async () => {
    const reg = await fetch(`${server.base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["not a url"], token_endpoint_auth_method: "none" }),
    });
    expect(reg.status).toBe(400);
    const ok = await fetch(`${server.base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none" }),
    });
    expect(ok.status).toBe(201);
    const { client_id } = (await ok.json()) as { client_id: string };
    const q = new URLSearchParams({
      client_id,
      response_type: "code",
      redirect_uri: "http://127.0.0.1:9/cb",
      scope: "mcp",
      state: "s",
    });
    const noPkce = await fetch(`${server.base}/oauth/authorize?${q}`, { redirect: "manual" });
    expect(noPkce.status).toBe(303);
    expect(noPkce.headers.get("location")).toContain("error=invalid_request");
  });
});

/** An MCP client's OAuth state, kept in memory; the browser part is done by the test. */
class TestClientProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  constructor(readonly callback: string) {}
  get redirectUrl() {
    return this.callback;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "E2E test client",
      redirect_uris: [this.callback],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The client's redirect target: a loopback server that hands over the code it receives. */
async function callbackServer(): Promise<{ url: string; code: Promise<string>; close: () => Promise<void> }> {
  let resolve!: (code: string) => void;
  let reject!: (e: Error) => void;
  const code = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const srv: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    res.end("You can close this window.");
    const got = url.searchParams.get("code");
    if (got) resolve(got);
    else reject(new Error(`no code: ${url.search}`));
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const { port } = srv.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    code,
    close: () => new Promise<void>((r) => srv.close(() => r())),
  };
}

async function connect(provider: TestClientProvider) {
  const client = new Client({ name: "e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.base}/api/mcp`), {
    authProvider: provider,
  });
  await client.connect(transport);
  return { client, transport };
}

describe.skipIf(!BROWSER_AVAILABLE)("OAuth sign-in with the MCP SDK's client", () => {
  it("signs in through the browser and calls a keyed tool with the access token", async () => {
    const cb = await callbackServer();
    const provider = new TestClientProvider(cb.url);
    try {
      const first = await connect(provider);
      // A free tool works before any sign-in.
      const free = await first.client.callTool({
        name: "get_node",
        arguments: { game: "nl/v2", stack: 100, history: "UTG" },
      });
      expect(free.isError).not.toBe(true);
      // The paid tool starts the sign-in: registration, then the authorization URL for the user agent.
      await expect(
        first.client.callTool({ name: "get_node", arguments: { game: "nlmtt8", stack: 40, history: "UTG" } }),
      ).rejects.toThrow(/nauthorized/);
      expect(provider.info?.client_id).toBeTruthy();
      const authUrl = provider.authorizationUrl!;
      expect(authUrl.origin + authUrl.pathname).toBe(`${server.base}/oauth/authorize`);
      expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authUrl.searchParams.get("resource")).toBe(`${server.base}/api/mcp`);

      // The person: signs up on the sign-in page, then allows the client.
      const context = await browser!.newContext();
      const page = await context.newPage();
      await page.goto(authUrl.toString());
      await page.waitForURL(/\/oauth\/interaction\//, { timeout: 60_000 });
      await page.click('button:has-text("Create an account")', { timeout: 60_000 });
      await page.fill('input[name="email"]', "mcp-user@example.com");
      await page.fill('input[name="password"]', "a long enough password");
      await page.click('button[type="submit"]');
      await page.waitForSelector('[data-testid="consent-client"]', { timeout: 60_000 });
      expect(await page.textContent('[data-testid="consent-client"]')).toBe("E2E test client");
      await page.click('button:has-text("Allow")');
      const code = await Promise.race([
        cb.code,
        new Promise<string>((_, reject) =>
          setTimeout(async () => {
            const alert = await page.locator('[role="alert"]').allTextContents();
            reject(
              new Error(
                `no code after Allow: at ${page.url()} ${alert.join(" ")} ${JSON.stringify(server.logs.slice(-6))}`,
              ),
            );
          }, 60_000),
        ),
      ]);

      // The client finishes: code + verifier for tokens, then the keyed tool with the access token.
      await first.transport.finishAuth(code);
      expect(provider.saved?.access_token).toBeTruthy();
      expect(provider.saved?.refresh_token).toBeTruthy();
      const second = await connect(provider);
      const paid = await second.client.callTool({
        name: "get_node",
        arguments: { game: "nlmtt8", stack: 40, history: "UTG" },
      });
      expect(paid.isError).not.toBe(true);
      expect(JSON.stringify(paid.structuredContent)).toContain("UTG");

      // The account holds the key the token stands for, with the call on its meter.
      await page.goto(`${server.base}/account`);
      await page.waitForSelector('table[data-testid="keys"] tbody tr', { timeout: 60_000 });
      const row = page.locator('table[data-testid="keys"] tbody tr', { hasText: "MCP: E2E test client" });
      expect(Number(await row.locator('[data-testid="used-today"]').textContent())).toBeGreaterThanOrEqual(1);

      // Revoking it in the account area ends the client's access (its refresh token too).
      await row.locator("button", { hasText: "Revoke" }).click();
      await page.click('button:has-text("Confirm revoke")');
      await page.waitForSelector("tr.revoked", { timeout: 60_000 });
      const res = await post(call("get_node", { game: "nlmtt8", stack: 40, history: "UTG" }), {
        authorization: `Bearer ${provider.saved!.access_token}`,
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
      const refresh = await fetch(`${server.base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: provider.saved!.refresh_token!,
          client_id: provider.info!.client_id,
        }),
      });
      expect(refresh.status).toBe(400);
      await context.close();
      await first.client.close();
      await second.client.close();
    } finally {
      await cb.close();
    }
  });
});
