/**
 * The HTTP side: a handler for `POST /api/mcp` (stateless streamable HTTP, a fresh McpServer and transport
 * per request, since the SDK refuses to reuse a stateless transport) and a standalone node:http server.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { AccessStore } from "@ranges/access";
import { RangesError } from "@ranges/core";
import { RangeStore } from "@ranges/store";
import type { Caller, McpDeps } from "./context.js";
import { errorBody } from "./errors.js";
import { createMcpServer } from "./server.js";

/** Largest JSON-RPC body the standalone server reads. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The client IP: the socket's, or with `trustProxy` the first `X-Forwarded-For` entry. */
export function clientIp(req: IncomingMessage, trustProxy = false): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? "unknown";
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
    `${method ?? "This method"} is not allowed here: the MCP endpoint is stateless streamable HTTP and takes JSON-RPC messages by POST only (no SSE stream, no sessions).`,
  );
  sendJson(res, 405, errorBody(error), { Allow: "POST" });
}

const PARSE_ERROR = "Parse error: the request body is empty or not JSON. Send a JSON-RPC message.";

/**
 * The handler the API mounts at `POST /api/mcp` (and the standalone server at `/api/mcp` and `/mcp`).
 * `body` is the parsed JSON-RPC body, read by the caller; `undefined` (empty or not JSON) is answered with a
 * JSON-RPC parse error (400). Never rejects: failures become a JSON-RPC error response.
 */
export function createMcpHttpHandler(
  deps: McpDeps,
): (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void> {
  return async (req, res, body) => {
    if (req.method !== "POST") {
      methodNotAllowed(res, req.method);
      return;
    }
    if (body === undefined) {
      // The caller has read the request stream; an absent body means it was empty or not JSON.
      sendJson(res, 400, { jsonrpc: "2.0", error: { code: -32700, message: PARSE_ERROR }, id: null });
      return;
    }
    const authorization = req.headers.authorization;
    const caller: Caller = {
      ip: clientIp(req, deps.trustProxy ?? false),
      ...(typeof authorization === "string" && authorization.trim() !== "" ? { authorization } : {}),
    };
    const server = createMcpServer(deps, caller);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
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
  readonly trustProxy?: boolean;
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
  const ownStore = options.store === undefined;
  const ownAccess = options.access === undefined;
  if (ownStore && options.packsDir === undefined)
    throw new Error("startMcpServer needs a store or a packsDir");
  if (ownAccess && options.accessDb === undefined)
    throw new Error("startMcpServer needs an access store or an accessDb");
  const store = options.store ?? RangeStore.open({ packsDir: options.packsDir! });
  const access = options.access ?? AccessStore.open(options.accessDb!);
  const deps: McpDeps = { store, access, trustProxy: options.trustProxy ?? false };
  const handle = createMcpHttpHandler(deps);

  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (!(MCP_PATHS as readonly string[]).includes(path)) {
        sendJson(
          res,
          404,
          errorBody(
            new RangesError("not_found", `No route ${path}: the MCP endpoint is POST /mcp (or /api/mcp).`),
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
      if (ownAccess) access.close();
    },
  };
}
