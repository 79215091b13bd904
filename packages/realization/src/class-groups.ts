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
