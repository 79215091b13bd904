/**
 * Error bodies for tool results: the same `{ schemaVersion: 1, error }` shape the API sends, with the text in
 * terms of tool arguments.
 *
 * The errors come from @ranges/core and @ranges/store, which the HTTP API shares, so their messages speak of
 * endpoints and query strings ("call /range with spot=UTG_Open", "send % as %25"). An agent calling tools has
 * neither: `toolWording` rewrites those phrases into tool calls and arguments here, at the MCP boundary, and
 * leaves the API's messages as they are.
 */

import { isRangesError, RangesError } from "@ranges/core";
import type { ErrorBody } from "@ranges/schema";
import { ErrorBodySchema } from "@ranges/schema";
import { clip, type Redactor, redactor } from "./redact.js";

/** The tool that answers what an API endpoint answers. */
export const TOOL_FOR_ENDPOINT: Readonly<Record<string, string>> = {
  node: "get_node",
  range: "get_range",
  spots: "list_spots",
  config: "get_config",
};

/** A value as it would be written in tool arguments: numbers bare, anything else quoted. */
const argValue = (raw: string): string => (/^-?\d+(\.\d+)?$/.test(raw) ? raw : `"${raw}"`);

/** `name=value` as written in a query string; the value ends before whitespace, a comma, `;`, `)` or a final `.`. */
const QUERY_PAIR =
  /\b(history|spot|stack|minFreq|hand|combo|full|limit|cursor|query|detail)=([^\s,;)]+?)(?=[\s,;)]|\.(?:\s|$)|$)/g;

/** Rewrites the HTTP wording of a shared message into tool wording. */
export function toolWording(message: string): string {
  return (
    message
      // "Call /node with history=UTG" -> "Call get_node with history "UTG""
      .replace(
        /\b(call|Call|use|Use) \/(node|range|spots|config)\b/g,
        (_m, verb: string, endpoint: string) => `${verb} ${TOOL_FOR_ENDPOINT[endpoint]}`,
      )
      // "/spots is served for ..." -> "list_spots is served for ..."
      .replace(
        /(^|\s)\/(node|range|spots|config)\b/g,
        (_m, pre: string, endpoint: string) => `${pre}${TOOL_FOR_ENDPOINT[endpoint]}`,
      )
      // "GET /api/v1/ranges/nl lists the live stacks" -> "list_games lists the live stacks"
      .replace(/GET \/api\/v1\/ranges\/\S+ lists the live stacks/g, "list_games lists the live stacks")
      .replace(/GET \/api\/v1\/ranges\/\S+/g, "list_games")
      // Percent-encoding advice: tool arguments are plain JSON strings.
      .replace(/ \(sent as \d+(?:\.\d+)?%25\)/g, "")
      .replace(/, with "\(" and "\)" sent as %28 and %29,/g, ",")
      .replace(/ \(nl\/v2 is two path segments\)/g, "")
      .replace(
        /[Tt]he (\w+) parameter has an unencoded "%" at character (\d+): send "%" as "%25" \(e\.g\. 60%25\), "\(" as "%28" and "\)" as "%29"\./g,
        'The $1 argument has a "%" at character $2 that is not part of a percent raise token such as 60%.',
      )
      // The API's dense mode is the tools' detail "full".
      .replace(/\bfull=1\b/g, 'detail "full"')
      // "e.g. stack=100" -> "e.g. stack 100"; "spot=UTG_Open" -> "spot "UTG_Open""
      .replace(QUERY_PAIR, (_m, name: string, value: string) => `${name} ${argValue(value)}`)
      .replace(/\bquery parameters?\b/g, "arguments")
      .replace(/\bparameters\b/g, "arguments")
      .replace(/\bparameter\b/g, "argument")
  );
}

/** Hint fields that are the service's own valid data, however long, and are kept whole (as in the API). */
const KEPT_HINTS = new Set(["suggestedTool", "suggestedPath", "nextToAct"]);

/**
 * Hint entries in tool terms (`suggestedEndpoint: "range"` becomes `suggestedTool: "get_range"`); other
 * strings are redacted and cut like the message, since they may repeat input (`token`).
 */
function toolHint(hint: Record<string, unknown>, redact: Redactor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(hint)) {
    if (key === "suggestedEndpoint" && typeof value === "string") {
      out.suggestedTool = TOOL_FOR_ENDPOINT[value] ?? value;
    } else if (typeof value === "string" && !KEPT_HINTS.has(key)) {
      out[key] = clip(redact(value));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * Builds the error body for any thrown value; unknown errors become a 500 without internals. `redact` (see
 * redact.ts; made from the call's arguments and the packs directory) cuts repeated input to 40 characters and
 * writes server paths relative; without it, quoted spans are cut and process directories removed.
 */
export function errorBody(error: unknown, redact: Redactor = redactor()): ErrorBody {
  if (isRangesError(error)) {
    const { validPrefix, validActions, stacks, ...rest } = error.hint ?? {};
    const hint = toolHint(rest, redact);
    const body: ErrorBody = {
      schemaVersion: 1,
      error: { status: error.status, code: error.code, message: redact(toolWording(error.message)) },
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
  new RangesError("missing_parameter", `The ${name} argument is required: ${what}.`);
