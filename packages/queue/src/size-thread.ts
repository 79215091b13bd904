/**
 * The worker thread that validates and sizes solve requests for `SpecSizer`, so building a tree never
 * blocks the process that serves requests. Messages in: { id, request }; out: { id, spec } or { id, error }
 * with the error's code, message and hint.
 */

import { parentPort } from "node:worker_threads";
import { isRangesError } from "@ranges/core";
import { validateSolveRequest } from "./spec.js";

export interface SizeThreadRequest {
  readonly id: number;
  readonly request: unknown;
}

export type SizeThreadReply =
  | { readonly id: number; readonly spec: ReturnType<typeof validateSolveRequest> }
  | {
      readonly id: number;
      readonly error: { readonly code: string; readonly message: string; readonly hint?: unknown };
    };

parentPort?.on("message", ({ id, request }: SizeThreadRequest) => {
  let reply: SizeThreadReply;
  try {
    reply = { id, spec: validateSolveRequest(request) };
  } catch (error) {
    reply = isRangesError(error)
      ? { id, error: { code: error.code, message: error.message, hint: error.hint } }
      : { id, error: { code: "internal_error", message: (error as Error).message } };
  }
  parentPort?.postMessage(reply);
});
