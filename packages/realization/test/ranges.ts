import { HOLDEM_CLASSES } from "@ranges/core";
import type { FlopLine } from "../src/index.js";

/**
 * Deterministic pseudo-random class weights (169, `HOLDEM_CLASSES` order) for the fit's tests: a class is in
 * the range with probability `density`, at a weight from 0.2 to 1; the others hold `floor`.
 */
export function range(seed: number, density: number, floor = 0): Float64Array {
  let s = seed;
  const w = new Float64Array(169);
  for (let i = 0; i < 169; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const u = s / 2147483648;
    w[i] = u < density ? 0.2 + (0.8 * ((s >> 8) % 1000)) / 1000 : floor;
  }
  return w;
}

/** Weight 1 on each of `classes`, 0 elsewhere (169, `HOLDEM_CLASSES` order). */
export function weights(classes: string[]): Float64Array {
  const w = new Float64Array(169);
  for (const c of classes) w[HOLDEM_CLASSES.indexOf(c as (typeof HOLDEM_CLASSES)[number])] = 1;
  return w;
}

/**
 * A toy line for the batch's tests: OOP holds a full house or better on AhAdKc (AA, KK), IP two underpairs that
 * can barely win (QQ, JJ); solved in milliseconds. `id` names the line and its history.
 */
export const toyLine = (id = "toy"): FlopLine => ({
  id,
  kind: "srp-oop",
  game: "nl/v2",
  stack: 100,
  history: id,
  description: "toy",
  oop: "SB",
  ip: "BB",
  aggressor: "oop",
  pot: 10,
  behind: 10,
  rake: null,
  ranges: { oop: weights(["AA", "KK"]), ip: weights(["QQ", "JJ"]) },
  reach: 1,
});
