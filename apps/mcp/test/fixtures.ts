/**
 * Small synthetic packs, consistent with the grammar and pot arithmetic: the tree is replayed code by code
 * with the store's LineReplay (core's BettingOrder and PotState), so every history parses and every size is
 * what the code decodes to. Strategies are seeded pseudo-random, pure for most classes and mixed for some.
 */

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GAMES, type GameId, HOLDEM_CLASS_COUNT, PLO_CLASS_COUNT, seededRandom } from "@ranges/core";
import {
  LineReplay,
  PACK_FORMAT,
  PACK_FORMAT_VERSION,
  type PackAction,
  type PackData,
  type PackHeader,
  type PackNode,
  type PackRake,
  packPath,
  potSetupFor,
  writePack,
} from "@ranges/store";

interface Options {
  readonly source?: "solver" | "import";
  readonly seed?: number;
  /** Largest number of nodes to write (breadth first). */
  readonly maxNodes?: number;
  /**
   * An action no class ever takes (its frequency moves to the node's first action), so the nodes after it
   * have reach 0.
   */
  readonly neverTaken?: { readonly history: string; readonly token: string };
  /**
   * Rake of the header (solver packs; an import's is always unknown). Default: 5% capped at 0.6bb for cash
   * games, none for nlmtt8. "unrecorded" leaves the field out, as packs written before it was recorded do.
   */
  readonly rake?: PackRake | null | "unrecorded";
}

/** The rake of the cash fixtures unless a spec says otherwise. */
export const FIXTURE_RAKE: PackRake = { percent: 5, capBb: 0.6, noFlopNoDrop: true };

function candidateCodes(game: GameId, raises: number, actor: string): number[] {
  const info = GAMES[game];
  if (raises === 0) {
    // SB may limp where the game allows it; the BB facing a limp checks (Call) or raises.
    const call = (info.sbLimp && actor === "SB") || actor === "BB" ? [1] : [];
    return [0, ...call, 40060, 3];
  }
  if (raises === 1) return [0, ...(actor === "BB" ? [1] : []), 40100, 3];
  if (raises === 2) return [0, 1, 3];
  return [0, 1];
}

/** Facing an all-in only Fold and Call remain. */
function codesAt(game: GameId, line: LineReplay, actor: string, allIn: boolean): number[] {
  return allIn ? [0, 1] : candidateCodes(game, line.raises, actor);
}

export function buildPack(game: GameId, stack: number, o: Options = {}): PackData {
  const info = GAMES[game];
  const random = seededRandom(o.seed ?? 7);
  const hasEvs = info.hasEvs;
  const classCount = info.classSet === "holdem169" ? HOLDEM_CLASS_COUNT : PLO_CLASS_COUNT;
  const nodes: PackNode[] = [];
  const queue: Array<{ codes: number[]; history: string; allIn: boolean }> = [
    { codes: [], history: info.seats[0]!, allIn: false },
  ];
  const maxNodes = o.maxNodes ?? 600;
  while (queue.length > 0 && nodes.length < maxNodes) {
    const { codes, history, allIn } = queue.shift()!;
    const line = LineReplay.of(game, stack, codes);
    const actor = line.actor!;
    const depth = line.depth;
    const described = new Map<string, { code: number; a: ReturnType<LineReplay["describe"]> }>();
    for (const code of codesAt(game, line, actor, allIn)) {
      let a: ReturnType<LineReplay["describe"]>;
      try {
        a = line.describe(code);
      } catch {
        continue;
      }
      // A BB check is a Call of nothing: no fold there. Facing an all-in, calling is Call, not AI.
      if (a.kind === "fold" && actor === "BB" && line.raises === 0) continue;
      if (a.kind === "allin" && allIn) continue;
      if (!described.has(a.token)) described.set(a.token, { code, a });
    }
    const entries = [...described.values()];
    const n = entries.length;
    const freqs = entries.map(() => new Float32Array(classCount));
    const evs = entries.map(() => (hasEvs ? new Float32Array(classCount) : null));
    for (let c = 0; c < classCount; c++) {
      if (random() < 0.7) {
        freqs[Math.floor(random() * n)]![c] = 1;
      } else {
        const raw = entries.map(() => random() + 0.05);
        const sum = raw.reduce((x, y) => x + y, 0);
        raw.forEach((x, i) => {
          freqs[i]![c] = x / sum;
        });
      }
      entries.forEach(({ a }, i) => {
        const ev = evs[i];
        if (ev) ev[c] = a.kind === "fold" ? 0 : Math.round((random() * 13 - 3) * 1000) / 1000;
      });
    }
    const never =
      o.neverTaken?.history === history ? entries.findIndex(({ a }) => a.token === o.neverTaken!.token) : -1;
    if (never > 0) {
      for (let c = 0; c < classCount; c++) {
        freqs[0]![c] = freqs[0]![c]! + freqs[never]![c]!;
        freqs[never]![c] = 0;
      }
    }
    const actions: PackAction[] = entries.map(({ a }, i) => ({
      code: a.code,
      token: a.token,
      kind: a.kind,
      sizeBb: a.sizeBb,
      sizePctPot: a.sizePctPot,
      ...(a.sizeReason === undefined ? {} : { sizeReason: a.sizeReason }),
      freqs: freqs[i]!,
      evs: evs[i]!,
    }));
    nodes.push({ history, actor, depth, actions });
    for (const { code, a } of entries) {
      const next = LineReplay.of(game, stack, [...codes, code]);
      const seat = next.actor;
      if (seat !== null) {
        queue.push({
          codes: [...codes, code],
          history: `${history}_${a.token}_${seat}`,
          allIn: allIn || a.kind === "allin",
        });
      }
    }
  }
  return { header: headerFor(game, stack, o.source ?? "solver", o.rake), nodes };
}

function headerFor(
  game: GameId,
  stack: number,
  source: "solver" | "import",
  rakeOption: Options["rake"],
): PackHeader {
  const info = GAMES[game];
  const setup = potSetupFor(game, stack);
  const solver = source === "solver";
  const open = LineReplay.of(game, stack, []).describe(40060);
  const unverified: { field: string; reason: string }[] =
    info.ante > 0 ? [] : [{ field: "stackIncludesAnte", reason: "no ante in this game" }];
  const chosen = rakeOption === undefined ? (info.format === "cash" ? FIXTURE_RAKE : null) : rakeOption;
  // An import cannot know its rake; "unrecorded" is left out of the header JSON (undefined is dropped).
  const rake = !solver ? null : chosen === "unrecorded" ? undefined : chosen;
  if (!solver) unverified.push({ field: "rake", reason: "Imported solver exports do not record the rake." });
  return {
    format: PACK_FORMAT,
    formatVersion: PACK_FORMAT_VERSION,
    game,
    stack,
    classSet: info.classSet,
    classCount: info.classSet === "holdem169" ? HOLDEM_CLASS_COUNT : PLO_CLASS_COUNT,
    evUnit: info.hasEvs ? "sb" : null,
    config: {
      seats: [...info.seats],
      stacks: [...setup.stacks],
      blinds: { sb: 0.5, bb: 1 },
      ante: info.ante,
      antePostedBy: info.antePostedBy,
      stackIncludesAnte: info.ante > 0 ? true : null,
      treeSizes:
        info.tokenStyle === "percent" ? ["open 60%", "3B 100%", "AI"] : ["Open 50%", "3B 100%", "AI"],
      openSizes:
        game === "nlmtt8"
          ? {
              open: { label: `${open.sizeBb}x`, sizeBb: open.sizeBb },
              sb: { label: `${open.sizeBb}x`, sizeBb: open.sizeBb },
              note: null,
            }
          : null,
      rake: rake as PackRake | null,
      importedAt: solver ? null : "2025-01-02T03:04:05.000Z",
      unverified,
    },
    provenance: {
      source,
      algorithm: solver ? "CFR+ (alternating updates, linear averaging)" : null,
      iterations: solver ? 2000 : null,
      exploitability: solver
        ? info.seats.map((seat, i) => ({ seat, mbbPerHand: (15 + i) / 10, pctPot: (10 + i) / 100 }))
        : null,
      seed: solver ? 42 : null,
      model: solver ? "hu-realization-v1 (test)" : null,
      solveSeconds: solver ? 12.5 : null,
      createdAt: "2025-01-01T00:00:00.000Z",
      treeConfig: solver ? "data/trees/test.json" : null,
      notes: solver ? ["synthetic test pack"] : [],
    },
  };
}

export interface FixturePacks {
  readonly dir: string;
  /** Node count per written pack, keyed `<game>@<stack>`. */
  readonly nodeCounts: Record<string, number>;
}

/**
 * nl/v2 at 100 and 50bb, nl at 100bb (no EVs), nlmtt8 at 40bb and 20bb (an import without provenance) and a
 * small plo 100bb tree. At nl/v2 50bb UTG never goes all-in, so `UTG_AI_HJ` and everything after it has
 * reach 0 (UNREACHED).
 *
 * Rake: FIXTURE_RAKE on the cash packs, except nl/v2 50bb (OTHER_RAKE) and nl 100bb (written without the
 * field, as before the rake was recorded: unknown); none on nlmtt8 40bb; unknown on the nlmtt8 20bb import.
 */
export const UNREACHED = { game: "nl/v2", stack: 50, history: "UTG_AI_HJ" } as const;

/** The rake of the nl/v2 50bb fixture: not the default, so a tool that hard-coded the rake would show. */
export const OTHER_RAKE: PackRake = { percent: 3.5, capBb: 1.25, noFlopNoDrop: true };

export async function writeFixturePacks(): Promise<FixturePacks> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-packs-"));
  const specs: Array<[GameId, number, Options]> = [
    ["nl/v2", 100, { seed: 1 }],
    ["nl/v2", 50, { seed: 2, neverTaken: { history: "UTG", token: "AI" }, rake: OTHER_RAKE }],
    ["nl", 100, { seed: 3, rake: "unrecorded" }],
    ["nlmtt8", 40, { seed: 4 }],
    ["nlmtt8", 20, { seed: 5, source: "import" }],
    ["plo", 100, { seed: 6, maxNodes: 12 }],
  ];
  const nodeCounts: Record<string, number> = {};
  for (const [game, stack, o] of specs) {
    const data = buildPack(game, stack, o);
    nodeCounts[`${game}@${stack}`] = data.nodes.length;
    await writePack(packPath(dir, game, stack), data);
  }
  return { dir, nodeCounts };
}
