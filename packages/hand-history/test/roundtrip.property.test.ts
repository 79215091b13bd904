/**
 * Property: a generated hand survives write-then-parse. `generateHand` (test/generate.ts) simulates a hand
 * on its own and builds the complete `Hand` the parser must read back from `writeHandHistory`'s text.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseHandHistories, writeHandHistory } from "../src/index.js";
import { generateHand } from "./generate.js";

const seeds = fc.integer({ min: 1, max: 2 ** 31 - 1 });

describe("write then parse", () => {
  it("gives back every generated hand, field for field", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const hand = generateHand(seed);
        const text = writeHandHistory(hand);
        const { hands, errors } = parseHandHistories(text);
        expect(errors, text).toEqual([]);
        expect(hands).toHaveLength(1);
        expect(hands[0], text).toEqual(hand);
      }),
      { numRuns: 400 },
    );
  });

  it("keeps chips: nets plus rake sum to zero", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const [hand] = parseHandHistories(writeHandHistory(generateHand(seed))).hands;
        const sum = hand!.players.reduce((s, p) => s + p.net, 0) + hand!.rake;
        expect(Math.abs(sum)).toBeLessThan(1e-6);
        expect(hand!.pots.reduce((s, p) => s + p.amount, 0)).toBeCloseTo(hand!.totalPot, 6);
      }),
      { numRuns: 200 },
    );
  });

  it("reads many hands in one file, with CRLF endings and a byte order mark", () => {
    fc.assert(
      fc.property(fc.array(seeds, { minLength: 1, maxLength: 8 }), fc.boolean(), (list, crlf) => {
        const written = list.map((seed) => writeHandHistory(generateHand(seed)));
        let text = `\uFEFF${written.join("\n\n\n")}\n`;
        if (crlf) text = text.replaceAll("\n", "\r\n");
        const { hands, errors } = parseHandHistories(text);
        expect(errors).toEqual([]);
        expect(hands.map((h) => writeHandHistory(h))).toEqual(written);
      }),
      { numRuns: 100 },
    );
  });
});
