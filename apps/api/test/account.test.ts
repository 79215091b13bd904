/** The account area's JSON routes over HTTP: sessions in cookies, CSRF, keys, meters, requests. */

import { ErrorBodySchema } from "@ranges/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePacksDir, start, type TestServer } from "./helpers.js";

let server: TestServer;
let removePacks: () => void;

beforeAll(async () => {
  const packs = await fixturePacksDir(false);
  removePacks = packs.remove;
  server = await start({ packsDir: packs.dir });
});
afterAll(async () => {
  await server?.close();
  removePacks?.();
});

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { error?: { code: string; message: string } };
}

async function call(
  path: string,
  o: {
    method?: string;
    json?: unknown;
    cookie?: string;
    csrf?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.json !== undefined) headers["content-type"] ??= "application/json";
  if (o.cookie) headers.cookie = o.cookie;
  if (o.csrf) headers["x-csrf-token"] = o.csrf;
  const res = await fetch(`${server.base}${path}`, {
    method: o.method ?? "GET",
    headers,
    ...(o.json !== undefined ? { body: typeof o.json === "string" ? o.json : JSON.stringify(o.json) } : {}),
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : {};
  if (res.status >= 400) ErrorBodySchema.parse(body);
  return { status: res.status, headers: res.headers, body };
}

const cookieOf = (a: Answer): string => a.headers.get("set-cookie")!.split(";")[0]!;

async function signUp(email: string): Promise<{ cookie: string; csrf: string }> {
  const a = await call("/api/v1/account/signup", {
    method: "POST",
    json: { email, password: "a long enough password" },
  });
  expect(a.status).toBe(201);
  return { cookie: cookieOf(a), csrf: a.body.csrfToken as string };
}

describe("account area", () => {
  it("signs up into an HTTP-only session cookie and answers 401 without one", async () => {
    const out = await call("/api/v1/account");
    expect(out.status).toBe(401);
    expect(out.body.error!.message).toContain("not signed in");

    const a = await call("/api/v1/account/signup", {
      method: "POST",
      json: { email: "Ann@Example.com", password: "a long enough password" },
    });
    expect(a.status).toBe(201);
    expect(a.headers.get("cache-control")).toBe("no-store");
    const setCookie = a.headers.get("set-cookie")!;
    expect(setCookie).toMatch(
      /^ranges_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
    );
    const me = await call("/api/v1/account", { cookie: cookieOf(a) });
    expect(me.status).toBe(200);
    expect(me.body.account).toMatchObject({ email: "ann@example.com" });
    expect(me.body.csrfToken).toBe(a.body.csrfToken);
  });

  it("refuses form posts, other origins, bad input and a taken email with clear 400s", async () => {
    const form = await call("/api/v1/account/signup", {
      method: "POST",
      json: "email=x@example.com&password=aaaaaaaaaaaa",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
    expect(form.body.error!.message).toContain("application/json");
    const cross = await call("/api/v1/account/signup", {
      method: "POST",
      json: { email: "x@example.com", password: "a long enough password" },
      headers: { origin: "https://evil.example" },
    });
    expect(cross.status).toBe(400);
    expect(cross.body.error!.message).toContain("another site");
    for (const json of [
      "not json",
      "[1]",
      { email: "x@example.com", password: "short" },
      { email: "nope", password: "a long enough password" },
    ]) {
      const r = await call("/api/v1/account/signup", { method: "POST", json });
      expect(r.status, JSON.stringify(json)).toBe(400);
    }
    await signUp("taken@example.com");
    const again = await call("/api/v1/account/signup", {
      method: "POST",
      json: { email: "TAKEN@example.com", password: "a long enough password" },
    });
    expect(again.status).toBe(400);
    expect(again.body.error!.message).toContain("exists already");
    // The same origin is fine.
    const same = await call("/api/v1/account/signin", {
      method: "POST",
      json: { email: "taken@example.com", password: "a long enough password" },
      headers: { origin: server.base },
    });
    expect(same.status).toBe(200);
    const wrong = await call("/api/v1/account/signin", {
      method: "POST",
      json: { email: "taken@example.com", password: "the wrong password" },
    });
    expect(wrong.status).toBe(401);
  });

  it("creates keys (secret once, CSRF required), meters and lists them, and revokes them", async () => {
    const { cookie, csrf } = await signUp("keys@example.com");
    const noCsrf = await call("/api/v1/account/keys", { method: "POST", json: { name: "laptop" }, cookie });
    expect(noCsrf.status).toBe(400);
    expect(noCsrf.body.error!.message).toContain("X-CSRF-Token");
    const wrongCsrf = await call("/api/v1/account/keys", {
      method: "POST",
      json: { name: "laptop" },
      cookie,
      csrf: "x".repeat(32),
    });
    expect(wrongCsrf.status).toBe(400);
    const noName = await call("/api/v1/account/keys", { method: "POST", json: {}, cookie, csrf });
    expect(noName.status).toBe(400);

    const created = await call("/api/v1/account/keys", {
      method: "POST",
      json: { name: "laptop" },
      cookie,
      csrf,
    });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^pr_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const keyId = (created.body.key as { id: string }).id;

    // The key works on a keyed game and its meter counts the calls.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.base}/api/v1/ranges/nlmtt8/node?stack=40&history=UTG`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(res.status).toBe(200);
    }
    const list = await call("/api/v1/account/keys", { cookie });
    expect(list.status).toBe(200);
    const keys = list.body.keys as {
      id: string;
      usedToday: number;
      usage: { count: number }[];
      revokedAt: null;
    }[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: keyId, usedToday: 2, revokedAt: null, usage: [{ count: 2 }] });
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(16));

    // Requests filed with the key show in the account.
    const filed = await fetch(`${server.base}/api/v1/requests`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ kind: "data", text: "nl at 60bb please", game: "nl", stack: 60 }),
    });
    expect(filed.status).toBe(201);
    const requests = await call("/api/v1/account/requests", { cookie });
    expect(requests.body.requests).toMatchObject([{ kind: "data", text: "nl at 60bb please" }]);

    // Another account sees none of it and cannot revoke it.
    const other = await signUp("other@example.com");
    expect((await call("/api/v1/account/keys", { cookie: other.cookie })).body.keys).toEqual([]);
    expect((await call("/api/v1/account/requests", { cookie: other.cookie })).body.requests).toEqual([]);
    const steal = await call(`/api/v1/account/keys/${keyId}`, {
      method: "DELETE",
      cookie: other.cookie,
      csrf: other.csrf,
    });
    expect(steal.status).toBe(404);

    const revoked = await call(`/api/v1/account/keys/pr_${keyId}`, {
      method: "DELETE",
      cookie,
      csrf,
      headers: { "content-type": "application/json" },
    });
    expect(revoked.status).toBe(200);
    expect((revoked.body.key as { revokedAt: string | null }).revokedAt).not.toBeNull();
    const after = await fetch(`${server.base}/api/v1/ranges/nlmtt8/node?stack=40&history=UTG`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(after.status).toBe(401);
  });

  it("signs out: the cookie is cleared and the session ends", async () => {
    const { cookie, csrf } = await signUp("bye@example.com");
    const out = await call("/api/v1/account/signout", {
      method: "POST",
      json: {},
      cookie,
      csrf,
    });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await call("/api/v1/account", { cookie })).status).toBe(401);
  });

  it("marks the cookie Secure with the __Host- prefix when the public URL is https", async () => {
    const packs = await fixturePacksDir(false);
    const https = await start({ packsDir: packs.dir, publicUrl: "https://ranges.example" });
    try {
      const res = await fetch(`${https.base}/api/v1/account/signup`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://ranges.example" },
        body: JSON.stringify({ email: "tls@example.com", password: "a long enough password" }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get("set-cookie")).toMatch(/^__Host-ranges_session=.*; Secure$/);
      const cross = await fetch(`${https.base}/api/v1/account/signin`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: https.base },
        body: JSON.stringify({ email: "tls@example.com", password: "a long enough password" }),
      });
      expect(cross.status).toBe(400);
    } finally {
      await https.close();
      packs.remove();
    }
  });

  it("answers any body with a 2xx or a 4xx error body, never a 5xx", async () => {
    const { cookie, csrf } = await signUp("fuzz@example.com");
    const paths = ["/api/v1/account/signup", "/api/v1/account/signin", "/api/v1/account/keys"];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue(), async (path, json) => {
        const r = await call(path, { method: "POST", json: JSON.stringify(json), cookie, csrf });
        expect(r.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
    for (const id of ["x", "%00", "pr_", "a".repeat(300), "..%2F..%2Fetc"]) {
      const r = await call(`/api/v1/account/keys/${id}`, { method: "DELETE", cookie, csrf });
      expect(r.status, id).toBe(404);
    }
  });
});
