/**
 * The postflop tools: list_postflop_packs, get_postflop_node, get_postflop_range, explain_combo and
 * get_board_report, plus the postflop side of compare_strategies (`comparePostflop`). Every answer is the
 * analysis envelope. The envelope builders are exported so the HTTP API serves the same reads.
 *
 * Coverage: a flop node read from a solve of that board (or of a suit-isomorphic board, mapped back to the
 * requested suits) is `exact`; so is a turn or river node, read from the solve of that street's subgame made
 * on demand from the ranges the flop solve reaches it with (`context.solve` says so, with its exploitability);
 * board reports are `aggregated_report`; an unsolved board, a board report past the flop, multiway and
 * tournament requests are `unsupported`, with the gap stated and nothing substituted.
 */

import { formatCard, RangesError } from "@ranges/core";
import {
  type BoardData,
  type BoardEntry,
  boardTexture,
  comboOf,
  followPath,
  handCategoryOf,
  lookupBoard,
  lookupPath,
  type PackNodeInfo,
  type PathLookup,
  type PostflopPackFile,
  type PostflopPacks,
  packBoardConfig,
  parseBoard,
  parseCombo,
  permuteCard,
  permutedComboName,
  type StreetLayer,
  splitPath,
  TEXTURE_VALUES,
} from "@ranges/postflop";
import { type ToolEnvelope, ToolEnvelopeSchema } from "@ranges/schema";
import { z } from "zod";
import type { ToolContext } from "../context.js";
import { invalidParameter } from "../errors.js";
import { type Gap, stripUndefined, unsupportedEnvelope } from "../scope.js";
import { defineTool, type Outcome } from "../tool.js";

const DATA_CLASS = "postflop_heads_up_cash";
const OBJECTIVE = "cash_ev";
const r4 = (x: number) => Math.round(x * 10000) / 10000;
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const num = (x: number): number | null => (Number.isFinite(x) ? r3(x) : null);

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

function packsOf(source: PostflopSource): PostflopPacks {
  if (!source)
    throw new RangesError(
      "not_found",
      "No postflop pack is installed on this server (list_postflop_packs lists none).",
      { packs: [] },
    );
  return source;
}

function envelope(
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

function packContext(pack: PostflopPackFile): Record<string, unknown> {
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

function provenance(entry: BoardEntry): Record<string, unknown> {
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

function scopeGaps(args: {
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

function unsupported(
  tool: string,
  request: Record<string, unknown>,
  gaps: Gap[],
  source: PostflopSource,
): ToolEnvelope {
  return unsupportedEnvelope(tool, stripUndefined(request), gaps, postflopPublished(source));
}

interface Located {
  readonly pack: PostflopPackFile;
  readonly entry: BoardEntry;
  /** The street the path ends on (the pack's stored flop, or a later street solved on demand): its decisions and data. */
  readonly layer: StreetLayer;
  readonly toSolved: readonly number[];
  readonly fromSolved: readonly number[];
  readonly identical: boolean;
  /** The request's board and the cards dealt on the path (request's suits). */
  readonly cards: readonly number[];
  readonly path: Exclude<PathLookup, { kind: "beyond" }>;
  readonly steps: readonly string[];
}

/**
 * Resolves pack, board and path; an unsupported envelope when the board is not solved. A path past the flop
 * is followed into the turn and river, each solved on demand (see `followPath`).
 */
async function locate(
  tool: string,
  source: PostflopSource,
  args: { pack: string; board: string; path?: string | readonly string[] | undefined },
  request: Record<string, unknown>,
  asAction = false,
): Promise<Located | ToolEnvelope> {
  const packs = packsOf(source);
  const pack = packs.get(args.pack);
  const board = lookupBoard(pack, args.board);
  const steps = splitPath(args.path ?? []);
  // The pack's own street first: a step that is not an action there is an error even on an unsolved board.
  lookupPath(pack, steps, asAction);
  if (board.kind === "unsolved") {
    const near = board.nearest.map((b) => b.board);
    return unsupported(
      tool,
      request,
      [
        {
          topic: "unsolved_board",
          detail: `Board ${args.board} is not solved in pack ${pack.header.id} (nor any suit-isomorphic board). Nearest solved boards: ${near.join(", ")}. Nothing was substituted; ask for one of those boards.`,
        },
      ],
      source,
    );
  }
  const first: StreetLayer = {
    street: pack.header.street,
    config: packBoardConfig(pack.header, board.entry.board),
    nodes: pack.header.nodes,
    data: boardData(pack, board.entry.board),
    before: [],
    dealt: [],
    solve: null,
  };
  const followed = await followPath(first, steps, asAction, board.toSolved, board.cards, packs.subgames);
  return {
    pack,
    entry: board.entry,
    layer: followed.layer,
    toSolved: board.toSolved,
    fromSolved: board.fromSolved,
    identical: board.identical,
    cards: [...board.cards, ...followed.layer.dealt],
    path: followed.path,
    steps,
  };
}

/** A board's data; a block that cannot be read is a 503 for this pack and board only. */
function boardData(pack: PostflopPackFile, board: string): BoardData {
  try {
    return pack.board(board);
  } catch (error) {
    throw new RangesError(
      "pack_unavailable",
      `Board ${board} of postflop pack ${pack.header.id} cannot be read: ${(error as Error).message.replace(`${pack.path}: `, "")}`,
      { pack: pack.header.id, board },
    );
  }
}

const isEnvelope = (x: Located | ToolEnvelope): x is ToolEnvelope => "schemaVersion" in x;

/** A warning when the street was solved on demand and stopped before its target (time or iteration cap). */
function solveWarnings(loc: Located): string[] {
  const solve = loc.layer.solve;
  if (!solve || solve.reachedTarget) return [];
  return [
    `The ${solve.street} was solved on demand but stopped at ${solve.iterations} iterations (${solve.seconds} s) before its target: it is ${solve.exploitabilityPct}% of the ${solve.street} pot exploitable, not ${solve.targetPct}%. This answer is not kept; asking again solves it again.`,
  ];
}

/** Where a combo the actor's range lacks at a node is missing from. */
function notInRange(loc: Located, combo: string, node: PackNodeInfo): string {
  const who = `${node.player.toUpperCase()}'s range (${loc.pack.header.line[node.player]})`;
  return loc.layer.solve
    ? `combo ${combo} is not in ${who} at this ${loc.layer.street} node: it is not in the range on this board, or it does not reach the ${loc.layer.street} on this line (reach 0 after the flop's actions).`
    : `combo ${combo} is not in ${who} on this board.`;
}

function actionView(node: PackNodeInfo) {
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

function nodeContext(loc: Located, node: PackNodeInfo, board: string): Record<string, unknown> {
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

/** The actor's hand index of a combo given in the request's suits, or -1 when it is not in the range. */
function handIndex(loc: Located, q: number, cards: readonly [number, number]): number {
  const c = comboOf(permuteCard(cards[0], loc.toSolved), permuteCard(cards[1], loc.toSolved));
  return loc.layer.data.hands[q]!.indexOf(c);
}

const nameOf = (loc: Located, combo: number) => permutedComboName(combo, loc.fromSolved);

/** Reach-weighted mean of a per-hand vector over hands with reach. */
function weighted(reach: Float32Array, v: (h: number) => number): number | null {
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

function comboStrategy(loc: Located, k: number, h: number) {
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

function requireNode(loc: Located, tool: string): number {
  if (loc.path.kind === "node") return loc.path.node;
  const node = loc.layer.nodes[loc.path.node]!;
  const a = node.actions[loc.path.action]!;
  const street = loc.layer.street;
  const next = street === "flop" ? "turn" : street === "turn" ? "river" : null;
  throw new RangesError(
    "invalid_parameter",
    a.kind === "fold"
      ? `The path ends in "${a.label}": the hand is over. ${tool} takes a path to a decision.`
      : next
        ? `The path ends in "${a.label}", which ends the ${street}'s betting. ${tool} takes a path to a decision: add the ${next} card to go on (e.g. [..., "${a.label}", "7c"]); get_postflop_range takes a path ending in an action.`
        : `The path ends in "${a.label}", which ends the river's betting: the hands are shown down. ${tool} takes a path to a decision; get_postflop_range takes a path ending in an action.`,
    {
      validPrefix: [...loc.layer.before, ...node.path].join(","),
      validActions: node.actions.map((x) => x.label),
    },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Envelope builders (shared with the HTTP API)

export function listPostflopPacks(source: PostflopSource): ToolEnvelope {
  const packs = source ? source.list() : [];
  const rows = packs.map((p) => {
    if (!p.pack) return { pack: p.id, available: false, error: p.error };
    const h = p.pack.header;
    const ex = h.boards.map((b) => b.provenance.exploitabilityPct);
    return {
      pack: h.id,
      available: true,
      ...packContext(p.pack),
      ranges: h.ranges,
      boardsSolved: h.boards.length,
      boards: h.boards.map((b) => b.board),
      nodesPerBoard: h.nodes.length,
      exploitabilityPct:
        ex.length > 0
          ? {
              max: Math.max(...ex),
              mean: r4(ex.reduce((s, x) => s + x, 0) / ex.length),
              targetPct: h.solver.targetPct,
            }
          : null,
      solver: h.solver.algorithm,
      checksum: p.pack.checksum,
    };
  });
  const warnings = rows.length === 0 ? ["No postflop pack is installed on this server yet."] : [];
  return envelope(
    "exact",
    {
      tool: "list_postflop_packs",
      units: POSTFLOP_UNITS,
      turnAndRiver:
        'Packs store every decision of the first street (the flop) of each solved board for every combo. A path that goes on with the turn card (["check", "check", "7c", ...]) and then the river card is answered by solving that street on demand from the ranges the flop solve reaches it with (to 0.5% of its pot, a few seconds, then kept): coverage.status exact, with context.solve giving what was solved and its exploitability.',
    },
    { packs: rows, count: rows.length },
    warnings,
  );
}

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
function checkComboFirst(args: NodeArgs): void {
  if (args.combo !== undefined) parseCombo(args.combo, parseBoard(args.board) ?? []);
}

export async function postflopNode(source: PostflopSource, args: NodeArgs): Promise<ToolEnvelope> {
  const request = { ...args };
  const gaps = scopeGaps(args);
  if (gaps.length > 0) return unsupported("get_postflop_node", request, gaps, source);
  checkComboFirst(args);
  const loc = await locate("get_postflop_node", source, args, request);
  if (isEnvelope(loc)) return loc;
  const k = requireNode(loc, "get_postflop_node");
  const node = loc.layer.nodes[k]!;
  const q = node.player === "oop" ? 0 : 1;
  const d = loc.layer.data.nodes[k]!;
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

export async function explainCombo(
  source: PostflopSource,
  args: NodeArgs & { readonly combo: string },
): Promise<ToolEnvelope> {
  const request = { ...args };
  const gaps = scopeGaps(args);
  if (gaps.length > 0) return unsupported("explain_combo", request, gaps, source);
  checkComboFirst(args);
  const loc = await locate("explain_combo", source, args, request);
  if (isEnvelope(loc)) return loc;
  const k = requireNode(loc, "explain_combo");
  const node = loc.layer.nodes[k]!;
  const q = node.player === "oop" ? 0 : 1;
  const d = loc.layer.data.nodes[k]!;
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

export interface ReportArgs {
  readonly pack: string;
  readonly path?: string | readonly string[] | undefined;
  readonly filters?:
    | {
        readonly pairedness?: string | undefined;
        readonly suitTexture?: string | undefined;
        readonly connectivity?: string | undefined;
        readonly highCardClass?: string | undefined;
      }
    | undefined;
  readonly players?: number | undefined;
  readonly format?: string | undefined;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z]/g, "");

/**
 * Reads the boards of a report's pack one per turn of the event loop, so that `boardReport` (synchronous, as
 * the HTTP API calls it) finds them decoded: a report reads up to every solved board of the pack, tens of
 * milliseconds each, which would otherwise hold the event loop for all of them at once. Errors are left to
 * `boardReport`, which reports them.
 */
async function readBoardsInTurns(source: PostflopSource, args: ReportArgs): Promise<void> {
  if (!source || scopeGaps(args).length > 0) return;
  let pack: PostflopPackFile;
  try {
    pack = source.get(args.pack);
  } catch {
    return;
  }
  for (const b of pack.header.boards) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      pack.board(b.board);
    } catch {
      // Listed as unavailable by the report.
    }
  }
}

export function boardReport(source: PostflopSource, args: ReportArgs): ToolEnvelope {
  const request = { ...args };
  const gaps = scopeGaps(args);
  if (gaps.length > 0) return unsupported("get_board_report", request, gaps, source);
  const pack = packsOf(source).get(args.pack);
  const filters: Record<string, string> = {};
  for (const [key, values] of Object.entries(TEXTURE_VALUES)) {
    const raw = (args.filters as Record<string, string | undefined> | undefined)?.[key];
    if (raw === undefined || raw.trim() === "" || norm(raw) === "any") continue;
    const hit = (values as readonly string[]).find((v) => norm(v) === norm(raw));
    if (!hit)
      throw invalidParameter(
        `filters.${key} "${raw}" is not a value of ${key}; use one of ${values.join(", ")} (or leave it out).`,
        { allowed: [...values] },
      );
    filters[key] = hit;
  }
  const steps = splitPath(args.path ?? []);
  const path = lookupPath(pack, steps);
  if (path.kind !== "node") {
    const node = pack.header.nodes[path.node]!;
    if (path.kind === "beyond")
      return unsupported(
        "get_board_report",
        request,
        [
          {
            topic: "turn_river_nodes",
            detail: `The path goes past the ${pack.header.street} ("${node.actions[path.action]!.label}" ends its betting). Board reports aggregate the stored ${pack.header.street} decisions of every solved board; a later street is solved on demand for one board and card at a time, so no report is made across boards for it. Ask get_postflop_node for one board with the card in the path.`,
          },
        ],
        source,
      );
    throw invalidParameter(
      `The path ends in "${node.actions[path.action]!.label}", which ends the ${pack.header.street}'s betting; get_board_report takes a path to a ${pack.header.street} decision.`,
      { validActions: node.actions.map((a) => a.label) },
    );
  }
  const node = pack.header.nodes[path.node]!;
  const q = node.player === "oop" ? 0 : 1;
  const matched = pack.header.boards.filter((b) => {
    const t = boardTexture(parseBoard(b.board)!) as unknown as Record<string, string>;
    return Object.entries(filters).every(([key, v]) => t[key] === v);
  });
  const rows: Record<string, unknown>[] = [];
  const analyzedProvenance: BoardEntry["provenance"][] = [];
  const unavailable: { board: string; reason: string }[] = [];
  const sums = node.actions.map(() => 0);
  const evSums = node.actions.map(() => 0);
  const evCounts = node.actions.map(() => 0);
  for (const b of matched) {
    let data: BoardData;
    try {
      data = pack.board(b.board);
    } catch (error) {
      unavailable.push({ board: b.board, reason: (error as Error).message.replace(`${pack.path}: `, "") });
      continue;
    }
    const d = data.nodes[path.node]!;
    const reach = d.reach[q]!;
    const freqs = node.actions.map((_, i) => weighted(reach, (h) => d.strategy[i]![h]!) ?? 0);
    const evs = node.actions.map((_, i) =>
      weighted(reach, (h) => d.actionEv[i]![h]! * (d.strategy[i]![h]! > 0 ? 1 : Number.NaN)),
    );
    freqs.forEach((f, i) => {
      sums[i]! += f;
      const e = evs[i];
      if (e !== null && e !== undefined && Number.isFinite(e)) {
        evSums[i]! += e;
        evCounts[i]!++;
      }
    });
    analyzedProvenance.push(b.provenance);
    rows.push({
      board: b.board,
      texture: boardTexture(parseBoard(b.board)!),
      frequencies: Object.fromEntries(node.actions.map((a, i) => [a.label, r4(freqs[i]!)])),
      exploitabilityPct: b.provenance.exploitabilityPct,
    });
  }
  const analyzed = rows.length;
  if (matched.length === 0) {
    return unsupported(
      "get_board_report",
      request,
      [
        {
          topic: "no_matching_boards",
          detail: `No solved board of pack ${pack.header.id} matches ${JSON.stringify(filters)} (${pack.header.boards.length} boards solved: ${pack.header.boards.map((b) => b.board).join(", ")}).`,
        },
      ],
      source,
    );
  }
  const aggregate = node.actions.map((a, i) => ({
    action: a.label,
    kind: a.kind,
    compareKey: actionView(node)[i]!.compareKey,
    frequency: analyzed > 0 ? r4(sums[i]! / analyzed) : null,
    evBb: evCounts[i]! > 0 ? r3(evSums[i]! / evCounts[i]!) : null,
  }));
  const warnings =
    unavailable.length > 0
      ? [`${unavailable.length} matched boards could not be read and are left out.`]
      : [];
  return envelope(
    "aggregated_report",
    {
      tool: "get_board_report",
      ...packContext(pack),
      path: node.path,
      actor: node.player,
      filters,
      weighting:
        "every analyzed board weighs equally; per board, the actor's frequencies are weighted by each combo's reach",
      units: POSTFLOP_UNITS,
      provenance: reportProvenance(analyzedProvenance),
    },
    {
      counts: {
        solved: pack.header.boards.length,
        matched: matched.length,
        analyzed,
        unavailable: unavailable.length,
      },
      aggregate,
      boards: rows,
      unavailable,
    },
    warnings,
  );
}

/** The provenance of the boards a report analyzed: when they were solved, iterations, time, exploitability. */
function reportProvenance(boards: readonly BoardEntry["provenance"][]): Record<string, unknown> | null {
  if (boards.length === 0) return null;
  const times = boards.map((p) => p.solvedAt).sort();
  const iterations = boards.map((p) => p.iterations);
  const seconds = boards.map((p) => p.seconds);
  const ex = boards.map((p) => p.exploitabilityPct);
  return {
    boards: boards.length,
    solvedAt: { first: times[0], last: times[times.length - 1] },
    iterations: { min: Math.min(...iterations), max: Math.max(...iterations) },
    solveSeconds: { total: r3(seconds.reduce((a, b) => a + b, 0)), max: Math.max(...seconds) },
    exploitabilityPct: { max: Math.max(...ex), mean: r4(ex.reduce((a, b) => a + b, 0) / ex.length) },
    exploitabilityNote:
      "percent of the pot at the start of the street, per analyzed board, measured by an exact best response on the solved tree",
  };
}

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

// ---------------------------------------------------------------------------------------------------------
// Tool specs

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
