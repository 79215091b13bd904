/**
 * The node:http server around the Koa app: explicit size limits and timeouts, and answers for what never
 * reaches Koa — requests Node's HTTP parser rejects, requests that time out, CONNECT — with the same error
 * body and the same headers (CORS, X-Request-Id, nosniff, Referrer-Policy) as every other error, no body on
 * HEAD, and the connection closed after the answer.
 */

import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Duplex } from "node:stream";
import { RangesError } from "@ranges/core";
import { clip } from "./errors.js";

export interface HttpLimits {
  /** Time to receive a request's line and headers (default 10 s). */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included (default 30 s). */
  requestTimeoutMs?: number;
  /** How often the two timeouts are checked (default 1 s; Node's own default is 30 s). */
  timeoutCheckMs?: number;
  /** Idle time a kept-alive connection waits for its next request (default 5 s). */
  keepAliveTimeoutMs?: number;
  /** Request line plus headers, in bytes (default 16 KiB): more is a 431, or a 414 for a long URL. */
  maxHeaderBytes?: number;
}

/** The longest URL (path and query) served: a longer one is a 414 whether or not it fits the header limit. */
export const URL_LIMIT = 8 * 1024;

const DEFAULTS: Required<HttpLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  timeoutCheckMs: 1_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
};

/** Headers on every response, errors included. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/** Response headers browsers may read cross-origin. */
export const EXPOSED_HEADERS = [
  "ETag",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Retry-After",
  "X-Request-Id",
  "WWW-Authenticate",
] as const;

export interface Refused {
  requestId: string;
  method: string;
  path: string;
  status: number;
  code: string;
  ip: string;
  err: string;
}

export interface ServerHooks {
  /** Whether the body of this request will be read: only then is `Expect: 100-continue` answered. */
  readsBody: (req: IncomingMessage) => boolean;
  /** The id of a request answered here: a sane incoming `X-Request-Id`, else a new one. */
  requestId: (incoming: string | undefined) => string;
  /** `Allow` for a 405 at this request target. */
  allowAt: (target: string) => string;
  /** The client address, from the peer and (when it is a trusted proxy) `X-Forwarded-For`. */
  clientIp: (peer: string | undefined, headers: IncomingHttpHeaders | undefined) => string;
  /** The error body of an error (the app's one error mapping). */
  body: (error: RangesError) => string;
  /** One log line per request answered here. */
  log: (refused: Refused) => void;
}

export function createHttpServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  hooks: ServerHooks,
  limits: HttpLimits = {},
): Server {
  const l = { ...DEFAULTS, ...limits };
  const server = createServer(
    {
      maxHeaderSize: l.maxHeaderBytes,
      headersTimeout: l.headersTimeoutMs,
      requestTimeout: l.requestTimeoutMs,
      connectionsCheckingInterval: l.timeoutCheckMs,
      // A missing Host is answered by the app, with the error body, instead of Node's bare 400.
      requireHostHeader: false,
    },
    handler,
  );
  server.keepAliveTimeout = l.keepAliveTimeoutMs;

  // Node answers `Expect: 100-continue` itself unless told otherwise; a body that will be refused is not
  // invited: the answer comes at once and the connection is closed.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    if (hooks.readsBody(req)) res.writeContinue();
    handler(req, res);
  });

  // Any other expectation (`Expect: 200-ok`) cannot be met: 417 with the error body, instead of Node's bare 417.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    const incoming = req.headers["x-request-id"];
    const requestId = hooks.requestId(typeof incoming === "string" ? incoming : undefined);
    const expect = clip(String(req.headers.expect ?? ""));
    const error = new RangesError(
      "bad_request",
      `This server meets no expectation but "100-continue" (the request's Expect header says "${expect}"): send the request without it.`,
    );
    const body = hooks.body(error);
    res.writeHead(417, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-store",
      "X-Request-Id": requestId,
      "Access-Control-Allow-Origin": "*",
      ...SECURITY_HEADERS,
      Connection: "close",
    });
    res.end(req.method === "HEAD" ? "" : body);
    hooks.log({
      requestId,
      method: req.method ?? "-",
      path: clip((req.url ?? "").split("?")[0] ?? ""),
      status: 417,
      code: error.code,
      ip: hooks.clientIp(req.socket.remoteAddress, req.headers),
      err: "unmet expectation",
    });
  });

  server.on("clientError", (err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    // A response already under way (a request that timed out while its answer was written) is cut off.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
    if (inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const start = requestStart(err.rawPacket);
    const req = inFlight?.req;
    const method = req?.method ?? start.method;
    const target = req?.url ?? start.target;
    const incomingId = inFlight?.getHeader("x-request-id") ?? req?.headers["x-request-id"];
    refuse(socket, {
      error: parserError(err.code ?? "", start, l),
      method,
      target,
      requestId: hooks.requestId(typeof incomingId === "string" ? incomingId : undefined),
      headers: req?.headers,
      allow: err.code === "HPE_INVALID_METHOD" ? hooks.allowAt(target) : undefined,
      cause: err.code ?? err.message,
    });
  });

  // CONNECT is for proxies: without this it would be dropped with no answer at all.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    const incoming = req.headers["x-request-id"];
    refuse(socket, {
      error: new RangesError(
        "method_not_allowed",
        "CONNECT is not supported: this is an API, not a proxy. It answers GET and HEAD (POST on /api/mcp).",
      ),
      method: "CONNECT",
      target: req.url ?? "",
      requestId: hooks.requestId(typeof incoming === "string" ? incoming : undefined),
      headers: req.headers,
      allow: "GET, HEAD, OPTIONS",
      cause: "CONNECT",
    });
  });

  function refuse(
    socket: Duplex,
    r: {
      error: RangesError;
      method: string;
      target: string;
      requestId: string;
      headers: IncomingHttpHeaders | undefined;
      allow: string | undefined;
      cause: string;
    },
  ): void {
    const body = hooks.body(r.error);
    const head = [
      `HTTP/1.1 ${r.error.status} ${STATUS_CODES[r.error.status] ?? "Error"}`,
      "Content-Type: application/json; charset=utf-8",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Cache-Control: no-store",
      `X-Request-Id: ${r.requestId}`,
      "Access-Control-Allow-Origin: *",
      `Access-Control-Expose-Headers: ${EXPOSED_HEADERS.join(",")}`,
      ...Object.entries(SECURITY_HEADERS).map(([k, v]) => `${k}: ${v}`),
      ...(r.allow ? [`Allow: ${r.allow}`] : []),
      "Connection: close",
    ].join("\r\n");
    // Answer, then close: whatever else the client sends is not read.
    const destroy = setTimeout(() => socket.destroy(), 5_000);
    destroy.unref();
    socket.end(`${head}\r\n\r\n${r.method === "HEAD" ? "" : body}`, () => {
      clearTimeout(destroy);
      socket.destroy();
    });
    const peer = (socket as Duplex & { remoteAddress?: string }).remoteAddress;
    hooks.log({
      requestId: r.requestId,
      method: r.method,
      path: clip(r.target.split("?")[0] ?? ""),
      status: r.error.status,
      code: r.error.code,
      ip: hooks.clientIp(peer, r.headers),
      err: r.cause,
    });
  }

  return server;
}

interface RequestStart {
  /** The method token, or "-" when the packet does not start with one. */
  method: string;
  target: string;
  /** Whether the packet starts a request line: a method token and a space. */
  isStart: boolean;
  /** Length of the first line (to the first CRLF, or the whole packet when there is none). */
  lineLength: number;
  /** Whether the first line ends in an HTTP version. */
  lineComplete: boolean;
  /** Whether the first line is a whole request line: method, target, version. */
  requestLine: boolean;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32} /;
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/\d\.\d$/;

/** What the bytes the parser failed on say about the request (the packet usually starts the request). */
function requestStart(raw: Buffer | undefined): RequestStart {
  if (!raw || raw.length === 0) {
    return {
      method: "-",
      target: "",
      isStart: false,
      lineLength: 0,
      lineComplete: false,
      requestLine: false,
    };
  }
  const text = raw.subarray(0, 64 * 1024).toString("latin1");
  const eol = text.indexOf("\r\n");
  const line = eol < 0 ? text : text.slice(0, eol);
  const isStart = TOKEN.test(line);
  const space = line.indexOf(" ");
  const method = isStart ? line.slice(0, space) : "-";
  const target = isStart ? (line.slice(space + 1).split(" ")[0] ?? "") : "";
  return {
    method,
    target,
    isStart,
    lineLength: line.length,
    lineComplete: / HTTP\/\d\.\d$/.test(line),
    requestLine: REQUEST_LINE.test(line),
  };
}

const FRAMING = new Set([
  "HPE_INVALID_TRANSFER_ENCODING",
  "HPE_UNEXPECTED_CONTENT_LENGTH",
  "HPE_INVALID_CONTENT_LENGTH",
  "HPE_INVALID_CHUNK_SIZE",
]);

/** The error for a request the parser rejected (or that timed out), by Node's error code. */
function parserError(code: string, start: RequestStart, l: Required<HttpLimits>): RangesError {
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return new RangesError(
      "request_timeout",
      `The request was not received in time: its headers are due within ${l.headersTimeoutMs / 1000} s and the whole request within ${l.requestTimeoutMs / 1000} s. Send each request in one go.`,
    );
  }
  if (code === "HPE_HEADER_OVERFLOW") {
    // The request line is long when it is cut off in this packet, or runs past the URL limit, or (packet
    // seen mid-line) ends here in its HTTP version.
    const longUrl = start.isStart ? !start.lineComplete || start.lineLength > URL_LIMIT : start.lineComplete;
    return longUrl
      ? new RangesError(
          "uri_too_long",
          `The URL is longer than ${URL_LIMIT} bytes; no request to this API needs that much.`,
          { limit: URL_LIMIT },
        )
      : new RangesError(
          "headers_too_large",
          `The request line and headers together are larger than ${l.maxHeaderBytes} bytes; send fewer or shorter headers.`,
          { limit: l.maxHeaderBytes },
        );
  }
  if (code === "HPE_INVALID_METHOD" && start.requestLine) {
    return new RangesError(
      "method_not_allowed",
      `${clip(start.method, 32)} is not a method this API answers: it answers GET and HEAD (POST on /api/mcp).`,
    );
  }
  if (code === "HPE_INVALID_URL") {
    return new RangesError(
      "invalid_parameter",
      "The URL holds bytes HTTP does not allow: percent-encode every byte outside printable ASCII in the URL.",
    );
  }
  if (code === "HPE_CHUNK_EXTENSIONS_OVERFLOW") {
    return new RangesError("payload_too_large", "The chunk extensions of the request body are too large.");
  }
  if (FRAMING.has(code)) {
    return new RangesError(
      "bad_request",
      `The request body's framing is not valid (${code}): send either Content-Length or Transfer-Encoding: chunked, never both.`,
    );
  }
  if (code.startsWith("HPE_INVALID_HEADER") || code === "HPE_LF_EXPECTED" || code === "HPE_CR_EXPECTED") {
    return new RangesError(
      "bad_request",
      `A header is not valid HTTP (${code}): header names are tokens, and values hold no control characters.`,
    );
  }
  return new RangesError(
    "bad_request",
    `The request is not valid HTTP/1.1 (${clip(code, 40) || "parse error"}): send a request line such as GET /api/v1/ranges/games HTTP/1.1, then the headers.`,
  );
}
