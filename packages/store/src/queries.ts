/**
 * The store's queries: catalog, discovery, node, range, spots and config as schema-typed objects, and the
 * node and range bodies serialized straight to JSON for the fast path. Each checks its parameters, takes the
 * pack from `PackLoading.pack` (reading it on this thread if needed) and locates the path in it.
 */

import {
  GAME_IDS,
  GAMES,
  type GameId,
  HOLDEM_CLASS_COUNT,
  PLO_CLASS_COUNT,
  parseHand,
  parsePath,
  RangesError,
} from "@ranges/core";
import {
  type Catalog,
  type Config,
  type Discovery,
  type Node,
  type PloGameDoc,
  type Range,
  SCHEMA_VERSION,
  type Spots,
  unitsFor,
} from "@ranges/schema";
import { RawJson } from "./body-cache.js";
import { locateAction, locateNode, nextSeatAfter } from "./locate.js";
import type { PackLoading } from "./pack-loading.js";
import type { PackSet } from "./pack-set.js";
import { parseGameParam, parseMinFreqParam, parseStackParam } from "./params.js";
import { ploGameDoc } from "./plo-doc.js";
import type { NodeQueryOptions, RangeQueryOptions } from "./store-types.js";
import { configView, nodeBytes, nodeView, rangeBytes, rangeView, spotsView } from "./views.js";

/** The queries behind `RangeStore`'s methods of the same names (documented there). */
export class StoreQueries {
  constructor(
    private readonly packs: PackSet,
    private readonly loading: PackLoading,
  ) {}

  ploDoc(game: GameId): PloGameDoc | null {
    game = parseGameParam(game);
    return GAMES[game].variant === "omaha" ? ploGameDoc(this.packs.liveHeaders(game)) : null;
  }

  catalog(): Catalog {
    return {
      schemaVersion: SCHEMA_VERSION,
      units: unitsFor(true),
      games: GAME_IDS.map((game) => {
        const info = GAMES[game];
        const plo = this.ploDoc(game);
        return {
          game,
          title: info.title,
          variant: info.variant,
          format: info.format,
          stacks: this.packs.liveStacks(game),
          positions: [...info.seats],
          classCount: info.classSet === "plo16432" ? PLO_CLASS_COUNT : HOLDEM_CLASS_COUNT,
          tokens: info.tokenStyle,
          evUnit: info.hasEvs ? "sb" : null,
          keyless: [...info.keyless],
          operations: [...info.serves],
          ...(plo === null ? {} : { plo }),
        };
      }),
    };
  }

  discovery(game: GameId): Discovery {
    game = parseGameParam(game);
    const info = GAMES[game];
    const plo = this.ploDoc(game);
    return {
      schemaVersion: SCHEMA_VERSION,
      units: unitsFor(info.hasEvs),
      game,
      stacks: this.packs.liveStacks(game),
      positions: [...info.seats],
      ...(plo === null ? {} : { plo }),
    };
  }

  node(game: GameId, stack: number, history: string, options: NodeQueryOptions = {}): Node {
    const q = this.nodeQuery(game, stack, history, options);
    return nodeView(q.pack, q.node, q.opts);
  }

  /** `JSON.stringify(node(...))`, built without the objects (the JSON path's builder). */
  nodeText(game: GameId, stack: number, history: string, options: NodeQueryOptions): RawJson {
    const q = this.nodeQuery(game, stack, history, options);
    return new RawJson(nodeBytes(q.pack, q.node, q.opts));
  }

  /** A node query checked and located: the pack, the node and the view's options. */
  private nodeQuery(gameParam: GameId, stackParam: number, history: string, options: NodeQueryOptions) {
    const { game, stack, hand, minFreq } = checkedParams(gameParam, stackParam, options);
    const full = options.full === true;
    if (full && GAMES[game].variant !== "holdem") {
      throw new RangesError(
        "invalid_parameter",
        `full=1 is for hold'em games only; ${game} has 16,432 PLO classes. Leave full out and use minFreq (e.g. minFreq=0.05) to keep the response small.`,
        { parameter: "full" },
      );
    }
    const parsed = parsePath(game, history);
    if (parsed.kind !== "node") {
      const next = nextSeatAfter(game, parsed.steps);
      throw new RangesError(
        "malformed_path",
        `history must end in the seat to act, but "${history}" ends in the action "${parsed.steps.at(-1)!.action.token}"${next ? ` (the node after it is "${history}_${next}")` : ""}. To get that action's range, call /range with spot=${history}.`,
        { suggestedEndpoint: "range", ...(next ? { suggestedHistory: `${history}_${next}` } : {}) },
      );
    }
    const { pack } = this.loading.pack(game, stack);
    const node = locateNode(pack, parsed.steps, parsed.actor, history);
    const opts = {
      ...(hand === undefined ? {} : { hand: hand.index }),
      ...(minFreq === undefined ? {} : { minFreq }),
      full,
    };
    return { pack, node, opts };
  }

  range(game: GameId, stack: number, spot: string, options: RangeQueryOptions = {}): Range {
    const q = this.rangeQuery(game, stack, spot, options);
    return rangeView(q.pack, q.node, q.action, spot, q.opts);
  }

  /** `JSON.stringify(range(...))`, built without the objects (the JSON path's builder). */
  rangeText(game: GameId, stack: number, spot: string, options: RangeQueryOptions): RawJson {
    const q = this.rangeQuery(game, stack, spot, options);
    return new RawJson(rangeBytes(q.pack, q.node, q.action, spot, q.opts));
  }

  /** A range query checked and located: the pack, the node, the action and the view's options. */
  private rangeQuery(gameParam: GameId, stackParam: number, spot: string, options: RangeQueryOptions) {
    const { game, stack, hand, minFreq } = checkedParams(gameParam, stackParam, options);
    const parsed = parsePath(game, spot);
    if (parsed.kind !== "range") {
      throw new RangesError(
        "malformed_path",
        `spot must end in an action token, but "${spot}" ends in the seat ${parsed.actor}, so it names a decision node. Call /node with history=${spot} for its actions, then append one, e.g. spot=${spot}_Fold.`,
        { suggestedEndpoint: "node", validPrefix: spot },
      );
    }
    const last = parsed.steps.at(-1)!;
    const { pack } = this.loading.pack(game, stack);
    const node = locateNode(pack, parsed.steps.slice(0, -1), last.seat, spot.slice(0, spot.lastIndexOf("_")));
    const action = locateAction(pack, node, last.action.token);
    const opts = {
      ...(hand === undefined ? {} : { hand }),
      ...(minFreq === undefined ? {} : { minFreq }),
    };
    return { pack, node, action, opts };
  }

  spots(game: GameId, stack: number, options: { readonly anyGame?: boolean } = {}): Spots {
    game = parseGameParam(game);
    if (options.anyGame !== true) requireServed(game, "spots");
    stack = parseStackParam(game, stack);
    return spotsView(this.loading.pack(game, stack).pack);
  }

  config(game: GameId, stack: number): Config {
    game = parseGameParam(game);
    requireServed(game, "config");
    stack = parseStackParam(game, stack);
    return configView(this.loading.pack(game, stack).pack, stack, this.packs.liveStacks(game));
  }
}

/** The parameters /node and /range share, checked in this order: game, stack, hand, minFreq. */
function checkedParams(
  gameParam: GameId,
  stackParam: number,
  options: { readonly hand?: string; readonly minFreq?: number },
) {
  const game = parseGameParam(gameParam);
  const stack = parseStackParam(game, stackParam);
  const hand = options.hand === undefined || options.hand === "" ? undefined : parseHand(game, options.hand);
  const minFreq = parseMinFreqParam(options.minFreq);
  return { game, stack, hand, minFreq };
}

/** Throws `not_found` when `game` does not serve /spots or /config (`GAMES[game].serves`). */
export function requireServed(game: GameId, operation: "spots" | "config"): void {
  if (GAMES[game].serves.includes(operation)) return;
  const served = GAME_IDS.filter((g) => GAMES[g].serves.includes(operation));
  throw new RangesError(
    "not_found",
    `/${operation} is served for ${served.join(", ")} only, not for ${game}.`,
    { games: served },
  );
}
