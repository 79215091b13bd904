/**
 * The postflop part of the public JSON API as the board browser reads it: the pack list (keyless), and with
 * a key a node, a range and the board report (the texture of every solved flop). Answers are the analysis
 * envelope (`schemaVersion`, `coverage`, `context`, `result`, `warnings`).
 */

import { api } from "./api.js";

export interface Envelope<R, C = Record<string, unknown>> {
  schemaVersion: string;
  coverage: { status: "exact" | "aggregated_report" | "unsupported"; dataClass: string; objective: string };
  context: C;
  result: R;
  warnings: string[];
}

export interface PackRow {
  pack: string;
  available: boolean;
  basePack?: string;
  tree?: string;
  line?: string;
  preflop?: { game: string; stack: number; oop: string; ip: string };
  street?: string;
  potBb?: number;
  stackBb?: number;
  boards?: string[];
  error?: string;
}

export interface PfActionView {
  action: string;
  kind: string;
  amountBb: number;
  toBb: number;
  compareKey: string;
  sizePctPot: number | null;
}

export interface PfAction extends PfActionView {
  frequency: number;
  evBb: number | null;
}

export interface PfClass {
  hand: string;
  weight: number;
  frequencies: Record<string, number>;
  evBb: number | null;
}

export interface PfSolve {
  kind: string;
  street: string;
  board: string;
  potBb: number;
  stackBb: number;
  iterations: number;
  exploitabilityPct: number;
  exploitabilityNote: string;
  targetPct: number;
  reachedTarget: boolean;
  algorithm: string;
  solveSeconds: number;
}

export interface PfContext {
  pack: string;
  line: string;
  tree: string;
  preflop: { oop: string; ip: string };
  board: string;
  solvedBoard: string;
  nodeStreet: string;
  dealt?: string[];
  path: string[];
  actor: "oop" | "ip";
  actorSeat: string;
  nodePotBb: number;
  /** The stack behind at the start of the pack's street (the flop). */
  stackBb: number;
  suitMapping?: string;
  provenance: {
    iterations: number;
    exploitabilityPct: number | null;
    exploitabilityNote?: string;
    solveSeconds?: number;
  };
  solve?: PfSolve;
}

export interface PfComboStrategy {
  combo: string;
  reach: number;
  strategy: { action: string; frequency: number; evBb: number | null }[];
  evBb: number | null;
  equity: number | null;
}

export interface PfNode {
  actions: PfAction[];
  classes: PfClass[];
  /** With the `combo` parameter: that combo's frequency and EV per action. */
  combo?: PfComboStrategy;
}

export interface PfCombo {
  combo: string;
  reach: number;
  frequencies?: Record<string, number>;
  frequency?: number;
  weightAfter?: number;
  evBb: number | null;
  equity: number | null;
}

export interface PfRange {
  actions?: PfActionView[];
  combos: PfCombo[];
  count: number;
}

export interface Unsupported {
  reason: string;
}

export interface ReportBoard {
  board: string;
  texture: Record<string, string>;
}

const enc = (path: readonly string[]) => path.join(",");

/**
 * A query string with spaces as `%20`: action labels hold spaces (`bet 4.13`), and the API reads a `+` as
 * itself, not as a space (URLSearchParams writes a space as `+`, and a real `+` as `%2B`).
 */
const qs = (q: URLSearchParams): string => q.toString().replace(/\+/g, "%20");

export const fetchPacks = (signal?: AbortSignal) =>
  api<Envelope<{ packs: PackRow[] }>>("/api/v1/postflop/packs", signal ? { signal } : {});

export function fetchPfNode(
  pack: string,
  board: string,
  path: readonly string[],
  apiKey: string | null,
  signal?: AbortSignal,
  combo?: string,
) {
  const q = new URLSearchParams({ board, path: enc(path) });
  if (combo !== undefined) q.set("combo", combo);
  return api<Envelope<PfNode | Unsupported, PfContext>>(`/api/v1/postflop/${pack}/node?${qs(q)}`, {
    apiKey,
    ...(signal ? { signal } : {}),
  });
}

export function fetchPfRange(
  pack: string,
  board: string,
  path: readonly string[],
  action: string | null,
  apiKey: string | null,
  signal?: AbortSignal,
) {
  const q = new URLSearchParams({ board, path: enc(path) });
  if (action !== null) q.set("action", action);
  return api<Envelope<PfRange, PfContext>>(`/api/v1/postflop/${pack}/range?${qs(q)}`, {
    apiKey,
    ...(signal ? { signal } : {}),
  });
}

export function fetchReport(pack: string, apiKey: string | null, signal?: AbortSignal) {
  return api<Envelope<{ boards: ReportBoard[] }>>(`/api/v1/postflop/${pack}/report?path=`, {
    apiKey,
    ...(signal ? { signal } : {}),
  });
}
