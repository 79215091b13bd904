/**
 * Paths into a solve whose table left seats out (`changes.dealtIn`): the caller writes only the seats that
 * play, and the folds of the others are added in front. One implementation for the HTTP API's
 * `/api/v1/solves/{id}/node|range` and the MCP tools' `solution` reads.
 */

import { GAMES, type GameId, isRangesError, RangesError, type RangesErrorHint } from "@ranges/core";

/** The seats a solve request's `changes.dealtIn` leaves out (they fold first in), in acting order. */
export function undealtSeats(game: GameId, request: unknown): string[] {
  const dealtIn = (request as { changes?: { dealtIn?: unknown } } | null)?.changes?.dealtIn;
  if (!Array.isArray(dealtIn)) return [];
  return GAMES[game].seats.filter((seat) => !dealtIn.includes(seat));
}

/**
 * A path into a solve whose table left seats out: a path that starts at a dealt seat gets the folds of the
 * seats not dealt in front of it ("SB_AI_BB" on a heads-up nl solve reads "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB_AI_BB"),
 * so the caller writes only the seats that play. A path that already starts with the first seat is unchanged.
 */
export function withUndealtFolds(path: string, undealt: readonly string[] | undefined): string {
  if (undealt === undefined || undealt.length === 0) return path;
  const first = path.split("_", 1)[0]!;
  if (undealt.includes(first)) return path;
  return `${undealt.map((seat) => `${seat}_Fold`).join("_")}_${path}`;
}

/**
 * Reads `written` with the folds of the seats not dealt in added (`withUndealtFolds`). An error of that read
 * speaks of the path as the caller wrote it: the added folds are taken out of the message and the hints
 * (`validPrefix` "UTG_Fold_HJ_Fold_CO_Fold_BTN_Fold_SB" is "SB"; the bare folds are "", or in the message
 * "the folds of the seats not dealt in"), and segment positions count from the caller's first segment.
 * Errors of a path that was read as written, and errors that are not `RangesError`s, pass unchanged.
 */
export function readWithUndealtFolds<T>(
  written: string,
  undealt: readonly string[] | undefined,
  read: (path: string) => T,
): T {
  const path = withUndealtFolds(written, undealt);
  try {
    const result = read(path);
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        throw inWrittenTerms(error, path, written);
      }) as T;
    }
    return result;
  } catch (error) {
    throw inWrittenTerms(error, path, written);
  }
}

/** `error` of a read of `path` (`written` with folds in front) in terms of `written`. */
function inWrittenTerms(error: unknown, path: string, written: string): unknown {
  if (path === written || !isRangesError(error)) return error;
  const folds = path.slice(0, path.length - written.length - 1);
  const seats = folds.split("_").filter((_, i) => i % 2 === 0);
  const shift = 2 * seats.length;
  // The folds come off only where a path starts (at the start of the text, or after a quote, a space, "=",
  // "(" or ":"), never from inside the caller's own segments.
  const escaped = folds.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const leading = new RegExp(`(?<=^|[\\s"'=(:])${escaped}_`, "g");
  const text = (s: string, bare: string): string =>
    s
      .replaceAll(`"${folds}"`, bare)
      .replace(leading, "")
      .replace(/position (\d+)/g, (whole, n: string) =>
        Number(n) > shift ? `position ${Number(n) - shift}` : whole,
      );
  const message = text(error.message, `the folds of the seats not dealt in (${seats.join(", ")})`);
  let hint: RangesErrorHint | undefined;
  if (error.hint) {
    hint = {};
    for (const [key, value] of Object.entries(error.hint)) {
      hint[key] = typeof value === "string" ? (value === folds ? "" : text(value, '""')) : value;
    }
  }
  const out = new RangesError(error.code, message, hint);
  out.stack = error.stack;
  return out;
}
