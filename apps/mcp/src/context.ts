/** What every tool gets: the stores, the caller, and the access check. */

import type { AccessStore } from "@ranges/access";
import { GAME_IDS, GAMES, type GameId, parseHand, RangesError } from "@ranges/core";
import type { RangeStore } from "@ranges/store";
import { z } from "zod";
import { invalidParameter } from "./errors.js";

export interface McpDeps {
  readonly store: RangeStore;
  readonly access: AccessStore;
  /** Take the client IP from `X-Forwarded-For` (behind a reverse proxy). */
  readonly trustProxy?: boolean;
}

/** Who is calling: the HTTP request's `Authorization` header and client IP. */
export interface Caller {
  readonly authorization?: string | undefined;
  readonly ip: string;
}

export interface ToolContext {
  readonly store: RangeStore;
  readonly access: AccessStore;
  readonly caller: Caller;
  /**
   * Counts the call: with a Bearer key against the key's meter, without one against the IP's daily allowance
   * (only when `keyless`). Throws the 401/429 `RangesError` when access is refused.
   */
  authorize(keyless: boolean): void;
}

export function toolContext(deps: McpDeps, caller: Caller): ToolContext {
  return {
    store: deps.store,
    access: deps.access,
    caller,
    authorize(keyless: boolean) {
      const input =
        caller.authorization === undefined
          ? { ip: caller.ip, keyless }
          : { authorization: caller.authorization, ip: caller.ip, keyless };
      const decision = deps.access.authorize(input);
      if (decision.ok) return;
      const retryAfter = decision.headers["Retry-After"];
      const hint = { ...(decision.error.hint ?? {}) };
      if (retryAfter !== undefined) hint.retryAfterSeconds = Number(retryAfter);
      if (decision.error.status === 401) {
        hint.keyHeader = "Authorization: Bearer <API key>";
        hint.keylessGames = keylessGames();
      }
      throw new RangesError(decision.error.code, decision.error.message, hint);
    },
  };
}

/** Games whose node, range and spots tools are free (the 6-max NL cash preflop sets). */
export const keylessGames = (): GameId[] => GAME_IDS.filter((g) => GAMES[g].keyless.includes("node"));

// ---------------------------------------------------------------------------------------------------------
// Input fields shared by the tools.

export const gameField = z
  .string()
  .describe(
    `Game: one of ${GAME_IDS.join(", ")}. nl and nl/v2 are 6-max NLHE cash (nl/v2 has EVs, free without a key), nl9 9-max NLHE cash, nlmtt8 the 8-max tournament chip-EV set (1bb BB ante), plo/plo9/plo5/plo6hu pot-limit Omaha.`,
  );

export const stackField = z
  .union([z.number(), z.string()])
  .describe(
    "Stack depth in big blinds, e.g. 100. Cash games: 20, 30, 40, 50, 70, 100, 150, 200 where packs exist; nlmtt8: an integer among 10, 15, 20, 30, 40, 50, 75, 100, 200, 300. list_games shows the live stacks.",
  );

export const handField = z
  .string()
  .optional()
  .describe(
    "Restrict the answer to one hand class: hold'em AA, AKs, AKo (or two cards AhKh); PLO suit-group notation (AK)QJ or four cards.",
  );

export const comboField = z
  .string()
  .optional()
  .describe("Two concrete cards (hold'em, e.g. AhKh) or four (PLO): answers for the class they belong to.");

export const minFreqField = z
  .number()
  .optional()
  .describe(
    "Drop classes at or below this frequency (0..1). Compact answers always drop classes at or below 0.005.",
  );

export const detailField = z
  .enum(["compact", "full"])
  .optional()
  .describe(
    "compact (default): per action its size, share and the range in grouped range notation, a few EVs. full: the API's object with every class's frequency and EV (several KB to 100+ KB for PLO).",
  );

/** Scope fields: only what the data covers is answered; anything else gets `coverage.status: unsupported`. */
export const scopeFields = {
  objective: z
    .string()
    .optional()
    .describe(
      'Optional. "chip_ev" (nlmtt8 only). Anything else, e.g. "icm", is not published and answers with coverage.status "unsupported".',
    ),
  format: z
    .string()
    .optional()
    .describe(
      'Optional. "mtt" (nlmtt8 only) or "cash". "pko", "satellite" and other formats answer "unsupported".',
    ),
  ante: z
    .number()
    .optional()
    .describe(
      'Optional ante in bb. nlmtt8 has a 1bb big-blind ante, cash games none; any other value answers "unsupported".',
    ),
  players: z
    .number()
    .int()
    .optional()
    .describe(
      'Optional table size. Must match the game (nlmtt8: 8). A 9-max tournament answers "unsupported".',
    ),
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
