/**
 * OAuth sign-ins of MCP clients over plain HTTP (no browser): the authorization code flow with PKCE driven
 * by hand (register, authorize, the sign-in page's confirm call, the token exchange), to check which key a
 * sign-in stands for and the registration limit.
 */

import { createHash, randomBytes } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_KEYS_PER_ACCOUNT } from "../src/account.js";
import { fixturePacksDir, freePort, start, type TestServer } from "./helpers.js";

let server: TestServer;
let removePacks: () => void;

beforeAll(async () => {
  const packs = await fixturePacksDir(false);
  removePacks = packs.remove;
  const port = await freePort();
  server = await start({ packsDir: packs.dir, oauth: true, port });
});

afterAll(async () => {
  await server?.close();
  removePacks?.();
});

const CALLBACK = "http://127.0.0.1:9/callback";

/** Cookies by name, as a user agent would keep them for this one site. */
class Jar {
  readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  /** A fresh user agent that keeps only the site's own session cookie (not the provider's). */
  siteOnly(): Jar {
    const jar = new Jar();
    const session = this.cookies.get("ranges_session");
    if (session) jar.cookies.set("ranges_session", session);
    return jar;
  }
}

async function register(name: string): Promise<Response> {
  return fetch(`${server.base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });
}

async function clientId(name: string): Promise<string> {
  const res = await register(name);
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

async function signUp(email: string): Promise<{ jar: Jar; csrf: string; accountId: string }> {
  const jar = new Jar();
  const res = await fetch(`${server.base}/api/v1/account/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.base },
    body: JSON.stringify({ email, password: "a long enough password" }),
  });
  expect(res.status).toBe(201);
  jar.take(res);
  const body = (await res.json()) as { csrfToken: string; account: { id: string } };
  return { jar, csrf: body.csrfToken, accountId: body.account.id };
}

/** Authorizes a client as the signed-in person of `jar`: the confirm call's answer and, when allowed, tokens. */
async function authorize(
  jar: Jar,
  csrf: string,
  client: string,
  resource = `${server.base}/api/mcp`,
): Promise<{ status: number; body: Record<string, unknown>; accessToken?: string }> {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const q = new URLSearchParams({
    client_id: client,
    response_type: "code",
    redirect_uri: CALLBACK,
    scope: "mcp offline_access",
    prompt: "consent",
    state: "s",
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource,
  });
  const start = await fetch(`${server.base}/oauth/authorize?${q}`, {
    redirect: "manual",
    headers: { cookie: jar.header() },
  });
  jar.take(start);
  const interaction = start.headers.get("location") ?? "";
  expect(interaction, await start.text()).toMatch(/\/oauth\/interaction\//);
  const uid = interaction.split("/").pop()!;
  const confirm = await fetch(`${server.base}/oauth/interaction/${uid}/confirm`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: server.base,
      "x-csrf-token": csrf,
      cookie: jar.header(),
    },
    body: "{}",
  });
  jar.take(confirm);
  const body = (await confirm.json()) as Record<string, unknown>;
  if (confirm.status !== 200) return { status: confirm.status, body };
  let next = new URL(String(body.redirectTo), server.base).toString();
  for (let hop = 0; hop < 5 && !next.startsWith(CALLBACK); hop++) {
    const res = await fetch(next, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(res);
    next = new URL(res.headers.get("location") ?? "", next).toString();
  }
  const code = new URL(next).searchParams.get("code");
  expect(code, next).toBeTruthy();
  const token = await fetch(`${server.base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: CALLBACK,
      client_id: client,
      code_verifier: verifier,
      resource,
    }),
  });
  const tokens = (await token.json()) as { access_token?: string };
  expect(token.status, JSON.stringify(tokens)).toBe(200);
  return { status: 200, body, accessToken: tokens.access_token! };
}

async function paidCall(accessToken: string): Promise<number> {
  const res = await fetch(`${server.base}/api/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${accessToken}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get_node", arguments: { game: "nlmtt8", stack: 40, history: "UTG" } },
    }),
  });
  await res.text();
  return res.status;
}

const liveKeys = async (accountId: string) =>
  (await server.access.listKeys({ accountId })).filter((k) => k.revokedAt === null);

describe("OAuth keys", () => {
  it("keeps one key per client and account when the client is allowed again", async () => {
    const { jar, csrf, accountId } = await signUp("again@example.com");
    const client = await clientId("Re-auth client");
    const first = await authorize(jar, csrf, client);
    expect(await paidCall(first.accessToken!)).toBe(200);
    const keys = await liveKeys(accountId);
    expect(keys.map((k) => k.name)).toEqual(["MCP: Re-auth client"]);
    // Another user agent (no provider session, so no earlier grant in the interaction) allows it again.
    const second = await authorize(jar.siteOnly(), csrf, client);
    expect(await paidCall(second.accessToken!)).toBe(200);
    expect((await liveKeys(accountId)).map((k) => k.id)).toEqual(keys.map((k) => k.id));
    // Both sign-ins' calls are metered on the one key.
    expect((await liveKeys(accountId))[0]!.usedToday).toBe(2);
    // Once the key is revoked, allowing the client again makes a new key.
    await server.access.revokeKey(keys[0]!.id, { accountId });
    const third = await authorize(jar.siteOnly(), csrf, client);
    expect(await paidCall(third.accessToken!)).toBe(200);
    const after = await liveKeys(accountId);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(keys[0]!.id);
  });

  it("counts OAuth keys against the account's key limit, with a clear error when it is full", async () => {
    const { jar, csrf, accountId } = await signUp("full@example.com");
    const known = await clientId("Known client");
    await authorize(jar, csrf, known);
    for (let i = (await liveKeys(accountId)).length; i < MAX_KEYS_PER_ACCOUNT; i++) {
      await server.access.createKey({ name: `k${i}`, accountId });
    }
    const refused = await authorize(jar.siteOnly(), csrf, await clientId("One client too many"));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(`${MAX_KEYS_PER_ACCOUNT} live keys`);
    expect(await liveKeys(accountId)).toHaveLength(MAX_KEYS_PER_ACCOUNT);
    // A client that has its key already may still be allowed again.
    const again = await authorize(jar.siteOnly(), csrf, known);
    expect(await paidCall(again.accessToken!)).toBe(200);
    expect(await liveKeys(accountId)).toHaveLength(MAX_KEYS_PER_ACCOUNT);
  });
});

describe("OAuth client registration limit", () => {
  let limited: TestServer;
  let packs: { dir: string; remove: () => void };
  beforeAll(async () => {
    packs = await fixturePacksDir(false);
    // Loopback is a trusted proxy here, so X-Forwarded-For names the client (as behind a reverse proxy).
    limited = await start({
      packsDir: packs.dir,
      oauth: true,
      port: await freePort(),
      oauthRegistrationDailyLimit: 3,
      trustProxy: "loopback",
    });
  });
  afterAll(async () => {
    await limited?.close();
    packs?.remove();
  });

  const registerFrom = (ip: string) =>
    fetch(`${limited.base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" }),
    });

  it("takes N registrations per address and UTC day, then answers 429 with Retry-After", async () => {
    const raced = await Promise.all([1, 2, 3, 4, 5].map((n) => registerFrom(`2001:db8::${n}`)));
    expect(raced.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429]);
    const refused = await registerFrom("2001:db8::ff");
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as {
      error: { code: string; message: string; hint: Record<string, unknown> };
    };
    expect(body.error).toMatchObject({ code: "rate_limited", hint: { limit: 3, meter: "oauth-register" } });
    expect(body.error.message).toMatch(/3 OAuth clients today.*00:00 UTC/);
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(86_400);
    expect(refused.headers.get("ratelimit-limit")).toBe("3");
    expect(await limited.access.listKeys()).toEqual([]);
    // Another address registers as before.
    expect((await registerFrom("198.51.100.20")).status).toBe(201);
  });
});

describe("OAuth resources and redirect URIs (issue 27, findings 8 and 9)", () => {
  const port = () => new URL(server.base).port;

  it("accepts a token for the MCP endpoint at localhost on a request to 127.0.0.1 (the default flow)", async () => {
    const { jar, csrf } = await signUp("loopback@example.com");
    const client = await clientId("loopback client");
    const allowed = await authorize(jar, csrf, client, `http://localhost:${port()}/api/mcp`);
    expect(await paidCall(allowed.accessToken!)).toBe(200);
  });

  it("issues no token for the MCP endpoint on another host, whatever Host a request names", async () => {
    const client = await clientId("evil resource");
    const verifier = randomBytes(32).toString("base64url");
    const q = new URLSearchParams({
      client_id: client,
      response_type: "code",
      redirect_uri: CALLBACK,
      scope: "mcp",
      state: "s",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      resource: "http://evil.example/api/mcp",
    });
    const res = await fetch(`${server.base}/oauth/authorize?${q}`, { redirect: "manual" });
    const location = res.headers.get("location") ?? "";
    expect(location.startsWith(CALLBACK), location).toBe(true);
    expect(new URL(location).searchParams.get("error")).toBe("invalid_target");
  });

  it.each([
    ["http://evil.example/callback", 400],
    ["http://192.168.1.20:8080/callback", 400],
    ["https://client.example/callback", 201],
    ["http://localhost:7777/callback", 201],
    ["http://[::1]:7777/callback", 201],
  ])("dynamic registration with redirect URI %s answers %i", async (uri, status) => {
    const res = await fetch(`${server.base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "redirects",
        redirect_uris: [uri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      }),
    });
    const body = (await res.json()) as { error?: string; error_description?: string };
    expect(res.status, JSON.stringify(body)).toBe(status);
    if (status === 400) {
      expect(body.error).toBe("invalid_redirect_uri");
      expect(body.error_description).toMatch(/https, or http on a loopback address/);
    }
  });
});

describe("with an https PUBLIC_URL", () => {
  let pub: TestServer;
  beforeAll(async () => {
    const packs = await fixturePacksDir(false);
    pub = await start({
      packsDir: packs.dir,
      oauth: true,
      port: await freePort(),
      publicUrl: "https://ranges.example",
    });
    const close = pub.close;
    pub.close = async () => {
      await close();
      packs.remove();
    };
  });
  afterAll(() => pub?.close());

  /** GET with a Host header of our choosing (fetch may not set Host). */
  const getWithHost = (path: string, host: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const url = new URL(path, pub.base);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: { host, "x-forwarded-host": host, "x-forwarded-proto": "http" },
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => {
            body += c;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on("error", reject);
      req.end();
    });

  it("builds the authorization server's endpoints from PUBLIC_URL, never from the request's Host", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const res = await getWithHost(path, "evil.example");
      expect(res.status).toBe(200);
      const meta = JSON.parse(res.body) as Record<string, string>;
      expect(meta.issuer).toBe("https://ranges.example");
      expect(meta.token_endpoint).toBe("https://ranges.example/oauth/token");
      expect(meta.authorization_endpoint).toBe("https://ranges.example/oauth/authorize");
      expect(meta.registration_endpoint).toBe("https://ranges.example/oauth/register");
      expect(res.body).not.toContain("evil.example");
    }
  });

  it("sends HSTS on every answer (and a plain-http server does not)", async () => {
    const res = await getWithHost("/healthz", "ranges.example");
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000");
    const plain = await fetch(`${server.base}/healthz`);
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });
});
