/**
 * Reach: how likely a stored node's line is when every seat plays the pack's published strategies.
 *
 * Computed on demand from the stored frequencies and memoized per pack as one number per node asked for (and
 * per ancestor met on the way). No per-class vector outlives a call: a call walks the node's path from the
 * root, multiplying one range vector per seat that acts on it.
 */

import {
  HOLDEM_CLASS_COMBOS,
  HOLDEM_CLASS_COUNT,
  PLO_CLASS_COUNT,
  ploClassComboCounts,
  RangesError,
} from "@ranges/core";
import { packClassToBucket } from "./format.js";
import type { PackData, PackHeader, PackNode } from "./pack-types.js";

/** What `nodeReach` reads of a pack: its header (class set) and its node table. */
export type ReachPack = Pick<PackData, "header" | "nodes">;

/** A node as the reach walk sees it: its actor and its actions' tokens (frequencies come from `freqs`). */
export interface ReachNode {
  readonly actor: string;
  readonly actions: readonly { readonly token: string }[];
}

/**
 * Where the reach walk reads a pack from: a node by history, the frequencies of one of its actions, and the
 * memo of reaches computed so far (keyed by node: no second copy of the history strings). The store's loaded
 * packs provide one that inflates the node's block on demand; `nodeReach` builds one over `PackData`.
 */
export interface ReachSource<N extends ReachNode> {
  /** "nl at 100bb", for messages. */
  readonly where: string;
  /** Prior weight of each class (its concrete-combo count, or 1 each), and their sum. */
  readonly weights: ArrayLike<number>;
  readonly total: number;
  node(history: string): N | undefined;
  freqs(node: N, action: number): ArrayLike<number>;
  readonly values: Map<N, number>;
}

/** Keyed by the pack's node array, so a pack that is dropped takes its memo with it. */
const memos = new WeakMap<readonly PackNode[], ReachSource<PackNode>>();

/**
 * Prior weight of each class: the combo counts of the class set (hold'em 6/4/12 over 1,326, PLO's 16,432
 * classes over 270,725 hands) when the pack's class count matches it, else 1 per class (uniform).
 */
export function classWeights(header: PackHeader): { weights: ArrayLike<number>; total: number } {
  let weights: ArrayLike<number>;
  const map = packClassToBucket(header);
  if (map !== null && header.classSet === "plo16432" && header.classCount === PLO_CLASS_COUNT) {
    // A bucketed pack's frequencies are per bucket: each bucket weighs its classes' hands.
    const combos = ploClassComboCounts();
    const w = new Float64Array(header.buckets!.count);
    for (let c = 0; c < map.length; c++) w[map[c]!]! += combos[c]!;
    weights = w;
  } else if (map !== null) {
    const w = new Float64Array(header.buckets!.count);
    for (let c = 0; c < map.length; c++) w[map[c]!]! += 1;
    weights = w;
  } else if (header.classSet === "holdem169" && header.classCount === HOLDEM_CLASS_COUNT) {
    weights = HOLDEM_CLASS_COMBOS;
  } else if (header.classSet === "plo16432" && header.classCount === PLO_CLASS_COUNT) {
    weights = ploClassComboCounts();
  } else {
    weights = new Float64Array(header.classCount).fill(1);
  }
  let total = 0;
  for (let c = 0; c < weights.length; c++) total += weights[c]!;
  return { weights, total };
}

function sourceOf(pack: ReachPack): ReachSource<PackNode> {
  let source = memos.get(pack.nodes);
  if (source === undefined) {
    const byHistory = new Map(pack.nodes.map((n) => [n.history, n]));
    source = {
      where: `${pack.header.game} at ${pack.header.stack}bb`,
      ...classWeights(pack.header),
      node: (history) => byHistory.get(history),
      freqs: (node, action) => node.actions[action]!.freqs,
      values: new Map(),
    };
    memos.set(pack.nodes, source);
  }
  return source;
}

/**
 * Reach of the node `history` of `pack`: the probability that its line is played when every seat follows
 * the pack's strategies.
 *
 * For the history `h = s1_a1_s2_a2_..._sk` (e.g. `UTG_60%_HJ_Fold_CO_Call_BTN`):
 *
 *   reach(h) = prod over seats s of m_s,
 *   m_s = sum over classes c of prior(c) * prod of freq_c(a_i) over every step i of h where s_i = s,
 *
 * with prior(c) = combos of c / all combos (hold'em: 6, 4 or 12 over 1,326; PLO: the class's hands over
 * 270,725; a pack whose class count does not match its class set: uniform over its classes). A bucketed
 * PLO pack is walked over its buckets, each weighing the hands of its classes: the same sums, grouped. A seat that has
 * not acted on the path contributes 1, so the root has reach 1, and a seat that acts twice multiplies both
 * of its decisions per class before summing. The frequencies are used exactly as stored in the pack (the
 * decoded u16-quantized values), so the number is reproducible from the published data. Card removal
 * between seats is ignored: every seat's range starts from the same full prior, independent of the others'
 * cards. The result is in [0, 1] and exactly 0 when some seat's range on the path is empty (for every
 * class, one of that seat's actions on the path has stored frequency 0); unrounded (the API serves it at 4
 * significant digits).
 *
 * Cost: one pass over the classes per step of the path; the result (and the reach of every ancestor met on
 * the way) is memoized per pack, one number per node, keyed by the identity of `pack.nodes`: a pack's
 * frequencies must not change after its first call.
 *
 * @throws RangesError `node_not_found` when the pack holds no node `history`; `pack_unavailable` when an
 *   earlier node of the path, or the action taken there, is missing from the pack (a broken tree).
 */
export function nodeReach(pack: ReachPack, history: string): number {
  return reachIn(sourceOf(pack), history);
}

/** `nodeReach` over any `ReachSource` (the store's loaded packs). */
export function reachIn<N extends ReachNode>(source: ReachSource<N>, history: string): number {
  const where = source.where;
  const target = source.node(history);
  if (target === undefined) {
    throw new RangesError("node_not_found", `The ${where} pack holds no node "${history}".`);
  }
  const known = source.values.get(target);
  if (known !== undefined) return known;
  const remember = (path: string, value: number): void => {
    const node = source.node(path);
    if (node !== undefined) source.values.set(node, value);
  };
  const parts = history.split("_");
  const n = source.weights.length;
  const ranges = new Map<string, Float64Array>();
  const masses = new Map<string, number>();
  let reach = 1;
  remember(parts[0]!, 1);
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const next = parts.slice(0, i + 3).join("_");
    if (reach === 0) {
      // A descendant of an unreached node is unreached: a seat's mass only shrinks along a path.
      remember(next, 0);
      continue;
    }
    const prefix = parts.slice(0, i + 1).join("_");
    const token = parts[i + 1]!;
    const node = source.node(prefix);
    const a = node === undefined ? -1 : node.actions.findIndex((x) => x.token === token);
    if (node === undefined || a < 0) {
      throw new RangesError(
        "pack_unavailable",
        `The ${where} pack holds "${history}" but not ${node === undefined ? `the earlier node "${prefix}"` : `the action "${token}" at "${prefix}"`} on its path, so its reach cannot be computed; the pack must be regenerated or re-imported.`,
      );
    }
    let range = ranges.get(node.actor);
    if (range === undefined) {
      range = Float64Array.from(source.weights);
      ranges.set(node.actor, range);
    }
    const freqs = source.freqs(node, a);
    let mass = 0;
    for (let c = 0; c < n; c++) {
      const v = range[c]! * (freqs[c] ?? 0);
      range[c] = v;
      mass += v;
    }
    masses.set(node.actor, mass / source.total);
    reach = 1;
    for (const m of masses.values()) reach *= m;
    reach = Math.min(1, Math.max(0, reach));
    remember(next, reach);
  }
  return reach;
}
