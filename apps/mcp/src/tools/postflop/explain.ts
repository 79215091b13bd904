/** explain_combo's envelope (shared with the HTTP API): one combo's play, category and place in the range. */

import { RangesError } from "@ranges/core";
import { handCategoryOf, parseCombo } from "@ranges/postflop";
import type { ToolEnvelope } from "@ranges/schema";
import { r4 } from "../../round.js";
import { envelope, type PostflopSource } from "./common.js";
import { handIndex, notInRange, solveWarnings } from "./locate.js";
import { decisionAt, type NodeArgs } from "./node.js";
import { comboStrategy, nodeContext } from "./views.js";

export async function explainCombo(
  source: PostflopSource,
  args: NodeArgs & { readonly combo: string },
): Promise<ToolEnvelope> {
  const at = await decisionAt("explain_combo", source, args);
  if ("schemaVersion" in at) return at;
  const { loc, k, node, q, d } = at;
  const cards = parseCombo(args.combo, loc.cards);
  const h = handIndex(loc, q, cards);
  if (h < 0)
    throw new RangesError(
      "invalid_hand",
      `${notInRange(loc, args.combo, node)} explain_combo explains the player to act.`,
    );
  const s = comboStrategy(loc, k, h);
  const category = handCategoryOf(cards, loc.cards);
  // Where it sits: the reach-weighted share of the actor's range with lower equity (and with lower EV).
  const reach = d.reach[q]!;
  const below = (v: Float32Array) => {
    let lower = 0;
    let total = 0;
    for (let i = 0; i < reach.length; i++) {
      if (!(reach[i]! > 0) || !Number.isFinite(v[i]!)) continue;
      total += reach[i]!;
      if (v[i]! < v[h]!) lower += reach[i]!;
      else if (v[i]! === v[h]!) lower += reach[i]! / 2;
    }
    return total > 0 ? r4(lower / total) : null;
  };
  const equityPercentile = below(d.equity[q]!);
  const evPercentile = below(d.ev[q]!);
  const sorted = [...s.strategy].sort((a, b) => b.frequency - a.frequency);
  const main = sorted[0]!;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const what = [category.made, ...category.draws].join(", ");
  const mix = sorted
    .filter((x) => x.frequency >= 0.005)
    .map((x) => `${x.action} ${pct(x.frequency)}`)
    .join(", ");
  const evs = s.strategy
    .filter((x) => x.evBb !== null)
    .map((x) => `${x.action} ${x.evBb!.toFixed(2)}bb`)
    .join(", ");
  const seat = node.player === "oop" ? loc.pack.header.line.oop : loc.pack.header.line.ip;
  // What the EVs say about the choice: the actions it takes at 0.5% or more, their EV spread against 1% of
  // the pot (a mix within it is an indifference; a small leftover weight on a worse action is not).
  const takenEvs = s.strategy.filter((x) => x.frequency >= 0.005 && x.evBb !== null).map((x) => x.evBb!);
  const spread = takenEvs.length > 1 ? Math.max(...takenEvs) - Math.min(...takenEvs) : 0;
  const choice =
    takenEvs.length > 1 && spread <= 0.01 * node.pot
      ? ", and the actions it mixes are worth about the same to it"
      : main.frequency >= 0.95
        ? `, and ${main.action} is the clear choice${spread > 0 ? ` (what else it takes is worth up to ${spread.toFixed(2)}bb less)` : ""}`
        : `, and it mixes actions whose EVs differ by ${spread.toFixed(2)}bb, not yet settled at this exploitability`;
  const sentences = [
    `${s.combo} (${what}) plays ${mix} here${evs ? `; EV per action: ${evs}` : ""}.`,
    s.equity === null
      ? `It meets no hand of the opponent's range here, so it has no equity or EV.`
      : `With ${pct(s.equity)} equity it is ahead of ${equityPercentile === null ? "?" : pct(equityPercentile)} of ${seat}'s range at this node by equity${choice}.`,
  ];
  const warnings = [
    ...solveWarnings(loc),
    ...(s.reach === 0
      ? [`${args.combo} never reaches this node (reach 0): its strategy is not an equilibrium frequency.`]
      : []),
  ];
  return envelope(
    "exact",
    { tool: "explain_combo", ...nodeContext(loc, node, args.board) },
    {
      ...s,
      handCategory: category,
      rangePosition: {
        equityPercentile,
        evPercentile,
        note: "reach-weighted share of the actor's range at the node below this combo (ties half)",
      },
      explanation: sentences.join(" "),
    },
    warnings,
  );
}
