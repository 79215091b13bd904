/**
 * The solve queue: enqueue_solve, get_queued_solve, list_queued_solves, list_library_solutions.
 *
 * Requests really run on this project's solver (one at a time per worker); a finished solve is a private
 * pack read with get_node, get_range and list_spots by passing its id as `solution`.
 */

import { RangesError } from "@ranges/core";
import { checkPlan, JOB_STATUSES, limitsOf, type SolveJob, validateSolveRequest } from "@ranges/queue";
import { z } from "zod";
import type { SolveDeps, ToolContext } from "../context.js";
import { closedObject, defineTool, type Outcome } from "../tool.js";

const SOLVE_ID = /^sol_[0-9a-f]{16}$/;

const solveIdField = z
  .string()
  .max(20)
  .regex(SOLVE_ID, { error: "a solve id is sol_ and 16 hex characters" })
  .describe("The solve's id, as enqueue_solve returned it (sol_...).");

const codes = (what: string) =>
  z.array(z.number().min(1).max(1_000_000)).max(6).optional().describe(`Raise codes of the ${what}.`);

/** What a solve may change in a library tree (see SolveRequest in @ranges/queue). */
const CHANGES = closedObject("changes", {
  open: codes("opens (every seat but the SB)"),
  sbOpen: codes("SB opens"),
  threeBetIp: codes("3-bets in position"),
  threeBetOop: codes("3-bets out of position"),
  squeeze: codes("squeezes"),
  fourBet: codes("4-bets"),
  fiveBet: codes("5-bets"),
  isoRaise: codes("raises over limpers"),
  allInFrom: z.number().int().min(1).max(6).optional().describe("Raise number from which all-in is offered."),
  maxRaises: z.number().int().min(1).max(6).optional().describe("Most raises in a hand."),
  maxCallersToRaise: z
    .number()
    .int()
    .min(0)
    .max(9)
    .optional()
    .describe("Most callers over which a re-raise is offered."),
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
  allInThreshold: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("A raise above this share of the stack becomes all-in."),
  dealtIn: z
    .array(z.string().max(6))
    .min(2)
    .max(10)
    .optional()
    .describe(
      'Seats dealt a hand, the last to act preflop (["SB", "BB"]: heads-up; ["BTN", "SB", "BB"]: three-handed); the others fold first in, so paths keep the game\'s grammar.',
    ),
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
  return { ...job, request: job.request as unknown as Record<string, unknown>, next };
}

export const enqueueSolve = defineTool({
  name: "enqueue_solve",
  title: "Queue a custom preflop solve",
  description:
    'Use when the library lacks a spot: solves a preflop tree on this project\'s solver and keeps the result as your private pack. Give a library game and any stack with optional changes ({"game": "nl/v2", "stack": 85}, {"game": "nlmtt8", "stack": 40, "changes": {"open": [25]}}, heads-up {"game": "nl", "stack": 10, "changes": {"dealtIn": ["SB", "BB"], "jamOrFold": true}}, changes among open, sbOpen, threeBetIp, threeBetOop, squeeze, fourBet, fiveBet, isoRaise, allInFrom, maxRaises, maxCallersToRaise, jamOrFold, coldFourBet, ante, rake, limpSeats, allInThreshold, dealtIn), or a whole tree `config` (see get_tree_docs). The tree is built and sized first: anything the solver cannot build, or a tree or time over your plan, is refused with the estimate. Needs a key; counted once. Returns the job; follow it with get_queued_solve.',
  input: {
    game: z
      .enum(["nl", "nl/v2", "nl9", "nlmtt8"])
      .optional()
      .describe("A library game whose tree to start from."),
    stack: z.number().min(2).max(1000).describe("Stack depth in bb (2 to 1000)."),
    changes: CHANGES.optional().describe(
      "Changes to the library tree; raise codes as the tree config writes them (get_tree_docs lists a game's).",
    ),
    config: z
      .string()
      .max(50_000)
      .optional()
      .describe("A whole tree config (TreeConfig) as JSON text, instead of game and changes."),
  },
  variants: [OneJobSchema],
  outputDescription: "The queued job, or an error body (with the estimate when over the plan).",
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
    const spec = validateSolveRequest(request);
    checkPlan(spec, plan);
    const job = await queue.enqueue(keyId, spec, limitsOf(plan).seconds);
    worker?.wake();
    return { schema: OneJobSchema, value: { schemaVersion: 1, solve: view(job) } };
  },
});

export const getQueuedSolve = defineTool({
  name: "get_queued_solve",
  title: "Status, progress and result of a queued solve",
  description:
    "Use to follow a solve from enqueue_solve: status (queued, running, done, failed, cancelled), progress while it runs (iteration, worst seat's exploitability in % of the pot, seconds elapsed and left), the result summary (iterations, time, exploitability per seat) when done, the error when it failed. `cancel: true` cancels it. Needs the key that queued it; free.",
  input: {
    id: solveIdField,
    cancel: z
      .boolean()
      .optional()
      .describe("true: cancel the solve (queued: at once; running: within seconds)."),
  },
  variants: [OneJobSchema],
  outputDescription: "The job, or an error body.",
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
    "Use to see the solves you queued, newest first, with their status and progress; `status` narrows the list. Needs a key; free.",
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
  outputDescription: "The caller's solves, or an error body.",
  async run(args, ctx): Promise<Outcome> {
    const { queue } = needQueue(ctx);
    const keyId = await ctx.keyHolder("list_queued_solves");
    const jobs = await queue.list(keyId, args.limit ?? 50, args.status);
    return { schema: JobListSchema, value: { schemaVersion: 1, count: jobs.length, solves: jobs.map(view) } };
  },
});

export const listLibrarySolutions = defineTool({
  name: "list_library_solutions",
  title: "Every published pack and your finished solves",
  description:
    "Use to see every solution you can read: each published pack (game, stack, algorithm, iterations, solve seconds, creation time, worst seat's exploitability in % of the pot, model) and, with a key, your own finished solves (read them with get_node and solution). Free.",
  input: {},
  variants: [LibrarySchema],
  outputDescription: "The library and your solves, or an error body.",
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
