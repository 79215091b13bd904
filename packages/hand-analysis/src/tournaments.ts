/**
 * Tournament results from the hero's tournament hands, one line per tournament, with only what the
 * histories show: the buy-in of the header, the hero's finish and prize when a hand records them
 * (`... finished the tournament in 3rd place and received $5.20`), the chips won or lost over the hands,
 * and the return on investment when buy-in and prize are both known. What the histories do not show is
 * listed in `unknown`, never filled in: a finish no hand records (the tournament still running, or its last
 * hands not uploaded), re-entries and rebuys (a history shows one entry), bounties collected (not read from
 * the histories). A finish line without a prize (`... finished the tournament in 57th place`: out of the
 * money) is a prize of 0, so busted tournaments count in the totals and the return.
 */

import type { StoredHand } from "@ranges/access";
import { timeOf } from "./sessions.js";
import type { HandSummary } from "./types.js";

export interface TournamentResult {
  site: string;
  id: string;
  name: string | null;
  /** Buy-in parts as written (`[10, 1]` for $10+$1) and their sum; null when the histories show none. */
  buyIn: number[] | null;
  buyInTotal: number | null;
  currency: string | null;
  freeroll: boolean;
  hands: number;
  first: string;
  last: string;
  /** Blind levels of the first and last hand. */
  levels: { first: string | null; last: string | null };
  /** Chips won (lost) over the uploaded hands. */
  chipsNet: number;
  finish: { place: number; prize: number | null } | null;
  /** Prize less buy-in; null unless both are known. */
  profit: number | null;
  /** profit / buy-in; null unless both are known and the buy-in is above 0. */
  roi: number | null;
  unknown: string[];
}

export interface TournamentTotals {
  tournaments: number;
  /** Tournaments with a known finish; their buy-ins, prizes and return, per currency. */
  finished: number;
  byCurrency: { currency: string; buyIns: number; prizes: number; profit: number; roi: number | null }[];
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const r2 = (x: number): number => Math.round(x * 100) / 100;

/** One line per tournament (rows need their summary), newest first. */
export function tournamentResults(rows: readonly (StoredHand & { s: HandSummary })[]): TournamentResult[] {
  const byId = new Map<string, (StoredHand & { s: HandSummary })[]>();
  for (const r of rows) {
    if (r.hero === null || r.s.tournament === null) continue;
    const key = `${r.site}|${r.s.tournament.id}`;
    const list = byId.get(key) ?? [];
    list.push(r);
    byId.set(key, list);
  }
  const out: TournamentResult[] = [];
  for (const list of byId.values()) {
    list.sort((a, b) => timeOf(a.playedAt) - timeOf(b.playedAt));
    const t = list[list.length - 1]!.s.tournament!;
    const withBuyIn = list.find((h) => h.s.tournament!.buyIn !== null)?.s.tournament ?? t;
    const finishHand = [...list].reverse().find((h) => h.s.tournament!.heroFinish !== null);
    const written = finishHand?.s.tournament?.heroFinish ?? null;
    // A finish that names no prize is out of the money: the prize is 0 (not unknown, which would leave the
    // tournament out of the totals and inflate the return).
    const finish = written === null ? null : { place: written.place, prize: written.prize ?? 0 };
    const buyIn = withBuyIn.buyIn;
    const buyInTotal = buyIn ? r2(buyIn.reduce((s, x) => s + x, 0)) : withBuyIn.freeroll ? 0 : null;
    const unknown: string[] = [];
    if (finish === null) {
      unknown.push(
        "finish: no uploaded hand shows the hero finishing (the tournament may be running, or its last hands are not uploaded)",
      );
    }
    if (buyInTotal === null) unknown.push("buy-in: the histories show none");
    unknown.push("re-entries and rebuys: a history shows one entry, so the buy-in is counted once");
    unknown.push("bounties collected: not read from the histories, not in the prize");
    const prize = finish?.prize ?? null;
    const profit = prize !== null && buyInTotal !== null ? r2(prize - buyInTotal) : null;
    out.push({
      site: list[0]!.site,
      id: t.id,
      name: t.name,
      buyIn,
      buyInTotal,
      currency: withBuyIn.currency,
      freeroll: withBuyIn.freeroll,
      hands: list.length,
      first: list[0]!.playedAt,
      last: list[list.length - 1]!.playedAt,
      levels: { first: list[0]!.s.tournament!.level, last: t.level },
      chipsNet: r2(list.reduce((s, h) => s + h.net, 0)),
      finish,
      profit,
      roi: profit !== null && buyInTotal !== null && buyInTotal > 0 ? r4(profit / buyInTotal) : null,
      unknown,
    });
  }
  return out.sort((a, b) => timeOf(b.last) - timeOf(a.last));
}

/** Totals over tournaments with a known finish and prize, per buy-in currency. */
export function tournamentTotals(results: readonly TournamentResult[]): TournamentTotals {
  const by = new Map<string, { buyIns: number; prizes: number }>();
  let finished = 0;
  for (const t of results) {
    if (t.finish === null || t.profit === null || t.buyInTotal === null) continue;
    finished++;
    const c = t.currency ?? (t.freeroll ? "freeroll" : "unknown");
    const x = by.get(c) ?? { buyIns: 0, prizes: 0 };
    x.buyIns += t.buyInTotal;
    x.prizes += t.finish.prize ?? 0;
    by.set(c, x);
  }
  return {
    tournaments: results.length,
    finished,
    byCurrency: [...by].map(([currency, x]) => ({
      currency,
      buyIns: r2(x.buyIns),
      prizes: r2(x.prizes),
      profit: r2(x.prizes - x.buyIns),
      roi: x.buyIns > 0 ? r4((x.prizes - x.buyIns) / x.buyIns) : null,
    })),
  };
}
