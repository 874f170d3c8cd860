// Order statistics the benchmark scripts report.

/**
 * The values in ascending order.
 * @param xs - numbers
 * @returns a sorted copy
 */
export function sorted(xs: readonly number[]): Float64Array {
  return Float64Array.from(xs).sort(); // typed arrays sort numerically
}

/**
 * Nearest-rank percentile of values already sorted.
 * @param sortedXs - ascending values
 * @param q - 0..1
 * @returns the value, or NaN for no values
 */
export function percentile(sortedXs: ArrayLike<number>, q: number): number {
  if (sortedXs.length === 0) return NaN;
  const i = Math.min(sortedXs.length - 1, Math.max(0, Math.ceil(q * sortedXs.length) - 1));
  return sortedXs[i];
}

/**
 * The median (the mean of the two middle values for an even count).
 * @param xs - numbers
 * @returns the median, or NaN for no values
 */
export function median(xs: readonly number[]): number {
  const s = sorted(xs);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
