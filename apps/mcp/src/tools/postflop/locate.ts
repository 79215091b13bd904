/**
 * Finding a postflop node: pack, board (or a suit-isomorphic one) and path, followed into the turn and river
 * solved on demand; and what a located node gives: a combo's hand index and name in the request's suits,
 * the warnings of an unfinished solve, and the errors of a path that ends past a decision.
 */

import { RangesError } from "@ranges/core";
import {
  type BoardData,
  type BoardEntry,
  comboOf,
  followPath,
  lookupBoard,
  lookupPath,
  type PackNodeInfo,
  type PathLookup,
  type PostflopPackFile,
  packBoardConfig,
  permuteCard,
  permutedComboName,
  type StreetLayer,
  splitPath,
} from "@ranges/postflop";
import type { ToolEnvelope } from "@ranges/schema";
import { type PostflopSource, packsOf, unsupported } from "./common.js";

export interface Located {
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
export async function locate(
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

export const isEnvelope = (x: Located | ToolEnvelope): x is ToolEnvelope => "schemaVersion" in x;

/** A warning when the street was solved on demand and stopped before its target (time or iteration cap). */
export function solveWarnings(loc: Located): string[] {
  const solve = loc.layer.solve;
  if (!solve || solve.reachedTarget) return [];
  return [
    `The ${solve.street} was solved on demand but stopped at ${solve.iterations} iterations (${solve.seconds} s) before its target: it is ${solve.exploitabilityPct}% of the ${solve.street} pot exploitable, not ${solve.targetPct}%. This answer is not kept; asking again solves it again.`,
  ];
}

/** Where a combo the actor's range lacks at a node is missing from. */
export function notInRange(loc: Located, combo: string, node: PackNodeInfo): string {
  const who = `${node.player.toUpperCase()}'s range (${loc.pack.header.line[node.player]})`;
  return loc.layer.solve
    ? `combo ${combo} is not in ${who} at this ${loc.layer.street} node: it is not in the range on this board, or it does not reach the ${loc.layer.street} on this line (reach 0 after the flop's actions).`
    : `combo ${combo} is not in ${who} on this board.`;
}

/** The actor's hand index of a combo given in the request's suits, or -1 when it is not in the range. */
export function handIndex(loc: Located, q: number, cards: readonly [number, number]): number {
  const c = comboOf(permuteCard(cards[0], loc.toSolved), permuteCard(cards[1], loc.toSolved));
  return loc.layer.data.hands[q]!.indexOf(c);
}

export const nameOf = (loc: Located, combo: number) => permutedComboName(combo, loc.fromSolved);

export function requireNode(loc: Located, tool: string): number {
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
