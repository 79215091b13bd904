import { Worker } from "node:worker_threads";
import { siblingScript } from "@ranges/store";
import type { ParseJob, ParseReply } from "./parse-thread.js";
import type { ParsedUpload } from "./upload-parse.js";

export type { ParsedUpload } from "./upload-parse.js";

export interface HandParserOptions {
  /** Stop the thread after this long without work (default 10 s). */
  idleMs?: number;
  /** Heap limit of the thread (default 1024 MiB): the API's own heap is small. */
  maxOldGenerationSizeMb?: number;
}

interface Pending {
  resolve: (value: ParsedUpload) => void;
  reject: (error: Error) => void;
}

export class HandParser {
  private thread: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly idleMs: number;
  private readonly heapMb: number;
  /** Threads started so far (tests and logs). */
  started = 0;

  constructor(o: HandParserOptions = {}) {
    this.idleMs = o.idleMs ?? 10_000;
    this.heapMb = o.maxOldGenerationSizeMb ?? 1024;
  }

  /** Parses a text in the thread; `hero` names the uploader for histories without a `Dealt to` line. */
  parse(text: string, hero: string | null): Promise<ParsedUpload> {
    if (this.closed) return Promise.reject(new Error("The hand parser is closed."));
    if (this.idle) {
      clearTimeout(this.idle);
      this.idle = null;
    }
    const thread = this.ensure();
    // Held while it has work, so a process waiting on an upload does not exit under it.
    thread.ref();
    const id = this.nextId++;
    return new Promise<ParsedUpload>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const job: ParseJob = { id, text, hero };
      thread.postMessage(job);
    });
  }

  /** Stops the thread; uploads in progress fail. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    const thread = this.thread;
    this.thread = null;
    this.failAll(new Error("The hand parser was closed."));
    if (thread) await thread.terminate();
  }

  private ensure(): Worker {
    if (this.thread) return this.thread;
    const { url, execArgv } = siblingScript("parse-thread", import.meta.url);
    const thread = new Worker(url, { execArgv, resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
    this.started++;
    thread.on("message", (reply: ParseReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.result);
      else p.reject(new Error(reply.error));
      this.scheduleIdle();
    });
    const gone = (reason: string) => {
      if (this.thread !== thread) return;
      this.thread = null;
      this.failAll(new Error(reason));
    };
    thread.on("error", (error) => gone(`The parse thread failed: ${error.message}`));
    thread.on("exit", (code) => gone(`The parse thread stopped (exit ${code}).`));
    thread.unref();
    this.thread = thread;
    return thread;
  }

  private failAll(error: Error): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  private scheduleIdle(): void {
    if (this.pending.size > 0 || this.closed) return;
    this.thread?.unref();
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.pending.size > 0 || !this.thread) return;
      const thread = this.thread;
      this.thread = null;
      void thread.terminate();
    }, this.idleMs);
    this.idle.unref();
  }
}
