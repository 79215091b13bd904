/**
 * Response objects built from a loaded pack: Node, Range, Spots and Config (the tree walk that finds a node is
 * in locate.ts).
 */

import type { GameId } from "@ranges/core";
import {
  type Action,
  type Config,
  type Node,
  type Range,
  SCHEMA_VERSION,
  type Spots,
  type Unverified,
  unitsFor,
} from "@ranges/schema";
import { BodyWriter, jsonKeyBytes } from "./json-body.js";
import type { StoredAction, StoredNode } from "./pack-index.js";
import type { PackAction, PackHeader, PackNode } from "./pack-types.js";

/**
 * A pack ready for queries. The node table is the index (metadata: history, actor, depth, actions with
 * token, kind and sizes); the frequencies and EVs of a node are decoded on demand by `decode`.
 */
export interface LoadedPack {
  readonly game: GameId;
  readonly stack: number;
  /** The file relative to the packs directory, for messages (`nlmtt8/40.pack`). */
  readonly file: string;
  readonly header: PackHeader;
  readonly nodes: readonly StoredNode[];
  readonly byHistory: ReadonlyMap<string, StoredNode>;
  readonly classNames: readonly string[];
  readonly classCombos: ArrayLike<number>;
  /** "fold" when every stored fold EV of the pack is 0 (EVs relative to folding); null otherwise or no EVs. */
  readonly baseline: "fold" | null;
  /** The node with the frequencies and EVs of each action, in index order. */
  decode(node: StoredNode): PackNode;
  /** `nodeReach` of the node (unrounded), memoized. */
  reach(node: StoredNode): number;
}

/** EVs this close to 0 print as 0 at 4 decimals, so they count as a zero fold EV. */
const ZERO_EV = 5e-5;

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const round2 = (x: number): number => Math.round(x * 100) / 100;
/** 4 significant digits (not decimals), so a reach of 3.2e-7 stays non-zero; 0 stays exactly 0. */
const significant4 = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(4)));

function foldIsZero(action: PackAction): boolean {
  if (action.evs === null) return true;
  for (const ev of action.evs) if (!Number.isNaN(ev) && Math.abs(ev) >= ZERO_EV) return false;
  return true;
}

/** The node's reach (see `nodeReach`) as served: 4 significant digits. */
const reachOf = (pack: LoadedPack, node: StoredNode): number => significant4(pack.reach(node));

/** `fold` when the node's stored fold EVs are all 0; a node without a fold takes the pack's baseline. */
function nodeBaseline(pack: LoadedPack, node: PackNode): "fold" | null {
  if (pack.header.evUnit === null) return null;
  const fold = node.actions.find((a) => a.kind === "fold");
  return fold === undefined ? pack.baseline : foldIsZero(fold) ? "fold" : null;
}

export interface DistributionOptions {
  /** Restrict to this class index. */
  readonly hand?: number;
  readonly minFreq?: number;
  /** Hold'em dense mode: every class with an explicit weight, minFreq removes nothing. */
  readonly full?: boolean;
}

interface Distribution<W = Record<string, number>> {
  weights: W;
  evs: W;
  combos: number;
}

/**
 * The classes one action shows, in class order: `weight` when the class's weight is shown, `ev` when its EV
 * is. A weight is shown when it is non-zero at 4 decimals and above minFreq (every class with full=1); an EV is
 * shown for every scored class, except that minFreq also drops the EVs of the classes it drops (so small PLO
 * payloads stay small). Each value is passed times 1e4, rounded (`EachShown`): the shown value is that over
 * 1e4, exactly what `round4` gives. Returns the combos of the whole distribution.
 */
function eachShown(
  pack: LoadedPack,
  action: PackAction,
  opts: DistributionOptions,
  visit: (c: number, weight4: number | undefined, ev4: number | undefined) => void,
  order?: ArrayLike<number>,
): number {
  const { freqs } = action;
  const evs = pack.header.evUnit === null ? null : action.evs;
  let combos = 0;
  for (let c = 0; c < freqs.length; c++) combos += freqs[c]! * pack.classCombos[c]!;
  const count = opts.hand === undefined ? freqs.length : 1;
  for (let k = 0; k < count; k++) {
    const c = opts.hand ?? (order === undefined ? k : order[k]!);
    const w4 = Math.round(freqs[c]! * 1e4);
    const w = w4 / 1e4; // round4
    const kept = opts.full === true || opts.minFreq === undefined || w > opts.minFreq;
    const weight = opts.full === true || (w > 0 && kept) ? w4 : undefined;
    let ev: number | undefined;
    if (evs !== null && kept) {
      const x = evs[c]!;
      if (!Number.isNaN(x)) ev = Math.round(x * 1e4) + 0; // + 0 turns -0 into 0
    }
    if (weight !== undefined || ev !== undefined) visit(c, weight, ev);
  }
  return round4(combos);
}

/** Weights, EVs and combos of one action (`eachShown`). */
function distribution(pack: LoadedPack, action: PackAction, opts: DistributionOptions): Distribution {
  const out: Distribution = { weights: {}, evs: {}, combos: 0 };
  const names = pack.classNames;
  out.combos = eachShown(pack, action, opts, (c, weight4, ev4) => {
    if (weight4 !== undefined) out.weights[names[c]!] = weight4 / 1e4;
    if (ev4 !== undefined) out.evs[names[c]!] = ev4 / 1e4;
  });
  return out;
}

/**
 * Each pack's class names as JSON object keys (`"AKs":`) and the order `JSON.stringify` writes an object's
 * keys in: names that are array indices (`"22"` to `"99"`) first, in numeric order, then the others in the
 * order they were added (class order). Made once per pack.
 */
const jsonKeys = new WeakMap<
  LoadedPack,
  { readonly keys: readonly Uint8Array[]; readonly order: Int32Array }
>();

const isArrayIndex = (name: string): boolean => {
  const n = Number(name);
  return Number.isInteger(n) && n >= 0 && n < 4294967295 && String(n) === name;
};

function keysOf(pack: LoadedPack): { readonly keys: readonly Uint8Array[]; readonly order: Int32Array } {
  let made = jsonKeys.get(pack);
  if (made === undefined) {
    const names = pack.classNames;
    const indices = names.map((_, c) => c);
    const numeric = indices
      .filter((c) => isArrayIndex(names[c]!))
      .sort((a, b) => Number(names[a]) - Number(names[b]));
    const rest = indices.filter((c) => !isArrayIndex(names[c]!));
    made = { keys: jsonKeyBytes(names), order: Int32Array.from([...numeric, ...rest]) };
    jsonKeys.set(pack, made);
  }
  return made;
}

type Distribute<W> = (pack: LoadedPack, action: PackAction, opts: DistributionOptions) => Distribution<W>;

/** One writer for every body: bodies are built synchronously, one at a time. */
const writer = new BodyWriter();

/**
 * The UTF-8 bytes of `JSON.stringify` of a view whose distributions `BodyWriter` writes: building objects of
 * hundreds or thousands of keys and stringifying them costs several times more (a PLO node's 16,432 classes).
 */
function withBytes<V>(build: (distribute: Distribute<string>) => V): Buffer {
  try {
    const view = build((pack, action, opts) => {
      const { keys, order } = keysOf(pack);
      return writer.distribution(keys, (visit) => eachShown(pack, action, opts, visit, order));
    });
    return writer.finish(view);
  } finally {
    writer.reset();
  }
}

function sizeFields(
  action: Pick<PackAction, "kind" | "sizeBb" | "sizePctPot" | "sizeReason">,
): Pick<Action, "sizeBb" | "sizePctPot" | "sizeReason"> {
  const sizeBb = action.sizeBb === null ? null : round2(action.sizeBb);
  const sizePctPot = action.sizePctPot === null ? null : round2(action.sizePctPot);
  if (sizeBb !== null && sizePctPot !== null) return { sizeBb, sizePctPot };
  const reason = action.sizeReason ?? (action.kind === "fold" ? "fold" : "no size is stored for this action");
  return { sizeBb, sizePctPot, sizeReason: reason };
}

export function nodeView(pack: LoadedPack, meta: StoredNode, opts: DistributionOptions): Node {
  return buildNode(pack, meta, opts, distribution);
}

/** `JSON.stringify(nodeView(...))` as UTF-8, the same bytes, built faster. */
export function nodeBytes(pack: LoadedPack, meta: StoredNode, opts: DistributionOptions): Buffer {
  return withBytes((distribute) => buildNode(pack, meta, opts, distribute));
}

function buildNode<W>(
  pack: LoadedPack,
  meta: StoredNode,
  opts: DistributionOptions,
  distribute: Distribute<W>,
) {
  const evUnit = pack.header.evUnit;
  const node = pack.decode(meta);
  return {
    schemaVersion: SCHEMA_VERSION,
    units: unitsFor(evUnit !== null),
    game: pack.game,
    stack: pack.stack,
    history: node.history,
    actor: node.actor,
    depth: node.depth,
    evUnit,
    evBaseline: nodeBaseline(pack, node),
    reach: reachOf(pack, meta),
    actions: node.actions.map((action) => {
      const d = distribute(pack, action, opts);
      return {
        action: action.token,
        kind: action.kind,
        ...sizeFields(action),
        combos: d.combos,
        weights: d.weights,
        evs: d.evs,
      };
    }),
  };
}

export interface RangeViewOptions {
  hand?: { name: string; index: number };
  minFreq?: number;
}

export function rangeView(
  pack: LoadedPack,
  meta: StoredNode,
  actionMeta: StoredAction,
  spot: string,
  opts: RangeViewOptions,
): Range {
  return buildRange(pack, meta, actionMeta, spot, opts, distribution);
}

/** `JSON.stringify(rangeView(...))` as UTF-8, the same bytes, built faster. */
export function rangeBytes(
  pack: LoadedPack,
  meta: StoredNode,
  actionMeta: StoredAction,
  spot: string,
  opts: RangeViewOptions,
): Buffer {
  return withBytes((distribute) => buildRange(pack, meta, actionMeta, spot, opts, distribute));
}

function buildRange<W>(
  pack: LoadedPack,
  meta: StoredNode,
  actionMeta: StoredAction,
  spot: string,
  opts: RangeViewOptions,
  distribute: Distribute<W>,
) {
  const evUnit = pack.header.evUnit;
  const node = pack.decode(meta);
  const action = node.actions[meta.actions.indexOf(actionMeta)]!;
  const d = distribute(pack, action, {
    ...(opts.hand === undefined ? {} : { hand: opts.hand.index }),
    ...(opts.minFreq === undefined ? {} : { minFreq: opts.minFreq }),
  });
  const range: Omit<Range, "weights" | "evs"> & { weights: W; evs: W } = {
    schemaVersion: SCHEMA_VERSION,
    units: unitsFor(evUnit !== null),
    game: pack.game,
    stack: pack.stack,
    spot,
    actor: node.actor,
    action: action.token,
    kind: action.kind,
    ...sizeFields(action),
    combos: d.combos,
    weights: d.weights,
    evs: d.evs,
    evUnit,
    evBaseline: nodeBaseline(pack, node),
    reach: reachOf(pack, meta),
  };
  if (opts.hand !== undefined) {
    const i = opts.hand.index;
    const ev = evUnit === null || action.evs === null ? Number.NaN : action.evs[i]!;
    range.hand = opts.hand.name;
    range.freq = round4(action.freqs[i]!);
    range.ev = Number.isNaN(ev) ? null : round4(ev) + 0;
  }
  return range;
}

export function spotsView(pack: LoadedPack): Spots {
  return {
    schemaVersion: SCHEMA_VERSION,
    units: unitsFor(pack.header.evUnit !== null),
    game: pack.game,
    stack: pack.stack,
    count: pack.nodes.length,
    spots: pack.nodes.map((n) => ({
      history: n.history,
      actor: n.actor,
      depth: n.depth,
      actions: n.actions.map((a) => a.token),
    })),
  };
}

const NOT_RECORDED = "not recorded in the pack";

/** Config from the pack header; every null field is listed in `unverified` (the header's reasons first). */
export function configView(pack: LoadedPack, stack: number, availableStacks: number[]): Config {
  const c = pack.header.config;
  const unverified: Unverified[] = c.unverified.map((u) => ({ field: u.field, reason: u.reason }));
  const listed = new Set(unverified.map((u) => u.field));
  const note = (field: string, value: unknown, reason = NOT_RECORDED): void => {
    if (value === null && !listed.has(field)) {
      unverified.push({ field, reason });
      listed.add(field);
    }
  };
  const evUnit = pack.header.evUnit;
  const evBaseline = evUnit === null ? null : pack.baseline;
  const config: Config = {
    schemaVersion: SCHEMA_VERSION,
    units: unitsFor(true, true),
    game: pack.game,
    stack,
    seats: c.seats === null ? null : [...c.seats],
    stacks: c.stacks === null ? null : [...c.stacks],
    blinds: c.blinds === null ? null : { sb: c.blinds.sb, bb: c.blinds.bb },
    ante: c.ante,
    antePostedBy: c.antePostedBy,
    stackIncludesAnte: c.stackIncludesAnte,
    treeSizes: c.treeSizes === null ? null : [...c.treeSizes],
    openSizes:
      c.openSizes === null
        ? null
        : {
            open: { label: c.openSizes.open.label, sizeBb: c.openSizes.open.sizeBb },
            sb: { label: c.openSizes.sb.label, sizeBb: c.openSizes.sb.sizeBb },
            note: c.openSizes.note,
          },
    // null is "no rake" unless the header lists rake in unverified (unknown); never added here.
    rake:
      c.rake === null
        ? null
        : { percent: c.rake.percent, capBb: c.rake.capBb, noFlopNoDrop: c.rake.noFlopNoDrop },
    evUnit,
    evBaseline,
    importedAt: c.importedAt,
    availableStacks,
    unverified,
  };
  for (const field of [
    "seats",
    "stacks",
    "blinds",
    "ante",
    "antePostedBy",
    "stackIncludesAnte",
    "treeSizes",
    "openSizes",
    "importedAt",
  ] as const) {
    note(field, config[field]);
  }
  if (config.openSizes !== null) {
    note("openSizes.open.sizeBb", config.openSizes.open.sizeBb);
    note("openSizes.sb.sizeBb", config.openSizes.sb.sizeBb);
  }
  note("evUnit", evUnit, "the pack stores no EVs");
  note(
    "evBaseline",
    evBaseline,
    evUnit === null ? "the pack stores no EVs" : "the pack's stored fold EVs are not all 0",
  );
  return config;
}
