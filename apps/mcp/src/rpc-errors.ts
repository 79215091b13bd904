/**
 * JSON-RPC errors for malformed request parameters. The SDK checks a request's `params` against its method's
 * schema before any handler runs, and answers a mismatch with -32603 "internal error" whose message is zod's
 * issue list as JSON. That is the caller's mistake, not the server's: it is answered here with -32602
 * (invalid params) and one readable sentence per problem, naming the parameter.
 */

import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

const INTERNAL_ERROR = -32603;
export const INVALID_PARAMS = -32602;

interface Issue {
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly expected?: unknown;
}

const isIssue = (x: unknown): x is Issue =>
  typeof x === "object" &&
  x !== null &&
  Array.isArray((x as Issue).path) &&
  typeof (x as Issue).message === "string";

/** zod's issues when `text` is its JSON dump of them; null for any other text. */
function issuesOf(text: string): Issue[] | null {
  if (!text.startsWith("[")) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isIssue) ? parsed : null;
  } catch {
    return null;
  }
}

/** `params.arguments`, `params.name`, `params.clientInfo.version`: the path as a caller writes it. */
const pathOf = (path: readonly (string | number)[]): string =>
  path.length === 0
    ? "the request"
    : path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");

const article = (type: string): string => `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;

/** One issue in words: the parameter, then what it must be. */
function sentence(issue: Issue): string {
  const where = pathOf(issue.path);
  const typed = /^Invalid input: expected (\w+), received (\w+)/.exec(issue.message);
  if (typed) {
    const expected = typed[1] === "record" ? "object" : typed[1]!;
    return typed[2] === "undefined"
      ? `${where} is required (${article(expected)})`
      : `${where} must be ${article(expected)}, not ${article(typed[2]!)}`;
  }
  return `${where}: ${issue.message.replace(/^Invalid input: /, "")}`;
}

/** The readable message for zod's issues of a request's params. */
export function invalidParamsMessage(method: string | undefined, issues: readonly Issue[]): string {
  const shown = issues.slice(0, 5).map(sentence);
  const more = issues.length > shown.length ? ` (and ${issues.length - shown.length} more)` : "";
  const where = method === undefined ? "the request" : `${method}`;
  const hint =
    method === "tools/call"
      ? ' A tools/call takes params {"name": "<tool>", "arguments": {...}} with the arguments as a JSON object.'
      : "";
  return `Invalid params for ${where}: ${shown.join("; ")}${more}.${hint}`;
}

/**
 * The message with an SDK params-check failure rewritten as -32602 and a readable message; any other message
 * unchanged. `methodOf` gives the method of the request a response answers (by its id).
 */
export function readableParamsError(
  message: JSONRPCMessage,
  methodOf: (id: string | number) => string | undefined,
): JSONRPCMessage {
  if (!("error" in message) || message.error?.code !== INTERNAL_ERROR) return message;
  const issues = issuesOf(message.error.message);
  if (issues === null) return message;
  const method = "id" in message && message.id !== undefined ? methodOf(message.id) : undefined;
  return { ...message, error: { code: INVALID_PARAMS, message: invalidParamsMessage(method, issues) } };
}
