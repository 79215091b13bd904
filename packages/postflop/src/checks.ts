/**
 * When a solve measures its exploitability. A measure is an exact best response for each player, about as
 * costly as an iteration, so a solve measures every `every` iterations while it is far from its target. Once
 * two measures at least half that far apart show how fast exploitability falls, taken as a power of the
 * iteration count (e = c / t^k, the shape of CFR's average strategy converging), the next measure is at the
 * iteration where that fall reaches the target, and never more than `every` iterations on. A solve then
 * stops within an iteration or two of where it first reaches the target rather than up to `every - 1` past
 * it. The schedule depends only on the measures, so a solve stays deterministic.
 *
 *   const checks = new CheckSchedule(10, 0.5);
 *   while (...) { solver.iterate(); if (checks.due(solver.iteration)) checks.record(solver.iteration, e) }
 *
 * With e = 5000 / t^2 and a target of 0.55: measures at 10, 20, ..., 90 (0.617), then at 96 (0.543), the first
 * iteration at the target, instead of at 100.
 */
export class CheckSchedule {
  private readonly measures: { readonly t: number; readonly e: number }[] = [];
  private next: number;

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
    let step = this.every;
    const gap = Math.ceil(this.every / 2);
    const earlier = this.measures.findLast((m) => m.t <= t - gap);
    if (earlier && e > this.target && e < earlier.e) {
      const k = Math.log(earlier.e / e) / Math.log(t / earlier.t);
      const at = t * (e / this.target) ** (1 / k);
      if (Number.isFinite(at)) step = Math.min(this.every, Math.max(1, Math.ceil(at) - t));
    }
    this.measures.push({ t, e });
    this.next = t + step;
  }
}
