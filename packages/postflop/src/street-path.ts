/**
 * Paths across streets. A path is the flop's action labels, then the turn card, the turn's actions, the river
 * card and the river's actions:
 *
 * ```
 * []                                         the flop root (OOP to act)
 * ["check", "bet 4.13", "call"]              the range that calls the flop bet (get_postflop_range)
 * ["check", "bet 4.13", "call", "7c"]        the turn root after that line, 7c dealt (solved on demand)
 * ["check", "check", "7c", "bet 4.13", "call", "2d", "check"]   a river decision (turn, then river solved on demand)
 * ```
 *
 * The pack's street is read from the pack. Each later street is the subgame after the action that closed the
 * street before, solved on demand from that street's ranges (`nextStreetConfig`, `OnDemandSubgames`); its
 * decisions are read like a pack's. Cards are written in the request's suits; a board answered through a
 * suit-isomorphic solved board has its dealt cards mapped to the solved suits.
 */

import { type Card, formatCard, parseCard, RangesError } from "@ranges/core";
import type { PostflopConfig } from "./config.js";
import type { BoardData, PackNodeInfo } from "./extract.js";
import { lookupNodes, type PathLookup } from "./pack-store.js";
import {
  checkNextStreet,
  NoNextStreetError,
  nextStreetConfig,
  type OnDemandSubgames,
  STREET_OF_CARDS,
  type Street,
  type SubgameProvenance,
} from "./subgame.js";
import { permuteCard } from "./textures.js";

/** One street of a path: its spot and its decisions. */
export interface StreetLayer {
  readonly street: Street;
  /** The spot at the start of the street, in the solved board's suits. */
  readonly config: PostflopConfig;
  readonly nodes: readonly PackNodeInfo[];
  readonly data: BoardData;
  /** The path to the street's root: earlier streets' action labels and dealt cards (request's suits). */
  readonly before: readonly string[];
  /** Cards dealt after the pack's board (request's suits). */
  readonly dealt: readonly Card[];
  /** How the street was solved: null for the pack's stored street. */
  readonly solve: SubgameProvenance | null;
}

export interface FollowedPath {
  /** The street the path ends on. */
  readonly layer: StreetLayer;
  readonly path: Exclude<PathLookup, { kind: "beyond" }>;
}

const NEXT: Record<Street, string> = { flop: "turn", turn: "river", river: "" };

/**
 * Follows `steps` from a pack's stored street into later streets, solving each on demand. `toSolved` maps the
 * request's suits to the solved board's; `board` is the request's board. 400 `invalid_parameter` when a step
 * after a street's end is not a card that can be dealt, or no street follows (a fold, all in, the river).
 */
export async function followPath(
  first: StreetLayer,
  steps: readonly string[],
  asAction: boolean,
  toSolved: readonly number[],
  board: readonly Card[],
  subgames: OnDemandSubgames,
): Promise<FollowedPath> {
  let layer = first;
  let rest = steps;
  for (;;) {
    const path = lookupNodes(layer.nodes, rest, asAction, layer.before);
    if (path.kind !== "beyond") return { layer, path };
    const node = layer.nodes[path.node]!;
    const label = node.actions[path.action]!.label;
    const closed = [...layer.before, ...node.path, label];
    const stepNo = closed.length + 1;
    const text = path.rest[0]!;
    const card = parseCard(text.trim());
    let config: PostflopConfig;
    try {
      // First whether a street follows at all (the river's end, an all-in call), then the card.
      checkNextStreet(layer.config, layer.nodes, path);
      if (card === null) {
        throw new RangesError(
          "invalid_parameter",
          `path step ${stepNo} "${text}": "${label}" ends the ${layer.street}'s betting, so the next step is the ${NEXT[layer.street]} card (like "7c"), then its actions.`,
          { validPrefix: closed.join(",") },
        );
      }
      if (board.includes(card) || layer.dealt.includes(card)) {
        throw new RangesError(
          "invalid_parameter",
          `path step ${stepNo} "${text}": ${formatCard(card)} is already on the board (${[...board, ...layer.dealt].map(formatCard).join("")}).`,
          { validPrefix: closed.join(",") },
        );
      }
      config = nextStreetConfig(layer.config, layer.nodes, layer.data, path, permuteCard(card, toSolved));
    } catch (error) {
      if (!(error instanceof NoNextStreetError)) throw error;
      throw new RangesError("invalid_parameter", `path step ${stepNo} "${text}": ${error.message}.`, {
        validPrefix: closed.join(","),
      });
    }
    const solved = await subgames.solve(config);
    const dealt = [...layer.dealt, card];
    layer = {
      street: STREET_OF_CARDS[board.length + dealt.length]!,
      config,
      nodes: solved.nodes,
      data: solved.data,
      before: [...closed, formatCard(card)],
      dealt,
      solve: solved.provenance,
    };
    rest = path.rest.slice(1);
  }
}
