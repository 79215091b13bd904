/** Amounts as the sites write them (`$1,234.50`, `€0.02`, `12,144`) and the arithmetic on them. */

import type { Currency } from "./types.js";

const SYMBOLS: Record<string, Currency> = { $: "USD", "€": "EUR", "£": "GBP" };
const SYMBOL_OF: Record<Currency, string> = { USD: "$", EUR: "€", GBP: "£" };

/** The currency of a symbol (`$` USD, `€` EUR, `£` GBP), or null. */
export const currencyOfSymbol = (symbol: string): Currency | null => SYMBOLS[symbol] ?? null;

/** The symbol of a currency, or "" for chips. */
export const symbolOf = (currency: Currency | null): string => (currency ? SYMBOL_OF[currency] : "");

/** Rounds away binary noise: every amount the sites write has at most a few decimals. */
export const round = (value: number): number => Math.round(value * 1e6) / 1e6;

/**
 * Parses `$0.05`, `€1,234.50`, `12,144`, `1500` (an optional currency symbol, thousands commas). NaN when the
 * text is not an amount.
 *
 * Digits are read by hand: `whole / 10^decimals` of two exact integers is the correctly rounded value,
 * the same number `Number("0.07")` gives, without the slices and the checks `Number()` needs here
 * (it would take "0x10", "1e3", " 5", "Infinity").
 */
export function parseAmount(text: string): number {
  const first = text.charCodeAt(0);
  // $ € £
  const start = first === 36 || first === 0x20ac || first === 0xa3 ? 1 : 0;
  let whole = 0;
  let digits = 0;
  let decimals = -1;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      whole = whole * 10 + (code - 48);
      digits++;
      if (decimals >= 0) decimals++;
    } else if (code === 46 && decimals < 0) {
      decimals = 0;
    } else if (code !== 44 || decimals >= 0) {
      return Number.NaN;
    }
  }
  if (digits === 0) return Number.NaN;
  // Beyond 15 digits the integer is no longer exact: let Number() round the text.
  if (digits > 15) return Number(text.slice(start).replaceAll(",", ""));
  return decimals > 0 ? whole / POWERS_OF_TEN[decimals]! : whole;
}

const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Writes an amount the way PokerStars does: whole amounts without decimals (`$1`, `1500`), others with two
 * (`$0.10`, `$23.57`); more decimals only when the amount has them.
 */
export function formatAmount(value: number, currency: Currency | null): string {
  const symbol = currency ? SYMBOL_OF[currency] : "";
  if (Number.isInteger(value)) return `${symbol}${value}`;
  const cents = Math.round(value * 100);
  if (Math.abs(cents - value * 100) < 1e-6) return `${symbol}${(cents / 100).toFixed(2)}`;
  return `${symbol}${round(value)}`;
}
