/**
 * Invariants every solved pack must satisfy (issue "Preflop model v3", item 6), as a pure checker: it takes a
 * decoded pack and returns one message per violation (empty when the pack passes). Not a test file (vitest
 * runs only `*.test.ts`): `committed-packs.test.ts` runs it on `data/packs`, `invariants.test.ts` on
 * deliberately broken in-memory packs. Every check runs over the values a pack stores: one per class, or one
 * per bucket in a bucketed PLO pack.
 *
 * - `premiums`: at every node with reach above `MIN_REACH` where the actor can fold and faces at most one
 *   raise (depth 1 or 2), AA folds at most 1% and KK at most 5%. Hold'em class sets only. A class the actor's
 *   own earlier actions on the path never take (its own reach at most `MIN_REACH`) is not checked: its
 *   strategy there is never played (a limp-fold line for a seat that never limps AA).
 * - `call`: every node where the actor faces a raise (depth >= 2 and Fold is offered) offers a call: an action
 *   of kind `call`, or an all-in no larger than the raise faced (calling it is all-in).
 * - `freq-sum`: at every node, each class's frequencies sum to 1 within the u16 quantization of the pack
 *   format: `FREQ_MAX_ERROR` per action plus 1e-6 for float noise before quantization (the writer clamps
 *   noise within 1e-6 of [0, 1]).
 * - `fold-ev`: in a pack that stores EVs (`evUnit` not null), EVs are relative to folding, so the served
 *   `evBaseline` is `fold`: every scored (non-NaN) fold EV is 0 to the store's precision (|ev| < 5e-5, the
 *   threshold by which the store decides `evBaseline`). A pack without EVs (`evUnit: null`) has nothing to check.
 */

import { HOLDEM_CLASSES } from "@ranges/core";
import {
  FREQ_MAX_ERROR,
  nodeReach,
  type PackAction,
  type PackData,
  type PackNode,
  storedValueCount,
} from "../src/index.js";

export type InvariantId = "premiums" | "call" | "freq-sum" | "fold-ev";

export const INVARIANTS: readonly InvariantId[] = ["premiums", "call", "freq-sum", "fold-ev"];

/** Nodes (and a class's own path probability) at or below this reach are not held to the premiums rule. */
export const MIN_REACH = 1e-6;
/** Largest fold frequency allowed, facing at most one raise, for the classes listed. */
export const MAX_PREMIUM_FOLD: Readonly<Record<string, number>> = { AA: 0.01, KK: 0.05 };
/** An EV this close to 0 prints as 0 at 4 decimals: the store's rule for a zero fold EV (views.ts). */
export const ZERO_EV = 5e-5;
/** Slack of a class's frequency sum, on top of `FREQ_MAX_ERROR` per action. */
export const SUM_FLOAT_SLACK = 1e-6;

/** The premiums model: a model name that starts with this passes every invariant; older ones skip some. */
export const V3_MODEL_PREFIX = "realization-v3";
/** PLO packs are solved on the same v3 engine (no forced folds): held to every invariant too. */
export const PLO_MODEL_PREFIX = "plo-realization";

/** Whether a pack is held to every invariant (written by the v3 engine) or only to the structural ones. */
export function isV3Pack(pack: Pick<PackData, "header">): boolean {
  const model = pack.header.provenance.model ?? "";
  return model.startsWith(V3_MODEL_PREFIX) || model.startsWith(PLO_MODEL_PREFIX);
}

/** Invariants that packs written before the v3 model are known to satisfy (run on every pack). */
export const STRUCTURAL: readonly InvariantId[] = ["freq-sum", "fold-ev"];
/** Invariants that only v3 packs must satisfy (the AA-folds bug of v2 and its call-less tree nodes). */
export const V3_ONLY: readonly InvariantId[] = ["premiums", "call"];

const fmt = (x: number): string => Number(x.toPrecision(4)).toString();

/** Each step of a node's path: the node where the step was taken and the action taken there. */
interface Step {
  readonly node: PackNode;
  readonly action: PackAction;
}

/** The steps of `node`'s path, or a message when an earlier node or action is missing (a broken tree). */
function pathOf(node: PackNode, byHistory: ReadonlyMap<string, PackNode>): Step[] | string {
  const parts = node.history.split("_");
  const steps: Step[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const prefix = parts.slice(0, i + 1).join("_");
    const at = byHistory.get(prefix);
    const action = at?.actions.find((a) => a.token === parts[i + 1]);
    if (at === undefined || action === undefined) {
      return `${node.history}: the earlier node "${prefix}" or its action "${parts[i + 1]}" is missing`;
    }
    steps.push({ node: at, action });
  }
  return steps;
}

function checkPremiums(pack: PackData, byHistory: ReadonlyMap<string, PackNode>, out: string[]): void {
  if (pack.header.classSet !== "holdem169") return;
  const classes = Object.entries(MAX_PREMIUM_FOLD).map(([name, max]) => ({
    name,
    max,
    index: HOLDEM_CLASSES.indexOf(name),
  }));
  for (const node of pack.nodes) {
    if (node.depth > 2) continue;
    const fold = node.actions.find((a) => a.kind === "fold");
    if (fold === undefined) continue; // the BB facing limps: nothing to fold to
    const suspects = classes.filter((c) => (fold.freqs[c.index] ?? 0) > c.max);
    if (suspects.length === 0) continue;
    const reach = nodeReach(pack, node.history);
    if (reach <= MIN_REACH) continue;
    const steps = pathOf(node, byHistory);
    if (typeof steps === "string") {
      out.push(`premiums: ${steps}`);
      continue;
    }
    for (const c of suspects) {
      let own = 1;
      for (const s of steps) if (s.node.actor === node.actor) own *= s.action.freqs[c.index] ?? 0;
      if (own <= MIN_REACH) continue;
      out.push(
        `premiums: ${node.history} (depth ${node.depth}, reach ${fmt(reach)}): ${c.name} folds ${fmt(fold.freqs[c.index]!)} > ${c.max}`,
      );
    }
  }
}

function checkCall(pack: PackData, byHistory: ReadonlyMap<string, PackNode>, out: string[]): void {
  for (const node of pack.nodes) {
    if (node.depth < 2 || !node.actions.some((a) => a.kind === "fold")) continue;
    if (node.actions.some((a) => a.kind === "call")) continue;
    const allins = node.actions.filter((a) => a.kind === "allin" && a.sizeBb !== null);
    if (allins.length > 0) {
      // The raise faced: the size of the last raise or all-in on the path.
      const steps = pathOf(node, byHistory);
      const faced =
        typeof steps === "string"
          ? null
          : steps.findLast((s) => s.action.kind === "raise" || s.action.kind === "allin")?.action.sizeBb;
      if (faced != null && allins.some((a) => a.sizeBb! <= faced + 1e-9)) continue;
    }
    const offered = node.actions.map((a) => a.token).join(", ");
    out.push(`call: ${node.history} (depth ${node.depth}) faces a raise and offers no call (${offered})`);
  }
}

/** The name of stored value `i`: a hold'em class, a PLO bucket, or a class index. */
const valueName = (pack: PackData, i: number): string =>
  pack.header.classSet === "holdem169"
    ? HOLDEM_CLASSES[i]!
    : pack.header.buckets
      ? `bucket ${i} (${pack.header.buckets.names?.[i] ?? "?"})`
      : `class ${i}`;

function checkFreqSum(pack: PackData, out: string[]): void {
  // A bucketed PLO pack stores one value per bucket.
  const n = storedValueCount(pack.header);
  for (const node of pack.nodes) {
    const tolerance = node.actions.length * FREQ_MAX_ERROR + SUM_FLOAT_SLACK;
    let bad = 0;
    let worst = -1;
    let worstSum = 1;
    for (let c = 0; c < n; c++) {
      let sum = 0;
      for (const a of node.actions) sum += a.freqs[c] ?? Number.NaN;
      if (Math.abs(sum - 1) <= tolerance) continue;
      bad++;
      if (worst < 0 || !(Math.abs(sum - 1) <= Math.abs(worstSum - 1))) {
        worst = c;
        worstSum = sum;
      }
    }
    if (bad > 0) {
      const name = valueName(pack, worst);
      out.push(
        `freq-sum: ${node.history}: ${bad} classes' frequencies do not sum to 1 within ${fmt(tolerance)} (${name}: ${worstSum})`,
      );
    }
  }
}

function checkFoldEv(pack: PackData, out: string[]): void {
  if (pack.header.evUnit === null) return;
  const n = storedValueCount(pack.header);
  for (const node of pack.nodes) {
    for (const a of node.actions) {
      if (a.kind !== "fold") continue;
      if (a.evs === null) {
        out.push(
          `fold-ev: ${node.history}: ${a.token} stores no EVs in a pack with evUnit "${pack.header.evUnit}"`,
        );
        continue;
      }
      let worst = -1;
      let bad = 0;
      for (let c = 0; c < n; c++) {
        const ev = a.evs[c]!;
        if (Number.isNaN(ev) || Math.abs(ev) < ZERO_EV) continue;
        bad++;
        if (worst < 0 || Math.abs(ev) > Math.abs(a.evs[worst]!)) worst = c;
      }
      if (bad > 0) {
        const name = valueName(pack, worst);
        out.push(
          `fold-ev: ${node.history}: ${bad} fold EVs are not 0 (${name}: ${a.evs[worst]} ${pack.header.evUnit})`,
        );
      }
    }
  }
}

/**
 * The violations of `pack` for the invariants listed (all by default), one message per violation, each naming
 * the invariant and the node history. Pure: reads the pack only (reach through `nodeReach`, memoized per pack).
 */
export function checkPackInvariants(pack: PackData, only: readonly InvariantId[] = INVARIANTS): string[] {
  const out: string[] = [];
  const needsPaths = only.includes("premiums") || only.includes("call");
  const byHistory = needsPaths ? new Map(pack.nodes.map((n) => [n.history, n])) : new Map<string, PackNode>();
  if (only.includes("premiums")) checkPremiums(pack, byHistory, out);
  if (only.includes("call")) checkCall(pack, byHistory, out);
  if (only.includes("freq-sum")) checkFreqSum(pack, out);
  if (only.includes("fold-ev")) checkFoldEv(pack, out);
  return out;
}
