/**
 * A postflop spot ready to solve: the betting tree compiled to flat arrays, each player's hands, the cards
 * that can be dealt (with suit isomorphism), the hand strengths on every final board, and the storage layout.
 *
 * Hands: each player's hands are the combos of its range that do not touch the starting board, in combo
 * order; vectors over a player's hands have one entry per hand (OOP `n[0]`, IP `n[1]`).
 *
 * Work split: the part of the tree on the first street (the top) is solved on the calling thread; below
 * every card deal of the top, each dealt card's subtree is a unit, solved by any thread. A unit's storage
 * (regrets and strategy sums, one float per action and hand at each of its decisions) is its own block.
 *
 * Suit isomorphism: two suits with the same ranks on the board (both absent from it, for instance) are
 * interchangeable when both ranges are too; of the cards that differ only in such suits one is dealt and
 * solved, and the values of the others are its values with the two suits swapped in every hand. Deals below
 * (the river after a turn) are reduced the same way against the board with the first card.
 */

import {
  COMBO_HIGH_CARD,
  COMBO_LOW_CARD,
  COMBO_OF_CARDS,
  evaluateWith2,
  partialHand,
} from "@ranges/solver/hands";
import type { ResolvedConfig } from "./config.js";
import { ActionTree, CHANCE, DECISION, FOLD, SHOWDOWN, type TreeNode } from "./tree.js";

/** One dealt card and the cards solved through it (the same rank in interchangeable suits). */
export interface Deal {
  readonly card: number;
  /** Cards that take this card's values with the hands' suits swapped; `perm[p]` maps hands of player p. */
  readonly mirrors: readonly { readonly card: number; readonly perm: readonly [Int32Array, Int32Array] }[];
}

export interface Unit {
  readonly index: number;
  /** The top chance node (tree node id) the unit hangs from. */
  readonly leaf: number;
  /** Position of the leaf among the top chance nodes. */
  readonly leafIndex: number;
  readonly deal: Deal;
  /** River deals inside the unit (empty when the unit's street is the river). */
  readonly next: readonly Deal[];
  /** Storage: chunk and offset (floats). */
  chunk: number;
  base: number;
  readonly size: number;
  /** Estimated work per iteration (arbitrary units), for ordering. */
  readonly cost: number;
}

export interface GameOptions {
  /** Solve suit-isomorphic cards once (default true). */
  readonly isomorphism?: boolean;
  /**
   * Entries per storage chunk (default: as many as fit 3.75 GiB of regrets and strategy sums, 503,316,480
   * float32 entries or twice as many 16-bit ones, leaving a WebAssembly memory's last 256 MiB of its 4 GiB for
   * the hand tables and the threads' working vectors). Each chunk holds its own copy of the hand tables
   * (7 MiB on a flop), so fewer chunks take less memory.
   */
  readonly chunkFloats?: number;
  /**
   * 16-bit storage (default false): the units' regrets as int16 and strategy sums as uint16, each decision's
   * entries scaled by its largest magnitude (a float32 scale in the two entries before them; see
   * src/kernels.wat), half the memory of float32 storage and half the bytes each iteration moves. Every
   * decision's storage then starts two entries after its block offset and takes an even count of entries.
   */
  readonly compressed?: boolean;
  /**
   * The showdown orders (`sdKey`, `sdLength`) of a game built from the same config: taken instead of
   * evaluating every hand on every final board. A worker thread gets its caller's, so it never loads the
   * evaluator's tables (16 MB per thread).
   */
  readonly showdowns?: Showdowns;
}

/** A game's hands sorted by strength on every final board (see `PostflopGame.sdKey`). */
export interface Showdowns {
  readonly sdKey: readonly [Int32Array, Int32Array];
  readonly sdLength: readonly [Int32Array, Int32Array];
}

const SUITS = 4;

/** Suit transposition (a, b) applied to a card. */
const swapSuit = (card: number, a: number, b: number): number => {
  const s = card & 3;
  return s === a ? (card & ~3) | b : s === b ? (card & ~3) | a : card;
};

export class PostflopGame {
  readonly config: ResolvedConfig;
  readonly tree: ActionTree;
  readonly board: readonly number[];
  readonly startStreet: number;
  readonly isomorphism: boolean;
  /** Bytes of a storage entry in the units: 4 (float32) or 2 (`GameOptions.compressed`). */
  readonly entryBytes: 2 | 4;

  // Hands
  readonly n: readonly [number, number];
  readonly combos: readonly [Int32Array, Int32Array];
  readonly card1: readonly [Uint8Array, Uint8Array];
  readonly card2: readonly [Uint8Array, Uint8Array];
  readonly weights: readonly [Float64Array, Float64Array];
  /** Index of the same combo in the other player's hands, or -1. */
  readonly same: readonly [Int32Array, Int32Array];
  /** Hands of player p holding card c: `withCard[p].subarray(cardStart[p][c], cardStart[p][c + 1])`. */
  readonly withCard: readonly [Int32Array, Int32Array];
  readonly cardStart: readonly [Int32Array, Int32Array];

  // Compiled tree
  readonly nodeCount: number;
  readonly kind: Uint8Array;
  readonly player: Int8Array;
  readonly street: Uint8Array;
  readonly numChildren: Uint8Array;
  readonly firstChild: Int32Array;
  readonly children: Int32Array;
  /** Decisions: offset of the node's storage inside its street block. */
  readonly localOffset: Int32Array;
  /** Block roots (first node of a street's subtree): storage of the block's own decisions. */
  readonly blockSize: Float64Array;
  /** Chance nodes below the top: offset of their deal blocks in units of "one instance per chance node". */
  readonly chancePrefix: Float64Array;
  /** Total of one instance of every river block below a turn block root. */
  readonly nextBlocks: Float64Array;
  /** Fold: payoff of the folder and of the winner; showdown: A (half the raked pot) and B (A minus the chips in). */
  readonly payA: Float64Array;
  readonly payB: Float64Array;
  /** Every node: chips in per player (for EVs). */
  readonly contrib0: Float64Array;
  readonly contrib1: Float64Array;

  // Top and units
  /** Top nodes in pre-order (decisions, terminals and chance leaves of the first street). */
  readonly topNodes: Int32Array;
  /** Top chance nodes, in pre-order. */
  readonly leaves: Int32Array;
  readonly firstDeals: readonly Deal[];
  readonly units: readonly Unit[];
  /** Storage of the top's decisions (floats). */
  readonly topSize: number;
  /** Storage chunk sizes (floats). */
  readonly chunkSizes: readonly number[];
  /** 1 / cards left at each deal, by the street dealt (1 turn, 2 river). */
  readonly chanceFactor: readonly number[];

  // Showdowns
  /** Final boards: for a flop spot indexed by the pair of dealt cards, turn spot by the river card. */
  readonly boardCount: number;
  /**
   * Per player: the hands not touching each final board sorted by strength (`board * n[p]` on), each as
   * `strength << 11 | hand` (strength: the evaluator's value, below 2^16; hands below 2^11).
   */
  readonly sdKey: readonly [Int32Array, Int32Array];
  readonly sdLength: readonly [Int32Array, Int32Array];
  /** Per player and hand: its two cards packed, `card1 | card2 << 6`. */
  readonly handCards: readonly [Int32Array, Int32Array];
  /** Scratch bound: floats of working vectors one traversal needs. */
  readonly scratchFloats: number;

  constructor(config: ResolvedConfig, options: GameOptions = {}) {
    this.config = config;
    this.tree = new ActionTree(config);
    this.board = config.board;
    this.startStreet = this.board.length - 3;
    const onBoard = (card: number) => this.board.includes(card);

    // ---- Hands
    const handLists = [0, 1].map((p) => {
      const list: number[] = [];
      const w = config.ranges[p]!;
      for (let combo = 0; combo < 1326; combo++) {
        if (w[combo]! > 0 && !onBoard(COMBO_LOW_CARD[combo]!) && !onBoard(COMBO_HIGH_CARD[combo]!))
          list.push(combo);
      }
      return Int32Array.from(list);
    }) as [Int32Array, Int32Array];
    this.combos = handLists;
    this.n = [handLists[0].length, handLists[1].length];
    this.card1 = handLists.map((l) => Uint8Array.from(l, (c) => COMBO_LOW_CARD[c]!)) as [
      Uint8Array,
      Uint8Array,
    ];
    this.card2 = handLists.map((l) => Uint8Array.from(l, (c) => COMBO_HIGH_CARD[c]!)) as [
      Uint8Array,
      Uint8Array,
    ];
    this.weights = handLists.map((l, p) => Float64Array.from(l, (c) => config.ranges[p]![c]!)) as [
      Float64Array,
      Float64Array,
    ];
    const indexOf = handLists.map((l) => {
      const m = new Int32Array(1326).fill(-1);
      l.forEach((c, i) => {
        m[c] = i;
      });
      return m;
    });
    this.same = [
      Int32Array.from(handLists[0], (c) => indexOf[1]![c]!),
      Int32Array.from(handLists[1], (c) => indexOf[0]![c]!),
    ];
    const byCard = [0, 1].map((p) => {
      const start = new Int32Array(53);
      const lists: number[][] = Array.from({ length: 52 }, () => []);
      for (let i = 0; i < this.n[p]!; i++) {
        lists[this.card1[p]![i]!]!.push(i);
        lists[this.card2[p]![i]!]!.push(i);
      }
      const flat: number[] = [];
      for (let c = 0; c < 52; c++) {
        start[c] = flat.length;
        flat.push(...lists[c]!);
      }
      start[52] = flat.length;
      return { start, flat: Int32Array.from(flat) };
    });
    this.withCard = [byCard[0]!.flat, byCard[1]!.flat];
    this.cardStart = [byCard[0]!.start, byCard[1]!.start];

    // ---- Isomorphism
    const symmetric = (a: number, b: number): boolean => {
      for (let p = 0; p < 2; p++) {
        const w = config.ranges[p]!;
        for (let combo = 0; combo < 1326; combo++) {
          const lo = COMBO_LOW_CARD[combo]!;
          const hi = COMBO_HIGH_CARD[combo]!;
          const other = COMBO_OF_CARDS[swapSuit(lo, a, b) * 52 + swapSuit(hi, a, b)]!;
          if (w[combo] !== w[other]) return false;
        }
      }
      return true;
    };
    this.isomorphism = options.isomorphism !== false;
    this.entryBytes = options.compressed === true ? 2 : 4;
    const header = this.entryBytes === 2 ? 2 : 0;
    const rangeSymmetric: boolean[][] = Array.from({ length: 4 }, () => new Array<boolean>(4).fill(false));
    for (let a = 0; a < SUITS; a++) {
      for (let b = a + 1; b < SUITS; b++) rangeSymmetric[a]![b] = this.isomorphism && symmetric(a, b);
    }
    const permCache = new Map<number, [Int32Array, Int32Array]>();
    const handPerm = (a: number, b: number): [Int32Array, Int32Array] => {
      const key = a * 4 + b;
      let perm = permCache.get(key);
      if (!perm) {
        perm = [0, 1].map((p) =>
          Int32Array.from(handLists[p]!, (combo) => {
            const other =
              COMBO_OF_CARDS[
                swapSuit(COMBO_LOW_CARD[combo]!, a, b) * 52 + swapSuit(COMBO_HIGH_CARD[combo]!, a, b)
              ]!;
            const idx = indexOf[p]![other]!;
            if (idx < 0) throw new Error("isomorphism: asymmetric hand list");
            return idx;
          }),
        ) as [Int32Array, Int32Array];
        permCache.set(key, perm);
      }
      return perm;
    };
    /**
     * Suit classes on the starting board: suits with the same ranks on it whose swap leaves both ranges
     * unchanged; `rep[s]` is the lowest suit of s's class.
     */
    const rankMask = [0, 0, 0, 0];
    for (const c of this.board) rankMask[c & 3]! |= 1 << (c >> 2);
    const startRep = [0, 1, 2, 3];
    for (let s = 1; s < SUITS; s++) {
      for (let t = 0; t < s; t++) {
        if (startRep[t] === t && rankMask[t] === rankMask[s] && rangeSymmetric[t]![s]) {
          startRep[s] = t;
          break;
        }
      }
    }
    /** The suit classes after dealing a card of suit `dealt`: that suit leaves its class. */
    const splitRep = (rep: readonly number[], dealt: number): number[] => {
      const out = [0, 1, 2, 3];
      for (let s = 0; s < SUITS; s++) {
        if (s === dealt) continue;
        let r = s;
        for (let t = 0; t < s; t++) {
          if (t !== dealt && rep[t] === rep[s]) {
            r = out[t]!;
            break;
          }
        }
        out[s] = r;
      }
      return out;
    };
    /** The cards that can be dealt on `known`, one per class of interchangeable cards. */
    const dealsOn = (known: readonly number[], rep: readonly number[]): Deal[] => {
      const deals: Deal[] = [];
      for (let card = 0; card < 52; card++) {
        if (known.includes(card)) continue;
        const suit = card & 3;
        if (rep[suit] !== suit) continue;
        const mirrors: { card: number; perm: readonly [Int32Array, Int32Array] }[] = [];
        for (let s = suit + 1; s < SUITS; s++) {
          if (rep[s] === suit) mirrors.push({ card: (card & ~3) | s, perm: handPerm(suit, s) });
        }
        deals.push({ card, mirrors });
      }
      return deals;
    };

    // ---- Compile the tree
    const nodes = this.tree.nodes;
    const count = nodes.length;
    this.nodeCount = count;
    this.kind = new Uint8Array(count);
    this.player = new Int8Array(count);
    this.street = new Uint8Array(count);
    this.numChildren = new Uint8Array(count);
    this.firstChild = new Int32Array(count);
    this.localOffset = new Int32Array(count).fill(-1);
    this.blockSize = new Float64Array(count);
    this.chancePrefix = new Float64Array(count);
    this.nextBlocks = new Float64Array(count);
    this.payA = new Float64Array(count);
    this.payB = new Float64Array(count);
    this.contrib0 = new Float64Array(count);
    this.contrib1 = new Float64Array(count);
    const childList: number[] = [];
    const rake = config.rake;
    for (const node of nodes) {
      const id = node.id;
      this.kind[id] = node.kind;
      this.player[id] = node.player;
      this.street[id] = node.street;
      this.numChildren[id] = node.children.length;
      this.firstChild[id] = childList.length;
      for (const child of node.children) childList.push(child.id);
      this.contrib0[id] = node.contrib[0];
      this.contrib1[id] = node.contrib[1];
      if (node.kind === FOLD) {
        const cf = node.contrib[node.player]!;
        const pot = config.pot + 2 * cf;
        const r = Math.min((pot * rake.percent) / 100, rake.cap);
        this.payA[id] = -cf; // folder
        this.payB[id] = config.pot + cf - r; // winner
      } else if (node.kind === SHOWDOWN) {
        const pot = config.pot + node.contrib[0] + node.contrib[1];
        const r = Math.min((pot * rake.percent) / 100, rake.cap);
        this.payA[id] = (pot - r) / 2;
        this.payB[id] = (pot - r) / 2 - node.contrib[0];
      }
    }
    this.children = Int32Array.from(childList);

    // Street blocks: local offsets of decisions, chance prefixes.
    const n = this.n;
    const layoutBlock = (root: TreeNode): void => {
      let size = 0;
      let prefix = 0;
      const chances: TreeNode[] = [];
      const walk = (node: TreeNode) => {
        if (node.kind === DECISION) {
          // 16-bit storage: the scale first, and an even count (every decision's entries 4-byte aligned).
          size += header;
          this.localOffset[node.id] = size;
          size += node.children.length * n[node.player]!;
          if (header > 0) size += size % 2;
          for (const child of node.children) walk(child);
        } else if (node.kind === CHANCE) {
          chances.push(node);
        }
      };
      walk(root);
      this.blockSize[root.id] = size;
      for (const chance of chances) {
        const child = chance.children[0]!;
        if (chance.allIn) continue;
        layoutBlock(child);
        this.chancePrefix[chance.id] = prefix;
        prefix += this.blockSize[child.id]!;
      }
      this.nextBlocks[root.id] = prefix;
    };
    layoutBlock(this.tree.root);

    // Top nodes and leaves.
    const top: number[] = [];
    const leaves: number[] = [];
    const walkTop = (node: TreeNode) => {
      top.push(node.id);
      if (node.kind === CHANCE) leaves.push(node.id);
      else for (const child of node.children) walkTop(child);
    };
    walkTop(this.tree.root);
    this.topNodes = Int32Array.from(top);
    this.leaves = Int32Array.from(leaves);
    this.topSize = this.blockSize[this.tree.root.id]!;
    this.chanceFactor = [0, 1 / (52 - 3 - 4), 1 / (52 - 4 - 4)];

    // Deals and units.
    this.firstDeals = this.startStreet < 2 ? dealsOn(this.board, startRep) : [];
    const units: Unit[] = [];
    const chunkFloats = options.chunkFloats ?? (2 ** 32 - 2 ** 28) / (options.compressed ? 4 : 8);
    const chunkSizes: number[] = [0];
    for (let li = 0; li < leaves.length; li++) {
      const leaf = nodes[leaves[li]!]!;
      const blockRoot = leaf.children[0]!;
      for (const deal of this.firstDeals) {
        const next =
          this.startStreet === 0
            ? dealsOn([...this.board, deal.card], splitRep(startRep, deal.card & 3))
            : [];
        let size = 0;
        let cost = 0;
        if (!leaf.allIn) {
          size = this.blockSize[blockRoot.id]! + next.length * this.nextBlocks[blockRoot.id]!;
          cost = size + subtreeTerminals(blockRoot, next.length) * (n[0] + n[1]);
        } else {
          cost = (next.length || 1) * (n[0] + n[1]) * 3;
        }
        if (size > chunkFloats)
          throw new Error(`a unit needs ${size} floats, more than a chunk (${chunkFloats})`);
        let chunk = chunkSizes.length - 1;
        if (chunkSizes[chunk]! + size > chunkFloats) {
          chunkSizes.push(0);
          chunk++;
        }
        const base = chunkSizes[chunk]!;
        chunkSizes[chunk] = base + size;
        units.push({
          index: units.length,
          leaf: leaf.id,
          leafIndex: li,
          deal,
          next,
          chunk,
          base,
          size,
          cost,
        });
      }
    }
    this.units = units;
    this.chunkSizes = chunkSizes;

    // ---- Showdown tables
    const dealt = (b: number): number[] => {
      if (this.startStreet === 2) return [];
      if (this.startStreet === 1) return [this.remaining[b]!];
      const [i, j] = pairOf(b);
      return [this.remaining[i]!, this.remaining[j]!];
    };
    this.remaining = [];
    for (let c = 0; c < 52; c++) if (!onBoard(c)) this.remaining.push(c);
    this.remainingIndex = new Int32Array(52).fill(-1);
    this.remaining.forEach((c, i) => {
      this.remainingIndex[c] = i;
    });
    const r = this.remaining.length;
    this.boardCount = this.startStreet === 0 ? (r * (r - 1)) / 2 : this.startStreet === 1 ? r : 1;
    this.handCards = [0, 1].map((p) =>
      Int32Array.from(this.card1[p]!, (c, i) => c | (this.card2[p]![i]! << 6)),
    ) as [Int32Array, Int32Array];
    if (options.showdowns) {
      const { sdKey, sdLength } = options.showdowns;
      for (const p of [0, 1] as const) {
        if (sdKey[p].length !== this.boardCount * n[p]! || sdLength[p].length !== this.boardCount) {
          throw new Error("showdowns: the orders given are of another game");
        }
      }
      this.sdKey = sdKey;
      this.sdLength = sdLength;
    } else {
      ({ sdKey: this.sdKey, sdLength: this.sdLength } = this.showdownOrders(dealt));
    }

    this.scratchFloats = this.scratchBound();
  }

  /** Cards not on the starting board, ascending, and the index of each card among them (-1 on the board). */
  readonly remaining: number[];
  readonly remainingIndex: Int32Array;

  /** Every player's hands sorted by strength (then by hand) on every final board. */
  private showdownOrders(dealt: (b: number) => number[]): Showdowns {
    const n = this.n;
    // Shared memory: a solver's worker threads receive these arrays (`GameOptions.showdowns`) without a copy.
    const shared = (length: number) =>
      new Int32Array(new SharedArrayBuffer(Math.max(length, 1) * 4), 0, length);
    const sdKey: [Int32Array, Int32Array] = [shared(this.boardCount * n[0]), shared(this.boardCount * n[1])];
    const sdLength: [Int32Array, Int32Array] = [
      new Int32Array(this.boardCount),
      new Int32Array(this.boardCount),
    ];
    const strength = new Int32Array(Math.max(n[0], n[1]));
    const idx: number[] = [];
    for (let b = 0; b < this.boardCount; b++) {
      const cards = [...this.board, ...dealt(b)];
      const partial = partialHand(cards);
      for (let p = 0; p < 2; p++) {
        idx.length = 0;
        const c1 = this.card1[p]!;
        const c2 = this.card2[p]!;
        for (let i = 0; i < n[p]!; i++) {
          if (cards.includes(c1[i]!) || cards.includes(c2[i]!)) continue;
          strength[i] = evaluateWith2(partial, c1[i]!, c2[i]!);
          idx.push(i);
        }
        idx.sort((x, y) => strength[x]! - strength[y]! || x - y);
        const base = b * n[p]!;
        for (let k = 0; k < idx.length; k++) sdKey[p]![base + k] = (strength[idx[k]!]! << 11) | idx[k]!;
        sdLength[p]![b] = idx.length;
      }
    }
    return { sdKey, sdLength };
  }

  /** Board index of the final board after dealing `first` (and `second` on a flop spot). */
  boardIndex(first: number, second: number): number {
    if (this.startStreet === 2) return 0;
    if (this.startStreet === 1) return this.remainingIndex[first]!;
    let i = this.remainingIndex[first]!;
    let j = this.remainingIndex[second]!;
    if (i > j) [i, j] = [j, i];
    return pairIndex(i, j);
  }

  /** Floats of storage in all (top and units). */
  storageFloats(): number {
    return this.topSize + this.chunkSizes.reduce((a, b) => a + b, 0);
  }

  /**
   * Working memory of a traversal: at a decision, the strategy, one child reach and the children's values
   * (2 A n + n), then the child's needs; at a chance node two reaches and a value vector; at a terminal one
   * two vectors (the showdown kernel's).
   */
  private scratchBound(): number {
    const nMax = Math.max(this.n[0], this.n[1]);
    const nodes = this.tree.nodes;
    const need = (id: number): number => {
      const k = this.kind[id]!;
      // A showdown's totals and its float64 scratch (16 bytes a hand), aligned.
      if (k === FOLD || k === SHOWDOWN) return 5 * nMax + 4;
      const node = nodes[id]!;
      let below = 0;
      for (const child of node.children) below = Math.max(below, need(child.id));
      if (k === CHANCE) {
        // A river decision below a deal is a batch (`Engine.river`): its cached reaches and showdown values.
        const river = node.children.find((c) => this.kind[c.id] === DECISION && c.street === 2);
        // Two reaches, a value vector and a float64 sum (two entries a hand, aligned); a batch's last pair of
        // showdowns has 32 bytes a hand of scratch past the batch's vectors.
        return 5 * nMax + 4 + below + (river ? batch(river.id) + 8 * nMax + 4 : 0);
      }
      return (2 * node.children.length + 2) * nMax + below;
    };
    /** A river batch's vectors below `id`: per decision its reach and its children's; per showdown two. */
    const batch = (id: number): number => {
      const k = this.kind[id]!;
      if (k === SHOWDOWN) return 2 * nMax;
      if (k !== DECISION) return 0;
      const node = nodes[id]!;
      let sum = (node.children.length + 1) * nMax;
      for (const child of node.children) sum += batch(child.id);
      return sum;
    };
    return need(this.tree.root.id) + 4 * nMax;
  }
}

/** Index of the pair i < j among the pairs of 0..r-1 in (i, j) lexicographic order, any r: j(j-1)/2 + i. */
export const pairIndex = (i: number, j: number): number => (j * (j - 1)) / 2 + i;

function pairOf(b: number): [number, number] {
  let j = Math.floor((1 + Math.sqrt(1 + 8 * b)) / 2);
  while ((j * (j - 1)) / 2 > b) j--;
  while (((j + 1) * j) / 2 <= b) j++;
  return [b - (j * (j - 1)) / 2, j];
}

/** Terminals below a node, counting every river deal (for work estimates). */
function subtreeTerminals(node: TreeNode, rivers: number): number {
  if (node.kind === FOLD || node.kind === SHOWDOWN) return 1;
  let total = 0;
  for (const child of node.children) total += subtreeTerminals(child, rivers);
  return node.kind === CHANCE ? total * Math.max(rivers, 1) : total;
}
