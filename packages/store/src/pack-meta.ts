/**
 * The store's answers about its packs rather than from them: every file's status (`packStatus`), a pack's
 * header facts (`packMeta`, which loads the pack), and the resident index of the live packs
 * (`packSummaries`, `packSummary`), which reads no pack data.
 */

import { GAME_IDS, type GameId } from "@ranges/core";
import { type Entry, isLive } from "./pack-entry.js";
import type { PackLoading } from "./pack-loading.js";
import type { PackSet } from "./pack-set.js";
import { parseGameParam, parseStackParam } from "./params.js";
import type { PackMeta, PackStatus, PackSummary } from "./store-types.js";

/** Pack heads `packSummaries` reads at once. */
const HEAD_READS_AT_ONCE = 4;

/** `RangeStore.packStatus`: every `.pack` file found, with whether it serves and why not. */
export function packStatus(packs: PackSet): PackStatus[] {
  return packs.entries.map((e) => ({
    game: e.game,
    stack: e.stack,
    file: e.file,
    path: e.path,
    ok: isLive(e),
    error: e.error,
    checksum: e.meta?.checksum ?? null,
    dataLoaded: e.loaded !== null,
    problem: e.problem,
  }));
}

/** `RangeStore.packMeta`: header facts of a pack; verifies the pack like a query does. */
export function packMeta(loading: PackLoading, game: GameId, stack: number): PackMeta {
  game = parseGameParam(game);
  const { entry, pack } = loading.pack(game, parseStackParam(game, stack));
  return {
    header: entry.meta!.header,
    checksum: entry.meta!.checksum,
    nodeCount: pack.nodes.length,
    fileBytes: entry.fileBytes,
    path: entry.path,
  };
}

/** `RangeStore.packSummaries`: the resident index of the live packs (of `game`, or of every game). */
export async function packSummaries(
  packs: PackSet,
  loading: PackLoading,
  game?: GameId,
): Promise<PackSummary[]> {
  const games = game === undefined ? GAME_IDS : [parseGameParam(game)];
  const liveEntries = () => games.flatMap((g) => packs.liveEntries(g));
  // A few heads at a time: each read inflates an index of up to a few MB.
  const pending = liveEntries().filter((e) => e.meta!.nodeCount === null);
  for (let i = 0; i < pending.length; i += HEAD_READS_AT_ONCE) {
    await Promise.all(pending.slice(i, i + HEAD_READS_AT_ONCE).map((e) => loading.indexHead(e)));
  }
  return liveEntries().map((e) => summaryOf(e));
}

/** `RangeStore.packSummary`: `packMeta` from the resident index. */
export async function packSummary(
  packs: PackSet,
  loading: PackLoading,
  game: GameId,
  stack: number,
): Promise<PackSummary> {
  game = parseGameParam(game);
  const entry = packs.entryFor(game, parseStackParam(game, stack));
  if (isLive(entry) && entry.meta!.nodeCount === null) await loading.indexHead(entry);
  if (!isLive(entry)) throw packs.unavailable(entry);
  return summaryOf(entry);
}

function summaryOf(entry: Entry): PackSummary {
  return {
    game: entry.game,
    stack: entry.stack!,
    header: entry.meta!.header,
    checksum: entry.meta!.checksum,
    nodeCount: entry.meta!.nodeCount ?? entry.loaded?.nodes.length ?? 0,
    fileBytes: entry.fileBytes,
    path: entry.path,
    dataLoaded: entry.loaded !== null,
  };
}
