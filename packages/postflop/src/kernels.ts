/**
 * The engine's hot per-hand loops as WebAssembly SIMD kernels (src/kernels.wat, compiled at build time into
 * src/kernels-wasm.ts), and the memory they work on.
 *
 * Each storage chunk (see `PostflopGame`: a unit's regrets and strategy sums all lie in one chunk) is one
 * shared WebAssembly.Memory laid out as
 *
 *   [ regrets: float32 x floats | strategy sums: float32 x floats | tables | thread 0's working vectors | ... ]
 *
 * so that a kernel reaches a unit's storage, the game's hand tables (showdown orders, cards; `HandTables`,
 * written once when the memory is allocated) and the thread's working vectors (float32, the engine's stack)
 * in one memory. JavaScript sees the same bytes through typed-array views (`ChunkMemory`), which is how the
 * loops that stay in JavaScript (showdowns, folds, chance nodes) and the rest of the package (queries,
 * extraction) read them. The memories are shared (SharedArrayBuffer-backed) so that worker threads can
 * run units on them; every thread instantiates the kernels on every chunk.
 */

import type { PostflopGame } from "./game.js";
import { KERNELS_WASM } from "./kernels-wasm.js";

/** The kernels' exports: every vector argument is a byte address in the chunk's memory (see kernels.wat). */
export interface Kernels {
  regretMatch(R: number, A: number, n: number, strat: number): void;
  averageStrategy(C: number, A: number, n: number, strat: number): void;
  mul(dst: number, x: number, y: number, n: number): void;
  add(dst: number, x: number, n: number): void;
  /** dst[h] = x[h] for n float32 entries (memory.copy; the ranges may overlap). */
  copy(dst: number, x: number, n: number): void;
  /** n float32 entries (4 bytes each) from dst set to 0 (memory.fill). */
  zero(dst: number, n: number): void;
  weightedSum(out: number, strat: number, vals: number, A: number, n: number): void;
  bestValue(out: number, vals: number, A: number, n: number): void;
  cfrUpdate(
    R: number,
    C: number,
    A: number,
    n: number,
    strat: number,
    vals: number,
    out: number,
    own: number,
    pos: number,
    neg: number,
    gam: number,
  ): void;
  fold(
    opp: number,
    no: number,
    oCards: number,
    out: number,
    nt: number,
    tCards: number,
    same: number,
    pay: number,
    sums: number,
  ): void;
  showdown(
    oKey: number,
    lo: number,
    tKey: number,
    lt: number,
    opp: number,
    out: number,
    tmp: number,
    tot: number,
    nt: number,
    A: number,
    B: number,
    sums: number,
  ): void;
  scale(dst: number, x: number, c: number, n: number): void;
  addTo64(acc: number, x: number, n: number): void;
  storeScaled64(dst: number, acc: number, c: number, n: number): void;
  showdown2(
    oKey: number,
    lo: number,
    tKey: number,
    lt: number,
    oppA: number,
    oppB: number,
    outA: number,
    outB: number,
    tmp: number,
    totA: number,
    totB: number,
    nt: number,
    A0: number,
    A1: number,
    B0: number,
    B1: number,
    sums: number,
  ): void;
  regretInverse(R: number, A: number, n: number, inv: number): void;
  sumInverse(C: number, A: number, n: number, inv: number): void;
  childReach(
    S: number,
    positive: number,
    uniform: number,
    n: number,
    inv: number,
    reach: number,
    dst: number,
  ): number;
}

let compiled: WebAssembly.Module | undefined;

/** The kernels that read regrets or strategy sums, each with a 16-bit twin (`<name>16` in kernels.wat). */
const STORAGE_KERNELS = [
  "regretMatch",
  "averageStrategy",
  "cfrUpdate",
  "regretInverse",
  "sumInverse",
  "childReach",
] as const;

/**
 * The kernels instantiated on `memory`, for storage of `entryBytes` bytes an entry: 4 (float32) or 2 (16-bit:
 * int16 regrets and uint16 strategy sums with a float32 scale before each decision's entries; see
 * `GameOptions.compressed`), where the kernels that read storage are their 16-bit twins.
 */
export function instantiateKernels(memory: WebAssembly.Memory, entryBytes: 2 | 4 = 4): Kernels {
  compiled ??= new WebAssembly.Module(Buffer.from(KERNELS_WASM, "base64"));
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  const exports = instance.exports as Record<string, unknown>;
  if (entryBytes === 4) return exports as unknown as Kernels;
  const twins: Record<string, unknown> = { ...exports };
  for (const name of STORAGE_KERNELS) twins[name] = exports[`${name}16`];
  return twins as unknown as Kernels;
}

const PAGE = 65536;
/** The most a 32-bit WebAssembly memory holds: 65,536 pages, 4 GiB. */
const MAX_PAGES = 65536;
/** Bytes after each region that a kernel may read (not write) past a vector's end: a step of four float32. */
const PAD = 16;

const align16 = (bytes: number) => Math.ceil(bytes / 16) * 16;

/**
 * The first byte offset at or after `bytes` that lies half a 4 KiB page past a page boundary. The strategy sums
 * start there, so a decision's regrets and its strategy sums (at the same float offset in each array) lie 2 KiB
 * apart modulo 4 KiB: `cfrUpdate` stores to one array and loads from the other in the same step, and when the two
 * addresses agree in their low 12 bits the loads wait on the stores (measured: 2 to 4 times slower kernel).
 */
const halfPageAfter = (bytes: number) => bytes + ((2048 - (bytes % 4096) + 4096) % 4096);

/**
 * Byte offsets (from the tables' start) of the game's tables the fold and showdown kernels read, per player:
 * `sdEntry`, the hands sorted by strength on every final board (as `PostflopGame.sdKey`: board b's at
 * `8 * b * n[p]`), 8 bytes each, an int32 `hand | card1 << 11 | card2 << 17` then the int32 key
 * `strength << 11 | (same + 1)`; `handCards` (int32 packed cards, `PostflopGame.handCards`) and `same` (the
 * same combo's index among the other player's hands or -1, `PostflopGame.same`).
 */
export interface HandTables {
  readonly sdEntry: readonly [number, number];
  readonly handCards: readonly [number, number];
  readonly same: readonly [number, number];
  readonly bytes: number;
}

/** Where `writeTables` puts `game`'s tables. */
export function handTables(game: PostflopGame): HandTables {
  let at = 0;
  const place = (ints: number) => {
    const offset = at;
    at = align16(at + ints * 4 + PAD);
    return offset;
  };
  const sdEntry = [place(2 * game.sdKey[0].length), place(2 * game.sdKey[1].length)] as const;
  const handCards = [place(game.n[0]), place(game.n[1])] as const;
  const same = [place(game.n[0]), place(game.n[1])] as const;
  return { sdEntry, handCards, same, bytes: at };
}

/** Writes `game`'s tables at byte `base` of `memory`. */
export function writeTables(memory: WebAssembly.Memory, base: number, game: PostflopGame): void {
  const tables = handTables(game);
  const view = (offset: number, length: number) => new Int32Array(memory.buffer, base + offset, length);
  for (const p of [0, 1] as const) {
    const n = game.n[p];
    const keys = game.sdKey[p];
    const cards = game.handCards[p];
    const same = game.same[p];
    const entries = view(tables.sdEntry[p], 2 * keys.length);
    for (let b = 0; b < game.boardCount; b++) {
      for (let k = 0; k < game.sdLength[p][b]!; k++) {
        const key = keys[b * n + k]!;
        const hand = key & 2047;
        entries[2 * (b * n + k)] = hand | (cards[hand]! << 11);
        entries[2 * (b * n + k) + 1] = (key & ~2047) | (same[hand]! + 1);
      }
    }
    view(tables.handCards[p], n).set(cards);
    view(tables.same[p], n).set(same);
  }
}

/** Byte layout of one chunk's memory. */
export interface ChunkLayout {
  /** Entries of regrets (and as many of strategy sums). */
  readonly floats: number;
  /** Bytes of an entry: 4 (float32) or 2 (int16 regrets, uint16 strategy sums). */
  readonly entryBytes: 2 | 4;
  /** Byte offset of the strategy sums (the regrets are at 0). */
  readonly cumByte: number;
  /** Byte offset of the hand tables (`HandTables`). */
  readonly tableByte: number;
  /** Byte offset of thread 0's working vectors; thread t's at `scratchByte + t * scratchBytes`. */
  readonly scratchByte: number;
  readonly scratchBytes: number;
  /** Float32 entries of one thread's working vectors (the per-card sums at their end included). */
  readonly scratchFloats: number;
  readonly pages: number;
}

/**
 * The layout of a chunk of `floats` entries of `entryBytes` bytes with `tableBytes` of tables, for `threads`
 * threads with `scratchFloats` of working vectors each.
 */
export function chunkLayout(
  floats: number,
  tableBytes: number,
  scratchFloats: number,
  threads: number,
  entryBytes: 2 | 4 = 4,
): ChunkLayout {
  const cumByte = halfPageAfter(floats * entryBytes + PAD);
  const tableByte = align16(cumByte + floats * entryBytes + PAD);
  const scratchByte = align16(tableByte + tableBytes);
  const scratchBytes = align16(scratchFloats * 4 + PAD);
  const bytes = scratchByte + threads * scratchBytes;
  const pages = Math.max(1, Math.ceil(bytes / PAGE));
  if (pages > MAX_PAGES) {
    throw new Error(
      `a storage chunk of ${floats} entries needs ${bytes} bytes, more than a WebAssembly memory's 4 GiB (use smaller chunks)`,
    );
  }
  return { floats, entryBytes, cumByte, tableByte, scratchByte, scratchBytes, scratchFloats, pages };
}

/** Regrets as stored: float32, or int16 (16-bit storage). */
export type RegretStorage = Float32Array | Int16Array;
/** Strategy sums as stored: float32, or uint16 (16-bit storage). */
export type SumStorage = Float32Array | Uint16Array;

/** A chunk's memory, its layout, and typed-array views of its regions for one thread. */
export interface ChunkMemory {
  readonly memory: WebAssembly.Memory;
  readonly layout: ChunkLayout;
  readonly regret: RegretStorage;
  readonly cum: SumStorage;
}

/** A new (zeroed, shared) memory for a chunk. */
export function allocateChunk(layout: ChunkLayout): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: layout.pages, maximum: layout.pages, shared: true });
}

/** Views of a chunk's regrets and strategy sums. */
export function chunkViews(memory: WebAssembly.Memory, layout: ChunkLayout): ChunkMemory {
  const buffer = memory.buffer;
  const floats = Math.max(layout.floats, 1);
  if (layout.entryBytes === 2) {
    return {
      memory,
      layout,
      regret: new Int16Array(buffer, 0, floats),
      cum: new Uint16Array(buffer, layout.cumByte, floats),
    };
  }
  return {
    memory,
    layout,
    regret: new Float32Array(buffer, 0, floats),
    cum: new Float32Array(buffer, layout.cumByte, floats),
  };
}

/**
 * Float32 entries of the per-card sums at the end of a thread's working vectors (see `scratchFloats`): 104
 * float64 (52 cards, two lanes), the fold and showdown kernels' scratch.
 */
export const SUMS = 208;

/**
 * Float32 entries of one thread's working vectors: the engine's stack (rounded up to four entries, so that the
 * sums that follow are 16-byte aligned), then `SUMS` entries of per-card sums.
 */
export const scratchFloats = (game: PostflopGame): number =>
  Math.ceil((game.scratchFloats + 8) / 4) * 4 + SUMS;
