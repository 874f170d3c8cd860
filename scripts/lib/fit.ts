import type { LinearModel } from '../../shared/scoring/math';

function standardize(X: number[][]): { Z: number[][]; mean: number[]; scale: number[] } {
  const d = X[0].length;
  const mean = new Array(d).fill(0);
  const scale = new Array(d).fill(0);
  for (const row of X) for (let j = 0; j < d; j++) mean[j] += row[j] / X.length;
  for (const row of X) for (let j = 0; j < d; j++) scale[j] += (row[j] - mean[j]) ** 2 / X.length;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j]) || 1;
  const Z = X.map((row) => row.map((v, j) => (v - mean[j]) / scale[j]));
  return { Z, mean, scale };
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and dense). */
export function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    const piv = M[c][c] || 1e-12;
    for (let r = c + 1; r < n; r++) {
      const f = M[r][c] / piv;
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k];
    x[r] = s / (M[r][r] || 1e-12);
  }
  return x;
}

/**
 * Ridge regression on standardized features (closed form).
 * @param features - feature names, in column order
 * @param X - rows of raw feature values
 * @param y - targets
 * @param lambda - L2 penalty
 */
export function fitRidge(features: string[], X: number[][], y: number[], lambda = 1): LinearModel {
  const { Z, mean, scale } = standardize(X);
  const d = features.length;
  const ym = y.reduce((s, v) => s + v, 0) / y.length;
  const A = Array.from({ length: d }, () => new Array(d).fill(0));
  const b = new Array(d).fill(0);
  for (let i = 0; i < Z.length; i++) {
    for (let j = 0; j < d; j++) {
      b[j] += Z[i][j] * (y[i] - ym);
      for (let k = 0; k < d; k++) A[j][k] += Z[i][j] * Z[i][k];
    }
  }
  for (let j = 0; j < d; j++) A[j][j] += lambda;
  return { features, mean, scale, weights: solve(A, b), intercept: ym };
}

/**
 * L2-regularized logistic regression on standardized features, by Newton's method (IRLS).
 * @param features - feature names, in column order
 * @param X - rows of raw feature values
 * @param y - labels 0/1
 * @param lambda - L2 penalty
 */
export function fitLogistic(features: string[], X: number[][], y: number[], lambda = 1, iterations = 25): LinearModel {
  const { Z, mean, scale } = standardize(X);
  const d = features.length + 1;
  const w = new Array(d).fill(0);
  for (let it = 0; it < iterations; it++) {
    const H = Array.from({ length: d }, () => new Array(d).fill(0));
    const g = new Array(d).fill(0);
    for (let i = 0; i < Z.length; i++) {
      const x = [1, ...Z[i]];
      let eta = 0;
      for (let j = 0; j < d; j++) eta += w[j] * x[j];
      const p = 1 / (1 + Math.exp(-eta));
      const s = Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j < d; j++) {
        g[j] += (p - y[i]) * x[j];
        for (let k = 0; k < d; k++) H[j][k] += s * x[j] * x[k];
      }
    }
    for (let j = 1; j < d; j++) { g[j] += lambda * w[j]; H[j][j] += lambda; }
    const step = solve(H, g);
    let moved = 0;
    for (let j = 0; j < d; j++) { w[j] -= step[j]; moved = Math.max(moved, Math.abs(step[j])); }
    if (moved < 1e-8) break;
  }
  return { features, mean, scale, weights: w.slice(1), intercept: w[0] };
}
