/**
 * The MCP authorization specification's signal to start sign-in: a call made without credentials that a
 * tool refuses for want of a key (its result is the 401 error body) is answered with HTTP 401 and
 * `WWW-Authenticate` pointing at the protected resource metadata. The JSON-RPC answer stays in the body, so a
 * client without OAuth still reads the tool's message (send a key as `Authorization: Bearer pr_...`).
 * Everything else (free tools, other errors) is answered as the MCP transport wrote it.
 */

import type { ServerResponse } from "node:http";

/** True when a JSON-RPC answer (one message or a batch) holds a tool result refused with status 401. */
export function refusedForWantOfKey(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.some((m) => {
    const result = (m as { result?: { isError?: unknown; structuredContent?: unknown } } | null)?.result;
    const error = (result?.structuredContent as { error?: { status?: unknown } } | undefined)?.error;
    return result?.isError === true && error?.status === 401;
  });
}

/**
 * Holds what the MCP transport writes (status line, headers, body) until the body is complete, then turns a
 * 200 whose answer is a 401 tool refusal into a 401 with `challenge`. The transport answers in JSON mode
 * (one complete body), so holding it costs nothing but the copy.
 */
export function challengeKeylessPaidCalls(res: ServerResponse, challenge: string): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let head: unknown[] | null = null;
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown) => {
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  res.writeHead = ((...args: unknown[]) => {
    head = args;
    return res;
  }) as typeof res.writeHead;
  res.flushHeaders = () => {};
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk);
    const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    const first = args[0];
    if (typeof first !== "function") keep(first);
    const callback = args.find((r) => typeof r === "function") as (() => void) | undefined;
    const body = Buffer.concat(chunks);
    const [status = res.statusCode, ...rest] = head ?? [];
    const refused = status === 200 && refusedForWantOfKey(body.toString("utf8"));
    if (refused) res.setHeader("WWW-Authenticate", challenge);
    if (head !== null || refused) {
      // A Content-Length given with the head stays right: the body is unchanged.
      writeHead(refused ? 401 : status, ...rest);
    }
    if (body.length > 0) write(body);
    return callback ? end(callback) : end();
  }) as typeof res.end;
}
