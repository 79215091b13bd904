import {
  CODE_ALLIN,
  GAMES,
  type GameId,
  PotState,
  parseActionToken,
  parsePath,
  RangesError,
} from "@ranges/core";
import { describe, expect, it } from "vitest";
import { type DecisionNode, forEachNode, type TreeNode } from "../src/engine/game.js";
import { treeConfigPath } from "../src/solve/files.js";
import { buildEngineGame } from "../src/solve/preflop.js";
import { buildPreflopTree } from "../src/tree/build.js";
import {
  configStacks,
  loadTreeConfig,
  potLimitSizeIds,
  profileFor,
  type TreeConfig,
  validateTreeConfig,
} from "../src/tree/config.js";

const PLO_GAMES = ["plo", "plo9", "plo5", "plo6hu"] as const;

/** Every decision node with the pot state before it, replayed through @ranges/core's PotState. */
function decisions(config: TreeConfig, stack: number, root: TreeNode) {
  const seats = GAMES[config.game].seats;
  const out: { node: DecisionNode; pot: PotState }[] = [];
  const walk = (node: TreeNode, pot: PotState) => {
    if (node.type !== "decision") return;
    out.push({ node, pot });
    node.actions.forEach((a, k) => {
      const next = pot.clone();
      next.apply(seats[node.actor]!, a.code);
      walk(node.children[k]!, next);
    });
  };
  const pot = new PotState({
    seats,
    stacks: seats.map(() => stack),
    sb: config.blinds.sb,
    bb: config.blinds.bb,
    ante: 0,
    antePostedBy: null,
  });
  walk(root, pot);
  return out;
}

describe("PLO tree configs (data/trees/plo*.json)", () => {
  it("has the stacks of the issue: 50, 100 and 200bb for plo, 100bb for the others", () => {
    expect(configStacks(loadTreeConfig(treeConfigPath("plo")))).toEqual([50, 100, 200]);
    for (const game of ["plo9", "plo5", "plo6hu"] as const)
      expect(configStacks(loadTreeConfig(treeConfigPath(game)))).toContain(100);
  });

  for (const game of PLO_GAMES) {
    const config = loadTreeConfig(treeConfigPath(game));
    for (const stack of configStacks(config)) {
      describe(`${game} ${stack}bb`, () => {
        const tree = buildPreflopTree(config, stack, () => 0);
        const nodes = decisions(config, stack, tree.root);

        it("is small enough to solve and uses the game's seats", () => {
          expect(tree.seats).toEqual(GAMES[game].seats);
          expect(nodes.length).toBeGreaterThan(10);
          expect(nodes.length).toBeLessThan(12_000);
        });

        it("never raises above the pot, and offers all-in only where the pot-size raise reaches the stack", () => {
          for (const { node, pot } of nodes) {
            const seat = tree.seats[node.actor]!;
            const potMax = pot.decode(seat, 40100);
            for (const a of node.actions) {
              const d = pot.decode(seat, a.code);
              if (a.kind === "raise") {
                expect(d.toBb).toBeLessThanOrEqual(potMax.toBb + 1e-9);
                expect(a.sizePctPot).toBeGreaterThan(0);
                expect(a.sizePctPot).toBeLessThanOrEqual(100);
              }
              if (a.kind === "allin") expect(potMax.kind).toBe("allin");
            }
          }
        });

        it("names raises Open, 3B, 4B ... with a size id exactly where a node offers several sizes", () => {
          const listed = potLimitSizeIds(profileFor(config, stack));
          for (const { node } of nodes) {
            const raises = node.actions.filter((a) => a.kind === "raise");
            for (const a of raises) {
              const [depth, id] = a.token.split("-");
              if (raises.length > 1) {
                expect(id).toBe(String(a.sizePctPot));
                expect(listed[depth!]!.map((s) => s.id)).toContain(id);
              } else expect(id).toBeUndefined();
            }
            for (const a of node.actions) expect(parseActionToken(game, a.token).token).toBe(a.token);
          }
        });

        it("writes every history and every action in the game's path grammar", () => {
          for (const { node } of nodes) {
            const parsed = parsePath(game, node.history);
            expect(parsed.kind).toBe("node");
            expect(parsed.actor).toBe(tree.seats[node.actor]);
            for (const a of node.actions) {
              const spot = parsePath(game, `${node.history}_${a.token}`);
              expect(spot.kind).toBe("range");
            }
          }
        });

        it("rakes 5% capped at 0.6bb from every pot that sees a flop, nothing from a pot won preflop", () => {
          forEachNode(tree.root, (node) => {
            if (node.type === "showdown") expect(node.rake).toBeCloseTo(Math.min(0.6, 0.05 * node.pot), 9);
            if (node.type === "fold") expect("rake" in node).toBe(false);
          });
        });
      });
    }
  }
});

describe("PLO lines, by example", () => {
  const plo = loadTreeConfig(treeConfigPath("plo"));
  const tree100 = buildPreflopTree(plo, 100, () => 0);
  const find = (root: TreeNode, history: string): DecisionNode => {
    let hit: DecisionNode | undefined;
    forEachNode(root, (n) => {
      if (n.type === "decision" && n.history === history) hit = n;
    });
    if (!hit) throw new Error(`no node ${history}`);
    return hit;
  };
  const offer = (n: DecisionNode) =>
    n.actions.map((a) => `${a.token}${a.sizeBb === null ? "" : `:${a.sizeBb}`}`);

  it.each([
    ["UTG", ["Fold", "Open:3.5"]],
    // HJ 3-bets in position: two sizes, 75% of the pot (3.5 + 0.75 x 8.5 = 9.875bb) and the pot (to 12bb).
    ["UTG_Open_HJ", ["Fold", "Call", "3B-75:9.88", "3B-100:12"]],
    // The SB 3-bets out of position: one size, no suffix; its posted 0.5bb counts (3.5 + 8 = 11.5bb).
    ["UTG_Open_HJ_Fold_CO_Fold_BTN_Fold_SB", ["Fold", "Call", "3B:11.5"]],
    // The pot 4-bet to 37.5bb is below the stack: no all-in is legal yet.
    ["UTG_Open_HJ_3B-100_CO_Fold_BTN_Fold_SB_Fold_BB_Fold_UTG", ["Fold", "Call", "4B:37.5"]],
    // Facing the 4-bet the pot-size raise would reach 114bb: all-in (100bb) is legal and replaces it.
    ["UTG_Open_HJ_3B-100_CO_Fold_BTN_Fold_SB_Fold_BB_Fold_UTG_4B_HJ", ["Fold", "Call", "AI:100"]],
    // The SB may complete or raise pot (to 3bb); after a complete the BB may check or raise pot (to 3bb).
    ["UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB", ["Fold", "Call", "Open:3"]],
    ["UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_Call_BB", ["Call", "Open:3"]],
  ])("plo 100bb %s offers %j", (history, expected) => {
    expect(offer(find(tree100.root, history))).toEqual(expected);
  });

  it("plo6hu: the SB (button) acts first and opens 75% or pot, Open-75 and Open-100", () => {
    const hu = loadTreeConfig(treeConfigPath("plo6hu"));
    const tree = buildPreflopTree(hu, 100, () => 0);
    expect(tree.root.type === "decision" && tree.root.history).toBe("SB");
    expect(offer(tree.root as DecisionNode)).toEqual(["Fold", "Call", "Open-75:2.5", "Open-100:3"]);
    expect(offer(find(tree.root, "SB_Open-75_BB"))).toEqual(["Fold", "Call", "3B:7.5"]);
    expect(potLimitSizeIds(profileFor(hu, 100)).Open).toEqual([
      { id: "75", pct: 75 },
      { id: "100", pct: 100 },
    ]);
  });

  it("plo5 starts with the HJ and plo9 with UTG", () => {
    const five = buildPreflopTree(loadTreeConfig(treeConfigPath("plo5")), 100, () => 0);
    expect((five.root as DecisionNode).history).toBe("HJ");
    const nine = buildPreflopTree(loadTreeConfig(treeConfigPath("plo9")), 100, () => 0);
    expect(nine.seats).toHaveLength(9);
  });

  it("is not solved yet: the hold'em engine refuses a PLO config", () => {
    const equity = { eq: new Float64Array(0), w: new Float64Array(0) } as never;
    expect(() => buildEngineGame(plo, 100, equity)).toThrow(/plo is PLO/);
  });
});

describe("tree configs that must fail", () => {
  const plo = loadTreeConfig(treeConfigPath("plo"));
  const nl = loadTreeConfig(treeConfigPath("nl"));
  const withProfile = (change: Record<string, unknown>): TreeConfig => ({
    ...plo,
    profiles: [{ ...plo.profiles[1]!, ...change }],
  });
  const without = (key: string): TreeConfig => {
    const p: Record<string, unknown> = { ...plo.profiles[1]! };
    delete p[key];
    return { ...plo, profiles: [p as never] };
  };

  it.each([
    ["a PLO game without pot-limit betting", { ...plo, betting: undefined }, /set "betting": "pot-limit"/],
    ["a PLO game with no-limit betting", { ...plo, betting: "no-limit" }, /set "betting": "pot-limit"/],
    ["hold'em with pot-limit betting", { ...nl, betting: "pot-limit" }, /is no-limit hold'em/],
    ["an unknown betting structure", { ...plo, betting: "fixed-limit" }, /betting must be/],
    ["an unknown game", { ...plo, game: "plo8" }, /game must be a game/],
    ["a raise over the pot", withProfile({ open: [40150] }), /open has 40150/],
    ["an all-in code as a size", withProfile({ fourBet: [3] }), /fourBet has 3/],
    ["a min-raise code", withProfile({ threeBetIp: [5] }), /threeBetIp has 5/],
    ["a raise-to 1.5bb code", withProfile({ sbOpen: [14] }), /sbOpen has 14/],
    ["a fractional percent", withProfile({ open: [40050.5] }), /open has 40050.5/],
    ["a size that is not a number", withProfile({ open: ["40100"] }), /open has "40100"/],
    ["a size listed twice", withProfile({ threeBetIp: [40100, 40100] }), /lists a size twice/],
    ["sizes that are not a list", withProfile({ open: 40100 }), /open must be a list/],
    ["jam or fold", withProfile({ jamOrFold: true }), /jamOrFold is not pot-limit/],
    ["no raise cap", without("maxRaises"), /needs maxRaises/],
    ["an all-in threshold of 0", { ...plo, allInThreshold: 0 }, /allInThreshold/],
    ["an all-in threshold above 1", { ...plo, allInThreshold: 1.5 }, /allInThreshold/],
    ["no profiles", { ...plo, profiles: [] }, /profiles is empty/],
  ])("refuses %s", (_what, config, message) => {
    expect(() => validateTreeConfig(config as TreeConfig, "test")).toThrow(message);
  });

  it("still accepts the hold'em configs unchanged", () => {
    for (const game of ["nl", "nl/v2", "nl9", "nlmtt8"] as GameId[]) {
      const config = loadTreeConfig(treeConfigPath(game));
      expect(config.betting).toBeUndefined();
      expect(validateTreeConfig(config)).toBe(config);
    }
  });

  it("parses PLO size tokens with @ranges/core and refuses them in hold'em", () => {
    expect(parseActionToken("plo", "3B-75")).toMatchObject({ kind: "raise", raiseNumber: 3, sizeId: "75" });
    expect(() => parseActionToken("nlmtt8", "3B-75")).toThrow(RangesError);
    expect(parseActionToken("nlmtt8", "3B").kind).toBe("raise");
    expect(CODE_ALLIN).toBe(3);
  });
});
