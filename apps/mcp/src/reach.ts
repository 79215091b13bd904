/** The warning every node result carries when its line is never reached under the published strategies. */

/** Warning text for a node (or the node of a range) whose reach is 0. */
export const UNREACHED_WARNING =
  "This line is never reached when every seat follows the published strategies (reach 0); its strategy comes from the solve's tremble (every action kept at a small probability while iterating), not an equilibrium frequency, and a hand may play below its best EV here: compare the EVs.";

/**
 * The warnings for a result with this reach: one when it is exactly 0, none otherwise. `label` prefixes the
 * text when a result holds several nodes (compare_strategies: "baseline", "comparison").
 */
export function reachWarnings(reach: number, label?: string): string[] {
  if (reach !== 0) return [];
  return [label === undefined ? UNREACHED_WARNING : `${label}: ${UNREACHED_WARNING}`];
}
