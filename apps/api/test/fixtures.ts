/**
 * Small, consistent synthetic packs for the API tests. Each tree lists its nodes in order; every raise-to is
 * computed by replaying the history through core's PotState, so sizes are real arithmetic (nlmtt8 40bb:
 * the UTG open 40034 is 2.19bb). Frequencies are deterministic pseudo-random mixes summing to 1 per class;
 * EVs (sb, fold = 0) leave every 7th class unscored.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import {
  GAMES,
  type GameId,
  HOLDEM_CLASS_COUNT,
  PLO_CLASS_COUNT,
  type PotSetup,
  PotState,
  pctCode,
} from "@ranges/core";
import type { PackAction, PackConfig, PackData, PackNode } from "@ranges/store";
import { packPath, potSetupFor, writePack } from "@ranges/store";

interface ActionSpec {
  token: string;
  code: number;
}
interface NodeSpec {
  history: string;
  actions: ActionSpec[];
}

const FOLD = { token: "Fold", code: 0 };
const CALL = { token: "Call", code: 1 };
const AI = { token: "AI", code: 3 };
const pct = (p: number, token = `${p}%`) => ({ token, code: pctCode(p) });

/** nl and nl/v2 (6-max cash, percent tokens). */
export const CASH_TREE: NodeSpec[] = [
  { history: "UTG", actions: [FOLD, pct(60), AI] },
  { history: "UTG_Fold_HJ", actions: [FOLD, pct(60), AI] },
  { history: "UTG_Fold_HJ_Fold_CO", actions: [FOLD, pct(60), pct(100), AI] },
  { history: "UTG_60%_HJ", actions: [FOLD, CALL, pct(100), AI] },
  { history: "UTG_60%_HJ_Fold_CO", actions: [FOLD, CALL, AI] },
];

/** nlmtt8 (8-max, depth tokens, BB ante). */
export const MTT_TREE: NodeSpec[] = [
  { history: "UTG", actions: [FOLD, { token: "Open", code: pctCode(34) }, AI] },
  { history: "UTG_Fold_UTG1", actions: [FOLD, { token: "Open", code: pctCode(34) }, AI] },
  { history: "UTG_Open_UTG1", actions: [FOLD, CALL, { token: "3B", code: pctCode(90) }, AI] },
  { history: "UTG_Open_UTG1_3B_LJ", actions: [FOLD, CALL, AI] },
];

/** plo (6-max, depth tokens, 16,432 classes). */
export const PLO_TREE: NodeSpec[] = [
  { history: "UTG", actions: [FOLD, { token: "Open", code: pctCode(100) }] },
  { history: "UTG_Fold_HJ", actions: [FOLD, { token: "Open", code: pctCode(100) }, AI] },
];

function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x1_0000_0000;
  };
}

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Replays `history` (node path) through PotState using the codes the tree gives each token. */
function replay(setup: PotSetup, tree: NodeSpec[], history: string): PotState {
  const pot = new PotState(setup);
  const parts = history.split("_");
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const prefix = parts.slice(0, i + 1).join("_");
    const node = tree.find((n) => n.history === prefix);
    const action = node?.actions.find((a) => a.token === parts[i + 1]);
    if (!action)
      throw new Error(`fixture: ${history} passes through ${prefix} ${parts[i + 1]}, not in the tree`);
    pot.apply(parts[i]!, action.code);
  }
  return pot;
}

function depthOf(history: string): 1 | 2 | 3 | 4 {
  const raises = history
    .split("_")
    .filter((t, i) => i % 2 === 1 && t !== "Fold" && t !== "Call" && t !== "Limp");
  return Math.min(4, raises.length + 1) as 1 | 2 | 3 | 4;
}

function buildNode(
  game: GameId,
  stack: number,
  tree: NodeSpec[],
  spec: NodeSpec,
  withEvs: boolean,
): PackNode {
  const info = GAMES[game];
  const n = info.classSet === "plo16432" ? PLO_CLASS_COUNT : HOLDEM_CLASS_COUNT;
  const parts = spec.history.split("_");
  const actor = parts[parts.length - 1]!;
  const pot = replay(potSetupFor(game, stack), tree, spec.history);
  const rand = lcg(hashString(`${game}|${stack}|${spec.history}`));
  const k = spec.actions.length;
  const freqs = spec.actions.map(() => new Float32Array(n));
  for (let c = 0; c < n; c++) {
    // Some classes are pure (one action at 1), the rest a normalized mix with exact zeros sprinkled in.
    const raw = spec.actions.map(() => (rand() < 0.25 ? 0 : rand()));
    if (c % 5 === 0) raw.fill(0);
    const sum = raw.reduce((a, b) => a + b, 0);
    if (sum === 0) raw[c % k] = 1;
    const total = sum === 0 ? 1 : sum;
    for (let a = 0; a < k; a++) freqs[a]![c] = Math.round((raw[a]! / total) * 10000) / 10000;
  }
  const actions: PackAction[] = spec.actions.map((a, ai) => {
    const d = pot.decode(actor, a.code);
    let evs: Float32Array | null = null;
    if (withEvs) {
      evs = new Float32Array(n);
      for (let c = 0; c < n; c++) {
        evs[c] = c % 7 === 3 ? Number.NaN : a.code === 0 ? 0 : Math.round((rand() * 6 - 2) * 1000) / 1000;
      }
    }
    return {
      code: a.code,
      token: a.token,
      kind: d.kind,
      sizeBb: d.sizeBb,
      sizePctPot: d.sizePctPot,
      ...(d.sizeReason === undefined ? {} : { sizeReason: d.sizeReason }),
      freqs: freqs[ai]!,
      evs,
    };
  });
  return { history: spec.history, actor, depth: depthOf(spec.history), actions };
}

function configFor(game: GameId, stack: number): PackConfig {
  const info = GAMES[game];
  if (game === "nlmtt8") {
    const setup = potSetupFor(game, stack);
    const open = new PotState(setup).decode("UTG", pctCode(34)).sizeBb;
    const sbOpen = new PotState(setup).decode("SB", pctCode(60)).sizeBb;
    return {
      seats: info.seats,
      stacks: info.seats.map(() => stack),
      blinds: { sb: 0.5, bb: 1 },
      ante: 1,
      antePostedBy: "BB",
      stackIncludesAnte: true,
      treeSizes: ["Open 34% pot", "3B 90% pot", "AI"],
      openSizes: { open: { label: "2.2x", sizeBb: open }, sb: { label: "2.8x", sizeBb: sbOpen }, note: null },
      rake: null,
      importedAt: null,
      unverified: [{ field: "importedAt", reason: "synthetic test pack" }],
    };
  }
  return {
    seats: info.seats,
    stacks: info.seats.map(() => stack),
    blinds: { sb: 0.5, bb: 1 },
    ante: null,
    antePostedBy: null,
    stackIncludesAnte: null,
    treeSizes: null,
    openSizes: null,
    rake: { percent: 5, capBb: 0.6, noFlopNoDrop: true },
    importedAt: null,
    unverified: [
      { field: "ante", reason: "synthetic test pack" },
      { field: "antePostedBy", reason: "synthetic test pack" },
      { field: "stackIncludesAnte", reason: "synthetic test pack" },
      { field: "treeSizes", reason: "synthetic test pack" },
      { field: "openSizes", reason: "synthetic test pack" },
      { field: "importedAt", reason: "synthetic test pack" },
    ],
  };
}

const TREES: Partial<Record<GameId, NodeSpec[]>> = {
  nl: CASH_TREE,
  "nl/v2": CASH_TREE,
  nlmtt8: MTT_TREE,
  plo: PLO_TREE,
};

export function buildPack(game: GameId, stack: number): PackData {
  const info = GAMES[game];
  const tree = TREES[game];
  if (!tree) throw new Error(`fixture: no tree for ${game}`);
  return {
    header: {
      format: "preflop-ranges-pack",
      formatVersion: 1,
      game,
      stack,
      classSet: info.classSet,
      classCount: info.classSet === "plo16432" ? PLO_CLASS_COUNT : HOLDEM_CLASS_COUNT,
      evUnit: info.hasEvs ? "sb" : null,
      config: configFor(game, stack),
      provenance: {
        source: "solver",
        algorithm: "synthetic fixture",
        iterations: 0,
        exploitability: null,
        seed: 1,
        model: null,
        solveSeconds: null,
        createdAt: "2026-01-01T00:00:00.000Z",
        treeConfig: null,
        notes: ["test fixture"],
      },
    },
    nodes: tree.map((spec) => buildNode(game, stack, tree, spec, info.hasEvs)),
  };
}

/** The packs every API test runs on; nlmtt8 20 is written and then corrupted. */
export const FIXTURE_PACKS: ReadonlyArray<readonly [GameId, number]> = [
  ["nl", 100],
  ["nl", 200],
  ["nl/v2", 100],
  ["nlmtt8", 40],
  ["nlmtt8", 10],
  ["plo", 100],
];
export const CORRUPT_PACK = ["nlmtt8", 20] as const;
/** A file that is not a pack at all, where nlmtt8 30 would be. */
export const GARBAGE_PACK = ["nlmtt8", 30] as const;

/** Writes the fixture packs; with `broken` (default) also a corrupt and a garbage pack beside them. */
export async function writeFixturePacks(packsDir: string, broken = true): Promise<void> {
  for (const [game, stack] of broken ? [...FIXTURE_PACKS, CORRUPT_PACK] : FIXTURE_PACKS) {
    const file = packPath(packsDir, game, stack);
    mkdirSync(dirname(file), { recursive: true });
    await writePack(file, buildPack(game, stack));
  }
  if (!broken) return;
  // Flip bytes in the middle of the corrupt pack's data: its checksum no longer matches.
  const file = packPath(packsDir, CORRUPT_PACK[0], CORRUPT_PACK[1]);
  const bytes = readFileSync(file);
  for (let i = bytes.length - 200; i < bytes.length - 100; i++) bytes[i] = bytes[i]! ^ 0xff;
  writeFileSync(file, bytes);
  writeFileSync(packPath(packsDir, GARBAGE_PACK[0], GARBAGE_PACK[1]), "this is not a pack\n");
}
