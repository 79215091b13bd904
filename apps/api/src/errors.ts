/** Maps anything thrown to the one error body of the service: `{ schemaVersion: 1, error: {...} }`. */

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
}

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string");
const isNumberArray = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((x) => typeof x === "number");

export function errorPayload(err: RangesError): ErrorPayload {
  const payload: ErrorPayload = { status: err.status, code: err.code, message: err.message };
  const hint = err.hint;
  if (hint && Object.keys(hint).length > 0) {
    payload.hint = hint;
    // The fields a client most often needs are copied to the top level of `error`.
    if (typeof hint.validPrefix === "string") payload.validPrefix = hint.validPrefix;
    if (isStringArray(hint.validActions)) payload.validActions = hint.validActions;
    if (isNumberArray(hint.stacks)) payload.stacks = hint.stacks;
  }
  return payload;
}

export const errorBody = (err: RangesError): string =>
  JSON.stringify({ schemaVersion: 1, error: errorPayload(err) });

/** Statuses from framework errors (http-errors) that describe the request, and their codes. */
const CLIENT_CODES: Record<number, RangesErrorCode> = {
  400: "invalid_parameter",
  401: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
};

export function mapError(err: unknown): MappedError {
  if (isRangesError(err)) {
    return {
      status: err.status,
      code: err.code,
      body: errorBody(err),
      internal: err.code === "internal_error",
    };
  }
  const status = (err as { status?: unknown } | null)?.status;
  const expose = (err as { expose?: unknown } | null)?.expose === true;
  if (typeof status === "number" && expose && CLIENT_CODES[status]) {
    const e = new RangesError(CLIENT_CODES[status], String((err as Error).message || "Bad request."));
    return { status: e.status, code: e.code, body: errorBody(e), internal: false };
  }
  const e = new RangesError(
    "internal_error",
    "The service failed to answer this request. It has been logged; retry later or report the X-Request-Id.",
  );
  return { status: 500, code: e.code, body: errorBody(e), internal: true };
}
