/** compare_strategies: two preflop nodes side by side, in the analysis envelope. */

import { GAMES, type GameId, isKeyless, isRangesError, RangesError } from "@ranges/core";
import { type Node, ToolEnvelopeSchema } from "@ranges/schema";
import { parseGameParam, parseStackParam } from "@ranges/store";
import { z } from "zod";
import {
  comboField,
  gameField,
  handField,
  MAX_PATH_LENGTH,
  pathArg,
  pathField,
  resolveHand,
  scopeFields,
  stackField,
  type ToolContext,
} from "../context.js";
import { invalidParameter, missingParameter } from "../errors.js";
import { type PreflopProvenance, packProvenance } from "../provenance.js";
import { reachWarnings } from "../reach.js";
import { r4 } from "../round.js";
import { checkScope, type Gap, publishedOf, stripUndefined, unsupportedEnvelope } from "../scope.js";
import { closedObject, defineTool, type Outcome } from "../tool.js";
import { postflopPublished } from "./postflop/common.js";
import { comparePostflop } from "./postflop/compare.js";

export const COMPARE_DEFAULT_LIMIT = 10;
export const COMPARE_MAX_LIMIT = 50;

const sideFields = {
  game: gameField.optional().describe("Preflop: the game."),
  stack: stackField.optional(),
  history: pathField("Preflop: node history, e.g. UTG_Fold_HJ.").optional(),
  hand: handField,
  combo: comboField,
  pack: z.string().max(100).optional().describe("Postflop: pack id (list_postflop_packs)."),
  board: z.string().max(20).optional().describe("Postflop: the flop, e.g. QsJh2h."),
  path: z
    .union([z.string().max(MAX_PATH_LENGTH), z.array(z.string().max(32)).max(64)])
    .optional()
    .describe('Postflop: actions from the flop\'s start, e.g. ["check", "bet"].'),
  ...scopeFields,
};

const baselineSchema = closedObject("compare_strategies baseline", sideFields).describe(
  "The side compared from.",
);
const comparisonSchema = closedObject("compare_strategies comparison", sideFields).describe(
  "The side compared to.",
);

type Side = z.infer<typeof baselineSchema>;

interface Loaded {
  readonly game: GameId;
  readonly stack: number;
  readonly node: Node;
  readonly hand?: string | undefined;
  readonly provenance: PreflopProvenance;
}

const objectiveOf = (game: GameId): string => (GAMES[game].format === "mtt" ? "chip_ev" : "cash_ev");

function labelled(side: "baseline" | "comparison", error: unknown): unknown {
  if (!isRangesError(error)) return error;
  return new RangesError(error.code, `${side}: ${error.message}`, error.hint);
}

function postflopGaps(sides: readonly Side[]): Gap[] {
  const gaps: Gap[] = [];
  const tournament = sides.some(
    (s) =>
      (s.format !== undefined && /mtt|tourn/i.test(s.format)) ||
      (s.game !== undefined && /mtt|tourn/i.test(s.game)) ||
      (s.pack !== undefined && /mtt|tourn/i.test(s.pack)),
  );
  if (tournament) {
    gaps.push({
      topic: "tournament_postflop",
      detail: "Tournament postflop is not published (only heads-up cash postflop is).",
    });
  }
  if (sides.some((s) => (s.players ?? 2) > 2)) {
    gaps.push({
      topic: "multiway_postflop",
      detail: "Multiway postflop is not published (postflop is heads-up only).",
    });
  }
  return gaps;
}

function sideScope(name: "baseline" | "comparison", side: Side): { game: GameId } | { gaps: Gap[] } {
  if (side.game === undefined || side.game.trim() === "")
    throw missingParameter(`${name}.game`, "the game, e.g. nl/v2");
  const verdict = checkScope({ ...side, game: side.game }, parseGameParam);
  return verdict.kind === "ok" ? { game: verdict.game } : { gaps: verdict.gaps };
}

async function load(
  ctx: ToolContext,
  name: "baseline" | "comparison",
  side: Side,
  game: GameId,
  hand: string | undefined,
): Promise<Loaded> {
  try {
    if (side.stack === undefined) throw missingParameter(`${name}.stack`, "the stack depth in bb, e.g. 100");
    if (side.history === undefined || side.history.trim() === "") {
      throw missingParameter(`${name}.history`, "the node history ending in the seat to act, e.g. UTG");
    }
    const stack = parseStackParam(game, side.stack);
    // node() is synchronous: a pack not in memory is read off the event loop first.
    await ctx.store.prepare(game, stack);
    const node = ctx.store.node(game, stack, pathArg(side.history), {});
    const { header } = await ctx.store.packSummary(game, stack);
    return { game, stack, node, hand, provenance: packProvenance(header) };
  } catch (error) {
    throw labelled(name, error);
  }
}

const keyOf = (a: { action: string; kind: string }): string => `${a.kind}:${a.action}`;

function share(game: GameId, action: Node["actions"][number]): number {
  const total = GAMES[game].classSet === "holdem169" ? 1326 : 270725;
  return r4(action.combos / total);
}

function compare(b: Loaded, c: Loaded, limit: number, warnings: string[]): Record<string, unknown> {
  const bActions = new Map(b.node.actions.map((a) => [keyOf(a), a]));
  const cActions = new Map(c.node.actions.map((a) => [keyOf(a), a]));
  const keys = [...new Set([...bActions.keys(), ...cActions.keys()])];
  const onlyInBaseline = b.node.actions.filter((a) => !cActions.has(keyOf(a))).map((a) => a.action);
  const onlyInComparison = c.node.actions.filter((a) => !bActions.has(keyOf(a))).map((a) => a.action);
  if (onlyInBaseline.length + onlyInComparison.length > 0) {
    warnings.push(
      `Actions are matched by token and kind; unmatched: baseline only [${onlyInBaseline.join(", ")}], comparison only [${onlyInComparison.join(", ")}].`,
    );
  }
  const bEvs = b.node.evUnit !== null;
  const cEvs = c.node.evUnit !== null;
  const ev = (a: Node["actions"][number] | undefined, hand: string, has: boolean): number | null =>
    has && a ? (a.evs[hand] ?? null) : null;

  if (b.hand !== undefined && c.hand !== undefined) {
    const bh = b.hand;
    const ch = c.hand;
    const actions = keys.map((key) => {
      const ba = bActions.get(key);
      const ca = cActions.get(key);
      const head = ba ?? ca!;
      const bf = ba ? (ba.weights[bh] ?? 0) : null;
      const cf = ca ? (ca.weights[ch] ?? 0) : null;
      const be = ev(ba, bh, bEvs);
      const ce = ev(ca, ch, cEvs);
      return {
        action: head.action,
        kind: head.kind,
        baseline: ba ? { sizeBb: ba.sizeBb, freq: bf, evSb: be } : null,
        comparison: ca ? { sizeBb: ca.sizeBb, freq: cf, evSb: ce } : null,
        deltaFreq: bf !== null && cf !== null ? r4(cf - bf) : null,
        deltaEvSb: be !== null && ce !== null ? r4(ce - be) : null,
      };
    });
    return {
      mode: "hand",
      hand: { baseline: bh, comparison: ch },
      actions,
      onlyInBaseline,
      onlyInComparison,
    };
  }

  const actions = keys.map((key) => {
    const ba = bActions.get(key);
    const ca = cActions.get(key);
    const head = ba ?? ca!;
    const bs = ba ? share(b.game, ba) : null;
    const cs = ca ? share(c.game, ca) : null;
    return {
      action: head.action,
      kind: head.kind,
      baseline: ba ? { sizeBb: ba.sizeBb, share: bs } : null,
      comparison: ca ? { sizeBb: ca.sizeBb, share: cs } : null,
      deltaShare: bs !== null && cs !== null ? r4(cs - bs) : null,
    };
  });
  const changes: Array<Record<string, unknown> & { deltaFreq: number }> = [];
  for (const key of keys) {
    const ba = bActions.get(key);
    const ca = cActions.get(key);
    if (!ba || !ca) continue;
    const classes = new Set([...Object.keys(ba.weights), ...Object.keys(ca.weights)]);
    for (const hand of classes) {
      const bf = ba.weights[hand] ?? 0;
      const cf = ca.weights[hand] ?? 0;
      const delta = r4(cf - bf);
      if (delta === 0) continue;
      changes.push({
        hand,
        action: ba.action,
        kind: ba.kind,
        baselineFreq: bf,
        comparisonFreq: cf,
        deltaFreq: delta,
        baselineEvSb: ev(ba, hand, bEvs),
        comparisonEvSb: ev(ca, hand, cEvs),
      });
    }
  }
  changes.sort(
    (x, y) => Math.abs(y.deltaFreq) - Math.abs(x.deltaFreq) || String(x.hand).localeCompare(String(y.hand)),
  );
  return {
    mode: "largest_changes",
    actions,
    changes: changes.slice(0, limit),
    changesTotal: changes.length,
    onlyInBaseline,
    onlyInComparison,
  };
}

export const compareStrategies = defineTool({
  name: "compare_strategies",
  title: "Compare two strategies",
  description:
    "Use to compare a decision across stacks, seats, games or trees. Sides: preflop {game, stack, history, hand?}, postflop {pack, board, path, combo?}. With a hand: its play on both sides; without: the largest changes.",
  input: {
    domain: z.enum(["preflop", "postflop"]).describe("preflop or postflop: which fields the sides take."),
    baseline: baselineSchema,
    comparison: comparisonSchema,
    limit: z
      .number()
      .int()
      .min(1, { error: `limit must be 1 to ${COMPARE_MAX_LIMIT} changes` })
      .max(COMPARE_MAX_LIMIT, { error: `limit must be 1 to ${COMPARE_MAX_LIMIT} changes` })
      .optional()
      .describe(`Changes to list without a hand; default ${COMPARE_DEFAULT_LIMIT}.`),
  },
  variants: [ToolEnvelopeSchema],
  async run(args, ctx): Promise<Outcome> {
    const request = stripUndefined({ ...args });
    if (args.domain === "postflop") {
      const gaps = postflopGaps([args.baseline, args.comparison]);
      if (gaps.length > 0) {
        return {
          schema: ToolEnvelopeSchema,
          value: unsupportedEnvelope(
            "compare_strategies",
            request,
            gaps,
            postflopPublished(ctx.postflop),
            args.baseline.objective,
          ),
        };
      }
      await ctx.authorize(false);
      const limit = args.limit ?? COMPARE_DEFAULT_LIMIT;
      return {
        schema: ToolEnvelopeSchema,
        value: await comparePostflop(ctx.postflop, args.baseline, args.comparison, limit),
      };
    }
    const limit = args.limit ?? COMPARE_DEFAULT_LIMIT;
    const bScope = sideScope("baseline", args.baseline);
    const cScope = sideScope("comparison", args.comparison);
    const gaps = [...("gaps" in bScope ? bScope.gaps : []), ...("gaps" in cScope ? cScope.gaps : [])];
    if (gaps.length > 0 || !("game" in bScope) || !("game" in cScope)) {
      const objective = args.baseline.objective ?? args.comparison.objective;
      return {
        schema: ToolEnvelopeSchema,
        value: unsupportedEnvelope("compare_strategies", request, gaps, publishedOf(ctx.store), objective),
      };
    }
    const bGame = bScope.game;
    const cGame = cScope.game;
    if (GAMES[bGame].classSet !== GAMES[cGame].classSet) {
      throw invalidParameter(
        `${bGame} and ${cGame} use different hand classes (hold'em vs PLO), so their strategies cannot be compared class by class.`,
      );
    }
    await ctx.authorize(isKeyless(bGame, "node") && isKeyless(cGame, "node"));
    const warnings: string[] = [];
    let bHand: string | undefined;
    let cHand: string | undefined;
    try {
      bHand = resolveHand(bGame, args.baseline.hand, args.baseline.combo)?.name;
    } catch (error) {
      throw labelled("baseline", error);
    }
    try {
      cHand = resolveHand(cGame, args.comparison.hand, args.comparison.combo)?.name;
    } catch (error) {
      throw labelled("comparison", error);
    }
    if (bHand !== undefined && cHand === undefined) {
      cHand = bHand;
      warnings.push(`hand ${bHand} was given for the baseline only and is used for both sides.`);
    } else if (cHand !== undefined && bHand === undefined) {
      bHand = cHand;
      warnings.push(`hand ${cHand} was given for the comparison only and is used for both sides.`);
    }
    const b = await load(ctx, "baseline", args.baseline, bGame, bHand);
    const c = await load(ctx, "comparison", args.comparison, cGame, cHand);
    if (b.node.actor !== c.node.actor)
      warnings.push(`The seats to act differ: ${b.node.actor} (baseline) and ${c.node.actor} (comparison).`);
    if (b.node.evUnit === null || c.node.evUnit === null) {
      warnings.push("nl (v1) stores no EVs, so evSb is null on that side.");
    }
    const bObj = objectiveOf(bGame);
    const cObj = objectiveOf(cGame);
    if (bObj !== cObj)
      warnings.push("One side is a tournament chip-EV strategy and the other a cash strategy.");
    warnings.push(...reachWarnings(b.node.reach, "baseline"), ...reachWarnings(c.node.reach, "comparison"));
    const result = compare(b, c, limit, warnings);
    const sideContext = (x: Loaded) => ({
      game: x.game,
      stack: x.stack,
      history: x.node.history,
      actor: x.node.actor,
      depth: x.node.depth,
      evUnit: x.node.evUnit,
      evBaseline: x.node.evBaseline,
      reach: x.node.reach,
      provenance: x.provenance,
    });
    const value = {
      schemaVersion: "1.0",
      coverage: {
        status: "exact",
        dataClass: "preflop",
        objective: bObj === cObj ? bObj : `${bObj}|${cObj}`,
      },
      context: {
        domain: "preflop",
        baseline: sideContext(b),
        comparison: sideContext(c),
        units: {
          freq: "frequency in [0,1]",
          share: "share of all combos taking the action (not reach-weighted)",
          reach:
            "probability that the side's node is played when every seat follows the published strategies (card removal ignored; 0 = never reached)",
          evSb: "EV in small blinds relative to folding",
        },
        ...(result.mode === "largest_changes" ? { limit } : {}),
      },
      result,
      warnings,
    };
    return { schema: ToolEnvelopeSchema, value };
  },
});
