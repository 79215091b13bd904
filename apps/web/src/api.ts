/**
 * The JSON API as the site calls it: same origin, `/api/v1/...`. Every failure becomes an `ApiError` that
 * carries the service's error body (`{ schemaVersion, error: { status, code, message, ... } }`), so pages
 * show the API's own actionable message.
 */

import type { Catalog, ErrorBody, Node } from "@ranges/schema";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: ErrorBody["error"] | null;
  constructor(status: number, code: string, message: string, body: ErrorBody["error"] | null = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export interface RequestOptions {
  method?: string;
  /** A JSON body (sent with Content-Type: application/json). */
  json?: unknown;
  /** An API key, sent as `Authorization: Bearer <key>`. */
  apiKey?: string | null;
  /** The account area's CSRF token, sent as `X-CSRF-Token` on state-changing calls. */
  csrf?: string | null;
  signal?: AbortSignal;
}

/** Calls the API; resolves the parsed JSON body (undefined for 204) or rejects with an `ApiError`. */
export async function api<T>(path: string, o: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (o.json !== undefined) headers["Content-Type"] = "application/json";
  if (o.apiKey) headers.Authorization = `Bearer ${o.apiKey}`;
  if (o.csrf) headers["X-CSRF-Token"] = o.csrf;
  let res: Response;
  try {
    res = await fetch(path, {
      method: o.method ?? "GET",
      headers,
      credentials: "same-origin",
      ...(o.json !== undefined ? { body: JSON.stringify(o.json) } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError(0, "network", "The service could not be reached. Check the connection and retry.");
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const err = (body as ErrorBody | undefined)?.error;
    if (err && typeof err.message === "string") throw new ApiError(res.status, err.code, err.message, err);
    throw new ApiError(res.status, "http_error", `The service answered ${res.status} ${res.statusText}.`);
  }
  return body as T;
}

/** `/api/v1/ranges/{game}` prefix; `nl/v2` stays two segments. */
export const gamePath = (game: string): string => `/api/v1/ranges/${game}`;

export const fetchCatalog = (signal?: AbortSignal): Promise<Catalog> =>
  api<Catalog>("/api/v1/ranges/games", signal ? { signal } : {});

export function fetchNode(
  game: string,
  stack: number,
  history: string,
  apiKey: string | null,
  signal?: AbortSignal,
): Promise<Node> {
  const q = new URLSearchParams({ stack: String(stack), history });
  return api<Node>(`${gamePath(game)}/node?${q}`, { apiKey, ...(signal ? { signal } : {}) });
}
