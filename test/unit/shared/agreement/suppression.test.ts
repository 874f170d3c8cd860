import { expect } from 'chai';
import { MIN_PEOPLE, suppressBelowMin, suppressedCount } from '../../../../shared/agreement/suppression';

describe('suppression', function () {
  it('withholds a figure resting on fewer than five people and shows it from five', function () {
    expect(MIN_PEOPLE).to.equal(5);
    expect(suppressBelowMin(0.42, 4)).to.deep.equal({ value: null, suppressed: true });
    expect(suppressBelowMin(0.42, 5)).to.deep.equal({ value: 0.42, suppressed: false });
  });

  it('withholds counts of one to four people, shows zero and five or more', function () {
    expect([0, 1, 2, 3, 4, 5, 6].map(suppressedCount)).to.deep.equal([0, null, null, null, null, 5, 6]);
  });
});
