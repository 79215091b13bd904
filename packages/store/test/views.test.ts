/**
 * The JSON path writes node and range bodies as bytes (`nodeBytes`, `rangeBytes` in src/views.ts) instead of
 * stringifying the objects `nodeView` and `rangeView` build: every body must be the same bytes, for every node
 * and action of packs of each kind (hold'em with and without EVs, PLO's 16,432 classes), with every option.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GameId } from "@ranges/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPath, RangeStore, writePack } from "../src/index.js";
import { buildPack, tmpDir } from "./fixtures.js";

let dir: string;
let store: RangeStore;
const packs: { game: GameId; stack: number }[] = [
  { game: "nlmtt8", stack: 40 },
  { game: "nl", stack: 100 },
  { game: "plo", stack: 100 },
];

beforeAll(async () => {
  dir = tmpDir("views-");
  await writePack(packPath(dir, "nlmtt8", 40), buildPack({ game: "nlmtt8", stack: 40, maxNodes: 60 }));
  await writePack(packPath(dir, "nl", 100), buildPack({ game: "nl", stack: 100, maxNodes: 40, seed: 5 }));
  await writePack(packPath(dir, "plo", 100), buildPack({ game: "plo", stack: 100, maxNodes: 6, seed: 7 }));
  writeFileSync(join(dir, "README"), "fixtures\n");
  store = RangeStore.open({ packsDir: dir, cacheBytes: 0, refreshMs: 0 });
});
afterAll(() => store.close());

describe("node and range bodies written as text", () => {
  it("are byte for byte JSON.stringify of the node and range objects, with every option", () => {
    let bodies = 0;
    for (const { game, stack } of packs) {
      const spots = store.spots(game, stack, { anyGame: true }).spots;
      const plo = game === "plo";
      const hands = plo ? [undefined, "AAKK"] : [undefined, "AKs", "72o", "KhAh"];
      const minFreqs = [undefined, 0, 0.05, 0.5, 1];
      for (const spot of spots) {
        for (const hand of hands) {
          for (const minFreq of minFreqs) {
            for (const full of plo ? [false] : [false, true]) {
              const options = {
                ...(hand === undefined ? {} : { hand }),
                ...(minFreq === undefined ? {} : { minFreq }),
              };
              const node = store.json({ kind: "node", game, stack, history: spot.history, ...options, full });
              expect(node.body).toBe(
                JSON.stringify(store.node(game, stack, spot.history, { ...options, full })),
              );
              for (const action of spot.actions) {
                const path = `${spot.history}_${action}`;
                const range = store.json({ kind: "range", game, stack, spot: path, ...options });
                expect(range.body).toBe(JSON.stringify(store.range(game, stack, path, options)));
                bodies += 2;
              }
            }
          }
        }
      }
    }
    expect(bodies).toBeGreaterThan(1000);
  });
});
