/**
 * The solve queue: enqueue_solve, get_queued_solve, list_queued_solves, list_library_solutions.
 *
 * Requests really run on this project's solver (one at a time per worker); a finished solve is a private
 * pack read with get_node, get_range and list_spots by passing its id as `solution`.
 */

import { RangesError } from "@ranges/core";
import { checkPlan, JOB_STATUSES, limitsOf, type SolveJob } from "@ranges/queue";
import { z } from "zod";
import type { SolveDeps, ToolContext } from "../context.js";
import { closedObject, defineTool, type Outcome } from "../tool.js";

const SOLVE_ID = /^sol_[0-9a-f]{16}$/;

const solveIdField = z
  .string()
  .max(20)
  .regex(SOLVE_ID, { error: "a solve id is sol_ and 16 hex characters" })
  .describe("The solve's id (sol_...).");

const codes = (what: string) => z.array(z.number().min(1).max(1_000_000)).max(6).optional().describe(what);

/** What a solve may change in a library tree (see SolveRequest in @ranges/queue). */
const CHANGES = closedObject("changes", {
  open: codes("Open codes (not the SB)."),
  sbOpen: codes("SB open codes."),
  threeBetIp: codes("3-bet codes in position."),
  threeBetOop: codes("3-bet codes out of position."),
  squeeze: codes("Squeeze codes."),
  fourBet: codes("4-bet codes."),
  fiveBet: codes("5-bet codes."),
  isoRaise: codes("Codes over limpers."),
  allInFrom: z.number().int().min(1).max(6).optional().describe("Raise number from which all-in is offered."),
  maxRaises: z.number().int().min(1).max(5).optional().describe("Most raises in a hand (1 to 5)."),
  maxCallersToRaise: z.number().int().min(0).max(9).optional().describe("Most callers before a re-raise."),
  jamOrFold: z.boolean().optional().describe("Every decision all-in or fold."),
  coldFourBet: z.boolean().optional().describe("Allow cold 4-bets and 5-bets."),
  ante: z.number().min(0).max(100).optional().describe("Ante in bb."),
  rake: closedObject("rake", {
    percent: z.number().min(0).max(99).describe("Percent of the pot."),
    capBb: z.number().min(0).max(100).describe("Cap in bb."),
  })
    .nullable()
    .optional()
    .describe("Rake on pots that see a flop; null for none."),
  limpSeats: z.array(z.string().max(6)).max(10).optional().describe("Seats allowed to limp first in."),
  allInThreshold: z.number().min(0).max(1).optional().describe("Stack share above which a raise is all-in."),
  dealtIn: z
    .array(z.string().max(6))
    .min(2)
    .max(10)
    .optional()
    .describe('Seats dealt in, the last to act, e.g. ["SB", "BB"].'),
});

function needQueue(ctx: ToolContext): SolveDeps {
  if (!ctx.solves) throw new RangesError("not_found", "The solve queue is not enabled on this server.");
  return ctx.solves;
}

const ProgressSchema = z
  .object({
    iteration: z.number(),
    worstPctPot: z.number(),
    elapsedSeconds: z.number(),
    etaSeconds: z.number(),
  })
  .nullable();
const SummarySchema = z
  .object({
    iterations: z.number(),
    seconds: z.number(),
    decisions: z.number(),
    worstPctPot: z.number(),
    seats: z.array(z.object({ seat: z.string(), pctPot: z.number(), mbbPerHand: z.number() })),
  })
  .nullable();
const JobSchema = z.object({
  id: z.string(),
  status: z.enum(JOB_STATUSES),
  request: z.record(z.string(), z.unknown()),
  game: z.string(),
  stack: z.number(),
  decisions: z.number(),
  estimateSeconds: z.number(),
  maxSeconds: z.number(),
  progress: ProgressSchema,
  summary: SummarySchema,
  error: z.string().nullable(),
  attempts: z.number(),
  cancelRequested: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  next: z.string().describe("What to do next with this solve."),
});
const OneJobSchema = z.object({ schemaVersion: z.literal(1), solve: JobSchema });
const JobListSchema = z.object({
  schemaVersion: z.literal(1),
  count: z.number(),
  solves: z.array(JobSchema),
});
const LibrarySchema = z.object({
  schemaVersion: z.literal(1),
  library: z.array(
    z.object({
      game: z.string(),
      stack: z.number(),
      algorithm: z.string().nullable(),
      iterations: z.number().nullable(),
      solveSeconds: z.number().nullable(),
      createdAt: z.string().nullable(),
      worstPctPot: z.number().nullable(),
      model: z.string().nullable(),
    }),
  ),
  mine: z.array(JobSchema),
});

function view(job: SolveJob) {
  const next =
    job.status === "done"
      ? `Read it with get_node, get_range or list_spots and solution: "${job.id}" (no game or stack needed).`
      : job.status === "queued" || job.status === "running"
        ? "Ask get_queued_solve again in a few seconds; cancel with cancel: true."
        : job.status === "failed"
          ? "Look at error; enqueue again with a smaller tree if it ran out of time."
          : "Cancelled: nothing to read.";
  // The worker's last progress report stays on a finished job; nothing is left to run once it ends.
  const settled = job.status !== "queued" && job.status !== "running";
  const progress = settled && job.progress !== null ? { ...job.progress, etaSeconds: 0 } : job.progress;
  return { ...job, progress, request: job.request as unknown as Record<string, unknown>, next };
}

export const enqueueSolve = defineTool({
  name: "enqueue_solve",
  title: "Queue a custom preflop solve",
  description:
    'Use when the library lacks a spot: solves a preflop tree as your private pack, e.g. {"game": "nl", "stack": 10, "changes": {"dealtIn": ["SB", "BB"], "jamOrFold": true}}, {"game": "nlmtt8", "stack": 20, "changes": {"open": [40050], "dealtIn": ["BTN", "SB", "BB"]}}. Over-plan trees are refused with the estimate. Key; counted once.',
  input: {
    game: z
      .enum(["nl", "nl/v2", "nl9", "nlmtt8"])
      .optional()
      .describe("A library game whose tree to start from."),
    stack: z.number().min(2).max(1000).describe("Stack depth in bb (2 to 1000)."),
    changes: CHANGES.optional().describe("Changes to the library tree (codes: get_tree_docs)."),
    config: z
      .string()
      .max(50_000)
      .optional()
      .describe("A whole tree config as JSON text, instead of game and changes."),
  },
  variants: [OneJobSchema],
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, ctx): Promise<Outcome> {
    const { queue, worker } = needQueue(ctx);
    const { keyId, plan } = await ctx.keyed("enqueue_solve");
    let request: unknown;
    if (args.config !== undefined) {
      if (args.game !== undefined || args.changes !== undefined) {
        throw new RangesError(
          "invalid_parameter",
          "Give either config, or game with optional changes, not both.",
        );
      }
      let config: unknown;
      try {
        config = JSON.parse(args.config);
      } catch {
        throw new RangesError(
          "invalid_parameter",
          "config must be a tree config as JSON text (it does not parse).",
        );
      }
      request = { config, stack: args.stack };
    } else {
      request = { game: args.game, stack: args.stack, ...(args.changes ? { changes: args.changes } : {}) };
    }
    const spec = await queue.size(keyId, request);
    checkPlan(spec, plan);
    const job = await queue.enqueue(keyId, spec, limitsOf(plan));
    worker?.wake();
    return { schema: OneJobSchema, value: { schemaVersion: 1, solve: view(job) } };
  },
});

export const getQueuedSolve = defineTool({
  name: "get_queued_solve",
  title: "One queued solve",
  description:
    "Use to follow an enqueue_solve job: status, progress, summary or error; `cancel: true` cancels. Key; free.",
  input: {
    id: solveIdField,
    cancel: z.boolean().optional().describe("true: cancel the solve."),
  },
  variants: [OneJobSchema],
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, ctx): Promise<Outcome> {
    const { queue } = needQueue(ctx);
    const keyId = await ctx.keyHolder("get_queued_solve");
    const job = args.cancel ? await queue.cancel(keyId, args.id) : await queue.require(keyId, args.id);
    return { schema: OneJobSchema, value: { schemaVersion: 1, solve: view(job) } };
  },
});

export const listQueuedSolves = defineTool({
  name: "list_queued_solves",
  title: "Your queued solves",
  description:
    "Use to list the solves you queued, newest first, with status and progress; `status` narrows it. Key; free.",
  input: {
    status: z.enum(JOB_STATUSES).optional().describe("Only solves in this status."),
    limit: z
      .number()
      .int()
      .min(1, { error: "limit must be 1 to 100" })
      .max(100, { error: "limit must be 1 to 100" })
      .optional()
      .describe("How many, 1 to 100; default 50."),
  },
  variants: [JobListSchema],
  async run(args, ctx): Promise<Outcome> {
    const { queue } = needQueue(ctx);
    const keyId = await ctx.keyHolder("list_queued_solves");
    const jobs = await queue.list(keyId, args.limit ?? 50, args.status);
    return { schema: JobListSchema, value: { schemaVersion: 1, count: jobs.length, solves: jobs.map(view) } };
  },
});

export const listLibrarySolutions = defineTool({
  name: "list_library_solutions",
  title: "Library and your solves",
  description:
    "Use to see every solution you can read: the packs' provenance and, with a key, your finished solves.",
  input: {},
  variants: [LibrarySchema],
  async run(_args, ctx): Promise<Outcome> {
    let mine: SolveJob[] = [];
    if (ctx.caller.authorization !== undefined && ctx.solves) {
      const keyId = await ctx.keyHolder("list_library_solutions");
      mine = await ctx.solves.queue.list(keyId, 100, "done");
    } else {
      await ctx.authorize(true);
    }
    // The store's resident index: no pack data is read (see RangeStore.packSummaries).
    const library = (await ctx.store.packSummaries()).map(({ game, stack, header }) => {
      const p = header.provenance;
      const seats = p.exploitability ?? null;
      return {
        game,
        stack,
        algorithm: p.algorithm,
        iterations: p.iterations,
        solveSeconds: p.solveSeconds,
        createdAt: p.createdAt,
        worstPctPot: seats && seats.length > 0 ? Math.max(...seats.map((s) => s.pctPot)) : null,
        model: p.model ?? null,
      };
    });
    return { schema: LibrarySchema, value: { schemaVersion: 1, library, mine: mine.map(view) } };
  },
});
