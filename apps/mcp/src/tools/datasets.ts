/** Dataset documentation: list_datasets, get_tree_docs, get_range_metadata, get_exploitability. */

import { BettingOrder, GAMES, type GameId, parseActionToken, parsePath } from "@ranges/core";
import type { Node } from "@ranges/schema";
import type { PackHeader, RangeStore } from "@ranges/store";
import { PLO_ABSTRACTION_DOC, PLO_SIZING, parseGameParam, parseStackParam } from "@ranges/store";
import { gameField, stackField } from "../context.js";
import { raiseCodesOf } from "../raise-codes.js";
import { NO_PACK_RAKE, type RakeDoc, rakeDoc } from "../rake.js";
import {
  type DatasetRow,
  ExploitabilitySchema,
  ListDatasetsSchema,
  type PackAbstraction,
  RangeMetadataSchema,
  type SpotExample,
  TreeDocsSchema,
} from "../schemas.js";
import { defineTool, type Outcome } from "../tool.js";

const evBaselineOf = (header: PackHeader): "fold" | null => (header.evUnit === null ? null : "fold");

/** How a PLO pack stores its strategies; undefined for hold'em. */
function abstractionOf(header: PackHeader): PackAbstraction | undefined {
  if (header.classSet !== "plo16432") return undefined;
  const b = header.buckets;
  return {
    classes: header.classCount,
    storedPer: b ? "bucket" : "class",
    buckets: b ? b.count : null,
    description: b ? b.abstraction : null,
    doc: PLO_ABSTRACTION_DOC,
  };
}

/** The game a PLO pack's exploitability was measured in; undefined for hold'em. */
function measuredIn(header: PackHeader): string | undefined {
  if (header.classSet !== "plo16432") return undefined;
  return header.buckets
    ? `the solved (bucketed) game: ${header.buckets.count} buckets of the 16,432 classes, the best response also playing one mix per bucket; what the bucketing costs is measured apart: on plo6hu 100bb the 512-bucket strategy is 0.3 to 0.47% of the pot exploitable in a 1,024-bucket game, a lower bound of its cost against per-class play (${PLO_ABSTRACTION_DOC})`
    : "the solved game, per class (16,432 classes)";
}

function exploitabilitySummary(header: PackHeader): DatasetRow["exploitability"] {
  const seats = header.provenance.exploitability;
  const where = measuredIn(header);
  const note = where === undefined ? {} : { measuredIn: where };
  if (!seats || seats.length === 0)
    return { measured: false, seats: 0, maxMbbPerHand: null, maxPctPot: null };
  return {
    measured: true,
    seats: seats.length,
    maxMbbPerHand: Math.max(...seats.map((s) => s.mbbPerHand)),
    maxPctPot: Math.max(...seats.map((s) => s.pctPot)),
    ...note,
  };
}

export const listDatasets = defineTool({
  name: "list_datasets",
  title: "List the published packs",
  description:
    "Use to see what data exists and how it was made: per pack, source, algorithm, iterations, solve time, exploitability, nodes.",
  input: { game: gameField.optional().describe("Optional: only this game's packs.") },
  variants: [ListDatasetsSchema],
  async run(args, ctx): Promise<Outcome> {
    await ctx.authorize(true);
    // The store's resident index: no pack data is read (see RangeStore.packSummaries).
    const packs = await ctx.store.packSummaries(
      args.game === undefined ? undefined : parseGameParam(args.game),
    );
    const datasets: DatasetRow[] = packs.map(({ game, stack, header, nodeCount }) => {
      const p = header.provenance;
      const abstraction = abstractionOf(header);
      return {
        game,
        stack,
        status: "ok",
        source: p.source,
        algorithm: p.algorithm,
        iterations: p.iterations,
        solveSeconds: p.solveSeconds,
        createdAt: p.createdAt,
        exploitability: exploitabilitySummary(header),
        nodeCount,
        ...(abstraction === undefined ? {} : { abstraction }),
      };
    });
    return { schema: ListDatasetsSchema, value: { schemaVersion: 1, count: datasets.length, datasets } };
  },
});

// ---------------------------------------------------------------------------------------------------------
// get_tree_docs

const DEPTHS = {
  "1": "RFI: nobody has raised (unopened pot; limps do not count).",
  "2": "Facing a single raise (the open).",
  "3": "3-bet pot: two raises made.",
  "4": "4-bet pot or deeper (capped at 4).",
};

function tokenDocs(game: GameId): { style: "percent" | "depth"; allowed: string[]; grammar: string } {
  const info = GAMES[game];
  if (info.tokenStyle === "percent") {
    return {
      style: "percent",
      allowed: ["Fold", "Call", "AI", "<pct>% (e.g. 60%, 100%)"],
      grammar:
        "Raises are written as the percent of the pot after calling (raise-to = current bet + pct/100 x (pot + to-call)); a check is Call; AI is all-in. Copy raise tokens from a node's actions: only the sizes the tree holds exist.",
    };
  }
  const allowed = ["Fold", "Call", ...(info.limpToken ? ["Limp"] : []), "AI", "Open", "3B", "4B", "5B"];
  if (info.variant === "omaha") {
    return {
      style: "depth",
      allowed: [...allowed, "<token>-<size_id>"],
      grammar: `Raises are named by betting depth: Open (first raise, also a raise over a limp), 3B, 4B, 5B, ...; a check is Call; AI is all-in. ${PLO_SIZING} The chip raise-to is the action's sizeBb.`,
    };
  }
  return {
    style: "depth",
    allowed,
    grammar:
      "Raises are named by betting depth: Open (first raise, also the BB raising a limp), 3B, 4B, 5B; Limp is a first-in call (the BB checking is Call); AI is all-in. The chip raise-to is the action's sizeBb, not the token.",
  };
}

/** History of the node reached by `token` at `history`, or null when the betting closes. */
export function nextHistory(game: GameId, history: string, token: string): string | null {
  const parsed = parsePath(game, history);
  const order = new BettingOrder(GAMES[game].seats);
  for (const step of parsed.steps) {
    order.apply(step.seat, step.action.kind, step.action.kind === "raise" || step.action.kind === "allin");
  }
  const action = parseActionToken(game, token);
  order.apply(parsed.actor, action.kind, action.kind === "raise" || action.kind === "allin");
  const next = order.nextToAct();
  return next === null ? null : `${history}_${token}_${next}`;
}

function tryNode(store: RangeStore, game: GameId, stack: number, history: string): Node | null {
  try {
    return store.node(game, stack, history, { minFreq: 1 });
  } catch {
    return null;
  }
}

const example = (node: Node, note: string): SpotExample => ({
  history: node.history,
  actor: node.actor,
  depth: node.depth,
  actions: node.actions.map((a) => a.action),
  note,
});

/** Example nodes taken from the pack: the first decision, a fold to the next seat, then one raise per depth. */
function examplesFrom(
  store: RangeStore,
  game: GameId,
  stack: number,
): { examples: SpotExample[]; range: string | null } {
  const root = tryNode(store, game, stack, GAMES[game].seats[0]!);
  if (!root) return { examples: [], range: null };
  const examples = [example(root, "First decision of the hand.")];
  const fold = root.actions.find((a) => a.kind === "fold");
  const foldNext = fold ? nextHistory(game, root.history, fold.action) : null;
  const folded = foldNext ? tryNode(store, game, stack, foldNext) : null;
  if (folded) examples.push(example(folded, "After the first seat folds: every fold is written out."));
  const firstRaise =
    root.actions.find((a) => a.kind === "raise") ?? root.actions.find((a) => a.kind === "allin");
  const range = firstRaise ? `${root.history}_${firstRaise.action}` : null;
  let node: Node | null = root;
  const notes = [
    "",
    "Facing the open (depth 2).",
    "Facing a 3-bet (depth 3).",
    "Facing a 4-bet or all-in (depth 4).",
  ];
  for (let depth = 2; depth <= 4 && node; depth++) {
    const raise: Node["actions"][number] | undefined =
      node.actions.find((a) => a.kind === "raise") ?? node.actions.find((a) => a.kind === "allin");
    if (!raise) break;
    const next = nextHistory(game, node.history, raise.action);
    node = next ? tryNode(store, game, stack, next) : null;
    if (node) examples.push(example(node, notes[depth - 1]!));
  }
  return { examples, range };
}

export const getTreeDocs = defineTool({
  name: "get_tree_docs",
  title: "Tree docs",
  description:
    "Use before writing histories or enqueue_solve changes: seats, tokens, sizes, raise-size codes, rake, path rules, examples.",
  input: { game: gameField, stack: stackField.optional() },
  variants: [TreeDocsSchema],
  async run(args, ctx): Promise<Outcome> {
    await ctx.authorize(true);
    const game = parseGameParam(args.game);
    const info = GAMES[game];
    const stacks = ctx.store.liveStacks(game);
    const warnings: string[] = [];
    let stack: number | null = null;
    if (args.stack !== undefined) {
      stack = parseStackParam(game, args.stack);
      if (!stacks.includes(stack)) await ctx.store.packSummary(game, stack); // 404 unknown_stack listing stacks
    } else {
      stack = stacks.includes(100) ? 100 : (stacks[0] ?? null);
    }
    let treeSizes: string[] | null = null;
    let rake: RakeDoc = NO_PACK_RAKE;
    let examples: SpotExample[] = [];
    let rangeExample: string | null = null;
    if (stack === null) {
      warnings.push(
        `No pack of ${game} is published yet, so there are no example paths, tree sizes or rake.`,
      );
    } else {
      // The examples are read from the pack: load it off the event loop first.
      await ctx.store.prepare(game, stack);
      const meta = await ctx.store.packSummary(game, stack);
      treeSizes = meta.header.config.treeSizes === null ? null : [...meta.header.config.treeSizes];
      rake = rakeDoc(meta.header.config);
      const found = examplesFrom(ctx.store, game, stack);
      examples = found.examples;
      rangeExample = found.range;
      if (treeSizes === null)
        warnings.push("The pack does not list its raise sizes; read sizeBb from get_node.");
      if (!rake.known)
        warnings.push(
          `The ${stack}bb pack does not record the rake it was solved with; rake null means unknown here, not no rake.`,
        );
    }
    const plo = ctx.store.ploDoc(game);
    const first = info.seats[0]!;
    const second = info.seats[1] ?? info.seats[0]!;
    const value = {
      schemaVersion: 1,
      game,
      title: info.title,
      format: info.format,
      seats: [...info.seats],
      stacks,
      stack,
      tokens: tokenDocs(game),
      treeSizes,
      rake: rake.rake,
      rakeNote: rake.note,
      depths: DEPTHS,
      pathRules: [
        "A path is <SEAT>_<ACTION>_<SEAT>_<ACTION>... in acting order, seats and tokens joined by single underscores.",
        `A path ending in a seat is a node (get_node history, e.g. "${first}"); ending in an action it is that action's range (get_range spot, e.g. "${first}_Fold").`,
        `Every seat that folds is written out: the second seat's node is "${first}_Fold_${second}", never "${second}".`,
        "Tokens must be copied from a node's actions when it offers several raise sizes; an absent line answers 404 with the valid prefix and the actions available there.",
        "Tool arguments are not URL-encoded: send 60% as is (the API's query strings need %25).",
      ],
      examples,
      rangeExample,
      raiseCodes: raiseCodesOf(game, stack),
      ...(plo === null ? {} : { plo }),
      warnings,
    };
    return { schema: TreeDocsSchema, value };
  },
});

// ---------------------------------------------------------------------------------------------------------
// get_range_metadata and get_exploitability

export const getRangeMetadata = defineTool({
  name: "get_range_metadata",
  title: "Provenance of one pack",
  description:
    "Use to cite a pack: provenance, exploitability per seat, checksum, node count, classes, EV unit, sizes, rake.",
  input: { game: gameField, stack: stackField },
  variants: [RangeMetadataSchema],
  async run(args, ctx): Promise<Outcome> {
    await ctx.authorize(true);
    const game = parseGameParam(args.game);
    const stack = parseStackParam(game, args.stack);
    const meta = await ctx.store.packSummary(game, stack);
    const { header } = meta;
    const p = header.provenance;
    const rake = rakeDoc(header.config);
    const abstraction = abstractionOf(header);
    const value = {
      schemaVersion: 1,
      game,
      stack,
      source: p.source,
      algorithm: p.algorithm,
      iterations: p.iterations,
      seed: p.seed,
      model: p.model,
      solveSeconds: p.solveSeconds,
      createdAt: p.createdAt,
      importedAt: header.config.importedAt,
      treeConfig: p.treeConfig,
      notes: [...p.notes],
      exploitability: p.exploitability ? p.exploitability.map((s) => ({ ...s })) : null,
      checksum: meta.checksum,
      nodeCount: meta.nodeCount,
      fileBytes: meta.fileBytes,
      classSet: header.classSet,
      classCount: header.classCount,
      evUnit: header.evUnit,
      evBaseline: evBaselineOf(header),
      treeSizes: header.config.treeSizes === null ? null : [...header.config.treeSizes],
      rake: rake.rake,
      rakeNote: rake.note,
      ...(abstraction === undefined ? {} : { abstraction }),
      formatVersion: header.formatVersion,
    };
    return { schema: RangeMetadataSchema, value };
  },
});

export const EXPLOITABILITY_METHOD =
  "Best response of each seat against the stored strategies of the other seats, computed by the solver on its abstract tree (the pack's action tree and raise sizes) with its postflop model. Per seat: what a best-responding player in that seat gains over the seat's value under the stored strategies, in milli-big-blinds per hand and in percent of the starting pot (blinds plus antes). The mean over seats is the usual N-player exploitability (NashConv / N).";

export const EXPLOITABILITY_CAVEAT =
  "It is not exploitability against real postflop play: pots that reach the flop are settled by the solver's postflop model (equity realization), so a player who outplays that model postflop, or uses sizes outside the tree, is not measured.";

/** What the exploitability of a PLO pack stored per bucket measures, put before the caveat. */
export const BUCKETED_EXPLOITABILITY =
  "This pack stores one strategy per bucket of PLO classes, so it was solved, and its exploitability measured, in the bucketed game: the best response, like the strategies, plays one action mix per bucket. A player who adapts to each of the 16,432 classes could gain more. Measured apart on plo6hu 100bb: the 512-bucket strategy is 0.305% (SB) and 0.468% (BB) of the pot exploitable in a game of 1,024 buckets (that solve's own: 0.016%), a lower bound of what the bucketing costs against per-class play (docs/plo-abstraction.md, section Measuring the cost).";

export const getExploitability = defineTool({
  name: "get_exploitability",
  title: "Exploitability",
  description:
    "Use to judge how close a pack is to equilibrium: best-response gain per seat, with method and caveats.",
  input: { game: gameField, stack: stackField },
  variants: [ExploitabilitySchema],
  async run(args, ctx): Promise<Outcome> {
    await ctx.authorize(true);
    const game = parseGameParam(args.game);
    const stack = parseStackParam(game, args.stack);
    const { header } = await ctx.store.packSummary(game, stack);
    const p = header.provenance;
    const seats = p.exploitability ?? [];
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
    const measured = seats.length > 0;
    const value = {
      schemaVersion: 1,
      game,
      stack,
      measured,
      perSeat: seats.map((s) => ({ seat: s.seat, mbbPerHand: s.mbbPerHand, pctPot: s.pctPot })),
      summary: measured
        ? {
            maxMbbPerHand: Math.max(...seats.map((s) => s.mbbPerHand)),
            meanMbbPerHand: r(mean(seats.map((s) => s.mbbPerHand)), 3),
            maxPctPot: Math.max(...seats.map((s) => s.pctPot)),
            meanPctPot: r(mean(seats.map((s) => s.pctPot)), 4),
          }
        : null,
      units: {
        mbbPerHand: "milli-big-blinds per hand (1000 mbb = 1bb)",
        pctPot: "percent of the starting pot (blinds plus antes)",
      },
      method: measured
        ? EXPLOITABILITY_METHOD
        : `None was measured for this pack (source: ${p.source}${p.source === "import" ? "; imported solver exports carry no best-response measurement" : ""}).`,
      caveat: header.buckets ? `${BUCKETED_EXPLOITABILITY} ${EXPLOITABILITY_CAVEAT}` : EXPLOITABILITY_CAVEAT,
      algorithm: p.algorithm,
      iterations: p.iterations,
      createdAt: p.createdAt,
    };
    return { schema: ExploitabilitySchema, value };
  },
});
