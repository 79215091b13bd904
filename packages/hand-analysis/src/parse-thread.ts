/**
 * The worker thread uploads are parsed in (started by `HandParser`): the parse, the summaries and the
 * all-in equities run here, off the thread that answers requests. One message in, one message out.
 */

import { parentPort } from "node:worker_threads";
import { parseUpload } from "./upload-parse.js";

export interface ParseJob {
  id: number;
  text: string;
  hero: string | null;
}

export type ParseReply =
  | { id: number; ok: true; result: ReturnType<typeof parseUpload> }
  | { id: number; ok: false; error: string };

parentPort?.on("message", (job: ParseJob) => {
  let reply: ParseReply;
  try {
    reply = { id: job.id, ok: true, result: parseUpload(job.text, job.hero) };
  } catch (error) {
    reply = { id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
