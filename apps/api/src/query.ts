/**
 * Strict query-string parsing. The raw query is split by hand (not URLSearchParams) so path-like values can
 * be checked before decoding: an unencoded `%` in `history`, `spot` or `hand` is a 400 that says to send
 * `%25`. Repeated and unknown parameters are 400s too: a silently ignored typo (`minfreq=0.1`) would return
 * a different answer than the caller asked for.
 */

import { assertPercentEncoded, RangesError } from "@ranges/core";
import { clip } from "./errors.js";

/** Parameters whose values are action paths or hand classes, checked raw for stray `%`. */
const RAW_CHECKED = new Set(["history", "spot", "hand"]);

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});

function decode(name: string, raw: string, what: "name" | "value"): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new RangesError(
      "invalid_parameter",
      what === "name"
        ? "A query parameter name is not valid percent-encoding."
        : `The ${name} parameter is not valid percent-encoding: send "%" as "%25", "(" as "%28" and ")" as "%29".`,
      { parameter: name },
    );
  }
}

/**
 * Parses `querystring` (without the `?`) into decoded values, allowing only `allowed` names, each at most
 * once. Empty segments (`a=1&&b=2`, a trailing `&`) are ignored; a name without `=` has the value "".
 */
export function parseQuery(querystring: string, allowed: readonly string[]): Record<string, string> {
  if (querystring.length === 0) return EMPTY;
  const out: Record<string, string> = Object.create(null);
  for (const part of querystring.split("&")) {
    if (part.length === 0) continue;
    const eq = part.indexOf("=");
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? "" : part.slice(eq + 1);
    const name = rawName.includes("%") ? decode("", rawName, "name") : rawName;
    if (!allowed.includes(name)) {
      const shown = clip(name);
      throw new RangesError(
        "invalid_parameter",
        allowed.length === 0
          ? `Unknown query parameter "${shown}": this endpoint takes no parameters.`
          : `Unknown query parameter "${shown}": this endpoint takes ${allowed.join(", ")} (names are case-sensitive).`,
        { parameter: shown, allowed: [...allowed] },
      );
    }
    if (name in out) {
      throw new RangesError(
        "invalid_parameter",
        `The ${name} parameter is given more than once; send it once.`,
        {
          parameter: name,
        },
      );
    }
    if (RAW_CHECKED.has(name)) assertPercentEncoded(name, rawValue);
    out[name] = rawValue.includes("%") ? decode(name, rawValue, "value") : rawValue;
  }
  return out;
}
