/**
 * iPoker XML (see `ipoker.ts`): the session's `<general>` (game, stakes, table, tournament) and the pieces
 * of a `<game>`: attributes, amounts, cards, start dates and the button.
 */

import { currencyOfSymbol, parseAmount } from "../amounts.js";
import type { Currency, Game } from "../types.js";

export const attr = (tag: string, name: string): string | null => {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
  return m ? unescapeXml(m[1]!) : null;
};

function unescapeXml(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

/**
 * `€0.05`, `$1,250.50`, `0,05 €` (some skins), and a currency written in letters before or after the amount
 * (`RSD45.70` of the Serbian skins, `4,510kr` of the Scandinavian ones): as a plain amount.
 */
export function amountOf(text: string | null, chips = false): number {
  if (text === null) return Number.NaN;
  const t = text.replace(/[€$£\s]/g, "").replace(/^[A-Za-z]{2,3}(?=\d)|(?<=\d)[A-Za-z]{2,3}$/, "");
  // Tournament chips are whole: the Italian skins' `1.500` is 1,500 chips (a point between thousands).
  if (chips && /^\d{1,3}(?:\.\d{3})+$/.test(t)) return parseAmount(t.replaceAll(".", ""));
  return parseAmount(/^\d+,\d{1,2}$/.test(t) ? t.replace(",", ".") : t);
}

/** `SK` → `Ks`, `H10` → `Th`; null for a card not shown (`X`). */
export function card(text: string): string | null | undefined {
  if (text === "X" || text === "x") return null;
  const suit = text.charAt(0).toLowerCase();
  const rank = text.slice(1) === "10" ? "T" : text.slice(1);
  if (!"cdhs".includes(suit) || rank.length !== 1 || !"23456789TJQKA".includes(rank)) return undefined;
  return `${rank}${suit}`;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * A `<startdate>` as `2024/03/16 20:01:05`: skins write `2024-03-16 20:01:05`, `16-Mar-2024 20:01:05`,
 * `16.03.2024 20:01:05` and `16/03/2024 20:01` (day first, no seconds).
 */
export function dateOf(text: string): string {
  const m = /^(\d{1,2})[-./]([A-Za-z]{3}|\d{1,2})[-./](\d{4}) (\d{1,2}:\d{2})(:\d{2})?$/.exec(text.trim());
  if (!m) return text.replaceAll("-", "/");
  const month = /^\d+$/.test(m[2]!) ? Number(m[2]) : MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
  return `${m[3]}/${month}/${m[1]} ${m[4]}${m[5] ?? ":00"}`;
}

export interface Session {
  /** The player who saved the file (`<nickname>`): the hero. */
  hero: string | null;
  game: Game | string;
  sb: number;
  bb: number;
  currency: Currency | null;
  table: string;
  maxSeats: number | null;
  tournament: { id: string; name: string | null; buyIn: number[] | null; currency: Currency | null } | null;
}

export function tag(text: string, name: string): string | null {
  const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(text);
  return m ? unescapeXml(m[1]!.trim()) : null;
}

export function sessionOf(general: string, sessionCode: string): Session {
  const gametype = tag(general, "gametype") ?? "";
  const t = gametype.toLowerCase();
  const omaha = t.includes("omaha");
  // Spanish (`SL`, sin límite) and Russian (`БЛ`) clients name no limit in their language.
  const limit = /\bnl\b|no limit|\bsl\b|(?:^|\s)бл(?:\s|$)/.test(t)
    ? "nl"
    : /\bpl\b|pot limit/.test(t)
      ? "pl"
      : /\bfl\b|\bl\b|\blimit\b/.test(t)
        ? "fl"
        : null;
  const blinds = /(\S+)\/(\S+?)(?:\s+Ante\s+\S+)?\s*$/i.exec(gametype);
  // A tournament: its code, name or buy-in, or a game type without blinds (`Holdem NL`: they change with
  // the level). Sessions without a code are numbered by their table name (`Daily, 611669111`).
  const code =
    tag(general, "tournamentcode") ??
    (blinds === null || tag(general, "tournamentname") !== null || tag(general, "buyin") !== null
      ? (/(\d+)\s*$/.exec((tag(general, "tablename") ?? "").split(",").slice(1).join(",").trim())?.[1] ??
        sessionCode)
      : null);
  const format = code ? "tournament" : "cash";
  let game: Game | string;
  const holdem = t.includes("holdem") || t.includes("hold'em") || /^lh\b/.test(t);
  // Some skins write no game at all (`PL €2/€4` for 5 card Omaha): the cards dealt tell (holeCards 0).
  const unnamed = !omaha && !holdem && /^(?:nl|pl|fl|l)\s/.test(t);
  if (!omaha && !holdem && !unnamed) game = `"${gametype}" is not hold'em or Omaha, the games read here`;
  else if (limit === null) game = `no betting limit (NL, PL, FL) in the game type "${gametype}"`;
  else
    game = {
      variant: omaha ? "omaha" : "holdem",
      holeCards: unnamed ? 0 : omaha ? 4 : 2,
      hiLo: /hi-?lo/.test(t),
      limit,
      format,
      label: gametype,
    };
  const currencyCode = tag(general, "currency");
  const currency =
    currencyCode === "USD" || currencyCode === "EUR" || currencyCode === "GBP"
      ? currencyCode
      : currencyOfSymbol((blinds?.[1] ?? "").charAt(0));
  const buyInText = tag(general, "buyin");
  const buyIn = buyInText === null ? null : buyInText.split("+").map((x) => amountOf(x));
  return {
    hero: tag(general, "nickname"),
    game,
    sb: blinds ? amountOf(blinds[1]!) : Number.NaN,
    bb: blinds ? amountOf(blinds[2]!) : Number.NaN,
    currency: code ? null : currency,
    table: tag(general, "tablename") ?? "",
    maxSeats: Number(tag(general, "tablesize")) || null,
    tournament: code
      ? {
          id: code,
          name: tag(general, "tournamentname"),
          buyIn: buyIn?.every((x) => !Number.isNaN(x)) ? buyIn : null,
          currency: currencyOfSymbol((buyInText ?? "").trim().charAt(0)),
        }
      : null,
  };
}

/**
 * A tournament hand whose button left the table marks no dealer: the button is then the seat before the
 * small blind's (heads-up, the small blind's own). -1 without a small blind.
 */
export function buttonBefore(sbSeat: number, seats: number[]): number {
  if (sbSeat < 0) return -1;
  if (seats.length === 2) return sbSeat;
  const before = seats.filter((x) => x < sbSeat);
  return before.length > 0 ? Math.max(...before) : Math.max(...seats);
}
