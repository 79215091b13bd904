/** compare_strategies with domain "postflop" (shared with the HTTP API): two postflop nodes side by side. */

import { RangesError } from "@ranges/core";
import { type PackNodeInfo, parseCombo } from "@ranges/postflop";
import type { ToolEnvelope } from "@ranges/schema";
import { invalidParameter } from "../../errors.js";
import { r3, r4 } from "../../round.js";
import { envelope, num, type PostflopSource, scopeGaps, unsupported } from "./common.js";
import { handIndex, isEnvelope, type Located, locate, nameOf, requireNode, solveWarnings } from "./locate.js";
import { actionView, comboStrategy, nodeContext, weighted } from "./views.js";

export interface CompareSide {
  readonly pack?: string | undefined;
  readonly board?: string | undefined;
  readonly path?: string | readonly string[] | undefined;
  readonly combo?: string | undefined;
  readonly players?: number | undefined;
  readonly format?: string | undefined;
}

/** compare_strategies with domain "postflop". */
export async function comparePostflop(
  source: PostflopSource,
  baseline: CompareSide,
  comparison: CompareSide,
  limit: number,
): Promise<ToolEnvelope> {
  const request = { domain: "postflop", baseline, comparison, limit };
  const gaps = [...scopeGaps(baseline), ...scopeGaps(comparison)];
  if (gaps.length > 0) return unsupported("compare_strategies", request, gaps, source);
  const sides = [];
  for (const [name, s] of [
    ["baseline", baseline],
    ["comparison", comparison],
  ] as const) {
    if (!s.pack || !s.board)
      throw invalidParameter(
        `${name}: postflop sides take pack, board and path (and optionally combo), e.g. {"pack": "srp-btn-bb-100bb", "board": "QsJh2h", "path": []}.`,
      );
    sides.push({
      name,
      side: s,
      loc: await locate(
        "compare_strategies",
        source,
        { pack: s.pack, board: s.board, path: s.path },
        request,
      ),
    });
  }
  for (const s of sides) if (isEnvelope(s.loc)) return s.loc;
  const [b, c] = sides.map((s) => {
    const loc = s.loc as Located;
    const k = requireNode(loc, "compare_strategies");
    const node = loc.layer.nodes[k]!;
    return {
      name: s.name,
      side: s.side,
      loc,
      k,
      node,
      q: node.player === "oop" ? 0 : 1,
      view: actionView(node),
    };
  }) as [never, never] as [Side, Side];
  const warnings: string[] = [...solveWarnings(b.loc), ...solveWarnings(c.loc)];
  if (b.node.player !== c.node.player)
    warnings.push(
      `The players to act differ: ${b.node.player} (baseline) and ${c.node.player} (comparison).`,
    );
  const keys = [...new Set([...b.view.map((a) => a.compareKey), ...c.view.map((a) => a.compareKey)])];
  const idx = (s: Side, key: string) => s.view.findIndex((a) => a.compareKey === key);
  const onlyIn = (s: Side, o: Side) => s.view.filter((a) => idx(o, a.compareKey) < 0).map((a) => a.action);
  const context = {
    tool: "compare_strategies",
    domain: "postflop",
    baseline: nodeContext(b.loc, b.node, b.side.board!),
    comparison: nodeContext(c.loc, c.node, c.side.board!),
    matching: "actions are matched by compareKey (kind and pot-normalized size), combos by their cards",
  };
  const combo = b.side.combo ?? c.side.combo;
  if (combo !== undefined) {
    const hands = [b, c].map((s) => {
      const h = handIndex(s.loc, s.q, parseCombo(combo, s.loc.cards));
      if (h < 0)
        throw new RangesError(
          "invalid_hand",
          `${s.name}: combo ${combo} is not in the range of the player to act on this board.`,
        );
      return comboStrategy(s.loc, s.k, h);
    });
    const actions = keys.map((key) => {
      const [bi, ci] = [idx(b, key), idx(c, key)];
      const bs = bi >= 0 ? hands[0]!.strategy[bi]! : null;
      const cs = ci >= 0 ? hands[1]!.strategy[ci]! : null;
      return {
        compareKey: key,
        baseline: bs && {
          action: bs.action,
          amountBb: b.view[bi]!.amountBb,
          frequency: bs.frequency,
          evBb: bs.evBb,
        },
        comparison: cs && {
          action: cs.action,
          amountBb: c.view[ci]!.amountBb,
          frequency: cs.frequency,
          evBb: cs.evBb,
        },
        deltaFreq: bs && cs ? r4(cs.frequency - bs.frequency) : null,
        deltaEvBb: bs?.evBb != null && cs?.evBb != null ? r3(cs.evBb - bs.evBb) : null,
      };
    });
    return envelope(
      "exact",
      context,
      { mode: "combo", combo, actions, onlyInBaseline: onlyIn(b, c), onlyInComparison: onlyIn(c, b) },
      warnings,
    );
  }
  const changes: Array<Record<string, unknown> & { deltaFreq: number }> = [];
  const cIndex = new Map<string, number>();
  c.loc.layer.data.hands[c.q]!.forEach((combo, h) => {
    cIndex.set(nameOf(c.loc, combo), h);
  });
  const bd = b.loc.layer.data.nodes[b.k]!;
  const cd = c.loc.layer.data.nodes[c.k]!;
  b.loc.layer.data.hands[b.q]!.forEach((comboB, hb) => {
    const name = nameOf(b.loc, comboB);
    const hc = cIndex.get(name);
    if (hc === undefined || !(bd.reach[b.q]![hb]! > 0) || !(cd.reach[c.q]![hc]! > 0)) return;
    for (const key of keys) {
      const [bi, ci] = [idx(b, key), idx(c, key)];
      if (bi < 0 || ci < 0) continue;
      const bf = r4(bd.strategy[bi]![hb]!);
      const cf = r4(cd.strategy[ci]![hc]!);
      if (bf === cf) continue;
      changes.push({
        combo: name,
        compareKey: key,
        baselineAction: b.view[bi]!.action,
        comparisonAction: c.view[ci]!.action,
        baselineFreq: bf,
        comparisonFreq: cf,
        deltaFreq: r4(cf - bf),
        baselineEvBb: num(bd.actionEv[bi]![hb]!),
        comparisonEvBb: num(cd.actionEv[ci]![hc]!),
      });
    }
  });
  changes.sort(
    (x, y) =>
      Math.abs(y.deltaFreq) - Math.abs(x.deltaFreq) ||
      String(x.combo).localeCompare(String(y.combo)) ||
      String(x.compareKey).localeCompare(String(y.compareKey)),
  );
  const share = (s: Side, i: number) => {
    const d = s.loc.layer.data.nodes[s.k]!;
    return r4(weighted(d.reach[s.q]!, (h) => d.strategy[i]![h]!) ?? 0);
  };
  const actions = keys.map((key) => {
    const [bi, ci] = [idx(b, key), idx(c, key)];
    return {
      compareKey: key,
      baseline:
        bi >= 0
          ? { action: b.view[bi]!.action, amountBb: b.view[bi]!.amountBb, frequency: share(b, bi) }
          : null,
      comparison:
        ci >= 0
          ? { action: c.view[ci]!.action, amountBb: c.view[ci]!.amountBb, frequency: share(c, ci) }
          : null,
    };
  });
  return envelope(
    "exact",
    { ...context, limit },
    {
      mode: "largest_changes",
      actions,
      changes: changes.slice(0, limit),
      changesTotal: changes.length,
      onlyInBaseline: onlyIn(b, c),
      onlyInComparison: onlyIn(c, b),
    },
    warnings,
  );
}

interface Side {
  readonly name: string;
  readonly side: CompareSide;
  readonly loc: Located;
  readonly k: number;
  readonly node: PackNodeInfo;
  readonly q: number;
  readonly view: ReturnType<typeof actionView>;
}
