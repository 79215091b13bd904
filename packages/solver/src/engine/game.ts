/**
 * The game the CFR engine solves: a tree whose pots are contested by at most two players at a showdown,
 * with private hands drawn from `classCount` classes.
 *
 * Card removal between the two players of a pot is exact at the class level: `W[a*n+b]` counts the concrete
 * combo pairs (a, b) that share no card, and every row sums to `combos[a] * oppPerCombo`. The chance of the
 * opponent holding b given that I hold a is then `W[a][b] / (combos[a] * oppPerCombo)`. A third player's
 * hand is drawn the same way against mine, ignoring the overlap between two opponents (documented in
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

/**
 * Two players share the pot by a showdown matrix: `matrices[k]` is indexed [row player's class][other
 * player's class] and holds W times the row player's share of the pot. `invested` is after any uncalled
 * excess is returned, so `pot` equals the sum of `invested`.
 */
export interface ShowdownNode {
  readonly type: "showdown";
  readonly players: readonly [number, number];
  /** Index of the matrix giving players[0]'s share and the one giving players[1]'s share. */
  readonly matrices: readonly [number, number];
  readonly pot: number;
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
