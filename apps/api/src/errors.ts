/** Maps anything thrown to the one error body of the service: `{ schemaVersion: 1, error: {...} }`. */

import { homedir, tmpdir } from "node:os";
import { basename, resolve } from "node:path";
import { isRangesError, RangesError, type RangesErrorCode } from "@ranges/core";

export interface ErrorPayload {
  status: number;
  code: string;
  message: string;
  hint?: Record<string, unknown>;
  validPrefix?: string;
  validActions?: string[];
  stacks?: number[];
}

export interface MappedError {
  status: number;
  code: string;
  body: string;
  /** True when the error is the service's fault (logged with its stack). */
  internal: boolean;
  /** Seconds after which a retry may succeed (`Retry-After`), for a service that is briefly unavailable. */
  retryAfterSeconds?: number;
}

/** Error codes of a database that cannot be reached: socket errors and PostgreSQL's connection classes. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  "SQLITE_CANTOPEN",
  "SQLITE_IOERR",
]);
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|database is locked|the database system is (shutting down|starting up)/i;

/**
 * Whether an error says the account database is out of reach (down, restarting, full, locked), as opposed to
 * a fault of this service: looked for in the error, its `cause` and the errors of an AggregateError.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== "object" || depth > 3) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && (UNREACHABLE_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) {
    return true;
  }
  if (typeof e.message === "string" && UNREACHABLE_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * What an error body may not show. Request input is echoed as at most `ECHO_LIMIT` characters, and server
 * file paths not at all: `inputs` are the strings of the request (its path, query names and values), whose
 * long occurrences are cut wherever they appear; `roots` are directories whose paths are written relative
 * (the packs directory: a pack is named by its file, `nlmtt8/20.pack`, never by its absolute path).
 */
export interface Redaction {
  inputs?: readonly string[];
  roots?: readonly string[];
}

/** The most characters of request input an error message repeats. */
export const ECHO_LIMIT = 40;

/** `text` cut to `max` characters plus an ellipsis (never splitting a surrogate pair). */
export function clip(text: string, max = ECHO_LIMIT): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return `${text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)}…`;
}

/** Directories written relative in every error: the working directory, home and the temp directory. */
const PROCESS_ROOTS = [process.cwd(), homedir(), tmpdir()];

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function withoutRoots(text: string, roots: readonly string[]): string {
  let out = text;
  for (const root of roots) {
    if (root.length <= 1 || !out.includes(root)) continue;
    out = out.replace(new RegExp(`${escapeRegExp(root)}(/|(?=['"\\s),:;]|$))`, "g"), (_, slash: string) =>
      slash === "/" ? "" : ".",
    );
  }
  // Anything left in the shape of a system error's path ("open '/srv/x/20.pack'"): its file name only.
  return out.replace(/'\/[^'\s]*'/g, (quoted) => `'${basename(quoted.slice(1, -1))}'`);
}

/** Long quoted spans (the usual echo of input: `"<value>" is not a ...`) cut to `ECHO_LIMIT`. */
const clipQuoted = (text: string): string =>
  // Every quoted span is matched (short ones kept as they are), so a closing quote never opens the next span.
  text.replace(/"([^"]*)"/g, (whole, inner: string) => (inner.length > 40 ? `"${clip(inner)}"` : whole));

function sanitize(text: string, inputs: readonly string[], roots: readonly string[]): string {
  let out = clipQuoted(text);
  // Input that holds quotes itself escapes the quote rule; every long input string is cut wherever it is.
  for (const input of inputs) {
    if (input.length > ECHO_LIMIT && out.includes(input)) out = out.split(input).join(clip(input));
  }
  return withoutRoots(out, roots);
}

/** Hint fields that are the service's own valid data, however long, and are kept whole. */
const KEPT_HINTS = new Set(["validPrefix", "suggestedPath", "nextToAct", "validActions", "stacks"]);

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string");
const isNumberArray = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((x) => typeof x === "number");

/** Long inputs first, so a value is cut before a shorter string inside it is looked for. */
function prepare(r: Redaction): { inputs: string[]; roots: string[] } {
  const inputs = [...new Set(r.inputs ?? [])].filter((s) => s.length > ECHO_LIMIT);
  inputs.sort((a, b) => b.length - a.length);
  const roots = [...new Set([...(r.roots ?? []).map((p) => resolve(p)), ...PROCESS_ROOTS])];
  roots.sort((a, b) => b.length - a.length);
  return { inputs, roots };
}

export function errorPayload(err: RangesError, redaction: Redaction = {}): ErrorPayload {
  const { inputs, roots } = prepare(redaction);
  const payload: ErrorPayload = {
    status: err.status,
    code: err.code,
    message: sanitize(err.message, inputs, roots),
  };
  const hint = err.hint;
  if (hint && Object.keys(hint).length > 0) {
    const safe: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(hint)) {
      if (typeof value === "string" && !KEPT_HINTS.has(key)) {
        safe[key] = clip(sanitize(value, inputs, roots));
      } else {
        safe[key] = value;
      }
    }
    payload.hint = safe;
    // The fields a client most often needs are copied to the top level of `error`.
    if (typeof safe.validPrefix === "string") payload.validPrefix = safe.validPrefix;
    if (isStringArray(safe.validActions)) payload.validActions = safe.validActions;
    if (isNumberArray(safe.stacks)) payload.stacks = safe.stacks;
  }
  return payload;
}

export const errorBody = (err: RangesError, redaction?: Redaction): string =>
  JSON.stringify({ schemaVersion: 1, error: errorPayload(err, redaction) });

/** Statuses from framework errors (http-errors) that describe the request, and their codes. */
const CLIENT_CODES: Record<number, RangesErrorCode> = {
  400: "invalid_parameter",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
};

export function mapError(err: unknown, redaction?: Redaction): MappedError {
  if (isRangesError(err)) {
    return {
      status: err.status,
      code: err.code,
      body: errorBody(err, redaction),
      internal: err.code === "internal_error",
    };
  }
  const status = (err as { status?: unknown } | null)?.status;
  const expose = (err as { expose?: unknown } | null)?.expose === true;
  if (typeof status === "number" && expose && CLIENT_CODES[status]) {
    const e = new RangesError(CLIENT_CODES[status], String((err as Error).message || "Bad request."));
    return { status: e.status, code: e.code, body: errorBody(e, redaction), internal: false };
  }
  if (isDatabaseUnavailable(err)) {
    const body = JSON.stringify({
      schemaVersion: 1,
      error: {
        status: 503,
        code: "service_unavailable",
        message:
          "The account database is unavailable for the moment (keys, meters and your records live there); retry in a few seconds.",
        hint: { retryAfterSeconds: 5 },
      },
    });
    return { status: 503, code: "service_unavailable", body, internal: true, retryAfterSeconds: 5 };
  }
  const e = new RangesError(
    "internal_error",
    "The service failed to answer this request. It has been logged; retry later or report the X-Request-Id.",
  );
  return { status: 500, code: e.code, body: errorBody(e), internal: true };
}
