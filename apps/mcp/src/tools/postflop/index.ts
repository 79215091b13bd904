/**
 * The postflop tools: list_postflop_packs, get_postflop_node, get_postflop_range, explain_combo and
 * get_board_report, plus the postflop side of compare_strategies (`comparePostflop`). Every answer is the
 * analysis envelope. The envelope builders (packs.ts, node.ts, explain.ts, report.ts, compare.ts) are
 * exported so the HTTP API serves the same reads; this module holds the tool specs that wrap them.
 *
 * Coverage: a flop node read from a solve of that board (or of a suit-isomorphic board, mapped back to the
 * requested suits) is `exact`; so is a turn or river node, read from the solve of that street's subgame made
 * on demand from the ranges the flop solve reaches it with (`context.solve` says so, with its exploitability);
 * board reports are `aggregated_report`; an unsolved board, a board report past the flop, multiway and
 * tournament requests are `unsupported`, with the gap stated and nothing substituted.
 */

import { TEXTURE_VALUES } from "@ranges/postflop";
import { ToolEnvelopeSchema } from "@ranges/schema";
import { z } from "zod";
import type { ToolContext } from "../../context.js";
import { defineTool, type Outcome } from "../../tool.js";
import { explainCombo } from "./explain.js";
import { postflopNode, postflopRange } from "./node.js";
import { listPostflopPacks } from "./packs.js";
import { boardReport, readBoardsInTurns } from "./report.js";

/** Scope fields of the postflop tools: only heads-up cash postflop is published. */
export const postflopScopeFields = {
  players: z
    .number()
    .int()
    .min(2)
    .max(10)
    .optional()
    .describe('Players in the pot; more than 2 answers "unsupported".'),
  format: z.string().max(40).optional().describe('cash; tournament formats answer "unsupported".'),
};

const packField = z
  .string()
  .min(1)
  .max(100)
  .describe('Pack id from list_postflop_packs, e.g. "srp-btn-bb-100bb".');
const boardField = z
  .string()
  .min(1)
  .max(20)
  .describe('The flop, e.g. "QsJh2h" (suit-isomorphic boards are mapped).');
export const postflopPathField = z
  .union([z.array(z.string().max(40)).max(32), z.string().max(400)])
  .optional()
  .describe(
    'Actions from the flop\'s start (labels, kinds or "bet 75%"; the next card after a street ends), e.g. ["check", "check", "7c", "bet"].',
  );
const postflopComboField = z.string().max(12).describe('Two concrete cards, e.g. "AhKh".');

async function keyed(ctx: ToolContext): Promise<void> {
  await ctx.authorize(false);
}

export const listPostflopPacksTool = defineTool({
  name: "list_postflop_packs",
  title: "List the postflop packs",
  description:
    "Use first for postflop: the heads-up packs (<pack> 75% pot tree, <pack>-flop33) with line, stacks, pot, rake, boards. Free.",
  input: {},
  variants: [ToolEnvelopeSchema],
  async run(_args, ctx): Promise<Outcome> {
    await ctx.authorize(true);
    return { schema: ToolEnvelopeSchema, value: listPostflopPacks(ctx.postflop) };
  },
});

export const getPostflopNodeTool = defineTool({
  name: "get_postflop_node",
  title: "Postflop node",
  description:
    "Use for the strategy at a solved board's decision: per action amount, compareKey, frequency, EV (bb); combo for one hand. Turn and river solve on demand. Key.",
  input: {
    pack: packField,
    board: boardField,
    path: postflopPathField,
    combo: postflopComboField.optional(),
    ...postflopScopeFields,
  },
  variants: [ToolEnvelopeSchema],
  async run(args, ctx): Promise<Outcome> {
    await keyed(ctx);
    return { schema: ToolEnvelopeSchema, value: await postflopNode(ctx.postflop, args) };
  },
});

export const getPostflopRangeTool = defineTool({
  name: "get_postflop_range",
  title: "Postflop range",
  description: "Use for per-combo numbers at a postflop decision, or with `action` that action's range. Key.",
  input: {
    pack: packField,
    board: boardField,
    path: postflopPathField,
    action: z.string().max(40).optional().describe('One action at the node (e.g. "bet"): answer its range.'),
    minReach: z.number().min(0).max(1).optional().describe("Drop combos with reach at or below this."),
    ...postflopScopeFields,
  },
  variants: [ToolEnvelopeSchema],
  async run(args, ctx): Promise<Outcome> {
    await keyed(ctx);
    return { schema: ToolEnvelopeSchema, value: await postflopRange(ctx.postflop, args) };
  },
});

export const explainComboTool = defineTool({
  name: "explain_combo",
  title: "Explain a combo",
  description:
    "Use to understand one combo at a postflop decision: strategy, EV, equity, hand category, place in range. Key.",
  input: {
    pack: packField,
    board: boardField,
    path: postflopPathField,
    combo: postflopComboField,
    ...postflopScopeFields,
  },
  variants: [ToolEnvelopeSchema],
  async run(args, ctx): Promise<Outcome> {
    await keyed(ctx);
    return { schema: ToolEnvelopeSchema, value: await explainCombo(ctx.postflop, args) };
  },
});

const filterField = (values: readonly string[], what: string) =>
  z
    .string()
    .max(40)
    .optional()
    .describe(`${what}: ${values.join(", ")} (or any).`);

export const getBoardReportTool = defineTool({
  name: "get_board_report",
  title: "Board report",
  description:
    "Use to see how a flop decision changes with texture: frequencies and EVs per matching solved board and their aggregate. Key.",
  input: {
    pack: packField,
    path: postflopPathField,
    filters: z
      .object({
        pairedness: filterField(TEXTURE_VALUES.pairedness, "Pairedness"),
        suitTexture: filterField(TEXTURE_VALUES.suitTexture, "Suit texture"),
        connectivity: filterField(TEXTURE_VALUES.connectivity, "Connectivity"),
        highCardClass: filterField(TEXTURE_VALUES.highCardClass, "High card"),
      })
      .strict()
      .optional()
      .describe("Texture filters; each left out matches every board."),
    ...postflopScopeFields,
  },
  variants: [ToolEnvelopeSchema],
  async run(args, ctx): Promise<Outcome> {
    await keyed(ctx);
    await readBoardsInTurns(ctx.postflop, args);
    return { schema: ToolEnvelopeSchema, value: boardReport(ctx.postflop, args) };
  },
});

export const POSTFLOP_TOOLS = [
  listPostflopPacksTool,
  getPostflopNodeTool,
  getPostflopRangeTool,
  explainComboTool,
  getBoardReportTool,
] as const;
