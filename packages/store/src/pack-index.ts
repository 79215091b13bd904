/**
 * The resident index of a pack: what the store keeps of every pack file from the moment it opens it (the
 * header, the checksum, and the node table without frequencies). Every live pack's index stays in memory,
 * so it is kept small: actions that are the same in several nodes (token, kind, sizes) are one object, so
 * are identical action lists, and the data offsets are not stored but follow from the node's start (the
 * writer lays out each action's frequencies, then its EVs, node after node).
 */

import type { ActionKind } from "@ranges/schema";
import type { PackMetaData } from "./format.js";
import type { PackHeader } from "./pack-types.js";

export interface StoredAction {
  readonly code: number;
  readonly token: string;
  readonly kind: ActionKind;
  readonly sizeBb: number | null;
  readonly sizePctPot: number | null;
  readonly sizeReason: string | undefined;
  /** Whether the action stores EVs (after its frequencies). */
  readonly evs: boolean;
}

export interface StoredNode {
  readonly history: string;
  readonly actor: string;
  readonly depth: 1 | 2 | 3 | 4;
  readonly actions: readonly StoredAction[];
  /** Position in the pack's node table. */
  readonly index: number;
  /** Offset of the node's data in the inflated data section. */
  readonly start: number;
}

export interface PackIndex {
  readonly header: PackHeader;
  /** Hex SHA-256 over preamble, header and index. */
  readonly checksum: string;
  readonly nodes: readonly StoredNode[];
}

/** The compact index of a decoded meta (whose node objects can then go). */
export function packIndexOf(meta: PackMetaData): PackIndex {
  const actions = new Map<string, { action: StoredAction; id: number }>();
  const lists = new Map<string, readonly StoredAction[]>();
  const actors = new Map<string, string>();
  const nodes = meta.nodes.map((node, index): StoredNode => {
    const ids: number[] = [];
    const list = node.actions.map((a) => {
      const hasEvs = a.evOffset !== null;
      const key = JSON.stringify([
        a.code,
        a.token,
        a.kind,
        a.sizeBb,
        a.sizePctPot,
        a.sizeReason ?? null,
        hasEvs,
      ]);
      let known = actions.get(key);
      if (known === undefined) {
        const action: StoredAction = {
          code: a.code,
          token: a.token,
          kind: a.kind,
          sizeBb: a.sizeBb,
          sizePctPot: a.sizePctPot,
          sizeReason: a.sizeReason,
          evs: hasEvs,
        };
        known = { action, id: actions.size };
        actions.set(key, known);
      }
      ids.push(known.id);
      return known.action;
    });
    const listKey = ids.join(",");
    let shared = lists.get(listKey);
    if (shared === undefined) {
      shared = list;
      lists.set(listKey, list);
    }
    let actor = actors.get(node.actor);
    if (actor === undefined) {
      actor = node.actor;
      actors.set(actor, actor);
    }
    return {
      history: node.history,
      actor,
      depth: node.depth,
      actions: shared,
      index,
      start: node.actions[0]?.freqOffset ?? 0,
    };
  });
  return { header: meta.header, checksum: meta.checksum, nodes };
}

/** Offsets of each action's frequencies and EVs (null without EVs) in the inflated data section. */
export function actionOffsets(
  node: StoredNode,
  classCount: number,
): { freqOffset: number; evOffset: number | null }[] {
  const freqBytes = Math.ceil((2 * classCount) / 4) * 4;
  let cursor = node.start;
  return node.actions.map((a) => {
    const freqOffset = cursor;
    cursor += freqBytes;
    const evOffset = a.evs ? cursor : null;
    if (a.evs) cursor += 4 * classCount;
    return { freqOffset, evOffset };
  });
}
