/**
 * The analysis library on histories written for these tests (`fixtures/`: observed hands without a hero,
 * hands with one, a tournament): summaries, lines, preflop flags, all-in adjustments against a direct enumeration,
 * results, sessions, tournaments, opponents, and the equilibrium walk against the committed packs.
 */

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseHandHistories } from "@ranges/hand-history";
import { evaluateCards } from "@ranges/solver";
import { RangeStore } from "@ranges/store";
import { afterAll, describe, expect, it } from "vitest";
import { cardNumbers, expandClassFilter, parseHoleCards } from "../src/cards.js";
import { compareHand, NodeCache } from "../src/equilibrium.js";
import { allInAdjustment, EQUITY_BUDGET_NOTE, HOLDEM_SAMPLES } from "../src/equity.js";
import { handQueryOf } from "../src/filters.js";
import { equilibriumProfile, handsOf, type Loaded, limpRange, opponentStats } from "../src/opponents.js";
import { HandParser } from "../src/parser.js";
import { equilibriumTotals, handResults } from "../src/results.js";
import { parseSessionId, sessionsOf } from "../src/sessions.js";
import { tournamentResults, tournamentTotals } from "../src/tournaments.js";
import type { HandSummary } from "../src/types.js";
import { parseUpload } from "../src/upload-parse.js";
import { decodeUploadText } from "../src/uploads.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../..");
const read = (path: string) => readFileSync(path, "utf8");
const fixture = (name: string) => read(join(here, "fixtures", name));

const store = RangeStore.open({ packsDir: join(root, "data/packs"), refreshMs: 0, worker: false });
afterAll(() => store.close());

/** Rows as the store returns them, with their summaries. */
function loaded(text: string, hero: string | null = null): Loaded[] {
  return parseUpload(text, hero).rows.map((r) => ({
    ...r,
    uploadId: "up_test",
    createdAt: "2026-01-01T00:00:00.000Z",
    s: JSON.parse(r.summary) as HandSummary,
  }));
}

/** The hero's share over every run-out, by brute force with the seven-card evaluator. */
function bruteForceEquity(hands: string[][], board: string[], dead: string[] = []): number {
  const known = new Set([...hands.flat(), ...board, ...dead].map((c) => cardNumbers([c])![0]!));
  const deck = Array.from({ length: 52 }, (_, i) => i).filter((c) => !known.has(c));
  const b = cardNumbers(board)!;
  const hs = hands.map((h) => cardNumbers(h)!);
  const need = 5 - b.length;
  let share = 0;
  let n = 0;
  const pick = (from: number, chosen: number[]) => {
    if (chosen.length === need) {
      const values = hs.map((h) => evaluateCards([...b, ...chosen, ...h]));
      const best = Math.max(...values);
      const winners = values.filter((v) => v === best).length;
      if (values[0] === best) share += 1 / winners;
      n++;
      return;
    }
    for (let i = from; i < deck.length; i++) pick(i + 1, [...chosen, deck[i]!]);
  };
  pick(0, []);
  return share / n;
}

describe("summaries", () => {
  const cash = loaded(fixture("hero-6max-cash.txt"));
  const byId = new Map(cash.map((h) => [h.handId, h]));

  it("reads the hero's position, cards, class, line, showdown and result", () => {
    expect(cash.map((h) => [h.handId, h.position, h.handClass, h.line, h.showdown, h.net, h.netBb])).toEqual([
      ["250000000001", "BTN", "AKo", "single_raised", false, 2.75, 2.75],
      ["250000000002", "CO", "AA", "four_bet_plus", true, -99.5, -99.5],
      ["250000000003", "HJ", "83o", "limped", false, 0, 0],
      ["250000000004", "BB", "QQ", "three_bet", false, 3, 3],
      ["250000000005", "SB", "KQs", "single_raised", true, -10, -10],
    ]);
    expect(byId.get("250000000001")).toMatchObject({ holeCards: "AhKd", stakes: "$0.50/$1", game: "nlhe" });
  });

  it("counts each player's preflop chances and actions", () => {
    const flags = (id: string, name: string) => {
      const s = byId.get(id)!.s;
      return s.players.find((p) => p.name === name)!.preflop;
    };
    // Vera88 3-bets the hero's open, then 5-bets all-in: a 3-bet, no fold-to-3-bet chance (she did not open).
    expect(flags("250000000002", "Vera88")).toMatchObject({
      threeBetChance: true,
      threeBet: true,
      foldToThreeBetChance: false,
    });
    // The hero opened and faced her 3-bet: a chance to fold to it, not taken.
    expect(flags("250000000002", "Hero1")).toMatchObject({
      rfi: true,
      foldToThreeBetChance: true,
      foldToThreeBet: false,
    });
    // Gorm limps UTG; the SB completes; the BB only checks (no VPIP).
    expect(flags("250000000003", "Gorm")).toMatchObject({
      limpChance: true,
      limp: true,
      rfiChance: true,
      rfi: false,
      vpip: true,
    });
    expect(flags("250000000003", "Pavlo")).toMatchObject({ limpChance: true, limp: true, vpip: true });
    expect(flags("250000000003", "Mia_K")).toMatchObject({ limpChance: false, vpip: false });
    // Vera88 opens UTG and folds to the hero's 3-bet.
    expect(flags("250000000004", "Vera88")).toMatchObject({
      rfi: true,
      pfr: true,
      foldToThreeBetChance: true,
      foldToThreeBet: true,
    });
  });

  it("reads observed PokerStars hands (no hero unless named)", () => {
    const ten = loaded(fixture("observed-6max-cash.txt"));
    expect(ten).toHaveLength(10);
    expect(ten.every((h) => h.hero === null && h.position === null)).toBe(true);
    // Seats 1 and 6 play hands 1-4 only: rivertilt is in 4 of the 10 hands.
    const named = loaded(fixture("observed-6max-cash.txt"), "rivertilt");
    expect(named.filter((h) => h.hero === "rivertilt")).toHaveLength(4);
    const plo = loaded(fixture("observed-plo-ante.txt"));
    expect(plo[0]).toMatchObject({ game: "plo", format: "cash" });
  });
});

describe("all-in adjusted results", () => {
  it("AA against KK all-in before the flop: the exact heads-up enumeration", () => {
    const hand = parseHandHistories(fixture("hero-6max-cash.txt")).hands.find(
      (h) => h.id === "250000000002",
    )!;
    const { adjustment } = allInAdjustment(hand, "Hero1");
    expect(adjustment).toMatchObject({ street: "preflop", players: 2, method: "exact", runouts: 1_712_304 });
    const eq = adjustment!.equity;
    expect(eq).toBeGreaterThan(0.8);
    expect(eq).toBeLessThan(0.84);
    // Expected collections: the share of the pot less the rake ($200.50 - $3), less the $99.50 put in.
    expect(adjustment!.adjustedNet).toBeCloseTo(eq * 197.5 - 99.5, 3);
  });

  it("a flop all-in: equal to a brute-force enumeration of the turn and river", () => {
    const hand = parseHandHistories(fixture("observed-flop-allin.txt")).hands[0]!;
    const { adjustment } = allInAdjustment(hand, "Otto (AT)");
    expect(adjustment).toMatchObject({ street: "flop", players: 2, method: "exact", runouts: 990 });
    const eq = bruteForceEquity(
      [
        ["Kc", "Kd"],
        ["Jh", "Ts"],
      ],
      ["Jd", "6s", "6c"],
    );
    expect(adjustment!.equity).toBeCloseTo(eq, 6);
    // The pot less the rake ($25.64 - $1.28), less the $12.60 Otto put in (his ante included).
    expect(adjustment!.adjustedNet).toBeCloseTo(eq * 24.36 - 12.6, 3);
    // The observed hand without a hero: nothing to adjust.
    expect(allInAdjustment(hand, null)).toEqual({ adjustment: null, note: null });
  });

  it("three players all-in with side pots (GGPoker tournament): each pot among its own contenders", () => {
    const text = read(join(root, "packages/hand-history/test/fixtures/ggpoker/tournament-holdem.txt"));
    const hand = parseHandHistories(text).hands[0]!;
    const { adjustment } = allInAdjustment(hand, "Hero");
    // Three players before the flop: seeded Monte Carlo (about 7 ms here; enumerating the 1,370,754 boards
    // took about 120 ms a hand, more with more players).
    expect(adjustment).toMatchObject({
      street: "preflop",
      players: 3,
      method: "monte-carlo",
      runouts: HOLDEM_SAMPLES,
    });
    expect(adjustment!.standardError).toBeGreaterThan(0);
    expect(adjustment!.standardError).toBeLessThan(0.005);
    // Seeded: the same answer every time.
    expect(allInAdjustment(hand, "Hero").adjustment).toEqual(adjustment);
    // Hero (AhQh) against JcJs and KcKd; the side pot is between the hero and KcKd only, on the same
    // run-outs (JcJs are dead cards for it).
    const main = hand.pots[0]!;
    const side = hand.pots[1]!;
    const hero = hand.players.find((p) => p.name === "Hero")!;
    const threeWay = bruteForceEquityThree();
    const headsUp = bruteForceEquity(
      [
        ["Ah", "Qh"],
        ["Kc", "Kd"],
      ],
      [],
      ["Jc", "Js"],
    );
    // Within four standard errors of the exact value (the error is of the equity over both pots).
    const exact = threeWay * main.amount + headsUp * side.amount - hero.invested;
    const total = main.amount + side.amount;
    expect(Math.abs(adjustment!.adjustedNet - exact)).toBeLessThan(
      4 * adjustment!.standardError * total + 0.01,
    );
  }, 120_000);

  it("an upload's equity time budget: past it, all-ins are left unadjusted with a note", () => {
    const text = fixture("hero-6max-cash.txt");
    const spent = parseUpload(text, null, { equityBudgetMs: 0 });
    const aa = spent.rows.find((r) => r.handId === "250000000002")!;
    expect(aa.adjustedBb).toBeNull();
    expect((JSON.parse(aa.summary) as HandSummary).allInNote).toBe(EQUITY_BUDGET_NOTE);
    const normal = parseUpload(text, null);
    expect(normal.rows.find((r) => r.handId === "250000000002")!.adjustedBb).not.toBeNull();
  });

  it("explains a missing adjustment: cards not shown, Hi/Lo", () => {
    const hand = parseHandHistories(fixture("hero-6max-cash.txt")).hands.find(
      (h) => h.id === "250000000002",
    )!;
    const vera = hand.players.find((p) => p.name === "Vera88")!;
    const hidden = { ...hand, players: hand.players.map((p) => (p === vera ? { ...p, cards: null } : p)) };
    expect(allInAdjustment(hidden, "Hero1")).toEqual({
      adjustment: null,
      note: "Vera88's cards were not shown, so the all-in equity cannot be computed.",
    });
    const hiLo = { ...hand, game: { ...hand.game, hiLo: true } };
    expect(allInAdjustment(hiLo, "Hero1").note).toMatch(/Hi\/Lo/);
  });
});

/** AhQh against JcJs and KcKd over every board (sampled every 7th for speed would not be exact: full). */
function bruteForceEquityThree(): number {
  return bruteForceEquity(
    [
      ["Ah", "Qh"],
      ["Jc", "Js"],
      ["Kc", "Kd"],
    ],
    [],
  );
}

describe("results, sessions, tournaments", () => {
  const cash = loaded(fixture("hero-6max-cash.txt"));
  const mtt = loaded(fixture("hero-8max-tournament.txt"));

  it("totals and bb/100 by position and game, with the all-in adjustment", () => {
    const r = handResults(cash);
    expect(r.total).toMatchObject({ hands: 5, netBb: -103.75, bbPer100: -2075, allInHands: 1 });
    const adjusted = cash.find((h) => h.handId === "250000000002")!.adjustedBb!;
    expect(r.total.adjustedBb).toBeCloseTo(2.75 + adjusted + 0 + 3 - 10, 2);
    expect(r.total.net).toEqual([{ unit: "USD", amount: -103.75 }]);
    expect(r.byPosition.map((p) => p.key)).toEqual(["HJ", "CO", "BTN", "SB", "BB"]);
    expect(r.byPosition.find((p) => p.key === "CO")).toMatchObject({
      hands: 1,
      netBb: -99.5,
      allInLuckBb: expect.any(Number),
    });
    expect(r.byGame).toEqual([expect.objectContaining({ key: "nlhe cash $0.50/$1", hands: 5 })]);
  });

  it("sessions split at a gap, with their tables; ids name the gap and the first hand", () => {
    const sessions = sessionsOf(cash, 30);
    expect(sessions.map((s) => [s.hands, s.tables.map((t) => t.table), s.netBb])).toEqual([
      [4, ["Alioth II"], -93.75],
      [1, ["Mizar III"], -10],
    ]);
    expect(sessions[0]).toMatchObject({ start: "2024-03-01T15:00:00.000Z", minutes: 12, allInHands: 1 });
    expect(parseSessionId(sessions[1]!.id)).toEqual({
      gapMinutes: 30,
      site: "pokerstars",
      handId: "250000000005",
    });
    // A gap of two hours joins them.
    expect(sessionsOf(cash, 120)).toHaveLength(1);
    expect(() => parseSessionId("ses_nope")).toThrow(/session id/);
  });

  it("a tournament: buy-in, finish, prize and ROI from the histories, and what they do not show", () => {
    const [t] = tournamentResults(mtt);
    expect(t).toMatchObject({
      id: "3300000001",
      buyIn: [5, 0.5],
      buyInTotal: 5.5,
      currency: "USD",
      hands: 2,
      chipsNet: -7800,
      finish: { place: 7, prize: 8.25 },
      profit: 2.75,
      roi: 0.5,
    });
    expect(t!.unknown.join(" ")).toMatch(/re-entries.*bounties/);
    expect(tournamentTotals([t!]).byCurrency).toEqual([
      { currency: "USD", buyIns: 5.5, prizes: 8.25, profit: 2.75, roi: 0.5 },
    ]);
    // Without the last hand, the finish is unknown and said to be.
    const [open] = tournamentResults(mtt.slice(0, 1));
    expect(open).toMatchObject({ finish: null, roi: null, profit: null });
    expect(open!.unknown[0]).toMatch(/^finish: no uploaded hand/);
  });

  it("a finish out of the money (no prize named) is a prize of 0, counted in the totals and the return", () => {
    const busted = loaded(
      fixture("hero-8max-tournament.txt").replace(
        "finished the tournament in 7th place and received $8.25.",
        "finished the tournament in 7th place",
      ),
    );
    const [t] = tournamentResults(busted);
    expect(t).toMatchObject({ finish: { place: 7, prize: 0 }, profit: -5.5, roi: -1 });
    expect(t!.unknown.filter((u) => u.startsWith("prize"))).toEqual([]);
    const [won] = tournamentResults(mtt);
    expect(tournamentTotals([t!, won!])).toMatchObject({
      finished: 2,
      byCurrency: [{ currency: "USD", buyIns: 11, prizes: 8.25, profit: -2.75, roi: -0.25 }],
    });
  });
});

describe("opponents", () => {
  const cash = loaded(fixture("hero-6max-cash.txt"));

  it("statistics per opponent, the hero excluded", () => {
    const stats = opponentStats(cash);
    expect(stats.some((s) => s.player === "Hero1")).toBe(false);
    const vera = stats.find((s) => s.player === "Vera88")!;
    expect(vera).toMatchObject({
      hands: 4,
      handsWithHero: 4,
      vpip: { n: 4, k: 2, freq: 0.5 },
      pfr: { n: 4, k: 2 },
      threeBet: { n: 2, k: 1, freq: 0.5 },
      foldToThreeBet: { n: 1, k: 1, freq: 1 },
      showdowns: 1,
    });
  });

  it("limps by position with the classes shown after limping", () => {
    const cache = new NodeCache(store);
    const gorm = limpRange(handsOf(cash, "pokerstars", "Gorm"), cache, 10);
    expect(gorm.byPosition.find((p) => p.position === "UTG")).toMatchObject({
      chances: 1,
      limps: 1,
      freq: 1,
    });
    expect(gorm.shownClasses).toEqual([{ handClass: "76s", times: 1, positions: ["UTG"] }]);
    expect(gorm.shown[0]).toMatchObject({ handId: "250000000003", cards: ["7s", "6s"], preflop: ["call"] });
  });

  it("preflop decisions beside the equilibrium's range at the same nodes", () => {
    const cache = new NodeCache(store);
    const vera = equilibriumProfile(handsOf(cash, "pokerstars", "Vera88"), cache);
    expect(vera.comparableHands).toBeGreaterThan(0);
    const unopened = vera.situations.find((s) => s.situation === "unopened" && s.position === "UTG")!;
    expect(unopened.observed).toEqual({ fold: 0, call: 0, raise: 1 });
    // The equilibrium's UTG first-in shares are the node's own (nothing before UTG).
    const node = store.node("nl/v2", 100, "UTG");
    const combos = (kind: string) =>
      node.actions.filter((a) => a.kind === kind).reduce((s, a) => s + a.combos, 0);
    const total = node.actions.reduce((s, a) => s + a.combos, 0);
    expect(unopened.equilibrium.raise).toBeCloseTo(combos("raise") / total, 3);
  });
});

describe("the equilibrium walk", () => {
  const cash = loaded(fixture("hero-6max-cash.txt"));
  const mtt = loaded(fixture("hero-8max-tournament.txt"));
  const cache = new NodeCache(store);

  it("maps a 6-max 100bb hand onto nl/v2 100 and reads the hero's class at each node", () => {
    const c = compareHand(cash[0]!.s, cache);
    expect(c.status).toBe("compared");
    if (c.status !== "compared") return;
    expect(c).toMatchObject({ game: "nl/v2", stack: 100, stoppedAt: null });
    const hero = c.decisions.find((d) => d.player === cash[0]!.s.hero)!;
    expect(hero).toMatchObject({
      history: "UTG_Fold_HJ_Fold_CO_Fold_BTN",
      action: "60%",
      kind: "raise",
      handClass: "AKo",
    });
    const node = store.node("nl/v2", 100, "UTG_Fold_HJ_Fold_CO_Fold_BTN", { hand: "AKo" });
    const taken = node.actions.find((a) => a.action === "60%")!;
    expect(hero.freq).toBeCloseTo(taken.weights.AKo ?? 0, 4);
    expect(hero.evSb).toBe(taken.evs.AKo);
    const best = Math.max(...node.actions.map((a) => a.evs.AKo ?? Number.NEGATIVE_INFINITY));
    expect(hero.evLossBb).toBeCloseTo((best - taken.evs.AKo!) / 2, 4);
  });

  it("stops where the hand leaves the tree and says why; other games and tables are not comparable", () => {
    const limped = compareHand(cash[2]!.s, cache);
    expect(limped).toMatchObject({ status: "compared", decisions: [] });
    if (limped.status === "compared") expect(limped.stoppedAt).toMatch(/Calling is not an action at UTG/);
    const ante = loaded(fixture("observed-flop-allin.txt"), "Otto (AT)");
    expect(compareHand(ante[0]!.s, cache)).toMatchObject({
      status: "not_comparable",
      reason: expect.stringMatching(/5 players were dealt in/),
    });
    const plo = loaded(fixture("observed-plo-ante.txt"), null);
    expect(compareHand(plo[0]!.s, cache)).toMatchObject({ status: "not_comparable" });
  });

  it("a bounty (PKO) tournament hand is not compared with the chip-EV nlmtt8, and says why", () => {
    // The same 8-max hands with a bounty on every seat, or a bounty in the tournament's name.
    const text = fixture("hero-8max-tournament.txt");
    const withBounties = text.replace(/ \((\d+) in chips\)/g, " ($1 in chips, $$2.50 bounty)");
    const named = text.replaceAll("$5+$0.50 USD Hold'em", "$5+$0.50 USD PKO Turbo Hold'em");
    for (const pko of [loaded(withBounties), loaded(named)]) {
      expect(pko[1]!.s.tournament?.knockout).toBe(true);
      expect(compareHand(pko[1]!.s, cache)).toEqual({
        status: "not_comparable",
        reason: expect.stringMatching(/bounty \(PKO, knockout\) tournament.*nlmtt8 is chip EV only/),
      });
    }
    expect(mtt[1]!.s.tournament?.knockout).toBe(false);
    expect(compareHand(mtt[1]!.s, cache).status).toBe("compared");
    expect(parseUpload(withBounties, null).warnings).toEqual([
      expect.stringMatching(/^2 hands are from bounty \(PKO, knockout\) tournaments: stored/),
    ]);
  });

  it("an 8-max tournament hand with antes of 1bb in all maps onto nlmtt8 at the nearest stack", () => {
    const c = compareHand(mtt[1]!.s, cache);
    expect(c).toMatchObject({ status: "compared", game: "nlmtt8", stack: 40 });
    if (c.status !== "compared") return;
    const hero = c.decisions.find((d) => d.player === mtt[1]!.s.hero)!;
    expect(hero).toMatchObject({ action: "AI", kind: "raise", handClass: "99" });
    const totals = equilibriumTotals(
      [...cash, ...mtt].map((h) => ({
        site: h.site,
        handId: h.handId,
        hero: h.s.hero,
        comparison: compareHand(h.s, cache),
      })),
    );
    expect(totals.comparableHands).toBeGreaterThanOrEqual(5);
    expect(totals.decisions).toBeGreaterThan(0);
  });
});

describe("inputs", () => {
  it("class filters expand range notation and refuse what is not a class", () => {
    expect(expandClassFilter("TT+")).toEqual(["TT", "JJ", "QQ", "KK", "AA"]);
    expect(expandClassFilter("ATs+")).toEqual(["ATs", "AJs", "AQs", "AKs"]);
    expect(expandClassFilter("A2s-A4s, 22-33,KQ")).toEqual(["A2s", "A3s", "A4s", "22", "33", "KQs", "KQo"]);
    expect(() => expandClassFilter("AXs")).toThrow(/not a hand class/);
    expect(parseHoleCards("kd ah")).toBe("AhKd");
    expect(parseHoleCards("AhAh")).toBeNull();
  });

  it("filters become store queries; bad dates and positions are 400s", () => {
    expect(
      handQueryOf({ from: "2024-03-01", to: "2024-03-01", positions: ["btn"], handClass: "QQ+" }),
    ).toMatchObject({
      from: "2024-03-01",
      to: "2024-03-02",
      positions: ["BTN"],
      handClasses: ["QQ", "KK", "AA"],
      heroOnly: true,
    });
    // Times compare as text with the stored ones: written out in full, without the zone letter.
    const q = handQueryOf({ from: "2024-03-01T18:00Z", to: "2024-03-01T19:30:15.5" });
    expect(q).toMatchObject({ from: "2024-03-01T18:00:00", to: "2024-03-01T19:30:15.500" });
    const within = (t: string) => t >= q.from! && t < q.to!;
    expect(within("2024-03-01T18:00:00.000Z")).toBe(true);
    expect(within("2024-03-01T18:00:00")).toBe(true);
    expect(within("2024-03-01T17:59:59.999Z")).toBe(false);
    expect(within("2024-03-01T19:30:15.499Z")).toBe(true);
    expect(within("2024-03-01T19:30:15.500Z")).toBe(false);
    expect(within("2024-03-01T19:30:16")).toBe(false);
    const upTo = handQueryOf({ to: "2024-03-01T18:00Z" }).to!;
    expect("2024-03-01T18:00:30.000Z" < upTo).toBe(false);
    expect("2024-03-01T17:59:59" < upTo).toBe(true);
    expect(() => handQueryOf({ from: "yesterday" })).toThrow(/not a date/);
    expect(() => handQueryOf({ positions: ["DEALER"] })).toThrow(/not a position/);
    expect(() => handQueryOf({ from: "2024-03-02", to: "2024-03-01" })).toThrow(/before/);
  });

  it("uploads are text: UTF-8 with or without BOM, UTF-16, Windows-1252; binary is refused", () => {
    // TextDecoder drops the byte order mark.
    expect(decodeUploadText(Buffer.from("\uFEFFPokerStars Hand", "utf8"))).toBe("PokerStars Hand");
    expect(
      decodeUploadText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Poker", "utf16le")])),
    ).toBe("Poker");
    expect(() =>
      decodeUploadText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00])),
    ).toThrow(/not text/);
    expect(() => decodeUploadText(Buffer.from("abc\u0000def"))).toThrow(/NUL/);
    // Windows-1252 (older clients): "€" is 0x80, "é" 0xE9; UTF-16 without a byte order mark.
    expect(decodeUploadText(Buffer.from([0x80, 0x35, 0x20, 0x52, 0xe9, 0x6d, 0x79]))).toBe("€5 Rémy");
    expect(decodeUploadText(Buffer.from("Poker Hand", "utf16le"))).toBe("Poker Hand");
    expect(() => decodeUploadText(Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x41]))).toThrow(/not text.*UTF-16/);
  });

  it("warns when the hero named with an upload is in none of its hands", () => {
    const text = fixture("observed-6max-cash.txt");
    expect(parseUpload(text, "rivertilt").warnings).toEqual([]);
    expect(parseUpload(text, "RiverTilt").warnings).toEqual([
      expect.stringMatching(
        /hero "RiverTilt" is not a player in any of the 10 hands read.*did you mean "rivertilt"/,
      ),
    ]);
    expect(parseUpload(text, "somebody_else").warnings).toEqual([
      expect.stringMatching(/hero "somebody_else" is not a player.*exactly as the histories write it/),
    ]);
    expect(parseUpload(text, null).warnings).toEqual([]);
  });
});

describe("the parse thread", () => {
  it("gives what the in-process parse gives, off the main thread", async () => {
    const parser = new HandParser({ idleMs: 100 });
    try {
      const text = fixture("hero-6max-cash.txt");
      const off = await parser.parse(text, null);
      const on = parseUpload(text, null);
      expect(off.rows).toEqual(on.rows);
      expect(off).toMatchObject({ hands: 5, withHero: 5, errors: 0 });
      const bad = await parser.parse("PokerStars Hand #1: nonsense\n", null);
      expect(bad.hands).toBe(0);
      expect(parser.started).toBe(1);
    } finally {
      await parser.close();
    }
  });
});
