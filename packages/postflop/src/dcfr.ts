/** DCFR's discount schedule: its parameters, the discounts of an iteration, and its provenance text. */

/** Discount factors of one DCFR iteration. */
export interface Discount {
  /** Multiplier of positive accumulated regrets. */
  readonly positive: number;
  /** Multiplier of negative accumulated regrets. */
  readonly negative: number;
  /** Multiplier of the strategy sums. */
  readonly strategy: number;
}

/**
 * DCFR's schedule (Brown and Sandholm, "Solving Imperfect-Information Games via Discounted Regret
 * Minimization", 2019): after iteration t, positive regrets are multiplied by t^alpha / (t^alpha + 1), negative
 * ones by t^beta / (t^beta + 1) and the strategy sums by (t / (t + 1))^gamma.
 *
 *   { alpha: 1.5, beta: 0, gamma: 2 }             the paper's recommendation, which the packs are solved with
 *   { alpha: 1.5, beta: 0, gamma: 3 }             the early iterates weigh less in the average, which reaches
 *                                                 0.5% of the pot in some 8% fewer iterations on the benchmark
 *                                                 flop (BENCHMARKS.md, "Postflop solver")
 *   { alpha: 1.5, beta: 0, gamma: 3, delay: 1 }   the default here: positive regrets discounted one iteration
 *                                                 late, so the first iteration's (played against a uniform
 *                                                 opponent) are dropped; 0.5% of the pot in some 10% fewer
 *                                                 iterations again (BENCHMARKS.md, "A delayed discount")
 */
export interface DcfrParams {
  readonly alpha: number;
  readonly beta: number;
  readonly gamma: number;
  /**
   * Positive regrets discounted as if `delay` fewer iterations were done: after iteration t by
   * (t - delay)^alpha / ((t - delay)^alpha + 1), which is 0 while t <= delay. Absent or 0: the paper's.
   */
  readonly delay?: number;
}

export const DEFAULT_DCFR: DcfrParams = { alpha: 1.5, beta: 0, gamma: 3, delay: 1 };

/**
 * The schedule in words, as provenance records it: `DCFR (alpha 1.5, beta 0, gamma 3, positive regrets discounted
 * 1 iteration late), ...`.
 */
export function describeDcfr(params: DcfrParams): string {
  const delay = params.delay
    ? `, positive regrets discounted ${params.delay} iteration${params.delay === 1 ? "" : "s"} late`
    : "";
  return `DCFR (alpha ${params.alpha}, beta ${params.beta}, gamma ${params.gamma}${delay}), alternating updates, vectorized over combos`;
}

/** The discounts applied at iteration t (1-based) to what iterations 1..t-1 accumulated. */
export function discountAt(t: number, params: DcfrParams = DEFAULT_DCFR): Discount {
  const prev = t - 1;
  const a = Math.max(0, prev - (params.delay ?? 0)) ** params.alpha;
  const b = prev ** params.beta;
  return {
    positive: prev === 0 ? 0 : a / (a + 1),
    negative: prev === 0 ? 0 : b / (b + 1),
    strategy: prev === 0 ? 0 : (prev / t) ** params.gamma,
  };
}
