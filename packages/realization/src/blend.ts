/**
 * The one mixture both the hold'em plans (`blendPlan`, src/batch.ts) and the toy oracle (`rangeBlend`,
 * src/toy/grounded.ts) use, so the toy measures exactly what a blended round solves: each class's weight
 * `(1 - earlierShare) * now + earlierShare * earlier`.
 *
 *   blendWeights([1, 1, 0], [1, 0, 1], 0.25)   // [1, 0.75, 0.25]
 */
export function blendWeights(
  now: ArrayLike<number>,
  earlier: ArrayLike<number>,
  earlierShare: number,
): Float64Array {
  return Float64Array.from(now, (x, c) => (1 - earlierShare) * x + earlierShare * earlier[c]!);
}
