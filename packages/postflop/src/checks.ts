/**
 * When a solve measures its exploitability. A measure is an exact best response for each player, about as
 * costly as an iteration (0.7 of one on the benchmark flop). The first two are `every` iterations apart. From
 * then on two measures at least half that far apart show how fast exploitability falls, taken as a power of
 * the iteration count (e = c / t^k, the shape of CFR's average strategy converging), which predicts the
 * iteration where it reaches the target: while that is more than `every` iterations away and exploitability is
 * above 1.5 times the target, the next measure is halfway there (at least `every` and at most `4 * every` on);
 * once the prediction is within `every`, the next measure is at the predicted iteration (after a missed one,
 * at least `every / 4` on). Otherwise, and where exploitability did not fall since the earlier measure, the
 * next is `every` on. A solve then spends few measures far from the target and, where the fall is smooth,
 * stops within an iteration or two of where it first reaches it; a fall that stalls near the target costs at
 * most `every` iterations past it. The schedule depends only on the measures, so a solve stays deterministic.
 *
 *   const checks = new CheckSchedule(10, 0.5);
 *   while (...) { solver.iterate(); if (checks.due(solver.iteration)) checks.record(solver.iteration, e) }
 *
 * With e = 5000 / t^2 and a target of 0.55 (reached at t = 95.3): measures at 10, 20 (12.5, so 95.3 is
 * predicted: halfway is 57), 57, 76, 86 and 96 (0.543), the first iteration at the target: six measures where
 * measuring every 10 takes ten and stops at 100.
 */
export class CheckSchedule {
  private readonly measures: { readonly t: number; readonly e: number }[] = [];
  private next: number;
  /** Whether the last step aimed at the iteration predicted to reach the target. */
  private aimed = false;

  readonly every: number;
  readonly target: number;

  constructor(every: number, target: number) {
    if (!(Number.isInteger(every) && every >= 1)) {
      throw new RangeError(`checkEvery: expected an integer >= 1, got ${every}`);
    }
    this.every = every;
    this.target = target;
    this.next = every;
  }

  /** Whether to measure after iteration t. */
  due(t: number): boolean {
    return t >= this.next;
  }

  /** Records the measure e (percent of the pot) after iteration t and plans the next one. */
  record(t: number, e: number): void {
    const missedAim = this.aimed && e > this.target;
    this.aimed = false;
    let step = this.every;
    const gap = Math.ceil(this.every / 2);
    const earlier = this.measures.findLast((m) => m.t <= t - gap);
    if (earlier && e > this.target && e < earlier.e) {
      const k = Math.log(earlier.e / e) / Math.log(t / earlier.t);
      const at = t * (e / this.target) ** (1 / k);
      if (Number.isFinite(at)) {
        const remaining = at - t;
        if (remaining <= this.every) {
          // At the predicted iteration; after a miss at least a quarter of `every` on, so that a fall that
          // stalls just above the target is not measured after every iteration.
          step = Math.max(missedAim ? Math.ceil(this.every / 4) : 1, Math.ceil(remaining));
          this.aimed = true;
        } else if (e > 1.5 * this.target) {
          step = Math.min(4 * this.every, Math.max(this.every, Math.floor(remaining / 2)));
        }
      }
    }
    this.measures.push({ t, e });
    this.next = t + step;
  }
}
