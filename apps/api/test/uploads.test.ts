/**
 * Hand-history uploads through the link over real HTTP: the MCP tool get_upload_link (the SDK's client on
 * the API's /api/mcp) makes the link, the file is POSTed to it, the hands are read back with find_hands.
 * Single use, expiry, size cap, text only, a link racing with itself, and keys never seeing each other's hands.
 */

import { readFileSync } from "node:fs";
import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AccessStore, HandStore } from "@ranges/access";
import { HandParser, HandUploads } from "@ranges/hand-analysis";
import { createMcpHttpHandler } from "@ranges/mcp";
import { ErrorBodySchema, HandUploadSchema } from "@ranges/schema";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../..");
/** Histories written for the tests (hand-analysis's fixtures; turbo.json lists them as this task's inputs). */
const fixture = (name: string) => readFileSync(join(root, "packages/hand-analysis/test/fixtures", name));
/** Ten observed cash hands, saved as PokerStars does: UTF-8 with a byte order mark, CRLF. */
const TEN = fixture("observed-6max-cash.txt");

let store: RangeStore;
let access: AccessStore;
/** The access log's lines. */
const logged: Record<string, unknown>[] = [];
let parser: HandParser;
let server: Server;
let base: string;
let alice: Client;
let bob: Client;
let anon: Client;

async function connect(key?: string): Promise<Client> {
  const client = new Client({ name: "upload-tests", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(`${base}/api/mcp`),
      key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {},
    ),
  );
  await client.listTools();
  return client;
}

beforeAll(async () => {
  store = RangeStore.open({ packsDir: join(root, "data/packs"), refreshMs: 0 });
  access = await AccessStore.open(":memory:");
  parser = new HandParser({ idleMs: 500 });
  // Links last 2 s here, so expiry can be seen.
  const uploads = new HandUploads(new HandStore(access.database), parser, { linkTtlSeconds: 2 });
  const app = createApp({
    store,
    access,
    logger: (line) => {
      logged.push(line as unknown as Record<string, unknown>);
    },
    hands: uploads,
    mcpHandler: createMcpHttpHandler({
      store,
      access,
      trustProxy: true,
      hands: { uploads, linkBase: "request" },
    }),
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  alice = await connect((await access.createKey({ name: "alice" })).key);
  bob = await connect((await access.createKey({ name: "bob" })).key);
  anon = await connect();
});

afterAll(async () => {
  for (const c of [alice, bob, anon]) await c?.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await parser.close();
  await access.close();
  store.close();
});

async function tool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return r.structuredContent as Record<string, unknown> & { error?: { status: number; message: string } };
}

async function link(client: Client, hero?: string): Promise<string> {
  const r = await tool(client, "get_upload_link", hero ? { hero } : {});
  const url = (r.link as { url: string }).url;
  expect(url.startsWith(`${base}/api/v1/uploads/hul_`)).toBe(true);
  return url;
}

const post = (url: string, body: BodyInit, type = "text/plain") =>
  fetch(url, { method: "POST", headers: { "content-type": type }, body });

async function errorOf(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return ErrorBodySchema.parse(await res.json()).error;
}

describe("POST /api/v1/uploads/{token}", () => {
  it("the access log never writes the link's token", async () => {
    const url = await link(alice, "rivertilt");
    const token = url.slice(url.lastIndexOf("/") + 1);
    logged.length = 0;
    expect((await post(url, "not a hand history")).status).toBe(400);
    await post(`${base}/api/v1/Uploads/${token}x`, TEN);
    const text = JSON.stringify(logged);
    expect(logged.some((l) => l.path === "/api/v1/uploads/[token]")).toBe(true);
    expect(logged.some((l) => l.path === "/api/v1/Uploads/[token]")).toBe(true);
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(4, 20));
  });

  it("needs a key to make a link", async () => {
    expect((await tool(anon, "get_upload_link")).error).toMatchObject({ status: 401 });
  });

  it("takes a file once, stores it under the key that made the link, and nobody else sees it", async () => {
    const url = await link(alice, "rivertilt");
    const res = await post(url, TEN);
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { upload } = HandUploadSchema.parse(await res.json());
    // The file starts with a UTF-8 byte order mark, which is not part of the text.
    expect([...TEN.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(upload).toMatchObject({
      via: "link",
      hands: 10,
      stored: 10,
      duplicates: 0,
      errors: 0,
      bytes: TEN.length - 3,
    });
    // rivertilt plays hands 1-4 of the 10.
    expect(upload.withHero).toBe(4);
    // Used up.
    expect((await errorOf(await post(url, TEN), 404)).message).toMatch(/already used/);
    // The hands, through the MCP tools: alice's; not bob's.
    const found = await tool(alice, "find_hands", { uploadId: upload.uploadId, limit: 100 });
    expect((found.context as { total: number }).total).toBe(10);
    const theirs = await tool(bob, "find_hands", {});
    expect((theirs.context as { total: number }).total).toBe(0);
    // The same file through another link: all duplicates.
    const again = HandUploadSchema.parse(await (await post(await link(alice), TEN)).json());
    expect(again.upload).toMatchObject({ stored: 0, duplicates: 10, totalHands: 10 });
  });

  it("expires", async () => {
    const url = await link(alice);
    await new Promise((r) => setTimeout(r, 2200));
    expect((await errorOf(await post(url, TEN), 404)).message).toMatch(/expired at/);
  });

  it("refuses files over 8 MiB and anything that is not text, leaving the link usable", async () => {
    const url = await link(bob);
    // Declared too large: answered before a byte of the body is read.
    const declared = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, {
        method: "POST",
        headers: { "content-type": "text/plain", "content-length": String(9 * 1024 * 1024) },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.write("PokerStars Hand");
    });
    expect(declared.status).toBe(413);
    expect(ErrorBodySchema.parse(JSON.parse(declared.body)).error.code).toBe("payload_too_large");
    // Streamed without a length: refused as soon as it passes the cap.
    const chunk = new Uint8Array(1024 * 1024).fill(65);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 10) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await fetch(url, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: stream,
      duplex: "half",
    } as RequestInit).catch((e: Error) => e);
    if (!(streamed instanceof Error)) expect(streamed.status).toBe(413);
    // Binary content, and a type that is not text.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    expect(await errorOf(await post(url, png), 415)).toMatchObject({ code: "unsupported_media_type" });
    expect(await errorOf(await post(url, png, "application/octet-stream"), 415)).toMatchObject({
      message: expect.stringMatching(/not text/),
    });
    expect((await errorOf(await post(url, TEN, "image/png"), 415)).message).toMatch(/text\/plain/);
    expect((await errorOf(await post(url, TEN, "multipart/form-data; boundary=x"), 415)).message).toMatch(
      /the file itself/,
    );
    // Text that holds no hand: a 400 that says so (the link is used by then).
    expect((await errorOf(await post(url, "just some notes\n"), 400)).message).toMatch(
      /No hand could be read/,
    );
    // The refusals of size and type did not use the link; the 400 did (the text was taken and read).
    expect((await errorOf(await post(url, TEN), 404)).message).toMatch(/already used/);
    const fresh = await link(bob);
    expect((await post(fresh, TEN, "application/octet-stream")).status).toBe(201);
  });

  it("one link, several uploads at once: exactly one is taken", async () => {
    const url = await link(bob);
    const gg = fixture("observed-flop-allin.txt");
    const answers = await Promise.all([post(url, gg), post(url, gg), post(url, gg)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 404, 404]);
  });

  it("unknown and malformed links are 404s; only POST is served", async () => {
    expect(
      (await errorOf(await post(`${base}/api/v1/uploads/hul_${"x".repeat(43)}`, TEN), 404)).message,
    ).toMatch(/No such upload link/);
    expect((await errorOf(await post(`${base}/api/v1/uploads/nope`, TEN), 404)).message).toMatch(/No such/);
    const get = await fetch(`${base}/api/v1/uploads/hul_${"x".repeat(43)}`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toMatch(/POST/);
  });

  it("reads files in Windows-1252 and UTF-16, and warns about a hero found in no hand", async () => {
    // The ten hands as an older client saves them (no character above 0x7F here: the same bytes as
    // Latin-1), as UTF-16 with a byte order mark, with a screen name written in the wrong case.
    const text = TEN.subarray(3).toString("utf8");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const res = await post(await link(bob, "RiverTilt"), utf16);
    expect(res.status).toBe(201);
    const { upload } = HandUploadSchema.parse(await res.json());
    expect(upload).toMatchObject({ hands: 10, errors: 0, withHero: 0 });
    expect(upload.warnings).toEqual([
      expect.stringMatching(/hero "RiverTilt" is not a player in any of the 10 hands read.*"rivertilt"/),
    ]);
    // A euro table in Windows-1252: "€" is byte 0x80.
    const euros = Buffer.from(
      text.replaceAll("$", "\u20ac").replaceAll("USD", "EUR").replaceAll("25100000", "25900000"),
      "latin1",
    ).map((b) => (b === 0xac ? 0x80 : b));
    const cp1252 = HandUploadSchema.parse(await (await post(await link(bob), euros)).json());
    expect(cp1252.upload).toMatchObject({ hands: 10, stored: 10, errors: 0, warnings: [] });
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    };
    const op = doc.paths["/api/v1/uploads/{token}"]!.post!;
    for (const status of ["201", "404", "413", "415"]) expect(op.responses[status], status).toBeDefined();
  });
});
