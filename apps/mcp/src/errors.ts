/** Error bodies for tool results: the same `{ schemaVersion: 1, error }` shape the API sends. */

import { isRangesError, RangesError } from "@ranges/core";
import type { ErrorBody } from "@ranges/schema";
import { ErrorBodySchema } from "@ranges/schema";

/** Builds the error body for any thrown value; unknown errors become a 500 without internals. */
export function errorBody(error: unknown): ErrorBody {
  if (isRangesError(error)) {
    const { validPrefix, validActions, stacks, ...rest } = error.hint ?? {};
    const hint: Record<string, unknown> = { ...rest };
    const body: ErrorBody = {
      schemaVersion: 1,
      error: { status: error.status, code: error.code, message: error.message },
    };
    if (Object.keys(hint).length > 0) body.error.hint = hint;
    if (typeof validPrefix === "string") body.error.validPrefix = validPrefix;
    if (Array.isArray(validActions)) body.error.validActions = validActions.map(String);
    if (Array.isArray(stacks)) body.error.stacks = stacks.map(Number);
    return ErrorBodySchema.parse(body);
  }
  return {
    schemaVersion: 1,
    error: {
      status: 500,
      code: "internal_error",
      message: "The tool failed unexpectedly. The request may be retried; if it keeps failing, report it.",
    },
  };
}

/** A 400 `invalid_parameter` error. */
export const invalidParameter = (message: string, hint?: Record<string, unknown>): RangesError =>
  new RangesError("invalid_parameter", message, hint);

/** A 400 `missing_parameter` error. */
export const missingParameter = (name: string, what: string): RangesError =>
  new RangesError("missing_parameter", `The ${name} parameter is required: ${what}.`);
