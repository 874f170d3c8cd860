import { expect } from 'chai';
import { averageRanks, spearman } from '../../../../shared/agreement/spearman';

describe('spearman', function () {
  it('gives 1 - 6 sum(d^2) / (n (n^2 - 1)) on a set without ties', function () {
    // Swapping each adjacent pair of 1..28 moves every rank by one: sum d^2 = 28, rho = 1 - 6/783.
    const x = Array.from({ length: 28 }, (_v, i) => i + 1);
    const y = x.map((v) => (v % 2 === 1 ? v + 1 : v - 1));
    const result = spearman(x, y);
    expect(result.n).to.equal(28);
    expect(result.rho).to.be.closeTo(1 - 6 / 783, 1e-12);
  });

  it('gives the Fisher z interval with the rank-correlation standard error', function () {
    // A permutation of 1..15 with sum d^2 = 112 has rho = 1 - 6 * 112 / (15 * 224) = 0.8 exactly.
    // z = atanh(0.8) = 1.0986123, se = sqrt(1.06 / 12) = 0.2972092, so the interval is
    // tanh(1.0986123 -/+ 1.959964 * 0.2972092) = tanh(0.5160929), tanh(1.6811317) = 0.4746789, 0.9330083.
    const x = Array.from({ length: 15 }, (_v, i) => i + 1);
    const result = spearman(x, rankedWithRho(15, 0.8));
    expect(result.rho).to.be.closeTo(0.8, 1e-12);
    expect(result.ci95!.low).to.be.closeTo(0.4746789, 1e-6);
    expect(result.ci95!.high).to.be.closeTo(0.9330083, 1e-6);
  });

  it('gives tied values their average rank', function () {
    expect(averageRanks([10, 20, 20, 30])).to.deep.equal([1, 2.5, 2.5, 4]);
    // Ranks [1, 2.5, 2.5, 4] against [1, 2, 3, 4]: 4.5 / sqrt(4.5 * 5) = 0.9486833.
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4]).rho).to.be.closeTo(0.9486833, 1e-7);
  });

  it('is -1 for opposite orders, with no interval at |rho| = 1', function () {
    expect(spearman([1, 2, 3, 4, 5], [9, 7, 5, 3, 1])).to.deep.equal({ rho: -1, ci95: null, n: 5 });
  });

  it('has no value when a side does not vary, and no interval below four pairs', function () {
    expect(spearman([1, 2, 3, 4], [2, 2, 2, 2]).rho).to.equal(null);
    const three = spearman([1, 2, 3], [1, 3, 2]);
    expect(three.rho).to.be.closeTo(0.5, 1e-12);
    expect(three.ci95).to.equal(null);
    expect(spearman([1], [1]).rho).to.equal(null);
  });

  it('refuses sides of different lengths', function () {
    expect(() => spearman([1, 2], [1])).to.throw(RangeError);
  });
});

/**
 * A permutation of 1..n whose Spearman rho against 1..n is exactly `rho`: starting from the
 * identity, swap pairs (i, j) while the remaining sum of squared rank differences allows it.
 * @param n - length
 * @param rho - the target
 * @returns the permutation
 */
function rankedWithRho(n: number, rho: number): number[] {
  // sum d^2 must equal (1 - rho) n (n^2 - 1) / 6, an even integer (each swap adds an even amount).
  const target = ((1 - rho) * n * (n * n - 1)) / 6;
  const need = Math.round(target);
  if (Math.abs(target - need) > 1e-9) throw new Error(`no permutation of ${n} has rho ${rho}`);
  const y = Array.from({ length: n }, (_v, i) => i + 1);
  let left = need;
  // Swapping positions i and j adds 2 (j - i)^2 to sum d^2 when both were in place.
  for (let i = 0; i < n && left > 0; i++) {
    if (y[i] !== i + 1) continue;
    for (let j = n - 1; j > i; j--) {
      const add = 2 * (j - i) ** 2;
      if (y[j] === j + 1 && add <= left) {
        [y[i], y[j]] = [y[j], y[i]];
        left -= add;
        break;
      }
    }
  }
  if (left !== 0) throw new Error('could not construct the permutation');
  return y;
}
