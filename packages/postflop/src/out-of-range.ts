/**
 * Best-response values of hands a solve left out of a player's range.
 *
 * A solve's cost grows with the number of hands in the ranges, and a preflop model needs the value of every
 * hand in every pot, also of hands the preflop strategy never puts there. A hand with a tiny weight barely
 * changes the equilibrium, and at the limit it plays a best response to the opponent's strategy; so instead
 * of solving the game again with every hand in the range (several times the cost), `outOfRangeValues` builds
 * the same game with the wider range for one player, copies the opponent's average strategy into it node by
 * node (the opponent's hands, and so the size of each of the opponent's decisions, are the same in both
 * games), and runs one best-response traversal for the player: the counterfactual best-response value of
 * every hand of the wider range, against the strategy the solve published.
 *
 * For hands that were in the solved range the values are exactly the solve's own best-response values (the
 * test checks that), and they exceed the hands' equilibrium EVs by at most what the solve's exploitability
 * allows on average.
 */

import type { PostflopConfig } from "./config.js";
import { resolveConfig } from "./config.js";
import { discountAt } from "./dcfr.js";
import { MODE_BR } from "./engine.js";
import { PostflopGame } from "./game.js";
import { equities, opponentTotals } from "./solve.js";
import { allocateBuffers, PostflopSolver } from "./solver.js";
import { CHANCE, DECISION } from "./tree.js";

export interface OutOfRangeValues {
  /** Combo numbers (`@ranges/solver` numbering) of the wider range's hands live on the board. */
  readonly hands: Int32Array;
  /**
   * Best-response EV of each hand at the root in chips: its expected share of the pot (the pot-share
   * convention of `NodeData.ev`); NaN where the hand meets no hand of the opponent's range.
   */
  readonly ev: Float64Array;
  /** Equity of each hand against the opponent's range over every runout (ties half); NaN as for `ev`. */
  readonly equity: Float64Array;
}

/**
 * Every (storage offset, length) of player `p`'s decisions in a game, in one fixed order: the top's
 * decisions, then each unit's, walking its street blocks as the engine does.
 */
function decisionSlices(
  g: PostflopGame,
  p: number,
): { top: [number, number][]; units: [number, number, number][] } {
  const top: [number, number][] = [];
  for (const id of g.topNodes) {
    if (g.kind[id] === DECISION && g.player[id] === p)
      top.push([g.localOffset[id]!, g.numChildren[id]! * g.n[p]!]);
  }
  const units: [number, number, number][] = [];
  for (const unit of g.units) {
    if (unit.size === 0) continue;
    const root = g.children[g.firstChild[unit.leaf]!]!;
    const blockEnd = unit.base + g.blockSize[root]!;
    const deals = unit.next.length;
    const walk = (id: number, base: number): void => {
      const kind = g.kind[id]!;
      if (kind === DECISION) {
        if (g.player[id] === p)
          units.push([unit.chunk, base + g.localOffset[id]!, g.numChildren[id]! * g.n[p]!]);
        const first = g.firstChild[id]!;
        for (let a = 0; a < g.numChildren[id]!; a++) walk(g.children[first + a]!, base);
      } else if (kind === CHANCE && !g.tree.nodes[id]!.allIn && deals > 0) {
        const child = g.children[g.firstChild[id]!]!;
        const start = blockEnd + deals * g.chancePrefix[id]!;
        for (let j = 0; j < deals; j++) walk(child, start + j * g.blockSize[child]!);
      }
    };
    walk(root, unit.base);
  }
  return { top, units };
}

/** Throws unless the two games deal the same cards in the same units (the layouts then correspond). */
function checkSameDeals(a: PostflopGame, b: PostflopGame): void {
  const same =
    a.nodeCount === b.nodeCount &&
    a.units.length === b.units.length &&
    a.units.every((u, i) => {
      const v = b.units[i]!;
      return (
        u.leaf === v.leaf &&
        u.deal.card === v.deal.card &&
        u.next.length === v.next.length &&
        u.next.every((d, j) => d.card === v.next[j]!.card)
      );
    });
  if (!same) {
    throw new Error(
      "outOfRangeValues: the wider range deals different cards (its suit symmetry differs from the solved range's); give every combo of a class the same weight",
    );
  }
}

/**
 * The best-response values at the root of every hand of `range` (range text, e.g. every class at a small
 * weight) for `player`, against the other player's average strategy in `solver`. The other player's range is
 * the solve's. Memory: a second game with the wider range (freed when this returns).
 */
export function outOfRangeValues(solver: PostflopSolver, player: 0 | 1, range: string): OutOfRangeValues {
  const g1 = solver.game;
  const o = 1 - player;
  const source = g1.config.source;
  const config: PostflopConfig = {
    ...source,
    ranges: player === 0 ? { oop: range, ip: source.ranges.ip } : { oop: source.ranges.oop, ip: range },
  };
  const g2 = new PostflopGame(resolveConfig(config), {
    isomorphism: g1.isomorphism,
    compressed: g1.entryBytes === 2,
  });
  const sameOpponent =
    g2.n[o] === g1.n[o] &&
    g2.combos[o]!.every((c, i) => c === g1.combos[o]![i]) &&
    g2.weights[o]!.every((w, i) => w === g1.weights[o]![i]);
  if (!sameOpponent) throw new Error("outOfRangeValues: the opponent's hands differ between the two games");
  checkSameDeals(g1, g2);

  const buffers = allocateBuffers(g2, false, 1);
  const solver2 = new PostflopSolver(g2, buffers, null, solver.params);
  try {
    const from = decisionSlices(g1, o);
    const to = decisionSlices(g2, o);
    if (from.top.length !== to.top.length || from.units.length !== to.units.length) {
      throw new Error("outOfRangeValues: the two games' decisions do not correspond");
    }
    from.top.forEach(([off, len], i) => {
      const [off2, len2] = to.top[i]!;
      if (len !== len2) throw new Error("outOfRangeValues: a decision's size differs between the games");
      solver2.topCum.set(solver.topCum.subarray(off, off + len), off2);
    });
    from.units.forEach(([chunk, off, len], i) => {
      const [chunk2, off2, len2] = to.units[i]!;
      if (len !== len2) throw new Error("outOfRangeValues: a decision's size differs between the games");
      // The decision's entries as bytes (one copy whatever their type); with 16-bit storage, its scale (the two
      // entries before it) as well.
      const E = g1.entryBytes;
      const h = E === 2 ? 2 : 0;
      const src = solver.buffers.cum[chunk]!;
      const dst = buffers.cum[chunk2]!;
      new Uint8Array(dst.buffer, dst.byteOffset + (off2 - h) * E, (len + h) * E).set(
        new Uint8Array(src.buffer, src.byteOffset + (off - h) * E, (len + h) * E),
      );
    });
    const none = discountAt(1, solver.params);
    const root = solver2.traverse(MODE_BR, player, none);
    const n = g2.n[player]!;
    const opp = g2.weights[o]!;
    const totals = opponentTotals(g2, player, opp);
    const ev = new Float64Array(n);
    for (let h = 0; h < n; h++) {
      ev[h] = totals[h]! > 1e-12 ? solver2.top.buf[root + h]! / totals[h]! : Number.NaN;
    }
    const eq = equities(g2, player, opp, totals);
    return {
      hands: Int32Array.from(g2.combos[player]!),
      ev,
      equity: Float64Array.from(eq, (x) => x ?? Number.NaN),
    };
  } finally {
    solver2.close();
  }
}
