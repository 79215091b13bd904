/**
 * Synthetic packs for tests (not a test file: vitest runs only `*.test.ts`). Trees are played out with the
 * same LineReplay the importer uses, so every history parses; frequencies and EVs come from a seeded PRNG.
 * The packs the service ships come only from the solver.
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  GAMES,
  type GameId,
  HOLDEM_CLASS_COUNT,
  isRangesError,
  PLO_CLASS_COUNT,
  type RangesError,
  seededRandom,
} from "@ranges/core";
import { expect } from "vitest";
import { finalTokens, type LineAction, LineReplay } from "../src/line.js";
import {
  PACK_FORMAT,
  PACK_FORMAT_VERSION,
  type PackAction,
  type PackConfig,
  type PackData,
  type PackNode,
} from "../src/pack-types.js";

export const prng = seededRandom;

export interface NodeContext {
  readonly game: GameId;
  readonly actor: string;
  readonly raises: number;
  /** True once someone is all-in: then only Fold and Call are offered. */
  readonly facingAllIn: boolean;
}

/** Codes a node offers in the default tree: fold, call or limp, one raise size per depth, all-in. */
export function defaultPolicy(ctx: NodeContext): number[] {
  const info = GAMES[ctx.game];
  if (ctx.facingAllIn) return [0, 1];
  if (ctx.raises === 0) {
    if (ctx.actor === "BB") return [1, 40100];
    const open = ctx.game === "nlmtt8" ? (ctx.actor === "SB" ? 40060 : 40034) : 40060;
    const limp = info.limpToken && ctx.actor === "SB" ? [1] : [];
    return [0, ...limp, open, 3];
  }
  if (ctx.raises === 1) return [0, 1, 40080, 3];
  if (ctx.raises === 2) return [0, 1, 40070, 3];
  return [0, 1, 3];
}

/** Seats whose voluntary actions the default tree follows: the first seat, the button and the blinds. */
export function activeSeats(game: GameId): string[] {
  const seats = GAMES[game].seats;
  return [...new Set([seats[0]!, seats[Math.max(0, seats.length - 3)]!, ...seats.slice(-2)])];
}

export interface FixtureOptions {
  readonly game: GameId;
  readonly stack: number;
  readonly seed?: number;
  /** Cap on nodes, filled by fewest voluntary actions first, then breadth first (default 400). */
  readonly maxNodes?: number;
  /** Whether a child line is played out; default: only the active seats' calls and raises are followed. */
  readonly expand?: (line: { seat: string; action: LineAction }[]) => boolean;
  readonly policy?: (ctx: NodeContext) => number[];
  /** Store EVs (default: the game's hasEvs). */
  readonly evs?: boolean;
  /**
   * Values per action (default: the game's class count). A caller that fills in its own values (one per
   * bucket, say) asks for few, so no time goes into values it replaces.
   */
  readonly values?: number;
  /** Give fold a non-zero EV (an absolute baseline, as some imports have). */
  readonly nonZeroFoldEv?: boolean;
  readonly config?: Partial<PackConfig>;
}

/** Classes left unscored (NaN EV) in every action, so tests can see EVs omitted. */
export const isUnscored = (c: number): boolean => c % 7 === 3;

export function classCountOf(game: GameId): number {
  return GAMES[game].classSet === "plo16432" ? PLO_CLASS_COUNT : HOLDEM_CLASS_COUNT;
}

export function defaultConfig(game: GameId, stack: number): PackConfig {
  const info = GAMES[game];
  return {
    seats: [...info.seats],
    stacks: info.seats.map(() => stack),
    blinds: { sb: 0.5, bb: 1 },
    ante: info.ante,
    antePostedBy: info.antePostedBy,
    stackIncludesAnte: info.ante > 0 ? true : null,
    treeSizes: ["Open 34% pot", "SB Open 60% pot", "3B 80% pot", "4B 70% pot", "AI"],
    openSizes:
      game === "nlmtt8"
        ? { open: { label: "2.2x", sizeBb: 2.19 }, sb: { label: "2.8x", sizeBb: 2.8 }, note: null }
        : null,
    rake: info.format === "cash" ? { percent: 5, capBb: 0.6, noFlopNoDrop: true } : null,
    importedAt: null,
    unverified: [{ field: "importedAt", reason: "solver pack: nothing was imported" }],
  };
}

/** Builds a PackData for a synthetic tree. */
export function buildPack(options: FixtureOptions): PackData {
  const { game, stack } = options;
  const info = GAMES[game];
  const rand = prng(options.seed ?? 1);
  const policy = options.policy ?? defaultPolicy;
  const withEvs = options.evs ?? info.hasEvs;
  const maxNodes = options.maxNodes ?? 400;
  const active = activeSeats(game);
  const expand =
    options.expand ??
    ((steps: { seat: string; action: LineAction }[]) =>
      steps.every((s) => s.action.kind === "fold" || active.includes(s.seat)));
  const n = options.values ?? classCountOf(game);
  const nodes: PackNode[] = [];
  type Item = {
    codes: number[];
    history: string | null;
    allIn: boolean;
    steps: { seat: string; action: LineAction }[];
  };
  const voluntary = (item: Item) => item.steps.filter((s) => s.action.kind !== "fold").length;
  // One FIFO per count of voluntary actions: lines with fewer calls and raises are played first.
  const buckets: Item[][] = [[{ codes: [], history: null, allIn: false, steps: [] }]];
  while (nodes.length < maxNodes) {
    const bucket = buckets.find((b) => b.length > 0);
    if (!bucket) break;
    const item = bucket.shift()!;
    const line = LineReplay.of(game, stack, item.codes);
    const actor = line.actor;
    if (actor === null) continue;
    const history = item.history === null ? actor : `${item.history}_${actor}`;
    const offered = policy({ game, actor, raises: line.raises, facingAllIn: item.allIn });
    // Drop codes that decode to a token already offered (a raise that reaches the stack is an all-in).
    const described: LineAction[] = [];
    for (const code of offered) {
      const d = line.describe(code);
      if (!described.some((x) => x.token === d.token && x.kind !== "raise")) described.push(d);
    }
    const final = finalTokens(game, described);
    if ("clash" in final) throw new Error(`fixture clash at ${history}`);
    const freqs = described.map(() => new Float32Array(n));
    for (let c = 0; c < n; c++) {
      const w = described.map(() => (rand() < 0.3 ? 0 : rand() ** 2));
      const total = w.reduce((a, b) => a + b, 0);
      for (let a = 0; a < described.length; a++) {
        freqs[a]![c] = total === 0 ? (a === 0 ? 1 : 0) : w[a]! / total;
      }
    }
    const actions: PackAction[] = described.map((d, a) => {
      let evs: Float32Array | null = null;
      if (withEvs) {
        evs = new Float32Array(n);
        for (let c = 0; c < n; c++) {
          if (isUnscored(c)) evs[c] = Number.NaN;
          else if (d.kind === "fold") evs[c] = options.nonZeroFoldEv ? -1 : 0;
          else evs[c] = rand() * 10 - 5;
        }
      }
      const base = {
        code: d.code,
        token: final.tokens[a]!,
        kind: d.kind,
        sizeBb: d.sizeBb,
        sizePctPot: d.sizePctPot,
        freqs: freqs[a]!,
        evs,
      };
      return d.sizeReason === undefined ? base : { ...base, sizeReason: d.sizeReason };
    });
    nodes.push({ history, actor, depth: line.depth, actions });
    described.forEach((d, a) => {
      const steps = [...item.steps, { seat: actor, action: d }];
      if (!expand(steps)) return;
      const child: Item = {
        codes: [...item.codes, d.code],
        history: `${history}_${final.tokens[a]}`,
        allIn: item.allIn || d.kind === "allin",
        steps,
      };
      const v = voluntary(child);
      while (buckets.length <= v) buckets.push([]);
      buckets[v]!.push(child);
    });
  }
  return {
    header: {
      format: PACK_FORMAT,
      formatVersion: PACK_FORMAT_VERSION,
      game,
      stack,
      classSet: info.classSet,
      classCount: classCountOf(game),
      evUnit: withEvs ? "sb" : null,
      config: { ...defaultConfig(game, stack), ...options.config },
      provenance: {
        source: "solver",
        algorithm: "test fixture",
        iterations: 0,
        exploitability: [{ seat: "BB", mbbPerHand: 1.5, pctPot: 0.1 }],
        seed: options.seed ?? 1,
        model: null,
        solveSeconds: null,
        createdAt: "2025-01-01T00:00:00.000Z",
        treeConfig: null,
        notes: [],
      },
    },
    nodes,
  };
}

/**
 * Re-frames an encoded pack around a changed header JSON, with valid lengths, offsets and checksums: a file as
 * another writer (an older one, or a broken one) would have made it. Index and data are kept as stored.
 */
export function withHeaderJson(
  bytes: Uint8Array,
  edit: (header: Record<string, unknown>) => Record<string, unknown>,
): Buffer {
  const b = Buffer.from(bytes);
  const headerLength = b.readUInt32LE(12);
  const indexLength = b.readUInt32LE(16);
  const dataOffset = b.readUInt32LE(20);
  const dataLength = b.readUInt32LE(24);
  const header = JSON.parse(b.subarray(96, 96 + headerLength).toString("utf8")) as Record<string, unknown>;
  const index = b.subarray(96 + headerLength, 96 + headerLength + indexLength);
  const data = b.subarray(dataOffset, dataOffset + dataLength);
  const newHeader = Buffer.from(JSON.stringify(edit(header)), "utf8");
  const newOffset = Math.ceil((96 + newHeader.length + index.length) / 8) * 8;
  const out = Buffer.alloc(newOffset + data.length);
  b.copy(out, 0, 0, 64);
  out.writeUInt32LE(newHeader.length, 12);
  out.writeUInt32LE(newOffset, 20);
  newHeader.copy(out, 96);
  index.copy(out, 96 + newHeader.length);
  createHash("sha256").update(out.subarray(0, 64)).update(newHeader).update(index).digest().copy(out, 64);
  data.copy(out, newOffset);
  return out;
}

/** The header as a pack written before `config.rake` existed would hold it: the field left out. */
export const withoutRake = (header: Record<string, unknown>): Record<string, unknown> => {
  const { rake: _, ...config } = header.config as Record<string, unknown>;
  return { ...header, config };
};

export function tmpDir(prefix = "store-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs `fn` and returns the RangesError it throws; fails when it returns or throws anything else. */
export function catchRangesError(fn: () => unknown): RangesError {
  try {
    fn();
  } catch (error) {
    if (isRangesError(error)) return error;
    throw error;
  }
  throw new Error("expected a RangesError, but nothing was thrown");
}

/** Asserts that `fn` throws a RangesError with this status and code, and returns it. */
export function expectRangesError(fn: () => unknown, status: number, code: string): RangesError {
  const error = catchRangesError(fn);
  expect({ status: error.status, code: error.code, message: error.message }).toMatchObject({ status, code });
  expect(error.message.length).toBeGreaterThan(10);
  return error;
}

export async function expectRangesErrorAsync(
  promise: Promise<unknown>,
  status: number,
  code: string,
): Promise<RangesError> {
  try {
    await promise;
  } catch (error) {
    if (!isRangesError(error)) throw error;
    expect({ status: error.status, code: error.code, message: error.message }).toMatchObject({
      status,
      code,
    });
    return error;
  }
  throw new Error("expected a RangesError, but the promise resolved");
}
