/**
 * The committed PLO packs (data/packs/plo*, solved over the 512 buckets of the PLO abstraction) read as a
 * player would, through real HTTP with a key (issue "Pot-limit Omaha preflop", item 7): a double-suited
 * (AK)(AK) never folds first in at 100bb from any seat of any PLO game, a rainbow disconnected 9642 folds
 * under the gun in plo and plo9, every seat but the BB enters the pot more often than the seat before it, and
 * every response validates against its schema (`getJson` parses every 200 with it; `expectExactly` checks
 * that nothing outside the schema is sent).
 */

import { fileURLToPath } from "node:url";
import { GAMES, type GameId } from "@ranges/core";
import { type Node, NodeSchema, type Range, RangeSchema } from "@ranges/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, expectExactly, getJson, start, type TestServer } from "./helpers.js";

const PACKS_DIR = fileURLToPath(new URL("../../../data/packs", import.meta.url));
const R = "/api/v1/ranges";

let t: TestServer;
let key: string;
/** The PLO games whose 100bb pack is committed; plo and plo9 are required, the others checked when present. */
let PLO_GAMES: GameId[];
const get = (path: string) => getJson(`${t.base}${R}${path}`, bearer(key));

/** The first-in node of each seat but the BB: every seat before it folded. */
function firstInHistories(game: GameId): { seat: string; history: string }[] {
  const seats = GAMES[game].seats;
  return seats.slice(0, -1).map((seat, i) => ({
    seat,
    history: [...seats.slice(0, i).map((s) => `${s}_Fold`), seat].join("_"),
  }));
}

/** A node's fold frequency for the one hand asked (`hand=`), 0 when Fold lists no weight for it. */
function foldOf(node: Node): number {
  const fold = node.actions.find((a) => a.kind === "fold");
  return fold ? (Object.values(fold.weights)[0] ?? 0) : 0;
}

beforeAll(async () => {
  t = await start({ packsDir: PACKS_DIR, keylessDailyLimit: 100_000 });
  key = (await t.access.createKey({ name: "tests" })).key;
  PLO_GAMES = (["plo", "plo9", "plo5", "plo6hu"] as const).filter((g) => t.store.liveStacks(g).includes(100));
});
afterAll(async () => {
  await t.close();
});

describe("the committed PLO packs, read as a player would", () => {
  it("plo and plo9 have a committed 100bb pack", () => {
    expect(PLO_GAMES).toEqual(expect.arrayContaining(["plo", "plo9"]));
  });

  it("a double-suited (AK)(AK) never folds first in at 100bb, from any seat of any PLO game", async () => {
    for (const game of PLO_GAMES) {
      for (const { seat, history } of firstInHistories(game)) {
        const res = await get(`/${game}/node?stack=100&history=${history}&hand=AsKsAhKh`);
        expect(res.status, `${game} ${seat}`).toBe(200);
        const node = res.body as unknown as Node;
        expectExactly(NodeSchema, node);
        expect(foldOf(node), `${game} ${seat} folds (AK)(AK)`).toBe(0);
      }
    }
  });

  it("a rainbow, disconnected 9642 folds under the gun in plo and plo9", async () => {
    for (const game of ["plo", "plo9"] as const) {
      const res = await get(`/${game}/node?stack=100&history=UTG&hand=${encodeURIComponent("9642")}`);
      expect(res.status).toBe(200);
      expect(foldOf(res.body as unknown as Node), game).toBeGreaterThanOrEqual(0.99);
    }
  });

  it("first-in ranges widen seat by seat toward the button", async () => {
    for (const game of PLO_GAMES) {
      const entered: number[] = [];
      for (const { history } of firstInHistories(game)) {
        const res = await get(`/${game}/node?stack=100&history=${history}&minFreq=0.5`);
        const node = res.body as unknown as Node;
        const total = node.actions.reduce((x, a) => x + a.combos, 0);
        const fold = node.actions.find((a) => a.kind === "fold")!.combos;
        entered.push(1 - fold / total);
      }
      // Up to the button: the SB, out of position to the BB with a half blind in, may enter less.
      const upToButton = entered.slice(0, GAMES[game].seats.indexOf("BTN") + 1);
      for (let i = 1; i < upToButton.length; i++) {
        expect(upToButton[i], `${game}: seat ${i} against the seat before it`).toBeGreaterThan(
          upToButton[i - 1]!,
        );
      }
      // Heads-up the first seat is the button, which plays most hands.
      if (GAMES[game].seats.length > 2) {
        expect(entered[0], `${game}: the first seat enters with a minority of hands`).toBeLessThan(0.35);
      }
    }
  });

  it("a full node (16,432 classes) and an open range validate against their schemas", async () => {
    const node = await get(`/plo/node?stack=100&history=UTG`);
    expect(node.status).toBe(200);
    expectExactly(NodeSchema, node.body);
    const weights = (node.body as unknown as Node).actions.reduce(
      (n, a) => n + Object.keys(a.weights).length,
      0,
    );
    expect(weights).toBeGreaterThanOrEqual(16_432);
    const range = await get(`/plo/range?stack=100&spot=UTG_Open`);
    expect(range.status).toBe(200);
    expectExactly(RangeSchema, range.body);
    expect(Object.keys((range.body as unknown as Range).weights).length).toBeGreaterThan(1000);
  });
});
