/**
 * The first step of the JSON fast path (`RangeStore.json`): a query checked and normalized into the cache
 * key that equal queries share, the pack its answer reads, the builder of its body and its ETag input.
 */

import { parseHand, RangesError } from "@ranges/core";
import type { Normal } from "./body-cache.js";
import type { PackSet } from "./pack-set.js";
import { parseGameParam, parseMinFreqParam, parseStackParam } from "./params.js";
import { requireServed, type StoreQueries } from "./queries.js";
import type { StoreQuery } from "./store-types.js";

/** A cache key that equal queries share, the builder, and what the ETag derives from besides the key. */
export function normalize(query: StoreQuery, packs: PackSet, queries: StoreQueries): Normal {
  const kind = (query as { kind?: unknown }).kind;
  if (!["catalog", "discovery", "node", "range", "spots", "config"].includes(kind as string)) {
    throw new RangesError(
      "invalid_parameter",
      `Unknown query kind "${String(kind)}": use catalog, discovery, node, range, spots or config.`,
    );
  }
  if (kind === "catalog") {
    return {
      key: `catalog|${packs.liveFingerprint()}`,
      entry: null,
      build: () => queries.catalog(),
      tag: () => "",
    };
  }
  const q = query as Exclude<StoreQuery, { kind: "catalog" }>;
  const game = parseGameParam(q.game);
  if (q.kind === "discovery") {
    return {
      key: `discovery|${game}|${packs.liveFingerprint()}`,
      entry: null,
      build: () => queries.discovery(game),
      tag: () => "",
    };
  }
  if (q.kind === "spots" || q.kind === "config") requireServed(game, q.kind);
  const stack = parseStackParam(game, q.stack);
  const entry = packs.get(game, stack) ?? null;
  const checksum = (): string => entry?.meta?.checksum ?? "";
  if (q.kind === "spots") {
    return { key: `spots|${game}|${stack}`, entry, build: () => queries.spots(game, stack), tag: checksum };
  }
  if (q.kind === "config") {
    return {
      key: `config|${game}|${stack}|${packs.liveFingerprint()}`,
      entry,
      build: () => queries.config(game, stack),
      tag: checksum,
    };
  }
  const hand = q.hand === undefined || q.hand === "" ? undefined : parseHand(game, q.hand).name;
  const minFreq = parseMinFreqParam(q.minFreq);
  const full = q.kind === "node" && q.full === true;
  const path = q.kind === "node" ? q.history : q.spot;
  const key = JSON.stringify([q.kind, game, stack, path, hand ?? null, minFreq ?? null, full]);
  const opts = {
    ...(hand === undefined ? {} : { hand }),
    ...(minFreq === undefined ? {} : { minFreq }),
  };
  return {
    key,
    entry,
    build: () =>
      q.kind === "node"
        ? queries.nodeText(game, stack, path, { ...opts, full })
        : queries.rangeText(game, stack, path, opts),
    tag: checksum,
  };
}
