/**
 * Kuhn poker as an engine game: three cards (J, Q, K), one to each of two players, ante 1 each, one bet of
 * 1. Its equilibrium value for the first player is -1/18 (Kuhn 1950), which makes it an exact oracle for the
 * CFR engine, the terminal arithmetic and the best-response code.
 */

import type { ActionInfo, EngineGame, TreeNode } from "../engine/game.js";

const act = (token: string, kind: ActionInfo["kind"]): ActionInfo => ({
  code: kind === "fold" ? 0 : kind === "call" ? 1 : 5,
  token,
  kind,
  sizeBb: null,
  sizePctPot: null,
});

export function kuhnGame(): EngineGame {
  const n = 3;
  const W = new Float64Array(n * n);
  const win = new Float64Array(n * n);
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++) {
      W[a * n + b] = a === b ? 0 : 1;
      win[a * n + b] = a > b ? 1 : 0;
    }
  const showdown = (pot: number): TreeNode => ({
    type: "showdown",
    players: [0, 1],
    pots: [{ amount: pot, players: [0, 1] }],
    // Either player's share against the other is the same "higher card wins" matrix.
    duel: Int32Array.from([-1, 0, 0, -1]),
    pot,
    rake: 0,
    invested: [pot / 2, pot / 2],
    allIn: true,
  });
  const fold = (winner: number, invested: number[]): TreeNode => ({
    type: "fold",
    winner,
    pot: invested[0]! + invested[1]!,
    invested,
  });
  const root: TreeNode = {
    type: "decision",
    actor: 0,
    history: "P1",
    depth: 1,
    invested: [1, 1],
    actions: [act("Check", "call"), act("Bet", "raise")],
    children: [
      {
        type: "decision",
        actor: 1,
        history: "P1_Check_P2",
        depth: 1,
        invested: [1, 1],
        actions: [act("Check", "call"), act("Bet", "raise")],
        children: [
          showdown(2),
          {
            type: "decision",
            actor: 0,
            history: "P1_Check_P2_Bet_P1",
            depth: 2,
            invested: [1, 2],
            actions: [act("Fold", "fold"), act("Call", "call")],
            children: [fold(1, [1, 2]), showdown(4)],
          },
        ],
      },
      {
        type: "decision",
        actor: 1,
        history: "P1_Bet_P2",
        depth: 2,
        invested: [2, 1],
        actions: [act("Fold", "fold"), act("Call", "call")],
        children: [fold(0, [2, 1]), showdown(4)],
      },
    ],
  };
  return {
    seats: ["P1", "P2"],
    classCount: n,
    combos: Float64Array.from([1, 1, 1]),
    oppPerCombo: 2,
    W,
    // W times the row player's share of the pot: all of it with the higher card.
    matrices: [win],
    root,
  };
}
