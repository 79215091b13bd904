/**
 * The worker thread one queued solve runs in (started by `SolveWorker`): validates the request again,
 * solves it with the project's preflop solver, and posts progress and then the encoded pack.
 *
 * Messages to the parent: { type: "progress", progress } every few seconds, then { type: "done", pack,
 * summary } or { type: "error", message }.
 */

import { parentPort, workerData } from "node:worker_threads";
import { loadHeadsUpEquity, solvePreflop, toPackData } from "@ranges/solver";
import { encodePack } from "@ranges/store";
import type { JobProgress, JobSummary } from "./queue.js";
import { type SolveRequest, validateSolveRequest } from "./spec.js";

export interface SolveThreadInput {
  readonly request: SolveRequest;
  readonly maxSeconds: number;
  readonly threads: number;
  readonly jobId: string;
}

export type SolveThreadMessage =
  | { readonly type: "progress"; readonly progress: JobProgress }
  | { readonly type: "done"; readonly pack: Uint8Array; readonly summary: JobSummary }
  | { readonly type: "error"; readonly message: string };

const PROGRESS_EVERY_MS = 1000;

function run(input: SolveThreadInput): SolveThreadMessage {
  const spec = validateSolveRequest(input.request);
  const equity = loadHeadsUpEquity();
  let last = 0;
  const result = solvePreflop({
    config: spec.config,
    stack: spec.stack,
    equity,
    maxIterations: spec.config.solve.maxIterations,
    maxSeconds: Math.min(input.maxSeconds, spec.config.solve.maxSeconds),
    threads: input.threads,
    onProgress: (p) => {
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      parentPort?.postMessage({ type: "progress", progress: { ...p } } satisfies SolveThreadMessage);
    },
  });
  const pack = encodePack(
    toPackData(result, spec.config, {
      createdAt: new Date().toISOString(),
      configPath: null,
      seed: equity.seed,
    }),
  );
  const seats = result.seats.map((s) => ({ seat: s.seat, pctPot: s.pctPot, mbbPerHand: s.mbbPerHand }));
  return {
    type: "done",
    pack: new Uint8Array(pack.buffer, pack.byteOffset, pack.byteLength),
    summary: {
      iterations: result.iterations,
      seconds: Math.round(result.seconds * 10) / 10,
      decisions: result.nodes.decisions,
      sizeClass: spec.sizeClass,
      worstPctPot: Math.max(...seats.map((s) => s.pctPot)),
      seats,
    },
  };
}

if (parentPort) {
  let message: SolveThreadMessage;
  try {
    message = run(workerData as SolveThreadInput);
  } catch (error) {
    message = { type: "error", message: (error as Error).message };
  }
  parentPort.postMessage(message);
}
