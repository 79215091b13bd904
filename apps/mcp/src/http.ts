/**
 * The HTTP side: a handler for `POST /api/mcp` (stateless streamable HTTP, a fresh McpServer and transport
 * per request, since the SDK refuses to reuse a stateless transport) and a standalone node:http server.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  AccessStore,
  clientAddress,
  compileTrustProxy,
  normalizeAddress,
  type TrustProxy,
} from "@ranges/access";
import { RangesError } from "@ranges/core";
import type { PostflopPacks } from "@ranges/postflop";
import { RangeStore } from "@ranges/store";
import type { Caller, HandDeps, McpDeps, SolveDeps } from "./context.js";
import { errorBody } from "./errors.js";
import { clip, type Redactor, redactor, requestInputs } from "./redact.js";
import { readableParamsError } from "./rpc-errors.js";
import { createMcpServer } from "./server.js";

/**
 * Most messages in one JSON-RPC batch. The messages of a batch are handled at once, so the bound keeps one
 * POST from queueing many tool calls; an agent's client sends one message per POST.
 */
export const MAX_BATCH_MESSAGES = 10;

/** Largest JSON-RPC body the standalone server reads. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Headers on every response of the standalone server, errors included (the API sends the same). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/** Whose `X-Forwarded-For` is believed; see `McpDeps.trustProxy`. */
export type TrustProxyOption = McpDeps["trustProxy"];

const BLANKET_TRUST =
  "trustProxy: true would trust X-Forwarded-For from any peer, so any client could choose its own address; give the proxies' addresses, comma-separated: single addresses, CIDR ranges or the names loopback, linklocal and uniquelocal (as TRUST_PROXY).";

/** The last entry of `X-Forwarded-For`, normalized; null when there is none or it is not an address. */
function lastForwarded(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const hops = (typeof header === "string" ? header : header.join(",")).split(",");
  return normalizeAddress(hops[hops.length - 1] ?? "");
}

/**
 * How a request's client address is found (see `McpDeps.trustProxy`). Throws for a TRUST_PROXY value that
 * is not a list of addresses, ranges and names, including `1`/`true`.
 */
export function clientIpResolver(trustProxy: TrustProxyOption): (req: IncomingMessage) => string {
  if (trustProxy === true) {
    // Mounted: the server in front resolved the client and wrote it as the last entry.
    return (req) =>
      lastForwarded(req.headers["x-forwarded-for"]) ??
      clientAddress(req.socket.remoteAddress, undefined, null);
  }
  const trust: TrustProxy | null =
    typeof trustProxy === "function"
      ? trustProxy
      : trustProxy === false || trustProxy === undefined || trustProxy === null
        ? null
        : compileTrustProxy(trustProxy);
  return (req) => clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trust);
}

/** The client address of one request (see `clientIpResolver`; resolve it once for many requests). */
export function clientIp(req: IncomingMessage, trustProxy?: TrustProxyOption): string {
  return clientIpResolver(trustProxy)(req);
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** 405 for anything but POST, with `Allow: POST` and the error body. */
export function methodNotAllowed(res: ServerResponse, method: string | undefined): void {
  const error = new RangesError(
    "method_not_allowed",
    `${method === undefined ? "This method" : clip(method)} is not allowed here: the MCP endpoint is stateless streamable HTTP and takes JSON-RPC messages by POST only (no SSE stream, no sessions).`,
  );
  sendJson(res, 405, errorBody(error), { Allow: "POST" });
}

/**
 * The origin a request was made to (`http://host:port`), for links back to this server: the Host header,
 * and https when the connection is TLS or, behind trusted proxies, `X-Forwarded-Proto` says so.
 */
export function originOf(req: IncomingMessage, trustProxy: TrustProxyOption): string | undefined {
  const host = req.headers.host;
  if (typeof host !== "string" || !/^[A-Za-z0-9.:[\]-]{1,255}$/.test(host)) return undefined;
  const forwarded = req.headers["x-forwarded-proto"];
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  const https = tls || (Boolean(trustProxy) && typeof forwarded === "string" && /^https\b/i.test(forwarded));
  return `${https ? "https" : "http"}://${host}`;
}

const PARSE_ERROR = "Parse error: the request body is empty or not JSON. Send a JSON-RPC message.";

/**
 * The handler the API mounts at `POST /api/mcp` (and the standalone server at `/api/mcp` and `/mcp`).
 * `body` is the parsed JSON-RPC body, read by the caller; `undefined` (empty or not JSON) is answered with a
 * JSON-RPC parse error (400). `signedIn`: the key the server in front authenticated the caller as (an OAuth
 * access token), used instead of the `Authorization` header. Never rejects: failures become a JSON-RPC error
 * response.
 */
export function createMcpHttpHandler(
  deps: McpDeps,
): (req: IncomingMessage, res: ServerResponse, body: unknown, signedIn?: { keyId: string }) => Promise<void> {
  const resolveIp = clientIpResolver(deps.trustProxy);
  return async (req, res, body, signedIn) => {
    if (req.method !== "POST") {
      methodNotAllowed(res, req.method);
      return;
    }
    if (body === undefined) {
      // The caller has read the request stream; an absent body means it was empty or not JSON.
      sendJson(res, 400, { jsonrpc: "2.0", error: { code: -32700, message: PARSE_ERROR }, id: null });
      return;
    }
    if (Array.isArray(body) && body.length > MAX_BATCH_MESSAGES) {
      sendJson(res, 400, {
        jsonrpc: "2.0",
        error: {
          code: -32600,
          message: `Invalid Request: a batch of ${body.length} messages; this server takes at most ${MAX_BATCH_MESSAGES} per POST. Send them in smaller batches or one at a time.`,
        },
        id: null,
      });
      return;
    }
    const authorization = req.headers.authorization;
    const caller: Caller = {
      ip: resolveIp(req),
      origin: originOf(req, deps.trustProxy),
      ...(signedIn !== undefined
        ? { keyId: signedIn.keyId }
        : typeof authorization === "string" && authorization.trim() !== ""
          ? { authorization }
          : {}),
    };
    const server = createMcpServer(deps, caller);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The SDK's own errors quote the request (`Tool <name> not found`, the input schemas' messages): they
    // are held to the same 40 characters and relative paths as the tools' error bodies.
    // Made on the first error only: most requests have none.
    let compiled: Redactor | undefined;
    const redact: Redactor = (text) => {
      compiled ??= redactor({ inputs: requestInputs(body), roots: [deps.store.packsDir] });
      return compiled(text);
    };
    // The method of each request, to name it when its params fail the SDK's check (rpc-errors.ts).
    const methods = new Map<string | number, string>();
    for (const m of Array.isArray(body) ? body : [body]) {
      const r = m as { id?: unknown; method?: unknown };
      if ((typeof r?.id === "string" || typeof r?.id === "number") && typeof r.method === "string") {
        methods.set(r.id, r.method);
      }
    }
    const send = transport.send.bind(transport);
    transport.send = (message, options) =>
      send(
        redactMessage(
          readableParamsError(message, (id) => methods.get(id)),
          redact,
        ),
        options,
      );
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch {
      sendJson(res, 500, {
        jsonrpc: "2.0",
        error: { code: -32603, message: "Internal error handling the MCP request." },
        id: null,
      });
    }
  };
}

/**
 * A JSON-RPC message with the SDK's error texts redacted: the message of an error response, and the text of
 * a tool result the SDK made itself (`isError` without `structuredContent`; the tools' own error results are
 * redacted where they are built, and their text is JSON).
 */
function redactMessage(message: JSONRPCMessage, redact: Redactor): JSONRPCMessage {
  if ("error" in message && typeof message.error?.message === "string") {
    return { ...message, error: { ...message.error, message: redact(message.error.message) } };
  }
  if (!("result" in message)) return message;
  const result = message.result as { isError?: unknown; structuredContent?: unknown; content?: unknown };
  if (result.isError !== true || result.structuredContent !== undefined || !Array.isArray(result.content)) {
    return message;
  }
  const content = result.content.map((part: unknown) => {
    const p = part as { type?: unknown; text?: unknown };
    return p?.type === "text" && typeof p.text === "string" ? { ...p, text: redact(p.text) } : part;
  });
  return { ...message, result: { ...message.result, content } } as JSONRPCMessage;
}

/** Reads a request body up to `limit` bytes; null when it is larger (the rest is drained, not kept). */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size <= limit) chunks.push(buf);
  }
  return size > limit ? null : Buffer.concat(chunks);
}

export const MCP_PATHS = ["/api/mcp", "/mcp"] as const;

export interface StartOptions {
  /** Port to listen on; 0 picks a free one. */
  readonly port?: number;
  readonly host?: string;
  /** Use these stores (tests); otherwise they are opened from `packsDir` and `accessDb` and closed on close(). */
  readonly store?: RangeStore;
  readonly access?: AccessStore;
  readonly packsDir?: string;
  readonly accessDb?: string;
  /**
   * TRUST_PROXY: the reverse proxies whose `X-Forwarded-For` is believed, as in the API: comma-separated
   * (or listed) addresses, CIDR ranges and the names loopback, linklocal, uniquelocal. Unset, empty, `0`,
   * `false`: none, the peer is the client. `1`/`true` (any peer) and anything else are refused at start.
   */
  readonly trustProxy?: string | readonly string[];
  /** The solve queue for the queue tools and `solution` reads (absent: those answer not enabled). */
  readonly solves?: SolveDeps;
  /** Uploaded hand histories for the hand tools (absent: those answer not enabled). */
  readonly hands?: HandDeps;
  /** The postflop packs (absent: the postflop tools list none). */
  readonly postflop?: PostflopPacks;
}

export interface RunningMcpServer {
  readonly server: Server;
  readonly port: number;
  /** Base URL of the MCP endpoint, e.g. http://127.0.0.1:3001/mcp. */
  readonly url: string;
  readonly deps: McpDeps;
  close(): Promise<void>;
}

/** Serves POST /api/mcp and POST /mcp (GET, DELETE and others: 405 `Allow: POST`; other paths: 404). */
export async function startMcpServer(options: StartOptions = {}): Promise<RunningMcpServer> {
  // Checked before any store is opened: a bad TRUST_PROXY stops the start with its message.
  const given: unknown = options.trustProxy;
  if (given === true) throw new Error(BLANKET_TRUST);
  const trust = given === false ? null : compileTrustProxy(options.trustProxy);
  const ownStore = options.store === undefined;
  const ownAccess = options.access === undefined;
  if (ownStore && options.packsDir === undefined)
    throw new Error("startMcpServer needs a store or a packsDir");
  if (ownAccess && options.accessDb === undefined)
    throw new Error("startMcpServer needs an access store or an accessDb");
  const store = options.store ?? RangeStore.open({ packsDir: options.packsDir! });
  let access: AccessStore;
  try {
    access = options.access ?? (await AccessStore.open(options.accessDb!, { exclusive: true }));
  } catch (error) {
    if (ownStore) store.close();
    throw error;
  }
  const deps: McpDeps = {
    store,
    access,
    trustProxy: trust,
    solves: options.solves,
    hands: options.hands,
    postflop: options.postflop,
  };
  const handle = createMcpHttpHandler(deps);

  const server = createServer((req, res) => {
    for (const name in SECURITY_HEADERS) res.setHeader(name, SECURITY_HEADERS[name]!);
    void (async () => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (!(MCP_PATHS as readonly string[]).includes(path)) {
        sendJson(
          res,
          404,
          errorBody(
            new RangesError(
              "not_found",
              `No route ${clip(path)}: the MCP endpoint is POST /mcp (or /api/mcp).`,
            ),
          ),
        );
        return;
      }
      if (req.method !== "POST") {
        methodNotAllowed(res, req.method);
        return;
      }
      const raw = await readBody(req);
      if (raw === null) {
        sendJson(res, 413, {
          jsonrpc: "2.0",
          error: { code: -32600, message: `Request body larger than ${MAX_BODY_BYTES} bytes.` },
          id: null,
        });
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        sendJson(res, 400, {
          jsonrpc: "2.0",
          error: { code: -32700, message: "Parse error: the body is not JSON." },
          id: null,
        });
        return;
      }
      await handle(req, res, body);
    })().catch(() => {
      sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: "Internal error." }, id: null });
    });
  });

  // Idle keep-alive sockets stay open longer than clients keep them (undici: 4 s), so the client, not the
  // server, closes an idle socket: a request never races the server's close (ECONNRESET under load).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 3001, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host =
    options.host && options.host !== "0.0.0.0" && options.host !== "::" ? options.host : "127.0.0.1";
  let closed = false;
  return {
    server,
    port,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/mcp`,
    deps,
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      });
      if (ownAccess) await access.close();
    },
  };
}
