import { expect } from 'chai';
import { toFeedEvent } from '../../../../shared/payments/feed';
import type { LedgerEntry } from '../../../../shared/payments/authorization-store';

function entry(product: string, extra: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    product,
    tier: null,
    profile: null,
    score: null,
    passed: null,
    resultId: '00000000-0000-4000-8000-000000000002',
    network: 'eip155:8453',
    asset: '0x0000000000000000000000000000000000000001',
    amount: '180000',
    transaction: `0x${'ab'.repeat(32)}`,
    payer: `0x${'cd'.repeat(20)}`,
    settledAt: new Date('2026-01-01T00:00:00Z'),
    ...extra,
  };
}

describe('toFeedEvent', function () {
  it('keeps the EQ score and verdict of a simulate session and a duel leg', function () {
    for (const [product, label] of [['simulate', 'Scored session'], ['duel', 'Duel leg']]) {
      const ev = toFeedEvent(entry(product, { profile: 'grief-support-peer', score: 81.5, passed: true }));
      expect(ev).to.include({ kind: 'scored_session', label, score: 81.5, passed: true, profile: 'grief-support-peer' });
    }
  });

  it("never shows another product's figure as a score: a stress test's mean, a script check's adherence, a rewrite's after-score", function () {
    const cases: Array<[string, string, string]> = [
      ['stress-test', 'analysis', 'Stress test'],
      ['script-check', 'analysis', 'Script check'],
      ['rewrite', 'analysis', 'Rewrite'],
      ['progress', 'report', 'Progress report'],
      ['training-dataset', 'report', 'Training-dataset export'],
      ['bundle', 'purchase', 'Bundle purchase'],
      ['coaching', 'purchase', 'Coaching pack'],
      ['roleplay', 'purchase', 'Role-play room'],
    ];
    for (const [product, kind, label] of cases) {
      const ev = toFeedEvent(entry(product, { profile: 'grief-support-peer', score: 17.1, passed: false }));
      expect(ev, product).to.include({ kind, label, score: null, passed: null });
    }
  });

  it('reads a product the catalog no longer knows as a purchase under its own id, with no score', function () {
    expect(toFeedEvent(entry('retired-thing', { score: 50, passed: true }))).to.include({ kind: 'purchase', label: 'retired-thing', score: null, passed: null });
  });
});
