/**
 * What an error may not show, by the API's rules (apps/api/src/errors.ts): request input is repeated as at
 * most `ECHO_LIMIT` characters (then `…`), server file paths not at all.
 *
 * The messages come from @ranges/core and @ranges/store, from the zod input schemas and from the MCP SDK
 * (`Tool <name> not found`), and quote what they were given. `inputs` are the strings of the request (tool
 * arguments, names and values, at any depth); their long occurrences are cut wherever they appear. `roots`
 * are directories whose paths are written relative (the packs directory: a pack is named by its file,
 * `nl-v2/100.pack`); what is left in the shape of a system error's quoted path keeps its file name only.
 */

import { homedir, tmpdir } from "node:os";
import { basename, resolve } from "node:path";

/** The most characters of request input an error message repeats. */
export const ECHO_LIMIT = 40;

/** `text` cut to `max` characters plus an ellipsis (never splitting a surrogate pair). */
export function clip(text: string, max = ECHO_LIMIT): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return `${text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)}…`;
}

export interface Redaction {
  readonly inputs?: readonly string[];
  readonly roots?: readonly string[];
}

/** Directories written relative in every error: the working directory, home and the temp directory. */
const PROCESS_ROOTS = [process.cwd(), homedir(), tmpdir()];

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** At most this many strings are collected from one request (a body is at most 1 MiB). */
const MAX_INPUTS = 1000;

/**
 * The long strings of a request (keys and values at any depth, and their path tokens), longest first, so a
 * value is cut before a shorter string inside it is looked for. Percent-encoded paths are also looked for
 * decoded, as the tools decode them.
 */
export function requestInputs(value: unknown): string[] {
  const out = new Set<string>();
  const add = (s: string) => {
    if (out.size >= MAX_INPUTS) return;
    for (const form of [s, s.trim(), decoded(s.trim())]) {
      if (form.length <= ECHO_LIMIT) continue;
      out.add(form);
      for (const part of form.split(/[/_\s,]/)) if (part.length > ECHO_LIMIT) out.add(part);
    }
  };
  const walk = (v: unknown, depth: number) => {
    if (typeof v === "string") add(v);
    else if (depth > 16 || v === null || typeof v !== "object") return;
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else {
      for (const [k, x] of Object.entries(v)) {
        add(k);
        walk(x, depth + 1);
      }
    }
  };
  walk(value, 0);
  return [...out].sort((a, b) => b.length - a.length);
}

function decoded(s: string): string {
  if (!s.includes("%")) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function withoutRoots(text: string, roots: readonly string[]): string {
  let out = text;
  for (const root of roots) {
    if (root.length <= 1 || !out.includes(root)) continue;
    out = out.replace(new RegExp(`${escapeRegExp(root)}(/|(?=['"\\s),:;]|$))`, "g"), (_, slash: string) =>
      slash === "/" ? "" : ".",
    );
  }
  // Anything left in the shape of a system error's path ("open '/srv/x/20.pack'"): its file name only.
  return out.replace(/'\/[^'\s]*'/g, (quoted) => `'${basename(quoted.slice(1, -1))}'`);
}

/**
 * Long quoted spans (the usual echo of input: `"<value>" is not a ...`) cut to `ECHO_LIMIT`. A span opens
 * after a space or a bracket and closes before one or before punctuation, so the text between two quoted
 * words (`"a": takes x, y, z ... "b"`) is never taken for one.
 */
const QUOTED = /(^|[\s([{])"([^"\n]{41,})"(?=$|[\s.,:;!?)\]}])/g;
const clipQuoted = (text: string): string =>
  text.replace(QUOTED, (_, pre: string, inner: string) => `${pre}"${clip(inner)}"`);

/** A compiled redaction: `text` with long inputs cut and server paths made relative. */
export type Redactor = (text: string) => string;

export function redactor(r: Redaction = {}): Redactor {
  const inputs = [...new Set(r.inputs ?? [])].filter((s) => s.length > ECHO_LIMIT);
  inputs.sort((a, b) => b.length - a.length);
  const roots = [...new Set([...(r.roots ?? []).map((p) => resolve(p)), ...PROCESS_ROOTS])];
  roots.sort((a, b) => b.length - a.length);
  return (text) => {
    let out = clipQuoted(text);
    // Input that holds quotes itself escapes the quote rule; every long input string is cut wherever it is.
    for (const input of inputs) {
      if (out.includes(input)) out = out.split(input).join(clip(input));
    }
    return withoutRoots(out, roots);
  };
}
