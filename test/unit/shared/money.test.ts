import { expect } from 'chai';
import { formatUsdc } from '../../../shared/money';

describe('formatUsdc', function () {
  it('shows atomic units as dollars with every significant decimal and at least two', function () {
    expect(formatUsdc(50_000)).to.equal('0.05 USDC');
    expect(formatUsdc(75_000)).to.equal('0.075 USDC');
    expect(formatUsdc(180_000)).to.equal('0.18 USDC');
    expect(formatUsdc('42500000')).to.equal('42.50 USDC');
    expect(formatUsdc(1n)).to.equal('0.000001 USDC');
    expect(formatUsdc(0)).to.equal('0.00 USDC');
    expect(formatUsdc('123456789012345678901')).to.equal('123456789012345.678901 USDC');
  });
});
