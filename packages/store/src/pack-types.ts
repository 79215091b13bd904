/**
 * The in-memory shape of a pack: what the writer takes and the reader gives back. One pack holds one
 * (game, stack): a header (table facts, provenance) and the node table, where each action stores the
 * frequency of every hand class and, where scored, its EV in sb relative to fold.
 *
 * The solver produces `PackData` and calls `writePack`; the importer does the same from solver exports.
 */

import type { ClassSetId, GameId } from "@ranges/core";
import type { ActionKind, OpenSize, Unverified } from "@ranges/schema";

export const PACK_FORMAT = "preflop-ranges-pack";
/** Version the writer writes. Version 1 (EVs as f32) is still read. */
export const PACK_FORMAT_VERSION = 2;
/** Versions the reader reads. */
export const PACK_FORMAT_VERSIONS: readonly number[] = [1, 2];

/** Measured exploitability of one seat: what a best response gains over the seat's equilibrium value. */
export interface SeatExploitability {
  readonly seat: string;
  /** Milli-big-blinds per hand. */
  readonly mbbPerHand: number;
  /** Percent of the starting pot (blinds plus antes). */
  readonly pctPot: number;
}

export interface PackProvenance {
  readonly source: "solver" | "import";
  /** e.g. "CFR+ (alternating updates, linear averaging)"; null for imports that do not say. */
  readonly algorithm: string | null;
  readonly iterations: number | null;
  /** Per seat, from a best-response computation on the stored strategy; null when not measured. */
  readonly exploitability: readonly SeatExploitability[] | null;
  readonly seed: number | null;
  /** Postflop / terminal model, e.g. "hu-realization-v1: ..."; null for imports. */
  readonly model: string | null;
  readonly solveSeconds: number | null;
  /** ISO time the pack was produced (solver) or imported. */
  readonly createdAt: string;
  /** Tree config file the pack was solved from, relative to the repository root. */
  readonly treeConfig: string | null;
  /** Free-form facts worth showing (model parameters, caps). */
  readonly notes: readonly string[];
}

/**
 * Cash-game rake the pack was solved with: `percent` of the pot is taken from every pot that sees a flop
 * (all-in or not), at most `capBb` big blinds; none when the hand ends preflop (no flop, no drop). Example:
 * `{ "percent": 5, "capBb": 0.6, "noFlopNoDrop": true }` is 5% capped at 0.6bb.
 */
export interface PackRake {
  /** Percent of the pot, in [0, 100). */
  readonly percent: number;
  /** Most rake taken from one pot, in bb (>= 0). */
  readonly capBb: number;
  /** Always true: a pot won preflop pays no rake. */
  readonly noFlopNoDrop: true;
}

/** Table facts served by `/config` (nlmtt8) and by the MCP metadata tools. Unknowns are null and listed. */
export interface PackConfig {
  readonly seats: readonly string[] | null;
  readonly stacks: readonly number[] | null;
  readonly blinds: { readonly sb: number; readonly bb: number } | null;
  readonly ante: number | null;
  readonly antePostedBy: "BB" | "SB" | null;
  readonly stackIncludesAnte: boolean | null;
  /** Human-readable raise sizes of the tree, e.g. ["open 2.2x", "3B 7x IP / 9x OOP", "AI"]. */
  readonly treeSizes: readonly string[] | null;
  readonly openSizes: { readonly open: OpenSize; readonly sb: OpenSize; readonly note: string | null } | null;
  /**
   * The rake the strategies were solved with; null for no rake (tournament chips, or a custom spot without
   * one). Unknown is null too, and then `unverified` lists `rake`: packs written before the rake was recorded
   * lack the field and read as that (see `RAKE_NOT_RECORDED`), and imports cannot know it.
   */
  readonly rake: PackRake | null;
  readonly importedAt: string | null;
  readonly unverified: readonly Unverified[];
}

/**
 * How a bucketed pack stores its strategies (PLO): the data section holds `count` values per action, one
 * per bucket, and `map` gives each class of the class set its bucket; every class of a bucket plays the
 * bucket's strategy and has its EV. Readers expand to classes (`expandToClasses`). Absent: one value per
 * class.
 */
export interface PackBuckets {
  /** Number of buckets: values per action in the data section. */
  readonly count: number;
  /** The map's encoding: one little-endian u16 bucket per class, in class-set order, base64. */
  readonly encoding: "u16le-base64";
  readonly map: string;
  /** CRC-32 of the map's bytes (as the solver's `encodePloBucketMap` computes it). */
  readonly crc32: number;
  /** Name of each bucket (e.g. `ds.none.nut.1`). */
  readonly names: readonly string[];
  /** The member class nearest each bucket's centroid. */
  readonly representatives: readonly string[];
  /** How the buckets were made (abstraction parameters), free-form. */
  readonly abstraction: string;
}

export interface PackHeader {
  readonly format: typeof PACK_FORMAT;
  /** 2 for packs written now; 1 for older packs (read, never written). */
  readonly formatVersion: 1 | 2;
  readonly game: GameId;
  readonly stack: number;
  readonly classSet: ClassSetId;
  /** 169 for hold'em, 16,432 for PLO. */
  readonly classCount: number;
  /** "sb" when actions carry EVs; null (nl v1) when no EVs are stored. */
  readonly evUnit: "sb" | null;
  /** Present when the strategies are stored per bucket (PLO); see `PackBuckets`. */
  readonly buckets?: PackBuckets;
  readonly config: PackConfig;
  readonly provenance: PackProvenance;
}

export interface PackAction {
  /** Raise-size code (0 fold, 1 call, 3 all-in, 5 min-raise, 14 raise-to 1.5bb, 40000+pct). */
  readonly code: number;
  /** Token as written in paths: Fold, Call, Limp, AI, Open, 3B, 60%, Open-2. */
  readonly token: string;
  readonly kind: ActionKind;
  readonly sizeBb: number | null;
  readonly sizePctPot: number | null;
  readonly sizeReason?: string;
  /**
   * Frequency of the action for each class, in class-set order, values in [0,1]; for a bucketed pack
   * (`header.buckets`), for each bucket.
   */
  readonly freqs: Float32Array;
  /** EV in sb relative to fold for each class (bucket); NaN where unscored; null when the pack has no EVs. */
  readonly evs: Float32Array | null;
}

export interface PackNode {
  /** Action path ending in the seat to act (`UTG`, `UTG_Fold_HJ`). */
  readonly history: string;
  readonly actor: string;
  /** Betting depth 1..4 (raises made + 1, capped at 4). */
  readonly depth: 1 | 2 | 3 | 4;
  readonly actions: readonly PackAction[];
}

export interface PackData {
  readonly header: PackHeader;
  readonly nodes: readonly PackNode[];
}

/** Directory name of a game under `data/packs/`: `nl/v2` becomes `nl-v2`. */
export const gameDir = (game: GameId): string => game.replace("/", "-");
