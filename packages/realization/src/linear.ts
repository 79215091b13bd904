/** Solves A x = y for a symmetric positive definite M x M matrix A (row-major, lower triangle read) by Cholesky. */
export function choleskySolve(A: Float64Array, y: Float64Array, M: number): Float64Array {
  const L = new Float64Array(M * M);
  for (let i = 0; i < M; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * M + j]!;
      for (let k = 0; k < j; k++) s -= L[i * M + k]! * L[j * M + k]!;
      L[i * M + j] = i === j ? Math.sqrt(Math.max(s, 1e-300)) : s / L[j * M + j]!;
    }
  }
  const z = new Float64Array(M);
  for (let i = 0; i < M; i++) {
    let s = y[i]!;
    for (let k = 0; k < i; k++) s -= L[i * M + k]! * z[k]!;
    z[i] = s / L[i * M + i]!;
  }
  const x = new Float64Array(M);
  for (let i = M - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < M; k++) s -= L[k * M + i]! * x[k]!;
    x[i] = s / L[i * M + i]!;
  }
  return x;
}
