/**
 * Spearman's rank correlation with a confidence interval, for setting the engine's scores against
 * people's ratings.
 */

/** z of the two-sided 95% interval of the standard normal. */
const Z_95 = 1.959963984540054;

/** A correlation with its interval and the number of pairs behind it. */
export interface SpearmanResult {
  /** Spearman's rho; null below 2 pairs or when either side does not vary. */
  rho: number | null;
  /** The 95% interval; null below 4 pairs (the Fisher z interval needs n > 3) or with |rho| = 1. */
  ci95: { low: number; high: number } | null;
  /** Pairs. */
  n: number;
}

/**
 * Ranks of values, 1-based; tied values share the mean of the ranks they span.
 * @param xs - the values
 * @returns their ranks, in the same order
 */
export function averageRanks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  const ranks = new Array<number>(xs.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].x === order[start].x) end++;
    for (let k = start; k <= end; k++) ranks[order[k].i] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  // Rounding can carry |r| a hair past 1 for identical rankings.
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * Spearman's rho (the Pearson correlation of average ranks, so ties are handled) and its 95%
 * interval through Fisher's z = atanh(rho), with the standard error sqrt(1 / (n - 3)) that
 * Fieller, Hartley and Pearson (1957) found for rank correlations (Pearson's 1 / sqrt(n - 3) is a
 * little too narrow for ranks).
 * @param x - one side (e.g. the engine's scores)
 * @param y - the other side (e.g. the raters' means), the same length
 * @returns rho, its interval and n
 * @throws RangeError when the sides differ in length
 */
export function spearman(x: readonly number[], y: readonly number[]): SpearmanResult {
  if (x.length !== y.length) throw new RangeError('spearman takes two sides of the same length');
  const n = x.length;
  if (n < 2) return { rho: null, ci95: null, n };
  const rho = pearson(averageRanks(x), averageRanks(y));
  if (rho === null || n < 4 || Math.abs(rho) === 1) return { rho, ci95: null, n };
  const z = Math.atanh(rho);
  const se = Math.sqrt(1.06 / (n - 3));
  return { rho, ci95: { low: Math.tanh(z - Z_95 * se), high: Math.tanh(z + Z_95 * se) }, n };
}
