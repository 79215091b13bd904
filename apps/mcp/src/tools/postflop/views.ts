/**
 * How a located postflop node is shown: its actions (amounts, compareKey, size), its context (pack, board,
 * suit mapping, path, the on-demand solve), one combo's strategy, and reach-weighted means over a range.
 */

import { formatCard } from "@ranges/core";
import { type PackNodeInfo, parseBoard, permuteCard } from "@ranges/postflop";
import { r4 } from "../../round.js";
import { num, POSTFLOP_UNITS, packContext, provenance } from "./common.js";
import { type Located, nameOf } from "./locate.js";

export function actionView(node: PackNodeInfo) {
  return node.actions.map((a) => ({
    action: a.label,
    kind: a.kind,
    amountBb: r4(a.add),
    toBb: r4(a.to),
    compareKey:
      a.kind === "bet" || a.kind === "raise" || a.kind === "allin"
        ? `${a.kind}:${Math.round(a.potFraction * 100)}%`
        : a.kind,
    sizePctPot:
      a.kind === "bet" || a.kind === "raise" || a.kind === "allin"
        ? Math.round(a.potFraction * 1000) / 10
        : null,
  }));
}

export function nodeContext(loc: Located, node: PackNodeInfo, board: string): Record<string, unknown> {
  const h = loc.pack.header;
  const solve = loc.layer.solve;
  return {
    ...packContext(loc.pack),
    board,
    solvedBoard: loc.entry.board,
    nodeStreet: loc.layer.street,
    ...(loc.layer.dealt.length > 0 ? { dealt: loc.layer.dealt.map(formatCard) } : {}),
    ...(loc.identical
      ? {}
      : {
          suitMapping:
            "The board is suit-isomorphic to the solved board: the solved strategies are given with the suits mapped back to the requested board's suits.",
        }),
    path: [...loc.layer.before, ...node.path],
    actor: node.player,
    actorSeat: node.player === "oop" ? h.line.oop : h.line.ip,
    nodePotBb: r4(node.pot),
    provenance: provenance(loc.entry),
    ...(solve
      ? {
          solve: {
            kind: solve.kind,
            street: solve.street,
            what: `The ${solve.street} was solved on demand as a game of its own: both players' ranges are those they reach it with in the solve of the street before (their reach at the decision that closed it), with this pack's ${solve.street === "turn" ? "turn and river" : "river"} sizes, thresholds and rake. Its strategies are an equilibrium of that subgame at the exploitability given here; the flop solve's own ${solve.street} strategy is not stored. The same subgame is answered from the same solve while it is kept.`,
            board: parseBoard(solve.board)!
              .map((c) => formatCard(permuteCard(c, loc.fromSolved)))
              .join(""),
            potBb: solve.potBb,
            stackBb: solve.stackBb,
            iterations: solve.iterations,
            exploitabilityPct: solve.exploitabilityPct,
            exploitabilityNote: `percent of the ${solve.street} pot (${solve.potBb}bb), measured by an exact best response in the subgame`,
            targetPct: solve.targetPct,
            reachedTarget: solve.reachedTarget,
            algorithm: solve.algorithm,
            solveSeconds: solve.seconds,
            solvedAt: solve.solvedAt,
          },
        }
      : {}),
    units: POSTFLOP_UNITS,
  };
}

/** Reach-weighted mean of a per-hand vector over hands with reach. */
export function weighted(reach: Float32Array, v: (h: number) => number): number | null {
  let s = 0;
  let w = 0;
  for (let h = 0; h < reach.length; h++) {
    const x = v(h);
    if (reach[h]! > 0 && Number.isFinite(x)) {
      s += reach[h]! * x;
      w += reach[h]!;
    }
  }
  return w > 0 ? s / w : null;
}

export function comboStrategy(loc: Located, k: number, h: number) {
  const node = loc.layer.nodes[k]!;
  const q = node.player === "oop" ? 0 : 1;
  const d = loc.layer.data.nodes[k]!;
  return {
    combo: nameOf(loc, loc.layer.data.hands[q]![h]!),
    reach: r4(d.reach[q]![h]!),
    strategy: node.actions.map((a, i) => ({
      action: a.label,
      frequency: r4(d.strategy[i]![h]!),
      evBb: num(d.actionEv[i]![h]!),
    })),
    evBb: num(d.ev[q]![h]!),
    equity: num(d.equity[q]![h]!),
  };
}
