/**
 * What the data covers, and the `unsupported` answer for everything else.
 *
 * Published: cash-game preflop (nl, nl/v2, nl9, PLO variants) and 8-max tournament chip-EV preflop with a 1bb
 * big-blind ante (nlmtt8), each only where packs are installed: which games have data is read from the store
 * (`coverageOf`), never assumed. Not published: ICM, PKO/bounty, satellites, other ante structures, 9-max (or any
 * non-8-max) tournaments, tournament postflop and multiway postflop (heads-up cash postflop is served by the
 * postflop tools from the installed postflop packs, tools/postflop/). A request for any of those gets `coverage.status: "unsupported"` with the gap disclosed, and
 * nothing is substituted: no chip-EV or cash strategy comes back in place of the model that was asked for.
 */

import { GAME_IDS, GAMES, type GameId, isGameId } from "@ranges/core";
import type { ToolEnvelope } from "@ranges/schema";
import { ToolEnvelopeSchema } from "@ranges/schema";
import type { RangeStore } from "@ranges/store";
import { invalidParameter } from "./errors.js";

/** The scope fields a retrieval tool accepts next to its game. */
export interface ScopeRequest {
  readonly game: string;
  readonly format?: string | undefined;
  readonly objective?: string | undefined;
  readonly ante?: number | undefined;
  readonly players?: number | undefined;
}

export interface Gap {
  /** Short machine name: icm, pko, satellite, ante_structure, tournament_9max, ... */
  readonly topic: string;
  readonly detail: string;
}

/** The part of the store the coverage statement reads. */
export type StoreView = Pick<RangeStore, "liveStacks">;

/** Games of the service with no pack installed: they answer 404 until packs exist. */
export const gamesWithoutPacks = (store: StoreView): GameId[] =>
  GAME_IDS.filter((game) => store.liveStacks(game).length === 0);

const CASH_GROUPS: ReadonlyArray<{ readonly games: readonly GameId[]; readonly what: string }> = [
  { games: ["nl", "nl/v2"], what: "6-max NLHE" },
  { games: ["nl9"], what: "9-max NLHE" },
  { games: ["plo", "plo9", "plo5", "plo6hu"], what: "PLO" },
];

/** What is published, from the games that have packs in `store`. */
export function publishedOf(store: StoreView): string[] {
  const live = new Set(GAME_IDS.filter((game) => store.liveStacks(game).length > 0));
  const cash = CASH_GROUPS.map((g) => ({ ...g, games: g.games.filter((x) => live.has(x)) }))
    .filter((g) => g.games.length > 0)
    .map((g) => `${g.games.join(", ")} (${g.what})`);
  const out: string[] = [];
  if (cash.length > 0) out.push(`Cash-game preflop: ${cash.join("; ")}.`);
  if (live.has("nlmtt8")) {
    const stacks = store.liveStacks("nlmtt8");
    out.push(
      `Tournament preflop: nlmtt8 only: 8 seats, 1bb big-blind ante posted by the BB, chip EV (no ICM), stacks ${stacks[0]}-${stacks[stacks.length - 1]}bb.`,
    );
  }
  if (out.length === 0) out.push("Nothing yet: no pack is installed.");
  return out;
}

/** The published and not published lists of get_started and unsupported envelopes. */
export function coverageOf(store: StoreView): { published: string[]; notPublished: string[] } {
  const missing = gamesWithoutPacks(store);
  return {
    published: publishedOf(store),
    notPublished: [
      ...NOT_PUBLISHED,
      ...(missing.length > 0
        ? [`games with no packs installed yet: ${missing.join(", ")} (they answer 404 until packs exist)`]
        : []),
    ],
  };
}

export const NOT_PUBLISHED = [
  "ICM (any payout-aware objective)",
  "PKO / bounty tournaments",
  "satellites",
  "ante structures other than nlmtt8's 1bb big-blind ante (and no ante in cash games)",
  "9-max tournaments (and any tournament table size other than 8-max)",
  "tournament postflop",
  "multiway postflop",
  "postflop turn and river nodes (packs store the flop decisions of their solved boards; nothing is solved on demand)",
];

const CHIP_EV = new Set(["chip_ev", "chipev", "chip-ev", "chip ev", "cev", "chips", "chip"]);
const CASH_EV = new Set(["cash_ev", "cash-ev", "cash ev", "ev", "cash"]);
const MTT = new Set(["mtt", "tournament", "mtt8", "8-max mtt", "tourney"]);
const CASH = new Set(["cash", "ring", "cash_game", "cash game"]);

const norm = (s: string): string => s.trim().toLowerCase();

function namedGaps(text: string, where: string): Gap[] {
  const t = norm(text);
  const gaps: Gap[] = [];
  if (/icm|\$ev|payout|bubble|final[ _-]?table/.test(t)) {
    gaps.push({
      topic: "icm",
      detail: `ICM is not published (${where} "${text}"): the only tournament data is nlmtt8 chip EV, and it is not an ICM strategy.`,
    });
  }
  if (/pko|bounty|knockout|\bko\b/.test(t)) {
    gaps.push({ topic: "pko", detail: `PKO / bounty tournaments are not published (${where} "${text}").` });
  }
  if (/satell|\bsat\b/.test(t)) {
    gaps.push({ topic: "satellite", detail: `Satellites are not published (${where} "${text}").` });
  }
  if (/spin|sng|sit[ _-]?(and|n|&)[ _-]?go|hyper/.test(t)) {
    gaps.push({
      topic: "tournament_format",
      detail: `Only the nlmtt8 8-max chip-EV tournament set is published (${where} "${text}").`,
    });
  }
  return gaps;
}

export type ScopeVerdict =
  | { readonly kind: "ok"; readonly game: GameId }
  | { readonly kind: "gaps"; readonly gaps: Gap[] };

/**
 * Classifies a request. Returns the game when the data covers it, the gaps when it asks for something that
 * is not published, and throws a 400/404 `RangesError` for inputs that are simply wrong (an unknown game,
 * `objective: chip_ev` on a cash game).
 */
export function checkScope(req: ScopeRequest, resolveGame: (raw: string) => GameId): ScopeVerdict {
  const gaps: Gap[] = [];
  const rawGame = req.game.trim();
  const known = isGameId(rawGame) ? rawGame : null;
  const rawLower = norm(rawGame);
  const tournamentAsked =
    known === "nlmtt8" ||
    (req.format !== undefined && MTT.has(norm(req.format))) ||
    (known === null && /mtt|tourn/.test(rawLower));

  if (known === null) {
    gaps.push(...namedGaps(rawGame, "game"));
    if (gaps.length === 0 && /mtt|tourn/.test(rawLower)) {
      const nine = /9/.test(rawLower);
      gaps.push({
        topic: nine ? "tournament_9max" : "tournament_format",
        detail: nine
          ? `9-max tournaments are not published (game "${rawGame}"): the only tournament set is nlmtt8 (8-max, chip EV).`
          : `Game "${rawGame}" is not published: the only tournament set is nlmtt8 (8-max, 1bb BB ante, chip EV).`,
      });
    }
    if (gaps.length === 0) resolveGame(rawGame); // throws 404 unknown_game with the list of games
  }
  const seatCount = known ? GAMES[known].seats.length : null;

  if (req.objective !== undefined) {
    const o = norm(req.objective);
    if (CHIP_EV.has(o)) {
      if (known !== null && known !== "nlmtt8") {
        throw invalidParameter(
          `objective "${req.objective}" applies only to nlmtt8 (tournament chip EV); ${known} is a cash game solved for cash EV. Leave objective out for cash games.`,
          { objective: req.objective, gamesWithObjective: ["nlmtt8"] },
        );
      }
    } else if (CASH_EV.has(o)) {
      if (known === "nlmtt8") {
        throw invalidParameter(
          `objective "${req.objective}" does not apply to nlmtt8; its objective is chip_ev.`,
          {
            objective: req.objective,
            allowed: ["chip_ev"],
          },
        );
      }
    } else {
      const named = namedGaps(req.objective, "objective");
      gaps.push(
        ...(named.length > 0
          ? named
          : [
              {
                topic: "objective",
                detail: `Objective "${req.objective}" is not published: strategies are cash EV (cash games) or chip EV (nlmtt8).`,
              },
            ]),
      );
    }
  }

  if (req.format !== undefined) {
    const f = norm(req.format);
    if (MTT.has(f)) {
      const nineMax = (seatCount ?? 0) === 9 || req.players === 9 || /9/.test(rawLower);
      if (known !== "nlmtt8") {
        if (nineMax) {
          gaps.push({
            topic: "tournament_9max",
            detail: `9-max tournaments are not published (format "${req.format}" with ${known ?? rawGame}): the only tournament set is nlmtt8 (8-max).`,
          });
        } else if (known !== null) {
          throw invalidParameter(
            `format "${req.format}" applies only to game nlmtt8 (8-max tournament, chip EV); ${known} is a cash game. Use game nlmtt8 or leave format out.`,
            { format: req.format, gamesWithFormat: ["nlmtt8"] },
          );
        }
      }
    } else if (CASH.has(f)) {
      if (known === "nlmtt8") {
        throw invalidParameter(
          `format "${req.format}" contradicts game nlmtt8, which is a tournament (format mtt).`,
          {
            format: req.format,
          },
        );
      }
    } else {
      const named = namedGaps(req.format, "format");
      if (named.length === 0) {
        throw invalidParameter(`format "${req.format}" is not known. Use "mtt" (with nlmtt8) or "cash".`, {
          format: req.format,
          allowed: ["mtt", "cash"],
        });
      }
      gaps.push(...named);
    }
  }

  if (req.players !== undefined && seatCount !== null && req.players !== seatCount) {
    if (tournamentAsked) {
      gaps.push({
        topic: req.players === 9 ? "tournament_9max" : "tournament_table_size",
        detail: `${req.players}-handed tournaments are not published: nlmtt8 is 8-max.`,
      });
    } else {
      const games = GAME_IDS.filter(
        (g) => GAMES[g].seats.length === req.players && GAMES[g].format === "cash",
      );
      if (games.length > 0) {
        throw invalidParameter(
          `${known} has ${seatCount} seats, not ${req.players}. Games with ${req.players} seats: ${games.join(", ")}.`,
          { players: req.players, games },
        );
      }
      gaps.push({
        topic: "table_size",
        detail: `${req.players}-handed ${known} is not published: ${known} has ${seatCount} seats.`,
      });
    }
  } else if (req.players !== undefined && known === null && tournamentAsked && req.players !== 8) {
    if (!gaps.some((g) => g.topic.startsWith("tournament_"))) {
      gaps.push({
        topic: req.players === 9 ? "tournament_9max" : "tournament_table_size",
        detail: `${req.players}-handed tournaments are not published: the only tournament set is nlmtt8 (8-max).`,
      });
    }
  }

  if (req.ante !== undefined) {
    const expected = known ? GAMES[known].ante : tournamentAsked ? 1 : 0;
    if (Math.abs(req.ante - expected) > 1e-9) {
      gaps.push({
        topic: "ante_structure",
        detail:
          known === "nlmtt8" || (known === null && tournamentAsked)
            ? `An ante of ${req.ante}bb is not published: nlmtt8 is solved with a 1bb big-blind ante posted by the BB, and no other ante structure exists.`
            : `An ante of ${req.ante}bb is not published for ${known ?? rawGame}: cash games are solved without an ante.`,
      });
    }
  }

  if (gaps.length > 0) return { kind: "gaps", gaps };
  return { kind: "ok", game: known ?? resolveGame(rawGame) };
}

/** The hard-stop envelope: the gap disclosed, nothing substituted. */
export function unsupportedEnvelope(
  tool: string,
  request: Record<string, unknown>,
  gaps: readonly Gap[],
  published: readonly string[],
  objective?: string,
): ToolEnvelope {
  const topics = [...new Set(gaps.map((g) => g.topic))];
  return ToolEnvelopeSchema.parse({
    schemaVersion: "1.0",
    coverage: {
      status: "unsupported",
      dataClass: topics.join("+"),
      objective: objective ?? (topics.includes("icm") ? "icm" : "not_published"),
    },
    context: { tool, request: stripUndefined(request) },
    result: {
      reason: gaps.map((g) => g.detail).join(" "),
      gaps: gaps.map((g) => ({ topic: g.topic, detail: g.detail })),
      substituted: null,
      published: [...published],
    },
    warnings: [
      ...gaps.map((g) => g.detail),
      "Nothing was substituted: no strategy from another model, format, ante or table size is returned in its place.",
    ],
  });
}

export function stripUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
