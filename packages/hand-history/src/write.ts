/**
 * Writes a `Hand` as a PokerStars hand history: the format most tools import, whichever site the hand
 * came from. `parseHandHistories(writeHandHistory(hand))` gives the hand back, except what PokerStars'
 * format cannot say: the site (always `pokerstars`), a GGPoker game label (`PLO` becomes
 * `Omaha Pot Limit`), GGPoker fees other than rake (written together as `Rake`), EV cashouts, and a hand
 * time written without a zone stays without one.
 */

import { formatAmount } from "./amounts.js";
import { formatHandTime } from "./dates.js";
import type { Action, Currency, Hand, Post, Street } from "./types.js";
import { STREETS } from "./types.js";

const BOARD_SIZE = [0, 3, 4, 5];
const STREET_TITLES = ["", "FLOP", "TURN", "RIVER"];
const RUN_NAMES = ["FIRST", "SECOND", "THIRD"];
const POST_TEXT: Record<Post["type"], string> = {
  ante: "posts the ante",
  sb: "posts small blind",
  bb: "posts big blind",
  "sb+bb": "posts small & big blinds",
  straddle: "posts straddle",
  dead: "posts missed blind",
};

function gameLabel(hand: Hand): string {
  const { game } = hand;
  const limit = game.limit === "nl" ? "No Limit" : game.limit === "pl" ? "Pot Limit" : "Limit";
  if (game.variant === "holdem") return `Hold'em ${limit}`;
  const cards = game.holeCards === 4 ? "" : `${game.holeCards} Card `;
  return `${cards}Omaha${game.hiLo ? " Hi/Lo" : ""} ${limit}`;
}

const ordinal = (n: number): string => {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
};

/**
 * Renders a hand in PokerStars' format (LF line endings, no trailing blank lines).
 *
 * @example
 * writeHandHistory(hand).split("\n")[0];
 * // "PokerStars Hand #109681313810:  Hold'em No Limit ($0.05/$0.10 USD) - 2014/01/06 7:21:05 ET"
 */
export function writeHandHistory(hand: Hand): string {
  const money = (value: number): string => formatAmount(value, hand.stakes.currency);
  const out: string[] = [];
  const date = formatHandTime(hand.date, hand.timeZone);
  const label = gameLabel(hand);
  const t = hand.tournament;
  if (t) {
    const cur: Currency | null = t.currency;
    let buyIn = t.freeroll ? "Freeroll" : "";
    if (t.buyIn) buyIn = t.buyIn.map((a) => formatAmount(a, cur)).join("+") + (cur ? ` ${cur}` : "");
    if (t.name) buyIn = buyIn ? `${buyIn} ${t.name}` : t.name;
    out.push(
      `PokerStars Hand #${hand.id}: Tournament #${t.id}, ${buyIn} ${label} - Level ${t.level ?? "I"} ` +
        `(${money(hand.stakes.sb)}/${money(hand.stakes.bb)}) - ${date}`,
    );
  } else {
    const code = hand.stakes.currency ? ` ${hand.stakes.currency}` : "";
    out.push(
      `PokerStars Hand #${hand.id}:  ${label} (${money(hand.stakes.sb)}/${money(hand.stakes.bb)}${code}) - ${date}`,
    );
  }
  const max = hand.maxSeats === null ? "" : `${hand.maxSeats}-max `;
  out.push(`Table '${hand.table}' ${max}Seat #${hand.buttonSeat} is the button`);
  const bountyCurrency = t?.currency ?? hand.stakes.currency;
  for (const p of hand.players) {
    const bounty = p.bounty === null ? "" : `, ${formatAmount(p.bounty, bountyCurrency)} bounty`;
    out.push(
      `Seat ${p.seat}: ${p.name} (${money(p.stack)} in chips${bounty})${p.dealtIn ? "" : " is sitting out"}`,
    );
  }
  for (const post of hand.posts) {
    out.push(
      `${post.player}: ${POST_TEXT[post.type]} ${money(post.amount)}${post.allIn ? " and is all-in" : ""}`,
    );
  }

  const actionLine = (a: Action): string => {
    const allIn = a.allIn ? " and is all-in" : "";
    switch (a.type) {
      case "fold":
        return `${a.player}: folds`;
      case "check":
        return `${a.player}: checks`;
      case "call":
        return `${a.player}: calls ${money(a.amount)}${allIn}`;
      case "bet":
        return `${a.player}: bets ${money(a.amount)}${allIn}`;
      case "raise":
        return `${a.player}: raises ${money(a.amount)} to ${money(a.to ?? a.amount)}${allIn}`;
    }
  };
  // Uncalled bets go back right after the last action.
  let lastStreet = 0;
  STREETS.forEach((s, i) => {
    if (hand.actions[s].length > 0) lastStreet = i;
  });
  const streetActions = (i: number): void => {
    for (const a of hand.actions[STREETS[i] as Street]) out.push(actionLine(a));
    if (i === lastStreet) {
      for (const u of hand.uncalled) out.push(`Uncalled bet (${money(u.amount)}) returned to ${u.player}`);
    }
  };
  const boardLine = (prefix: string, i: number, board: string[]): string => {
    const size = BOARD_SIZE[i]!;
    const before = board.slice(0, size === 3 ? 3 : size - 1);
    const cards = size === 3 ? `[${before.join(" ")}]` : `[${before.join(" ")}] [${board[size - 1]}]`;
    return `*** ${prefix}${STREET_TITLES[i]} *** ${cards}`;
  };

  out.push("*** HOLE CARDS ***");
  if (hand.hero !== null && hand.heroCards !== null)
    out.push(`Dealt to ${hand.hero} [${hand.heroCards.join(" ")}]`);
  streetActions(0);
  const boards = hand.boards;
  const runs = boards.length;
  const first = boards[0] ?? [];
  for (let i = 1; i <= 3; i++) {
    const size = BOARD_SIZE[i]!;
    if (first.length < size) break;
    const shared = boards.every((b) => b.length >= size && b.slice(0, size).every((c, k) => c === first[k]));
    if (shared || runs === 1) {
      out.push(boardLine("", i, first));
      streetActions(i);
      continue;
    }
    // The runs part here: each run's remaining streets, run by run.
    boards.forEach((board, r) => {
      for (let j = i; j <= 3 && board.length >= BOARD_SIZE[j]!; j++) {
        out.push(boardLine(`${RUN_NAMES[r]} `, j, board));
      }
    });
    break;
  }

  const maxPot = Math.max(0, ...hand.collected.map((c) => c.pot));
  const potName = (pot: number): string =>
    maxPot === 0 ? "pot" : pot === 0 ? "main pot" : maxPot === 1 ? "side pot" : `side pot-${pot}`;
  const collectLines = (board: number): void => {
    for (const c of hand.collected) {
      if (c.board === board) out.push(`${c.player} collected ${money(c.amount)} from ${potName(c.pot)}`);
    }
  };
  const showLines = (): void => {
    for (const s of hand.shows) {
      out.push(
        `${s.player}: shows [${s.cards.join(" ")}]${s.description === null ? "" : ` (${s.description})`}`,
      );
    }
  };
  if (runs > 1) {
    for (let r = 0; r < runs; r++) {
      out.push(`*** ${RUN_NAMES[r]} SHOW DOWN ***`);
      if (r === 0) showLines();
      collectLines(r);
    }
  } else if (hand.wentToShowdown) {
    out.push("*** SHOW DOWN ***");
    showLines();
    collectLines(0);
  } else {
    collectLines(0);
    showLines();
  }
  if (t) {
    const cur = t.currency;
    for (const f of t.finishes) {
      const prize = f.prize === null ? null : formatAmount(f.prize, cur);
      if (f.place === 1 && prize !== null) {
        out.push(`${f.player} wins the tournament and receives ${prize} - congratulations!`);
      } else {
        out.push(
          `${f.player} finished the tournament in ${ordinal(f.place)} place${prize === null ? "" : ` and received ${prize}.`}`,
        );
      }
    }
  }

  out.push("*** SUMMARY ***");
  const sides =
    hand.pots.length > 1
      ? ` Main pot ${money(hand.pots[0]!.amount)}.${hand.pots
          .slice(1)
          .map((p, i) => ` Side pot-${i + 1} ${money(p.amount)}.`)
          .join("")}`
      : "";
  out.push(
    `Total pot ${money(hand.totalPot)}${sides}${hand.fees.length > 0 ? ` | Rake ${money(hand.rake)}` : ""}`,
  );
  if (runs > 1) {
    out.push(`Hand was run ${runs === 2 ? "twice" : `${runs} times`}`);
    boards.forEach((b, r) => {
      out.push(`${RUN_NAMES[r]} Board [${b.join(" ")}]`);
    });
  } else if (first.length > 0) {
    out.push(`Board [${first.join(" ")}]`);
  }

  const foldStreet = new Map<string, number>();
  STREETS.forEach((s, i) => {
    for (const a of hand.actions[s]) if (a.type === "fold") foldStreet.set(a.player, i);
  });
  const shown = new Set(hand.shows.map((s) => s.player));
  for (const p of hand.players) {
    if (!p.dealtIn) continue;
    let tags = p.seat === hand.buttonSeat ? " (button)" : "";
    if (hand.posts.some((x) => x.player === p.name && x.type === "sb")) tags += " (small blind)";
    if (hand.posts.some((x) => x.player === p.name && (x.type === "bb" || x.type === "sb+bb")))
      tags += " (big blind)";
    let outcome: string;
    const folded = foldStreet.get(p.name);
    if (shown.has(p.name)) {
      const show = hand.shows.find((s) => s.player === p.name)!;
      const cards = (p.cards ?? show.cards).join(" ");
      const described = show.description === null ? "" : ` with ${show.description}`;
      outcome =
        p.won > 0
          ? `showed [${cards}] and won (${money(p.won)})${described}`
          : `showed [${cards}] and lost${described}`;
    } else if (folded !== undefined) {
      // PokerStars adds "(didn't bet)" for a player who put in no blind and no chips of their own choosing.
      const blind = hand.posts.some((x) => x.player === p.name && x.type !== "ante");
      const bet = hand.actions.preflop.some(
        (a) => a.player === p.name && a.type !== "fold" && a.type !== "check",
      );
      outcome =
        folded === 0
          ? `folded before Flop${blind || bet ? "" : " (didn't bet)"}`
          : `folded on the ${STREET_TITLES[folded]![0]}${STREET_TITLES[folded]!.slice(1).toLowerCase()}`;
    } else if (p.won > 0) {
      outcome = `collected (${money(p.won)})`;
    } else if (p.cards !== null && p.name !== hand.hero) {
      outcome = `mucked [${p.cards.join(" ")}]`;
    } else {
      outcome = "mucked";
    }
    out.push(`Seat ${p.seat}: ${p.name}${tags} ${outcome}`);
  }
  return out.join("\n");
}
