const N = 169;

/**
 * The class groups of grouped effects (`fitLineEffects`' and `RealizationFit.fit`'s `groupRidge`): classes that
 * play alike after the flop. Pairs in bands of three ranks (22-44, 55-77, 88-TT, JJ-KK) and AA alone; other classes by suitedness,
 * high card and the gap between their ranks (1: connectors; 2-3; 4 and more), so A5o-A2o share a group with
 * ATo-A6o, and T8o with T7o. Grid index (13 x 13, `HOLDEM_CLASSES`' order) to group index.
 */
export const CLASS_GROUPS: readonly number[] = (() => {
  const keys = new Map<string, number>();
  return Array.from({ length: N }, (_, c) => {
    const row = Math.floor(c / 13);
    const col = c % 13;
    // Grid positions count from the ace (0) down to the deuce (12).
    let key: string;
    if (row === col) key = row === 0 ? "pair A" : `pair ${Math.floor((12 - row) / 3)}`;
    else {
      const high = Math.min(row, col);
      const gap = Math.abs(row - col);
      key = `${row < col ? "s" : "o"} ${high} ${gap === 1 ? 1 : gap <= 3 ? 2 : 3}`;
    }
    let g = keys.get(key);
    if (g === undefined) {
      g = keys.size;
      keys.set(key, g);
    }
    return g;
  });
})();
/** How many groups `CLASS_GROUPS` holds. */
export const GROUPS = Math.max(...CLASS_GROUPS) + 1;

/**
 * Neighbouring classes, for smoothed class effects (`RealizationFit.fit`'s `smoothRidge`): pairs one rank apart
 * (22-33, ..., KK-AA); suited and offsuit hands with the same high card and low cards one rank apart (A3s-A2s,
 * K9o-K8o); and suited and offsuit hands with the same gap, both cards one rank apart (65s-54s, 97s-86s,
 * AKo-KQo). Each pair once, as two grid indices (13 x 13, `HOLDEM_CLASSES`' order, the ace at 0). Hands of
 * different suitedness are never neighbours.
 */
export const CLASS_NEIGHBOURS: readonly (readonly [number, number])[] = (() => {
  const out: [number, number][] = [];
  const at = (row: number, col: number) => row * 13 + col;
  for (let r = 0; r < 13; r++)
    for (let c = 0; c < 13; c++) {
      if (r === c) {
        if (r < 12) out.push([at(r, r), at(r + 1, r + 1)]);
      } else if (r < c) {
        // Suited: row the high card, column the low card.
        if (c < 12) out.push([at(r, c), at(r, c + 1)]);
        if (c < 12 && r + 1 < c + 1) out.push([at(r, c), at(r + 1, c + 1)]);
      } else {
        // Offsuit: column the high card, row the low card.
        if (r < 12) out.push([at(r, c), at(r + 1, c)]);
        if (r < 12 && c + 1 < r + 1) out.push([at(r, c), at(r + 1, c + 1)]);
      }
    }
  return out;
})();

/**
 * Adds `weight * (e(a) - e(b))^2` to the normal matrix `A` (M x M) for every pair of neighbouring classes
 * (`CLASS_NEIGHBOURS`), where a class's effect e is its column `column(cls)` plus, when `groupColumn` is given,
 * its group's column `groupColumn(CLASS_GROUPS[cls])` (two classes of one group share it, so it cancels). A
 * generalized ridge: neighbours are pulled toward each other, not toward 0.
 */
export function addNeighbourPenalty(
  A: Float64Array,
  M: number,
  weight: number,
  column: (cls: number) => number,
  groupColumn?: (group: number) => number,
): void {
  const idx: number[] = [];
  const sign: number[] = [];
  for (const [a, b] of CLASS_NEIGHBOURS) {
    idx.length = 0;
    sign.length = 0;
    idx.push(column(a), column(b));
    sign.push(1, -1);
    if (groupColumn && CLASS_GROUPS[a] !== CLASS_GROUPS[b]) {
      idx.push(groupColumn(CLASS_GROUPS[a]!), groupColumn(CLASS_GROUPS[b]!));
      sign.push(1, -1);
    }
    for (let u = 0; u < idx.length; u++)
      for (let v = 0; v < idx.length; v++) {
        const k = idx[u]! * M + idx[v]!;
        A[k] = A[k]! + weight * sign[u]! * sign[v]!;
      }
  }
}
