/**
 * The game the CFR engine solves: a tree whose pots are contested by two or more players at a showdown,
 * with private hands drawn from `classCount` classes.
 *
 * Card removal between two players is exact at the class level: `W[a*n+b]` counts the concrete combo pairs
 * (a, b) that share no card, and every row sums to `combos[a] * oppPerCombo`. The chance of an opponent
 * holding b given that I hold a is then `W[a][b] / (combos[a] * oppPerCombo)`. Every opponent's hand is
 * drawn that way against mine, ignoring the overlap between two opponents' cards (measured in
 * docs/solver-model.md).
 */

export interface ActionInfo {
  readonly code: number;
  readonly token: string;
  readonly kind: "fold" | "call" | "raise" | "allin";
  readonly sizeBb: number | null;
  readonly sizePctPot: number | null;
  readonly sizeReason?: string;
}

export interface DecisionNode {
  readonly type: "decision";
  readonly actor: number;
  readonly history: string;
  readonly depth: 1 | 2 | 3 | 4;
  readonly actions: readonly ActionInfo[];
  readonly children: readonly TreeNode[];
  /** Chips each seat has put in when the decision is made (a fold loses exactly this). */
  readonly invested: readonly number[];
}

/** Everyone else folded: `winner` takes the pot. */
export interface FoldNode {
  readonly type: "fold";
  readonly winner: number;
  readonly pot: number;
  readonly invested: readonly number[];
}

/** One pot of a showdown: the chips (after rake) and the seats contesting it. */
export interface ShowdownPot {
  readonly amount: number;
  readonly players: readonly number[];
}

/**
 * Two or more players share the pots. Heads-up, a pot is shared by a share matrix: `matrices[k]` is
 * indexed [row player's class][other player's class] and holds W times the row player's share. With three
 * or more players the engine combines the heads-up duels (see `CfrSolver`, multiway model). `duel[i * seats
 * + j]` is the matrix giving seat i's share against seat j. `invested` is after any uncalled excess is
 * returned, so `pot` equals the sum of `invested`; the pots' amounts sum to `pot - rake`.
 */
export interface ShowdownNode {
  readonly type: "showdown";
  /** Seats still in the hand. */
  readonly players: readonly number[];
  /** Main pot first, then side pots. */
  readonly pots: readonly ShowdownPot[];
  readonly duel: Int32Array;
  readonly pot: number;
  /** Chips taken as rake (0 without rake). */
  readonly rake: number;
  readonly invested: readonly number[];
  /** True when the pot is settled by all-in equity, false when by the postflop model. */
  readonly allIn: boolean;
}

export type TreeNode = DecisionNode | FoldNode | ShowdownNode;

export interface EngineGame {
  readonly seats: readonly string[];
  readonly classCount: number;
  /** Concrete combos per class. */
  readonly combos: Float64Array;
  /** Opponent combos compatible with any one of my combos (1225 in hold'em, 2 in Kuhn). */
  readonly oppPerCombo: number;
  /** Compatible combo-pair counts, row-major n*n. */
  readonly W: Float64Array;
  /** Share matrices (W times the row player's pot share), row-major n*n each. */
  readonly matrices: readonly Float64Array[];
  /**
   * All-in pots of three or more players: board-conditioned duels (src/model/multiway.ts), `matrices[m *
   * buckets + k]` the duel matrix m in strength bucket k of its row player, `pi[a * buckets + k]` the
   * bucket's chance. Without it, and in pots that go to the flop, independent duels (the heads-up matrices).
   */
  readonly multiway?: {
    readonly buckets: number;
    readonly pi: Float64Array;
    readonly matrices: readonly Float64Array[];
  };
  readonly root: TreeNode;
}

/** Walks every node once, parents before children. */
export function forEachNode(root: TreeNode, visit: (node: TreeNode) => void): void {
  const stack: TreeNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    if (node.type === "decision")
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

export function countNodes(root: TreeNode): { decisions: number; terminals: number } {
  let decisions = 0;
  let terminals = 0;
  forEachNode(root, (n) => {
    if (n.type === "decision") decisions++;
    else terminals++;
  });
  return { decisions, terminals };
}
