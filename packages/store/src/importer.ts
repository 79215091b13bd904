/**
 * Importer for MonkerSolver-style range folders (docs/importing.md).
 *
 * One file per action line, named by its dot-joined raise-size codes: `0.0.40060.rng` is UTG fold, HJ fold,
 * CO raises 60% of the pot. The file holds the frequency (and optionally the EV) of that last action for
 * each hand at its node, as alternating lines:
 *
 *   AKs
 *   0.75;1.234
 *   AKo
 *   0.5
 *
 * The import either returns a complete PackData or throws a RangesError that names the file and line; it
 * writes nothing (pass the result to `writePack`).
 */

import type { Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import {
  GAMES,
  type GameId,
  HOLDEM_CLASS_COUNT,
  HOLDEM_CLASSES,
  isKnownCode,
  PLO_CLASS_COUNT,
  parseHand,
  parsePath,
  ploClasses,
  RangesError,
} from "@ranges/core";
import type { OpenSize, Unverified } from "@ranges/schema";
import { finalTokens, type LineAction, LineReplay } from "./line.js";
import {
  PACK_FORMAT,
  PACK_FORMAT_VERSION,
  type PackAction,
  type PackConfig,
  type PackData,
  type PackNode,
} from "./pack-types.js";
import { parseGameParam, parseStackParam } from "./params.js";

export interface ImportOptions {
  readonly game: GameId;
  /** Starting stack of every seat in bb. */
  readonly stack: number;
  /** Import time written to the header (default: now). */
  readonly now?: Date;
  /** Factor from the files' EV unit to small blinds (default 1: the files hold EVs in sb; 2 for bb). */
  readonly evScale?: number;
}

/** How far a class's frequencies at one node may sum above 1 before the node is rejected. */
const SUM_TOLERANCE = 1e-3;
const CODE = /^(?:0|[1-9]\d*)$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const KIND_ORDER: Record<LineAction["kind"], number> = { fold: 0, call: 1, raise: 2, allin: 3 };

function fail(file: string, line: number | null, message: string): never {
  const at = line === null ? file : `${file}:${line}`;
  throw new RangesError("invalid_parameter", `${at}: ${message}`, {
    file,
    ...(line === null ? {} : { line }),
  });
}

interface LineFile {
  readonly name: string;
  readonly codes: readonly number[];
  readonly key: string;
  readonly nodeKey: string;
}

interface ParsedFile {
  readonly freqs: Float32Array;
  readonly evs: Float32Array;
  /** Line numbers of each class given (its hand line, its frequency line), for messages. */
  readonly lineOf: Map<number, number>;
  readonly freqLineOf: Map<number, number>;
  readonly scored: boolean;
}

function parseFile(
  game: GameId,
  file: string,
  text: string,
  classCount: number,
  evScale: number,
): ParsedFile {
  const freqs = new Float32Array(classCount);
  const evs = new Float32Array(classCount).fill(Number.NaN);
  const lineOf = new Map<number, number>();
  const freqLineOf = new Map<number, number>();
  let scored = false;
  const lines = text
    .split(/\r?\n/)
    .map((t, i) => ({ text: t.trim(), line: i + 1 }))
    .filter((l) => l.text !== "");
  for (let i = 0; i < lines.length; i += 2) {
    const hand = lines[i]!;
    const value = lines[i + 1];
    let ref: { name: string; index: number };
    try {
      ref = parseHand(game, hand.text);
    } catch {
      fail(file, hand.line, `"${hand.text}" is not a hand class of ${game} (nor cards that map to one).`);
    }
    const first = lineOf.get(ref.index);
    if (first !== undefined) {
      fail(file, hand.line, `"${hand.text}" is the class ${ref.name}, already given at line ${first}.`);
    }
    if (value === undefined) fail(file, hand.line, `the hand "${hand.text}" has no frequency line after it.`);
    const fields = value.text.split(";").map((f) => f.trim());
    const freqText = fields[0]!;
    if (fields.length > 2)
      fail(file, value.line, `expected "frequency" or "frequency;EV", got "${value.text}".`);
    const freq = NUMBER.test(freqText) ? Number(freqText) : Number.NaN;
    if (!(freq >= 0 && freq <= 1)) {
      fail(file, value.line, `the frequency "${freqText}" of ${ref.name} is not a number in [0, 1].`);
    }
    const evText = fields[1] ?? "";
    if (evText !== "") {
      const ev = NUMBER.test(evText) ? Number(evText) : Number.NaN;
      if (!Number.isFinite(ev)) fail(file, value.line, `the EV "${evText}" of ${ref.name} is not a number.`);
      evs[ref.index] = ev * evScale;
      scored = true;
    }
    freqs[ref.index] = freq;
    lineOf.set(ref.index, hand.line);
    freqLineOf.set(ref.index, value.line);
  }
  return { freqs, evs, lineOf, freqLineOf, scored };
}

function listLineFiles(folder: string, entries: Dirent[]): LineFile[] {
  const files: LineFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(".rng")) continue;
    const parts = entry.name.slice(0, -4).split(".");
    const codes = parts.map((p) => {
      if (!CODE.test(p) || !isKnownCode(Number(p))) {
        fail(
          entry.name,
          null,
          `"${p}" is not a raise-size code (0 fold, 1 call, 3 all-in, 5 min-raise, 14 raise-to 1.5bb, 40000+pct) in ${folder}.`,
        );
      }
      return Number(p);
    });
    files.push({ name: entry.name, codes, key: codes.join("."), nodeKey: codes.slice(0, -1).join(".") });
  }
  return files;
}

const compareLines = (a: readonly number[], b: readonly number[]): number => {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
};

/** Reads a MonkerSolver-style folder into PackData for `writePack`. Throws RangesError naming file and line. */
export async function importMonker(folder: string, options: ImportOptions): Promise<PackData> {
  const game = parseGameParam(options.game);
  const stack = parseStackParam(game, options.stack);
  const info = GAMES[game];
  const evScale = options.evScale ?? 1;
  if (!(Number.isFinite(evScale) && evScale > 0)) {
    throw new RangesError("invalid_parameter", `evScale must be a positive number, got ${evScale}.`);
  }
  const omaha = info.classSet === "plo16432";
  const classCount = omaha ? PLO_CLASS_COUNT : HOLDEM_CLASS_COUNT;
  const className = (c: number): string => (omaha ? ploClasses()[c]! : HOLDEM_CLASSES[c]!);

  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    throw new RangesError(
      "invalid_parameter",
      `Cannot read the folder ${folder}: ${(error as Error).message}`,
    );
  }
  const files = listLineFiles(folder, entries).sort((a, b) => compareLines(a.codes, b.codes));
  if (files.length === 0) throw new RangesError("invalid_parameter", `${folder} holds no .rng files.`);

  // The files must form a tree: every line's parent line has a file, every node has two or more actions.
  const byKey = new Map(files.map((f) => [f.key, f]));
  const nodes = new Map<string, LineFile[]>();
  for (const f of files) {
    if (f.codes.length > 1 && !byKey.has(f.nodeKey)) {
      fail(
        f.name,
        null,
        `the line before it has no file (${f.nodeKey}.rng is missing): every action line needs the file of the action that leads to its node.`,
      );
    }
    const group = nodes.get(f.nodeKey) ?? [];
    group.push(f);
    nodes.set(f.nodeKey, group);
  }
  if (!nodes.has(""))
    throw new RangesError("invalid_parameter", `${folder} has no root action files (e.g. 0.rng).`);

  const tokenOf = new Map<string, string>();
  const historyOf = new Map<string, string>();
  const built: Array<{ key: string; codes: number[]; node: PackNode; files: LineFile[] }> = [];
  const fileData = new Map<string, ParsedFile>();
  let anyScored = false;

  for (const [nodeKey, group] of nodes) {
    const first = group[0]!;
    if (group.length < 2) {
      fail(
        first.name,
        null,
        `its node has no sibling files: a decision needs the file of each of its actions (at least two), but only ${first.name} exists for this node.`,
      );
    }
    const prefix = first.codes.slice(0, -1);
    let line: LineReplay;
    try {
      line = LineReplay.of(game, stack, prefix);
    } catch (error) {
      fail(first.name, null, `the line before it cannot be played: ${(error as Error).message}.`);
    }
    const actor = line.actor;
    if (actor === null)
      fail(first.name, null, "the betting is already closed before this action, so no seat acts.");
    const described = group.map((f) => {
      try {
        return line.describe(f.codes.at(-1)!);
      } catch (error) {
        return fail(f.name, null, `${actor} cannot take this action: ${(error as Error).message}.`);
      }
    });
    const final = finalTokens(game, described);
    if ("clash" in final) {
      const [a, b] = final.clash.map((code) => group.find((f) => f.codes.at(-1) === code)!.name);
      fail(
        b!,
        null,
        `it gives the same action token as ${a} at one node (${info.variant === "omaha" ? "two all-ins" : `${game} holds one size per raise depth`}).`,
      );
    }
    const history =
      nodeKey === ""
        ? actor
        : `${historyOf.get(prefix.slice(0, -1).join("."))!}_${tokenOf.get(nodeKey)!}_${actor}`;
    try {
      const parsed = parsePath(game, history);
      if (parsed.kind !== "node" || parsed.actor !== actor) throw new Error(`it ends in ${parsed.actor}`);
    } catch (error) {
      fail(
        first.name,
        null,
        `its node "${history}" is not a valid path of ${game}: ${(error as Error).message}`,
      );
    }
    historyOf.set(nodeKey, history);
    group.forEach((f, i) => {
      tokenOf.set(f.key, final.tokens[i]!);
    });

    const actions: Array<PackAction & { order: number }> = [];
    for (let i = 0; i < group.length; i++) {
      const f = group[i]!;
      let text: string;
      try {
        text = await readFile(join(folder, f.name), "utf8");
      } catch (error) {
        fail(f.name, null, `cannot be read: ${(error as Error).message}`);
      }
      const parsed = parseFile(game, f.name, text, classCount, evScale);
      fileData.set(f.key, parsed);
      anyScored ||= parsed.scored;
      const d = described[i]!;
      actions.push({
        code: d.code,
        token: final.tokens[i]!,
        kind: d.kind,
        sizeBb: d.sizeBb,
        sizePctPot: d.sizePctPot,
        ...(d.sizeReason === undefined ? {} : { sizeReason: d.sizeReason }),
        freqs: parsed.freqs,
        evs: parsed.evs,
        order: KIND_ORDER[d.kind],
      });
    }
    checkSums(group, fileData, classCount, className);
    actions.sort((a, b) => a.order - b.order || (a.sizeBb ?? 0) - (b.sizeBb ?? 0) || a.code - b.code);
    built.push({
      key: nodeKey,
      codes: prefix,
      files: group,
      node: { history, actor, depth: line.depth, actions: actions.map(({ order: _, ...a }) => a) },
    });
  }

  const withEvs = info.hasEvs && anyScored;
  const packNodes = built
    .sort((a, b) => compareLines(a.codes, b.codes))
    .map(({ node }) => ({
      ...node,
      actions: node.actions.map((a) => ({ ...a, evs: withEvs ? a.evs : null })),
    }));
  const now = (options.now ?? new Date()).toISOString();
  const notes = [`Imported from the MonkerSolver-style folder ${basename(folder)} (${files.length} files).`];
  if (anyScored && !info.hasEvs) notes.push(`EVs in the files were dropped: ${game} stores no EVs.`);
  if (withEvs && evScale !== 1) notes.push(`File EVs were multiplied by ${evScale} to give small blinds.`);
  return {
    header: {
      format: PACK_FORMAT,
      formatVersion: PACK_FORMAT_VERSION,
      game,
      stack,
      classSet: info.classSet,
      classCount,
      evUnit: withEvs ? "sb" : null,
      config: importConfig(game, stack, packNodes, now),
      provenance: {
        source: "import",
        algorithm: null,
        iterations: null,
        exploitability: null,
        seed: null,
        model: null,
        solveSeconds: null,
        createdAt: now,
        treeConfig: null,
        notes,
      },
    },
    nodes: packNodes,
  };
}

function checkSums(
  group: LineFile[],
  data: Map<string, ParsedFile>,
  classCount: number,
  className: (c: number) => string,
): void {
  for (let c = 0; c < classCount; c++) {
    let sum = 0;
    for (const f of group) sum += data.get(f.key)!.freqs[c]!;
    if (sum > 1 + SUM_TOLERANCE) {
      const lines = group
        .filter((f) => data.get(f.key)!.lineOf.has(c))
        .map((f) => `${f.name}:${data.get(f.key)!.freqLineOf.get(c)}`);
      const lastFile = [...group].reverse().find((f) => data.get(f.key)!.lineOf.has(c))!;
      fail(
        lastFile.name,
        data.get(lastFile.key)!.freqLineOf.get(c)!,
        `the frequencies of ${className(c)} at this node sum to ${Math.round(sum * 1e6) / 1e6}, above 1 (${lines.join(", ")}).`,
      );
    }
  }
}

const labelOf = (a: PackAction, stack: number): OpenSize =>
  a.kind === "allin"
    ? { label: "all-in", sizeBb: a.sizeBb ?? stack }
    : { label: `${Math.round((a.sizeBb ?? 0) * 100) / 100}x`, sizeBb: a.sizeBb };

function importConfig(game: GameId, stack: number, nodes: readonly PackNode[], now: string): PackConfig {
  const info = GAMES[game];
  const unverified: Unverified[] = [];
  const byHistory = new Map(nodes.map((n) => [n.history, n]));
  const firstIn = (history: string): PackAction | undefined => {
    const node = byHistory.get(history);
    return (
      node?.actions.find((a) => a.kind === "raise") ??
      node?.actions.find((a) => a.kind === "allin") ??
      undefined
    );
  };
  let openSizes: PackConfig["openSizes"] = null;
  if (game === "nlmtt8") {
    const seats = info.seats;
    const open = firstIn(seats[0]!);
    const sbHistory = [...seats.slice(0, -2).flatMap((s) => [s, "Fold"]), "SB"].join("_");
    const sb = firstIn(sbHistory);
    if (open && sb) {
      openSizes = {
        open: labelOf(open, stack),
        sb: labelOf(sb, stack),
        note: "Derived from the imported tree's first-in raises; labels are the decoded raise-to in bb.",
      };
    } else {
      unverified.push({
        field: "openSizes",
        reason: "the imported tree has no first-in raise for UTG or SB",
      });
    }
  } else {
    unverified.push({ field: "openSizes", reason: "open sizes are listed for nlmtt8 only" });
  }
  const stackIncludesAnte = info.ante > 0 ? true : null;
  if (stackIncludesAnte === null)
    unverified.push({ field: "stackIncludesAnte", reason: `${game} has no ante` });
  unverified.push({
    field: "rake",
    reason:
      "Imported solver exports do not record the rake they were solved with; null here does not mean no rake.",
  });
  const sizes: string[] = [];
  for (const node of nodes) {
    for (const a of node.actions) {
      let label: string | null = null;
      if (a.kind === "allin") label = "AI";
      else if (a.kind === "raise") {
        const base = a.token.split("-")[0]!;
        const size =
          a.sizePctPot !== null ? `${a.sizePctPot}% pot` : a.code === 5 ? "min-raise" : "raise-to 1.5bb";
        label = info.tokenStyle === "percent" ? size : `${base} ${size}`;
      }
      if (label !== null && !sizes.includes(label)) sizes.push(label);
    }
  }
  return {
    seats: [...info.seats],
    stacks: info.seats.map(() => stack),
    blinds: { sb: 0.5, bb: 1 },
    ante: info.ante,
    antePostedBy: info.antePostedBy,
    stackIncludesAnte,
    treeSizes: sizes,
    openSizes,
    rake: null,
    importedAt: now,
    unverified,
  };
}
