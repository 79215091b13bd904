/**
 * The account area's JSON routes (`/api/v1/account/...`), used by the web site at /account:
 *
 *   GET    /api/v1/account                  the signed-in account and its CSRF token (401 when signed out)
 *   POST   /api/v1/account/signup           {email, password}: creates the account and signs in (201)
 *   POST   /api/v1/account/signin           {email, password}: signs in
 *   POST   /api/v1/account/signout          ends the session (204)
 *   GET    /api/v1/account/keys             the account's keys with their meters (today and 30 days)
 *   POST   /api/v1/account/keys             {name}: a new key; its secret is in this answer only (201)
 *   DELETE /api/v1/account/keys/{id}        revokes one of the account's keys
 *   GET    /api/v1/account/requests         the feature requests filed with the account's keys
 *   GET    /api/v1/account/solves           the queued solves of the account's keys
 *
 * Sessions: an HTTP-only, SameSite=Lax cookie holding a random token (only its hash is stored), marked Secure
 * (and named with the `__Host-` prefix) when the site's public URL is https. Plain http is for a local
 * server only (http://localhost:3000): browsers keep non-Secure cookies there, and nothing crosses a network.
 *
 * CSRF: every state-changing call (POST, DELETE) must be a request no cross-site form can send (a POST is
 * JSON, `Content-Type: application/json`, else 400; a DELETE is not a form method), must not come from another
 * origin (`Origin`, when the browser sends it, is this site's, else 403 `forbidden`), and, once signed in,
 * must carry the session's CSRF token in `X-CSRF-Token` (else 403 `forbidden`).
 */

import type Router from "@koa/router";
import type { AccessStore, AccountStore, ApiKeyInfo, KeyUsageDay, SessionInfo } from "@ranges/access";
import { RangesError } from "@ranges/core";
import {
  type AccountKey,
  type AccountKeyAnswer,
  type AccountKeyCreated,
  type AccountKeyList,
  type AccountRequestList,
  type AccountSession,
  CreateKeyBodySchema,
  SignInBodySchema,
  SignOutBodySchema,
  SignUpBodySchema,
} from "@ranges/schema";
import type Koa from "koa";
import { readJson } from "./mcp-body.js";
import type { SolveService } from "./services.js";
import {
  checkCsrf,
  checkSameOrigin,
  MAX_KEYS_PER_ACCOUNT,
  readCookie,
  sessionCookie,
  sessionOf,
  setSessionCookie,
} from "./session.js";

export { MAX_KEYS_PER_ACCOUNT };

export interface AccountRoutesOptions {
  access: AccessStore;
  accounts: AccountStore;
  solves?: SolveService | undefined;
  /** The site's public URL (e.g. https://ranges.example): its origin is the only one allowed to POST. */
  publicUrl?: string | undefined;
  /** Called after a key is revoked (OAuth: the sign-in it stands for ends too). */
  onKeyRevoked?: ((keyId: string) => Promise<void>) | undefined;
}

const BODY_LIMIT = 16 * 1024;

const notSignedIn = () =>
  new RangesError("unauthorized", "You are not signed in: sign in at /account (or create an account there).");

const quoteList = (names: readonly PropertyKey[]): string => names.map((n) => `"${String(n)}"`).join(", ");

/** What the account routes read of a zod issue. */
interface BodyIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: unknown;
  readonly keys?: readonly string[];
}

/** A zod object schema of a body, as the account routes use it. */
interface BodySchema<T> {
  readonly shape: object;
  parse(value: unknown): T;
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly BodyIssue[] } };
}

/** One sentence per problem zod found in a body (a JSON object), naming the field. */
function describeIssue(issue: BodyIssue, body: object, fields: readonly string[]): string {
  const field = issue.path.length > 0 ? `"${issue.path.map(String).join(".")}"` : "The body";
  if (issue.code === "invalid_type") {
    const missing = issue.path.length === 1 && !Object.hasOwn(body, issue.path[0]!);
    return missing ? `${field} is missing.` : `${field} must be a ${String(issue.expected)}.`;
  }
  if (issue.code === "unrecognized_keys" && issue.keys) {
    return `Unknown field${issue.keys.length > 1 ? "s" : ""} ${quoteList(issue.keys)}: the body takes ${
      fields.length > 0 ? quoteList(fields) : "no fields"
    }.`;
  }
  return /[.!?]$/.test(issue.message) ? issue.message : `${field}: ${issue.message}.`;
}

/**
 * The JSON object body of an account call, checked against its schema: 400 `invalid_parameter` for an empty
 * body (unless `emptyIsObject`), text that is not JSON, anything but an object, and an object the schema
 * refuses (each problem said, the first field in `hint.field`); 413 over 16 KiB.
 */
async function parseBody<T>(
  ctx: Koa.Context,
  schema: BodySchema<T>,
  example: string,
  emptyIsObject = false,
): Promise<T> {
  const read = await readJson(ctx.req, BODY_LIMIT);
  if (read.kind === "empty" && emptyIsObject) return schema.parse({});
  if (read.kind !== "json") {
    throw new RangesError(
      "invalid_parameter",
      `${read.kind === "empty" ? "The body is empty" : "The body is not valid JSON"}: send a JSON object, e.g. ${example}.`,
    );
  }
  const body = read.value;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new RangesError("invalid_parameter", `The body must be a JSON object, e.g. ${example}.`);
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fields = Object.keys(schema.shape);
  const issues = parsed.error.issues.slice(0, 3);
  const first = issues.find((i) => i.path.length > 0)?.path[0];
  throw new RangesError(
    "invalid_parameter",
    `${issues.map((i) => describeIssue(i, body, fields)).join(" ")} E.g. ${example}.`,
    first === undefined ? undefined : { field: String(first) },
  );
}

/** A key as its account sees it: its meter today and per day over `usage`. */
const keyView = (k: ApiKeyInfo, usage: readonly KeyUsageDay[]): AccountKey => ({
  id: k.id,
  prefix: k.prefix,
  name: k.name,
  plan: k.plan,
  dailyQuota: k.dailyQuota,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt,
  usedToday: k.usedToday,
  usage: usage.filter((u) => u.keyId === k.id).map((u) => ({ day: u.day, count: u.count })),
});

/** Days of usage the key list shows. */
const USAGE_DAYS = 30;

export function registerAccountRoutes(router: Router, o: AccountRoutesOptions): void {
  const { access, accounts } = o;
  const cookie = sessionCookie(o.publicUrl);

  /** The session of a signed-in caller (401 otherwise); for POST and DELETE also checks origin and CSRF. */
  async function signedIn(ctx: Koa.Context, changes: boolean): Promise<SessionInfo> {
    if (changes) checkSameOrigin(ctx, o.publicUrl);
    const session = await sessionOf(ctx, accounts, cookie);
    if (!session) throw notSignedIn();
    if (changes) checkCsrf(ctx, session);
    return session;
  }

  const noStore = (ctx: Koa.Context) => ctx.set("Cache-Control", "no-store");
  const sessionBody = (s: SessionInfo): AccountSession => ({
    schemaVersion: 1,
    account: s.account,
    csrfToken: s.csrfToken,
    expiresAt: s.expiresAt,
  });

  router.get("/api/v1/account", async (ctx) => {
    noStore(ctx);
    const session = await signedIn(ctx, false);
    ctx.body = sessionBody(session);
  });

  const CREDENTIALS = '{"email": "you@example.com", "password": "..."}';

  router.post("/api/v1/account/signup", async (ctx) => {
    noStore(ctx);
    checkSameOrigin(ctx, o.publicUrl);
    const body = await parseBody(ctx, SignUpBodySchema, CREDENTIALS);
    const account = await accounts.signUp(body.email, body.password, { ip: ctx.ip });
    const session = await accounts.createSession(account);
    setSessionCookie(ctx, cookie, session.token, (Date.parse(session.expiresAt) - Date.now()) / 1000);
    ctx.status = 201;
    ctx.body = sessionBody(session);
  });

  router.post("/api/v1/account/signin", async (ctx) => {
    noStore(ctx);
    checkSameOrigin(ctx, o.publicUrl);
    const body = await parseBody(ctx, SignInBodySchema, CREDENTIALS);
    const account = await accounts.signIn(body.email, body.password, { ip: ctx.ip });
    const session = await accounts.createSession(account);
    setSessionCookie(ctx, cookie, session.token, (Date.parse(session.expiresAt) - Date.now()) / 1000);
    ctx.body = sessionBody(session);
  });

  router.post("/api/v1/account/signout", async (ctx) => {
    noStore(ctx);
    await signedIn(ctx, true);
    await parseBody(ctx, SignOutBodySchema, "{}", true);
    await accounts.endSession(readCookie(ctx, cookie.name));
    setSessionCookie(ctx, cookie, "", 0);
    ctx.status = 204;
  });

  router.get("/api/v1/account/keys", async (ctx) => {
    noStore(ctx);
    const { account } = await signedIn(ctx, false);
    const keys = await access.listKeys({ accountId: account.id });
    const usage = await access.keyUsage(
      keys.map((k) => k.id),
      USAGE_DAYS,
    );
    const answer: AccountKeyList = { schemaVersion: 1, keys: keys.map((k) => keyView(k, usage)) };
    ctx.body = answer;
  });

  router.post("/api/v1/account/keys", async (ctx) => {
    noStore(ctx);
    const { account } = await signedIn(ctx, true);
    const body = await parseBody(ctx, CreateKeyBodySchema, '{"name": "laptop"}');
    const live = (await access.listKeys({ accountId: account.id })).filter((k) => k.revokedAt === null);
    if (live.length >= MAX_KEYS_PER_ACCOUNT) {
      throw new RangesError(
        "invalid_parameter",
        `An account holds at most ${MAX_KEYS_PER_ACCOUNT} live keys: revoke one you no longer use first.`,
      );
    }
    const created = await access.createKey({ name: body.name, accountId: account.id });
    const info = (await access.listKeys({ accountId: account.id })).find((k) => k.id === created.id)!;
    const answer: AccountKeyCreated = { schemaVersion: 1, key: keyView(info, []), secret: created.key };
    ctx.status = 201;
    ctx.body = answer;
  });

  router.delete("/api/v1/account/keys/:id", async (ctx) => {
    noStore(ctx);
    const { account } = await signedIn(ctx, true);
    const raw = ctx.params.id ?? "";
    const id = raw.startsWith("pr_") ? raw.slice(3) : raw;
    const mine = (await access.listKeys({ accountId: account.id })).find((k) => k.id === id);
    if (!mine) {
      throw new RangesError(
        "not_found",
        "No such key in this account: key ids are the 12 hex characters after pr_ in the key list.",
      );
    }
    if (await access.revokeKey(id, { accountId: account.id })) await o.onKeyRevoked?.(id);
    const after = (await access.listKeys({ accountId: account.id })).find((k) => k.id === id)!;
    const answer: AccountKeyAnswer = {
      schemaVersion: 1,
      key: keyView(after, await access.keyUsage([id], USAGE_DAYS)),
    };
    ctx.body = answer;
  });

  router.get("/api/v1/account/requests", async (ctx) => {
    noStore(ctx);
    const { account } = await signedIn(ctx, false);
    const keys = await access.listKeys({ accountId: account.id });
    const lists = await Promise.all(
      keys.map(async (k) => (await access.listRequests(k.id)).map((r) => ({ ...r, keyPrefix: k.prefix }))),
    );
    const requests = lists.flat().sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    const answer: AccountRequestList = { schemaVersion: 1, requests: requests.slice(0, 100) };
    ctx.body = answer;
  });

  router.get("/api/v1/account/solves", async (ctx) => {
    noStore(ctx);
    if (!o.solves) throw new RangesError("not_found", "The solve queue is not enabled on this server.");
    const { account } = await signedIn(ctx, false);
    const queue = o.solves.queue;
    const keys = await access.listKeys({ accountId: account.id });
    const lists = await Promise.all(
      keys.map(async (k) => (await queue.list(k.id, 100)).map((j) => ({ ...j, keyPrefix: k.prefix }))),
    );
    const solves = lists.flat().sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    // AccountSolveList, with the queue's read-only arrays (tests parse it with AccountSolveListSchema).
    const answer = { schemaVersion: 1, solves: solves.slice(0, 100) } as const;
    ctx.body = answer;
  });
}
