/**
 * The description of a PLO game that discovery, the catalog and the MCP documentation tools carry once the
 * game has live packs: pot-limit trees and how their raises are named, how the strategies are stored (per
 * bucket of classes, with the class-to-bucket map of the pack, or per class), and what the measured
 * exploitability of such a pack means. Everything per pack is read from the pack headers.
 */

import { PLO_CLASS_COUNT } from "@ranges/core";
import type { PloGameDoc, PloPackFacts } from "@ranges/schema";
import type { PackHeader } from "./pack-types.js";

/** Where the abstraction is documented, relative to the repository root. */
export const PLO_ABSTRACTION_DOC = "docs/plo-abstraction.md";

export const PLO_SIZING =
  "Pot-limit: no raise is larger than the pot. A raise's sizePctPot is its size in percent of the pot after calling (100 = a pot-size raise) and sizeBb its raise-to. Raises are named by betting depth (Open, 3B, 4B, 5B, ...); where a node offers several sizes of one raise, each token carries its size id, the percent of the pot (3B-75 and 3B-100), as /node and /spots list them: copy tokens, never guess them. AI appears only where a pot-size raise would reach the stack.";

const round = (x: number, places: number): number => Math.round(x * 10 ** places) / 10 ** places;

/** The facts of one PLO pack: storage, tree sizes, rake and the largest measured exploitability. */
export function ploPackFacts(stack: number, header: PackHeader): PloPackFacts {
  const seats = header.provenance.exploitability;
  const measured = seats !== null && seats.length > 0;
  const rake = header.config.rake;
  return {
    stack,
    storedPer: header.buckets ? "bucket" : "class",
    buckets: header.buckets ? header.buckets.count : null,
    treeSizes: header.config.treeSizes === null ? null : [...header.config.treeSizes],
    rake: rake ? { percent: rake.percent, capBb: rake.capBb, noFlopNoDrop: true } : null,
    exploitability: measured
      ? {
          maxMbbPerHand: round(Math.max(...seats.map((s) => s.mbbPerHand)), 4),
          maxPctPot: round(Math.max(...seats.map((s) => s.pctPot)), 5),
        }
      : null,
  };
}

const list = (xs: readonly number[]): string => xs.map((x) => `${x}bb`).join(", ");

/** What the abstraction sentence says for the packs given (bucketed, per class, or some of each). */
function abstractionText(packs: readonly PloPackFacts[]): string {
  const bucketed = packs.filter((p) => p.storedPer === "bucket");
  const perClass = packs.filter((p) => p.storedPer === "class");
  const counts = [...new Set(bucketed.map((p) => p.buckets!))].sort((a, b) => a - b);
  const parts: string[] = [];
  if (bucketed.length > 0) {
    const where = perClass.length > 0 ? ` at ${list(bucketed.map((p) => p.stack))}` : "";
    parts.push(
      `Strategies are stored per bucket${where}: ${counts.join(" or ")} buckets of the ${PLO_CLASS_COUNT.toLocaleString("en-US")} classes, grouped by preflop features (suit pattern, pairing, high cards, connectedness, danglers, all-in equity against a random hand), with one class-to-bucket map in each pack. Every class of a bucket plays the bucket's strategy and has its EV; answers still list each class.`,
    );
  }
  if (perClass.length > 0) {
    parts.push(
      `${bucketed.length > 0 ? `At ${list(perClass.map((p) => p.stack))} strategies` : "Strategies"} are stored per class: each of the ${PLO_CLASS_COUNT.toLocaleString("en-US")} classes has its own.`,
    );
  }
  return parts.join(" ");
}

function exploitabilityText(packs: readonly PloPackFacts[]): string {
  const bucketed = packs.some((p) => p.storedPer === "bucket");
  const base =
    "Measured in the solved game: what a best response of each seat gains against the stored strategies of the others, on the pack's pot-limit tree with the solver's postflop model (mbb/hand and % of the starting pot).";
  return bucketed
    ? `${base} For a pack stored per bucket the solved game is the bucketed one: the best response, like the strategies, plays one action mix per bucket. The figure says how close the strategies are to equilibrium in that game; it does not measure what bucketing costs against a player who adapts to each class, nor play after the flop beyond the model. The bucketing's cost is measured apart (docs/plo-abstraction.md): on plo6hu 100bb the 512-bucket strategy is 0.305% (SB) and 0.468% (BB) of the pot exploitable in a game of 1,024 buckets, whose own solve is 0.016%, a lower bound of the cost against per-class play.`
    : `${base} It does not measure play after the flop beyond the model.`;
}

/** The PLO description of a game from its live packs' headers; null when there are none. */
export function ploGameDoc(packs: ReadonlyArray<{ stack: number; header: PackHeader }>): PloGameDoc | null {
  if (packs.length === 0) return null;
  const facts = [...packs].sort((a, b) => a.stack - b.stack).map((p) => ploPackFacts(p.stack, p.header));
  return {
    betting: "pot-limit",
    sizing: PLO_SIZING,
    classes: PLO_CLASS_COUNT,
    abstraction: abstractionText(facts),
    abstractionDoc: PLO_ABSTRACTION_DOC,
    exploitability: exploitabilityText(facts),
    packs: facts,
  };
}
