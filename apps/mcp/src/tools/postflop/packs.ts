/** list_postflop_packs' envelope (shared with the HTTP API): the installed packs, their lines and boards. */

import type { ToolEnvelope } from "@ranges/schema";
import { r4 } from "../../round.js";
import { envelope, POSTFLOP_UNITS, type PostflopSource, packContext } from "./common.js";

export function listPostflopPacks(source: PostflopSource): ToolEnvelope {
  const packs = source ? source.list() : [];
  const rows = packs.map((p) => {
    if (!p.pack) return { pack: p.id, available: false, error: p.error };
    const h = p.pack.header;
    const ex = h.boards.map((b) => b.provenance.exploitabilityPct);
    return {
      pack: h.id,
      available: true,
      ...packContext(p.pack),
      ranges: h.ranges,
      boardsSolved: h.boards.length,
      boards: h.boards.map((b) => b.board),
      nodesPerBoard: h.nodes.length,
      exploitabilityPct:
        ex.length > 0
          ? {
              max: Math.max(...ex),
              mean: r4(ex.reduce((s, x) => s + x, 0) / ex.length),
              targetPct: h.solver.targetPct,
            }
          : null,
      solver: h.solver.algorithm,
      checksum: p.pack.checksum,
    };
  });
  const warnings = rows.length === 0 ? ["No postflop pack is installed on this server yet."] : [];
  return envelope(
    "exact",
    {
      tool: "list_postflop_packs",
      units: POSTFLOP_UNITS,
      turnAndRiver:
        'Packs store every decision of the first street (the flop) of each solved board for every combo. A path that goes on with the turn card (["check", "check", "7c", ...]) and then the river card is answered by solving that street on demand from the ranges the flop solve reaches it with (to 0.5% of its pot, a few seconds, then kept): coverage.status exact, with context.solve giving what was solved and its exploitability.',
    },
    { packs: rows, count: rows.length },
    warnings,
  );
}
