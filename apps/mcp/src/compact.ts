/**
 * Compact forms of nodes and ranges, sized for an agent's context.
 *
 * Hold'em: per action the classes above the threshold, grouped by frequency and written in range notation:
 *
 *   "22+,A2s+,KTs+,AJo+:1; A5s-A3s,76s:0.45; K9o:0.05"
 *
 * `QQ+` is QQ, KK, AA; `TT-77` the pairs from TT down to 77; `A2s+` every suited ace (A2s up to AKs);
 * `K9s-K6s` the suited kings from K9s down to K6s. The number after the colon is the frequency rounded to the
 * nearest 0.05 (`1` means at least 0.995; mixed frequencies show between 0.05 and 0.95).
 *
 * PLO (16,432 classes): per action summary counts and representative pure and mixed classes, spread over
 * the action's range from the highest EV to the lowest. A pack stored per bucket gives every class of a bucket
 * one strategy, so there the counts also count buckets and each bucket is shown once, by the representative
 * class the pack names for it.
 */

import {
  GAMES,
  type GameId,
  HOLDEM_CLASSES,
  HOLDEM_COMBO_COUNT,
  holdemClassCombos,
  PLO_HAND_COUNT,
  ploClassIndex,
  ploCombosOfName,
} from "@ranges/core";
import type { Action, Node, Range } from "@ranges/schema";
import { reachWarnings } from "./reach.js";
import type { CompactAction, CompactNode, CompactRange } from "./schemas.js";

/** Classes at or below this frequency never appear in a compact range, whatever minFreq says. */
export const COMPACT_FLOOR = 0.005;
const TOP_EVS = 5;
/** Representative classes per list (pure, mixed) of a compact PLO action. */
export const REPRESENTATIVES = 8;

export const holdemRangeFormat = (step: number): string =>
  `range: "<classes>:<freq>; ..." groups the classes taking the action by frequency, rounded to the nearest ${step} (1 = always, i.e. >= 0.995; mixed frequencies show as ${step}..${round(1 - step, 2)}). QQ+ = QQ,KK,AA; TT-77 = TT down to 77; A2s+ = A2s up to AKs; K9s-K6s = K9s down to K6s. Classes at or below \`threshold\` are left out. EVs are in sb relative to folding, rounded to 0.01. Use detail "full" for exact per-class numbers, or \`hand\` for one class.`;

/** Compact answers aim to stay below this many characters of JSON; coarser grouping kicks in above it. */
export const COMPACT_BUDGET = 7500;

/** Grouping tried in order until the answer fits the budget: finer first. */
const GROUPINGS: ReadonlyArray<{ step: number; floor: number }> = [
  { step: 0.05, floor: COMPACT_FLOOR },
  { step: 0.1, floor: COMPACT_FLOOR },
  { step: 0.1, floor: 0.05 },
  { step: 0.25, floor: 0.1 },
];

/**
 * The buckets of a PLO pack stored per bucket, as compact answers use them: each class's bucket and each
 * bucket's name, representative class and class count.
 */
export interface PloBucketView {
  readonly count: number;
  /** Bucket of a canonical class name (undefined for a name that is not a class). */
  readonly bucketOf: (name: string) => number | undefined;
  readonly names: readonly string[];
  readonly representatives: readonly string[];
  /** Classes per bucket. */
  readonly sizes: ArrayLike<number>;
}

/** How to read a compact PLO action; `buckets` is the pack's bucket count when it stores buckets. */
export function ploRangeFormat(buckets?: number): string {
  const stored =
    buckets === undefined
      ? "Representatives: up to 8 pure classes (frequency 1) and 8 mixed ones (class:freq), spread over the action's range from the highest EV to the lowest (equal EVs, such as a fold's, by rank from high to low)."
      : `The pack stores one strategy per bucket (${buckets} buckets of the 16,432 classes; every class of a bucket has its frequency and EV): counts give classes and buckets, and the representatives, up to 8 pure buckets (frequency 1) and 8 mixed ones (class:freq), are each bucket's representative class, spread over the action's range from the highest EV to the lowest (equal EVs, such as a fold's, by rank from high to low); topEvsSb shows one class per bucket.`;
  return `PLO actions carry counts (classes above the threshold, how many at frequency 1, how many mixed). ${stored} EVs are in sb relative to folding, rounded to 0.01. Use \`hand\` (a class such as (AK)QJ or four cards) for one class's exact numbers, or detail "full" with minFreq for every class above it.`;
}

const RANK = "AKQJT98765432";
const round = (x: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(x * f) / f;
};

/** Rank character at grid position 0..12 (0 = ace). */
const r = (pos: number): string => RANK[pos]!;

/** Runs of consecutive integers in an ascending list. */
function runs(sorted: readonly number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const x of sorted) {
    const last = out[out.length - 1];
    if (last && x === last[1] + 1) last[1] = x;
    else out.push([x, x]);
  }
  return out;
}

/**
 * Range notation for a set of hold'em class indices (grid order, index = row * 13 + col).
 * Pairs first, then suited hands by high card, then offsuit hands.
 */
export function holdemRangeNotation(indices: Iterable<number>): string {
  const set = new Set(indices);
  const parts: string[] = [];
  const pairs = [...Array(13).keys()].filter((p) => set.has(p * 13 + p));
  for (const [a, b] of runs(pairs)) {
    if (a === b) parts.push(r(a) + r(a));
    else if (a === 0) parts.push(`${r(b)}${r(b)}+`);
    else parts.push(`${r(a)}${r(a)}-${r(b)}${r(b)}`);
  }
  for (const suffix of ["s", "o"] as const) {
    for (let high = 0; high < 12; high++) {
      const kickers: number[] = [];
      for (let low = high + 1; low < 13; low++) {
        const index = suffix === "s" ? high * 13 + low : low * 13 + high;
        if (set.has(index)) kickers.push(low);
      }
      for (const [a, b] of runs(kickers)) {
        const top = `${r(high)}${r(a)}${suffix}`;
        if (a === b) parts.push(top);
        else if (a === high + 1) parts.push(`${r(high)}${r(b)}${suffix}+`);
        else parts.push(`${top}-${r(high)}${r(b)}${suffix}`);
      }
    }
  }
  return parts.join(",");
}

/** Frequency label of a group: 1 for pure, else the nearest multiple of `step` kept inside [step, 1 - step]. */
export function bucketOf(freq: number, step = 0.05): number {
  if (freq >= 0.995) return 1;
  return round(Math.min(1 - step, Math.max(step, Math.round(freq / step) * step)), 2);
}

/** The grouped range string for one hold'em action. */
export function holdemRangeString(
  weights: Readonly<Record<string, number>>,
  threshold: number,
  step = 0.05,
): string {
  const groups = new Map<number, number[]>();
  HOLDEM_CLASSES.forEach((name, index) => {
    const f = weights[name] ?? 0;
    if (f <= threshold) return;
    const b = bucketOf(f, step);
    const list = groups.get(b) ?? [];
    list.push(index);
    groups.set(b, list);
  });
  return [...groups.entries()]
    .sort((x, y) => y[0] - x[0])
    .map(([b, list]) => `${holdemRangeNotation(list)}:${b}`)
    .join("; ");
}

/** One entry of `topEvsSb`. */
export interface TopEv {
  readonly hand: string;
  readonly evSb: number;
}

interface Summary {
  readonly share: number;
  readonly combos: number;
  readonly avgEvSb: number | null;
  readonly topEvsSb?: TopEv[];
}

function combosOf(game: GameId, name: string, holdemIndex: Map<string, number>): number {
  if (GAMES[game].classSet === "holdem169") return holdemClassCombos(holdemIndex.get(name) ?? 0);
  return ploCombosOfName(name) ?? 0;
}

const HOLDEM_INDEX = new Map(HOLDEM_CLASSES.map((name, index) => [name, index]));

function summarize(
  game: GameId,
  weights: Readonly<Record<string, number>>,
  evs: Readonly<Record<string, number>>,
  threshold: number,
  hasEvs: boolean,
  buckets?: PloBucketView,
): Summary {
  let combos = 0;
  let evMass = 0;
  let evWeight = 0;
  const scored: Array<[string, number]> = [];
  for (const [name, f] of Object.entries(weights)) {
    if (f <= 0) continue;
    const c = combosOf(game, name, HOLDEM_INDEX);
    combos += f * c;
    const ev = evs[name];
    if (ev !== undefined) {
      evMass += f * c * ev;
      evWeight += f * c;
      if (f > threshold) scored.push([name, ev]);
    }
  }
  const total = GAMES[game].classSet === "holdem169" ? HOLDEM_COMBO_COUNT : PLO_HAND_COUNT;
  const summary: Summary = {
    share: round(combos / total, 4),
    combos: round(combos, 2),
    avgEvSb: hasEvs && evWeight > 0 ? round(evMass / evWeight, 2) : null,
  };
  // Fold EVs are all 0 when EVs are relative to folding: no top list then.
  if (!hasEvs || scored.length === 0 || scored.every(([, ev]) => ev === 0)) return summary;
  // Highest EV first; equal EVs in class order (AA, AKs, ... for hold'em), so the list never depends on the
  // order the classes happen to be stored in.
  const order = (name: string) => HOLDEM_INDEX.get(name) ?? Number.MAX_SAFE_INTEGER;
  scored.sort((a, b) => b[1] - a[1] || order(a[0]) - order(b[0]) || a[0].localeCompare(b[0]));
  // Per bucket, one entry: the bucket's representative (its classes share the EV).
  const top: TopEv[] = [];
  const seen = new Set<number>();
  for (const [name, ev] of scored) {
    if (top.length === TOP_EVS) break;
    const b = buckets?.bucketOf(name);
    if (b !== undefined) {
      if (seen.has(b)) continue;
      seen.add(b);
    }
    top.push({ hand: b === undefined ? name : buckets!.representatives[b]!, evSb: round(ev, 2) });
  }
  return { ...summary, topEvsSb: top };
}

/** Up to `k` items spread evenly over `items` (the first and the last included). */
export function spread<T>(items: readonly T[], k: number): T[] {
  if (items.length <= k) return [...items];
  const out: T[] = [];
  for (let i = 0; i < k; i++) out.push(items[Math.round((i * (items.length - 1)) / (k - 1))]!);
  return out;
}

interface PloGroup {
  /** The class shown: the bucket's representative, or the class itself. */
  name: string;
  /** Its index in class order (ranks high to low): the order of equal EVs. */
  index: number;
  freq: number;
  ev: number;
}

function ploDetail(
  weights: Readonly<Record<string, number>>,
  evs: Readonly<Record<string, number>>,
  threshold: number,
  buckets?: PloBucketView,
): Pick<CompactAction, "counts" | "representative"> {
  let pure = 0;
  let mixed = 0;
  // One group per bucket (a pack stored per bucket) or per class.
  const groups = new Map<string | number, PloGroup>();
  for (const [name, f] of Object.entries(weights)) {
    if (f <= threshold) continue;
    if (f >= 0.995) pure++;
    else mixed++;
    const b = buckets?.bucketOf(name);
    const key = b ?? name;
    if (groups.has(key)) continue;
    const shown = b === undefined ? name : buckets!.representatives[b]!;
    const ev = evs[name] ?? Number.NEGATIVE_INFINITY;
    groups.set(key, { name: shown, index: ploClassIndex(shown) ?? Number.MAX_SAFE_INTEGER, freq: f, ev });
  }
  // Highest EV first; equal EVs (a fold's are all 0) in class order, ranks high to low, so the order never
  // depends on the order the classes are stored in.
  const sorted = [...groups.values()].sort((a, b) => b.ev - a.ev || a.index - b.index);
  const purely = sorted.filter((g) => g.freq >= 0.995);
  const partly = sorted.filter((g) => g.freq < 0.995);
  return {
    counts: {
      classes: pure + mixed,
      pure,
      mixed,
      ...(buckets === undefined ? {} : { buckets: { pure: purely.length, mixed: partly.length } }),
    },
    representative: {
      pure: spread(purely, REPRESENTATIVES).map((g) => g.name),
      mixed: spread(partly, REPRESENTATIVES).map((g) => `${g.name}:${round(g.freq, 2)}`),
    },
  };
}

function sizeFields(a: Pick<Action, "action" | "kind" | "sizeBb" | "sizePctPot" | "sizeReason">) {
  const base = { action: a.action, kind: a.kind, sizeBb: a.sizeBb, sizePctPot: a.sizePctPot };
  return a.sizeReason === undefined ? base : { ...base, sizeReason: a.sizeReason };
}

export interface CompactOptions {
  readonly threshold: number;
  /** Canonical class name when the caller asked for one hand. */
  readonly hand?: string | undefined;
  readonly combo?: string | undefined;
  /** The pack's buckets, when it is a PLO pack stored per bucket. */
  readonly buckets?: PloBucketView | undefined;
}

function compactAction(
  game: GameId,
  a: Action,
  hasEvs: boolean,
  o: CompactOptions,
  step: number,
): CompactAction {
  const head = sizeFields(a);
  if (o.hand !== undefined) {
    const ev = a.evs[o.hand];
    return { ...head, freq: a.weights[o.hand] ?? 0, evSb: hasEvs && ev !== undefined ? ev : null };
  }
  if (GAMES[game].classSet === "holdem169") {
    const summary = summarize(game, a.weights, a.evs, o.threshold, hasEvs);
    return { ...head, ...summary, range: holdemRangeString(a.weights, o.threshold, step) };
  }
  const summary = summarize(game, a.weights, a.evs, o.threshold, hasEvs, o.buckets);
  return { ...head, ...summary, ...ploDetail(a.weights, a.evs, o.threshold, o.buckets) };
}

const rangeFormatFor = (game: GameId, step: number, buckets?: PloBucketView): string =>
  GAMES[game].classSet === "holdem169" ? holdemRangeFormat(step) : ploRangeFormat(buckets?.count);

/** With `hand` on a pack stored per bucket: the class's bucket, which every one of its classes shares. */
function bucketOfHand(o: CompactOptions): CompactNode["bucket"] {
  const b = o.hand === undefined ? undefined : o.buckets?.bucketOf(o.hand);
  if (b === undefined) return undefined;
  const { names, representatives, sizes } = o.buckets!;
  return { name: names[b]!, representative: representatives[b]!, classes: sizes[b]! };
}

/**
 * Builds with the finest grouping whose JSON fits COMPACT_BUDGET (a fully mixed 6-action hold'em node fits
 * at the finest); when none fits, the coarsest. The threshold never drops below the caller's minFreq.
 */
function fitted<T>(o: CompactOptions, build: (o: CompactOptions, step: number) => T): T {
  let out: T | undefined;
  for (const g of GROUPINGS) {
    out = build({ ...o, threshold: Math.max(o.threshold, g.floor) }, g.step);
    if (o.hand !== undefined || JSON.stringify(out).length <= COMPACT_BUDGET) return out;
  }
  return out!;
}

/** The compact form of a Node (fetched with every class and EV; the threshold is applied here). */
export function compactNode(node: Node, o: CompactOptions): CompactNode {
  return fitted(o, (opts, step) => buildCompactNode(node, opts, step));
}

/** The compact form of a Range. */
export function compactRange(range: Range, o: CompactOptions): CompactRange {
  return fitted(o, (opts, step) => buildCompactRange(range, opts, step));
}

function buildCompactNode(node: Node, o: CompactOptions, step: number): CompactNode {
  const hasEvs = node.evUnit !== null;
  const out: CompactNode = {
    schemaVersion: 1,
    detail: "compact",
    game: node.game,
    stack: node.stack,
    history: node.history,
    actor: node.actor,
    depth: node.depth,
    evUnit: node.evUnit,
    evBaseline: node.evBaseline,
    reach: node.reach,
    threshold: o.threshold,
    actions: node.actions.map((a) => compactAction(node.game, a, hasEvs, o, step)),
    next: `To see one action's range call get_range with spot "${node.history}_<action>" (e.g. "${node.history}_${node.actions.find((a) => a.kind !== "fold")?.action ?? node.actions[0]?.action ?? "Fold"}"). A deeper node's history continues with the next seat to act; list_spots lists them.`,
    warnings: reachWarnings(node.reach),
  };
  if (o.hand !== undefined) {
    out.hand = o.hand;
    if (o.combo !== undefined) out.combo = o.combo;
    const bucket = bucketOfHand(o);
    if (bucket !== undefined) out.bucket = bucket;
  } else {
    out.rangeFormat = rangeFormatFor(node.game, step, o.buckets);
  }
  return out;
}

function buildCompactRange(range: Range, o: CompactOptions, step: number): CompactRange {
  const hasEvs = range.evUnit !== null;
  const action = compactAction(range.game, range, hasEvs, o, step);
  const { action: _token, kind: _kind, sizeBb: _b, sizePctPot: _p, sizeReason: _r, ...rest } = action;
  const out: CompactRange = {
    schemaVersion: 1,
    detail: "compact",
    game: range.game,
    stack: range.stack,
    spot: range.spot,
    actor: range.actor,
    ...sizeFields(range),
    evUnit: range.evUnit,
    evBaseline: range.evBaseline,
    reach: range.reach,
    threshold: o.threshold,
    ...rest,
    warnings: reachWarnings(range.reach),
  };
  if (o.hand !== undefined) {
    out.hand = o.hand;
    if (o.combo !== undefined) out.combo = o.combo;
    const bucket = bucketOfHand(o);
    if (bucket !== undefined) out.bucket = bucket;
  } else {
    out.rangeFormat = rangeFormatFor(range.game, step, o.buckets);
  }
  return out;
}
