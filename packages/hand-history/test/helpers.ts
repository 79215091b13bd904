/** Test helpers (not a test file: vitest only runs `*.test.ts`). */

import { readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { Hand } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The repository root (packages/hand-history/test -> ../../..). */
export const REPO_ROOT = resolve(here, "..", "..", "..");

/**
 * Optional real files for extra coverage: `../shared/hand-histories` beside the repository (see its
 * README.md), or the folder `HAND_HISTORY_SAMPLES` names. Only `test/samples.test.ts` reads it, in the
 * uncached `test:samples` task; no other test may depend on it (a clone has no `../shared`).
 */
export const SHARED_SAMPLES = process.env.HAND_HISTORY_SAMPLES
  ? resolve(process.env.HAND_HISTORY_SAMPLES)
  : resolve(REPO_ROOT, "..", "shared", "hand-histories");

export const FIXTURES = join(here, "fixtures");

/** Every `.txt` file under a folder, as paths relative to it, sorted. */
export function textFiles(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...textFiles(path, `${prefix}${name}/`));
    else if (name.endsWith(".txt")) out.push(`${prefix}${name}`);
  }
  return out;
}

/** Chips are kept: the nets and what the site withheld add up to the EV cashouts (0 without). */
export function expectChipsConserved(hand: Hand): void {
  const nets = hand.players.reduce((sum, p) => sum + p.net, 0);
  const cashouts = hand.cashouts.reduce((sum, c) => sum + c.amount, 0);
  expect(Math.abs(nets + hand.rake - cashouts), `hand #${hand.id}`).toBeLessThan(1e-6);
  expect(hand.collected.reduce((sum, c) => sum + c.amount, 0) + hand.rake).toBeCloseTo(hand.totalPot, 6);
  expect(hand.pots.reduce((sum, p) => sum + p.amount, 0)).toBeCloseTo(hand.totalPot, 6);
  expect(hand.players.reduce((sum, p) => sum + p.invested, 0)).toBeCloseTo(hand.totalPot, 6);
  for (const p of hand.players) {
    expect(p.invested).toBeLessThanOrEqual(p.stack + 1e-9);
    expect(p.dealtIn || (p.invested === 0 && p.position === null)).toBe(true);
  }
}

/** The player of a hand by name (fails when absent). */
export function player(hand: Hand, name: string): Hand["players"][number] {
  const found = hand.players.find((p) => p.name === name);
  expect(found, `${name} in hand #${hand.id}`).toBeDefined();
  return found!;
}

/** Positions by name, for compact expectations. */
export function positions(hand: Hand): Record<string, string | null> {
  return Object.fromEntries(hand.players.map((p) => [p.name, p.position]));
}

/** Nets by name, for compact expectations. */
export function nets(hand: Hand): Record<string, number> {
  return Object.fromEntries(hand.players.map((p) => [p.name, p.net]));
}
