/**
 * The envelopes of get_postflop_node and get_postflop_range (shared with the HTTP API): a decision's
 * strategy by action, class and combo, and the per-combo numbers of a node or of one action's range.
 */

import { RangesError } from "@ranges/core";
import { parseBoard, parseCombo, splitPath } from "@ranges/postflop";
import type { ToolEnvelope } from "@ranges/schema";
import { r3, r4 } from "../../round.js";
import { envelope, num, type PostflopSource, scopeGaps, unsupported } from "./common.js";
import { handIndex, isEnvelope, locate, nameOf, notInRange, requireNode, solveWarnings } from "./locate.js";
import { actionView, comboStrategy, nodeContext, weighted } from "./views.js";

export interface NodeArgs {
  readonly pack: string;
  readonly board: string;
  readonly path?: string | readonly string[] | undefined;
  readonly combo?: string | undefined;
  readonly players?: number | undefined;
  readonly format?: string | undefined;
}

/**
 * A combo that cannot be a hand on the board (malformed, or sharing a card with it) is refused before
 * `locate` may solve a turn or river on demand (a bad combo must not cost a solve).
 */
export function checkComboFirst(args: NodeArgs): void {
  if (args.combo !== undefined) parseCombo(args.combo, parseBoard(args.board) ?? []);
}

/**
 * How get_postflop_node and explain_combo start: the pack's scope, the combo (before any solve), the solve
 * (`locate`), the decision at the path; an envelope where one of them ends the call.
 */
export async function decisionAt(tool: string, source: PostflopSource, args: NodeArgs) {
  const request = { ...args };
  const gaps = scopeGaps(args);
  if (gaps.length > 0) return unsupported(tool, request, gaps, source);
  checkComboFirst(args);
  const loc = await locate(tool, source, args, request);
  if (isEnvelope(loc)) return loc;
  const k = requireNode(loc, tool);
  const node = loc.layer.nodes[k]!;
  return { loc, k, node, q: node.player === "oop" ? 0 : 1, d: loc.layer.data.nodes[k]! };
}

export async function postflopNode(source: PostflopSource, args: NodeArgs): Promise<ToolEnvelope> {
  const at = await decisionAt("get_postflop_node", source, args);
  if ("schemaVersion" in at) return at;
  const { loc, k, node, q, d } = at;
  const reach = d.reach[q]!;
  const actions = actionView(node).map((a, i) => ({
    ...a,
    frequency: r4(weighted(reach, (h) => d.strategy[i]![h]!) ?? 0),
    evBb: num(weighted(reach, (h) => d.actionEv[i]![h]!) ?? Number.NaN),
  }));
  const warnings: string[] = solveWarnings(loc);
  let combo: Record<string, unknown> | null = null;
  if (args.combo !== undefined) {
    const cards = parseCombo(args.combo, loc.cards);
    const h = handIndex(loc, q, cards);
    if (h < 0) throw new RangesError("invalid_hand", notInRange(loc, args.combo, node));
    combo = comboStrategy(loc, k, h);
    if (reach[h]! === 0)
      warnings.push(
        `${args.combo} never reaches this node (reach 0): its strategy here is what the solver holds for a hand that is not there, not an equilibrium frequency.`,
      );
  }
  // Per hand class: reach-weighted frequencies and EV of the actor's combos.
  const classes = new Map<string, { w: number; f: number[]; ev: number; evw: number }>();
  for (let h = 0; h < reach.length; h++) {
    if (!(reach[h]! > 0)) continue;
    const name = nameOf(loc, loc.layer.data.hands[q]![h]!);
    const cls = classOf(name);
    const c = classes.get(cls) ?? { w: 0, f: node.actions.map(() => 0), ev: 0, evw: 0 };
    c.w += reach[h]!;
    node.actions.forEach((_, i) => {
      c.f[i]! += reach[h]! * d.strategy[i]![h]!;
    });
    if (Number.isFinite(d.ev[q]![h]!)) {
      c.ev += reach[h]! * d.ev[q]![h]!;
      c.evw += reach[h]!;
    }
    classes.set(cls, c);
  }
  const byClass = [...classes.entries()].map(([cls, c]) => ({
    hand: cls,
    weight: r4(c.w),
    frequencies: Object.fromEntries(node.actions.map((a, i) => [a.label, r4(c.f[i]! / c.w)])),
    evBb: c.evw > 0 ? r3(c.ev / c.evw) : null,
  }));
  return envelope(
    "exact",
    { tool: "get_postflop_node", ...nodeContext(loc, node, args.board) },
    { actions, ...(combo ? { combo } : {}), classes: byClass },
    warnings,
  );
}

const RANKS = "23456789TJQKA";
function classOf(combo: string): string {
  const [a, s1, b, s2] = [combo[0]!, combo[1]!, combo[2]!, combo[3]!];
  const [hi, lo] = RANKS.indexOf(a) >= RANKS.indexOf(b) ? [a, b] : [b, a];
  return hi === lo ? `${hi}${lo}` : `${hi}${lo}${s1 === s2 ? "s" : "o"}`;
}

export async function postflopRange(
  source: PostflopSource,
  args: NodeArgs & { readonly action?: string | undefined; readonly minReach?: number | undefined },
): Promise<ToolEnvelope> {
  const request = { ...args };
  const gaps = scopeGaps(args);
  if (gaps.length > 0) return unsupported("get_postflop_range", request, gaps, source);
  const steps = splitPath(args.path ?? []);
  const withAction = args.action === undefined ? steps : [...steps, ...splitPath([args.action])];
  const loc = await locate(
    "get_postflop_range",
    source,
    { ...args, path: withAction },
    request,
    args.action !== undefined,
  );
  if (isEnvelope(loc)) return loc;
  const k = loc.path.node;
  const node = loc.layer.nodes[k]!;
  const q = node.player === "oop" ? 0 : 1;
  const d = loc.layer.data.nodes[k]!;
  const only = loc.path.kind === "action" ? loc.path.action : null;
  const minReach = args.minReach ?? 0;
  const combos: Record<string, unknown>[] = [];
  for (let h = 0; h < loc.layer.data.hands[q]!.length; h++) {
    const reach = d.reach[q]![h]!;
    const after = only === null ? reach : reach * d.strategy[only]![h]!;
    if (!(after > minReach)) continue;
    const base = { combo: nameOf(loc, loc.layer.data.hands[q]![h]!), reach: r4(reach) };
    if (only === null) {
      combos.push({
        ...base,
        frequencies: Object.fromEntries(node.actions.map((a, i) => [a.label, r4(d.strategy[i]![h]!)])),
        evBb: num(d.ev[q]![h]!),
        equity: num(d.equity[q]![h]!),
      });
    } else {
      combos.push({
        ...base,
        frequency: r4(d.strategy[only]![h]!),
        weightAfter: r4(after),
        evBb: num(d.actionEv[only]![h]!),
        equity: num(d.equity[q]![h]!),
      });
    }
  }
  const actions = actionView(node);
  const result =
    only === null
      ? { actions, combos, count: combos.length }
      : { action: actions[only], combos, count: combos.length };
  return envelope(
    "exact",
    {
      tool: "get_postflop_range",
      ...nodeContext(loc, node, args.board),
      ...(only === null ? {} : { rangeOf: node.actions[only]!.label }),
      minReach,
    },
    result,
    solveWarnings(loc),
  );
}
