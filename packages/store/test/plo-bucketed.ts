/**
 * A PLO pack stored per bucket, laid out as the solver writes one (`toPloPackData`: `header.buckets` with the
 * class-to-bucket map, bucket names and representatives, one frequency and EV per bucket in each action, the
 * provenance notes of a bucketed solve), on a pot-limit tree played out with LineReplay like every fixture
 * tree: pot-size opens (SB may complete), a 3-bet in position in two sizes (`3B-75`, `3B-100`) and one out
 * of position, pot-size 4-bets, then all-in. Strategies are synthetic and deterministic; nothing here is
 * solved. Shared by the store, API and MCP tests (imported by relative path), so the PLO fixture lives in
 * one place.
 *
 * Buckets: `(AK)(AK)` is in bucket 0, which raises first in at every first-in node; `9642` (rainbow) is in
 * the last bucket, which folds first in; every other class c is in bucket c % count. First in, a bucket's
 * fold frequency is `firstInFold(b)`; the first seat's open EV is `rootOpenEv(b)`.
 */

import { crc32 } from "node:zlib";
import { type GameId, PLO_CLASS_COUNT, ploClasses, seededRandom } from "@ranges/core";
import type { PackAction, PackData, PackNode } from "../src/pack-types.js";
import { buildPack, type NodeContext } from "./fixtures.js";

export const PLO_FIXTURE_BUCKETS = 64;

export interface PloBucketedOptions {
  readonly game?: Extract<GameId, "plo" | "plo9" | "plo5" | "plo6hu">;
  readonly stack?: number;
  /** Number of buckets (at least 4; default PLO_FIXTURE_BUCKETS). */
  readonly buckets?: number;
  /** Cap on decision nodes (default 160: every line up to a 4-bet of the followed seats at 6-max). */
  readonly maxNodes?: number;
  readonly seed?: number;
}

/** The bucket of class index `c` among `count` buckets. */
export function ploFixtureBucketOf(c: number, count = PLO_FIXTURE_BUCKETS): number {
  const name = ploClasses()[c]!;
  if (name === "(AK)(AK)") return 0;
  if (name === "9642") return count - 1;
  return c % count;
}

/** Fold frequency of bucket `b` first in: 0 for bucket 0, 1 for the last, else 0, 0.25, 0.75, 1 by b % 4. */
export function firstInFold(b: number, count = PLO_FIXTURE_BUCKETS): number {
  if (b === 0) return 0;
  if (b === count - 1) return 1;
  return [0, 0.25, 0.75, 1][b % 4]!;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
/** Packs store EVs in hundredths of a small blind. */
const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * EV (sb, relative to folding) of bucket `b`'s first-in open at the root: 1.5 for bucket 0 down to -0.5, in
 * hundredths as packs store EVs.
 */
export function rootOpenEv(b: number, count = PLO_FIXTURE_BUCKETS): number {
  return round2(1.5 - (2 * b) / (count - 1));
}

/** Pot-limit codes of the fixture tree (pct codes at most 40100; all-in from the fifth raise on). */
export function potLimitPolicy(ctx: NodeContext): number[] {
  if (ctx.facingAllIn) return [0, 1];
  const blind = ctx.actor === "SB" || ctx.actor === "BB";
  if (ctx.raises === 0) {
    if (ctx.actor === "BB") return [1, 40100];
    return ctx.actor === "SB" ? [0, 1, 40100] : [0, 40100];
  }
  if (ctx.raises === 1) return blind ? [0, 1, 40100] : [0, 1, 40075, 40100];
  if (ctx.raises === 2) return [0, 1, 40100];
  return [0, 1, 3];
}

function hashText(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Readable raise sizes by depth, as the solver lists them ("depth 2: 3B-75 75% pot, 3B-100 100% pot"). */
function treeSizesOf(nodes: readonly PackNode[]): string[] {
  const seen = new Map<number, Set<string>>();
  for (const node of nodes) {
    for (const a of node.actions) {
      if (a.kind !== "raise" && a.kind !== "allin") continue;
      const set = seen.get(node.depth) ?? new Set<string>();
      set.add(a.kind === "allin" ? "AI" : `${a.token} ${a.sizePctPot}% pot`);
      seen.set(node.depth, set);
    }
  }
  return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([d, v]) => `depth ${d}: ${[...v].join(", ")}`);
}

/** Frequencies of one node per bucket: first in by `firstInFold`, elsewhere seeded pure or mixed. */
function strategyOf(
  node: Pick<PackNode, "history" | "depth" | "actor">,
  kinds: readonly PackAction["kind"][],
  count: number,
  seed: number,
): Float32Array[] {
  const freqs = kinds.map(() => new Float32Array(count));
  const random = seededRandom(hashText(node.history) ^ seed);
  const fold = kinds.indexOf("fold");
  const raises = kinds.flatMap((k, i) => (k === "raise" || k === "allin" ? [i] : []));
  const firstIn = node.depth === 1 && fold >= 0;
  for (let b = 0; b < count; b++) {
    if (firstIn) {
      const f = firstInFold(b, count);
      const open = raises[raises.length - 1]!;
      freqs[fold]![b] = f;
      // The SB may complete: the hands that play split between the complete and the open.
      const call = kinds.indexOf("call");
      if (call >= 0 && b % 2 === 1) {
        freqs[call]![b] = (1 - f) / 2;
        freqs[open]![b] = (1 - f) / 2;
      } else {
        freqs[open]![b] = 1 - f;
      }
      continue;
    }
    if (b === 0 && raises.length > 0) {
      freqs[raises[raises.length - 1]!]![b] = 1;
      continue;
    }
    if (random() < 0.6) {
      freqs[Math.floor(random() * kinds.length)]![b] = 1;
    } else {
      const w = kinds.map(() => 0.05 + random());
      const total = w.reduce((x, y) => x + y, 0);
      w.forEach((x, i) => {
        freqs[i]![b] = x / total;
      });
    }
  }
  return freqs;
}

/** EVs of one action per bucket: 0 for fold; else from bucket strength, exact at the root. */
function evsOf(history: string, index: number, kind: PackAction["kind"], count: number, root: boolean) {
  const evs = new Float32Array(count);
  if (kind === "fold") return evs;
  const random = seededRandom(hashText(`${history}#${index}`));
  const scale = kind === "call" ? 0.5 : kind === "allin" ? 1.2 : 1;
  for (let b = 0; b < count; b++) {
    const jitter = root ? 0 : (random() - 0.5) * 0.2;
    evs[b] = round2(rootOpenEv(b, count) * scale + jitter);
  }
  return evs;
}

/** The bucketed PLO pack (see the module comment). */
export function ploBucketedPack(o: PloBucketedOptions = {}): PackData {
  const game = o.game ?? "plo";
  const stack = o.stack ?? 100;
  const count = o.buckets ?? PLO_FIXTURE_BUCKETS;
  if (count < 4) throw new Error("the PLO fixture needs at least 4 buckets");
  const seed = o.seed ?? 11;
  const tree = buildPack({
    game,
    stack,
    maxNodes: o.maxNodes ?? 160,
    policy: potLimitPolicy,
    evs: false,
    values: 1,
  });
  const root = tree.nodes[0]!.history;
  const nodes: PackNode[] = tree.nodes.map((node) => {
    const kinds = node.actions.map((a) => a.kind);
    const freqs = strategyOf(node, kinds, count, seed);
    return {
      ...node,
      actions: node.actions.map((a, i) => ({
        ...a,
        freqs: freqs[i]!,
        evs: evsOf(node.history, i, a.kind, count, node.history === root),
      })),
    };
  });

  const map = Buffer.alloc(2 * PLO_CLASS_COUNT);
  const members: string[][] = Array.from({ length: count }, () => []);
  const names = ploClasses();
  for (let c = 0; c < PLO_CLASS_COUNT; c++) {
    const b = ploFixtureBucketOf(c, count);
    map.writeUInt16LE(b, 2 * c);
    members[b]!.push(names[c]!);
  }
  // A member from the middle of each bucket (the solver names the member nearest the centroid).
  const representatives = members.map((m) => m[Math.floor(m.length / 2)]!);
  representatives[0] = "(AK)(AK)";
  representatives[count - 1] = "9642";
  const seats = tree.header.config.seats!;
  const abstraction = `test fixture: ${count} buckets (class index modulo ${count}, (AK)(AK) in bucket 0, 9642 in bucket ${count - 1})`;
  return {
    header: {
      ...tree.header,
      evUnit: "sb",
      buckets: {
        count,
        encoding: "u16le-base64",
        map: map.toString("base64"),
        crc32: crc32(map),
        names: Array.from({ length: count }, (_, b) => `fixture.${b + 1}`),
        representatives,
        abstraction,
      },
      config: {
        ...tree.header.config,
        treeSizes: treeSizesOf(nodes),
        rake: { percent: 5, capBb: 0.6, noFlopNoDrop: true },
        unverified: [
          { field: "importedAt", reason: "Solved by this project's solver, not imported." },
          { field: "openSizes", reason: "Open-size listings are published for nlmtt8 only." },
          { field: "stackIncludesAnte", reason: "The game has no ante." },
        ],
      },
      provenance: {
        source: "solver",
        algorithm: `test fixture: synthetic strategies over ${count} buckets`,
        iterations: 400,
        exploitability: seats.map((seat, i) => ({
          seat,
          mbbPerHand: round4(6 + i / 2),
          pctPot: round4(0.4 + i / 50),
        })),
        seed,
        model: `fixture model over ${count} buckets`,
        solveSeconds: 120,
        createdAt: "2026-01-01T00:00:00.000Z",
        treeConfig: `data/trees/${game}.json`,
        notes: [
          "test fixture: strategies per bucket",
          `Buckets: ${abstraction}.`,
          `Exploitability: best response of each seat against the stored average strategies of the others in the bucketed game (${count} buckets).`,
        ],
      },
    },
    nodes,
  };
}
