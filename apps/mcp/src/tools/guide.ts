/** Guidance: get_started and list_games. */

import { GAME_IDS, GAMES } from "@ranges/core";
import { keylessGames } from "../context.js";
import { GetStartedSchema, ListGamesSchema } from "../schemas.js";
import { coverageOf } from "../scope.js";
import { defineTool, type Outcome } from "../tool.js";

/** Tools of the specification that this server does not register yet (no data or backend behind them). */
export const COMING_TOOLS: readonly string[] = [];

const ACCESS_NOTE =
  'Without a key: get_node, get_range and list_spots for nl and nl/v2 (6-max NL cash preflop), plus get_started, list_games, get_config, list_datasets, get_tree_docs, get_range_metadata, get_exploitability and list_postflop_packs; each call counts toward the per-IP daily allowance (200 calls). Other games need an API key sent as the HTTP header `Authorization: Bearer <key>` on the MCP connection; the key\'s plan meter counts the calls. submit_request and list_my_requests need a key and are free (not counted). enqueue_solve queues a custom preflop solve (a key, counted once); get_queued_solve and list_queued_solves follow yours for free; a finished solve is read with get_node, get_range and list_spots and its id as solution. Your own hand histories: get_upload_link (a single-use link for a file) or upload_hand_history (text inline), then find_hands, get_hand_results, list_my_sessions, get_session_summary, get_tournament_results, list_my_opponents, get_opponent_notes and get_opponent_limp_range; they need a key, are free, and read only the hands stored under that key. Heads-up cash postflop reads (get_postflop_node, get_postflop_range, explain_combo, get_board_report, and compare_strategies with domain "postflop") need a key and are counted on its meter.';

/** get_started's coverage with heads-up postflop: published where postflop packs are installed, else said to have none. */
function withPostflop(
  coverage: { published: string[]; notPublished: string[] },
  packs: readonly string[],
): { published: string[]; notPublished: string[] } {
  return packs.length > 0
    ? {
        ...coverage,
        published: [
          ...coverage.published,
          `Heads-up cash postflop: the flop decisions of the solved boards of the postflop packs ${packs.join(", ")} (list_postflop_packs), and their turn and river decisions, each street solved on demand from the flop solve's ranges when first asked (context.solve gives its exploitability).`,
        ],
      }
    : {
        ...coverage,
        notPublished: [
          ...coverage.notPublished,
          "heads-up cash postflop: no postflop pack is installed yet (list_postflop_packs lists none; the postflop reads answer 404)",
        ],
      };
}

export const getStarted = defineTool({
  name: "get_started",
  title: "Start here",
  description:
    "Call first: the data, the workflow, games and stacks, access, path grammar, units, what is not published.",
  input: {},
  variants: [GetStartedSchema],
  async run(_args, ctx): Promise<Outcome> {
    await ctx.authorize(true);
    const free = new Set(keylessGames());
    const value = {
      schemaVersion: 1,
      service:
        "Preflop ranges: equilibrium strategies computed by this project's own solver (CFR family), per hand class: for every action its frequency in [0,1] and EV. Heads-up cash postflop: per combo, the flop decisions of the boards solved in the installed postflop packs (list_postflop_packs), and turn and river decisions solved on demand from them. Read-only.",
      workflow: [
        { step: 1, tool: "list_games", purpose: "Pick a game and a live stack." },
        {
          step: 2,
          tool: "get_tree_docs",
          purpose: "Learn the seats, token grammar, raise sizes, rake and example paths of the game.",
        },
        { step: 3, tool: "get_config", purpose: "nlmtt8 only: table facts (stacks, ante, open sizes)." },
        { step: 4, tool: "list_spots", purpose: "Search the decision nodes to find the exact history." },
        { step: 5, tool: "get_node", purpose: "Strategy at a node; add hand or combo for one class." },
        { step: 6, tool: "get_range", purpose: "One action's range: the history plus an action token." },
        { step: 7, tool: "compare_strategies", purpose: "Compare two nodes (stacks, games, positions)." },
        {
          step: 8,
          tool: "get_range_metadata",
          purpose: "Cite the pack: provenance, solve time, exploitability.",
        },
        {
          step: 9,
          tool: "list_postflop_packs",
          purpose:
            "Postflop (heads-up cash): the installed packs, their preflop line and solved flops (flop decisions stored; turn and river solved on demand). Free; it may list none.",
        },
        {
          step: 10,
          tool: "get_postflop_node",
          purpose:
            "Postflop: the strategy at a decision of a solved board (pack, board, path, combo?); the path may go on with the turn card and the river card. Key.",
        },
        {
          step: 11,
          tool: "get_postflop_range",
          purpose: "Postflop: every combo at a decision, or one action's range. Key.",
        },
        {
          step: 12,
          tool: "explain_combo",
          purpose:
            "Postflop: one combo's strategy, EV per action, equity, hand category and range position. Key.",
        },
        {
          step: 13,
          tool: "get_board_report",
          purpose:
            "Postflop: one flop decision aggregated over the pack's solved boards, filtered by texture. Key.",
        },
        {
          step: 14,
          tool: "compare_strategies",
          purpose:
            'Postflop, domain "postflop": two decisions compared (boards, trees, lines), per combo. Key.',
        },
      ],
      games: GAME_IDS.map((game) => ({
        game,
        title: GAMES[game].title,
        stacks: ctx.store.liveStacks(game),
        keyless: free.has(game),
      })),
      pathGrammar: [
        "A spot is an action path: <SEAT>_<ACTION>_<SEAT>_<ACTION>... in acting order.",
        'Ending in a seat it is a node (get_node history, e.g. "UTG_Fold_HJ"); ending in an action it is a range (get_range spot, e.g. "UTG_Fold_HJ_60%").',
        "Every fold is written out; there is no shortcut to a later seat.",
        "Tokens: Fold, Call, AI; cash hold'em raises as percent of pot (60%); nlmtt8 Limp, Open, 3B, 4B, 5B; PLO Open, 3B... with -<size_id> when a node has several sizes. Copy tokens from get_node.",
      ],
      units: [
        "Stacks, sizeBb, blinds and antes in big blinds (bb); sizePctPot in percent of the pot after calling.",
        "EVs in small blinds (sb), relative to folding (fold = 0); never rescaled to bb. nl (v1) stores no EVs.",
        "Frequencies in [0,1] per hand class; hold'em has 169 classes (AA, AKs, AKo), PLO 16,432.",
        "reach in [0,1]: the probability a node's line is played when every seat follows the published strategies (card removal ignored, 4 significant digits); 0 means never reached: the strategy there comes from the solve's tremble, not an equilibrium frequency, and a hand may play below its best EV there (compare the EVs).",
      ],
      access: [ACCESS_NOTE],
      coverage: withPostflop(coverageOf(ctx.store), ctx.postflop?.ids() ?? []),
      comingTools: [...COMING_TOOLS],
    };
    return { schema: GetStartedSchema, value };
  },
});

export const listGames = defineTool({
  name: "list_games",
  title: "Games and stacks",
  description:
    "Use to choose a game and stack: each game's live stacks, seats, classes, tokens, EV unit, keyless operations.",
  input: {},
  variants: [ListGamesSchema],
  async run(_args, ctx): Promise<Outcome> {
    await ctx.authorize(true);
    const value = {
      ...ctx.store.catalog(),
      toolAccess: { keylessGames: keylessGames(), note: ACCESS_NOTE },
    };
    return { schema: ListGamesSchema, value };
  },
});
