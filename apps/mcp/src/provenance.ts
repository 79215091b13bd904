/** The provenance of a preflop pack as analysis envelopes carry it (the postflop tools' shape, same names). */

import type { PackHeader } from "@ranges/store";

export interface PreflopProvenance {
  readonly source: "solver" | "import";
  readonly algorithm: string | null;
  /** When the pack was solved (or imported). */
  readonly solvedAt: string | null;
  readonly iterations: number | null;
  readonly solveSeconds: number | null;
  /** The worst seat's best-response gain in % of the starting pot; null when none was measured. */
  readonly exploitabilityPct: number | null;
  readonly exploitabilityNote: string;
}

export function packProvenance(header: PackHeader): PreflopProvenance {
  const p = header.provenance;
  const seats = p.exploitability ?? [];
  return {
    source: p.source,
    algorithm: p.algorithm,
    solvedAt: p.createdAt,
    iterations: p.iterations,
    solveSeconds: p.solveSeconds,
    exploitabilityPct: seats.length > 0 ? Math.max(...seats.map((s) => s.pctPot)) : null,
    exploitabilityNote:
      seats.length > 0
        ? "largest best-response gain over the seats, in % of the starting pot, on the solver's abstract tree (get_exploitability has the method)"
        : "none was measured for this pack",
  };
}
