/**
 * The account area's JSON routes over HTTP: sessions in cookies, CSRF (403), keys, meters, requests, solves,
 * the sign-up limit per client address, and bad input on every route (4xx, never 5xx).
 */

import { request } from "node:http";
import { SolveQueue } from "@ranges/queue";
import {
  AccountKeyAnswerSchema,
  AccountKeyCreatedSchema,
  AccountKeyListSchema,
  AccountRequestListSchema,
  AccountSessionSchema,
  AccountSolveListSchema,
  ErrorBodySchema,
} from "@ranges/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePacksDir, start, type TestServer } from "./helpers.js";

let server: TestServer;
let removePacks: () => void;

beforeAll(async () => {
  const packs = await fixturePacksDir(false);
  removePacks = packs.remove;
  // Every test signs up from 127.0.0.1: more than the default daily limit of one address (tested below).
  server = await start({ packsDir: packs.dir, signUpDailyLimit: 100 });
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

/** A request fetch will not send (a GET with a body), over node:http. */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.base}${path}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const cookieOf = (a: Answer): string => a.headers.get("set-cookie")!.split(";")[0]!;

async function signUp(email: string): Promise<{ cookie: string; csrf: string }> {
  const a = await call("/api/v1/account/signup", {
    method: "POST",
    json: { email, password: "a long enough password" },
  });
  expect(a.status).toBe(201);
  AccountSessionSchema.strict().parse(a.body);
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

  it("refuses form posts (400), other origins (403), bad input and a taken email (400)", async () => {
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
    expect(cross.status).toBe(403);
    expect(cross.body.error).toMatchObject({ status: 403, code: "forbidden" });
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
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error).toMatchObject({ status: 403, code: "forbidden" });
    expect(noCsrf.body.error!.message).toContain("X-CSRF-Token");
    const wrongCsrf = await call("/api/v1/account/keys", {
      method: "POST",
      json: { name: "laptop" },
      cookie,
      csrf: "x".repeat(32),
    });
    expect(wrongCsrf.status).toBe(403);
    expect(wrongCsrf.body.error).toMatchObject({ code: "forbidden" });
    // Another origin is refused even with the right token.
    const foreign = await call("/api/v1/account/keys", {
      method: "POST",
      json: { name: "laptop" },
      cookie,
      csrf,
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const noName = await call("/api/v1/account/keys", { method: "POST", json: {}, cookie, csrf });
    expect(noName.status).toBe(400);

    const created = await call("/api/v1/account/keys", {
      method: "POST",
      json: { name: "laptop" },
      cookie,
      csrf,
    });
    expect(created.status).toBe(201);
    AccountKeyCreatedSchema.strict().parse(created.body);
    expect(created.body.key).toMatchObject({ name: "laptop", usedToday: 0, usage: [], revokedAt: null });
    expect(created.body.key).not.toHaveProperty("accountId");
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
    AccountKeyListSchema.strict().parse(list.body);
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
    AccountRequestListSchema.strict().parse(requests.body);
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
    AccountKeyAnswerSchema.strict().parse(revoked.body);
    expect(revoked.body.key).toMatchObject({ id: keyId, usedToday: 2, usage: [{ count: 2 }] });
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
      expect(cross.status).toBe(403);
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

describe("sign-up limit per client address", () => {
  let limited: TestServer;
  let packs: { dir: string; remove: () => void };
  beforeAll(async () => {
    packs = await fixturePacksDir(false);
    // Loopback is a trusted proxy here, so X-Forwarded-For names the client (as behind a reverse proxy).
    limited = await start({ packsDir: packs.dir, signUpDailyLimit: 3, trustProxy: "loopback" });
  });
  afterAll(async () => {
    await limited?.close();
    packs?.remove();
  });

  const signUpFrom = (ip: string, email: string, password = "a long enough password") =>
    fetch(`${limited.base}/api/v1/account/signup`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ email, password }),
    });

  it("takes N sign-ups per address and UTC day, then answers 429 with Retry-After", async () => {
    expect((await signUpFrom("198.51.100.7", "lim1@example.com")).status).toBe(201);
    // Malformed input is not counted (a weak password); a taken email is, as it tells the email has an
    // account: so asking that is limited too.
    expect((await signUpFrom("198.51.100.7", "weak@example.com", "short")).status).toBe(400);
    expect((await signUpFrom("198.51.100.7", "LIM1@example.com")).status).toBe(400);
    expect((await signUpFrom("198.51.100.7", "lim3@example.com")).status).toBe(201);
    expect((await signUpFrom("198.51.100.7", "lim1@example.com")).status).toBe(429);

    const refused = await signUpFrom("198.51.100.7", "lim4@example.com");
    expect(refused.status).toBe(429);
    const body = ErrorBodySchema.parse(await refused.json());
    expect(body.error).toMatchObject({ status: 429, code: "rate_limited" });
    expect(body.error.message).toMatch(/3 sign-ups today.*00:00 UTC/);
    expect(body.error.hint).toMatchObject({ limit: 3, meter: "signup" });
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(86_400);
    expect(body.error.hint!.retryAfterSeconds).toBe(retry);
    expect(refused.headers.get("ratelimit-limit")).toBe("3");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.headers.get("set-cookie")).toBeNull();

    // The same address, written as IPv4-mapped IPv6, is the same client; another address is not.
    expect((await signUpFrom("::ffff:198.51.100.7", "lim5@example.com")).status).toBe(429);
    expect((await signUpFrom("198.51.100.8", "lim6@example.com")).status).toBe(201);
    // Signing in is not limited by it.
    const signIn = await fetch(`${limited.base}/api/v1/account/signin`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7" },
      body: JSON.stringify({ email: "lim1@example.com", password: "a long enough password" }),
    });
    expect(signIn.status).toBe(200);
  });

  it("counts an IPv6 client per /64, as the keyless allowance does", async () => {
    for (const n of [1, 2, 3]) {
      expect((await signUpFrom(`2001:db8:7:7::${n}`, `six${n}@example.com`)).status).toBe(201);
    }
    expect((await signUpFrom("2001:db8:7:7::ffff", "six4@example.com")).status).toBe(429);
    expect((await signUpFrom("2001:db8:7:8::1", "six5@example.com")).status).toBe(201);
  });

  it("gives the failed sign-in limit's 429 a Retry-After too", async () => {
    let last: Response | undefined;
    for (let i = 0; i < 21; i++) {
      last = await fetch(`${limited.base}/api/v1/account/signin`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.9" },
        body: JSON.stringify({ email: "lim6@example.com", password: "not the password" }),
      });
    }
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    // The limit that refused it: failures of this account from this address (10 a day; see @ranges/access).
    expect(last!.headers.get("ratelimit-limit")).toBe("10");
  });
});

describe("bad input on every account route", () => {
  const LARGE = JSON.stringify({ email: "big@example.com", password: "x".repeat(20_000) });

  /** Every state-changing account route, with a valid body for it. */
  const routes: Array<{ method: string; path: string; body: string }> = [
    {
      method: "POST",
      path: "/api/v1/account/signup",
      body: '{"email":"x@example.com","password":"0123456789ab"}',
    },
    {
      method: "POST",
      path: "/api/v1/account/signin",
      body: '{"email":"x@example.com","password":"0123456789ab"}',
    },
    { method: "POST", path: "/api/v1/account/signout", body: "{}" },
    { method: "POST", path: "/api/v1/account/keys", body: '{"name":"laptop"}' },
  ];

  it("answers wrong types, missing and unknown fields, bad JSON and non-objects with a 400 that names the problem", async () => {
    const { cookie, csrf } = await signUp("badinput@example.com");
    const cases: Array<{ path: string; json: string; message: RegExp; field?: string }> = [
      {
        path: "/api/v1/account/signup",
        json: "{}",
        message: /"email" is missing.*"password" is missing/,
        field: "email",
      },
      {
        path: "/api/v1/account/signup",
        json: '{"email":42,"password":"0123456789ab"}',
        message: /"email" must be a string/,
        field: "email",
      },
      {
        path: "/api/v1/account/signup",
        json: '{"email":"a@example.com","password":["x"]}',
        message: /"password" must be a string/,
        field: "password",
      },
      {
        path: "/api/v1/account/signup",
        json: '{"email":"a@example.com","password":"0123456789ab","admin":true}',
        message: /Unknown field "admin": the body takes "email", "password"/,
      },
      {
        path: "/api/v1/account/signup",
        json: '{"email":"a@example.com","password":"short"}',
        message: /at least 10 characters/,
        field: "password",
      },
      {
        path: "/api/v1/account/signup",
        json: '{"email":"not an email","password":"0123456789ab"}',
        message: /email address/,
        field: "email",
      },
      {
        path: "/api/v1/account/signup",
        json: `{"email":"${"a".repeat(250)}@example.com","password":"0123456789ab"}`,
        message: /at most 254/,
        field: "email",
      },
      { path: "/api/v1/account/signup", json: "not json", message: /not valid JSON/ },
      { path: "/api/v1/account/signup", json: "", message: /body is empty/ },
      { path: "/api/v1/account/signup", json: "[1,2]", message: /must be a JSON object/ },
      { path: "/api/v1/account/signup", json: "null", message: /must be a JSON object/ },
      {
        path: "/api/v1/account/signin",
        json: '{"email":"a@example.com"}',
        message: /"password" is missing/,
        field: "password",
      },
      {
        path: "/api/v1/account/signin",
        json: '{"email":null,"password":"x"}',
        message: /"email" must be a string/,
        field: "email",
      },
      { path: "/api/v1/account/signin", json: '"a string"', message: /must be a JSON object/ },
      {
        path: "/api/v1/account/signout",
        json: '{"all":true}',
        message: /Unknown field "all": the body takes no fields/,
      },
      { path: "/api/v1/account/signout", json: "{", message: /not valid JSON/ },
      { path: "/api/v1/account/keys", json: "{}", message: /"name" is missing/, field: "name" },
      { path: "/api/v1/account/keys", json: '{"name":7}', message: /"name" must be a string/, field: "name" },
      {
        path: "/api/v1/account/keys",
        json: '{"name":""}',
        message: /"name" of 1 to 100 characters/,
        field: "name",
      },
      {
        path: "/api/v1/account/keys",
        json: `{"name":"${"n".repeat(101)}"}`,
        message: /"name" of 1 to 100 characters/,
        field: "name",
      },
      { path: "/api/v1/account/keys", json: '{"name":"   "}', message: /name of 1 to 100 characters/ },
      { path: "/api/v1/account/keys", json: '{"name":"x","plan":"pro"}', message: /Unknown field "plan"/ },
    ];
    for (const c of cases) {
      const r = await call(c.path, { method: "POST", json: c.json, cookie, csrf });
      const what = `${c.path} ${c.json.slice(0, 60)}`;
      expect(r.status, what).toBe(400);
      expect(r.body.error, what).toMatchObject({ status: 400, code: "invalid_parameter" });
      expect(r.body.error!.message, what).toMatch(c.message);
      if (c.field) expect((r.body.error as { hint?: { field?: string } }).hint?.field, what).toBe(c.field);
      expect(r.headers.get("set-cookie"), what).toBeNull();
    }
    // Still signed in, and no key was made.
    const keys = await call("/api/v1/account/keys", { cookie });
    expect(keys.body.keys).toEqual([]);
  });

  it("answers oversize bodies 413, wrong content types 400, and a GET with a body 400: never a 5xx", async () => {
    const { cookie, csrf } = await signUp("badtypes@example.com");
    for (const route of routes) {
      const send = (headers: Record<string, string>, body: string | ReadableStream | undefined) =>
        fetch(`${server.base}${route.path}`, {
          method: route.method,
          headers: { cookie, "x-csrf-token": csrf, ...headers },
          ...(body === undefined ? {} : { body, duplex: "half" }),
        } as RequestInit);
      const expectError = async (res: Response, status: number, code: string, what: string) => {
        const body = ErrorBodySchema.parse(await res.json());
        expect(res.status, `${route.path} ${what}`).toBe(status);
        expect(body.error.code, `${route.path} ${what}`).toBe(code);
        expect(body.error.message.length, `${route.path} ${what}`).toBeGreaterThan(10);
      };
      // Over 16 KiB: declared up front, or streamed without a length.
      await expectError(
        await send({ "content-type": "application/json" }, LARGE),
        413,
        "payload_too_large",
        "413",
      );
      const chunks = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode(" ".repeat(1024)));
          controller.enqueue(new TextEncoder().encode("{}"));
          controller.close();
        },
      });
      await expectError(
        await send({ "content-type": "application/json" }, chunks),
        413,
        "payload_too_large",
        "chunked",
      );
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
      ]) {
        const res = await send({ "content-type": type }, route.body);
        await expectError(res, 400, "bad_request", type);
      }
      await expectError(await send({}, undefined), 400, "bad_request", "no body, no type");
    }
    // A GET with a body (fetch cannot send one).
    for (const path of ["/api/v1/account", "/api/v1/account/keys", "/api/v1/account/requests"]) {
      const res = await rawRequest(
        "GET",
        path,
        { cookie, "content-type": "application/json", "content-length": "2" },
        "{}",
      );
      expect(res.status, path).toBe(400);
      expect(ErrorBodySchema.parse(JSON.parse(res.body)).error.code, path).toBe("bad_request");
    }
    // DELETE of a key: bad ids are 404s, and a missing CSRF token or another origin 403.
    for (const id of ["", "pr_", "zzzz", "%E0%A4%A", "a".repeat(300)]) {
      const r = await call(`/api/v1/account/keys/${id}`, { method: "DELETE", cookie, csrf });
      expect([404, 405], id).toContain(r.status);
    }
    expect((await call("/api/v1/account/keys/abc", { method: "DELETE", cookie })).status).toBe(403);
    // Signed out, the signed-in routes are 401 whatever the body.
    for (const route of routes.slice(2)) {
      const r = await call(route.path, { method: route.method, json: '{"x":1}', csrf });
      expect(r.status, route.path).toBe(401);
    }
  });
});

describe("the account's solves", () => {
  it("lists the solves queued with the account's keys (AccountSolveList), 404 without a queue", async () => {
    expect((await call("/api/v1/account/solves", {})).status).toBe(404);
    const packs = await fixturePacksDir(false);
    let queue: SolveQueue | undefined;
    const lazy = {
      get queue() {
        return queue!;
      },
      get solutions() {
        return undefined as never;
      },
    };
    const withQueue = await start({ packsDir: packs.dir, solves: lazy });
    try {
      queue = await SolveQueue.open(withQueue.access.database);
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${withQueue.base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        });
      const up = await post("/api/v1/account/signup", {
        email: "queue@example.com",
        password: "a long enough password",
      });
      const cookie = up.headers.get("set-cookie")!.split(";")[0]!;
      const { csrfToken } = (await up.json()) as { csrfToken: string };
      const created = await post(
        "/api/v1/account/keys",
        { name: "solver" },
        { cookie, "x-csrf-token": csrfToken },
      );
      const { secret, key } = (await created.json()) as { secret: string; key: { prefix: string } };
      const queued = await post(
        "/api/v1/solves",
        { game: "nl/v2", stack: 10, changes: { jamOrFold: true, allInFrom: 1 } },
        { authorization: `Bearer ${secret}` },
      );
      expect(queued.status).toBe(202);
      const res = await fetch(`${withQueue.base}/api/v1/account/solves`, { headers: { cookie } });
      expect(res.status).toBe(200);
      const list = AccountSolveListSchema.strict().parse(await res.json());
      expect(list.solves).toHaveLength(1);
      expect(list.solves[0]).toMatchObject({
        status: "queued",
        game: "nl/v2",
        stack: 10,
        keyPrefix: key.prefix,
      });
      expect((await fetch(`${withQueue.base}/api/v1/account/solves`)).status).toBe(401);
    } finally {
      await queue?.close();
      await withQueue.close();
      packs.remove();
    }
  });
});
