/** Bounds on the lines of a file, so that no upload can make the readers' patterns slow. */

/**
 * The longest line read, in characters. No site writes a hand-history line near this long (the longest
 * summary lines are a few hundred characters); a longer one makes its hand an error before any pattern runs
 * on it, so no upload can make a line's patterns slow.
 */
export const MAX_LINE = 2000;

/** A line as an error quotes it: trimmed, and cut to 200 characters. */
export function quoted(line: string | undefined): string {
  const text = (line ?? "").trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The index of the first line of `lines[from, to)` longer than `MAX_LINE`, or -1. */
export function overlong(lines: readonly string[], from: number, to: number): number {
  for (let k = from; k < to; k++) if (lines[k]!.length > MAX_LINE) return k;
  return -1;
}

/** The error for a line longer than `MAX_LINE`. */
export const overlongMessage = (line: string): string =>
  `this line is ${line.length} characters long; no site writes a hand-history line over ${MAX_LINE}, so the hand is not read`;
