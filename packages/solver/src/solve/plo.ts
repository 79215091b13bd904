/**
 * The engine's game for a PLO tree (plo, plo9, plo5, plo6hu), solved over the buckets of the PLO abstraction
 * (src/plo/abstraction.ts) instead of hold'em's 169 classes. Every hand of a bucket plays one strategy.
 *
 * - Hands: the buckets of `buildPloAbstraction({ buckets: model.buckets })`. `combos` counts each bucket's
 *   concrete hands, `oppPerCombo` is C(48, 4) = 194,580, and `W` the exact compatible-pair counts between
 *   buckets (`ploBucketPairWeights`), so card removal between two players is exact at the bucket level, as it
 *   is at the class level in hold'em.
 * - Heads-up all-in pots: shared by the bucket-against-bucket all-in equity with card removal (Monte Carlo,
 *   `data/equity/plo-hu-buckets.bin`, src/plo/bucket-equity.ts).
 * - Heads-up pots that go to the flop: the realization contest of src/model/realization.ts, with the tree
 *   config's PLO parameters (`PloRealizationModel`: position factors, exponent, `sprFull`) and per-bucket
 *   playability from the abstraction's features (src/model/plo-realization.ts) in place of hold'em's class
 *   kinds.
 * - Pots of three or more: independent duels of those matrices (the engine's model when `multiway` is absent:
 *   a player who wins all its duels takes the pot, the rest is split equally), all-in or not. PLO has no
 *   board-conditioned duels table yet.
 * - Rake as in hold'em: taken by the tree builder from every pot that sees a flop (the config's `rake`).
 */

import { GAMES } from "@ranges/core";
import type { EngineGame } from "../engine/game.js";
import { ploBucketMultipliers } from "../model/plo-realization.js";
import { buildContestMatrices, type ShareMatrices } from "../model/realization.js";
import {
  buildPloAbstraction,
  type PloAbstraction,
  type PloClassFeatures,
  ploClassFeatures,
} from "../plo/abstraction.js";
import {
  loadPloBucketEquity,
  PLO_OPP_PER_COMBO,
  type PloBucketEquityTable,
  ploBucketCombos,
  ploBucketMapCrc32,
  ploBucketPairWeights,
} from "../plo/bucket-equity.js";
import { type BuiltTree, buildPreflopTree } from "../tree/build.js";
import { type PloRealizationModel, ploModelOf, type TreeConfig } from "../tree/config.js";

/** What a PLO game is built from: the abstraction and its bucket equity table. */
export interface PloGameTables {
  readonly abstraction: Pick<PloAbstraction, "bucketCount" | "classToBucket" | "buckets">;
  readonly equity: PloBucketEquityTable;
  /** Class features for the playability multipliers (default: `ploClassFeatures()`, the committed table's). */
  readonly features?: readonly PloClassFeatures[];
}

export interface PloEngineGame {
  readonly game: EngineGame;
  readonly tree: BuiltTree;
  readonly model: PloRealizationModel;
  /** Each bucket's playability multiplier (before the position factor). */
  readonly multipliers: Float64Array;
  readonly shares: ShareMatrices;
}

/** Exact W and combos per class-to-bucket map, computed once (about a second for 512 buckets). */
const weightCache = new WeakMap<ArrayLike<number>, { W: Float64Array; combos: Float64Array }>();

function weightsOf(abstraction: PloGameTables["abstraction"]): { W: Float64Array; combos: Float64Array } {
  const key = abstraction.classToBucket;
  let hit = weightCache.get(key);
  if (!hit) {
    hit = {
      W: ploBucketPairWeights(key, abstraction.bucketCount),
      combos: ploBucketCombos(key, abstraction.bucketCount),
    };
    weightCache.set(key, hit);
  }
  return hit;
}

/** The committed tables for a config: the abstraction of `model.buckets` and `data/equity/plo-hu-buckets.bin`. */
export function loadPloGameTables(config: TreeConfig): PloGameTables {
  const model = ploModelOf(config);
  return { abstraction: buildPloAbstraction({ buckets: model.buckets }), equity: loadPloBucketEquity() };
}

/**
 * The engine's game for a PLO config and stack (see the module comment). Refuses a hold'em config, an
 * abstraction whose bucket count is not the model's, and an equity table built for another bucket map.
 */
export function buildPloEngineGame(
  config: TreeConfig,
  stack: number,
  tables: PloGameTables = loadPloGameTables(config),
): PloEngineGame {
  if (GAMES[config.game].variant !== "omaha")
    throw new Error(`${config.game} is hold'em: build its game with buildEngineGame`);
  const model = ploModelOf(config);
  const { abstraction, equity } = tables;
  const B = abstraction.bucketCount;
  if (B !== model.buckets)
    throw new Error(
      `the ${config.game} model is solved over ${model.buckets} buckets, the abstraction has ${B}`,
    );
  if (equity.buckets !== B || equity.mapCrc32 !== ploBucketMapCrc32(abstraction.classToBucket))
    throw new Error(
      `the PLO bucket equity table (${equity.buckets} buckets, map crc32 ${equity.mapCrc32}) was built for another abstraction than this one (${B} buckets, map crc32 ${ploBucketMapCrc32(abstraction.classToBucket)})`,
    );
  const { W, combos } = weightsOf(abstraction);
  const multipliers = ploBucketMultipliers(
    model.playability,
    abstraction,
    tables.features ?? ploClassFeatures(),
  );
  const shares = buildContestMatrices(model, B, equity.eq, W, multipliers);
  const tree = buildPreflopTree(config, stack, (kind) => shares.indexFor(kind.allIn, kind.spr, kind.rowIsIp));
  const game: EngineGame = {
    seats: tree.seats,
    classCount: B,
    combos,
    oppPerCombo: PLO_OPP_PER_COMBO,
    W,
    matrices: shares.matrices,
    root: tree.root,
  };
  return { game, tree, model, multipliers, shares };
}
