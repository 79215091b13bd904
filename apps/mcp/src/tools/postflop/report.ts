/**
 * get_board_report's envelope (shared with the HTTP API): one flop decision across the solved boards that
 * match texture filters, per board and aggregated, with the provenance of the boards analyzed.
 */

import {
  type BoardData,
  type BoardEntry,
  boardTexture,
  lookupPath,
  type PostflopPackFile,
  parseBoard,
  splitPath,
  TEXTURE_VALUES,
} from "@ranges/postflop";
import type { ToolEnvelope } from "@ranges/schema";
import { invalidParameter } from "../../errors.js";
import { r3, r4 } from "../../round.js";
import {
  envelope,
  POSTFLOP_UNITS,
  type PostflopSource,
  packContext,
  packsOf,
  scopeGaps,
  unsupported,
} from "./common.js";
import { actionView, weighted } from "./views.js";

export interface ReportArgs {
  readonly pack: string;
  readonly path?: string | readonly string[] | undefined;
  readonly filters?:
    | {
        readonly pairedness?: string | undefined;
        readonly suitTexture?: string | undefined;
        readonly connectivity?: string | undefined;
        readonly highCardClass?: string | undefined;
      }
    | undefined;
  readonly players?: number | undefined;
  readonly format?: string | undefined;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z]/g, "");

/**
 * Reads the boards of a report's pack one per turn of the event loop, so that `boardReport` (synchronous, as
 * the HTTP API calls it) finds them decoded: a report reads up to every solved board of the pack, tens of
 * milliseconds each, which would otherwise hold the event loop for all of them at once. Errors are left to
 * `boardReport`, which reports them.
 */
export async function readBoardsInTurns(source: PostflopSource, args: ReportArgs): Promise<void> {
  if (!source || scopeGaps(args).length > 0) return;
  let pack: PostflopPackFile;
  try {
    pack = source.get(args.pack);
  } catch {
    return;
  }
  for (const b of pack.header.boards) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      pack.board(b.board);
    } catch {
      // Listed as unavailable by the report.
    }
  }
}

export function boardReport(source: PostflopSource, args: ReportArgs): ToolEnvelope {
  const request = { ...args };
  const gaps = scopeGaps(args);
  if (gaps.length > 0) return unsupported("get_board_report", request, gaps, source);
  const pack = packsOf(source).get(args.pack);
  const filters: Record<string, string> = {};
  for (const [key, values] of Object.entries(TEXTURE_VALUES)) {
    const raw = (args.filters as Record<string, string | undefined> | undefined)?.[key];
    if (raw === undefined || raw.trim() === "" || norm(raw) === "any") continue;
    const hit = (values as readonly string[]).find((v) => norm(v) === norm(raw));
    if (!hit)
      throw invalidParameter(
        `filters.${key} "${raw}" is not a value of ${key}; use one of ${values.join(", ")} (or leave it out).`,
        { allowed: [...values] },
      );
    filters[key] = hit;
  }
  const steps = splitPath(args.path ?? []);
  const path = lookupPath(pack, steps);
  if (path.kind !== "node") {
    const node = pack.header.nodes[path.node]!;
    if (path.kind === "beyond")
      return unsupported(
        "get_board_report",
        request,
        [
          {
            topic: "turn_river_nodes",
            detail: `The path goes past the ${pack.header.street} ("${node.actions[path.action]!.label}" ends its betting). Board reports aggregate the stored ${pack.header.street} decisions of every solved board; a later street is solved on demand for one board and card at a time, so no report is made across boards for it. Ask get_postflop_node for one board with the card in the path.`,
          },
        ],
        source,
      );
    throw invalidParameter(
      `The path ends in "${node.actions[path.action]!.label}", which ends the ${pack.header.street}'s betting; get_board_report takes a path to a ${pack.header.street} decision.`,
      { validActions: node.actions.map((a) => a.label) },
    );
  }
  const node = pack.header.nodes[path.node]!;
  const q = node.player === "oop" ? 0 : 1;
  const matched = pack.header.boards.filter((b) => {
    const t = boardTexture(parseBoard(b.board)!) as unknown as Record<string, string>;
    return Object.entries(filters).every(([key, v]) => t[key] === v);
  });
  const rows: Record<string, unknown>[] = [];
  const analyzedProvenance: BoardEntry["provenance"][] = [];
  const unavailable: { board: string; reason: string }[] = [];
  const sums = node.actions.map(() => 0);
  const evSums = node.actions.map(() => 0);
  const evCounts = node.actions.map(() => 0);
  for (const b of matched) {
    let data: BoardData;
    try {
      data = pack.board(b.board);
    } catch (error) {
      unavailable.push({ board: b.board, reason: (error as Error).message.replace(`${pack.path}: `, "") });
      continue;
    }
    const d = data.nodes[path.node]!;
    const reach = d.reach[q]!;
    const freqs = node.actions.map((_, i) => weighted(reach, (h) => d.strategy[i]![h]!) ?? 0);
    const evs = node.actions.map((_, i) =>
      weighted(reach, (h) => d.actionEv[i]![h]! * (d.strategy[i]![h]! > 0 ? 1 : Number.NaN)),
    );
    freqs.forEach((f, i) => {
      sums[i]! += f;
      const e = evs[i];
      if (e !== null && e !== undefined && Number.isFinite(e)) {
        evSums[i]! += e;
        evCounts[i]!++;
      }
    });
    analyzedProvenance.push(b.provenance);
    rows.push({
      board: b.board,
      texture: boardTexture(parseBoard(b.board)!),
      frequencies: Object.fromEntries(node.actions.map((a, i) => [a.label, r4(freqs[i]!)])),
      exploitabilityPct: b.provenance.exploitabilityPct,
    });
  }
  const analyzed = rows.length;
  if (matched.length === 0) {
    return unsupported(
      "get_board_report",
      request,
      [
        {
          topic: "no_matching_boards",
          detail: `No solved board of pack ${pack.header.id} matches ${JSON.stringify(filters)} (${pack.header.boards.length} boards solved: ${pack.header.boards.map((b) => b.board).join(", ")}).`,
        },
      ],
      source,
    );
  }
  const aggregate = node.actions.map((a, i) => ({
    action: a.label,
    kind: a.kind,
    compareKey: actionView(node)[i]!.compareKey,
    frequency: analyzed > 0 ? r4(sums[i]! / analyzed) : null,
    evBb: evCounts[i]! > 0 ? r3(evSums[i]! / evCounts[i]!) : null,
  }));
  const warnings =
    unavailable.length > 0
      ? [`${unavailable.length} matched boards could not be read and are left out.`]
      : [];
  return envelope(
    "aggregated_report",
    {
      tool: "get_board_report",
      ...packContext(pack),
      path: node.path,
      actor: node.player,
      filters,
      weighting:
        "every analyzed board weighs equally; per board, the actor's frequencies are weighted by each combo's reach",
      units: POSTFLOP_UNITS,
      provenance: reportProvenance(analyzedProvenance),
    },
    {
      counts: {
        solved: pack.header.boards.length,
        matched: matched.length,
        analyzed,
        unavailable: unavailable.length,
      },
      aggregate,
      boards: rows,
      unavailable,
    },
    warnings,
  );
}

/** The provenance of the boards a report analyzed: when they were solved, iterations, time, exploitability. */
function reportProvenance(boards: readonly BoardEntry["provenance"][]): Record<string, unknown> | null {
  if (boards.length === 0) return null;
  const times = boards.map((p) => p.solvedAt).sort();
  const iterations = boards.map((p) => p.iterations);
  const seconds = boards.map((p) => p.seconds);
  const ex = boards.map((p) => p.exploitabilityPct);
  return {
    boards: boards.length,
    solvedAt: { first: times[0], last: times[times.length - 1] },
    iterations: { min: Math.min(...iterations), max: Math.max(...iterations) },
    solveSeconds: { total: r3(seconds.reduce((a, b) => a + b, 0)), max: Math.max(...seconds) },
    exploitabilityPct: { max: Math.max(...ex), mean: r4(ex.reduce((a, b) => a + b, 0) / ex.length) },
    exploitabilityNote:
      "percent of the pot at the start of the street, per analyzed board, measured by an exact best response on the solved tree",
  };
}
