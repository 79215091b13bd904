import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessStore } from "@ranges/access";
import { createMcpHttpHandler } from "@ranges/mcp";
import {
  CatalogSchema,
  ConfigSchema,
  DiscoverySchema,
  ErrorBodySchema,
  NodeSchema,
  RangeSchema,
  SpotsSchema,
} from "@ranges/schema";
import { RangeStore } from "@ranges/store";
import { expect } from "vitest";
import { type AppOptions, createApp, createOAuthServer, type LogLine } from "../src/index.js";
import { writeFixturePacks } from "./fixtures.js";

export interface TestServer {
  base: string;
  server: Server;
  store: RangeStore;
  access: AccessStore;
  logs: LogLine[];
  close: () => Promise<void>;
}

/** A temp directory with the fixture packs (and, unless `broken` is false, two bad ones). */
export async function fixturePacksDir(broken = true): Promise<{ dir: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "api-packs-"));
  await writeFixturePacks(dir, broken);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface StartOptions {
  packsDir: string;
  /** An account store to serve with (closed with the server) instead of a new one. */
  accessStore?: AccessStore;
  accessPath?: string;
  keylessDailyLimit?: number;
  clock?: () => Date;
  mcpHandler?: AppOptions["mcpHandler"];
  trustProxy?: AppOptions["trustProxy"];
  http?: AppOptions["http"];
  solves?: AppOptions["solves"];
  webRoot?: AppOptions["webRoot"];
  publicUrl?: AppOptions["publicUrl"];
  signUpDailyLimit?: AppOptions["signUpDailyLimit"];
  /** Postflop packs to serve (closed with the server). */
  postflop?: AppOptions["postflop"];
  /** Hand-history uploads: the upload route, and (with `oauth`) the MCP hand tools, links on the request's origin. */
  hands?: AppOptions["hands"];
  /** Listen on this port (default: a free one). */
  port?: number;
  /** Mount OAuth (issuer http://127.0.0.1:<port>, so give `port`) and the MCP endpoint. */
  oauth?: boolean;
  /** OAuth client registrations per client address and UTC day (the server's default otherwise). */
  oauthRegistrationDailyLimit?: number;
}

/** Starts the real app on an ephemeral loopback port. */
export async function start(o: StartOptions): Promise<TestServer> {
  const store = RangeStore.open({ packsDir: o.packsDir });
  const access =
    o.accessStore ??
    (await AccessStore.open(o.accessPath ?? ":memory:", {
      ...(o.keylessDailyLimit === undefined ? {} : { keylessDailyLimit: o.keylessDailyLimit }),
      ...(o.clock ? { clock: o.clock } : {}),
    }));
  const logs: LogLine[] = [];
  const oauth = o.oauth
    ? await createOAuthServer({
        access,
        issuer: o.publicUrl ?? `http://127.0.0.1:${o.port}`,
        publicUrl: o.publicUrl,
        ...(o.oauthRegistrationDailyLimit === undefined
          ? {}
          : { registrationDailyLimit: o.oauthRegistrationDailyLimit }),
      })
    : undefined;
  const mcpHandler =
    o.mcpHandler ??
    (o.oauth
      ? createMcpHttpHandler({
          store,
          access,
          trustProxy: true,
          ...(o.hands ? { hands: { uploads: o.hands, linkBase: "request" as const } } : {}),
        })
      : undefined);
  const app = createApp({
    store,
    access,
    logger: (line) => logs.push(line),
    ...(mcpHandler ? { mcpHandler } : {}),
    ...(oauth ? { oauth } : {}),
    ...(o.trustProxy ? { trustProxy: o.trustProxy } : {}),
    ...(o.http ? { http: o.http } : {}),
    ...(o.solves ? { solves: o.solves } : {}),
    ...(o.webRoot ? { webRoot: o.webRoot } : {}),
    ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}),
    ...(o.signUpDailyLimit === undefined ? {} : { signUpDailyLimit: o.signUpDailyLimit }),
    ...(o.postflop ? { postflop: o.postflop } : {}),
    ...(o.hands ? { hands: o.hands } : {}),
  });
  const server = app.listen(o.port ?? 0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    server,
    store,
    access,
    logs,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      oauth?.close();
      o.postflop?.close();
      await access.close();
    },
  };
}

/** A port that was free a moment ago (for servers that must know their URL before they listen). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

/** The response schema of a ranges URL, by its last path segment(s); null for other endpoints. */
function schemaOf(url: string): { parse: (v: unknown) => unknown } | null {
  const path = decodeURIComponent(new URL(url).pathname).replace(/\/$/, "");
  if (!path.startsWith("/api/v1/ranges/")) return null;
  const rest = path.slice("/api/v1/ranges/".length).replace(/^nl\/v2/, "nl-v2");
  if (rest === "games") return CatalogSchema;
  const op = rest.split("/")[1];
  if (op === undefined) return DiscoverySchema;
  return { node: NodeSchema, range: RangeSchema, spots: SpotsSchema, config: ConfigSchema }[op] ?? null;
}

/**
 * Fetches and parses JSON; returns status, headers and body. Every 200 from a ranges endpoint is validated
 * against its response schema and every /api error against the error body schema, so no test skips it.
 */
export async function getJson(url: string, init?: RequestInit): Promise<JsonResponse> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  const method = init?.method ?? "GET";
  if (res.status === 200 && method === "GET") schemaOf(url)?.parse(body);
  // Every /api error has the error body (/readyz's 503 is a probe answer, not an API error).
  if (res.status >= 400 && method !== "HEAD" && new URL(url).pathname.startsWith("/api/")) {
    ErrorBodySchema.parse(body);
  }
  return { status: res.status, headers: res.headers, body: body as Record<string, unknown>, text };
}

/** Zod objects strip unknown keys: a body is exactly its schema when parsing changes nothing. */
export function expectExactly(schema: { parse: (v: unknown) => unknown }, body: unknown): void {
  expect(schema.parse(body)).toEqual(body);
}

/** Asserts an error response: status, code, schema, `no-store`, and a message matching `message`. */
export function expectError(
  r: JsonResponse,
  status: number,
  code: string,
  message?: RegExp,
): { status: number; code: string; message: string; hint?: Record<string, unknown> } & Record<
  string,
  unknown
> {
  const parsed = ErrorBodySchema.safeParse(r.body);
  expect(parsed.success, `error body: ${r.text}`).toBe(true);
  expect(r.status, r.text).toBe(status);
  const error = (r.body as { error: { status: number; code: string; message: string } }).error;
  expect(error.status).toBe(status);
  expect(error.code).toBe(code);
  if (message) expect(error.message).toMatch(message);
  expect(r.headers.get("cache-control")).toBe("no-store");
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  return error as never;
}

export const bearer = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });
