/** What every tool gets: the stores, the caller, and the access check. */

import type { AccessStore, TrustProxy } from "@ranges/access";
import { GAME_IDS, GAMES, type GameId, parseHand, RangesError } from "@ranges/core";
import type { HandUploads } from "@ranges/hand-analysis";
import type { PostflopPacks } from "@ranges/postflop";
import type { SolutionPacks, SolveQueue, SolveWorker } from "@ranges/queue";
import type { RangeStore } from "@ranges/store";
import { parseGameParam } from "@ranges/store";
import { z } from "zod";
import { invalidParameter } from "./errors.js";
import { clip } from "./redact.js";
import { checkScope } from "./scope.js";

export interface McpDeps {
  readonly store: RangeStore;
  readonly access: AccessStore;
  /**
   * Whose `X-Forwarded-For` is believed, for the client address that keyless calls are metered under:
   * - unset, `false`, `null`: nobody; the peer is the client.
   * - a TRUST_PROXY value (comma-separated string or list of addresses, CIDR ranges and the names loopback,
   *   linklocal, uniquelocal) or a compiled one (`compileTrustProxy` of @ranges/access): the API's rules, the
   *   header walked from the right past listed proxies, ports stripped. `"1"`/`"true"` throw.
   * - `true`: the handler is mounted behind a server that resolved the client address itself and wrote it as
   *   the last `X-Forwarded-For` entry (apps/api writes it as the only one); that entry is the client.
   */
  readonly trustProxy?: boolean | string | readonly string[] | TrustProxy | null;
  /** The solve queue; absent, the queue tools answer that it is not enabled. */
  readonly solves?: SolveDeps | undefined;
  /** Uploaded hand histories; absent, the hand tools answer that they are not enabled. */
  readonly hands?: HandDeps | undefined;
  /** The heads-up postflop packs (data/postflop); absent, the postflop tools list no pack. */
  readonly postflop?: PostflopPacks | undefined;
}

/** The hand tools' parts: the uploads (store of hands and parse thread) and where upload links point. */
export interface HandDeps {
  readonly uploads: HandUploads;
  /**
   * The base URL of the API that takes uploads (`POST /api/v1/uploads/{token}`), e.g.
   * `https://ranges.example.com`; `"request"`: the origin of the MCP request itself (the MCP endpoint is
   * mounted in that API); null: this server has no upload endpoint (get_upload_link says so, and
   * upload_hand_history still works).
   */
  readonly linkBase: string | null;
  /** The most hands one analysis call reads (the newest that match; default 10,000, see tools/hands/load.ts). */
  readonly maxAnalysedHands?: number | undefined;
}

/** The solve queue's parts the tools use (the records, the finished packs, the worker to wake). */
export interface SolveDeps {
  readonly queue: SolveQueue;
  readonly solutions: SolutionPacks;
  readonly worker?: SolveWorker | undefined;
}

/** Who is calling: the HTTP request's `Authorization` header and client IP. */
export interface Caller {
  readonly authorization?: string | undefined;
  /**
   * The key the caller was signed in as by the server in front (an OAuth access token that stands for an
   * account's key, checked by apps/api): used in place of `authorization`.
   */
  readonly keyId?: string | undefined;
  readonly ip: string;
  /** The request's origin (`http://host:port`), for links back to the server that was called. */
  readonly origin?: string | undefined;
}

export interface ToolContext {
  readonly store: RangeStore;
  readonly access: AccessStore;
  readonly caller: Caller;
  /**
   * Counts the call: with a Bearer key against the key's meter, without one against the IP's daily allowance
   * (only when `keyless`). Throws the 401/429 `RangesError` when access is refused.
   */
  authorize(keyless: boolean): Promise<void>;
  /**
   * For the caller's own records (feature requests): a valid key is required, the call is free (not counted
   * on the key's meter). Returns the key id; throws the 401 `RangesError` without a valid key.
   */
  keyHolder(operation: string): Promise<string>;
  /** A valid key, counted on its meter (paid operations on the caller's records); returns id and plan. */
  keyed(operation: string): Promise<{ keyId: string; plan: string }>;
  readonly solves: SolveDeps | undefined;
  readonly hands: HandDeps | undefined;
  readonly postflop: PostflopPacks | undefined;
}

export function toolContext(deps: McpDeps, caller: Caller): ToolContext {
  return {
    store: deps.store,
    access: deps.access,
    caller,
    async authorize(keyless: boolean) {
      await check({ keyless });
    },
    async keyHolder(operation: string) {
      return (await check({ keyless: false, free: true, operation })).keyId!;
    },
    async keyed(operation: string) {
      const d = await check({ keyless: false, operation });
      return { keyId: d.keyId!, plan: d.plan ?? "standard" };
    },
    solves: deps.solves,
    hands: deps.hands,
    postflop: deps.postflop,
  };

  /** Authorizes the call; the key id and plan when a key was used. */
  async function check(o: {
    keyless: boolean;
    free?: boolean;
    operation?: string;
  }): Promise<{ keyId?: string | undefined; plan?: string | undefined }> {
    const input =
      caller.keyId !== undefined
        ? { keyId: caller.keyId, ip: caller.ip, ...o }
        : caller.authorization === undefined
          ? { ip: caller.ip, ...o }
          : { authorization: caller.authorization, ip: caller.ip, ...o };
    const decision = await deps.access.authorize(input);
    if (decision.ok) return { keyId: decision.keyId, plan: decision.plan };
    const retryAfter = decision.headers["Retry-After"];
    const hint = { ...(decision.error.hint ?? {}) };
    if (retryAfter !== undefined) hint.retryAfterSeconds = Number(retryAfter);
    if (decision.error.status === 401) {
      hint.keyHeader = "Authorization: Bearer <API key>";
      hint.keylessGames = keylessGames();
    }
    throw new RangesError(decision.error.code, decision.error.message, hint);
  }
}

/** Games whose node, range and spots tools are free (the 6-max NL cash preflop sets). */
export const keylessGames = (): GameId[] => GAME_IDS.filter((g) => GAMES[g].keyless.includes("node"));

// ---------------------------------------------------------------------------------------------------------
// Input fields shared by the tools. Every field is described and bounded (strings by length, numbers by
// range) and every input object is closed (see `inputSchemaOf` in tool.ts), so a typo or an out-of-range
// value is rejected by the SDK before the tool runs instead of being ignored.

/** Longest action path the grammar accepts (core's parsePath refuses longer ones). */
export const MAX_PATH_LENGTH = 512;
const MAX_HAND_LENGTH = 24;
const MAX_WORD_LENGTH = 40;

/** The message for a `game` outside the enum: the games, and the gap when the name asks for unpublished data. */
export function unknownGameMessage(input: unknown): string {
  const shown = clip(typeof input === "string" ? input : String(input));
  const games = `Games: ${GAME_IDS.join(", ")}.`;
  if (typeof input !== "string") return `game must be one of the games. ${games}`;
  try {
    const verdict = checkScope({ game: input }, (raw) => parseGameParam(raw));
    if (verdict.kind === "gaps") {
      return `game "${shown}" is not published: ${verdict.gaps.map((g) => g.detail).join(" ")} ${games}`;
    }
  } catch {
    // Not a known gap: the plain message below.
  }
  return `"${shown}" is not a game. ${games}`;
}

export const gameField = z
  .enum(GAME_IDS, { error: (issue) => unknownGameMessage(issue.input) })
  .describe("Game (list_games describes each).");

const STACK_ERROR =
  'stack must be a positive number of big blinds up to 1000, e.g. 100 (or the same as a decimal string, "100")';

export const stackField = z
  .union([
    z
      .number()
      .positive({ error: STACK_ERROR })
      .max(1000, { error: STACK_ERROR })
      .describe("Stack depth in big blinds."),
    z
      .string()
      .max(16, { error: STACK_ERROR })
      .regex(/^\s*\d{1,4}(\.\d{1,4})?\s*$/, { error: STACK_ERROR })
      .describe('The stack as a decimal string, e.g. "100".'),
  ])
  .describe("Stack in bb, e.g. 100.");

export const handField = z
  .string()
  .max(MAX_HAND_LENGTH)
  .optional()
  .describe("One hand class: AA, AKs, AKo; PLO (AK)QJ.");

export const comboField = z
  .string()
  .max(MAX_HAND_LENGTH)
  .optional()
  .describe("Cards, e.g. AhKh: answers for their class.");

const MIN_FREQ_ERROR = "minFreq must be a frequency from 0 to 1, e.g. 0.05";

export const minFreqField = z
  .number()
  .min(0, { error: MIN_FREQ_ERROR })
  .max(1, { error: MIN_FREQ_ERROR })
  .optional()
  .describe("Drop classes at or below this frequency.");

export const detailField = z
  .enum(["compact", "full"])
  .optional()
  .describe("compact (default) or full (every class).");

/** An action path argument (`history` or `spot`). */
export const pathField = (description: string) => z.string().max(MAX_PATH_LENGTH).describe(description);

/** Scope fields: only what the data covers is answered; anything else gets `coverage.status: unsupported`. */
export const scopeFields = {
  objective: z.string().max(MAX_WORD_LENGTH).optional().describe("chip_ev (nlmtt8)."),
  format: z.string().max(MAX_WORD_LENGTH).optional().describe("mtt (nlmtt8) or cash."),
  ante: z.number().min(0).max(100).optional().describe("Ante in bb."),
  players: z.number().int().min(2).max(10).optional().describe("Table size."),
};

export interface ScopeArgs {
  readonly game: string;
  readonly objective?: string | undefined;
  readonly format?: string | undefined;
  readonly ante?: number | undefined;
  readonly players?: number | undefined;
}

/**
 * Paths arrive unencoded in tool arguments (`60%` is fine). A path someone URL-encoded out of habit
 * (`UTG_60%25_HJ`) is decoded once.
 */
export function pathArg(raw: string): string {
  const text = raw.trim();
  if (!/%(25|28|29|5f)/i.test(text)) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface HandChoice {
  readonly name: string;
  readonly combo?: string;
}

/** Resolves `hand` and/or `combo` to one class; both given must name the same class. */
export function resolveHand(
  game: GameId,
  hand: string | undefined,
  combo: string | undefined,
): HandChoice | undefined {
  const h = hand?.trim() ? parseHand(game, hand.trim()) : undefined;
  const c = combo?.trim() ? parseHand(game, combo.trim()) : undefined;
  if (h && c && h.name !== c.name) {
    throw invalidParameter(
      `hand "${hand}" (${h.name}) and combo "${combo}" (${c.name}) name different classes; send one.`,
    );
  }
  if (c) return { name: c.name, combo: combo!.trim() };
  return h ? { name: h.name } : undefined;
}

export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
