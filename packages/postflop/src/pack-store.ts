/**
 * The postflop packs of a directory (`<dir>/<pack id>.pfpack`): opened by their headers, boards read on
 * first use, re-scanned when files are added, replaced or removed. Lookups of boards (suit-isomorphic boards
 * map onto the solved one), action paths and combos, with errors that say how to fix the request.
 */

import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Card, cardRank, cardSuit, parseCard, RangesError } from "@ranges/core";
import { COMBO_HIGH_CARD, COMBO_LOW_CARD, COMBO_OF_CARDS } from "@ranges/solver/hands";
import type { PackNodeInfo } from "./extract.js";
import { type BoardEntry, POSTFLOP_PACK_EXTENSION, PostflopPackFile } from "./pack.js";
import { comboName } from "./range.js";
import { OnDemandSubgames, type SubgameSolveOptions } from "./subgame.js";
import {
  boardDistance,
  canonicalBoard,
  formatBoard,
  parseBoard,
  permuteCard,
  suitMapping,
} from "./textures.js";

export interface PackStatus {
  readonly id: string;
  readonly file: string;
  readonly pack: PostflopPackFile | null;
  readonly error: string | null;
}

interface Entry {
  readonly file: string;
  readonly signature: string;
  readonly pack: PostflopPackFile | null;
  readonly error: string | null;
}

/** A pack id: lower-case letters, digits and hyphens. */
const PACK_ID = /^[a-z0-9][a-z0-9-]{0,79}$/;

/** Settings of the turn and river subgames solved on demand (see `OnDemandSubgames`). */
export type SubgameSettings = SubgameSolveOptions & {
  readonly cacheSize?: number;
  readonly idleMs?: number;
  readonly maxQueue?: number;
  /** Of those, how many one caller (`subgameCaller`) may hold (default a quarter of maxQueue). */
  readonly perCaller?: number;
};

export class PostflopPacks {
  readonly dir: string;
  private readonly refreshMs: number;
  private readonly subgameSettings: SubgameSettings;
  private entries = new Map<string, Entry>();
  private scannedAt = Number.NEGATIVE_INFINITY;
  private onDemand: OnDemandSubgames | null = null;

  private constructor(dir: string, refreshMs: number, subgames: SubgameSettings) {
    this.dir = dir;
    this.refreshMs = refreshMs;
    this.subgameSettings = subgames;
  }

  /** Opens every pack of `dir` by its header (a missing directory holds no packs). */
  static open(options: { dir: string; refreshMs?: number; subgames?: SubgameSettings }): PostflopPacks {
    const packs = new PostflopPacks(options.dir, options.refreshMs ?? 2000, options.subgames ?? {});
    packs.scan();
    return packs;
  }

  /** The solver of turn and river subgames for these packs (a worker thread started on first use). */
  get subgames(): OnDemandSubgames {
    this.onDemand ??= new OnDemandSubgames(this.subgameSettings);
    return this.onDemand;
  }

  /** Stops the subgame worker, if one runs. */
  close(): void {
    this.onDemand?.close();
  }

  private scan(): void {
    this.scannedAt = performance.now();
    let files: string[];
    try {
      files = readdirSync(this.dir).filter((f) => f.endsWith(POSTFLOP_PACK_EXTENSION));
    } catch {
      files = [];
    }
    const next = new Map<string, Entry>();
    const ids = files.map((f) => f.slice(0, -POSTFLOP_PACK_EXTENSION.length)).sort();
    for (const id of ids) {
      const file = `${id}${POSTFLOP_PACK_EXTENSION}`;
      if (!PACK_ID.test(id)) continue;
      const path = join(this.dir, file);
      let signature: string;
      try {
        const s = statSync(path);
        signature = `${s.size}:${s.mtimeMs}:${s.ino}`;
      } catch {
        continue;
      }
      const known = this.entries.get(id);
      if (known && known.signature === signature) {
        next.set(id, known);
        continue;
      }
      try {
        const pack = PostflopPackFile.open(path);
        if (pack.header.id !== id) throw new Error(`the header names pack "${pack.header.id}", not "${id}"`);
        next.set(id, { file, signature, pack, error: null });
      } catch (error) {
        next.set(id, {
          file,
          signature,
          pack: null,
          error: (error as Error).message.replace(`${path}: `, ""),
        });
      }
    }
    this.entries = next;
  }

  private fresh(): void {
    if (this.refreshMs > 0 && performance.now() - this.scannedAt >= this.refreshMs) this.scan();
  }

  /** Every pack file, readable or not, sorted by id. */
  list(): PackStatus[] {
    this.fresh();
    return [...this.entries.entries()].map(([id, e]) => ({ id, file: e.file, pack: e.pack, error: e.error }));
  }

  /** The ids of the readable packs. */
  ids(): string[] {
    return this.list()
      .filter((p) => p.pack)
      .map((p) => p.id);
  }

  /** A pack by id; 404 `not_found` naming the packs, 503 `pack_unavailable` for a file that cannot be read. */
  get(id: string): PostflopPackFile {
    this.fresh();
    const key = id.trim().toLowerCase();
    const entry = this.entries.get(key);
    if (!entry) {
      const ids = this.ids();
      throw new RangesError(
        "not_found",
        ids.length === 0
          ? `No postflop pack "${id}": no postflop pack is installed on this server (list_postflop_packs lists them).`
          : `No postflop pack "${id}". Packs: ${ids.join(", ")}.`,
        { packs: ids },
      );
    }
    if (!entry.pack) {
      throw new RangesError("pack_unavailable", `Postflop pack ${key} cannot be read: ${entry.error}`, {
        pack: key,
      });
    }
    return entry.pack;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Boards

export type BoardLookup =
  | {
      readonly kind: "solved";
      readonly entry: BoardEntry;
      /** The requested cards. */
      readonly cards: readonly Card[];
      /** `toSolved[s]`: the suit of the solved board that the request's suit s maps to. */
      readonly toSolved: readonly number[];
      readonly fromSolved: readonly number[];
      /** Whether the request is the solved board itself (same cards), not a suit-isomorphic one. */
      readonly identical: boolean;
    }
  | { readonly kind: "unsolved"; readonly cards: readonly Card[]; readonly nearest: readonly BoardEntry[] };

const STREET_CARDS = { flop: 3, turn: 4, river: 5 } as const;

/** Parses a board for a pack; 400 `invalid_parameter` when it is not one of the pack's street. */
export function parsePackBoard(pack: PostflopPackFile, text: string): Card[] {
  const cards = parseBoard(text);
  const want = STREET_CARDS[pack.header.street];
  if (!cards) {
    throw new RangesError(
      "invalid_parameter",
      `board "${text}" is not ${want} distinct cards like "${pack.header.boards[0]?.board ?? "QsJh2h"}" (ranks 2-9TJQKA, suits cdhs).`,
    );
  }
  if (cards.length !== want) {
    throw new RangesError(
      "invalid_parameter",
      `board "${text}" has ${cards.length} cards; pack ${pack.header.id} is solved from the ${pack.header.street} (${want} cards). Give the ${pack.header.street} and write later streets' cards into path.`,
    );
  }
  return cards;
}

/** The solved board a request maps to (directly or by a suit permutation), or the nearest solved boards. */
export function lookupBoard(pack: PostflopPackFile, text: string, nearestCount = 3): BoardLookup {
  const cards = parsePackBoard(pack, text);
  const canonical = canonicalBoard(cards);
  const entry = pack.header.boards.find(
    (b) => b.board === canonical || canonicalBoard(parseBoard(b.board)!) === canonical,
  );
  if (entry) {
    const solved = parseBoard(entry.board)!;
    const toSolved = suitMapping(cards, solved)!;
    const fromSolved = [0, 1, 2, 3];
    toSolved.forEach((t, s) => {
      fromSolved[t] = s;
    });
    const identical = formatBoard(cards) === formatBoard(solved);
    return { kind: "solved", entry, cards, toSolved, fromSolved, identical };
  }
  const nearest = [...pack.header.boards]
    .map((b) => ({ b, d: boardDistance(cards, parseBoard(b.board)!) }))
    .sort((x, y) => x.d - y.d || (x.b.board < y.b.board ? -1 : 1))
    .slice(0, nearestCount)
    .map((x) => x.b);
  return { kind: "unsolved", cards, nearest };
}

/** Combo number of two cards. */
export const comboOf = (a: Card, b: Card): number => COMBO_OF_CARDS[a * 52 + b]!;

/** A combo's name after a suit permutation (`perm[s]` = the new suit of s). */
export function permutedComboName(combo: number, perm: readonly number[]): string {
  return comboName(
    comboOf(permuteCard(COMBO_HIGH_CARD[combo]!, perm), permuteCard(COMBO_LOW_CARD[combo]!, perm)),
  );
}

/** Parses a combo (`AhKh`, `Kh Ah`); 400 `invalid_hand` when it is not two cards or touches the board. */
export function parseCombo(text: string, board: readonly Card[]): [Card, Card] {
  const t = text.replace(/\s+/g, "");
  const a = t.length === 4 ? parseCard(t.slice(0, 2)) : null;
  const b = t.length === 4 ? parseCard(t.slice(2, 4)) : null;
  if (a === null || b === null || a === b) {
    throw new RangesError(
      "invalid_hand",
      `combo "${text}" is not two distinct cards like "AhKh" (a postflop combo names its suits; hand classes like AKs are for preflop tools).`,
    );
  }
  const clash = [a, b].filter((c) => board.includes(c));
  if (clash.length > 0) {
    throw new RangesError(
      "invalid_hand",
      `combo "${text}" uses a card of the board (${formatBoard(clash)}).`,
    );
  }
  return a < b ? [b, a] : [a, b];
}

// ---------------------------------------------------------------------------------------------------------
// Paths

export type PathLookup =
  /** The path reaches a stored decision. */
  | { readonly kind: "node"; readonly node: number }
  /** The path's last step is an action at `node` that ends the street's decisions (or any action when `asAction`). */
  | { readonly kind: "action"; readonly node: number; readonly action: number }
  /** The path goes on after the street ends (a turn or river card or action): not stored. */
  | {
      readonly kind: "beyond";
      readonly node: number;
      readonly action: number;
      readonly rest: readonly string[];
    };

const ALIASES: Record<string, string> = {
  x: "check",
  c: "call",
  f: "fold",
  "all-in": "allin",
  ai: "allin",
  b: "bet",
  r: "raise",
};

/** Splits a path given as one string: steps separated by commas, `>`, `/` or `_`. */
export function splitPath(path: string | readonly string[]): string[] {
  const steps = typeof path === "string" ? (path.trim() === "" ? [] : path.split(/[,>/_]/)) : [...path];
  return steps.map((raw, i) => {
    const s = String(raw).trim().toLowerCase().replace(/\s+/g, " ");
    if (s === "") {
      throw new RangesError(
        "invalid_parameter",
        `path step ${i + 1} is empty; write the actions in order, e.g. ["check", "bet"] ([] is the root).`,
      );
    }
    return s;
  });
}

function matchAction(node: PackNodeInfo, step: string): number {
  const s = ALIASES[step] ?? step;
  const exact = node.actions.findIndex((a) => a.label === s);
  if (exact >= 0) return exact;
  const byKind = node.actions.map((a, i) => (a.kind === s ? i : -1)).filter((i) => i >= 0);
  if (byKind.length === 1) return byKind[0]!;
  // "bet 75%": the action whose size is that share of the pot.
  const pct = /^(bet|raise|allin) (\d+(?:\.\d+)?)%$/.exec(s);
  if (pct) {
    const hit = node.actions.findIndex(
      (a) => a.kind === pct[1] && Math.round(a.potFraction * 100) === Math.round(Number(pct[2])),
    );
    if (hit >= 0) return hit;
  }
  return -1;
}

/**
 * Follows a path of action labels through a pack's node table. `asAction`: a final step that leads to another
 * stored decision is still read as an action (range of that action). 404 `action_not_available` with the
 * valid prefix and actions when a step is not an action there; 400 when a step follows a fold.
 */
export function lookupPath(pack: PostflopPackFile, steps: readonly string[], asAction = false): PathLookup {
  return lookupNodes(pack.header.nodes, steps, asAction);
}

/**
 * `lookupPath` over any node table of one street (a pack's, or an on-demand subgame's): `before` is the path
 * that leads to the table's root (earlier streets' actions and cards), used in step numbers and prefixes.
 */
export function lookupNodes(
  nodes: readonly PackNodeInfo[],
  steps: readonly string[],
  asAction = false,
  before: readonly string[] = [],
): PathLookup {
  const index = new Map(nodes.map((n, i) => [n.path.join("\u0000"), i]));
  const at = (path: readonly string[]) => [...before, ...path];
  let current = 0;
  for (let i = 0; i < steps.length; i++) {
    const node = nodes[current]!;
    const a = matchAction(node, steps[i]!);
    if (a < 0) {
      const where = at(node.path);
      throw new RangesError(
        "action_not_available",
        `path step ${before.length + i + 1} "${steps[i]}" is not an action at ${where.length === 0 ? "the root" : `[${where.join(", ")}]`} (${node.player.toUpperCase()} to act); the actions there are ${node.actions.map((x) => `"${x.label}"`).join(", ")}.`,
        { validPrefix: where.join(","), validActions: node.actions.map((x) => x.label) },
      );
    }
    const childPath = [...node.path, node.actions[a]!.label].join("\u0000");
    const child = index.get(childPath);
    const last = i === steps.length - 1;
    if (child !== undefined && !(last && asAction)) {
      current = child;
      continue;
    }
    if (last) return { kind: "action", node: current, action: a };
    if (node.actions[a]!.kind === "fold") {
      throw new RangesError(
        "invalid_parameter",
        `path step ${before.length + i + 2} "${steps[i + 1]}" follows a fold: the hand is over after "${node.actions[a]!.label}".`,
        { validPrefix: at([...node.path, node.actions[a]!.label]).join(",") },
      );
    }
    return { kind: "beyond", node: current, action: a, rest: steps.slice(i + 1) };
  }
  return { kind: "node", node: current };
}

/** Rank of a card, for categories (0 deuce .. 12 ace). */
export const rankOf = cardRank;
export const suitOf = cardSuit;
