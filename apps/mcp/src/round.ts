/** Rounding of the numbers the tools answer with: to 2, 3 or 4 decimals. */

export const r2 = (x: number): number => Math.round(x * 100) / 100;
export const r3 = (x: number): number => Math.round(x * 1000) / 1000;
export const r4 = (x: number): number => Math.round(x * 10000) / 10000;
