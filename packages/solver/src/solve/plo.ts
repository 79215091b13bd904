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

import { GAMES, PLO_CLASS_COUNT } from "@ranges/core";
import { PACK_FORMAT_VERSION, type PackBuckets, type PackData } from "@ranges/store";
import type { EngineGame } from "../engine/game.js";
import { ploBucketMultipliers } from "../model/plo-realization.js";
import { buildContestMatrices, type ShareMatrices } from "../model/realization.js";
import {
  buildPloAbstraction,
  encodePloBucketMap,
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
import {
  algorithmName,
  algorithmOf,
  type EngineSolveOptions,
  type PackExportOptions,
  type PloSolveIdentity,
  packNodesOf,
  rakeText,
  SOLVER_MODEL_VERSION,
  type SolveResult,
  solveBuiltGame,
  solvedNotes,
  solvedPackConfig,
  solvedProvenanceBase,
  solveInputHash,
  trembleOf,
  trembleScopeOf,
} from "./preflop.js";

/** What a PLO game is built from: the abstraction and its bucket equity table. */
export interface PloGameTables {
  /** `params` (how it was built) goes into the pack's description of the buckets when given. */
  readonly abstraction: Pick<PloAbstraction, "bucketCount" | "classToBucket" | "buckets"> &
    Partial<Pick<PloAbstraction, "params">>;
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

/** The identity of a PLO solve's tables for `solveInputHash` (see `PloSolveIdentity`). */
export function ploSolveIdentity(tables: Pick<PloGameTables, "abstraction" | "equity">): PloSolveIdentity {
  const { abstraction, equity } = tables;
  return ploIdentityOfTable(equity, abstraction.bucketCount, ploBucketMapCrc32(abstraction.classToBucket));
}

/**
 * The identity from the equity table alone (what `pnpm solve --all` compares without building the
 * abstraction): the table records the map it was built for, and a solve refuses any other map.
 */
export function ploIdentityOfTable(
  equity: PloBucketEquityTable,
  buckets = equity.buckets,
  mapCrc32 = equity.mapCrc32,
): PloSolveIdentity {
  return {
    buckets,
    mapCrc32,
    equity: {
      buckets: equity.buckets,
      mapCrc32: equity.mapCrc32,
      boards: equity.boards,
      handsPerBucket: equity.handsPerBucket,
      parts: equity.parts,
      seed: equity.seed,
    },
  };
}

export interface PloSolveOptions extends EngineSolveOptions {
  /** The abstraction and bucket equity table (default: `loadPloGameTables(config)`, the committed table). */
  readonly tables?: PloGameTables;
}

export interface PloSolveResult extends SolveResult {
  readonly tables: PloGameTables;
  readonly plo: PloEngineGame;
}

/**
 * Solves a PLO (game, stack) over the buckets of its abstraction, exactly as `solvePreflop` solves hold'em
 * (same regret minimizer, tremble, checks, least exploitable checkpoint, target and budget: both call
 * `solveBuiltGame`). Exploitability is measured in the bucketed game.
 */
export function solvePlo(options: PloSolveOptions): PloSolveResult {
  const tables = options.tables ?? loadPloGameTables(options.config);
  const plo = buildPloEngineGame(options.config, options.stack, tables);
  return { ...solveBuiltGame(options, plo.game, plo.tree), tables, plo };
}

const describeAbstraction = (tables: PloGameTables): string => {
  const { abstraction, equity } = tables;
  const p = abstraction.params;
  const built = p
    ? `k-means per stratum (suit pattern x pairing) over the class features, ${p.iterations} Lloyd rounds at most, feature weights ${JSON.stringify(p.weights)}, random-hand equity from ${p.equity.boards} boards x ${p.equity.opponentsPerBoard} opponents (seed ${p.equity.seed})${p.play ? `, play features weighted ${JSON.stringify(p.play.weights)} from ${p.play.flops} flops x ${p.play.runoutsPerFlop} runouts x ${p.play.opponentsPerBoard} opponents (seed ${p.play.seed})` : ""}`
    : "see docs/plo-abstraction.md";
  return `${abstraction.bucketCount} buckets of the 16,432 PLO classes (src/plo/abstraction.ts: ${built}); bucket all-in equity table ${equity.boards} boards, ${equity.handsPerBucket} hands per bucket, ${equity.parts} parts, seed ${equity.seed}, map crc32 ${equity.mapCrc32}`;
};

/** The `buckets` block of a PLO pack header: the class-to-bucket map, bucket names and representatives. */
export function packBucketsOf(tables: PloGameTables): PackBuckets {
  const json = encodePloBucketMap(tables.abstraction);
  return {
    count: json.buckets,
    encoding: json.encoding,
    map: json.map,
    crc32: json.crc32,
    names: json.names,
    representatives: json.representatives,
    abstraction: describeAbstraction(tables),
  };
}

/**
 * Turns a PLO solve into a pack stored per bucket (`header.buckets`, docs/pack-format.md): each action holds
 * one frequency and EV per bucket, and the header's class-to-bucket map expands them to the 16,432 classes
 * when read. `opts.seed` is the bucket equity table's seed.
 */
export function toPloPackData(result: PloSolveResult, config: TreeConfig, opts: PackExportOptions): PackData {
  const info = GAMES[config.game];
  if (info.variant !== "omaha")
    throw new Error(`${config.game} is hold'em: export its solve with toPackData`);
  const { model, tree } = result.plo;
  const B = result.tables.abstraction.bucketCount;
  const identity = ploSolveIdentity(result.tables);
  return {
    header: {
      format: "preflop-ranges-pack",
      formatVersion: PACK_FORMAT_VERSION,
      game: config.game,
      stack: tree.stack,
      classSet: "plo16432",
      classCount: PLO_CLASS_COUNT,
      evUnit: info.hasEvs ? "sb" : null,
      buckets: packBucketsOf(result.tables),
      config: solvedPackConfig(config, result),
      provenance: {
        ...solvedProvenanceBase(result, opts),
        algorithm: algorithmName(
          config.solve.alternate,
          algorithmOf(config, tree.stack),
          `${B} buckets`,
          trembleOf(config, tree.stack),
          trembleScopeOf(config, tree.stack),
        ),
        model: `${model.name}: solved over ${B} buckets of the PLO abstraction (every class of a bucket plays one strategy); heads-up all-in pots by bucket-against-bucket all-in equity with exact card removal weights; flop pots by equity realization (contest exponent ${model.contestExponent}, IP ${model.ipFactor}, OOP ${model.oopFactor}, full at SPR ${model.sprFull}, playability per bucket ${JSON.stringify(model.playability)}); pots of three or more players by independent duels (a player who wins every duel takes the pot, the rest is split equally); ${rakeText(config)}`,
        notes: [
          ...solvedNotes(result, config),
          `Buckets: ${describeAbstraction(result.tables)}.`,
          `Inputs: ${solveInputHash(config, tree.stack, opts.seed, identity)} (model ${SOLVER_MODEL_VERSION}, ${B} buckets, map crc32 ${identity.mapCrc32}; pnpm solve --all skips the pack while this matches).`,
          `Exploitability: best response of each seat against the stored average strategies of the others in the bucketed game (${B} buckets: the best response, like the strategies, plays one action mix per bucket), on this tree and terminal model. It does not measure what the bucketing itself costs: a best response per class could gain more.`,
        ],
      },
    },
    nodes: packNodesOf(result, config),
  };
}
