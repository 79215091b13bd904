/**
 * Query-parameter parsing shared by the API and the MCP server, so both reject the same inputs with the same
 * errors. Every parser takes the raw value as it arrives (a string, a repeated parameter's array, a number
 * from a JSON tool input, or undefined) and throws a RangesError whose message says how to fix it.
 */

import { GAME_IDS, GAMES, type GameId, isGameId, parseHand, RangesError } from "@ranges/core";

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

function single(name: string, raw: unknown): string | number | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (Array.isArray(raw)) {
    throw new RangesError("invalid_parameter", `Give ${name} once; it was given ${raw.length} times.`, {
      parameter: name,
    });
  }
  if (typeof raw === "string" || typeof raw === "number") return raw;
  if (typeof raw === "boolean") return raw ? 1 : 0;
  throw new RangesError("invalid_parameter", `${name} must be a string or a number.`, { parameter: name });
}

/** The `{game}` path value: one of the eight games, else 404 `unknown_game` listing them. */
export function parseGameParam(raw: unknown): GameId {
  const value = single("game", raw);
  if (typeof value === "string" && isGameId(value)) return value;
  throw new RangesError(
    "unknown_game",
    `${value === undefined || value === "" ? "No game was given" : `"${String(value)}" is not a game`}. Games: ${GAME_IDS.join(", ")} (nl/v2 is two path segments).`,
    { games: [...GAME_IDS] },
  );
}

/**
 * The `stack` query value in bb: required, a plain decimal number (no unit, no exponent), positive, and an
 * integer for games that say so (nlmtt8).
 */
export function parseStackParam(game: GameId, raw: unknown): number {
  const info = GAMES[game];
  const example = info.plannedStacks[Math.floor(info.plannedStacks.length / 2)] ?? 100;
  const value = single("stack", raw);
  if (value === undefined || value === "") {
    throw new RangesError(
      "missing_parameter",
      `The stack parameter is required: the stack depth in big blinds, e.g. stack=${example}. GET /api/v1/ranges/${game} lists the live stacks.`,
      { parameter: "stack" },
    );
  }
  const text = String(value).trim();
  const n = typeof value === "number" ? value : NUMBER.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) {
    throw new RangesError(
      "invalid_parameter",
      `stack must be a positive number of big blinds without a unit, e.g. stack=${example}; got "${text}".`,
      { parameter: "stack" },
    );
  }
  if (info.integerStack && !Number.isInteger(n)) {
    throw new RangesError(
      "invalid_parameter",
      `${game} stacks are whole big blinds: use an integer such as stack=${example}; got "${text}".`,
      { parameter: "stack" },
    );
  }
  return n;
}

/** The optional `minFreq` query value: a number in [0, 1], or undefined when absent. */
export function parseMinFreqParam(raw: unknown): number | undefined {
  const value = single("minFreq", raw);
  if (value === undefined || value === "") return undefined;
  const text = String(value).trim();
  const n = typeof value === "number" ? value : NUMBER.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    throw new RangesError(
      "invalid_parameter",
      `minFreq must be a number from 0 to 1, e.g. minFreq=0.05; got "${text}".`,
      { parameter: "minFreq" },
    );
  }
  return n;
}

/** The optional `full` query value: only `1` is allowed (true); absent is false; JSON booleans pass through. */
export function parseFullParam(raw: unknown): boolean {
  // Tool inputs are JSON, where a boolean is the natural spelling; query strings must say 1.
  if (typeof raw === "boolean") return raw;
  const value = single("full", raw);
  if (value === undefined) return false;
  if (value === "1" || value === 1) return true;
  throw new RangesError(
    "invalid_parameter",
    `full takes only the value 1 (full=1 writes all 169 hold'em classes with explicit zeros); leave it out for sparse weights. Got "${String(value)}".`,
    { parameter: "full" },
  );
}

/** The optional `hand` query value: the canonical class name, or undefined when absent; 400 `invalid_hand`. */
export function parseHandParam(game: GameId, raw: unknown): string | undefined {
  const value = single("hand", raw);
  if (value === undefined || value === "") return undefined;
  return parseHand(game, String(value)).name;
}

/** A required path parameter (`history` for /node, `spot` for /range); the grammar checks the value later. */
export function parsePathParam(name: "history" | "spot", raw: unknown, game?: GameId): string {
  const value = single(name, raw);
  if (value === undefined || value === "") {
    const first = game === undefined ? "UTG" : GAMES[game].seats[0]!;
    const example = name === "history" ? `history=${first}` : `spot=${first}_Fold`;
    throw new RangesError(
      "missing_parameter",
      `The ${name} parameter is required: an action path ${name === "history" ? "ending in the seat to act" : "ending in an action"}, e.g. ${example}.`,
      { parameter: name },
    );
  }
  return String(value);
}
