/**
 * What the app is built from (`AppOptions`) and the types its modules share: the request state, the log
 * line, the MCP handler and the solve service. No module here imports the app.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { AccessStore } from "@ranges/access";
import type { HandUploads } from "@ranges/hand-analysis";
import type { PostflopSource } from "@ranges/mcp";
import type { SolutionPacks, SolveQueue, SolveWorker } from "@ranges/queue";
import type { RangeStore } from "@ranges/store";
import type Koa from "koa";
import type { HttpLimits } from "./http-server.js";
import type { OAuthServer } from "./oauth.js";

export type McpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  signedIn?: { keyId: string },
) => Promise<void>;

/** One structured line per request (and one per internal error). */
export interface LogLine {
  time: string;
  level: "info" | "warn" | "error";
  requestId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  ip: string;
  via?: string | undefined;
  code?: string | undefined;
  err?: string | undefined;
}

/** The solve queue as the API serves it: the records, the finished packs, and the in-process worker. */
export interface SolveService {
  readonly queue: SolveQueue;
  readonly solutions: SolutionPacks;
  /** Woken after an enqueue so a queued job starts at once. */
  readonly worker?: SolveWorker | undefined;
}

export interface AppOptions {
  store: RangeStore;
  access: AccessStore;
  /**
   * The reverse proxies whose `X-Forwarded-For` is believed (TRUST_PROXY): addresses, CIDR ranges and the
   * names loopback, linklocal, uniquelocal, as a list or one comma-separated string. Only a request whose
   * direct peer is listed has its client address taken from the header, walking it from the right past
   * listed hops. Unset: the peer address is the client. Invalid entries throw.
   */
  trustProxy?: string | readonly string[];
  /** Header and request timeouts and the header size limit of the server `listen` creates. */
  http?: HttpLimits;
  /** Receives one object per request; defaults to JSON lines on stdout. */
  logger?: (line: LogLine) => void;
  /** Mounted at POST /api/mcp with the parsed JSON body (undefined when absent or not JSON). */
  mcpHandler?: McpHandler;
  /** The solve queue (`/api/v1/solves`); absent, those routes answer 404. */
  solves?: SolveService;
  /** Hand-history uploads (`POST /api/v1/uploads/{token}`, links made by get_upload_link); absent: 404. */
  hands?: HandUploads;
  /** The heads-up postflop packs (`/api/v1/postflop/...`); absent: no postflop pack is listed. */
  postflop?: PostflopSource;
  /** The built web site (apps/web's dist/) served at `/`; absent, only the API answers. */
  webRoot?: string;
  /**
   * The site's public URL (PUBLIC_URL, e.g. https://ranges.example): the one origin the account area takes
   * changes from, and https makes its session cookie Secure. Unset: the request's own origin, plain http.
   */
  publicUrl?: string;
  /**
   * OAuth for MCP clients (`createOAuthServer`): the authorization server under /oauth/, the metadata
   * documents, access tokens on POST /api/mcp, and a 401 challenge when a paid tool is called keyless.
   */
  oauth?: OAuthServer;
  /**
   * Accounts one client address (IPv6: one /64) may create per UTC day (SIGNUP_DAILY_LIMIT; default 10):
   * the next sign-up is a 429 with Retry-After until 00:00 UTC.
   */
  signUpDailyLimit?: number;
}

/** What a request carries between middleware. */
export interface RequestState {
  via?: string;
  code?: string;
  /** Who the call is counted to: `key:<id>` or `ip:<address>` (the turn and river solver's per-caller share). */
  caller?: string;
}

export type Ctx = Koa.ParameterizedContext<RequestState>;

export const JSON_TYPE = "application/json; charset=utf-8";
