import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { EVIDENCE_COUNTERS, recordCallEvidence, type EvidenceCounter } from '../../../../shared/proof-cards/evidence-store';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const PRODUCT = 'simulate';
const CALLS = 60;

// Deterministic shuffles, so a failure can be replayed.
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let x = seed * 2654435761;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('proof-card evidence under concurrent paid calls', function () {
  this.timeout(60_000);
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('evidence-store', { worker: false });
    await stack.truncate();
  });
  after(async function () {
    await stack?.close();
  });

  it('records every call exactly under 60 concurrent calls that name overlapping counters in different orders', async function () {
    const pool: EvidenceCounter[] = ['payment_retries', 'verified_settlements', 'successful_invocations', 'payment_challenges'].filter((c): c is EvidenceCounter =>
      (EVIDENCE_COUNTERS as readonly string[]).includes(c),
    );
    expect(pool).to.have.length(4);
    const calls = Array.from({ length: CALLS }, (_, i) => ({
      counters: shuffled(pool, i + 1).slice(0, 2 + (i % 3)),
      // Twelve buyers, each paying five times: their rows are shared between concurrent calls too.
      buyerHash: createHash('sha256').update(`buyer-${i % 12}`).digest('hex'),
      key: `evidence-test/${i}`,
    }));
    const results = await Promise.allSettled(
      calls.map((c) => recordCallEvidence(stack.deps.dataSource, PRODUCT, c.counters, { key: c.key, buyerHash: c.buyerHash, latencyMs: 5, viaProofCard: false, canary: false })),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => String(r.reason));
    expect(failed, failed[0]).to.deep.equal([]);

    const rows = (await stack.deps.dataSource.query(`SELECT counter, n::int AS n FROM proof_card_counters WHERE product = $1`, [PRODUCT])) as Array<{ counter: string; n: number }>;
    const counted = Object.fromEntries(rows.map((r) => [r.counter, r.n]));
    for (const c of pool) expect(counted[c] ?? 0, c).to.equal(calls.filter((call) => call.counters.includes(c)).length);
    expect(counted.deliveries).to.equal(CALLS);
    expect(counted.repeat_buyers).to.equal(12);
    expect(counted.second_paid_calls).to.equal(CALLS - 12);
  });
});
