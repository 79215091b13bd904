/**
 * One error type for the whole service. `status` is the HTTP status, `code` a stable machine name, `message`
 * a sentence that tells the caller how to fix the request, `hint` structured data for the fix.
 */

export type RangesErrorCode =
  // 400: the request cannot be valid for this game.
  | "malformed_path"
  | "invalid_token"
  | "invalid_parameter"
  | "missing_parameter"
  | "invalid_hand"
  // 401, 403, 429, 405: access and method.
  | "unauthorized"
  | "forbidden"
  | "rate_limited"
  | "method_not_allowed"
  // 404: well formed, but not held.
  | "missing_folds"
  | "action_not_available"
  | "node_not_found"
  | "unknown_stack"
  | "unknown_game"
  | "not_found"
  // 400, 408, 413, 414, 415, 431: the HTTP message itself (not its parameters) cannot be served.
  | "bad_request"
  | "request_timeout"
  | "payload_too_large"
  | "unsupported_media_type"
  | "uri_too_long"
  | "headers_too_large"
  // 503: a pack that exists but cannot be read.
  | "pack_unavailable"
  // 500: a fault of the service, never of the input.
  | "internal_error";

export interface RangesErrorHint {
  /** The longest prefix of the requested path that the tree holds. */
  validPrefix?: string;
  /** Actions available at `validPrefix`. */
  validActions?: string[];
  /** Stacks that exist for the game. */
  stacks?: number[];
  /** Anything else that helps, e.g. the folds to write out. */
  [key: string]: unknown;
}

const STATUS: Record<RangesErrorCode, number> = {
  malformed_path: 400,
  invalid_token: 400,
  invalid_parameter: 400,
  missing_parameter: 400,
  invalid_hand: 400,
  unauthorized: 401,
  forbidden: 403,
  rate_limited: 429,
  method_not_allowed: 405,
  missing_folds: 404,
  action_not_available: 404,
  node_not_found: 404,
  unknown_stack: 404,
  unknown_game: 404,
  not_found: 404,
  bad_request: 400,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  uri_too_long: 414,
  headers_too_large: 431,
  pack_unavailable: 503,
  internal_error: 500,
};

/**
 * Marks every `RangesError`, so `isRangesError` also recognizes one made by another copy of this package
 * (the ESM and the CommonJS build loaded side by side, or two installed versions).
 */
const BRAND = Symbol.for("@ranges/core.RangesError");

export class RangesError extends Error {
  readonly code: RangesErrorCode;
  readonly status: number;
  readonly hint: RangesErrorHint | undefined;

  constructor(code: RangesErrorCode, message: string, hint?: RangesErrorHint) {
    super(message);
    this.name = "RangesError";
    this.code = code;
    this.status = STATUS[code];
    this.hint = hint;
  }
}
Object.defineProperty(RangesError.prototype, BRAND, { value: true });

/** True for a `RangesError`, including one thrown by another copy of this package (ESM next to CommonJS). */
export function isRangesError(value: unknown): value is RangesError {
  return (
    value instanceof RangesError ||
    (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true)
  );
}

/** The HTTP status for an error code. */
export const statusOf = (code: RangesErrorCode): number => STATUS[code];

/** Every error code, in declaration order (the OpenAPI document lists them as an enum). */
export const RANGES_ERROR_CODES: readonly RangesErrorCode[] = Object.freeze(
  Object.keys(STATUS) as RangesErrorCode[],
);
