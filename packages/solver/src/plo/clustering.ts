/**
 * The clustering mechanics of the PLO abstraction (src/plo/abstraction.ts): the bucket budget split over the
 * strata (`allocate`) and Lloyd's k-means inside a stratum (`kMeans`), both deterministic.
 */

/**
 * Splits `total` over `sizes` (each at least 1) in proportion, largest remainder, ties to the earlier; never
 * more than `caps` (the members; default the sizes themselves).
 */
export function allocate(total: number, sizes: readonly number[], caps: readonly number[] = sizes): number[] {
  const n = sizes.length;
  const sum = sizes.reduce((a, b) => a + b, 0);
  const spare = total - n;
  const out = sizes.map((s) => 1 + Math.floor((spare * s) / sum));
  // Never more buckets than members.
  for (let i = 0; i < n; i++) out[i] = Math.min(out[i]!, caps[i]!);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = sizes
    .map((s, i) => ({ i, r: (spare * s) / sum - Math.floor((spare * s) / sum) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  while (left > 0) {
    let moved = false;
    for (const { i } of order) {
      if (left === 0) break;
      if (out[i]! < caps[i]!) {
        out[i]! += 1;
        left--;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return out;
}

/**
 * `k` distinct members of `ordered` at evenly spaced quantiles of their cumulative `weight` (the member where
 * the running weight first passes (c + 0.5) / k of the total; a member already taken passes to the next).
 */
function weightedQuantiles(ordered: readonly number[], weight: Float64Array, k: number): number[] {
  const total = ordered.reduce((a, i) => a + weight[i]!, 0);
  const out: number[] = [];
  let m = 0;
  let run = 0;
  for (let c = 0; c < k; c++) {
    const target = ((c + 0.5) * total) / k;
    while (m < ordered.length - 1 && run + weight[ordered[m]!]! < target) run += weight[ordered[m++]!]!;
    // distinct starts: never before the last one taken, and leave room for the rest
    const at = Math.min(Math.max(m, out.length > 0 ? out[out.length - 1]! + 1 : 0), ordered.length - (k - c));
    out.push(at);
  }
  return out.map((at) => ordered[at]!);
}

export interface Cluster {
  /** Class indices, ascending. */
  members: number[];
  representative: number;
}

/**
 * Lloyd's k-means over `list` (class indices) with combo-weighted centroids (times `focus`, where given:
 * then the starting centroids sit at evenly spaced quantiles of that weight, not of the member count);
 * deterministic.
 */
export function kMeans(
  list: readonly number[],
  k: number,
  vectors: Float64Array,
  dims: number,
  members: { readonly equity: ArrayLike<number>; readonly combos: ArrayLike<number> },
  iterations: number,
  focus?: Float64Array,
): Cluster[] {
  const n = list.length;
  const dist = (i: number, centers: Float64Array, c: number) => {
    let s = 0;
    for (let d = 0; d < dims; d++) {
      const x = vectors[i * dims + d]! - centers[c * dims + d]!;
      s += x * x;
    }
    return s;
  };
  // Start: the members at evenly spaced quantiles of equity (ties by index).
  const byEquity = [...list].sort((a, b) => members.equity[b]! - members.equity[a]! || a - b);
  const centers = new Float64Array(k * dims);
  const starts = focus ? weightedQuantiles(byEquity, focus, k) : undefined;
  for (let c = 0; c < k; c++) {
    const i = starts ? starts[c]! : byEquity[Math.floor(((c + 0.5) * n) / k)]!;
    for (let d = 0; d < dims; d++) centers[c * dims + d] = vectors[i * dims + d]!;
  }
  const assign = new Int32Array(n).fill(-1);
  for (let round = 0; round < iterations; round++) {
    let changed = 0;
    for (let m = 0; m < n; m++) {
      const i = list[m]!;
      let best = 0;
      let bestD = dist(i, centers, 0);
      for (let c = 1; c < k; c++) {
        const x = dist(i, centers, c);
        if (x < bestD) {
          bestD = x;
          best = c;
        }
      }
      if (assign[m] !== best) changed++;
      assign[m] = best;
    }
    // Combo-weighted centroids.
    const sums = new Float64Array(k * dims);
    const mass = new Float64Array(k);
    for (let m = 0; m < n; m++) {
      const i = list[m]!;
      const c = assign[m]!;
      const w = members.combos[i]! * (focus ? focus[i]! : 1);
      mass[c]! += w;
      for (let d = 0; d < dims; d++) sums[c * dims + d]! += w * vectors[i * dims + d]!;
    }
    for (let c = 0; c < k; c++) {
      if (mass[c]! > 0) {
        for (let d = 0; d < dims; d++) centers[c * dims + d] = sums[c * dims + d]! / mass[c]!;
        continue;
      }
      // An empty bucket takes the member farthest from its own centroid (ties: the earliest).
      let far = -1;
      let farD = -1;
      for (let m = 0; m < n; m++) {
        const x = dist(list[m]!, centers, assign[m]!);
        if (x > farD) {
          farD = x;
          far = m;
        }
      }
      assign[far] = c;
      mass[c] = 1;
      for (let d = 0; d < dims; d++) centers[c * dims + d] = vectors[list[far]! * dims + d]!;
      changed++;
    }
    if (changed === 0) break;
  }
  // A final assignment pass can still empty a bucket; fold such buckets away rather than emit an empty one.
  const clusters: Cluster[] = [];
  for (let c = 0; c < k; c++) {
    const memberList: number[] = [];
    for (let m = 0; m < n; m++) if (assign[m] === c) memberList.push(list[m]!);
    if (memberList.length === 0) continue;
    let rep = memberList[0]!;
    let repD = Number.POSITIVE_INFINITY;
    for (const i of memberList) {
      const x = dist(i, centers, c);
      if (x < repD) {
        repD = x;
        rep = i;
      }
    }
    clusters.push({ members: memberList.sort((a, b) => a - b), representative: rep });
  }
  return clusters;
}
