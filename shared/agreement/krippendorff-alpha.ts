/**
 * Krippendorff's alpha: how far coders agree beyond chance, for any number of coders, missing
 * values and the level of measurement of the scale (Krippendorff, "Computing Krippendorff's
 * Alpha-Reliability", 2011). Computed from the coincidence matrix of pairable values.
 */

/** The level of measurement, which sets how far apart two values are. */
export type AlphaLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';

/** Alpha with what it rests on. */
export interface AlphaResult {
  /** 1 - D_o / D_e; null when it is undefined (no pairable values, or every value the same). */
  alpha: number | null;
  /** Units with at least two values (the only ones that count). */
  units: number;
  /** Pairable values n (the sum of the coincidence matrix). */
  pairable: number;
  /** Observed disagreement D_o. */
  observed: number;
  /** Disagreement expected by chance D_e. */
  expected: number;
}

type Distance = (c: number, k: number) => number;

/**
 * The squared distance of two values at a level. The ordinal one depends on how often each value
 * was used (its marginal n_g), so it is built from the marginals.
 * @param level - level of measurement
 * @param values - the distinct values, ascending
 * @param marginals - n_g of each value, in the same order
 * @returns the distance function over indexes into `values`
 */
function distanceFor(level: AlphaLevel, values: readonly number[], marginals: readonly number[]): Distance {
  switch (level) {
    case 'nominal':
      return (c, k) => (c === k ? 0 : 1);
    case 'interval':
      return (c, k) => (values[c] - values[k]) ** 2;
    case 'ratio':
      return (c, k) => {
        const sum = values[c] + values[k];
        return sum === 0 ? 0 : ((values[c] - values[k]) / sum) ** 2;
      };
    case 'ordinal': {
      // Cumulative marginals make each distance O(1): sum_{g=c..k} n_g = cum[k+1] - cum[c].
      const cumulative = [0];
      for (const n of marginals) cumulative.push(cumulative[cumulative.length - 1] + n);
      return (c, k) => {
        if (c === k) return 0;
        const [lo, hi] = c < k ? [c, k] : [k, c];
        return (cumulative[hi + 1] - cumulative[lo] - (marginals[lo] + marginals[hi]) / 2) ** 2;
      };
    }
  }
}

/**
 * Krippendorff's alpha of reliability data given unit by unit.
 * @param units - for each unit, the values its coders gave (missing values left out); units with
 *   fewer than two values are not pairable and are ignored
 * @param level - level of measurement
 * @returns alpha (null when undefined) with its counts and disagreements
 * @throws RangeError when a value is not a finite number, or is negative at the ratio level
 */
export function krippendorffAlpha(units: ReadonlyArray<readonly number[]>, level: AlphaLevel): AlphaResult {
  const pairableUnits = units.filter((u) => u.length >= 2);
  for (const unit of pairableUnits) {
    for (const v of unit) {
      if (!Number.isFinite(v)) throw new RangeError('alpha takes finite numbers only');
      if (level === 'ratio' && v < 0) throw new RangeError('ratio alpha takes non-negative values only');
    }
  }
  const values = [...new Set(pairableUnits.flat())].sort((a, b) => a - b);
  const index = new Map(values.map((v, i) => [v, i]));
  const size = values.length;
  const coincidences = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (const unit of pairableUnits) {
    // Each ordered pair of values from different coders of the unit adds 1 / (m_u - 1).
    const counts = new Array<number>(size).fill(0);
    for (const v of unit) counts[index.get(v)!] += 1;
    const weight = 1 / (unit.length - 1);
    for (let c = 0; c < size; c++) {
      if (counts[c] === 0) continue;
      for (let k = 0; k < size; k++) {
        if (counts[k] === 0) continue;
        coincidences[c][k] += (c === k ? counts[c] * (counts[c] - 1) : counts[c] * counts[k]) * weight;
      }
    }
  }
  const marginals = coincidences.map((row) => row.reduce((a, b) => a + b, 0));
  const n = marginals.reduce((a, b) => a + b, 0);
  const empty = { alpha: null, units: pairableUnits.length, pairable: n, observed: 0, expected: 0 };
  if (n <= 1) return empty;
  const delta = distanceFor(level, values, marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < size; c++) {
    for (let k = 0; k < size; k++) {
      const d = delta(c, k);
      observed += coincidences[c][k] * d;
      expected += marginals[c] * marginals[k] * d;
    }
  }
  observed /= n;
  expected /= n * (n - 1);
  // Every pairable value the same: no variation to agree about, so alpha says nothing.
  if (expected === 0) return { ...empty, observed, expected };
  return { alpha: 1 - observed / expected, units: pairableUnits.length, pairable: n, observed, expected };
}
