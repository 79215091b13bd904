/**
 * The action-path grammar.
 *
 * A path is `<SEAT>_<ACTION>_<SEAT>_<ACTION>...` in acting order. Ending in a seat it names a decision node
 * (sent as `history`); ending in an action it names that action's range (sent as `spot`). Every fold is
 * written out: `UTG_Fold_HJ_Fold_CO_Open` is the CO open, `CO_Open` is not a path.
 *
 * Tokens by game (see `GameInfo.tokenStyle`):
 *   percent (cash hold'em)   Fold  Call  AI  60%  100%  33.5%
 *   depth, hold'em (nlmtt8)  Fold  Call  Limp  AI  Open  3B  4B  5B
 *   depth, PLO               Fold  Call  AI  Open  3B  4B  5B  6B ...  and `Open-<size_id>` when a node
 *                            offers several sizes of one raise
 *
 * Examples for nlmtt8:
 *   UTG                                   node: UTG first to act
 *   UTG_Open                              range: UTG's open
 *   UTG_Fold_UTG1_Fold_LJ_Open_HJ         node: HJ facing an LJ open
 *   UTG_Open_UTG1_3B_LJ_Fold_..._UTG      node: UTG facing a 3-bet, every fold written out
 * Inputs that must fail: `` (empty), `UTG_`, `_UTG`, `UTG__Fold`, `XX_Fold` (unknown seat, 400), `UTG_Fold_UTG`
 * (out of order, 400), `UTG_Raise` (token not in the game, 400), `CO_Open` (missing folds, 404),
 * `UTG_3B` (a 3-bet with nothing to re-raise, 404), `BB` (everyone folds to the BB: no decision, 404).
 */

import { RangesError } from "./errors.js";
import { type GameId, type GameInfo, gameInfo } from "./games.js";

export type StepKind = "fold" | "call" | "raise" | "allin";

export interface ActionToken {
  /** The token exactly as written in paths (`Fold`, `60%`, `Open-2`). */
  readonly token: string;
  readonly kind: StepKind;
  /** For percent tokens, the percent of the pot after calling. */
  readonly pct?: number;
  /** For depth tokens: 2 for Open, 3 for 3B, ...; the raise this token makes. */
  readonly raiseNumber?: number;
  /** For PLO tokens with a size suffix: the tree's size id. */
  readonly sizeId?: string;
  /** True for nlmtt8's `Limp` (a first-in call). */
  readonly limp?: boolean;
}

export interface PathStep {
  readonly seat: string;
  readonly action: ActionToken;
}

export interface ParsedPath {
  readonly game: GameId;
  readonly kind: "node" | "range";
  /** The (seat, action) pairs in order. For a node these are the actions before the decision. */
  readonly steps: readonly PathStep[];
  /** For a node: the seat to act. For a range: the seat whose action it is. */
  readonly actor: string;
  /** Raises made before the decision (node) or before the last action (range). */
  readonly raisesBefore: number;
}

const PERCENT_TOKEN = /^(\d{1,4}(?:\.\d{1,2})?)%$/;
const DEPTH_TOKEN = /^(Open|[3-9]B)(?:-([A-Za-z0-9.]{1,16}))?$/;

/**
 * Parses one action token for a game; throws a 400 `invalid_token` when the game does not allow it, and 404
 * `unknown_game` for a game that does not exist.
 */
export function parseActionToken(game: GameId, token: string): ActionToken {
  const info = gameInfo(game);
  if (token === "Fold") return { token, kind: "fold" };
  if (token === "Call") return { token, kind: "call" };
  if (token === "AI") return { token, kind: "allin" };
  if (token === "Limp" && info.limpToken) return { token, kind: "call", limp: true };
  if (info.tokenStyle === "percent") {
    const m = PERCENT_TOKEN.exec(token);
    if (m && Number(m[1]) > 0) return { token, kind: "raise", pct: Number(m[1]) };
  } else {
    const m = DEPTH_TOKEN.exec(token);
    const raiseNumber = m === null ? 0 : m[1] === "Open" ? 2 : Number(m[1]![0]);
    // Size suffixes exist only in PLO trees; hold'em depth tokens stop at 5B (then AI).
    if (m && (info.variant === "omaha" || (m[2] === undefined && raiseNumber <= 5))) {
      return m[2] === undefined
        ? { token, kind: "raise", raiseNumber }
        : { token, kind: "raise", raiseNumber, sizeId: m[2] };
    }
  }
  throw new RangesError("invalid_token", `"${token}" is not an action token of ${game}. ${tokenHelp(info)}`, {
    token,
    allowedTokens: allowedTokenList(info),
  });
}

function allowedTokenList(info: GameInfo): string[] {
  if (info.tokenStyle === "percent") return ["Fold", "Call", "AI", "<n>% (e.g. 60%)"];
  const base = ["Fold", "Call", ...(info.limpToken ? ["Limp"] : []), "AI", "Open", "3B", "4B", "5B"];
  return info.variant === "omaha" ? [...base, "<token>-<size_id>"] : base;
}

function tokenHelp(info: GameInfo): string {
  return info.tokenStyle === "percent"
    ? "Use Fold, Call, AI or a raise size in percent of the pot such as 60% (sent as 60%25)."
    : `Use ${allowedTokenList(info).join(", ")}; copy raise tokens from a /node response.`;
}

/** The state of betting that the grammar tracks: who is in, who must still act, how many raises. */
export class BettingOrder {
  readonly seats: readonly string[];
  readonly folded = new Set<string>();
  readonly allIn = new Set<string>();
  /** Seats that must act before the round closes. */
  private pending: string[];
  /** Index in `seats` of the last seat that acted (-1 before the first action). */
  private last = -1;
  raises = 0;

  constructor(seats: readonly string[]) {
    this.seats = seats;
    this.pending = [...seats];
  }

  /** Seat to act next, or null when the round is closed (everyone has acted or one player is left). */
  nextToAct(): string | null {
    if (this.seats.length - this.folded.size <= 1) return null;
    for (let k = 1; k <= this.seats.length; k++) {
      const seat = this.seats[(this.last + k) % this.seats.length]!;
      if (this.pending.includes(seat)) return seat;
    }
    return null;
  }

  /** Seats, in order, that would act before `seat` (the folds a path must write out to reach it). */
  seatsBefore(seat: string): string[] | null {
    const skipped: string[] = [];
    for (let k = 1; k <= this.seats.length; k++) {
      const s = this.seats[(this.last + k) % this.seats.length]!;
      if (s === seat) return this.pending.includes(seat) ? skipped : null;
      if (this.pending.includes(s)) skipped.push(s);
    }
    return null;
  }

  apply(seat: string, kind: StepKind, isRaise: boolean): void {
    this.last = this.seats.indexOf(seat);
    this.pending = this.pending.filter((s) => s !== seat);
    if (kind === "fold") {
      this.folded.add(seat);
      return;
    }
    if (kind === "allin") this.allIn.add(seat);
    if (isRaise) {
      this.raises += 1;
      // A raise reopens the action for everyone still in who is not all-in.
      // In acting order from the raiser: the seats after it, then those before it.
      const live = this.seats.filter((s) => s !== seat && !this.folded.has(s) && !this.allIn.has(s));
      const cut = live.findIndex((s) => this.seats.indexOf(s) > this.last);
      this.pending = cut <= 0 ? live : [...live.slice(cut), ...live.slice(0, cut)];
    }
  }
}

const isSeat = (info: GameInfo, text: string) => info.seats.includes(text);

/**
 * Parses a path for a game. Throws `RangesError`: 400 for strings that cannot be a path of this game
 * (`malformed_path`, `invalid_token`), 404 `missing_folds` when a seat is reached without the folds before
 * it, 404 `action_not_available` when a depth token does not match the raises made, 404 `node_not_found`
 * when the path continues after the action has closed, and 404 `unknown_game` for a game that does not
 * exist.
 *
 * An `AI` is treated as a raise (it reopens the action); trees where an all-in only calls still parse, and
 * the tree lookup decides whether the line exists.
 */
export function parsePath(game: GameId, path: string): ParsedPath {
  const info = gameInfo(game);
  if (typeof path !== "string" || path.length === 0) {
    throw new RangesError(
      "malformed_path",
      `The path is empty. Start with the first seat to act, ${info.seats[0]}.`,
      {
        validPrefix: "",
        validActions: [],
      },
    );
  }
  if (path.length > 512) {
    throw new RangesError(
      "malformed_path",
      "The path is longer than 512 characters; no preflop line is that long.",
    );
  }
  const parts = path.split("_");
  const emptyAt = parts.indexOf("");
  if (emptyAt >= 0) {
    throw new RangesError(
      "malformed_path",
      `The path "${path}" has an empty segment at position ${emptyAt + 1}: segments are joined by single underscores, with no leading or trailing underscore.`,
    );
  }
  const order = new BettingOrder(info.seats);
  const steps: PathStep[] = [];
  let raisesBeforeLast = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const seat = parts[i]!;
    // The path before this seat, written only into errors (joined when one is thrown).
    const prefixOf = () => parts.slice(0, i).join("_");
    if (!isSeat(info, seat)) {
      const looksLikeAction = i > 0 && tryToken(game, seat) !== null;
      throw new RangesError(
        "malformed_path",
        looksLikeAction
          ? `Expected a seat at position ${i + 1} of "${path}" but found the action "${seat}": seats and actions alternate.`
          : `"${seat}" is not a seat of ${game}. Seats in acting order: ${info.seats.join(", ")}.`,
        { seats: [...info.seats] },
      );
    }
    const expected = order.nextToAct();
    if (expected === null) {
      throw new RangesError(
        "node_not_found",
        `The action is closed after "${prefixOf()}": no seat acts after it, so "${seat}" cannot act.`,
        { validPrefix: prefixOf() },
      );
    }
    if (seat !== expected) {
      const skipped = order.seatsBefore(seat);
      if (skipped !== null && skipped.length > 0) {
        if (info.seats.length - order.folded.size - skipped.length <= 1) {
          // Writing out those folds would leave `seat` alone: the hand is over, there is no decision.
          throw new RangesError(
            "node_not_found",
            `If ${skipped.join(", ")} all fold, ${seat} wins the pot uncontested: "${path}" names no decision. The next to act after "${prefixOf()}" is ${expected}.`,
            { validPrefix: prefixOf(), nextToAct: expected },
          );
        }
        const prefix = prefixOf();
        const folds = skipped.map((s) => `${s}_Fold`).join("_");
        const fixed = [prefix, folds, parts.slice(i).join("_")].filter(Boolean).join("_");
        throw new RangesError(
          "missing_folds",
          `${skipped.join(", ")} must act before ${seat}: write out the folds, e.g. "${fixed}".`,
          { validPrefix: prefix, missingFolds: skipped, suggestedPath: fixed },
        );
      }
      throw new RangesError(
        "malformed_path",
        `${seat} cannot act at position ${i + 1} of "${path}": seats act in the order ${info.seats.join(", ")} and the next to act is ${expected}.`,
        { validPrefix: prefixOf(), nextToAct: expected },
      );
    }
    const tokenText = parts[i + 1];
    if (tokenText === undefined) break;
    if (isSeat(info, tokenText)) {
      throw new RangesError(
        "malformed_path",
        `Expected an action after ${seat} at position ${i + 2} of "${path}" but found the seat "${tokenText}": seats and actions alternate.`,
      );
    }
    const action = parseActionToken(game, tokenText);
    checkTokenAtDepth(game, info, action, order.raises, seat, () => parts.slice(0, i + 1).join("_"));
    raisesBeforeLast = order.raises;
    order.apply(seat, action.kind, action.kind === "raise" || action.kind === "allin");
    steps.push({ seat, action });
  }
  const endsWithSeat = parts.length % 2 === 1;
  return {
    game,
    kind: endsWithSeat ? "node" : "range",
    steps,
    actor: endsWithSeat ? parts[parts.length - 1]! : steps[steps.length - 1]!.seat,
    raisesBefore: endsWithSeat ? order.raises : raisesBeforeLast,
  };
}

function tryToken(game: GameId, text: string): ActionToken | null {
  try {
    return parseActionToken(game, text);
  } catch {
    return null;
  }
}

/** Depth tokens must match the raises made: `Open` is the first raise, `3B` the second, and so on. */
function checkTokenAtDepth(
  game: GameId,
  info: GameInfo,
  action: ActionToken,
  raises: number,
  seat: string,
  pathTo: () => string,
): void {
  if (action.raiseNumber !== undefined && action.raiseNumber !== raises + 2) {
    const nodePath = pathTo();
    const right = raises === 0 ? "Open" : `${raises + 2}B`;
    throw new RangesError(
      "action_not_available",
      `"${action.token}" is not available to ${seat} at "${nodePath}": ${raises} raise(s) have been made, so a raise here is "${right}". Call /node with history=${nodePath} for the available actions.`,
      { validPrefix: nodePath },
    );
  }
  if (action.limp && raises > 0) {
    const nodePath = pathTo();
    throw new RangesError(
      "action_not_available",
      `"Limp" is a first-in call and the pot at "${nodePath}" is raised: use "Call". Call /node with history=${nodePath} for the available actions.`,
      { validPrefix: nodePath },
    );
  }
  if (info.limpToken && action.kind === "call" && !action.limp && raises === 0 && seat !== "BB") {
    const nodePath = pathTo();
    throw new RangesError(
      "action_not_available",
      `In ${game} a first-in call is written "Limp", not "Call" (at "${nodePath}").`,
      { validPrefix: nodePath },
    );
  }
}

/** Formats steps (and an optional actor for a node) back to the canonical path string. */
export function formatPath(parsed: Pick<ParsedPath, "kind" | "steps" | "actor">): string {
  const parts = parsed.steps.flatMap((s) => [s.seat, s.action.token]);
  if (parsed.kind === "node") parts.push(parsed.actor);
  return parts.join("_");
}

/** Betting depth of a decision: 1 unraised (RFI), 2 facing one raise, 3 3-bet pot, 4 4-bet pot or deeper. */
export function bettingDepth(raisesMade: number): 1 | 2 | 3 | 4 {
  return Math.min(4, raisesMade + 1) as 1 | 2 | 3 | 4;
}

/**
 * Checks a raw (still percent-encoded) query value: a `%` must start a `%XX` escape. `60%_BB` is rejected
 * with a message that says to send `%25`; `60%25_BB` is fine.
 */
export function assertPercentEncoded(name: string, raw: string): void {
  const bad = /%(?![0-9A-Fa-f]{2})/.exec(raw);
  if (bad) {
    throw new RangesError(
      "malformed_path",
      `The ${name} parameter has an unencoded "%" at character ${bad.index + 1}: send "%" as "%25" (e.g. 60%25), "(" as "%28" and ")" as "%29".`,
    );
  }
}
