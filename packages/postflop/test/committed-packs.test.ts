/**
 * The committed postflop packs (data/postflop/*.pfpack, written by `pnpm solve-postflop-packs`), read through
 * the package's public API: every file opens (header and index checked), every board's block matches its
 * SHA-256 and decodes, every board was solved to at most 0.5% of the pot, its two root EVs add up to the pot
 * less at most the rake cap, and each of its flop decision nodes holds a strategy for every hand of the
 * acting range whose frequencies sum to 1. An empty directory passes (the service then lists no postflop pack).
 */

import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { POSTFLOP_PACK_EXTENSION, PostflopPackFile, SOLVER_ALGORITHM } from "../src/index.js";

const DIR = fileURLToPath(new URL("../../../data/postflop", import.meta.url));
const files = readdirSync(DIR).filter((f) => f.endsWith(POSTFLOP_PACK_EXTENSION));

describe("committed postflop packs", () => {
  it("data/postflop holds only readable packs", () => {
    for (const f of files) expect(() => PostflopPackFile.open(`${DIR}/${f}`), f).not.toThrow();
  });

  // The schedule's words are hashed into every board's inputs: a change re-solves every board of every pack.
  it("names the schedule every committed board was solved with, word for word", () => {
    expect(SOLVER_ALGORITHM).toBe(
      "DCFR (alpha 1.5, beta 0, gamma 2), alternating updates, vectorized over combos",
    );
    for (const f of files)
      expect(PostflopPackFile.open(`${DIR}/${f}`).header.solver.algorithm, f).toBe(SOLVER_ALGORITHM);
  });

  for (const f of files) {
    it(`${f}: every board is intact, solved to at most 0.5% of the pot, and its strategies sum to 1`, () => {
      const pack = PostflopPackFile.open(`${DIR}/${f}`);
      const { header } = pack;
      expect(`${header.id}${POSTFLOP_PACK_EXTENSION}`).toBe(f);
      expect(header.boards.length).toBeGreaterThan(0);
      for (const entry of header.boards) {
        const where = `${header.id} ${entry.board}`;
        expect(entry.provenance.exploitabilityPct, where).toBeLessThanOrEqual(0.5);
        expect(entry.provenance.iterations, where).toBeGreaterThan(0);
        // Pot-share convention: the two root EVs are the pot less the rake (at most its cap).
        const total = entry.rootEv.oop + entry.rootEv.ip;
        expect(total, where).toBeLessThanOrEqual(header.pot + 1e-6);
        expect(total, where).toBeGreaterThanOrEqual(header.pot - header.rake.capBb - 1e-6);
        // Decoding checks the block's SHA-256; every stored node's frequencies sum to 1 per hand.
        const data = pack.board(entry.board);
        expect(data.nodes.length, where).toBe(header.nodes.length);
        data.nodes.forEach((node, i) => {
          const hands = node.strategy[0]!.length;
          const player = header.nodes[i]!.player === "oop" ? 0 : 1;
          expect(hands, `${where} ${header.nodes[i]!.path}`).toBe(data.hands[player].length);
          let worst = 0;
          for (let h = 0; h < hands; h++) {
            let sum = 0;
            for (const a of node.strategy) sum += a[h]!;
            worst = Math.max(worst, Math.abs(sum - 1));
          }
          expect(worst, `${where} ${header.nodes[i]!.path}`).toBeLessThan(1e-3);
        });
      }
    });
  }
});
