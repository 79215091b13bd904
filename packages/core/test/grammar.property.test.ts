/**
 * Property tests for the action-path grammar. Valid paths come from simulating play with a small betting
 * model written here (independent of `BettingOrder`); malformed strings come from an alphabet of seats,
 * tokens, separators and junk.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assertPercentEncoded,
  formatPath,
  GAMES,
  type GameId,
  isRangesError,
  type ParsedPath,
  parsePath,
  RangesError,
} from "../src/index.js";

const PATH_GAMES: GameId[] = ["nl", "nl/v2", "nl9", "nlmtt8", "plo", "plo9", "plo5", "plo6hu"];
const PERCENTS = ["60%", "100%", "33.5%", "250%", "12.25%", "1%", "75%"];
const SUFFIXES = ["", "", "-1", "-2", "-pot", "-a.5"];

type Kind = "fold" | "call" | "raise" | "allin";

/** A table in one betting round: a queue of seats still to act, folds, all-ins and the raise count. */
class Table {
  readonly folded = new Set<string>();
  readonly allIn = new Set<string>();
  queue: string[];
  raises = 0;

  constructor(readonly seats: readonly string[]) {
    this.queue = [...seats];
  }

  next(): string | null {
    if (this.seats.length - this.folded.size <= 1) return null;
    return this.queue[0] ?? null;
  }

  act(seat: string, kind: Kind): void {
    expect(this.queue[0]).toBe(seat);
    this.queue.shift();
    if (kind === "fold") this.folded.add(seat);
    if (kind === "allin") this.allIn.add(seat);
    if (kind === "raise" || kind === "allin") {
      this.raises += 1;
      const at = this.seats.indexOf(seat);
      const after = [...this.seats.slice(at + 1), ...this.seats.slice(0, at)];
      this.queue = after.filter((s) => !this.folded.has(s) && !this.allIn.has(s));
    }
  }
}

/** The tokens a seat may write at this point, with their kinds. */
function options(game: GameId, table: Table, seat: string, pick: number): Array<[string, Kind]> {
  const info = GAMES[game];
  const depthToken = table.raises === 0 ? "Open" : `${table.raises + 2}B`;
  const opts: Array<[string, Kind]> = [
    ["Fold", "fold"],
    ["AI", "allin"],
  ];
  if (info.tokenStyle === "percent") {
    opts.push(["Call", "call"], [PERCENTS[pick % PERCENTS.length]!, "raise"]);
  } else if (info.variant === "holdem") {
    // nlmtt8: a first-in call is Limp (the BB's check stays Call); raises stop at 5B.
    opts.push([table.raises === 0 && seat !== "BB" ? "Limp" : "Call", "call"]);
    if (table.raises <= 3) opts.push([depthToken, "raise"]);
  } else {
    opts.push(["Call", "call"]);
    if (table.raises <= 7) opts.push([depthToken + SUFFIXES[pick % SUFFIXES.length]!, "raise"]);
  }
  return opts;
}

interface Generated {
  game: GameId;
  path: string;
  kind: "node" | "range";
  actor: string;
  raisesBefore: number;
  steps: Array<[string, string]>;
  /** For a node: the closed table cannot be continued; for a range: whether the action is closed. */
  closed: boolean;
}

function simulate(game: GameId, choices: Array<[number, number]>, endWithAction: boolean): Generated {
  const table = new Table(GAMES[game].seats);
  const steps: Array<[string, string]> = [];
  let raisesBeforeLast = 0;
  for (const [choice, pick] of choices) {
    const seat = table.next();
    if (seat === null) break;
    const opts = options(game, table, seat, pick);
    const [token, kind] = opts[choice % opts.length]!;
    raisesBeforeLast = table.raises;
    table.act(seat, kind);
    steps.push([seat, token]);
  }
  const next = table.next();
  const parts = steps.flat();
  if (next !== null && (!endWithAction || steps.length === 0)) {
    return {
      game,
      path: [...parts, next].join("_"),
      kind: "node",
      actor: next,
      raisesBefore: table.raises,
      steps,
      closed: false,
    };
  }
  return {
    game,
    path: parts.join("_"),
    kind: "range",
    actor: steps[steps.length - 1]![0],
    raisesBefore: raisesBeforeLast,
    steps,
    closed: next === null,
  };
}

const arbGame = fc.constantFrom(...PATH_GAMES);
const arbPlay = fc
  .record({
    game: arbGame,
    // Fold-heavy choices keep many paths short and realistic; the rest explore raises and all-ins.
    choices: fc.array(fc.tuple(fc.nat(40), fc.nat(100)), { maxLength: 24 }),
    endWithAction: fc.boolean(),
  })
  .map(({ game, choices, endWithAction }) => simulate(game, choices, endWithAction));

const isClientError = (e: unknown) => isRangesError(e) && (e.status === 400 || e.status === 404);

/** Parses, returning the result or the RangesError; anything else thrown fails the property. */
function tryParse(game: GameId, path: string): ParsedPath | RangesError {
  try {
    return parsePath(game, path);
  } catch (error) {
    if (!isClientError(error)) throw error;
    return error as RangesError;
  }
}

describe("grammar properties: simulated play", () => {
  it("parses every simulated path to its kind, actor and raise count, and formats it back", () => {
    fc.assert(
      fc.property(arbPlay, (g) => {
        const parsed = parsePath(g.game, g.path);
        expect(parsed.kind).toBe(g.kind);
        expect(parsed.actor).toBe(g.actor);
        expect(parsed.raisesBefore).toBe(g.raisesBefore);
        expect(parsed.steps.map((s) => [s.seat, s.action.token])).toEqual(g.steps);
        expect(formatPath(parsed)).toBe(g.path);
      }),
      { numRuns: 1000 },
    );
  });

  it("accepts only the next seat to act after a sequence of actions", () => {
    fc.assert(
      fc.property(arbPlay, (g) => {
        const actions = g.kind === "range" ? g.path : g.steps.flat().join("_");
        const next = g.kind === "node" ? g.actor : g.closed ? null : simulateNext(g);
        for (const seat of GAMES[g.game].seats) {
          const path = actions === "" ? seat : `${actions}_${seat}`;
          const result = tryParse(g.game, path);
          if (seat === next) {
            expect(result).not.toBeInstanceOf(RangesError);
            expect((result as ParsedPath).actor).toBe(seat);
          } else {
            expect(result).toBeInstanceOf(RangesError);
            if (next === null) expect((result as RangesError).code).toBe("node_not_found");
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a dropped fold is reported as missing_folds whose suggested path is the original", () => {
    const arb = arbPlay.chain((g) => {
      // Folds that some later seat of the path follows.
      const seatsAfter = g.kind === "node" ? g.steps.length : g.steps.length - 1;
      const folds = g.steps.flatMap(([, token], k) => (token === "Fold" && k < seatsAfter ? [k] : []));
      return folds.length === 0 ? fc.constant(null) : fc.constantFrom(...folds).map((k) => ({ g, k }));
    });
    fc.assert(
      fc.property(arb, (drop) => {
        if (drop === null) return;
        const { g, k } = drop;
        const parts = g.path.split("_");
        const dropped = [...parts.slice(0, 2 * k), ...parts.slice(2 * k + 2)].join("_");
        const error = tryParse(g.game, dropped);
        expect(error).toBeInstanceOf(RangesError);
        const e = error as RangesError;
        expect(e.code).toBe("missing_folds");
        expect(e.status).toBe(404);
        expect(e.hint?.missingFolds).toEqual([g.steps[k]![0]]);
        expect(e.hint?.suggestedPath).toBe(g.path);
        expect(e.message).toContain(`${g.steps[k]![0]}_Fold`);
      }),
      { numRuns: 1000 },
    );
  });
});

/** The next seat to act after a range path whose action is still open. */
function simulateNext(g: Generated): string {
  const table = new Table(GAMES[g.game].seats);
  for (const [seat, token] of g.steps) {
    const kind: Kind =
      token === "Fold"
        ? "fold"
        : token === "AI"
          ? "allin"
          : token === "Call" || token === "Limp"
            ? "call"
            : "raise";
    table.act(seat, kind);
  }
  return table.next()!;
}

const SEATS = ["UTG", "UTG1", "UTG2", "LJ", "HJ", "CO", "BTN", "SB", "BB"];
const TOKENS = ["Fold", "Call", "Limp", "AI", "Open", "3B", "4B", "5B", "6B", "Open-2", "3B-x", "Raise"];
const PERCENT_BITS = ["60%", "33.5%", "0%", "100%", "60", "%60", "%25", "%28", "%29", "%", "%2"];
const JUNK = [
  "_",
  "_",
  "_",
  "__",
  "(",
  ")",
  ".",
  "-",
  "0",
  "1",
  "9",
  "x",
  "é",
  " ",
  "\u0000",
  "🂡",
  "utg",
  "fold",
];
const PIECES = [...SEATS, ...TOKENS, ...PERCENT_BITS, ...JUNK];

const arbMalformed = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((a) => a.join("")),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((a) => a.join("_")),
  // Mostly well-shaped seat/token alternations, which reach the deeper checks.
  fc
    .array(fc.tuple(fc.constantFrom(...SEATS), fc.constantFrom(...TOKENS, "60%", "100%")), { maxLength: 12 })
    .chain((pairs) =>
      fc
        .option(fc.constantFrom(...SEATS))
        .map((tail) => [...pairs.flat(), ...(tail ? [tail] : [])].join("_")),
    ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);

describe("grammar properties: malformed input", () => {
  it("either parses (and formats back) or throws a 400/404 RangesError, never anything else", () => {
    fc.assert(
      fc.property(arbGame, arbMalformed, (game, text) => {
        const result = tryParse(game, text);
        if (result instanceof RangesError) {
          expect(result.message.length).toBeGreaterThan(0);
          if (result.code === "missing_folds") {
            // Following the suggestion makes progress: it parses, or fails further along the path.
            const suggested = result.hint?.suggestedPath as string;
            const again = tryParse(game, suggested);
            if (again instanceof RangesError && again.code === "missing_folds") {
              expect(String(again.hint?.validPrefix).length).toBeGreaterThan(
                String(result.hint?.validPrefix).length,
              );
            }
          }
        } else {
          expect(formatPath(result)).toBe(text);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("assertPercentEncoded only ever throws a 400 that says to send %25", () => {
    fc.assert(
      fc.property(arbMalformed, (text) => {
        try {
          assertPercentEncoded("history", text);
          expect(text).not.toMatch(/%(?![0-9A-Fa-f]{2})/);
        } catch (error) {
          expect(isRangesError(error) && error.status === 400).toBe(true);
          expect((error as RangesError).message).toContain("%25");
        }
      }),
      { numRuns: 2000 },
    );
  });
});
