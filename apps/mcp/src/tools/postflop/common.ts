/**
 * What every postflop answer shares: the units, the packs (or not_found without any), the analysis envelope
 * with its pack context and provenance, and the scope checks that answer "unsupported" (multiway,
 * tournament) with what is published instead.
 */

import { RangesError } from "@ranges/core";
import type { BoardEntry, PostflopPackFile, PostflopPacks } from "@ranges/postflop";
import { type ToolEnvelope, ToolEnvelopeSchema } from "@ranges/schema";
import { r3 } from "../../round.js";
import { type Gap, stripUndefined, unsupportedEnvelope } from "../../scope.js";

const DATA_CLASS = "postflop_heads_up_cash";
const OBJECTIVE = "cash_ev";
export const num = (x: number): number | null => (Number.isFinite(x) ? r3(x) : null);

export const POSTFLOP_UNITS = {
  evBb: "big blinds: the hand's expected share of the pot less the chips it still puts in (folding = 0; both ranges' root EVs sum to the pot less rake)",
  amountBb: "chips the action puts in, bb (its exact chip addition)",
  toBb: "the actor's total bet on the street after the action, bb",
  compareKey:
    "pot-normalized comparison key: kind and the chips beyond a call over the pot after the call, in percent (bet:75% is a 75%-pot bet)",
  frequency: "frequency in [0,1]",
  reach: "probability the combo plays to this node: its range weight times its own actions on the way",
  equity: "share of the pot won at showdown against the opponent's range at the node, every runout dealt",
};

/** Which packs the tools read; absent: no postflop packs (the tools list none). */
export type PostflopSource = PostflopPacks | undefined;

export function packsOf(source: PostflopSource): PostflopPacks {
  if (!source)
    throw new RangesError(
      "not_found",
      "No postflop pack is installed on this server (list_postflop_packs lists none).",
      { packs: [] },
    );
  return source;
}

export function envelope(
  status: "exact" | "aggregated_report",
  context: Record<string, unknown>,
  result: Record<string, unknown>,
  warnings: string[],
): ToolEnvelope {
  return ToolEnvelopeSchema.parse({
    schemaVersion: "1.0",
    coverage: { status, dataClass: DATA_CLASS, objective: OBJECTIVE },
    context,
    result,
    warnings,
  });
}

export function packContext(pack: PostflopPackFile): Record<string, unknown> {
  const h = pack.header;
  return {
    pack: h.id,
    basePack: h.basePack,
    tree:
      h.tree === "flop33"
        ? "33% pot flop bet; 75% pot on turn and river; raises 2.5x"
        : "75% pot bets on every street; raises 2.5x",
    line: h.line.description,
    preflop: { game: h.line.game, stack: h.line.stack, oop: h.line.oop, ip: h.line.ip },
    street: h.street,
    potBb: h.pot,
    stackBb: h.stack,
    rake: { percent: h.rake.percent, capBb: h.rake.capBb },
  };
}

export function provenance(entry: BoardEntry): Record<string, unknown> {
  const p = entry.provenance;
  return {
    solvedAt: p.solvedAt,
    iterations: p.iterations,
    exploitabilityPct: p.exploitabilityPct,
    exploitabilityNote:
      "percent of the pot at the start of the street, measured by an exact best response on the solved tree",
    solveSeconds: p.seconds,
  };
}

export function scopeGaps(args: {
  players?: number | undefined;
  format?: string | undefined;
  pack?: string | undefined;
}): Gap[] {
  const gaps: Gap[] = [];
  if ((args.players ?? 2) > 2)
    gaps.push({
      topic: "multiway_postflop",
      detail: `Multiway postflop (${args.players} players) is not published: the postflop packs are heads-up only.`,
    });
  const f = `${args.format ?? ""} ${args.pack ?? ""}`.toLowerCase();
  if (/mtt|tourn|icm|pko|bounty|satell|sng|spin/.test(f))
    gaps.push({
      topic: "tournament_postflop",
      detail:
        "Tournament postflop is not published: the postflop packs are heads-up cash games (with the nl/v2 rake).",
    });
  return gaps;
}

/** What postflop data is published: the `published` list of a postflop request's unsupported envelope. */
export function postflopPublished(source: PostflopSource): string[] {
  const ids = source ? source.ids() : [];
  return [
    ids.length > 0
      ? `Heads-up cash postflop packs: ${ids.join(", ")} (flop decisions of their solved boards).`
      : "No postflop pack is installed.",
  ];
}

export function unsupported(
  tool: string,
  request: Record<string, unknown>,
  gaps: Gap[],
  source: PostflopSource,
): ToolEnvelope {
  return unsupportedEnvelope(tool, stripUndefined(request), gaps, postflopPublished(source));
}
