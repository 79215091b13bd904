/**
 * PLO playability: the realization multiplier of each class and bucket before the position factor, for the
 * contest of src/model/realization.ts (`buildContestMatrices`). Hold'em reads playability off its 169 class
 * kinds (suited, connectors, pairs); a four-card hand's comes from the PLO abstraction's features
 * (`ploClassFeatures`): suits, a suited ace, wraps, pairs, trips and danglers, with the bonuses of the tree
 * config's `model.playability` (`PloPlayability`, documented in docs/plo-abstraction.md).
 *
 *   m(class) = 1 + suit bonus (doubleSuited | singleSuited | threeFlush | 0 rainbow) + nutSuit [a suited ace]
 *              + wrap * wrapWindows + pair * pairs (1 or 2) + trips [trips or quads] + dangler * danglers
 *   m(bucket) = combo-weighted mean of m over its classes
 *
 * e.g. with the committed values `(AK)(AK)` is 1 + 0.06 + 0.03 + 2 * 0.01 = 1.11, `JT98` double-suited
 * 1 + 0.06 + 4 * 0.012 = 1.108, `9642` rainbow 1 + 0.012 = 1.012, `AK72` rainbow 1 - 2 * 0.03 = 0.94.
 */

import type { PloAbstraction, PloClassFeatures } from "../plo/abstraction.js";
import type { PloPlayability } from "../tree/config.js";

/** The playability multiplier of one class (before the position factor). */
export function ploClassMultiplier(p: PloPlayability, f: PloClassFeatures): number {
  let m = 1;
  if (f.suitPattern === "ds") m += p.doubleSuited;
  else if (f.suitPattern === "ss") m += p.singleSuited;
  else if (f.suitPattern === "3s" || f.suitPattern === "4s") m += p.threeFlush;
  if (f.nutSuited) m += p.nutSuit;
  m += p.wrap * f.wrapWindows;
  if (f.pairing === "pair") m += p.pair;
  else if (f.pairing === "two-pair") m += 2 * p.pair;
  else if (f.pairing === "trips" || f.pairing === "quads") m += p.trips;
  m += p.dangler * f.danglers;
  return m;
}

/** Each bucket's multiplier: the combo-weighted mean of its classes' (`features` in `ploClasses()` order). */
export function ploBucketMultipliers(
  p: PloPlayability,
  abstraction: Pick<PloAbstraction, "bucketCount" | "classToBucket">,
  features: readonly PloClassFeatures[],
): Float64Array {
  const B = abstraction.bucketCount;
  const sum = new Float64Array(B);
  const mass = new Float64Array(B);
  features.forEach((f, c) => {
    const b = abstraction.classToBucket[c]!;
    sum[b]! += f.combos * ploClassMultiplier(p, f);
    mass[b]! += f.combos;
  });
  const out = new Float64Array(B);
  for (let b = 0; b < B; b++) {
    if (!(mass[b]! > 0)) throw new Error(`bucket ${b} has no class`);
    out[b] = sum[b]! / mass[b]!;
  }
  return out;
}
