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
