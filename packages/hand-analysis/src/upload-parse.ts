/**
 * What the parse thread does with an uploaded text: parse every hand (PokerStars and GGPoker, mixed), work
 * out the all-in adjustment with the solver's equity code, summarize, and make the rows the hand store
 * keeps. Runs in `parse-thread.ts`; importing it loads the solver's evaluator tables (about 16 MB), which
 * is why the servers never import it themselves.
 */

import type { HandRow } from "@ranges/access";
import { type Hand, type HandParseError, parseHandHistories } from "@ranges/hand-history";
import { allInAdjustment } from "./equity.js";
import { heroOf, rowOf, summarizeHand } from "./summarize.js";

/** Parse errors kept per upload (the count is always whole). */
export const MAX_ERRORS_KEPT = 20;

export interface ParsedUpload {
  rows: HandRow[];
  /** Hands read, hands whose hero is known, and hands that could not be read. */
  hands: number;
  withHero: number;
  errors: number;
  /** The first errors, with their line in the text. */
  errorSamples: HandParseError[];
  /** What the uploader should know: a `hero` found in no hand, bounty tournaments not compared. */
  warnings: string[];
  /** Milliseconds the parse and the equity work took. */
  parseMs: number;
  equityMs: number;
}

/**
 * Milliseconds of all-in equity work one upload may take on the shared parse thread: past it, the
 * remaining all-ins are stored unadjusted with a note (their results stay as played). A 3-way preflop
 * all-in takes about 7 ms (Monte Carlo), a flop or turn all-in less: a thousand all-ins fit easily, and
 * a file of pathological ones cannot hold the thread shared by every upload for longer than this.
 */
export const EQUITY_BUDGET_MS = 10_000;

export function parseUpload(
  text: string,
  hero: string | null,
  o: { equityBudgetMs?: number } = {},
): ParsedUpload {
  const budget = o.equityBudgetMs ?? EQUITY_BUDGET_MS;
  const t0 = performance.now();
  const { hands, errors } = parseHandHistories(text);
  const t1 = performance.now();
  const rows: HandRow[] = [];
  let withHero = 0;
  let equityMs = 0;
  for (const hand of hands) {
    const who = heroOf(hand, hero);
    if (who !== null) withHero++;
    const e0 = performance.now();
    const allIn = allInAdjustment(hand, who, equityMs >= budget);
    equityMs += performance.now() - e0;
    rows.push(
      rowOf(summarizeHand(hand, { hero, allIn: { adjustment: allIn.adjustment, note: allIn.note } }), hand),
    );
  }
  return {
    rows,
    hands: hands.length,
    withHero,
    warnings: uploadWarnings(hands, hero),
    errors: errors.length,
    errorSamples: errors.slice(0, MAX_ERRORS_KEPT),
    parseMs: Math.round(t1 - t0),
    equityMs: Math.round(equityMs),
  };
}

/** Warnings for the uploader, in words a player understands. */
export function uploadWarnings(hands: readonly Hand[], hero: string | null): string[] {
  const warnings: string[] = [];
  if (hero !== null && hands.length > 0) {
    const names = new Set<string>();
    for (const h of hands) for (const p of h.players) names.add(p.name);
    if (!names.has(hero)) {
      const lower = hero.toLowerCase();
      const near = [...names].find((n) => n.toLowerCase() === lower);
      warnings.push(
        `hero "${hero}" is not a player in any of the ${hands.length} hands read, so it named no hero` +
          (near
            ? `; did you mean "${near}" (names are case-sensitive)?`
            : ": give your screen name exactly as the histories write it.") +
          ' Hands with a "Dealt to" line still have theirs.',
      );
    }
  }
  const knockout = hands.filter((h) => h.tournament?.knockout).length;
  if (knockout > 0) {
    warnings.push(
      `${knockout} ${knockout === 1 ? "hand is" : "hands are"} from bounty (PKO, knockout) tournaments: stored and counted in your results, but not compared with an equilibrium (only the chip-EV tournament set nlmtt8 is published; bounties change the ranges).`,
    );
  }
  return warnings;
}
